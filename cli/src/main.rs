//! The `evoboard` command line: clap definitions, per-command runners, and the mapping of
//! errors to exit codes. Errors print as one line on stderr; bad input exits 2, other
//! failures exit 1. The commands' work is the `evoboard` library's; this crate parses,
//! wires and prints.

mod bench;
mod benchmark;
mod common;
mod error;
mod evolve;
mod experiment;
mod gifford;
mod gtp;
mod nboard;
mod panel;
mod perft;
mod play;
mod plot;
mod prune;
mod ratings;
#[cfg(feature = "serve")]
mod serve;
mod show;
mod solve;
mod stop;
mod tournament;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Parser, Subcommand};

use error::{BadInput, CliError, CliResult};

fn main() -> ExitCode {
    restore_default_sigpipe();
    // Under an MPI launcher (built with the `mpi` feature), join the job first, so that
    // only its leader prints.
    let launch = evoboard::farm::launch();
    let cli = match Cli::parse_args() {
        Ok(cli) => cli,
        // --help and --version; a bare `evoboard` prints the help (exit 2) as it is.
        Err(error)
            if !error.use_stderr()
                || error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            error.exit()
        }
        Err(error) => {
            // clap spreads an error over several lines (tips, usage); keep it to one.
            let rendered = error.render().to_string();
            let message: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .filter(|line| {
                    !line.is_empty()
                        && !line.starts_with("Usage:")
                        && !line.starts_with("For more information")
                })
                .collect();
            return launch.fail(2, &format!("{} (see --help)", message.join(" ")));
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // Below the progress bar the work left on the terminal.
        Err(CliError::Interrupted(line)) => launch.fail(error::INTERRUPTED, &format!("\n{line}")),
        Err(error) => {
            // One line, even when the offending input itself contains line breaks.
            let message: String = error
                .to_string()
                .chars()
                .flat_map(|c| {
                    let escaped: Vec<char> = if c.is_control() {
                        c.escape_default().collect()
                    } else {
                        vec![c]
                    };
                    escaped
                })
                .collect();
            launch.fail(error.exit_code(), &format!("error: {message}"))
        }
    }
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`evoboard bench | head`) would
/// panic; restoring the default lets the process end quietly like other Unix tools.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// evoboard: evolve neural board evaluators and benchmark them against heuristic search.
#[derive(Debug, Parser)]
#[command(name = "evoboard", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses the process's arguments. Any value may be a negative number (clap would
    /// otherwise take `-10` for a flag and answer "unexpected argument '-1'"), and a
    /// negative number given for a count is answered as such.
    pub fn parse_args() -> Result<Cli, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        let command = Cli::command()
            .mut_subcommands(|sub| sub.mut_args(|arg| arg.allow_negative_numbers(true)));
        let matches = command.try_get_matches().map_err(negative_count)?;
        Cli::from_arg_matches(&matches).map_err(negative_count)
    }
}

/// A value a flag refused because it is a negative whole number: said plainly, as every
/// whole-number flag counts something (games, plies, threads, a seed).
fn negative_count(error: clap::Error) -> clap::Error {
    use clap::CommandFactory;
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let text = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let negative = |value: &str| {
        value
            .strip_prefix('-')
            .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
    };
    let refused = matches!(
        error.kind(),
        ErrorKind::ValueValidation | ErrorKind::InvalidValue
    );
    match (
        text(ContextKind::InvalidArg),
        text(ContextKind::InvalidValue),
    ) {
        (Some(arg), Some(value)) if refused && negative(value) => clap::Error::raw(
            ErrorKind::ValueValidation,
            format!("invalid value '{value}' for '{arg}': must be a positive integer\n"),
        )
        .format(&mut Cli::command()),
        _ => error,
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the game tree to a depth (move-generator check).
    Perft(perft::PerftArgs),
    /// Show a position (optionally after a list of moves), as text or JSON.
    Show(show::ShowArgs),
    /// Evolve neural evaluators (league fitness, benchmark gate, checkpoints, --resume).
    Evolve(Box<evolve::EvolveArgs>),
    /// Draw a run's fitness, benchmark and diversity plots (PNG and SVG).
    Plot(plot::PlotArgs),
    /// Play a series of games between two agents and report win rate and timings.
    Benchmark(benchmark::BenchmarkArgs),
    /// The ENN paper's evaluation: the player against a search over each heuristic feature.
    Panel(panel::PanelArgs),
    /// An Othello engine for the NBoard GUI (NBoard protocol 2 on stdin/stdout).
    Nboard(nboard::NboardArgs),
    /// An Othello engine for GTP controllers (GTP 2 on stdin/stdout).
    Gtp(gtp::GtpArgs),
    /// Play in the terminal: people against engines or each other, with hints and undo.
    Play(play::PlayArgs),
    /// Round robin between agents, with seed 002's statistics and the pairwise matrix.
    Tournament(tournament::TournamentArgs),
    /// Seed 000's question: does a network as forward pruning speed up minimax, at what cost?
    Prune(prune::PruneArgs),
    /// Seed 002's experiment: all 63 combinations of Kalah's H1–H6 against random.
    Gifford(gifford::GiffordArgs),
    /// Run a plan: variants of a run's settings over seeds, every champion measured,
    /// results with intervals and tests against the baseline.
    Experiment(experiment::ExperimentArgs),
    /// Rate the networks a run kept (`evolve --snapshots K`) against fixed anchors.
    Ratings(ratings::RatingsArgs),
    /// Exact values: a small Kalah board from its start, or an Othello endgame.
    Solve(solve::SolveArgs),
    /// Measure engine speed: perft and alpha-beta nodes per second.
    Bench(bench::BenchArgs),
    /// A local web page: play every game against any engine, and watch runs evolve live.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> CliResult {
    let spreads = matches!(
        cli.command,
        Command::Evolve(_)
            | Command::Benchmark(_)
            | Command::Panel(_)
            | Command::Tournament(_)
            | Command::Experiment(_)
    );
    if !spreads && evoboard::farm::process_count() > 1 {
        return Err(BadInput(
            "only evolve, benchmark, panel, tournament and experiment run over MPI: run this command without mpirun"
                .to_string(),
        )
        .into());
    }
    match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Evolve(args) => evolve::run(&args),
        Command::Plot(args) => plot::run(&args),
        Command::Benchmark(args) => benchmark::run(&args),
        Command::Panel(args) => panel::run(&args),
        Command::Nboard(args) => nboard::run(&args),
        Command::Gtp(args) => gtp::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Prune(args) => prune::run(&args),
        Command::Gifford(args) => gifford::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Experiment(args) => experiment::run(&args),
        Command::Ratings(args) => ratings::run(&args),
        Command::Bench(args) => bench::run(&args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(&args),
    }
}
