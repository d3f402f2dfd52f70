//! `evoboard calibrate`: fits Multi-ProbCut's lines for a champion
//! (`evoboard::search::probcut`) and stores them beside it, where `champion:PATH%CONFIDENCE`
//! finds them.

use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::common::{GameName, configure_threads, game_parser, with_game};
use crate::error::CliResult;
use evoboard::champion::Champion;
use evoboard::eval::NamedEvaluators;
use evoboard::persist::{MAX_FILE_BYTES, read_limited, sha256_hex};
use evoboard::search::probcut::calibration::{FORMAT, STAGE_WIDTH};
use evoboard::search::probcut::{Calibration, calibrate, calibration_path, sample_positions};

/// Calibrate a champion's selective search (Multi-ProbCut, Buro 1997): positions from its
/// own seeded games, each searched at every depth to --depth, and for each game stage and
/// depth pair the line of the deep value on the shallow one; written beside the champion
/// (`NAME.probcut.json`), where `champion:PATH%CONFIDENCE` reads it.
#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// Game the champion plays.
    #[arg(long, value_parser = game_parser(), default_value = "othello")]
    game: GameName,
    /// The champion file.
    #[arg(long)]
    champion: PathBuf,
    /// Positions searched (from the champion's games at 1 ply, a random move one time in
    /// ten).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u32).range(30..=100_000))]
    positions: u32,
    /// Deepest search of each position: the deepest depth that gets a cut.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(3..=16))]
    depth: u32,
    /// Seed of the games the positions come from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the calibration [default: beside the champion, NAME.probcut.json].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads (0 = one per core). The calibration does not depend on it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=crate::common::MAX_THREADS))]
    threads: u16,
}

pub fn run(args: &CalibrateArgs) -> CliResult {
    configure_threads(usize::from(args.threads))?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| calibration_path(&args.champion));
    with_game!(args.game, |start| calibrate_game(start, args, &out))
}

fn calibrate_game<G: NamedEvaluators>(
    start: G,
    args: &CalibrateArgs,
    out: &std::path::Path,
) -> CliResult {
    let champion = Champion::load_for(&args.champion, &start)?;
    crate::common::check_output_path(out, "the calibration")?;
    let sha = sha256_hex(&read_limited(&args.champion, MAX_FILE_BYTES)?);
    let evaluator = champion.evaluator(&start);
    let (positions, games) =
        sample_positions(&start, &evaluator, args.positions as usize, args.seed);
    println!(
        "{}: {} positions from {games} games (seed {}), each searched at depths 0 to {}",
        args.champion.display(),
        positions.len(),
        args.seed,
        args.depth
    );
    let progress = ProgressBar::new(positions.len() as u64).with_style(
        ProgressStyle::with_template("[{bar:30}] {pos}/{len} positions, {elapsed} ({eta} left)")?
            .progress_chars("=> "),
    );
    let fits = calibrate(&positions, args.depth, &evaluator, &|| progress.inc(1));
    progress.finish_and_clear();
    println!(
        "{:>12} {:>6} {:>8} {:>9} {:>10} {:>9} {:>6}",
        "stages", "depth", "shallow", "slope", "intercept", "sigma", "pairs"
    );
    for fit in &fits {
        let low = fit.stage * STAGE_WIDTH;
        println!(
            "{:>12} {:>6} {:>8} {:>9.4} {:>10.4} {:>9.4} {:>6}",
            format!("{low}-{}", low + STAGE_WIDTH - 1),
            fit.deep,
            fit.shallow,
            fit.slope,
            fit.intercept,
            fit.sigma,
            fit.samples
        );
    }
    let calibration = Calibration {
        format: FORMAT,
        game: start.name().to_string(),
        champion_sha256: sha,
        positions: positions.len() as u32,
        games,
        seed: args.seed,
        deepest: args.depth,
        stage_width: STAGE_WIDTH,
        fits,
    };
    calibration.save(out)?;
    println!("wrote {}", out.display());
    Ok(())
}
