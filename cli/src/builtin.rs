//! The `evoboard` command line: every command, on the built-in games that `--game` names
//! (the library's registry, `GameName` and `with_game!`), and the commands tied to one of
//! them (the engine protocols, the solvers, the source papers' studies, the web page).

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use crate::common::{GameName, game_parser, with_game};
use crate::error::CliResult;
use crate::launch::check_spreads;
use crate::setting_flags::document_defaults;
use crate::{
    accuracy, bench, benchmark, blend, calibrate, distill, evolve, experiment, gifford, glance,
    gtp, nboard, panel, perft, plans, play, plot, profile, prune, ratings, sample, show, solve,
    tournament,
};
use evoboard::evolve::config::{EvolveConfig, Preset};

/// Runs the `evoboard` binary over the process's arguments; the exit status is the
/// command's (bad input 2, failure 1, Ctrl-C 130).
pub fn run_evoboard() -> ExitCode {
    let command = Cli::command().mut_subcommand("evolve", |evolve| {
        document_defaults(evolve, &every_games_defaults())
    });
    crate::launch::main(command, run)
}

/// The defaults of every preset for every built-in game, for `evolve --help`.
fn every_games_defaults() -> Vec<(&'static str, EvolveConfig)> {
    GameName::ALL
        .into_iter()
        .flat_map(|game| {
            Preset::all().into_iter().map(move |preset| {
                let config = with_game!(game, |start| EvolveConfig::for_game(preset, &start));
                (game.as_str(), config)
            })
        })
        .collect()
}

/// evoboard: evolve neural board evaluators and benchmark them against heuristic search.
#[derive(Debug, Parser)]
#[command(name = "evoboard", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands. Those that every game's command line has too (`run_game`) are
/// described by their flags' struct (its doc comment is the command's help), so that
/// both command lines say the same; here they add `--game`.
#[derive(Debug, Subcommand)]
enum Command {
    Perft {
        /// Game to count.
        #[arg(long, value_parser = game_parser())]
        game: GameName,
        #[command(flatten)]
        args: perft::PerftArgs,
    },
    Show {
        /// Game to show.
        #[arg(long, value_parser = game_parser())]
        game: GameName,
        #[command(flatten)]
        args: show::ShowArgs,
    },
    Evolve {
        /// Game to evolve an evaluator for (with --resume, the run's own game by default).
        #[arg(long, value_parser = game_parser(), required_unless_present = "resume")]
        game: Option<GameName>,
        #[command(flatten)]
        args: Box<evolve::EvolveArgs>,
    },
    Plot(plot::PlotArgs),
    Benchmark {
        /// Game to play.
        #[arg(long, value_parser = game_parser())]
        game: GameName,
        #[command(flatten)]
        args: benchmark::BenchmarkArgs,
    },
    Panel {
        /// Game to play.
        #[arg(long, value_parser = game_parser())]
        game: GameName,
        #[command(flatten)]
        args: panel::PanelArgs,
    },
    /// An Othello engine for the NBoard GUI (NBoard protocol 2 on stdin/stdout).
    Nboard(nboard::NboardArgs),
    /// An Othello engine for GTP controllers (GTP 2 on stdin/stdout).
    Gtp(gtp::GtpArgs),
    Play {
        /// Game to play.
        #[arg(long, value_parser = game_parser())]
        game: GameName,
        #[command(flatten)]
        args: play::PlayArgs,
    },
    Tournament {
        /// Game to play.
        #[arg(long, value_parser = game_parser())]
        game: GameName,
        #[command(flatten)]
        args: tournament::TournamentArgs,
    },
    Profile {
        /// Game to play.
        #[arg(long, value_parser = game_parser())]
        game: GameName,
        #[command(flatten)]
        args: profile::ProfileArgs,
    },
    Sample {
        /// Game to play.
        #[arg(long, value_parser = game_parser())]
        game: GameName,
        #[command(flatten)]
        args: sample::SampleArgs,
    },
    /// The Congkak report's question: does a network as forward pruning speed up minimax, at
    /// what cost?
    Prune(prune::PruneArgs),
    /// Gifford et al.'s (2008) experiment: all 63 combinations of Kalah's H1–H6 against random.
    Gifford(gifford::GiffordArgs),
    /// Run a plan: variants of a run's settings over seeds, every champion measured,
    /// results with intervals and tests against the baseline.
    Experiment(experiment::ExperimentArgs),
    /// Every plan under experiments/ with its status read from its results: done, paused
    /// (with the reason experiments/status.toml gives) or not run, as a Markdown table.
    Plans(plans::PlansArgs),
    Ratings(ratings::RatingsArgs),
    Glance(glance::GlanceArgs),
    Distill(distill::DistillArgs),
    /// Exact values: a small Kalah board from its start, or an Othello endgame.
    Solve(solve::SolveArgs),
    /// Distance to perfect play: each agent's share of optimal moves and mean loss on
    /// positions valued exactly (Kalah(6,4), Othello endgames).
    Accuracy(accuracy::AccuracyArgs),
    Calibrate(calibrate::CalibrateArgs),
    Blend(blend::BlendArgs),
    Bench {
        /// Game to measure.
        #[arg(long, value_parser = game_parser(), default_value = "othello")]
        game: GameName,
        #[command(flatten)]
        args: bench::BenchArgs,
    },
    /// A local web page: play every game against any engine, and watch runs evolve live.
    #[cfg(feature = "serve")]
    Serve(crate::serve::ServeArgs),
}

