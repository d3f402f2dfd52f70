//! The benchmark of a run: its opponents (the first decides gate and champion), the
//! series of openings drawn from the run's seed, and the games a network plays against
//! one opponent; and how a network of the run plays every game that scores it (the
//! league's fitness games too).

use std::sync::Arc;

use crate::arena::{
    Agent, AgentSpec, EpsilonAgent, Forfeits, SearchAgent, SeriesConfig, SeriesStats,
    panel_opponents, play_series,
};
use crate::eval::NamedEvaluators;
use crate::eval::neural::NeuralEvaluator;
use crate::rng::derive_seed;

use super::config::EvolveConfig;
use super::{EvolveError, Named, Observer};

/// The benchmark of the Othello ENN paper (§2.4.4): a network at the run's depth against
/// `opponent` on the openings of `series`, every opening with both colours.
pub(super) fn benchmark<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    network: Arc<NeuralEvaluator>,
    opponent: &dyn Agent<G>,
    series: SeriesConfig,
    observer: &dyn Observer,
) -> Result<SeriesStats, EvolveError> {
    let player = network_player(config, network, "champion".to_string());
    let records = play_series(start, player.as_ref(), opponent, series, &|| {
        observer.game_done()
    })?;
    let mut forfeits = Forfeits::default();
    forfeits.add(&records, "");
    if let Some(first) = forfeits.first {
        return Err(EvolveError::Forfeited {
            during: format!("the benchmark against {}", opponent.name()),
            reason: first,
        });
    }
    Ok(SeriesStats::from_records(&records))
}

/// A network of the run as it plays every game that scores it (fitness, benchmark, final
/// selection): searching at the run's depth, and with probability `play_epsilon` playing a
/// random move instead.
pub(super) fn network_player<G: NamedEvaluators>(
    config: &EvolveConfig,
    network: Arc<NeuralEvaluator>,
    label: String,
) -> Box<dyn Agent<G>> {
    network_playing(config.depth, config.play_epsilon, network, label)
}

/// `network` searching `depth` plies, with a random move with probability `epsilon`.
pub(super) fn network_playing<G: NamedEvaluators>(
    depth: u32,
    epsilon: f64,
    network: Arc<NeuralEvaluator>,
    label: String,
) -> Box<dyn Agent<G>> {
    let search = Box::new(SearchAgent::new(depth, network, label));
    if epsilon > 0.0 {
        Box::new(EpsilonAgent {
            inner: search,
            epsilon,
        })
    } else {
        search
    }
}

/// A series of `games` on benchmark-length openings drawn from the run seed's `stream`: the
/// validation set (per-generation benchmark) or the test set (final selection).
pub(super) fn openings_series(config: &EvolveConfig, games: usize, stream: u64) -> SeriesConfig {
    SeriesConfig {
        games,
        opening_plies: config.bench_opening_plies,
        seed: derive_seed(config.seed, &[stream]),
    }
}

/// The paper's benchmark opponent at the run's depth (the Othello ENN paper §2.4.4).
fn paper_benchmark(config: &EvolveConfig) -> String {
    format!("heuristic:{}", config.depth)
}

/// The spec of the run's first benchmark opponent, the one that decides gate and champion
/// (the first of [`benchmark_specs`], known without the game).
pub fn gating_benchmark(config: &EvolveConfig) -> String {
    match config.bench_opponents.first().map(String::as_str) {
        None | Some("panel") => paper_benchmark(config),
        Some(spec) => spec.to_string(),
    }
}

/// The specs of the run's benchmark opponents: `heuristic:depth` when none are set, with
/// `panel` standing for the whole panel at the run's depth, its heuristic first (the
/// paper's benchmark, so `panel` alone still gates on it); repeats are dropped.
pub fn benchmark_specs<G: NamedEvaluators>(config: &EvolveConfig) -> Vec<String> {
    let heuristic = paper_benchmark(config);
    if config.bench_opponents.is_empty() {
        return vec![heuristic];
    }
    let mut specs: Vec<String> = Vec::new();
    for spec in &config.bench_opponents {
        let expanded = match spec.as_str() {
            "panel" => std::iter::once(heuristic.clone())
                .chain(panel_opponents::<G>(config.depth))
                .collect(),
            _ => vec![spec.clone()],
        };
        for spec in expanded {
            if !specs.contains(&spec) {
                specs.push(spec);
            }
        }
    }
    specs
}

/// The run's benchmark opponents as agents, with their specs.
pub(super) fn benchmark_opponents<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
) -> Result<Vec<Named<G>>, EvolveError> {
    benchmark_specs::<G>(config)
        .into_iter()
        .map(|spec| {
            let agent = spec.parse::<AgentSpec>()?.build(start)?;
            Ok((spec, agent))
        })
        .collect()
}
