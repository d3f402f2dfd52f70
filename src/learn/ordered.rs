//! Parallel jobs whose results one thread consumes in job order while later jobs still
//! run: what lets [`super::td::train`] apply a batch's updates, which must go in game
//! order, while the batch's other games are played.

use std::sync::mpsc;

/// Runs `job(k)` for every k in `0..count` on the current thread pool and hands their
/// results to `consume` in the order of k, as an iterator: each result comes as soon as it
/// and those before it are done. While the next one is not, the consuming thread runs
/// pending jobs itself, oldest first, so jobs finish roughly in order. If a job panics, the
/// iterator ends early and the panic is raised once every job has ended.
pub fn in_order<R: Send, T: Send>(
    count: usize,
    job: &(dyn Fn(usize) -> R + Sync),
    consume: impl FnOnce(&mut dyn Iterator<Item = R>) -> T + Send,
) -> T {
    let (sender, receiver) = mpsc::channel();
    rayon::scope_fifo(move |scope| {
        for k in 0..count {
            let sender = sender.clone();
            scope.spawn_fifo(move |_| {
                // The receiver outlives the scope, so the send cannot fail.
                let _ = sender.send((k, job(k)));
            });
        }
        drop(sender);
        let mut arrived: Vec<Option<R>> = (0..count).map(|_| None).collect();
        let mut next = 0;
        let mut results = std::iter::from_fn(|| {
            while next < count {
                if let Some(result) = arrived[next].take() {
                    next += 1;
                    return Some(result);
                }
                match receiver.try_recv() {
                    Ok((k, result)) => arrived[k] = Some(result),
                    // Every job has ended and result `next` never came: its job panicked.
                    Err(mpsc::TryRecvError::Disconnected) => return None,
                    Err(mpsc::TryRecvError::Empty) => {
                        if rayon::yield_now() != Some(rayon::Yield::Executed) {
                            std::thread::yield_now();
                        }
                    }
                }
            }
            None
        });
        consume(&mut results)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The results of jobs of uneven lengths, consumed on a pool of `threads` threads.
    fn consumed(threads: usize) -> Vec<usize> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let job = |k: usize| {
            std::thread::sleep(std::time::Duration::from_micros(((k * 7) % 5) as u64 * 200));
            k * k
        };
        pool.install(|| in_order(20, &job, |results| results.collect()))
    }

    #[test]
    fn results_come_in_job_order_whatever_the_threads() {
        let expected: Vec<usize> = (0..20).map(|k| k * k).collect();
        for threads in [1, 2, 4] {
            assert_eq!(consumed(threads), expected, "{threads} threads");
        }
    }

    #[test]
    fn a_panicking_job_ends_the_results_and_panics() {
        let outcome = std::panic::catch_unwind(|| {
            let job = |k: usize| {
                assert!(k != 3, "job 3 fails");
                k
            };
            in_order(6, &job, |results| results.count())
        });
        assert!(outcome.is_err());
    }
}
