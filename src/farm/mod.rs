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

#[cfg(feature = "mpi")]
pub mod mpi;

use std::process::ExitCode;
use std::sync::OnceLock;

use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::persist::{decode_message, encode_message};

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

/// The jobs out of `0..jobs` that process `rank` of `size` plays: every `size`-th from
/// `rank`. Neighbouring jobs tend to cost alike (one pair's two colours, one individual's
/// games, one opening), so interleaving gives every process a like mix of long and short
/// games, and the split is fixed, so no process waits to be told what to play.
pub fn share(jobs: usize, rank: usize, size: usize) -> impl Iterator<Item = usize> {
    (rank..jobs).step_by(size.max(1))
}

/// Runs `job(k)` for every k in `0..jobs` and returns the results in the order of k. Alone,
/// the jobs run on the rayon pool; under MPI each process plays its [`share`] on its own
/// pool and every process receives every result, passed through its encoding (the same
/// value for every process, including the one that computed it).
pub fn map_jobs<R, F>(jobs: usize, job: F) -> Vec<R>
where
    R: Serialize + DeserializeOwned + Send,
    F: Fn(usize) -> R + Sync + Send,
{
    let Some(processes) = installed().filter(|processes| processes.may_communicate()) else {
        return (0..jobs).into_par_iter().map(job).collect();
    };
    let (rank, size) = (processes.rank(), processes.size());
    let mine: Vec<usize> = share(jobs, rank, size).collect();
    let results: Vec<R> = mine.into_par_iter().map(job).collect();
    gather(processes, jobs, results)
}

/// Runs `job(k)` for every k in `0..jobs`, each job whole on one process (under MPI,
/// process r runs its [`share`]), and returns every result in the order of k on every
/// process. On each process at most `at_once` jobs run at a time, each on a thread of its
/// own: the parallel work inside a job ([`map_jobs`]) then stays on this process and shares
/// its thread pool. For jobs that are long, independent and write their own files, such as
/// an experiment's runs; they must not use [`publish`] or [`receive`].
pub fn map_whole_jobs<R, F>(jobs: usize, at_once: usize, job: F) -> Vec<R>
where
    R: Serialize + DeserializeOwned + Send,
    F: Fn(usize) -> R + Sync,
{
    let spread = installed().filter(|processes| processes.may_communicate());
    let (rank, size) = spread.map_or((0, 1), |processes| (processes.rank(), processes.size()));
    let mine: Vec<usize> = share(jobs, rank, size).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done: std::sync::Mutex<Vec<Option<R>>> =
        std::sync::Mutex::new(mine.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..at_once.clamp(1, mine.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&k) = mine.get(i) else { break };
                    let result = job(k);
                    done.lock().expect("no job panics while holding the lock")[i] = Some(result);
                }
            });
        }
    });
    let results: Vec<R> = done
        .into_inner()
        .expect("no job panics while holding the lock")
        .into_iter()
        .map(|result| result.expect("every job of the share ran"))
        .collect();
    match spread {
        Some(processes) => gather(processes, jobs, results),
        None => results,
    }
}

/// Runs `work` in this process alone, on a thread of its own, so that the jobs it spreads
/// stay on this process: the leader's work once the other processes have left.
pub fn alone<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| match scope.spawn(work).join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

/// Every process's `results` of its [`share`] of `jobs`, exchanged and put back in job order.
fn gather<R>(processes: &dyn Processes, jobs: usize, results: Vec<R>) -> Vec<R>
where
    R: Serialize + DeserializeOwned,
{
    let size = processes.size();
    let gathered = processes.all_gather(encode_message(&results));
    let mut shares: Vec<std::vec::IntoIter<R>> = gathered
        .iter()
        .map(|bytes| {
            decode_message::<Vec<R>>(bytes)
                .expect("every process runs the same build and encodes its results alike")
                .into_iter()
        })
        .collect();
    (0..jobs)
        .map(|k| {
            shares[k % size]
                .next()
                .expect("every process returns one result per job of its share")
        })
        .collect()
}

/// True if every process holds the same `value` (always, alone): a guard that the
/// processes, each computing the next step on its own, still agree. Costs one exchange of
/// a 4-byte checksum.
pub fn all_agree<T: Serialize>(value: &T) -> bool {
    let Some(processes) = installed().filter(|processes| processes.may_communicate()) else {
        return true;
    };
    let checksum = crc32fast::hash(&encode_message(value)).to_le_bytes();
    let all = processes.all_gather(checksum.to_vec());
    all.iter().all(|theirs| theirs[..] == checksum[..])
}

/// True if `mine` is true on any process (on a process alone, `mine`): a decision every
/// process takes alike, such as to stop when one of them was asked to. Costs one exchange
/// of a byte.
pub fn any_process(mine: bool) -> bool {
    let Some(processes) = installed().filter(|processes| processes.may_communicate()) else {
        return mine;
    };
    let all = processes.all_gather(vec![u8::from(mine)]);
    all.iter().any(|theirs| theirs.first() == Some(&1))
}

/// Sends the leader's `value` to every other process, which takes it with [`receive`]
/// (nothing to do on a process alone).
pub fn publish<T: Serialize>(value: &T) {
    if let Some(processes) = installed() {
        processes.broadcast(encode_message(value));
    }
}

/// The value the leader [`publish`]es, on a process other than the leader.
///
/// # Panics
/// On a process alone, which has no leader to listen to.
pub fn receive<T: DeserializeOwned>() -> T {
    let processes = installed().expect("only a process of an MPI job receives");
    decode_message(&processes.broadcast(Vec::new()))
        .expect("every process runs the same build and encodes alike")
}

/// This process's part in the job, from the start of `main` to its end: under an MPI
/// launcher (with the `mpi` feature) the membership of the job, which ends when this is
/// dropped; otherwise nothing.
pub struct Launch {
    #[cfg(feature = "mpi")]
    session: Option<mpi::Session>,
}

/// Joins the MPI job if an MPI launcher started this process and the build has the `mpi`
/// feature; otherwise the process runs alone, exactly as without the feature.
pub fn launch() -> Launch {
    Launch {
        #[cfg(feature = "mpi")]
        session: mpi::Session::join(),
    }
}

impl Launch {
    /// Reports a failure, `line` on stderr, and ends with `code`. In a job of several
    /// processes the leader reports every failure and the others only those that are not
    /// bad input (bad input is the same on every process, failures may be one process's
    /// own), and the whole job is stopped, as the others may wait for this one.
    pub fn fail(self, code: u8, line: &str) -> ExitCode {
        #[cfg(feature = "mpi")]
        if let Some(session) = self.session {
            session.fail(code, line);
        }
        eprintln!("{line}");
        ExitCode::from(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shares_cover_every_job_once() {
        for size in 1..5 {
            let mut seen: Vec<usize> = (0..size).flat_map(|rank| share(11, rank, size)).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..11).collect::<Vec<_>>(), "{size} processes");
        }
        assert_eq!(share(7, 1, 3).collect::<Vec<_>>(), vec![1, 4]);
    }

    #[test]
    fn a_process_alone_keeps_the_job_order() {
        assert_eq!(
            map_jobs(100, |k| k * k),
            (0..100).map(|k| k * k).collect::<Vec<_>>()
        );
        for at_once in [1, 3, 200] {
            assert_eq!(
                map_whole_jobs(100, at_once, |k| map_jobs(k, |j| j).len()),
                (0..100).collect::<Vec<_>>(),
                "{at_once} at once"
            );
        }
        assert!(is_leader());
        assert_eq!(process_count(), 1);
    }
}
