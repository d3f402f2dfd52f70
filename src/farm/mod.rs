//! The one seam where work runs in parallel: independent jobs spread over this process's
//! threads and, when an MPI launcher started the process (built with the `mpi` feature),
//! over every process of the job. Results come back in job order whatever the spread, so
//! a run depends neither on `--threads` nor on the number of processes.
//!
//! A run's games are [`map_jobs`]: every process of an MPI job runs the same command on
//! the same state, each plays its share of every batch of jobs, all exchange their
//! results, and each then computes the same next step. Only the leader (process 0) writes
//! files and prints. An experiment's runs are [`map_whole_jobs`]: each process runs its
//! share of the runs whole, writing their directories itself.
//!
//! Here is the seam itself, [`Processes`], installed once per process; the jobs are in
//! `jobs.rs`, the other exchanges between processes in `exchange.rs`, a process's part in
//! its job in `launch.rs`, and the MPI transport in `mpi.rs` (feature `mpi`).

mod exchange;
mod jobs;
mod launch;
#[cfg(feature = "mpi")]
pub mod mpi;
#[cfg(test)]
mod tests;

pub use exchange::{all_agree, any_process, publish, receive};
pub use jobs::{alone, map_jobs, map_whole_jobs, share};
pub use launch::{Launch, launch};

use std::sync::OnceLock;

/// The processes of a job as the jobs see them: one implementation per transport (MPI),
/// installed once per process by [`install`].
pub trait Processes: Send + Sync {
    /// This process's number, from 0 (the leader) to `size() - 1`.
    fn rank(&self) -> usize;
    /// Number of processes in the job.
    fn size(&self) -> usize;
    /// True on the one thread allowed to communicate. Jobs started on any other thread
    /// (inside a parallel loop) stay in this process, as every process does the same.
    fn may_communicate(&self) -> bool;
    /// Every process's `mine`, in process order, on every process.
    fn all_gather(&self, mine: Vec<u8>) -> Vec<Vec<u8>>;
    /// The leader's `bytes` on every process (the others' `bytes` are ignored).
    fn broadcast(&self, bytes: Vec<u8>) -> Vec<u8>;
}

static PROCESSES: OnceLock<Box<dyn Processes>> = OnceLock::new();

/// Spreads this process's jobs over `processes` from now on. Returns false (and changes
/// nothing) if processes were installed already.
pub fn install(processes: Box<dyn Processes>) -> bool {
    PROCESSES.set(processes).is_ok()
}

fn installed() -> Option<&'static dyn Processes> {
    PROCESSES.get().map(Box::as_ref)
}

/// True in the process that writes files and prints: process 0, or a process on its own.
pub fn is_leader() -> bool {
    installed().is_none_or(|processes| processes.rank() == 0)
}

/// Number of processes the work spreads over (1 without MPI).
pub fn process_count() -> usize {
    installed().map_or(1, |processes| processes.size())
}
