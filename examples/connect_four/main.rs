//! A sixth game added from outside the crate: Connect Four, through evoboard's public API
//! alone. It evolves an evaluator, benchmarks the champion, draws the run's plots and plays
//! one game move by move.
//!
//! ```sh
//! cargo run --release --example connect_four -- [--generations N] [--out DIR] [--seed S] [--preset P]
//! ```
//!
//! The game implements [`Game`] (rules), [`Notation`] (moves and positions as text) and
//! [`Describe`] (the board for people) in `game.rs`; [`NeuralInput`] (how networks read a
//! position) and [`NamedEvaluators`] (the heuristic behind `heuristic:DEPTH`) in
//! `eval.rs`. With those, the library's presets, arena and plots serve it unchanged.
//!
//! [`NeuralInput`]: evoboard::eval::neural::NeuralInput
//! [`NamedEvaluators`]: evoboard::eval::NamedEvaluators

mod eval;
mod game;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::process::ExitCode;

use evoboard::arena::{
    Agent, AgentSpec, SeriesConfig, SeriesStats, SpecError, play_game, play_series,
};
use evoboard::evolve::checkpoint::EvolutionState;
use evoboard::evolve::config::{EvolveConfig, Preset};
use evoboard::evolve::{Evolution, Observer, gating_benchmark};
use evoboard::games::perft;
use evoboard::report::plot::plot_run;
use evoboard::rng::rng_for;
use evoboard::{Describe, Game, Notation, Outcome};

use game::ConnectFour;

/// The command line: every setting has a default, so a bare run works.
struct Args {
    generations: u32,
    out: PathBuf,
    seed: u64,
    preset: Preset,
}

const USAGE: &str = "usage: connect_four [--generations N] [--out DIR] [--seed S] [--preset P]";

/// Games of each benchmark of the champion, on openings of the run's benchmark length.
const BENCHMARK_GAMES: usize = 200;

/// The seed of the champion's benchmarks: held out from every seed the run used.
const BENCHMARK_SEED: u64 = 777;

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        generations: 20,
        out: std::env::temp_dir().join(format!("connect-four-{}", std::process::id())),
        seed: 1,
        preset: Preset::Modern,
    };
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let value = words.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--generations" => args.generations = value.parse().map_err(|e| bad(&e))?,
            "--out" => args.out = PathBuf::from(value),
            "--seed" => args.seed = value.parse().map_err(|e| bad(&e))?,
            "--preset" => args.preset = value.parse().map_err(|e| bad(&e))?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

/// The preset's defaults for Connect Four, with the TD presets' learning cut to 5,000 games
/// a generation and the final selection to 100 games, so that a run takes seconds.
fn short_config(args: &Args, start: &ConnectFour) -> EvolveConfig {
    let config = EvolveConfig::for_game(args.preset, start);
    EvolveConfig {
        generations: args.generations,
        seed: args.seed,
        td_games: config.td_games.min(5_000),
        selection_games: config.selection_games.min(100),
        ..config
    }
}

/// Prints a line per generation.
struct Progress;

impl Observer for Progress {
    fn generation_started(&self, _generation: u32, _games: usize) {}

    fn game_done(&self) {}

    fn generation_done(&self, state: &EvolutionState, seconds: f64) {
        let Some(stats) = state.history.last() else {
            return;
        };
        let fitness = if state.config.evolves() {
            format!("best league fitness {:5.1}, ", stats.fitness_max)
        } else {
            String::new()
        };
        let benchmark = stats.benchmark.as_ref().map_or(0.0, |b| 100.0 * b.win_rate);
        println!(
            "generation {:3}: {fitness}{benchmark:3.0}% wins against {} ({seconds:.1} s)",
            stats.generation,
            gating_benchmark(&state.config)
        );
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("connect_four: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let start = ConnectFour::new();
    let counts: Vec<String> = (1..=8).map(|d| perft(&start, d).to_string()).collect();
    println!("perft 1-8 from the start: {}", counts.join(", "));

    let config = short_config(args, &start);
    println!(
        "evolving {} with the {} preset ({} generations, seed {}) in {}",
        start.name(),
        config.preset,
        config.generations,
        config.seed,
        args.out.display()
    );
    let opening_plies = config.bench_opening_plies;
    Evolution::create(start, config, &args.out)?.run(&Progress)?;
    for path in plot_run(&args.out, &args.out.join("plots"))? {
        println!("plot: {}", path.display());
    }

    let champion = format!("champion:{}", args.out.join("champion.evo").display());
    for opponent in ["heuristic:2", "random"] {
        let stats = benchmark(&start, &champion, opponent, opening_plies)?;
        let r = &stats.record;
        println!(
            "champion vs {opponent}: {} wins, {} draws, {} losses in {} games: win rate {:.1}% (95% interval {:.1}-{:.1}%)",
            r.wins,
            r.draws,
            r.losses,
            r.games,
            100.0 * r.win_rate,
            100.0 * r.ci_low,
            100.0 * r.ci_high
        );
    }
    show_game(&start, &champion, "heuristic:2", args.seed)
}

/// The player an agent spec (`heuristic:2`, `champion:PATH`, …) names.
fn agent(spec: &str, start: &ConnectFour) -> Result<Box<dyn Agent<ConnectFour>>, SpecError> {
    spec.parse::<AgentSpec>()?.build(start)
}

/// The champion against `opponent` over [`BENCHMARK_GAMES`] games, each opening played
/// with both colours.
fn benchmark(
    start: &ConnectFour,
    champion: &str,
    opponent: &str,
    opening_plies: u32,
) -> Result<SeriesStats, Box<dyn std::error::Error>> {
    let (player, opponent) = (agent(champion, start)?, agent(opponent, start)?);
    let series = SeriesConfig {
        games: BENCHMARK_GAMES,
        opening_plies,
        seed: BENCHMARK_SEED,
    };
    let records = play_series(start, player.as_ref(), opponent.as_ref(), series, &|| {})?;
    Ok(SeriesStats::from_records(&records))
}

/// Plays the champion (first) against `opponent` from the empty board, then prints the game
/// move by move.
fn show_game(
    start: &ConnectFour,
    champion: &str,
    opponent: &str,
    seed: u64,
) -> Result<(), Box<dyn std::error::Error>> {
    let (player, other) = (agent(champion, start)?, agent(opponent, start)?);
    let record = play_game(
        start,
        [player.as_ref(), other.as_ref()],
        &mut rng_for(seed, &[]),
    );
    println!("\n{champion} (X) against {opponent} (O):");
    let mut game = *start;
    for (ply, &mv) in record.moves.iter().enumerate() {
        println!(
            "\n{}. {} plays {}",
            ply + 1,
            game.player_name(game.to_move()),
            game.format_move(mv)
        );
        game.play_unchecked(mv);
        for line in game.board_lines() {
            println!("  {line}");
        }
    }
    let result = match record.outcome {
        Outcome::Win(player) => format!("{} wins", game.player_name(player)),
        Outcome::Draw => "a draw".to_string(),
    };
    println!("\n{result}; final position {}", game.to_position_string());
    Ok(())
}
