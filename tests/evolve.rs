//! Evolution: selection and mutation rules, league accounting, determinism across thread
//! counts, and exact resume.

use std::path::PathBuf;
use std::sync::Arc;

use evoboard::Othello;
use evoboard::eval::neural::NeuralEvaluator;
use evoboard::evolve::checkpoint::EvolutionState;
use evoboard::evolve::cmaes::SepCma;
use evoboard::evolve::config::{EvolveConfig, NetworkChoice, Preset};
use evoboard::evolve::league::{league_games, play_league};
use evoboard::evolve::mutation::{momentum, self_adaptive};
use evoboard::evolve::population::{Individual, diversity};
use evoboard::evolve::selection::{ranking, roulette};
use evoboard::evolve::{Evolution, Observer};
use evoboard::games::mancala::Kalah;
use evoboard::nn::{Mlp, Topology, nguyen_widrow};
use evoboard::rng::rng_for;

struct Quiet;

impl Observer for Quiet {}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evoboard-evolve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A small, quick configuration.
fn small(preset: Preset) -> EvolveConfig {
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

#[test]
fn ranking_breaks_ties_by_index_and_roulette_follows_fitness() {
    assert_eq!(ranking(&[3.0, 9.0, 3.0, 9.0, 0.0]), vec![1, 3, 0, 2, 4]);
    let mut rng = rng_for(1, &[]);
    let fitness = [0.0, 30.0, 0.0, 10.0];
    let mut counts = [0usize; 4];
    for _ in 0..4000 {
        counts[roulette(&fitness, &mut rng)] += 1;
    }
    assert_eq!(counts[0] + counts[2], 0, "zero fitness is never picked");
    let share = counts[1] as f64 / 4000.0;
    assert!((share - 0.75).abs() < 0.03, "{counts:?}");
    // All-zero fitness: uniform.
    let mut counts = [0usize; 4];
    for _ in 0..4000 {
        counts[roulette(&[0.0; 4], &mut rng)] += 1;
    }
    assert!(
        counts.iter().all(|&c| (800..1200).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn momentum_mutation_moves_each_gene_by_r_p_times_its_last_change() {
    let parent = Individual {
        genes: vec![1.0, -2.0, 0.5, 3.0],
        previous: vec![0.0, -1.0, 0.5, 5.0],
        sigmas: vec![],
    };
    let p = 0.05;
    let child = momentum(&parent, p, &mut rng_for(2, &[]));
    assert_eq!(child.previous, parent.genes, "X(n−1) becomes the old X(n)");
    for i in 0..4 {
        let change = parent.genes[i] - parent.previous[i];
        let moved = child.genes[i] - parent.genes[i];
        // moved = r·p·change with r in [0, 1): same sign as change, at most p·|change|.
        assert!(moved * change >= 0.0, "gene {i}");
        assert!(moved.abs() <= (p as f32) * change.abs() + 1e-7, "gene {i}");
    }
    assert_eq!(
        child.genes[2], 0.5,
        "no change when X(n) = X(n−1) for that gene"
    );
}

#[test]
fn self_adaptive_mutation_changes_every_gene_and_keeps_steps_positive() {
    let parent = Individual {
        genes: vec![0.0; 500],
        previous: vec![],
        sigmas: vec![0.05; 500],
    };
    let child = self_adaptive(&parent, None, &mut rng_for(3, &[]));
    assert!(child.sigmas.iter().all(|&s| s > 0.0 && s != 0.05));
    assert!(child.genes.iter().all(|&g| g != 0.0));
    let mean_step = child.genes.iter().map(|g| g.abs()).sum::<f32>() / 500.0;
    // E|N(0, σ)| = σ·√(2/π) ≈ 0.04 for σ ≈ 0.05.
    assert!((0.02..0.06).contains(&mean_step), "{mean_step}");
}

#[test]
fn diversity_is_the_mean_pairwise_distance() {
    let ind = |genes: Vec<f32>| Individual {
        genes,
        previous: vec![],
        sigmas: vec![],
    };
    let population = [
        ind(vec![0.0, 0.0]),
        ind(vec![3.0, 4.0]),
        ind(vec![0.0, 0.0]),
    ];
    // Distances 5, 0, 5.
    assert!((diversity(&population) - 10.0 / 3.0).abs() < 1e-9);
    assert_eq!(diversity(&population[..1]), 0.0);
}

#[test]
fn league_plays_every_ordered_pair_and_awards_three_points_per_decided_game() {
    let config = EvolveConfig {
        population: 5,
        ..small(Preset::Paper)
    };
    let topology = Topology::new(&[64, 8, 1]).unwrap();
    let networks: Vec<Arc<NeuralEvaluator>> = (0..5)
        .map(|i| {
            let genes = nguyen_widrow(&topology, &mut rng_for(i, &[]));
            Arc::new(NeuralEvaluator::new(Mlp::new(topology.clone(), genes)))
        })
        .collect();
    assert_eq!(league_games(&config, 1, 0, 0), 20);
    let games = std::sync::atomic::AtomicUsize::new(0);
    let count = || {
        games.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let fitness = play_league(&Othello::start(), &config, 1, &networks, &[], &[], &count).unwrap();
    assert_eq!(games.into_inner(), 20);
    let total: f64 = fitness.iter().sum();
    // 20 games: 3 points each if decided, 2 if drawn.
    assert!((40.0..=60.0).contains(&total), "{fitness:?}");
    assert!(fitness.iter().all(|&f| f <= 8.0 * 3.0));
    // Same generation, same result; the hall of fame adds two games per individual each.
    assert_eq!(
        play_league(&Othello::start(), &config, 1, &networks, &[], &[], &|| {}).unwrap(),
        fitness
    );
    let hall = [networks[0].clone()];
    assert_eq!(league_games(&config, 1, 1, 0), 30);
    let with_hall =
        play_league(&Othello::start(), &config, 1, &networks, &hall, &[], &|| {}).unwrap();
    assert!(with_hall.iter().zip(&fitness).all(|(h, f)| h >= f));
    // A sampled league: each individual draws 2 opponents; mutual draws are played once,
    // so at most 2·K·P games, and nobody earns more than from all its games.
    let sampled = EvolveConfig {
        league_sample: Some(2),
        ..config.clone()
    };
    let games = league_games(&sampled, 1, 0, 0);
    assert!((10..=20).contains(&games), "{games}");
    let fitness = play_league(&Othello::start(), &sampled, 1, &networks, &[], &[], &|| {}).unwrap();
    assert!(fitness.iter().all(|&f| f <= 24.0));
    assert!(fitness.iter().sum::<f64>() <= 3.0 * 2.0 * games as f64);
}

/// Runs `config` in `dir` on a pool of `threads` threads; returns stats.csv without the
/// timing column and the bytes of the last checkpoint and of the champion.
fn run(config: &EvolveConfig, dir: &std::path::Path, threads: usize) -> (String, Vec<u8>, Vec<u8>) {
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

fn outputs(dir: &std::path::Path, last: u32) -> (String, Vec<u8>, Vec<u8>) {
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
fn run_in_two_parts(
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
fn first_fitness_max(csv: &str) -> f64 {
    let row = csv.lines().nth(1).unwrap();
    row.split(',').nth(1).unwrap().parse().unwrap()
}

#[test]
fn bounded_self_adaptive_steps_never_pass_the_bound_however_long_they_drift() {
    let mut rng = rng_for(5, &[]);
    let mut lineage = Individual {
        genes: vec![0.0; 200],
        previous: vec![],
        sigmas: vec![0.01; 200],
    };
    let mut unbounded = lineage.clone();
    for _ in 0..300 {
        lineage = self_adaptive(&lineage, Some(0.05), &mut rng);
        unbounded = self_adaptive(&unbounded, None, &mut rng);
    }
    assert!(lineage.sigmas.iter().all(|&s| s > 0.0 && s <= 0.05));
    assert!(
        lineage.sigmas.contains(&0.05),
        "the drift reaches the bound"
    );
    // Unbounded, a log-normal random walk of 300 steps wanders far past it.
    assert!(unbounded.sigmas.iter().any(|&s| s > 0.05));
}

#[test]
fn separable_cma_es_minimises_a_scaled_sphere_and_adapts_its_scales() {
    // f(x) = Σ (kᵢ xᵢ)², scales from 1 to 100: a diagonal covariance can learn them.
    let n = 10;
    let scale = |i: usize| 10f64.powf(2.0 * i as f64 / (n - 1) as f64);
    let f = |x: &[f32]| -> f64 {
        x.iter()
            .enumerate()
            .map(|(i, &v)| (scale(i) * f64::from(v)).powi(2))
            .sum()
    };
    let mut cma = SepCma::new(vec![1.0; n], 0.5);
    let mut rng = rng_for(9, &[]);
    let start = f(&cma.mean_genes());
    for _ in 0..400 {
        let samples = cma.sample(12, &mut rng);
        let values: Vec<f64> = samples.iter().map(|x| -f(x)).collect();
        let samples: Vec<&[f32]> = samples.iter().map(Vec::as_slice).collect();
        cma.update(&samples, &ranking(&values), 1.0);
    }
    let end = f(&cma.mean_genes());
    assert!(end < start * 1e-8, "{start} → {end}");
    // The coordinate with the steepest scale ends with the smallest variance.
    let v = &cma.variances;
    assert!(v[n - 1] < v[0] / 100.0, "{v:?}");
    assert!(cma.sigma.is_finite() && cma.sigma > 0.0);
}

/// `mean_rate`: the mean takes that share of the selected step, and the rest of the
/// distribution (σ, variances, paths) learns as with the whole step.
#[test]
fn a_mean_rate_below_one_moves_the_cma_es_mean_that_share_of_its_step() {
    let n = 6;
    let start = SepCma::new(vec![0.5; n], 0.3);
    let samples = start.sample(10, &mut rng_for(4, &[]));
    let values: Vec<f64> = samples.iter().map(|x| -f64::from(x[0]).abs()).collect();
    let samples: Vec<&[f32]> = samples.iter().map(Vec::as_slice).collect();
    let ranked = ranking(&values);
    let (mut whole, mut quarter) = (start.clone(), start.clone());
    whole.update(&samples, &ranked, 1.0);
    quarter.update(&samples, &ranked, 0.25);
    for ((w, q), m) in whole.mean.iter().zip(&quarter.mean).zip(&start.mean) {
        assert!((q - m - 0.25 * (w - m)).abs() < 1e-12, "{w} {q} {m}");
    }
    assert!(whole.mean.iter().zip(&start.mean).any(|(w, m)| w != m));
    assert_eq!(whole.sigma, quarter.sigma);
    assert_eq!(whole.variances, quarter.variances);
    for (rate, base, named) in [
        (0.0, small(Preset::Cmaes), "(0, 1]"),
        (1.5, small(Preset::Cmaes), "(0, 1]"),
        (0.5, small_td(), "--preset cmaes"),
    ] {
        let config = EvolveConfig {
            mean_rate: rate,
            ..base
        };
        let error = config.validate().unwrap_err().to_string();
        assert!(
            error.contains("--mean-rate") && error.contains(named),
            "{error}"
        );
    }
    let cocmaes = EvolveConfig {
        mean_rate: 0.5,
        ..small(Preset::CoCmaes)
    };
    assert!(cocmaes.validate().is_ok());
}

#[test]
fn sparring_partners_add_their_games_to_fitness_on_openings_the_population_shares() {
    let start = Othello::start();
    let config = EvolveConfig {
        population: 3,
        league: false,
        sparring: vec!["random".to_string()],
        sparring_games: 4,
        depth: 1,
        ..EvolveConfig::new(Preset::Cmaes)
    };
    let partners: Vec<Box<dyn evoboard::arena::Agent<Othello>>> = vec![
        "random"
            .parse::<evoboard::arena::AgentSpec>()
            .unwrap()
            .build(&start)
            .unwrap(),
        "minimax:1:greedy"
            .parse::<evoboard::arena::AgentSpec>()
            .unwrap()
            .build(&start)
            .unwrap(),
    ];
    assert_eq!(league_games(&config, 1, 0, 2), 3 * 2 * 4);
    let league_too = EvolveConfig {
        league: true,
        ..config.clone()
    };
    assert_eq!(league_games(&league_too, 1, 0, 2), 3 * 2 + 3 * 2 * 4);
    // Three copies of one network meet the same partners on the same openings with the
    // same colours: they score alike against the deterministic greedy player.
    let topology = Topology::new(&[64, 4, 1]).unwrap();
    let genes = nguyen_widrow(&topology, &mut rng_for(2, &[]));
    let network = Arc::new(NeuralEvaluator::new(Mlp::new(topology, genes)));
    let population = vec![network.clone(), network.clone(), network];
    let greedy_only = &partners[1..];
    let fitness = play_league(&start, &config, 1, &population, &[], greedy_only, &|| {}).unwrap();
    assert_eq!(fitness.len(), 3);
    assert!(
        fitness.iter().all(|&f| f == fitness[0] && f <= 12.0),
        "{fitness:?}"
    );
    let both = play_league(&start, &config, 1, &population, &[], &partners, &|| {}).unwrap();
    assert!(
        both.iter().all(|&f| f >= fitness[0] && f <= 24.0),
        "{both:?}"
    );
}

#[test]
fn cma_es_runs_with_sparring_fitness_do_not_depend_on_threads_and_resume_exactly() {
    let config = EvolveConfig {
        network: NetworkChoice::NTuple("straight2".to_string()),
        league: false,
        sparring: vec!["heuristic:1@0.1".to_string()],
        sparring_games: 4,
        ..small(Preset::Cmaes)
    };
    let (one, two) = (temp_dir("cma-t1"), temp_dir("cma-t2"));
    let a = run(&config, &one, 1);
    assert_eq!(a, run(&config, &two, 2));
    // Fitness is 4 games against the partner: at most 12 points.
    let max = first_fitness_max(&a.0);
    assert!(max <= 12.0, "{max}");
    let (resumed, parts) = run_in_two_parts(&config, 2, "cma-parts");
    assert_eq!(outputs(&parts, 4), a);
    // The champion is a mean of the search distribution, not one of its samples.
    let state = resumed.state();
    let champion = state.champion.as_ref().unwrap();
    assert!(state.population.iter().all(|i| i.genes != champion.genes));
    for dir in [one, two, parts] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn the_learning_rate_decays_geometrically_over_its_generations_then_stays() {
    let constant = EvolveConfig::new(Preset::Td);
    assert_eq!(constant.learning_rate_at(1), constant.learning_rate_at(40));
    let decaying = EvolveConfig {
        learning_rate: 0.01,
        learning_rate_end: Some(0.001),
        decay_generations: 11,
        ..EvolveConfig::new(Preset::Td)
    };
    let close = |a: f32, b: f32| (a - b).abs() < 1e-7;
    assert!(close(decaying.learning_rate_at(1), 0.01));
    // Halfway (generation 6 of 11) the rate is the geometric mean, √(0.01 · 0.001).
    assert!(close(
        decaying.learning_rate_at(6),
        (0.01f32 * 0.001).sqrt()
    ));
    assert!(close(decaying.learning_rate_at(11), 0.001));
    assert!(close(decaying.learning_rate_at(50), 0.001));
    let rates: Vec<f32> = (1..=11).map(|g| decaying.learning_rate_at(g)).collect();
    assert!(rates.windows(2).all(|w| w[1] < w[0]), "{rates:?}");
    let negative = EvolveConfig {
        learning_rate_end: Some(-0.1),
        ..decaying
    };
    assert!(negative.validate().is_err());
}

#[test]
fn populations_are_capped_and_must_fit_in_memory_before_anything_is_allocated() {
    let huge = EvolveConfig {
        population: 10_000_000,
        ..EvolveConfig::new(Preset::Modern)
    };
    assert!(huge.validate().is_err());
    let dir = temp_dir("huge");
    assert!(Evolution::create(Othello::start(), huge, &dir).is_err());
    // Within the cap but not within memory: 9,000 networks of 167,265 weights.
    let wide = EvolveConfig {
        population: 9_000,
        network: NetworkChoice::NTuple("logistello".to_string()),
        ..EvolveConfig::new(Preset::Cmaes)
    };
    assert!(wide.validate().is_ok());
    let bytes = 4 * 167_265 + 65_536;
    assert!(wide.check_memory(167_265, bytes, 0, 2).is_err());
    assert!(Evolution::create(Othello::start(), wide.clone(), &dir).is_err());
    assert!(
        !dir.exists(),
        "nothing is written for a run that cannot start"
    );
    let few = EvolveConfig {
        population: 20,
        ..wide
    };
    assert!(few.check_memory(167_265, bytes, 0, 2).is_ok());
    // The league's list of games counts too: 10,000 small TD learners in a full league
    // (10⁸ games) passed a check of the chromosomes alone, then aborted allocating it.
    let league = EvolveConfig {
        population: 10_000,
        td_games: 1,
        ..EvolveConfig::for_game(Preset::Ctdl, &Kalah::game(6, 4, false))
    };
    assert!(league.validate().is_ok());
    let error = Evolution::create(Kalah::game(6, 4, false), league, &dir)
        .err()
        .expect("the run does not fit in memory")
        .to_string();
    assert!(
        error.contains("MB") && error.contains("--league-sample"),
        "{error}"
    );
    assert!(!dir.exists());
}

/// A run's memory bound grows with everything it holds, and every part of it counts.
#[test]
fn the_memory_bound_counts_every_copy_of_the_population_and_the_league() {
    let config = EvolveConfig {
        population: 100,
        ..EvolveConfig::new(Preset::Modern)
    };
    let bound = |c: &EvolveConfig| c.memory_bound(2_773, 20_000, 0, 2);
    let bigger = |change: fn(&mut EvolveConfig)| {
        let mut changed = config.clone();
        change(&mut changed);
        bound(&changed) > bound(&config)
    };
    assert!(bigger(|c| c.population = 200));
    assert!(bigger(|c| c.hall_of_fame += 10));
    assert!(bigger(|c| c.candidates += 10));
    assert!(bigger(|c| c.bench_games = 100_000));
    assert!(bigger(|c| {
        c.sparring = vec!["random".to_string()];
        c.sparring_games = 1_000;
    }));
    // A sampled league lists fewer games than the full one.
    assert!(!bigger(|c| c.league_sample = Some(2)));
    // Each individual counts five times over: in the population, as a player, in the next
    // population, in the checkpoint's encoding and in its copy (each of the four
    // chromosome stores holding genes and mutation steps).
    let doubled = EvolveConfig {
        population: 200,
        ..config.clone()
    };
    assert!(bound(&doubled) - bound(&config) >= 100 * (8 * 2_773 * 4 + 20_000));
    assert!(config.memory_bound(2_773, 20_000, 0, 8) > bound(&config));
    assert!(config.memory_bound(2_773, 20_000, 1 << 20, 2) > bound(&config));
}

#[test]
fn the_td_presets_need_learning_games() {
    for preset in [Preset::Td, Preset::Ctdl] {
        let config = EvolveConfig {
            td_games: 0,
            ..EvolveConfig::for_game(preset, &Othello::start())
        };
        let error = config.validate().unwrap_err().to_string();
        assert!(error.contains("--td-games"), "{error}");
        let dir = temp_dir("no-td-games");
        assert!(Evolution::create(Othello::start(), config, &dir).is_err());
        assert!(!dir.exists());
    }
    // The evolving presets learn by evolution alone by default.
    assert!(small(Preset::Modern).validate().is_ok());
}

/// Learning that diverges (here α reaching 3·10³⁸ in generation 2) stops the run before
/// the generation is saved: the last checkpoint and the champion stay those of
/// generation 1, and the error names generation 2.
#[test]
fn a_run_whose_learning_diverges_stops_with_its_last_good_checkpoint() {
    let dir = temp_dir("diverging");
    let config = EvolveConfig {
        generations: 3,
        td_games: 40,
        learning_rate_end: Some(3e38),
        decay_generations: 2,
        sparring: Vec::new(),
        sparring_share: 0.0,
        ..small_td()
    };
    let mut evolution = Evolution::create(Othello::start(), config, &dir).unwrap();
    let error = evolution.run(&Quiet).unwrap_err();
    assert!(!error.is_bad_input());
    let message = error.to_string();
    assert!(
        message.contains("generation 2") && message.contains("generation 1"),
        "{message}"
    );
    assert!(dir.join("gen-00001.evo").exists() && !dir.join("gen-00002.evo").exists());
    let champion =
        evoboard::champion::Champion::load_for(&dir.join("champion.evo"), &Othello::start())
            .expect("the champion of generation 1 is intact");
    assert_eq!(champion.generation, 1);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn fitness_needs_the_league_or_sparring_games() {
    let alone = EvolveConfig {
        league: false,
        ..EvolveConfig::new(Preset::Cmaes)
    };
    assert!(alone.validate().is_err());
    let no_partners = EvolveConfig {
        sparring_games: 4,
        ..EvolveConfig::new(Preset::Cmaes)
    };
    assert!(no_partners.validate().is_err());
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    for preset in [Preset::Paper, Preset::Modern] {
        let config = small(preset);
        let (one, two) = (
            temp_dir(&format!("{preset}-t1")),
            temp_dir(&format!("{preset}-t2")),
        );
        let a = run(&config, &one, 1);
        let b = run(&config, &two, 2);
        assert_eq!(a, b, "{preset}");
        assert_eq!(a.0.lines().count(), 1 + 4, "header and four generations");
        let other_seed = temp_dir(&format!("{preset}-seed"));
        let c = run(&EvolveConfig { seed: 12, ..config }, &other_seed, 2);
        assert_ne!(a.1, c.1, "another seed evolves differently");
        for dir in [one, two, other_seed] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
}

#[test]
fn resuming_from_any_checkpoint_reproduces_the_uninterrupted_run() {
    let config = small(Preset::Modern);
    let whole = temp_dir("whole");
    let expected = run(&config, &whole, 2);
    let parts = temp_dir("parts");
    let first_half = EvolveConfig {
        generations: 2,
        ..config.clone()
    };
    run(&first_half, &parts, 2);
    let mut resumed = Evolution::resume(Othello::start(), &parts, Some(4)).unwrap();
    assert_eq!(resumed.state().generation, 2);
    resumed.run(&Quiet).unwrap();
    let (csv, checkpoint, champion) = outputs(&parts, 4);
    assert_eq!(csv, expected.0);
    assert_eq!(champion, expected.2);
    // The budget is part of the stored config, so compare the states with it aligned.
    let load = |bytes: &[u8]| -> EvolutionState {
        evoboard::persist::decode(
            std::path::Path::new("x"),
            bytes,
            evoboard::persist::FileKind::Checkpoint,
            "othello",
        )
        .unwrap()
    };
    let (mut got, want) = (load(&checkpoint), load(&expected.1));
    got.config.generations = want.config.generations;
    assert_eq!(got, want);
    // A finished run has nothing left to do.
    let mut done = Evolution::resume(Othello::start(), &whole, None).unwrap();
    done.run(&Quiet).unwrap();
    assert_eq!(done.state().generation, 4);
    // A fresh run refuses to overwrite an existing one.
    assert!(Evolution::create(Othello::start(), config, &whole).is_err());
    for dir in [whole, parts] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn the_gate_stops_the_run() {
    let dir = temp_dir("gate");
    let config = EvolveConfig {
        gate: 0.0,
        ..small(Preset::Paper)
    };
    let mut evolution = Evolution::create(Othello::start(), config, &dir).unwrap();
    evolution.run(&Quiet).unwrap();
    assert!(evolution.state().gate_reached);
    assert_eq!(
        evolution.state().generation,
        1,
        "a 0% gate is reached at once"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_gate_of_one_is_no_gate_and_old_stops_at_it_resume() {
    let config = EvolveConfig {
        gate: 1.0,
        generations: 1,
        ..small(Preset::Paper)
    };
    assert!(!config.gate_passed_by(1.0));
    let gated = EvolveConfig {
        gate: 0.75,
        ..config.clone()
    };
    assert!(gated.gate_passed_by(0.75) && !gated.gate_passed_by(0.74));
    // A run an older version stopped at a perfect benchmark with no gate: the checkpoint
    // says the gate was reached, and resuming with a larger budget goes on.
    let dir = temp_dir("no-gate");
    run(&config, &dir, 1);
    let path = dir.join("gen-00001.evo");
    let mut stopped: EvolutionState =
        evoboard::evolve::checkpoint::load_checkpoint(&path, "othello").unwrap();
    stopped.history[0].benchmark = Some(evoboard::arena::WinRecord::new(6, 0, 0));
    stopped.gate_reached = true;
    evoboard::persist::save(
        &path,
        evoboard::persist::FileKind::Checkpoint,
        "othello",
        &stopped,
    )
    .unwrap();
    let mut resumed = Evolution::resume(Othello::start(), &dir, Some(2)).unwrap();
    resumed.run(&Quiet).unwrap();
    assert_eq!(resumed.state().generation, 2);
    assert!(!resumed.state().gate_reached);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn resume_refuses_inconsistent_checkpoints_and_repairs_derived_files() {
    use evoboard::persist::{FileKind, save};
    let dir = temp_dir("inconsistent");
    let config = EvolveConfig {
        generations: 2,
        ..small(Preset::Paper)
    };
    run(&config, &dir, 2);
    let path = dir.join("gen-00002.evo");
    let original: EvolutionState =
        evoboard::evolve::checkpoint::load_checkpoint(&path, "othello").unwrap();
    let resume_error = |state: &EvolutionState| {
        save(&path, FileKind::Checkpoint, "othello", state).unwrap();
        match Evolution::resume(Othello::start(), &dir, None) {
            Err(error) => error.to_string(),
            Ok(_) => panic!("an inconsistent checkpoint was accepted"),
        }
    };
    let mut short_gene = original.clone();
    short_gene.population[3].genes.pop();
    assert!(resume_error(&short_gene).contains("wrong length"));
    let mut missing = original.clone();
    missing.population.pop();
    assert!(resume_error(&missing).contains("individuals"));
    let mut other_settings = original.clone();
    other_settings.config.depth = 3;
    assert!(resume_error(&other_settings).contains("run.json"));
    let mut renumbered = original.clone();
    renumbered.generation = 1;
    assert!(resume_error(&renumbered).contains("generation 2"));
    // Every network a checkpoint restores is checked as a champion file would be: a
    // champion searching at another depth than the run's, or a weight no player can use.
    for depth in [0, u32::MAX] {
        let mut deep = original.clone();
        deep.champion.as_mut().unwrap().depth = depth;
        assert!(resume_error(&deep).contains("does not fit"));
        let mut candidate = original.clone();
        candidate.candidates[0].depth = depth;
        assert!(resume_error(&candidate).contains("does not fit"));
    }
    let mut nan_individual = original.clone();
    nan_individual.population[2].genes[5] = f32::NAN;
    assert!(resume_error(&nan_individual).contains("weight 5"));
    let mut infinite_memory = original.clone();
    infinite_memory.population[0].previous[1] = f32::INFINITY;
    assert!(resume_error(&infinite_memory).contains("weight 1"));
    let mut nan_champion = original.clone();
    nan_champion.champion.as_mut().unwrap().genes[0] = f32::NAN;
    assert!(resume_error(&nan_champion).contains("weight 0"));
    save(&path, FileKind::Checkpoint, "othello", &original).unwrap();

    // Too small a budget would undo generations.
    assert!(Evolution::resume(Othello::start(), &dir, Some(1)).is_err());
    // A stats.csv that lost its last row (a kill between two writes) is rebuilt, and
    // temporary files of interrupted writes (by a process that is gone) are removed.
    let csv = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
    let shortened: Vec<&str> = csv.lines().take(2).collect();
    std::fs::write(dir.join("stats.csv"), shortened.join("\n") + "\n").unwrap();
    std::fs::write(dir.join(".gen-00003.evo.tmp-4000000000"), b"partial").unwrap();
    Evolution::resume(Othello::start(), &dir, None).unwrap();
    let without_time = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    let rebuilt = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
    assert_eq!(without_time(&rebuilt), without_time(&csv));
    assert!(
        rebuilt.ends_with(",\n"),
        "the lost row's time is unknown, not invented"
    );
    assert!(!dir.join(".gen-00003.evo.tmp-4000000000").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn only_the_newest_checkpoints_are_kept_when_asked() {
    let dir = temp_dir("keep");
    let config = EvolveConfig {
        keep_checkpoints: Some(2),
        ..small(Preset::Modern)
    };
    run(&config, &dir, 2);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("gen-"))
        .collect();
    names.sort();
    assert_eq!(names, ["gen-00003.evo", "gen-00004.evo"]);
    let mut more = Evolution::resume(Othello::start(), &dir, Some(5)).unwrap();
    more.run(&Quiet).unwrap();
    assert!(!dir.join("gen-00003.evo").exists() && dir.join("gen-00005.evo").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

/// A small TD run: a 648-weight network, 300 learning games a generation (half against a
/// sparring partner), a final selection among 2 candidates.
fn small_td() -> EvolveConfig {
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
        ..EvolveConfig::for_game(Preset::Td, &Othello::start())
    }
}

#[test]
fn td_runs_do_not_depend_on_the_thread_count_and_resume_exactly() {
    let config = small_td();
    let (one, two) = (temp_dir("td-t1"), temp_dir("td-t2"));
    let a = run(&config, &one, 1);
    let b = run(&config, &two, 2);
    assert_eq!(a, b);
    let (resumed, parts) = run_in_two_parts(&config, 2, "td-parts");
    let (csv, _, champion) = outputs(&parts, 4);
    assert_eq!((csv, champion), (a.0, a.2));
    let state = resumed.state();
    assert!(state.candidates.len() <= 2);
    let champion = state.selected.as_ref().unwrap();
    assert!(champion.test_win_rate.is_some());
    assert!(state.candidates.iter().any(|c| c.genes == champion.genes));
    for dir in [one, two, parts] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// A larger batch is another run (its games see weights a few more games old), still
/// the same on 1 and 2 threads; batches outside 1..=4096 are refused by name.
#[test]
fn the_td_batch_changes_the_run_but_never_the_threads() {
    let config = EvolveConfig {
        generations: 2,
        sparring_share: 0.0,
        ..small_td()
    };
    let batched = EvolveConfig {
        td_batch: 64,
        ..config.clone()
    };
    let dirs = [
        temp_dir("batch16"),
        temp_dir("batch64-t1"),
        temp_dir("batch64-t2"),
    ];
    let default = run(&config, &dirs[0], 2);
    let one = run(&batched, &dirs[1], 1);
    let two = run(&batched, &dirs[2], 2);
    assert_eq!(one, two);
    assert_ne!(
        one.2, default.2,
        "batches of 64 learned the weights of batches of 16"
    );
    for dir in dirs {
        std::fs::remove_dir_all(dir).unwrap();
    }
    for batch in [0, 4097] {
        let error = EvolveConfig {
            td_batch: batch,
            ..config.clone()
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(error.contains("--td-batch"), "{error}");
    }
}

#[test]
fn ctdl_runs_select_among_td_learners_deterministically_and_resume_exactly() {
    let config = EvolveConfig {
        generations: 3,
        population: 4,
        network: NetworkChoice::NTuple("straight2".to_string()),
        td_games: 100,
        bench_games: 4,
        depth: 1,
        seed: 17,
        selection_games: 4,
        ..EvolveConfig::for_game(Preset::Ctdl, &Othello::start())
    };
    let (one, two) = (temp_dir("ctdl-t1"), temp_dir("ctdl-t2"));
    let a = run(&config, &one, 1);
    assert_eq!(a, run(&config, &two, 2));
    // League fitness of 4 learners: 12 games, 3 points a win.
    let max = first_fitness_max(&a.0);
    assert!(max > 0.0 && max <= 18.0, "{max}");
    let (resumed, parts) = run_in_two_parts(&config, 1, "ctdl-parts");
    let (csv, _, champion) = outputs(&parts, 3);
    assert_eq!((csv, champion), (a.0, a.2));
    // After selection the worse half are copies of the better half.
    let state = resumed.state();
    let distinct: std::collections::HashSet<Vec<u32>> = state
        .population
        .iter()
        .map(|i| i.genes.iter().map(|g| g.to_bits()).collect())
        .collect();
    assert_eq!(distinct.len(), 2);
    for dir in [one, two, parts] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// Co-CMA-ES on a 2-tuple network, small enough for a test.
fn small_cocmaes(generations: u32, seed: u64) -> EvolveConfig {
    EvolveConfig {
        population: 6,
        generations,
        network: NetworkChoice::NTuple("straight2".to_string()),
        bench_games: 4,
        seed,
        ..EvolveConfig::for_game(Preset::CoCmaes, &Othello::start())
    }
}

#[test]
fn co_cma_es_takes_the_papers_settings_and_offers_its_best_sample() {
    let othello = EvolveConfig::for_game(Preset::CoCmaes, &Othello::start());
    assert_eq!(
        (othello.population, othello.depth, othello.initial_sigma),
        (400, 1, 1.0)
    );
    assert_eq!(
        othello.network,
        NetworkChoice::NTuple("straight4-squares2".to_string())
    );
    // Fitness is a round robin among the samples alone, and the run plays its budget.
    assert!(othello.league && othello.league_sample.is_none());
    assert!(othello.hall_of_fame == 0 && othello.sparring_games == 0);
    assert_eq!(othello.gate, 1.0);
    // A game without the paper's network gets its default n-tuple set.
    let kalah = Kalah::game(6, 4, false);
    assert_eq!(
        EvolveConfig::for_game(Preset::CoCmaes, &kalah).network,
        EvolveConfig::for_game(Preset::Td, &kalah).network
    );

    let dir = temp_dir("cocma-best");
    let mut evolution = Evolution::create(Othello::start(), small_cocmaes(1, 5), &dir).unwrap();
    let state = evolution.state();
    let samples: Vec<Vec<f32>> = state.population.iter().map(|i| i.genes.clone()).collect();
    let first_mean = state.cma.as_ref().unwrap().mean.clone();
    // The first mean is a random network, each weight in [−0.1, 0.1] ...
    assert!(first_mean.iter().all(|m| m.abs() <= 0.1));
    assert!(first_mean.iter().filter(|&&m| m != 0.0).count() > first_mean.len() / 2);
    // ... and the samples spread around it by σ = 1 (E|N(0, 1)| ≈ 0.8).
    let spread = samples[0]
        .iter()
        .zip(&first_mean)
        .map(|(&x, &m)| (f64::from(x) - m).abs())
        .sum::<f64>()
        / first_mean.len() as f64;
    assert!((0.6..1.0).contains(&spread), "{spread}");
    evolution.run(&Quiet).unwrap();
    let state = evolution.state();
    let champion = state.champion.as_ref().unwrap();
    assert!(
        samples.contains(&champion.genes),
        "the generation offers one of its samples"
    );
    assert_eq!(champion.fitness, state.history[0].fitness_max);
    let cma = state.cma.as_ref().unwrap();
    assert_ne!(cma.mean, first_mean, "the distribution moved");
    assert!(cma.mean_genes() != champion.genes);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn co_cma_es_runs_do_not_depend_on_threads_and_resume_exactly() {
    let config = small_cocmaes(3, 13);
    let (one, two) = (temp_dir("cocma-t1"), temp_dir("cocma-t2"));
    let a = run(&config, &one, 1);
    assert_eq!(a, run(&config, &two, 2));
    // A round robin of 6: 10 games each, 3 points a win.
    let max = first_fitness_max(&a.0);
    assert!(max > 0.0 && max <= 30.0, "{max}");
    let (_, parts) = run_in_two_parts(&config, 1, "cocma-parts");
    assert_eq!(outputs(&parts, 3), a);
    // Another seed is another run.
    let other = temp_dir("cocma-seed");
    assert_ne!(run(&small_cocmaes(3, 14), &other, 2).0, a.0);
    for dir in [one, two, parts, other] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn td_learning_turns_a_blank_network_into_a_player_that_beats_random_play() {
    use evoboard::arena::{AgentSpec, SearchAgent, SeriesConfig, SeriesStats, play_series};
    use evoboard::eval::neural::NeuralInput;
    use evoboard::learn::td::{GameSetup, Opponent, TdSettings, train};
    let start = Othello::start();
    let architecture = evoboard::nn::Architecture::NTuple(start.tuple_set("straight3").unwrap());
    let mut network = start.network(&architecture, vec![0.0; architecture.genes()]);
    let score = |network: &evoboard::nn::Network| {
        let player = SearchAgent::new(
            1,
            Arc::new(NeuralEvaluator::new(network.clone())),
            "td".into(),
        );
        let random = "random"
            .parse::<AgentSpec>()
            .unwrap()
            .build(&start)
            .unwrap();
        let series = SeriesConfig {
            games: 100,
            opening_plies: 4,
            seed: 3,
        };
        let records = play_series(&start, &player, random.as_ref(), series, &|| {}).unwrap();
        SeriesStats::from_records(&records).record.win_rate
    };
    let blank = score(&network);
    let setup = |k: usize| GameSetup {
        start,
        opponent: Opponent::SelfPlay,
        rng: rng_for(21, &[k as u64]),
    };
    let settings = TdSettings {
        learning_rate: 0.003,
        exploration: 0.1,
        learn_exploring: false,
        batch: 16,
        symmetries: false,
        play_depth: 1,
        ranking: 0.0,
        lambda: 0.0,
    };
    train(&mut network, 2000, &setup, settings, None).expect("no partner to forfeit");
    let learned = score(&network);
    assert!(
        learned >= 0.85 && learned > blank + 0.2,
        "blank {blank}, learned {learned}"
    );
}

/// An Othello `straight3` network with small random weights drawn from `seed`.
fn random_straight3(seed: u64) -> evoboard::nn::Network {
    use evoboard::eval::neural::NeuralInput;
    let start = Othello::start();
    let architecture = evoboard::nn::Architecture::NTuple(start.tuple_set("straight3").unwrap());
    let mut rng = rng_for(seed, &[]);
    let genes = (0..architecture.genes())
        .map(|_| rand::RngExt::random_range(&mut rng, -0.02..0.02f32))
        .collect();
    start.network(&architecture, genes)
}

/// The updates of self-play game `game` (moves drawn from `(seed, game)`) from the start
/// with `network` fixed.
fn self_play_updates(
    network: &evoboard::nn::Network,
    settings: evoboard::learn::td::TdSettings,
    seed: u64,
    game: u64,
) -> Vec<(Othello, f32)> {
    use evoboard::learn::td::{Opponent, play_trajectory};
    let mut rng = rng_for(seed, &[game]);
    play_trajectory(
        network,
        &Othello::start(),
        &Opponent::SelfPlay,
        settings,
        &mut rng,
    )
    .expect("self-play forfeits nothing")
    .updates
}

/// With `symmetries`, each position of a game is followed, in the updates applied, by its
/// seven images with its target; an MLP so taught differs from one taught the game alone.
#[test]
fn learning_symmetries_teaches_each_position_and_its_seven_images() {
    use evoboard::eval::neural::NeuralInput;
    use evoboard::learn::td::{GameSetup, Opponent, TdSettings, train};
    use evoboard::learn::updates::Updates;
    let topology = Topology::new(&[64, 8, 1]).unwrap();
    let start_network = evoboard::nn::Network::Mlp(Mlp::new(
        topology.clone(),
        nguyen_widrow(&topology, &mut rng_for(3, &[])),
    ));
    let settings = |symmetries| TdSettings {
        learning_rate: 0.01,
        exploration: 0.1,
        learn_exploring: false,
        batch: 1,
        symmetries,
        play_depth: 1,
        ranking: 0.0,
        lambda: 0.0,
    };
    let setup = |game: usize| GameSetup {
        start: Othello::start(),
        opponent: Opponent::SelfPlay,
        rng: rng_for(5, &[game as u64]),
    };
    let trained = |symmetries| {
        let mut network = start_network.clone();
        train(&mut network, 3, &setup, settings(symmetries), None).expect("no partner to forfeit");
        network
    };
    let mut by_hand = start_network.clone();
    for game in 0..3u64 {
        let played = self_play_updates(&by_hand, settings(false), 5, game);
        let mut expanded = Vec::new();
        for (position, target) in played {
            let images = position.symmetric_images();
            assert_eq!(images.len(), 7);
            expanded.push((position, target));
            expanded.extend(images.into_iter().map(|image| (image, target)));
        }
        Updates::prepare(&by_hand, expanded).apply(&mut by_hand, 0.01);
    }
    let with_images = trained(true);
    let genes = |network: &evoboard::nn::Network| network.genes().to_vec();
    assert_eq!(genes(&with_images), genes(&by_hand));
    assert_ne!(genes(&with_images), genes(&trained(false)));
}

#[test]
fn learning_from_exploring_moves_adds_their_positions_and_nothing_else() {
    use evoboard::games::{Game, MoveList, Notation};
    use evoboard::learn::td::{TdSettings, value_after};
    let network = random_straight3(8);
    let trajectory = |learn_exploring: bool, exploration: f64, game: u64| {
        let settings = TdSettings {
            learning_rate: 0.0,
            exploration,
            learn_exploring,
            batch: 16,
            symmetries: false,
            play_depth: 1,
            ranking: 0.0,
            lambda: 0.0,
        };
        self_play_updates(&network, settings, 9, game)
    };
    let mut added = 0;
    for game in 0..5 {
        // Without exploring moves the switch changes nothing.
        assert_eq!(trajectory(true, 0.0, game), trajectory(false, 0.0, game));
        // With them, the same game is played: the greedy moves teach what they taught, in
        // order, and each position before a random move learns the value one of its moves
        // reaches.
        let greedy_only = trajectory(false, 0.3, game);
        let every_move = trajectory(true, 0.3, game);
        let mut greedy = greedy_only.iter().peekable();
        for (position, target) in &every_move {
            if greedy.peek() == Some(&&(*position, *target)) {
                greedy.next();
                continue;
            }
            added += 1;
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            assert!(moves.iter().any(|&mv| {
                let child = position.play(mv).unwrap();
                value_after(&network, &child, position.to_move()) == *target
            }));
        }
        assert!(
            greedy.next().is_none(),
            "a greedy move's update went missing"
        );
    }
    assert!(added > 20, "{added} positions before random moves");
}

#[test]
fn td_lambda_returns_blend_the_targets_down_the_game() {
    use evoboard::games::{Game, MoveList, Notation};
    use evoboard::learn::td::TdSettings;
    let network = random_straight3(6);
    let trajectory = |lambda: f32, exploration: f64, game: u64| {
        let settings = TdSettings {
            learning_rate: 0.0,
            exploration,
            learn_exploring: false,
            batch: 16,
            symmetries: false,
            play_depth: 1,
            ranking: 0.0,
            lambda,
        };
        self_play_updates(&network, settings, 7, game)
    };
    let sign = |a: &Othello, b: &Othello| {
        if a.to_move() == b.to_move() {
            1.0
        } else {
            -1.0
        }
    };
    for game in 0..5 {
        // Greedy self-play learns from every move: with λ = 1 every target is the result
        // for the side to move.
        let greedy = trajectory(1.0, 0.0, game);
        let (last, last_target) = greedy.last().unwrap();
        for (position, target) in &greedy {
            assert_eq!(*target, sign(position, last) * last_target);
        }
        assert!([-1.0, 0.0, 1.0].contains(last_target));
        // With exploring moves: λ = 0.5 blends each one-move target with the next learned
        // position's return when that position came straight after it, else keeps it.
        let one_move = trajectory(0.0, 0.3, game);
        let blended = trajectory(0.5, 0.3, game);
        assert_eq!(one_move.len(), blended.len());
        let (mut blends, mut cuts) = (0, 0);
        for k in 0..one_move.len() {
            let (position, target) = &one_move[k];
            assert_eq!(position, &blended[k].0);
            let next = blended.get(k + 1).filter(|(next, _)| {
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                moves
                    .iter()
                    .any(|&mv| position.play(mv).ok().as_ref() == Some(next))
            });
            let expected = match next {
                Some((next, next_return)) => {
                    blends += 1;
                    0.5 * target + 0.5 * sign(position, next) * next_return
                }
                None => {
                    cuts += 1;
                    *target
                }
            };
            assert!((blended[k].1 - expected).abs() < 1e-6, "position {k}");
        }
        assert!(blends > 0 && cuts > 1, "{blends} blends, {cuts} cuts");
    }
    let bad = EvolveConfig {
        td_lambda: 1.5,
        ..EvolveConfig::new(Preset::Td)
    };
    assert!(bad.validate().is_err());
}

#[test]
fn a_learner_with_a_teacher_takes_on_the_teachers_values() {
    use evoboard::eval::neural::NeuralInput;
    use evoboard::learn::td::{GameSetup, Opponent, TdSettings, train};
    let start = Othello::start();
    let architecture = evoboard::nn::Architecture::NTuple(start.tuple_set("straight2").unwrap());
    let mut rng = rng_for(4, &[]);
    let teacher_genes: Vec<f32> = (0..architecture.genes())
        .map(|_| rand::RngExt::random_range(&mut rng, -0.03..0.03f32))
        .collect();
    let teacher = start.network(&architecture, teacher_genes);
    // Held-out positions: random openings of 10 to 30 plies from their own seed.
    let positions: Vec<Othello> = (0..200)
        .filter_map(|i| {
            let plies = 10 + (i % 21) as u32;
            evoboard::arena::random_opening(&start, plies, &mut rng_for(99, &[i]))
        })
        .collect();
    let error = |student: &evoboard::nn::Network| {
        positions
            .iter()
            .map(|p| (p.value_for_mover(student) - p.value_for_mover(&teacher)).powi(2))
            .sum::<f32>()
            / positions.len() as f32
    };
    let mut student = start.network(&architecture, vec![0.0; architecture.genes()]);
    let before = error(&student);
    let setup = |k: usize| GameSetup {
        start,
        opponent: Opponent::SelfPlay,
        rng: rng_for(5, &[k as u64]),
    };
    // 256 placements read a straight2 position, so one step moves its score by 256·α·error:
    // α must stay well below 2/256.
    let settings = TdSettings {
        learning_rate: 0.002,
        exploration: 0.3,
        learn_exploring: false,
        batch: 16,
        symmetries: false,
        play_depth: 1,
        ranking: 0.0,
        lambda: 0.0,
    };
    let teaching = evoboard::learn::teacher::NetworkTeacher::new(teacher.clone(), 0, 0);
    train(&mut student, 2000, &setup, settings, Some(&teaching)).expect("no partner to forfeit");
    let after = error(&student);
    assert!(after < before / 10.0, "error {before} → {after}");
    // A teacher needs learning games to teach in.
    let no_games = EvolveConfig {
        teacher: Some("teacher.evo".to_string()),
        ..EvolveConfig::new(Preset::Modern)
    };
    assert!(no_games.validate().is_err());
}

/// Every position of `games` random Kalah games from `start`, from seeds of `stream`.
fn random_kalah_positions(
    start: &evoboard::games::mancala::Mancala<Kalah>,
    games: u64,
    stream: u64,
) -> Vec<evoboard::games::mancala::Mancala<Kalah>> {
    use evoboard::Game;
    let mut positions = Vec::new();
    for seed in 0..games {
        let mut rng = rng_for(stream, &[seed]);
        let mut game = start.clone();
        let mut moves = evoboard::MoveList::new();
        while game.outcome().is_none() {
            positions.push(game.clone());
            game.legal_moves(&mut moves);
            game.play_unchecked(moves[rand::RngExt::random_range(&mut rng, 0..moves.len())]);
        }
    }
    positions
}

/// A `triples+stores` network for Kalah(4,3) learnt from zero weights in `games` self-play
/// games from the start (game k drawn from `(seed, k)`; α = 0.002, ε = `exploration`),
/// taught by `teacher` if any.
fn kalah_learner(
    games: usize,
    seed: u64,
    exploration: f64,
    teacher: Option<
        &dyn evoboard::learn::teacher::Teacher<evoboard::games::mancala::Mancala<Kalah>>,
    >,
) -> evoboard::nn::Network {
    use evoboard::eval::neural::NeuralInput;
    use evoboard::learn::td::{GameSetup, Opponent, TdSettings, train};
    let start = Kalah::game(4, 3, false);
    let architecture =
        evoboard::nn::Architecture::NTuple(start.tuple_set("triples+stores").unwrap());
    let mut network = start.network(&architecture, vec![0.0; architecture.genes()]);
    let setup = |k: usize| GameSetup {
        start: start.clone(),
        opponent: Opponent::SelfPlay,
        rng: rng_for(seed, &[k as u64]),
    };
    let settings = TdSettings {
        learning_rate: 0.002,
        exploration,
        learn_exploring: false,
        batch: 16,
        symmetries: false,
        play_depth: 1,
        ranking: 0.0,
        lambda: 0.0,
    };
    train(&mut network, games, &setup, settings, teacher).expect("no partner to forfeit");
    network
}

#[test]
fn a_learner_taught_exact_late_values_learns_the_results_of_perfect_play() {
    use evoboard::eval::neural::NeuralInput;
    use evoboard::learn::teacher::ExactLateTeacher;
    let start = Kalah::game(4, 3, false);
    let teacher = ExactLateTeacher::for_game(&start, 10).unwrap();
    let architecture =
        evoboard::nn::Architecture::NTuple(start.tuple_set("triples+stores").unwrap());
    // The exact teacher does not look at the learner.
    let unused = start.network(&architecture, vec![0.0; architecture.genes()]);
    // Held-out late positions, from random games of their own seeds, with their results.
    let late: Vec<_> = random_kalah_positions(&start, 300, 77)
        .into_iter()
        .filter_map(|p| {
            teacher
                .value_for_mover(&p, &unused)
                .map(|result| (p, result))
        })
        .collect();
    assert!(late.len() > 500, "{} late positions", late.len());
    let error = |student: &evoboard::nn::Network| {
        late.iter()
            .map(|(p, result)| (p.value_for_mover(student) - result).powi(2))
            .sum::<f32>()
            / late.len() as f32
    };
    let learnt = |teacher: Option<&dyn evoboard::learn::teacher::Teacher<_>>| {
        error(&kalah_learner(3000, 5, 0.3, teacher))
    };
    let untaught = learnt(None);
    let taught = learnt(Some(teacher.as_ref()));
    let untrained = error(&unused);
    assert!(
        taught < untrained * 0.7 && taught < untaught * 0.8,
        "error untrained {untrained}, self-taught {untaught}, taught {taught}"
    );
}

#[test]
fn a_one_ply_search_teaches_what_td_learns_alone_and_a_deeper_one_teaches_more() {
    use evoboard::learn::teacher::SearchTeacher;
    let learnt = |teacher: Option<&dyn evoboard::learn::teacher::Teacher<_>>| {
        kalah_learner(500, 6, 0.2, teacher).genes().to_vec()
    };
    let alone = learnt(None);
    // TD(0)'s target is the value of the best move: a one-ply search's value.
    let one_ply = learnt(Some(&SearchTeacher { depth: 1 }));
    let largest_gap = alone
        .iter()
        .zip(&one_ply)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(largest_gap < 1e-4, "weights differ by {largest_gap}");
    assert!(alone.iter().any(|&w| w != 0.0));
    // Three plies see further: other targets, other weights.
    let three_ply = learnt(Some(&SearchTeacher { depth: 3 }));
    let moved = alone
        .iter()
        .zip(&three_ply)
        .filter(|(a, b)| (*a - *b).abs() > 1e-3)
        .count();
    assert!(moved > 10, "{moved} weights moved");
}

#[test]
fn a_teacher_network_searching_one_ply_teaches_the_value_of_the_best_move() {
    use evoboard::eval::neural::NeuralInput;
    use evoboard::games::{Game, MoveList, Notation};
    use evoboard::learn::teacher::{NetworkTeacher, Teacher};
    let network = random_straight3(21);
    let learner = random_straight3(22);
    let static_teacher = NetworkTeacher::new(network.clone(), 0, 0);
    let searching = NetworkTeacher::new(network.clone(), 0, 1);
    let start = Othello::start();
    let mut checked = 0;
    for i in 0..60u64 {
        let plies = 5 + (i % 45) as u32;
        let Some(position) = evoboard::arena::random_opening(&start, plies, &mut rng_for(31, &[i]))
        else {
            continue;
        };
        let static_value = static_teacher.value_for_mover(&position, &learner).unwrap();
        assert_eq!(static_value, position.value_for_mover(&network));
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let children: Vec<Othello> = moves.iter().map(|&mv| position.play(mv).unwrap()).collect();
        // Only where every move hands the turn over and leaves the game running, so that
        // each child's value for its mover is the negated value for ours.
        let plain = children
            .iter()
            .all(|child| child.outcome().is_none() && child.to_move() != position.to_move());
        if !plain {
            continue;
        }
        let best = children
            .iter()
            .map(|child| -child.value_for_mover(&network))
            .fold(f32::MIN, f32::max);
        let taught = searching.value_for_mover(&position, &learner).unwrap();
        assert!(
            (taught - best).abs() < 1e-5,
            "taught {taught}, best move {best}"
        );
        checked += 1;
    }
    assert!(checked > 40, "{checked} positions checked");
}

#[test]
fn a_teacher_depth_needs_a_teacher_file_and_a_depth_in_range() {
    let refusal = |teacher: Option<&str>, depth: u32| {
        EvolveConfig {
            teacher: teacher.map(str::to_string),
            teacher_depth: depth,
            td_games: 10,
            ..EvolveConfig::new(Preset::Td)
        }
        .validate()
        .err()
        .map(|error| error.to_string())
    };
    assert_eq!(refusal(Some("teacher.evo"), 0), None);
    assert_eq!(refusal(Some("teacher.evo"), 8), None);
    assert!(
        refusal(Some("teacher.evo"), 9)
            .unwrap()
            .contains("--teacher-depth 9 must lie in 0..=8")
    );
    for teacher in [None, Some("search:2")] {
        let error = refusal(teacher, 2).unwrap();
        assert!(
            error.contains("--teacher-depth needs a --teacher champion file"),
            "{error}"
        );
    }
}

#[test]
fn a_teacher_ranking_needs_a_teacher_file_and_a_temperature_in_range() {
    let refusal = |teacher: Option<&str>, temperature: f32| {
        EvolveConfig {
            teacher: teacher.map(str::to_string),
            teacher_ranking: temperature,
            td_games: 10,
            ..EvolveConfig::new(Preset::Td)
        }
        .validate()
        .err()
        .map(|error| error.to_string())
    };
    assert_eq!(refusal(Some("teacher.evo"), 0.1), None);
    assert_eq!(refusal(Some("teacher.evo"), 1.0), None);
    for temperature in [-0.1, 1.5, f32::NAN] {
        let error = refusal(Some("teacher.evo"), temperature).unwrap();
        assert!(error.contains("must lie in (0, 1]"), "{error}");
    }
    for teacher in [None, Some("search:2"), Some("exact:10")] {
        let error = refusal(teacher, 0.1).unwrap();
        assert!(
            error.contains("--teacher-ranking needs a --teacher champion file"),
            "{error}"
        );
    }
}

#[test]
fn exact_teachers_are_named_right_and_offered_where_a_database_exists() {
    let message = |teacher: &str, othello: bool| {
        let config = EvolveConfig {
            teacher: Some(teacher.to_string()),
            generations: 1,
            td_games: 10,
            ..EvolveConfig::new(Preset::Td)
        };
        let dir = temp_dir("exact-teacher");
        let error = if othello {
            Evolution::create(Othello::start(), config, &dir).err()
        } else {
            Evolution::create(Kalah::game(4, 3, false), config, &dir).err()
        };
        let _ = std::fs::remove_dir_all(&dir);
        error.expect("the teacher was refused").to_string()
    };
    assert!(message("exact:12", true).contains("only Kalah"));
    for seeds in ["many", "40", "1", ""] {
        let error = message(&format!("exact:{seeds}"), false);
        assert!(
            error.contains("exact:SEEDS takes a whole number from 2 to 22"),
            "{error}"
        );
        assert!(error.contains(&format!("'{seeds}'")), "{error}");
    }
    for depth in ["deep", "0", "9"] {
        let error = message(&format!("search:{depth}"), true);
        assert!(
            error.contains("search:DEPTH takes a whole number from 1 to 8"),
            "{error}"
        );
        assert!(error.contains(&format!("'{depth}'")), "{error}");
    }
}

#[test]
fn a_run_directory_is_written_by_one_process_at_a_time() {
    let dir = temp_dir("lock");
    let config = small(Preset::Modern);
    let running = Evolution::create(Othello::start(), config.clone(), &dir).unwrap();
    // A second writer, fresh or resuming, is refused while the first holds the run.
    let message = |result: Result<Evolution<Othello>, evoboard::evolve::EvolveError>| match result {
        Err(error) => error.to_string(),
        Ok(_) => panic!("a second writer got the run"),
    };
    let pid = std::process::id().to_string();
    let resumed = message(Evolution::resume(Othello::start(), &dir, None));
    assert!(
        resumed.contains("in use by another evoboard process") && resumed.contains(&pid),
        "{resumed}"
    );
    let fresh = message(Evolution::create(
        Othello::start(),
        EvolveConfig { seed: 99, ..config },
        &dir,
    ));
    assert!(fresh.contains("in use"), "{fresh}");
    // Once the holder is gone (here dropped; a killed process releases it the same way),
    // the run resumes.
    drop(running);
    let mut resumed = Evolution::resume(Othello::start(), &dir, None).unwrap();
    resumed.run(&Quiet).unwrap();
    assert_eq!(resumed.state().generation, 4);
    drop(resumed);
    std::fs::remove_dir_all(dir).unwrap();
}

/// `start_from`: every learner's generation 0 is the champion's network (each founder, or
/// CMA-ES's first mean), and the run learns on from it; a champion of another network or
/// game is refused by name before the run directory is touched.
#[test]
fn a_run_can_start_from_a_champion_of_its_own_network() {
    use evoboard::champion::Champion;
    let source = temp_dir("start-source");
    let paper = EvolveConfig {
        generations: 1,
        ..small(Preset::Paper)
    };
    run(&paper, &source, 2);
    let path = source.join("champion.evo");
    let champion = Champion::load_for(&path, &Othello::start()).unwrap();
    let from = |preset: Preset| EvolveConfig {
        start_from: Some(path.display().to_string()),
        td_games: if preset == Preset::Td { 20 } else { 0 },
        population: if preset == Preset::Td { 1 } else { 6 },
        ..small(preset)
    };
    for preset in [Preset::Paper, Preset::Modern, Preset::Td, Preset::Cmaes] {
        let dir = temp_dir(&format!("start-{preset}"));
        let evolution = Evolution::create(Othello::start(), from(preset), &dir).unwrap();
        let state = evolution.state();
        match &state.cma {
            Some(cma) => {
                assert_eq!(cma.mean_genes(), champion.genes);
                assert!(state.population.iter().all(|i| i.genes != champion.genes));
            }
            None => assert!(
                state.population.iter().all(|i| i.genes == champion.genes),
                "{preset}"
            ),
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
    // The run goes on from there, and the same settings make the same run.
    let config = from(Preset::Modern);
    let (one, two) = (temp_dir("start-run1"), temp_dir("start-run2"));
    assert_eq!(run(&config, &one, 1), run(&config, &two, 2));
    let random_start = run(&small(Preset::Modern), &two.with_extension("random"), 2);
    assert_ne!(
        run(&config, &two.with_extension("again"), 2).0,
        random_start.0
    );
    // Another network (8 hidden units, not 9) or another game's champion is refused.
    let other = temp_dir("start-other");
    let wider = EvolveConfig {
        hidden: vec![9],
        ..from(Preset::Modern)
    };
    let error = Evolution::create(Othello::start(), wider, &other)
        .err()
        .unwrap()
        .to_string();
    assert!(
        error.contains("--start-from") && error.contains("its network is mlp 64-8-1"),
        "{error}"
    );
    let kalah = Evolution::create(Kalah::game(6, 4, false), from(Preset::Modern), &other)
        .err()
        .unwrap()
        .to_string();
    assert!(kalah.contains("champion.evo"), "{kalah}");
    assert!(!other.exists());
    for dir in [
        source,
        one,
        two.clone(),
        two.with_extension("random"),
        two.with_extension("again"),
    ] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// A greedy one-ply partner, deterministic, for the tests of fitness games' random moves.
fn greedy_partner(start: &Othello) -> Vec<Box<dyn evoboard::arena::Agent<Othello>>> {
    vec![
        "minimax:1:greedy"
            .parse::<evoboard::arena::AgentSpec>()
            .unwrap()
            .build(start)
            .unwrap(),
    ]
}

/// Fitness from 20 games from the start position against [`greedy_partner`] alone.
fn against_greedy(population: usize) -> EvolveConfig {
    EvolveConfig {
        population,
        league: false,
        sparring: vec!["minimax:1:greedy".to_string()],
        sparring_games: 20,
        league_opening_plies: 0,
        depth: 1,
        ..EvolveConfig::new(Preset::Cmaes)
    }
}

/// A small Nguyen-Widrow MLP drawn from `seed`.
fn small_mlp(seed: u64) -> Arc<NeuralEvaluator> {
    let topology = Topology::new(&[64, 4, 1]).unwrap();
    let genes = nguyen_widrow(&topology, &mut rng_for(seed, &[]));
    Arc::new(NeuralEvaluator::new(Mlp::new(topology, genes)))
}

/// `common_random_moves`: every individual's sparring game k draws its random moves from
/// one stream, so copies of one network score alike where, without it, their luck parts
/// them; a network that moves otherwise still scores otherwise.
#[test]
fn common_random_moves_give_copies_of_one_network_the_same_fitness() {
    let start = Othello::start();
    let greedy = greedy_partner(&start);
    let exploring = EvolveConfig {
        play_epsilon: 0.3,
        ..against_greedy(4)
    };
    let common = EvolveConfig {
        common_random_moves: true,
        ..exploring.clone()
    };
    let copies = vec![small_mlp(2); 4];
    let own_luck = play_league(&start, &exploring, 1, &copies, &[], &greedy, &|| {}).unwrap();
    assert!(own_luck.iter().any(|&f| f != own_luck[0]), "{own_luck:?}");
    let shared_luck = play_league(&start, &common, 1, &copies, &[], &greedy, &|| {}).unwrap();
    assert!(
        shared_luck.iter().all(|&f| f == shared_luck[0]),
        "{shared_luck:?}"
    );
    let others: Vec<_> = (2..6).map(small_mlp).collect();
    let mixed = play_league(&start, &common, 1, &others, &[], &greedy, &|| {}).unwrap();
    assert!(mixed.iter().any(|&f| f != mixed[0]), "{mixed:?}");
    let no_partners = EvolveConfig {
        common_random_moves: true,
        ..small(Preset::Modern)
    };
    assert!(
        no_partners
            .validate()
            .unwrap_err()
            .to_string()
            .contains("--common-random-moves")
    );
}

/// `play_epsilon`: the networks play random moves in the games that score them, from each
/// game's own stream. From the start position against a deterministic partner, copies of
/// one network replay the same game for each colour without it, and part ways with it;
/// the run's benchmark changes too, and still not with the threads.
#[test]
fn networks_play_random_moves_in_the_games_that_score_them_when_asked() {
    let start = Othello::start();
    let greedy = greedy_partner(&start);
    let config = against_greedy(3);
    let population = vec![small_mlp(2); 3];
    let plain = play_league(&start, &config, 1, &population, &[], &greedy, &|| {}).unwrap();
    // Ten replays of one game per colour: each colour's 3, 1 or 0 points ten times.
    assert!(plain.iter().all(|&f| f == plain[0]), "{plain:?}");
    assert!(
        [0.0, 10.0, 20.0, 30.0, 40.0, 60.0].contains(&plain[0]),
        "{plain:?}"
    );
    let exploring = EvolveConfig {
        play_epsilon: 0.3,
        ..config.clone()
    };
    let varied = play_league(&start, &exploring, 1, &population, &[], &greedy, &|| {}).unwrap();
    assert!(varied.iter().any(|&f| f != varied[0]), "{varied:?}");
    assert_eq!(
        varied,
        play_league(&start, &exploring, 1, &population, &[], &greedy, &|| {}).unwrap()
    );
    // The benchmark plays so too.
    let run_config = EvolveConfig {
        play_epsilon: 0.3,
        ..small(Preset::Modern)
    };
    let (one, two, plain_dir) = (
        temp_dir("epsilon-t1"),
        temp_dir("epsilon-t2"),
        temp_dir("epsilon-plain"),
    );
    let a = run(&run_config, &one, 1);
    assert_eq!(a, run(&run_config, &two, 2));
    assert_ne!(a.0, run(&small(Preset::Modern), &plain_dir, 2).0);
    let out_of_range = EvolveConfig {
        play_epsilon: 1.5,
        ..small(Preset::Modern)
    };
    assert!(
        out_of_range
            .validate()
            .unwrap_err()
            .to_string()
            .contains("--play-epsilon")
    );
    for dir in [one, two, plain_dir] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// `play_depth`: the learner chooses each move by its own search of that depth, so a
/// greedy learning game follows the 2-ply search's choices move by move, where one-ply
/// play goes another way; each position learns its value after the move chosen.
#[test]
fn a_learner_that_searches_deeper_plays_its_searchs_moves() {
    use evoboard::Game;
    use evoboard::eval::neural::NetworkView;
    use evoboard::learn::td::{TdSettings, value_after};
    let network = random_straight3(8);
    let settings = |play_depth| TdSettings {
        learning_rate: 0.0,
        exploration: 0.0,
        learn_exploring: false,
        lambda: 0.0,
        batch: 1,
        symmetries: false,
        play_depth,
        ranking: 0.0,
    };
    let deep = self_play_updates(&network, settings(2), 3, 0);
    assert_ne!(deep, self_play_updates(&network, settings(1), 3, 0));
    for pair in deep.windows(2) {
        let (before, target) = &pair[0];
        let best = evoboard::search::search(before, 2, &NetworkView(&network))
            .best
            .unwrap();
        let mut after = *before;
        after.play_unchecked(best);
        assert_eq!(after, pair[1].0);
        assert_eq!(*target, value_after(&network, &after, before.to_move()));
    }
    assert!(deep.len() > 50, "{}", deep.len());
    let too_deep = EvolveConfig {
        td_play_depth: 5,
        ..small_td()
    };
    assert!(
        too_deep
            .validate()
            .unwrap_err()
            .to_string()
            .contains("--td-depth 5")
    );
}

/// Checkpoints keep a run's settings as JSON text, as `run.json` does: a run written
/// before a setting existed (here `td_play_depth`, missing from both files) reads it as its
/// default, and resumes to exactly the files of an uninterrupted run.
#[test]
fn a_setting_added_later_reads_as_its_default_from_older_files() {
    use evoboard::champion::Champion;
    use evoboard::evolve::checkpoint::load_checkpoint;
    use evoboard::evolve::stats::GenerationStats;
    use evoboard::persist::{FileKind, save};
    /// An `EvolutionState` as a build before the setting wrote it.
    #[derive(serde::Serialize)]
    struct Older<'a> {
        config: String,
        architecture: &'a evoboard::nn::Architecture,
        generation: u32,
        population: &'a [Individual],
        rng: &'a evoboard::rng::GameRng,
        hall_of_fame: &'a [Vec<f32>],
        history: &'a [GenerationStats],
        champion: &'a Option<Champion>,
        candidates: &'a [Champion],
        selected: &'a Option<Champion>,
        gate_reached: bool,
        cma: &'a Option<SepCma>,
    }
    let without_setting = |value: serde_json::Value| {
        let mut value = value;
        let removed = value.as_object_mut().unwrap().remove("td_play_depth");
        assert_eq!(removed, Some(serde_json::json!(1)));
        value
    };
    let config = small(Preset::Modern);
    let (whole, parts) = (temp_dir("older-whole"), temp_dir("older-parts"));
    let expected = run(&config, &whole, 2);
    run(
        &EvolveConfig {
            generations: 2,
            ..config.clone()
        },
        &parts,
        2,
    );
    let path = parts.join("gen-00002.evo");
    let state = load_checkpoint(&path, "othello").unwrap();
    let older = Older {
        config: without_setting(serde_json::to_value(&state.config).unwrap()).to_string(),
        architecture: &state.architecture,
        generation: state.generation,
        population: &state.population,
        rng: &state.rng,
        hall_of_fame: &state.hall_of_fame,
        history: &state.history,
        champion: &state.champion,
        candidates: &state.candidates,
        selected: &state.selected,
        gate_reached: state.gate_reached,
        cma: &state.cma,
    };
    save(&path, FileKind::Checkpoint, "othello", &older).unwrap();
    let run_json = parts.join("run.json");
    let mut info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run_json).unwrap()).unwrap();
    info["config"] = without_setting(info["config"].take());
    std::fs::write(&run_json, info.to_string()).unwrap();
    assert_eq!(load_checkpoint(&path, "othello").unwrap(), state);
    let mut resumed = Evolution::resume(Othello::start(), &parts, Some(4)).unwrap();
    resumed.run(&Quiet).unwrap();
    assert_eq!(outputs(&parts, 4), expected);
    for dir in [whole, parts] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}
