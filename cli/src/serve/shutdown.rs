//! The end of the server: a signal (Ctrl-C or SIGTERM) tells the searches in progress to
//! stop, and the accept loop then closes once the open requests are answered.

use std::future::Future;
use std::sync::atomic::Ordering;

use evoboard::live;

/// Resolves on Ctrl-C (or SIGTERM): hint searches in progress are told to stop, engine
/// moves end within the move time, and the server exits once the open requests are answered.
///
/// The handlers are installed when this is called, not when the future is first polled:
/// called before the server says where it listens, a Ctrl-C that follows its first answer
/// can never meet the default handler, which would kill the process on the spot.
pub(super) fn shutdown_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            // Without a signal handler the server runs until killed: nothing better to do.
            let received = |stream: Option<tokio::signal::unix::Signal>| async move {
                match stream {
                    Some(mut stream) => {
                        stream.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = received(interrupt) => {}
                () = received(terminate) => {}
            }
        }
        #[cfg(not(unix))]
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
        live::SHUTTING_DOWN.store(true, Ordering::Relaxed);
        eprintln!("shutting down");
    }
}
