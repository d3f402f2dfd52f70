use std::path::PathBuf;

use super::*;
use crate::arena::{Agent, FirstMoveAgent, Forfeit, History, RandomAgent};
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

/// The one cache file in `dir`.
fn cache_file(dir: &std::path::Path) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

/// The sample `sampler` draws from Othello's start, valued through the cache in `dir`.
fn cached_sample(
    sampler: &Sampler,
    dir: &std::path::Path,
) -> (Vec<ValuedPosition<Othello>>, Source) {
    let mut oracle = OthelloOracle::new(12).unwrap();
    valued_sample(
        &Othello::start(),
        sampler,
        &RandomAgent,
        &mut oracle,
        Some(dir),
        &mut |_, _| {},
    )
    .unwrap()
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
    let start = Othello::start();
    let result = Accuracy::of("first", &losses(&FirstMoveAgent, &start, &sample, 9));
    let by_hand: Vec<i32> = sample.iter().map(|p| p.best() - p.values[0].1).collect();
    assert_eq!(result.positions, 20);
    assert_eq!(result.optimal, by_hand.iter().filter(|&&l| l == 0).count());
    let mean = by_hand.iter().sum::<i32>() as f64 / 20.0;
    assert!((result.mean_loss - mean).abs() < 1e-12);
    assert!(result.loss_ci_low <= mean && mean <= result.loss_ci_high);
    assert!(result.optimal_ci_low <= result.optimal_share);
    assert!(result.optimal_share <= result.optimal_ci_high);
    // A random agent's choices depend on the seed alone, not on the threads.
    let once = losses(&RandomAgent, &start, &sample, 9);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    assert_eq!(
        pool.install(|| losses(&RandomAgent, &start, &sample, 9)),
        once
    );
    let random = Accuracy::of("random", &once);
    let once = once.per_position;
    // Against itself, the paired difference is nothing; against `first`, the difference
    // of the two means.
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
    let start = Othello::start();
    let solve_it = |dir: &std::path::Path| cached_sample(&sampler, dir);
    let (solved, source) = solve_it(&dir);
    assert_eq!(source, Source::Solved { ignored: None });
    // Each position comes with the moves from the start that reach it.
    for position in &solved {
        let mut game = start;
        for &mv in &position.line {
            game = game.play(mv).unwrap();
        }
        assert_eq!(game, position.game);
    }
    let (cached, source) = solve_it(&dir);
    assert_eq!((cached, source), (solved.clone(), Source::Cache));

    let file = cache_file(&dir);
    let key = sampler.describe("othello from …", "…");
    let drawn = sampler
        .draw(&start, &RandomAgent, |g| {
            OthelloOracle::new(12).unwrap().admits(g)
        })
        .unwrap();
    assert!(matches!(
        cache::load::<Othello>(&file, &key, &start, &drawn),
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

/// A damaged or crafted cache is never trusted: every way it can differ from the sample it
/// claims to be makes it ignored and solved again, with the reason, and no panic.
#[test]
fn a_cache_that_is_not_exactly_its_sample_is_solved_again() {
    let dir = scratch("crafted");
    let sampler = othello_sampler(5, 8);
    let solve_it = |dir: &std::path::Path| cached_sample(&sampler, dir);
    let (solved, _) = solve_it(&dir);
    let file = cache_file(&dir);
    let pristine: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    type Damage = fn(&mut serde_json::Value);
    let damages: [(&str, Damage); 7] = [
        ("listed twice", |json| {
            let moves = json["positions"][0]["moves"].as_array_mut().unwrap();
            let first = moves[0].clone();
            moves[1] = first;
        }),
        ("moves are valued", |json| {
            json["positions"][0]["moves"] = serde_json::json!([]);
        }),
        ("positions where the sample has 5", |json| {
            json["positions"].as_array_mut().unwrap().truncate(0);
        }),
        ("positions where the sample has 5", |json| {
            let positions = json["positions"].as_array_mut().unwrap();
            let copy = positions[0].clone();
            positions.extend(std::iter::repeat_n(copy, 400));
        }),
        ("beyond", |json| {
            json["positions"][0]["moves"][0][1] = serde_json::json!(i32::MIN);
        }),
        ("is not the sample's", |json| {
            json["positions"].as_array_mut().unwrap().swap(0, 1);
        }),
        ("is not the sample's", |json| {
            json["positions"][2]["line"].as_array_mut().unwrap().pop();
        }),
    ];
    for (reason, damage) in damages {
        let mut json = pristine.clone();
        damage(&mut json);
        std::fs::write(&file, json.to_string()).unwrap();
        let (again, source) = solve_it(&dir);
        assert_eq!(again, solved, "{reason}");
        assert!(
            matches!(&source, Source::Solved { ignored: Some(why) } if why.contains(reason)),
            "{reason}: {source:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cache path that is a file, not a directory, is refused before anything is solved.
#[test]
fn a_cache_path_that_is_a_file_is_refused_first() {
    let dir = scratch("file");
    let file = dir.join("not-a-directory");
    std::fs::write(&file, b"x").unwrap();
    let mut oracle = OthelloOracle::new(12).unwrap();
    let error = valued_sample(
        &Othello::start(),
        &othello_sampler(3, 1),
        &RandomAgent,
        &mut oracle,
        Some(&file),
        &mut |_, _| panic!("nothing is solved"),
    )
    .unwrap_err();
    assert!(matches!(error, AccuracyError::CacheDir { .. }), "{error}");
    assert!(error.is_bad_input());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An agent that gives up at some positions: each is counted as its worst move, and the
/// accuracy says how many there were.
#[test]
fn forfeited_positions_count_as_the_worst_move_and_are_reported() {
    struct GivesUpOnOddLines;
    impl Agent<Othello> for GivesUpOnOddLines {
        fn choose(
            &self,
            game: &Othello,
            history: History<'_, Othello>,
            rng: &mut crate::rng::GameRng,
        ) -> Result<crate::games::othello::Move, Forfeit> {
            if history.moves.len() % 2 == 1 {
                return Err(Forfeit {
                    reason: "engine 'x' gave up".to_string(),
                });
            }
            FirstMoveAgent.choose(game, history, rng)
        }
        fn name(&self) -> String {
            "odd".to_string()
        }
    }
    let sample = othello_sample(16, 3);
    let start = Othello::start();
    let measured = losses(&GivesUpOnOddLines, &start, &sample, 1);
    let odd = sample.iter().filter(|p| p.line.len() % 2 == 1).count();
    assert!(odd > 0 && odd < sample.len(), "{odd}");
    assert_eq!(measured.forfeited, odd);
    for (position, &loss) in sample.iter().zip(&measured.per_position) {
        let expected = if position.line.len() % 2 == 1 {
            position.worst_loss()
        } else {
            position.loss(position.values[0].0).unwrap()
        };
        assert_eq!(loss, expected);
    }
    let accuracy = Accuracy::of("odd", &measured);
    assert_eq!(accuracy.forfeited, odd);
    let warning = accuracy.warning().unwrap();
    assert!(
        warning.contains(&format!("forfeited {odd} of 16 positions")),
        "{warning}"
    );
    assert!(warning.contains("engine 'x' gave up"), "{warning}");
    assert_eq!(
        Accuracy::of("first", &losses(&FirstMoveAgent, &start, &sample, 1)).warning(),
        None
    );
}
