//! Fitness games: the league's pairings and points, sparring partners, common random moves
//! and the networks' random moves in the games that score them.

use std::sync::Arc;

use evoboard::Othello;
use evoboard::eval::neural::NeuralEvaluator;
use evoboard::evolve::config::{EvolveConfig, Preset};
use evoboard::evolve::league::{league_games, play_league};
use evoboard::nn::{Mlp, Topology, nguyen_widrow};
use evoboard::rng::rng_for;

use crate::common::{run, small, temp_dir};

#[test]
fn league_plays_every_ordered_pair_and_awards_three_points_per_decided_game() {
    let config = EvolveConfig {
        population: 5,
        ..small(Preset::PAPER)
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

#[test]
fn sparring_partners_add_their_games_to_fitness_on_openings_the_population_shares() {
    let start = Othello::start();
    let config = EvolveConfig {
        population: 3,
        league: false,
        sparring: vec!["random".to_string()],
        sparring_games: 4,
        depth: 1,
        ..EvolveConfig::new(Preset::CMAES)
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
        ..EvolveConfig::new(Preset::CMAES)
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
        ..small(Preset::MODERN)
    };
    assert!(
        no_partners
            .validate()
            .unwrap_err()
            .to_string()
            .contains("common_random_moves")
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
        ..small(Preset::MODERN)
    };
    let (one, two, plain_dir) = (
        temp_dir("epsilon-t1"),
        temp_dir("epsilon-t2"),
        temp_dir("epsilon-plain"),
    );
    let a = run(&run_config, &one, 1);
    assert_eq!(a, run(&run_config, &two, 2));
    assert_ne!(a.0, run(&small(Preset::MODERN), &plain_dir, 2).0);
    let out_of_range = EvolveConfig {
        play_epsilon: 1.5,
        ..small(Preset::MODERN)
    };
    assert!(
        out_of_range
            .validate()
            .unwrap_err()
            .to_string()
            .contains("play_epsilon")
    );
    for dir in [one, two, plain_dir] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// `sparring_play`: each partner's games see the population at the depth and share of
/// random moves given for it. Naming the run's own play changes nothing; random moves
/// against one partner change that partner's games only; the settings must match the
/// partners.
#[test]
fn each_sparring_partner_is_played_as_sparring_play_says() {
    let start = Othello::start();
    let partners: Vec<Box<dyn evoboard::arena::Agent<Othello>>> =
        ["minimax:1:greedy", "heuristic:1"]
            .iter()
            .map(|spec| {
                spec.parse::<evoboard::arena::AgentSpec>()
                    .unwrap()
                    .build(&start)
                    .unwrap()
            })
            .collect();
    let config = EvolveConfig {
        sparring: vec!["minimax:1:greedy".to_string(), "heuristic:1".to_string()],
        ..against_greedy(3)
    };
    let population: Vec<_> = (2..5).map(small_mlp).collect();
    let fitness = |config: &EvolveConfig, partners: &[Box<dyn evoboard::arena::Agent<Othello>>]| {
        config.validate().unwrap();
        play_league(&start, config, 1, &population, &[], partners, &|| {}).unwrap()
    };
    let plain = fitness(&config, &partners);
    let named = EvolveConfig {
        sparring_play: vec!["1".to_string(), "1@0".to_string()],
        ..config.clone()
    };
    assert_eq!(
        fitness(&named, &partners),
        plain,
        "the run's own play, named"
    );
    // Random moves against the second partner alone: the first partner's games stay.
    let second_random = EvolveConfig {
        sparring_play: vec!["1".to_string(), "1@1".to_string()],
        ..config.clone()
    };
    let first_only = EvolveConfig {
        sparring: vec!["minimax:1:greedy".to_string()],
        ..config.clone()
    };
    let against_first = fitness(&first_only, &partners[..1]);
    let mixed = fitness(&second_random, &partners);
    assert_ne!(mixed, plain);
    // Against heuristic:1, a network moving at random takes at most a few points.
    for (total, first) in mixed.iter().zip(&against_first) {
        assert!(total - first <= 0.25 * 60.0, "{mixed:?} {against_first:?}");
    }
    // Two plies against the second partner is another fitness too.
    let deeper = EvolveConfig {
        sparring_play: vec!["1".to_string(), "2".to_string()],
        ..config.clone()
    };
    assert_ne!(fitness(&deeper, &partners), plain);
    for (plays, refusal) in [
        (
            vec!["1"],
            "sparring_play names 1 plays for 2 sparring partners",
        ),
        (vec!["1", "0"], "sparring_play takes up to 64 of DEPTH"),
        (vec!["1", "2@1.5"], "sparring_play takes up to 64 of DEPTH"),
    ] {
        let wrong = EvolveConfig {
            sparring_play: plays.into_iter().map(String::from).collect(),
            ..config.clone()
        };
        let error = wrong.validate().unwrap_err().to_string();
        assert!(error.contains(refusal), "{error}");
    }
    let without_games = EvolveConfig {
        sparring_games: 0,
        league: true,
        sparring_play: vec!["1".to_string(), "2".to_string()],
        ..config
    };
    let error = without_games.validate().unwrap_err().to_string();
    assert!(
        error.contains("sparring_play needs fitness games"),
        "{error}"
    );
}
