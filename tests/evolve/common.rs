//! Helpers shared by the evolution tests: small seeded configurations, a run on a pool of
//! threads and the files it leaves, a run resumed in two parts, and a random `straight3`
//! network.

use std::path::PathBuf;

use evoboard::Othello;
use evoboard::evolve::config::{EvolveConfig, NetworkChoice, Preset};
use evoboard::evolve::{Evolution, Observer};
use evoboard::rng::rng_for;

pub(crate) struct Quiet;

impl Observer for Quiet {}

pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evoboard-evolve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A small, quick configuration.
pub(crate) fn small(preset: Preset) -> EvolveConfig {
    EvolveConfig {
        population: 6,
        generations: 4,
        depth: 1,
        bench_games: 6,
        hidden: vec![8],
        seed: 11,
        ..EvolveConfig::new(preset)
    }
}

/// Runs `config` in `dir` on a pool of `threads` threads; returns stats.csv without the
/// timing column and the bytes of the last checkpoint and of the champion.
pub(crate) fn run(
    config: &EvolveConfig,
    dir: &std::path::Path,
    threads: usize,
) -> (String, Vec<u8>, Vec<u8>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut evolution = Evolution::create(Othello::start(), config.clone(), dir).unwrap();
        evolution.run(&Quiet).unwrap();
    });
    outputs(dir, config.generations)
}

pub(crate) fn outputs(dir: &std::path::Path, last: u32) -> (String, Vec<u8>, Vec<u8>) {
    let csv = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
    let without_time: Vec<String> = csv
        .lines()
        .map(|line| line.rsplit_once(',').unwrap().0.to_string())
        .collect();
    (
        without_time.join("\n"),
        std::fs::read(dir.join(format!("gen-{last:05}.evo"))).unwrap(),
        std::fs::read(dir.join("champion.evo")).unwrap(),
    )
}

/// Runs `config` for its first `first` generations in a fresh directory named `name`,
/// then resumes it to its whole budget on 2 threads; returns the resumed run and its
/// directory (whose outputs a test compares with an uninterrupted run's).
pub(crate) fn run_in_two_parts(
    config: &EvolveConfig,
    first: u32,
    name: &str,
) -> (Evolution<Othello>, PathBuf) {
    let parts = temp_dir(name);
    run(
        &EvolveConfig {
            generations: first,
            ..config.clone()
        },
        &parts,
        2,
    );
    let mut resumed =
        Evolution::resume(Othello::start(), &parts, Some(config.generations)).unwrap();
    resumed.run(&Quiet).unwrap();
    (resumed, parts)
}

/// The best fitness of generation 1 in a stats.csv text.
pub(crate) fn first_fitness_max(csv: &str) -> f64 {
    let row = csv.lines().nth(1).unwrap();
    row.split(',').nth(1).unwrap().parse().unwrap()
}

/// A small TD run: a 648-weight network, 300 learning games a generation (half against a
/// sparring partner), a final selection among 2 candidates.
pub(crate) fn small_td() -> EvolveConfig {
    EvolveConfig {
        generations: 4,
        network: NetworkChoice::NTuple("straight3".to_string()),
        td_games: 300,
        bench_games: 6,
        depth: 1,
        seed: 13,
        sparring: vec!["heuristic:1@0.1".to_string()],
        sparring_share: 0.5,
        candidates: 2,
        selection_games: 8,
        ..EvolveConfig::for_game(Preset::TD, &Othello::start())
    }
}

/// An Othello `straight3` network with small random weights drawn from `seed`.
pub(crate) fn random_straight3(seed: u64) -> evoboard::nn::Network {
    use evoboard::eval::neural::NeuralInput;
    let start = Othello::start();
    let architecture = evoboard::nn::Architecture::NTuple(start.tuple_set("straight3").unwrap());
    let mut rng = rng_for(seed, &[]);
    let genes = (0..architecture.genes())
        .map(|_| rand::RngExt::random_range(&mut rng, -0.02..0.02f32))
        .collect();
    start.network(&architecture, genes)
}
