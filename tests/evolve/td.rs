//! TD learning: the learning rate's decay, TD and CTDL runs (threads, resume, batch), and
//! the learning games: from a blank network, symmetries, exploring moves, λ, deeper play.

use std::sync::Arc;

use evoboard::Othello;
use evoboard::eval::neural::NeuralEvaluator;
use evoboard::evolve::config::{EvolveConfig, NetworkChoice, Preset};
use evoboard::nn::{Mlp, Topology, nguyen_widrow};
use evoboard::rng::rng_for;

use crate::common::{
    first_fitness_max, outputs, random_straight3, run, run_in_two_parts, small_td, temp_dir,
};

#[test]
fn the_learning_rate_decays_geometrically_over_its_generations_then_stays() {
    let constant = EvolveConfig::new(Preset::TD);
    assert_eq!(constant.learning_rate_at(1), constant.learning_rate_at(40));
    let decaying = EvolveConfig {
        learning_rate: 0.01,
        learning_rate_end: Some(0.001),
        decay_generations: 11,
        ..EvolveConfig::new(Preset::TD)
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
        assert!(
            error.contains("td_batch takes a whole number from 1 to 4096"),
            "{error}"
        );
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
        ..EvolveConfig::for_game(Preset::CTDL, &Othello::start())
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
        ..EvolveConfig::new(Preset::TD)
    };
    assert!(bad.validate().is_err());
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
            .contains("td_play_depth takes a whole number from 1 to 4, not 5")
    );
}
