//! A request to stop long work early: the command line sets it on Ctrl-C, and evolution
//! (between generations), a distillation fit (between epochs) and the experiment runner
//! (between runs) end at the next such point with an error that says so, every file
//! written so far intact, so the work continues from its last checkpoint with `--resume`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};

/// The process's one request, shared with whatever sets it (a signal handler).
static REQUESTED: LazyLock<Arc<AtomicBool>> = LazyLock::new(Arc::default);

/// The flag a front end sets to ask long work to stop (e.g. from a signal handler, which
/// may only store into it).
pub fn flag() -> Arc<AtomicBool> {
    Arc::clone(&REQUESTED)
}

/// Asks long work to stop at its next stopping point.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Whether a stop has been asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