/// Runs a parsed command line.
fn run(cli: Cli) -> CliResult {
    check_spreads(
        matches!(
            cli.command,
            Command::Evolve { .. }
                | Command::Benchmark { .. }
                | Command::Panel { .. }
                | Command::Tournament { .. }
                | Command::Experiment(_)
        ),
        "evolve, benchmark, panel, tournament and experiment",
    )?;
    match cli.command {
        Command::Perft { game, args } => with_game!(game, |start| perft::run(start, &args)),
        Command::Show { game, args } => with_game!(game, |start| show::run(start, &args)),
        Command::Evolve { game, args } => evolve::run_named(game, &args),
        Command::Plot(args) => plot::run(&args),
        Command::Benchmark { game, args } => {
            with_game!(game, |start| benchmark::run(start, &args))
        }
        Command::Panel { game, args } => with_game!(game, |start| panel::run(start, &args)),
        Command::Nboard(args) => nboard::run(&args),
        Command::Gtp(args) => gtp::run(&args),
        Command::Play { game, args } => with_game!(game, |start| play::run(start, &args)),
        Command::Tournament { game, args } => {
            with_game!(game, |start| tournament::run(start, &args))
        }
        Command::Profile { game, args } => with_game!(game, |start| profile::run(start, &args)),
        Command::Sample { game, args } => with_game!(game, |start| sample::run(start, &args)),
        Command::Prune(args) => prune::run(&args),
        Command::Gifford(args) => gifford::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Accuracy(args) => accuracy::run(&args),
        Command::Calibrate(args) => calibrate::run(&args),
        Command::Blend(args) => blend::run(&args),
        Command::Distill(args) => distill::run(&args),
        Command::Experiment(args) => experiment::run(&args),
        Command::Plans(args) => plans::run(&args),
        Command::Ratings(args) => ratings::run_recorded(&args),
        Command::Glance(args) => glance::run(&args),
        Command::Bench {
            game: GameName::Othello,
            args,
        } if args.endgame.is_some() => bench::endgame(&args),
        Command::Bench {
            game: GameName::Othello,
            args,
        } if args.selective.is_some() => bench::selective(&args),
        Command::Bench { game, args } => with_game!(game, |start| bench::run(start, &args)),
        #[cfg(feature = "serve")]
        Command::Serve(args) => crate::serve::run(&args),
    }
}
