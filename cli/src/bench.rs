//! `evoboard bench`: engine speed on fixed work: perft leaves per second from the start
//! position and alpha-beta nodes per second over fixed positions (one thread); and, timed
//! in the same rounds on 1 and 2 threads, one paper-sized league generation (independent
//! games: the machine's own 2-thread speed-up) and the learning throughput of the TD
//! preset's network (games per second per thread) with its 2-thread speed-up.

use std::sync::Arc;
use std::time::Instant;

use clap::Args;

use crate::endgame_ordering::{ORDER_BY_HELP, ordering_flag};
use crate::error::{BadInput, CliError, CliResult};
use evoboard::arena::{AgentSpec, SearchAgent, random_openings};
use evoboard::eval::NamedEvaluators;
use evoboard::eval::neural::NeuralEvaluator;
use evoboard::evolve::architecture_for;
use evoboard::evolve::config::{
    DEFAULT_TD_BATCH, EvolveConfig, FAST_TD_BATCH, MAX_TD_BATCH, Preset,
};
use evoboard::evolve::league::{league_games, play_league};
use evoboard::games::Game;
use evoboard::games::Perft;
use evoboard::games::othello::Othello;
use evoboard::learn::td::{GameSetup, Opponent, train};
use evoboard::nn::Architecture;
use evoboard::rng::rng_for;
use evoboard::search::Limits;
use evoboard::search::endgame::{EndgameOptions, ffo_positions, solve_endgame_within};
use evoboard::search::probcut::sample_positions;
use evoboard::search::search;

/// Measure engine speed: perft and alpha-beta nodes per second.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// perft depth from the start position.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(1..=14))]
    perft_depth: u32,
    /// Deepest alpha-beta search (depths 4 up to this are measured).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=12))]
    search_depth: u32,
    /// Number of fixed positions (seeded 10-ply openings) searched at each depth.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=1000))]
    positions: u16,
    /// Timings of the league generation and of the learning games; the best of each is
    /// reported (this machine is shared: the best is the least disturbed).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=100))]
    repeats: u16,
    /// Self-play games of the learning-throughput measurement.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    learning_games: u32,
    /// TD games played at once against the same weights in the learning-throughput
    /// measurement (the batch of `evolve --td-batch`) [default: both 16, the default
    /// batch, and 64, the batch recommended for speed].
    #[arg(long, value_name = "GAMES", value_parser = clap::value_parser!(u32).range(1..=MAX_TD_BATCH as i64))]
    td_batch: Option<u32>,
    /// Othello only: measure the exact endgame solver alone, on the first N FFO test
    /// positions from #40 (1–10; 5 is #40–#44), on 1 and 2 threads: nodes, time, nodes/s
    /// per thread and the 2-thread speed-up (best of --repeats).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub endgame: Option<u8>,
    /// Othello only: the depth a selective search reaches, a timed champion spec with
    /// %CONFIDENCE (e.g. champion:populations/othello/champion.evo:30%95~1, 1 s a search),
    /// against the same spec at full width, on --positions positions of the champion's own
    /// games with more than 20 empty squares (seed 2024), alternating.
    #[arg(long, value_name = "SPEC", conflicts_with = "endgame")]
    pub selective: Option<String>,
    #[arg(long, value_name = "EVALUATOR", requires = "endgame", help = ORDER_BY_HELP, long_help = None)]
    pub order_by: Option<String>,
}

pub fn run<G: NamedEvaluators + Perft>(start: G, args: &BenchArgs) -> CliResult {
    let othello_only = if args.endgame.is_some() {
        Some("bench --endgame measures evoboard's Othello solver")
    } else if args.selective.is_some() {
        Some("bench --selective measures evoboard's Othello engine")
    } else {
        None
    };
    if let Some(what) = othello_only {
        return Err(BadInput(format!("{what}: it takes --game othello")).into());
    }
    let clock = Instant::now();
    let leaves = start.perft_fast(args.perft_depth);
    let seconds = clock.elapsed().as_secs_f64();
    println!(
        "perft({}) = {leaves} in {seconds:.3} s: {:.1} M leaves/s",
        args.perft_depth,
        leaves as f64 / seconds / 1e6
    );
    let positions = random_openings(&start, usize::from(args.positions), 10, 2024)?;
    for name in ["heuristic", "wpc"] {
        let Ok(evaluator) = G::evaluator(name) else {
            continue; // not every game has a WPC
        };
        for depth in 4..=args.search_depth {
            let clock = Instant::now();
            let nodes: u64 = positions
                .iter()
                .map(|game| search(game, depth, evaluator.as_ref()).nodes)
                .sum();
            let seconds = clock.elapsed().as_secs_f64();
            println!(
                "alpha-beta {name} depth {depth}: {nodes} nodes over {} positions in {seconds:.3} s: {:.2} M nodes/s, {:.1} ms/position",
                positions.len(),
                nodes as f64 / seconds / 1e6,
                1000.0 * seconds / positions.len() as f64
            );
        }
    }
    measure_parallel(&start, args)
}

