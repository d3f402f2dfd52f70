//! CMA-ES: the separable search distribution, its mean rate, runs with sparring fitness,
//! and Co-CMA-ES.

use evoboard::Othello;
use evoboard::evolve::Evolution;
use evoboard::evolve::cmaes::SepCma;
use evoboard::evolve::config::{EvolveConfig, NetworkChoice, Preset};
use evoboard::evolve::selection::ranking;
use evoboard::games::mancala::Kalah;
use evoboard::rng::rng_for;

use crate::common::{
    Quiet, first_fitness_max, outputs, run, run_in_two_parts, small, small_td, temp_dir,
};

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
        (0.0, small(Preset::CMAES), "above 0 and at most 1"),
        (1.5, small(Preset::CMAES), "above 0 and at most 1"),
        (0.5, small_td(), "of the cmaes and cocmaes presets only"),
    ] {
        let config = EvolveConfig {
            mean_rate: rate,
            ..base
        };
        let error = config.validate().unwrap_err().to_string();
        assert!(
            error.contains("mean_rate") && error.contains(named),
            "{error}"
        );
    }
    let cocmaes = EvolveConfig {
        mean_rate: 0.5,
        ..small(Preset::COCMAES)
    };
    assert!(cocmaes.validate().is_ok());
}

#[test]
fn cma_es_runs_with_sparring_fitness_do_not_depend_on_threads_and_resume_exactly() {
    let config = EvolveConfig {
        network: NetworkChoice::NTuple("straight2".to_string()),
        league: false,
        sparring: vec!["heuristic:1@0.1".to_string()],
        sparring_games: 4,
        ..small(Preset::CMAES)
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

/// Co-CMA-ES on a 2-tuple network, small enough for a test.
fn small_cocmaes(generations: u32, seed: u64) -> EvolveConfig {
    EvolveConfig {
        population: 6,
        generations,
        network: NetworkChoice::NTuple("straight2".to_string()),
        bench_games: 4,
        seed,
        ..EvolveConfig::for_game(Preset::COCMAES, &Othello::start())
    }
}

#[test]
fn co_cma_es_takes_the_papers_settings_and_offers_its_best_sample() {
    let othello = EvolveConfig::for_game(Preset::COCMAES, &Othello::start());
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
        EvolveConfig::for_game(Preset::COCMAES, &kalah).network,
        EvolveConfig::for_game(Preset::TD, &kalah).network
    );

    let dir = temp_dir("cocma-best");
    let mut evolution = Evolution::create(Othello::start(), small_cocmaes(1, 5), &dir).unwrap();
    let state = evolution.state();
    let samples: Vec<Vec<f32>> = state.population.iter().map(|i| i.genes.clone()).collect();
    let first_mean = state.learner_state.read::<SepCma>().unwrap().mean;
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
    let cma: SepCma = state.learner_state.read().unwrap();
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
