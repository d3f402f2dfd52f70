//! Offline distillation: an MLP fitted to a teacher's values on sampled positions by
//! minibatches and Adam (`fit`), as a run of its own with its settings declared once
//! (`settings`), its files, progress and resume (`run`), for the `distill` command and
//! experiment plans alike.

pub mod error;
pub mod fit;
pub mod run;
pub mod settings;

pub use error::DistillError;
pub use fit::{
    Adam, FitSettings, Labelled, SampleSettings, fit_epoch, loss, sample, search_leaves,
};
pub use run::{Begin, FitDir, FitObserver, FitOutcome, FitRecord, FitRow, run_fit};
pub use settings::{DistillSettings, SETTINGS, SettingError};