/// Work timed on 1 and on 2 threads, for the 2-thread speed-up.
type Timed<'a> = Box<dyn Fn() -> CliResult + Sync + 'a>;

/// The 2-thread speed-ups of a league generation and of TD learning, timed in the same
/// rounds: each round runs every workload on 1 and then on 2 threads, and each keeps its
/// best time over `--repeats` rounds. The generation's games are independent (no batches,
/// nothing applied in order), so its speed-up is what this machine's two threads give
/// work with no serial part; TD's is read against it. (On a shared virtual machine the
/// two cores need not run at the same speed, nor at the same speed from one minute to
/// the next: a speed-up measured alone says as much about the machine as about the code.)
fn measure_parallel<G: NamedEvaluators>(start: &G, args: &BenchArgs) -> CliResult {
    let batches = match args.td_batch {
        Some(batch) => vec![(batch as usize, "")],
        None => vec![
            (DEFAULT_TD_BATCH, " (the default)"),
            (FAST_TD_BATCH, " (recommended for speed)"),
        ],
    };
    let mut workloads = vec![league_generation(start)?];
    for &(batch, _) in &batches {
        workloads.push(learning(start, args, batch)?);
    }
    let pool = |threads| rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    let pools = [pool(1)?, pool(2)?];
    let mut best = vec![[f64::INFINITY; 2]; workloads.len()];
    for _ in 0..args.repeats {
        for ((_, work), best) in workloads.iter().zip(&mut best) {
            for (slot, pool) in pools.iter().enumerate() {
                let clock = Instant::now();
                pool.install(work)?;
                best[slot] = best[slot].min(clock.elapsed().as_secs_f64());
            }
        }
    }
    for ((name, _), best) in workloads.iter().zip(&best) {
        for (slot, threads) in [1u32, 2].into_iter().enumerate() {
            println!(
                "{name}: {:.3} s on {threads} thread{}",
                best[slot],
                if threads == 1 { "" } else { "s" },
            );
        }
    }
    let (generation, learning) = best.split_first().expect("the generation is timed first");
    let control = generation[0] / generation[1];
    println!("league generation 2-thread speed-up (independent games): {control:.2}x");
    let games = f64::from(args.learning_games);
    for ((batch, why), best) in batches.iter().zip(learning) {
        println!(
            "TD learning in batches of {batch}: {:.0} games/s on 1 thread, {:.0} games/s per thread on 2",
            games / best[0],
            games / best[1] / 2.0
        );
        let speed_up = best[0] / best[1];
        println!(
            "TD learning 2-thread speed-up in batches of {batch}{why}: {speed_up:.2}x, {:.0}% of the independent games' in the same rounds",
            100.0 * speed_up / control
        );
    }
    Ok(())
}

/// TD learning throughput: `--learning-games` self-play learning games of the TD preset's
/// default network in batches of `batch`, each timing from the blank network again (so
/// the games are those of early learning); with the workload's name.
fn learning<'a, G: NamedEvaluators>(
    start: &'a G,
    args: &BenchArgs,
    batch: usize,
) -> Result<(String, Timed<'a>), CliError> {
    let games = args.learning_games as usize;
    let mut config = EvolveConfig::for_game(Preset::TD, start);
    config.td_batch = batch;
    let architecture = architecture_for(start, &config)?;
    let settings = config.td_settings(1);
    let name = format!(
        "TD learning ({architecture}, batches of {batch}): {games} self-play games at 1 ply"
    );
    let work = move || {
        let setup = |k: usize| GameSetup {
            start: start.clone(),
            opponent: Opponent::SelfPlay,
            rng: rng_for(config.seed, &[k as u64]),
        };
        let mut network = start.network(&architecture, vec![0.0; architecture.genes()]);
        train(&mut network, games, &setup, settings, None)?;
        Ok(())
    };
    Ok((name, Box::new(work)))
}

/// The Othello ENN paper's generation: 20 Nguyen-Widrow networks (64-42-1 for Othello), a
/// full league of 20 · 19 = 380 games at depth 2; with the workload's name.
fn league_generation<G: NamedEvaluators>(start: &G) -> Result<(String, Timed<'_>), CliError> {
    let config = EvolveConfig::for_game(Preset::PAPER, start);
    let architecture = architecture_for(start, &config)?;
    let Architecture::Mlp(topology) = &architecture else {
        unreachable!("the paper preset evolves MLPs")
    };
    let name = format!(
        "league generation ({} networks, {} games, depth {}, {topology})",
        config.population,
        league_games(&config, 1, 0, 0),
        config.depth,
    );
    let mut rng = rng_for(config.seed, &[]);
    let networks: Vec<Arc<NeuralEvaluator>> = config
        .preset
        .learner()
        .founders(&config, &architecture, None, &mut rng)
        .population
        .into_iter()
        .map(|i| Arc::new(NeuralEvaluator::new(start.network(&architecture, i.genes))))
        .collect();
    let work = move || {
        play_league(start, &config, 1, &networks, &[], &[], &|| {})?;
        Ok(())
    };
    Ok((name, Box::new(work)))
}

