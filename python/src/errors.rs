//! How the library's errors reach Python: input the caller got wrong raises `ValueError`,
//! anything else `evoboard.EvoboardError`, each with the library's message and its causes
//! (the command line's split between exit codes 2 and 1).

use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};

create_exception!(
    evoboard,
    EvoboardError,
    PyException,
    "A failure that is not the caller's input: the file system, a run that cannot continue, a search out of time."
);

/// `ValueError` with `error`'s message: for errors that are always the caller's input.
pub fn bad_input(error: impl std::error::Error) -> PyErr {
    PyValueError::new_err(evoboard::errors::chain(&error))
}

/// `ValueError` with a message of the bindings' own.
pub fn bad(text: impl Into<String>) -> PyErr {
    PyValueError::new_err(text.into())
}

/// `EvoboardError` with `error`'s message.
pub fn failure(error: impl std::error::Error) -> PyErr {
    EvoboardError::new_err(evoboard::errors::chain(&error))
}

/// Errors that know whether the input was at fault (the library's `is_bad_input`).
pub trait Sorted: std::error::Error + Sized {
    fn is_bad_input(&self) -> bool;

    /// `ValueError` when the input was at fault, else `EvoboardError`.
    fn into_py(self) -> PyErr {
        if self.is_bad_input() {
            bad_input(self)
        } else {
            failure(self)
        }
    }
}

macro_rules! sorted {
    ($($error:ty),+) => {
        $(impl Sorted for $error {
            fn is_bad_input(&self) -> bool {
                <$error>::is_bad_input(self)
            }
        })+
    };
}

sorted!(
    evoboard::evolve::EvolveError,
    evoboard::persist::PersistError,
    evoboard::search::solve::SolveError,
    evoboard::search::endgame::EndgameError
);
sorted!(evoboard::report::plot::PlotError);
