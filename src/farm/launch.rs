//! A process's part in its job from the start of `main` to its end: joining the MPI job
//! when an MPI launcher started it, and failing so that the whole job stops.

use std::process::ExitCode;

#[cfg(feature = "mpi")]
use super::mpi;

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
