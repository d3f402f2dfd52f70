use std::path::PathBuf;

use super::*;
use crate::arena::{FirstMoveAgent, RandomAgent};
use crate::games::mancala::{Kalah, Mancala};
use crate::games::othello::Othello;
use crate::search::endgame::solve_endgame;
use crate::search::solve::solve;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evoboard-accuracy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn othello_sampler(positions: usize, seed: u64) -> Sampler {
    Sampler {
        player: "random".into(),
        plies: 48..=56,
        positions,
        seed,
    }
}

fn othello_sample(positions: usize, seed: u64) -> Vec<ValuedPosition<Othello>> {
    let mut oracle = OthelloOracle::new(12).unwrap();
    valued_sample(
        &Othello::start(),
        &othello_sampler(positions, seed),
        &RandomAgent,
        &mut oracle,
        None,
        &mut |_, _| {},
    )
    .unwrap()
    .0
}

#[test]
fn othello_move_values_agree_with_the_endgame_solver() {
    let sample = othello_sample(12, 5);
    assert_eq!(sample.len(), 12);
    for position in &sample {
        assert!(position.game.empties().count_ones() <= 12);
        assert!(position.values.len() >= 2);
        let exact = solve_endgame(&position.game).unwrap();
        assert_eq!(
            position.best(),
            exact.margin,
            "{}",
            position.game.to_position_string()
        );
        // The solver's best move is one of the best.
        assert_eq!(position.loss(exact.best.unwrap()), Some(0));
    }
}

#[test]
fn kalah_move_values_agree_with_the_solver() {
    // Every position of a small board, from its start to the end of random games.
    let start = Kalah::game(4, 3, false);
    let mut oracle = KalahOracle::new(&start, 24, 1 << 24).unwrap();
    let sampler = Sampler {
        player: "random".into(),
        plies: 0..=12,
        positions: 15,
        seed: 3,
    };
    let (sample, _) = valued_sample(
        &start,
        &sampler,
        &RandomAgent,
        &mut oracle,
        None,
        &mut |_, _| {},
    )
    .unwrap();
    for position in &sample {
        let first = solve(&position.game, 1 << 22, 1, |_| {})
            .unwrap()
            .first_player_margin;
        let mover = position.game.to_move();
        let expected = if mover == crate::games::Player::First {
            first
        } else {
            -first
        };
        assert_eq!(position.best(), expected);
    }
}

#[test]
fn the_sampler_is_reproducible_keeps_distinct_positions_and_says_when_it_runs_short() {
    let a = othello_sample(8, 11);
    let b = othello_sample(8, 11);
    assert_eq!(a, b);
    assert_ne!(a, othello_sample(8, 12));
    let texts: std::collections::HashSet<_> =
        a.iter().map(|p| p.game.to_position_string()).collect();
    assert_eq!(texts.len(), a.len());
    // No position after 10 plies has 12 empties or fewer.
    let sampler = Sampler {
        plies: 0..=10,
        ..othello_sampler(3, 1)
    };
    let oracle = OthelloOracle::new(12).unwrap();
    let error = sampler
        .draw(&Othello::start(), &RandomAgent, |g| oracle.admits(g))
        .unwrap_err();
    assert_eq!(
        error,
        SampleError::TooFew {
            found: 0,
            wanted: 3,
            games: 150
        }
    );
}

#[test]
fn measure_counts_optimal_moves_and_losses() {
    let sample = othello_sample(20, 2);
    let result = Accuracy::of("first", &losses(&FirstMoveAgent, &sample, 9));
    let by_hand: Vec<i32> = sample.iter().map(|p| p.best() - p.values[0].1).collect();
    assert_eq!(result.positions, 20);
    assert_eq!(result.optimal, by_hand.iter().filter(|&&l| l == 0).count());
    let mean = by_hand.iter().sum::<i32>() as f64 / 20.0;
    assert!((result.mean_loss - mean).abs() < 1e-12);
    assert!(result.loss_ci_low <= mean && mean <= result.loss_ci_high);
    assert!(result.optimal_ci_low <= result.optimal_share);
    assert!(result.optimal_share <= result.optimal_ci_high);
    // A random agent's choices depend on the seed alone, not on the threads.
    let once = losses(&RandomAgent, &sample, 9);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    assert_eq!(pool.install(|| losses(&RandomAgent, &sample, 9)), once);
    // Against itself, the paired difference is nothing; against `first`, the difference
    // of the two means.
    let random = Accuracy::of("random", &once);
    let same = random
        .clone()
        .versus(&once, "random", &once)
        .versus
        .unwrap();
    assert_eq!(
        (same.mean_difference, same.ci_low, same.ci_high),
        (0.0, 0.0, 0.0)
    );
    let versus = random
        .clone()
        .versus(&once, "first", &by_hand)
        .versus
        .unwrap();
    assert!((versus.mean_difference - (random.mean_loss - result.mean_loss)).abs() < 1e-9);
    assert!(versus.ci_low <= versus.mean_difference && versus.mean_difference <= versus.ci_high);
}

#[test]
fn the_cache_returns_what_was_solved_and_refuses_other_or_broken_files() {
    let dir = scratch("cache");
    let sampler = othello_sampler(6, 4);
    let mut oracle = OthelloOracle::new(12).unwrap();
    let start = Othello::start();
    let mut solve_it = |dir: &std::path::Path| {
        valued_sample(
            &start,
            &sampler,
            &RandomAgent,
            &mut oracle,
            Some(dir),
            &mut |_, _| {},
        )
        .unwrap()
    };
    let (solved, source) = solve_it(&dir);
    assert_eq!(source, Source::Solved { ignored: None });
    let (cached, source) = solve_it(&dir);
    assert_eq!((cached, source), (solved.clone(), Source::Cache));

    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let key = sampler.describe("othello from …", "…");
    assert!(matches!(
        cache::load::<Othello>(&file, &key),
        Err(cache::CacheError::OtherSample { .. })
    ));
    // A crafted file: a move dropped from a position.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["positions"][0]["moves"].as_array_mut().unwrap().pop();
    std::fs::write(&file, json.to_string()).unwrap();
    let (again, source) = solve_it(&dir);
    assert_eq!(again, solved);
    assert!(
        matches!(&source, Source::Solved { ignored: Some(reason) } if reason.contains("moves")),
        "{source:?}"
    );
    // Garbage, then the repaired file is used again.
    std::fs::write(&file, b"\x00garbage").unwrap();
    assert!(matches!(
        solve_it(&dir).1,
        Source::Solved { ignored: Some(_) }
    ));
    assert_eq!(solve_it(&dir).1, Source::Cache);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_oracle_refuses_what_its_solver_cannot_take() {
    assert!(OthelloOracle::new(31).is_err());
    let wide: Mancala<Kalah> = Kalah::game(9, 1, false);
    assert!(KalahOracle::new(&wide, 10, 1 << 20).is_err());
}
