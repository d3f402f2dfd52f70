//! `evoboard serve`: one local web page to play every game against any engine and to watch
//! runs evolve. The page and its script are built into the binary; the rules and the
//! searches stay in the library (the page draws and sends move texts).

mod api;
mod connections;
mod shutdown;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::error::{BadInput, CliResult};
use crate::nboard::move_time;
use connections::Connections;
use evoboard::runs;
use shutdown::shutdown_signal;

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
    crate::stop::signals_end_the_command_itself();
    let stop = shutdown_signal();
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
        .serve(listener, api::router(Arc::new(server)), stop)
        .await;
    println!("stopped");
    Ok(())
}
