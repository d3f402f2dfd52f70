//! The MPI transport of [`crate::farm`] (feature `mpi`, rsmpi over the system's MPI
//! library). A process joins the job when an MPI launcher started it (`mpirun`, `mpiexec`,
//! Slurm's `srun`); the other processes' stdout and stderr go to /dev/null, so that only
//! the leader prints, and only the thread that joined communicates (MPI's "funneled"
//! threading), while rayon's threads play the games.

use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::ThreadId;
use std::time::Instant;

use mpi::Count;
use mpi::datatype::PartitionMut;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives, Root};

use crate::farm::{Processes, install};

/// Variables that MPI launchers set in the processes they start: Open MPI's `mpirun`,
/// PMI (MPICH's `mpiexec`, Slurm's `srun --mpi=pmi2`) and PMIx (`srun --mpi=pmix`).
const LAUNCHER_VARIABLES: [&str; 3] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"];

/// What this process has sent and received, for the communication figures the leader
/// reports at the end.
static SENT: AtomicU64 = AtomicU64::new(0);
static RECEIVED: AtomicU64 = AtomicU64::new(0);
static EXCHANGES: AtomicU64 = AtomicU64::new(0);
/// Nanoseconds spent in gathers: waiting for the slowest process, then the transfer.
static GATHER_NANOS: AtomicU64 = AtomicU64::new(0);

/// The world communicator as [`Processes`]: the handle is taken afresh for each call, so
/// nothing that MPI owns is shared between threads.
struct World {
    rank: usize,
    size: usize,
    thread: ThreadId,
}

impl World {
    fn comm() -> SimpleCommunicator {
        SimpleCommunicator::world()
    }
}

/// An MPI message length, which MPI counts in `int`.
fn count(bytes: usize) -> Count {
    Count::try_from(bytes).expect("one process's results per batch stay under 2 GiB")
}

impl Processes for World {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn may_communicate(&self) -> bool {
        std::thread::current().id() == self.thread
    }

    fn all_gather(&self, mine: Vec<u8>) -> Vec<Vec<u8>> {
        let clock = Instant::now();
        let comm = World::comm();
        let mut counts = vec![0 as Count; self.size];
        comm.all_gather_into(&count(mine.len()), &mut counts[..]);
        let displacements: Vec<Count> = counts
            .iter()
            .scan(0, |at, &n| {
                let here = *at;
                *at += n;
                Some(here)
            })
            .collect();
        let total: usize = counts.iter().map(|&n| n as usize).sum();
        let mut all = vec![0u8; total];
        comm.all_gather_varcount_into(
            &mine[..],
            &mut PartitionMut::new(&mut all[..], &counts[..], &displacements[..]),
        );
        let int = std::mem::size_of::<Count>();
        SENT.fetch_add((int + mine.len()) as u64, Ordering::Relaxed);
        RECEIVED.fetch_add((int * self.size + total) as u64, Ordering::Relaxed);
        EXCHANGES.fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(clock.elapsed().as_nanos()).unwrap_or(u64::MAX);
        GATHER_NANOS.fetch_add(nanos, Ordering::Relaxed);
        let mut rest = all.as_slice();
        counts
            .iter()
            .map(|&n| {
                let (part, tail) = rest.split_at(n as usize);
                rest = tail;
                part.to_vec()
            })
            .collect()
    }

    fn broadcast(&self, bytes: Vec<u8>) -> Vec<u8> {
        let comm = World::comm();
        let root = comm.process_at_rank(0);
        let mut length = bytes.len() as u64;
        root.broadcast_into(&mut length);
        let mut buffer = if self.rank == 0 {
            bytes
        } else {
            vec![0; usize::try_from(length).expect("a message fits in memory")]
        };
        root.broadcast_into(&mut buffer[..]);
        let moved = 8 + buffer.len() as u64;
        let counter = if self.rank == 0 { &SENT } else { &RECEIVED };
        counter.fetch_add(moved, Ordering::Relaxed);
        buffer
    }
}

/// Membership of the MPI job: MPI ends (`MPI_Finalize`) when it is dropped.
pub struct Session {
    universe: Universe,
    rank: usize,
    size: usize,
    /// A process other than the leader: its stderr as it was before it went to /dev/null,
    /// for its own failures.
    own_stderr: Option<File>,
}

impl Session {
    /// Joins the job if an MPI launcher started this process; `None` otherwise.
    pub fn join() -> Option<Session> {
        if !LAUNCHER_VARIABLES
            .iter()
            .any(|name| std::env::var_os(name).is_some())
        {
            return None;
        }
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)?;
        let world = universe.world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        let own_stderr = if rank == 0 { None } else { silence_output() };
        install(Box::new(World {
            rank,
            size,
            thread: std::thread::current().id(),
        }));
        Some(Session {
            universe,
            rank,
            size,
            own_stderr,
        })
    }

    /// See [`crate::farm::Launch::fail`]: returns only in a job of one process.
    pub fn fail(self, code: u8, line: &str) {
        if self.size == 1 {
            return;
        }
        if self.rank == 0 {
            eprintln!("{line}");
        } else if let (Some(mut stderr), true) = (self.own_stderr.as_ref(), code != 2) {
            let _ = writeln!(stderr, "process {}: {line}", self.rank);
        }
        self.universe.world().abort(i32::from(code))
    }
}

impl Drop for Session {
    /// The leader reports what its process exchanged (in a gather every process receives
    /// the same) and how long each process waited in gathers (the load balance), for the
    /// figures in the README. Every process ends here after a successful command.
    fn drop(&mut self) {
        if self.size == 1 {
            return;
        }
        let waited = GATHER_NANOS.load(Ordering::Relaxed);
        let mut all = vec![0u64; self.size];
        self.universe.world().all_gather_into(&waited, &mut all[..]);
        if self.rank == 0 {
            let seconds: Vec<String> = all
                .iter()
                .map(|&nanos| format!("{:.2}", nanos as f64 * 1e-9))
                .collect();
            eprintln!(
                "mpi: {} processes; the leader sent {} bytes and received {} bytes in {} exchanges; seconds in exchanges per process: {}",
                self.size,
                SENT.load(Ordering::Relaxed),
                RECEIVED.load(Ordering::Relaxed),
                EXCHANGES.load(Ordering::Relaxed),
                seconds.join(" ")
            );
        }
    }
}

/// Points this process's stdout and stderr at /dev/null and returns the old stderr (if it
/// could be kept).
fn silence_output() -> Option<File> {
    // SAFETY: dup has no preconditions; a descriptor it returns is new and owned by the
    // File alone.
    let saved = unsafe { libc::dup(2) };
    let own_stderr = (saved >= 0).then(|| unsafe { File::from_raw_fd(saved) });
    if let Ok(null) = File::options().write(true).open("/dev/null") {
        // SAFETY: dup2 onto the standard descriptors with a valid open descriptor; Rust's
        // stdout and stderr write through them and keep working.
        unsafe {
            libc::dup2(null.as_raw_fd(), 1);
            libc::dup2(null.as_raw_fd(), 2);
        }
    }
    own_stderr
}