/// The exact Othello endgame solver on the first `args.endgame` FFO positions: each
/// position's nodes and best time on 1 and on 2 threads, the rate per thread, and the
/// speed-up of the whole set.
pub fn endgame(args: &BenchArgs) -> CliResult {
    let count = usize::from(args.endgame.unwrap_or(5));
    let positions = &ffo_positions()[..count];
    let ordering = ordering_flag(args.order_by.as_deref())?;
    let mut totals = [0.0f64; 2];
    for position in positions {
        let mut line = format!(
            "endgame FFO #{} ({} empties):",
            position.number,
            position.game.empties().count_ones()
        );
        for (slot, threads) in [1, 2].into_iter().enumerate() {
            let options = EndgameOptions {
                threads,
                deadline: None,
                ordering: ordering.clone(),
            };
            let mut best = (f64::INFINITY, 0);
            for _ in 0..args.repeats {
                let clock = Instant::now();
                let solution = solve_endgame_within(&position.game, &options, &mut |_| {})?;
                let seconds = clock.elapsed().as_secs_f64();
                if solution.margin != position.margin {
                    return Err(BadInput(format!(
                        "FFO #{} solved to {:+}, not the published {:+}",
                        position.number, solution.margin, position.margin
                    ))
                    .into());
                }
                if seconds < best.0 {
                    best = (seconds, solution.nodes);
                }
            }
            totals[slot] += best.0;
            line += &format!(
                " {threads} thread{}: {:.1} M nodes in {:.2} s, {:.1} M nodes/s per thread;",
                if threads == 1 { "" } else { "s" },
                best.1 as f64 / 1e6,
                best.0,
                best.1 as f64 / best.0 / threads as f64 / 1e6
            );
        }
        println!("{}", line.trim_end_matches(';'));
    }
    println!(
        "endgame FFO #40-#{}: {:.2} s on 1 thread, {:.2} s on 2 threads: 2-thread speed-up {:.2}x",
        positions[count - 1].number,
        totals[0],
        totals[1],
        totals[0] / totals[1]
    );
    Ok(())
}

/// Empty squares above which a position is searched by the engine rather than solved.
const SEARCHED_EMPTIES: u32 = 20;

/// Seed of the positions of `--selective`: not the calibration's default seed, so the
/// positions measured are not those the lines were fitted on.
const SELECTIVE_SEED: u64 = 2024;

/// The depth a selective search reaches within its spec's `~SECONDS` against the same
/// search at full width, position by position (each searched by both, one after the other,
/// so a busy spell of the machine falls on both alike): the mean depth and nodes of each.
pub fn selective(args: &BenchArgs) -> CliResult {
    let text = args.selective.as_deref().unwrap_or_default();
    let spec: AgentSpec = text.parse()?;
    let (Some(confidence), Some(seconds)) = (spec.selectivity, spec.move_time) else {
        return Err(BadInput(format!(
            "--selective {text}: name a calibrated champion with %CONFIDENCE and a time a \
             search, e.g. champion:populations/othello/champion.evo:30%95~1"
        ))
        .into());
    };
    let start = Othello::start();
    let selective = spec
        .searcher(&start)?
        .ok_or_else(|| BadInput(format!("--selective {text} does not search")))?;
    let full = SearchAgent {
        probcut: None,
        ..spec.searcher(&start)?.expect("the same spec searches")
    };
    let wanted = usize::from(args.positions);
    let (sampled, _) = sample_positions(
        &start,
        selective.evaluator.as_ref(),
        4 * wanted,
        SELECTIVE_SEED,
    );
    let positions: Vec<Othello> = sampled
        .into_iter()
        .filter(|game| game.stage() > SEARCHED_EMPTIES)
        .take(wanted)
        .collect();
    let time = std::time::Duration::from_secs_f64(seconds);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut totals = [(0u64, 0u64); 2];
    for game in &positions {
        for (slot, agent) in [&selective, &full].into_iter().enumerate() {
            let limits = Limits {
                deadline: Instant::now() + time,
                stop: &stop,
            };
            let (result, depth) = agent.search_within(game, limits);
            totals[slot].0 += u64::from(depth);
            totals[slot].1 += result.nodes;
        }
    }
    let count = positions.len().max(1) as f64;
    for (slot, name) in ["selective", "full width"].into_iter().enumerate() {
        println!(
            "{name} {}: mean depth {:.2}, {:.0} nodes a search, within {} s on {} positions \
             with more than {SEARCHED_EMPTIES} empties",
            if slot == 0 {
                text.to_string()
            } else {
                format!("(without %{confidence})")
            },
            totals[slot].0 as f64 / count,
            totals[slot].1 as f64 / count,
            seconds,
            positions.len()
        );
    }
    println!(
        "selective search reaches {:+.2} plies deeper",
        (totals[0].0 as f64 - totals[1].0 as f64) / count
    );
    Ok(())
}
