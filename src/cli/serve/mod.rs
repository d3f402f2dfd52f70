//! `evoboard serve`: one local web page to play every game against any engine and to watch
//! runs evolve. The page and its script are built into the binary; the rules and the
//! searches stay in the library (the page draws and sends move texts).

mod api;
mod board;
mod live;
mod runs;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use clap::Args;

use crate::cli::nboard::move_time;
use crate::cli::{BadInput, CliResult};

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on. The default answers this machine only; `0.0.0.0:PORT` would
    /// open the page to the network. Port 0 picks a free port (printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Directory of runs to watch (and whose champions the page may load).
    #[arg(long, default_value = "populations")]
    runs: PathBuf,
    /// Longest an engine move or a hint search may take, in seconds (deeper searches stop
    /// at the deepest iteration finished in time).
    #[arg(long, default_value_t = 5.0, value_parser = move_time)]
    move_time: f64,
    /// Most games kept at once (the least recently used is dropped for a new one).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_games: u32,
}

pub fn run(args: &ServeArgs) -> CliResult {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> CliResult {
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .map_err(|error| BadInput(format!("cannot listen on {}: {error}", args.addr)))?;
    let address = listener.local_addr()?;
    let runs = runs::RunsDir::new(&args.runs);
    let server = api::Server::new(runs, args.move_time, args.max_games as usize);
    let reach = if address.ip().is_loopback() {
        "this machine only"
    } else {
        "other machines too: anyone who can reach this address can use it"
    };
    println!("evoboard serve: http://{address}/ (answers {reach}; Ctrl-C stops)");
    println!("runs from {}", args.runs.display());
    use std::io::Write;
    std::io::stdout().flush()?;
    axum::serve(listener, api::router(Arc::new(server)))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    println!("stopped");
    Ok(())
}

/// Resolves on Ctrl-C (or SIGTERM): hint searches in progress are told to stop, engine
/// moves end within the move time, and the server exits once the open requests are answered.
async fn shutdown_signal() {
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
