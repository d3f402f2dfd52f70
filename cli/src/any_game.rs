//! One game's command line: `evoboard`'s commands for a game added from outside the
//! library, whose program is a `main` of one line over [`run_game`]. The commands are the
//! built-in binary's own, run on the one game; `--game` has no place here, and the
//! commands tied to a built-in game (the engine protocols, the solvers, the source papers' studies,
//! experiment plans, the web page) stay in `evoboard`.

use std::process::ExitCode;

use clap::{Arg, CommandFactory, Parser, Subcommand};

use crate::error::CliResult;
use crate::launch::check_spreads;
use crate::setting_flags::document_defaults;
use crate::{
    bench, benchmark, evolve, panel, perft, play, plot, profile, ratings, show, tournament,
};
use evoboard::eval::NamedEvaluators;
use evoboard::evolve::config::{EvolveConfig, Preset};
use evoboard::games::Perft;

/// Runs `evoboard`'s commands for one game, over the process's arguments:
///
/// ```text
/// PROGRAM evolve|benchmark|play|plot|tournament|panel|profile|ratings|show|perft|bench [FLAGS]
/// ```
///
/// with the flags of the `evoboard` command of that name, less `--game` (refused, as is
/// a command this program lacks, with one `error:` line and exit status 2). `start` is
/// the position every game starts from. The exit status is the command's: bad input 2,
/// failure 1, Ctrl-C 130.
///
/// The bounds are what the built-in games implement, and what the commands need:
/// [`NamedEvaluators`] (and through it `Game`, `Notation`, `Describe` and `NeuralInput`:
/// rules, text, the board for people and what networks read) for every command that
/// plays, and [`Perft`] for `perft` and `bench` (`impl Perft for MyGame {}` takes its
/// default count over the move list).
///
/// ```no_run
/// # use evoboard::games::othello::Othello;
/// # type MyGame = Othello;
/// fn main() -> std::process::ExitCode {
///     evoboard_cli::run_game(MyGame::start())
/// }
/// ```
pub fn run_game<G: NamedEvaluators + Perft>(start: G) -> ExitCode {
    let name = start.name();
    let command = GameCli::command()
        .name(name)
        .about(format!(
            "{name}: evolve neural evaluators, benchmark, play and plot (evoboard's commands for one game)"
        ))
        .mut_subcommands(|command| command.arg(refused_game(name)))
        .mut_subcommand("evolve", |evolve| {
            let defaults: Vec<_> = Preset::all()
                .into_iter()
                .map(|preset| (name, EvolveConfig::for_game(preset, &start)))
                .collect();
            document_defaults(evolve, &defaults)
        });
    crate::launch::main(command, |cli: GameCli| run(start, cli))
}

/// `--game`, hidden and refused with the reason: the program's game is `name`, and clap
/// alone would suggest `--games` in its place.
fn refused_game(name: &'static str) -> Arg {
    Arg::new("game")
        .long("game")
        .value_name("GAME")
        .hide(true)
        .value_parser(move |_: &str| -> Result<String, String> {
            Err(format!("this program plays {name} alone: drop --game"))
        })
}

/// The command line of [`run_game`] (its name and description are the game's).
#[derive(Debug, Parser)]
struct GameCli {
    #[command(subcommand)]
    command: GameCommand,
}

/// The commands, each the `evoboard` command of the same name without `--game`; each is
/// described by its flags' struct.
#[derive(Debug, Subcommand)]
enum GameCommand {
    Evolve(Box<evolve::EvolveArgs>),
    Benchmark(benchmark::BenchmarkArgs),
    Play(play::PlayArgs),
    Plot(plot::PlotArgs),
    Tournament(tournament::TournamentArgs),
    Panel(panel::PanelArgs),
    Profile(profile::ProfileArgs),
    Ratings(ratings::RatingsArgs),
    Show(show::ShowArgs),
    Perft(perft::PerftArgs),
    Bench(bench::BenchArgs),
}

/// Runs a parsed command line on the game that starts at `start`.
fn run<G: NamedEvaluators + Perft>(start: G, cli: GameCli) -> CliResult {
    check_spreads(
        matches!(
            cli.command,
            GameCommand::Evolve(_)
                | GameCommand::Benchmark(_)
                | GameCommand::Panel(_)
                | GameCommand::Tournament(_)
        ),
        "evolve, benchmark, panel and tournament",
    )?;
    match cli.command {
        GameCommand::Evolve(args) => evolve::run(start, &args),
        GameCommand::Benchmark(args) => benchmark::run(start, &args),
        GameCommand::Play(args) => play::run(start, &args),
        GameCommand::Plot(args) => plot::run(&args),
        GameCommand::Tournament(args) => tournament::run(start, &args),
        GameCommand::Panel(args) => panel::run(start, &args),
        GameCommand::Profile(args) => profile::run(start, &args),
        GameCommand::Ratings(args) => ratings::run(start, &args),
        GameCommand::Show(args) => show::run(start, &args),
        GameCommand::Perft(args) => perft::run(start, &args),
        GameCommand::Bench(args) => bench::run(start, &args),
    }
}
