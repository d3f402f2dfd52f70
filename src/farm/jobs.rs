//! Jobs spread over threads and processes: [`map_jobs`] for a run's games (each process
//! plays its [`share`] of every batch and all exchange their results), [`map_whole_jobs`]
//! for whole runs, and [`alone`] for work that stays on this process.

use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::persist::{decode_message, encode_message};

use super::{Processes, installed};

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
/// an experiment's runs; they must not use [`publish`](super::publish) or
/// [`receive`](super::receive).
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
