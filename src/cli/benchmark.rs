//! `evoboard benchmark`: a series of games between two agents, with win rate, 95% interval,
//! margins, game lengths and think times.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::arena::{AgentSpec, SeriesConfig, SeriesStats, play_series};
use crate::cli::{GameName, SeriesArgs, configure_threads, with_game};
use crate::eval::NamedEvaluators;

#[derive(Debug, Args)]
pub struct BenchmarkArgs {
    /// Game to play.
    #[arg(long)]
    game: GameName,
    /// The agent measured: random, first, heuristic:D, wpc:D, minimax:D:EVAL or
    /// champion:PATH[:D], each optionally with @EPS.
    #[arg(long)]
    player: String,
    /// Its opponent.
    #[arg(long, default_value = "heuristic:2")]
    opponent: String,
    #[command(flatten)]
    series: SeriesArgs,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &BenchmarkArgs) -> anyhow::Result<()> {
    configure_threads(usize::from(args.series.threads))?;
    with_game!(args.game, |start| run_series(start, args))
}

fn run_series<G: NamedEvaluators>(start: G, args: &BenchmarkArgs) -> anyhow::Result<()> {
    let player = args.player.parse::<AgentSpec>()?.build(&start)?;
    let opponent = args.opponent.parse::<AgentSpec>()?.build(&start)?;
    let config = SeriesConfig {
        games: args.series.games as usize,
        opening_plies: args.series.openings,
        seed: args.series.seed,
    };
    let progress = ProgressBar::new(u64::from(args.series.games)).with_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games, ETA {eta}")?
            .progress_chars("=> "),
    );
    progress.set_prefix(format!("{} vs {}", args.player, args.opponent));
    let records = play_series(&start, player.as_ref(), opponent.as_ref(), config, &|| {
        progress.inc(1)
    })?;
    progress.finish_and_clear();
    let stats = SeriesStats::from_records(&records);
    if args.json {
        println!("{}", report_json(start.name(), args, &stats));
    } else {
        print_table(start.name(), args, &stats);
    }
    Ok(())
}

/// The `benchmark --json` object: the run's settings plus every [`SeriesStats`] field.
fn report_json(game: &str, args: &BenchmarkArgs, stats: &SeriesStats) -> serde_json::Value {
    let mut report = json!({
        "game": game,
        "player": args.player.to_string(),
        "opponent": args.opponent.to_string(),
        "seed": args.series.seed,
        "opening_plies": args.series.openings,
    });
    if let (Some(object), Ok(serde_json::Value::Object(fields))) =
        (report.as_object_mut(), serde_json::to_value(stats))
    {
        object.extend(fields);
    }
    report
}

fn print_table(game: &str, args: &BenchmarkArgs, stats: &SeriesStats) {
    println!(
        "{game}: {} vs {}, {} games ({} random opening plies, seed {})",
        args.player, args.opponent, stats.record.games, args.series.openings, args.series.seed
    );
    println!(
        "{:<8} {:>5} {:>5} {:>6} {:>9} {:>17} {:>8} {:>8}",
        "", "wins", "draws", "losses", "win rate", "95% interval", "margin", "length"
    );
    println!(
        "{:<8} {:>5} {:>5} {:>6} {:>8.1}% {:>7.1}% – {:>6.1}% {:>+8.2} {:>8.1}",
        "player",
        stats.record.wins,
        stats.record.draws,
        stats.record.losses,
        100.0 * stats.record.win_rate,
        100.0 * stats.record.ci_low,
        100.0 * stats.record.ci_high,
        stats.mean_margin,
        stats.mean_length
    );
    for (who, spec, times) in [
        ("player", &args.player, &stats.player_time),
        ("opponent", &args.opponent, &stats.opponent_time),
    ] {
        println!(
            "{who:<8} {spec}: {} moves, {:.3} ms/move (sd {:.3}, max {:.3})",
            times.moves, times.mean_ms, times.sd_ms, times.max_ms
        );
    }
}
