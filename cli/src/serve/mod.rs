//! `evoboard serve`: one local web page to play every game against any engine and to watch
//! runs evolve. The page and its script are built into the binary; the rules and the
//! searches stay in the library (the page draws and sends move texts).

mod api;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use clap::Args;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

use crate::error::{BadInput, CliResult};
use crate::nboard::move_time;
use evoboard::live;
use evoboard::runs;

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
    /// Most games kept at once (the least recently used is dropped for a new one). At most
    /// 10,000, so that the games stay within a few tens of MiB: each keeps its moves and
    /// engines (a few KiB; champion networks are shared between games).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=MAX_GAMES))]
    max_games: u32,
    /// Most games one client (IP address) may keep at once, so that one client cannot push
    /// everyone else's games out: past it, a new game takes the room of the client's game
    /// idle longest if that one has been left for 10 minutes, and is refused (HTTP 429)
    /// otherwise.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=MAX_GAMES))]
    max_games_per_client: u32,
    /// Most connections served at once; more wait to be accepted. Each costs a file
    /// descriptor, and the process has a limited number of them.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_connections: u32,
    /// Seconds a client has to send a request's headers (also how long an idle
    /// connection stays open); tests shorten it.
    #[arg(long, default_value_t = 10.0, value_parser = move_time, hide = true)]
    header_timeout: f64,
    /// Seconds a client has to send a request's body once its headers arrived.
    #[arg(long, default_value_t = 30.0, value_parser = move_time, hide = true)]
    body_timeout: f64,
}

/// The bound of `--max-games` and `--max-games-per-client`.
const MAX_GAMES: i64 = 10_000;

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
    let limits = api::Limits {
        move_time: args.move_time,
        max_games: args.max_games as usize,
        max_games_per_client: args.max_games_per_client as usize,
        body_time: Duration::from_secs_f64(args.body_timeout),
    };
    let server = api::Server::new(runs, limits);
    let reach = if address.ip().is_loopback() {
        "this machine only"
    } else {
        "other machines too: anyone who can reach this address can use it"
    };
    println!("evoboard serve: http://{address}/ (answers {reach}; Ctrl-C stops)");
    println!("runs from {}", args.runs.display());
    use std::io::Write;
    std::io::stdout().flush()?;
    let connections = Connections {
        header_time: Duration::from_secs_f64(args.header_timeout),
        most: args.max_connections,
    };
    connections
        .serve(listener, api::router(Arc::new(server)), shutdown_signal())
        .await;
    println!("stopped");
    Ok(())
}

/// How connections are served: at most `most` at once (the rest wait in the listen
/// queue, costing no file descriptor), each closed when a request's headers (or the next
/// request on an idle connection) take longer than `header_time`.
struct Connections {
    header_time: Duration,
    most: u32,
}

impl Connections {
    /// Serves `app` on `listener` until `shutdown` resolves, then lets the open requests
    /// finish and returns once every connection has closed.
    async fn serve(&self, listener: TcpListener, app: Router, shutdown: impl Future<Output = ()>) {
        let permits = Arc::new(Semaphore::new(self.most as usize));
        let (stop, stopping) = watch::channel(());
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let next = async {
                let permit = Arc::clone(&permits)
                    .acquire_owned()
                    .await
                    .expect("the semaphore is never closed");
                (permit, listener.accept().await)
            };
            let (permit, accepted) = tokio::select! {
                next = next => next,
                () = &mut shutdown => break,
            };
            match accepted {
                Ok((stream, peer)) => {
                    let connection = self.connection(stream, peer, app.clone(), stopping.clone());
                    tokio::spawn(async move {
                        connection.await;
                        drop(permit);
                    });
                }
                Err(error) => accept_failed(error).await,
            }
        }
        drop(stop);
        // Each connection holds a permit until it closes: all of them back means all closed.
        let _ = permits.acquire_many(self.most).await;
    }

    /// Serves one connection from `peer` until it closes, or until `stopping` says the
    /// server stops (then the request in progress is answered first).
    fn connection(
        &self,
        stream: TcpStream,
        peer: SocketAddr,
        app: Router,
        mut stopping: watch::Receiver<()>,
    ) -> impl Future<Output = ()> + use<> {
        let router = TowerToHyperService::new(app);
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            hyper::service::Service::call(&router, request)
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_time);
        let connection = builder.serve_connection(TokioIo::new(stream), service);
        async move {
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stopping.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        }
    }
}

/// After a failed accept: a connection that broke off before it was accepted costs
/// nothing; anything else (out of file descriptors) gets a pause before the next try.
async fn accept_failed(error: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
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
