//! The end of the server: a signal (Ctrl-C or SIGTERM) tells the searches in progress to
//! stop, and the accept loop then closes once the open requests are answered.

use std::future::Future;
use std::sync::atomic::Ordering;

use evoboard::live;

/// Resolves on Ctrl-C (or SIGTERM): hint searches in progress are told to stop, engine
/// moves end within the move time, and the server exits once the open requests are answered.
pub(super) async fn shutdown_signal() {
    let interrupt = async {
        // Without a signal handler the server runs until killed: nothing better to do.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut stream) => {
                stream.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    let (mut interrupt, mut terminate) = (std::pin::pin!(interrupt), std::pin::pin!(terminate));
    std::future::poll_fn(|context| {
        if interrupt.as_mut().poll(context).is_ready()
            || terminate.as_mut().poll(context).is_ready()
        {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    live::SHUTTING_DOWN.store(true, Ordering::Relaxed);
    eprintln!("shutting down");
}
