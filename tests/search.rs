//! Alpha-beta must return exactly the plain negamax value, with passes (Othello) and with
//! extra turns (a toy game below, checked against a solver that never negates).

use evoboard::eval::{Evaluator, NamedEvaluators};
use evoboard::rng::rng_for;
use evoboard::search::{Limits, WIN_VALUE, plain_negamax, search, search_within};
use evoboard::{Game, MoveList, Notation, Othello, Outcome, Player};
use rand::RngExt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn random_positions(count: usize, seed: u64) -> Vec<Othello> {
    let mut rng = rng_for(seed, &[]);
    let mut moves = MoveList::new();
    (0..count)
        .map(|_| {
            let mut game = Othello::start();
            for _ in 0..rng.random_range(0..64) {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            game
        })
        .collect()
}

#[test]
fn alpha_beta_equals_plain_negamax_on_othello() {
    let positions = random_positions(200, 7);
    for name in ["heuristic", "wpc"] {
        let evaluator = Othello::evaluator(name).unwrap();
        for game in &positions {
            for depth in 1..=4 {
                let result = search(game, depth, evaluator.as_ref());
                let reference = plain_negamax(game, depth, evaluator.as_ref());
                assert_eq!(
                    result.value,
                    reference,
                    "{name} depth {depth} at {}",
                    game.to_position_string()
                );
                // The move returned really achieves the value.
                if let Some(best) = result.best {
                    let child = game.play(best).unwrap();
                    let child_value = plain_negamax(&child, depth - 1, evaluator.as_ref());
                    assert_eq!(child_value, -reference, "best move value at depth {depth}");
                }
            }
        }
    }
}

/// Iterative deepening with time to spare: the value of the fixed-depth search at every
/// depth, with a move that achieves it; with no time at all, depth 1 still answers.
fn deepening_agrees<G: Game + NamedEvaluators>(positions: &[G], name: &str) {
    let evaluator = G::evaluator(name).unwrap();
    let stop = AtomicBool::new(false);
    let ample = Limits {
        deadline: Instant::now() + Duration::from_secs(3600),
        stop: &stop,
    };
    for game in positions.iter().filter(|g| g.count_moves() > 0) {
        for depth in 1..=5 {
            let (result, reached) =
                search_within(game, depth, evaluator.as_ref(), None, None, ample);
            assert_eq!(reached, depth);
            let reference = plain_negamax(game, depth, evaluator.as_ref());
            assert_eq!(
                result.value,
                reference,
                "depth {depth} at {}",
                game.to_position_string()
            );
            let mut child = game.clone();
            child.play_unchecked(result.best.unwrap());
            let child_value = plain_negamax(&child, depth - 1, evaluator.as_ref());
            let seen = if child.to_move() == game.to_move() {
                child_value
            } else {
                -child_value
            };
            assert_eq!(seen, reference, "best move value at depth {depth}");
        }
        let no_time = Limits {
            deadline: Instant::now(),
            stop: &stop,
        };
        // Near the end a whole game tree may fit between two looks at the clock.
        let (quick, _) = search_within(game, 30, evaluator.as_ref(), None, None, no_time);
        assert!(quick.best.is_some());
    }
}

#[test]
fn iterative_deepening_within_a_time_limit_keeps_fixed_depth_values() {
    deepening_agrees(&random_positions(40, 11), "heuristic");
    // From the start, 30 plies cannot be searched in a moment: the search stops early.
    let stop = AtomicBool::new(false);
    let moment = Limits {
        deadline: Instant::now() + Duration::from_millis(50),
        stop: &stop,
    };
    let evaluator = Othello::evaluator("heuristic").unwrap();
    let (result, reached) = search_within(
        &Othello::start(),
        30,
        evaluator.as_ref(),
        None,
        None,
        moment,
    );
    assert!(
        result.best.is_some() && (2..30).contains(&reached),
        "{reached}"
    );
    let mut rng = rng_for(12, &[]);
    let kalah: Vec<_> = (0..40)
        .filter_map(|k| {
            evoboard::arena::random_opening(
                &evoboard::games::mancala::Kalah::game(6, 4, false),
                2 + k % 20,
                &mut rng,
            )
        })
        .collect();
    deepening_agrees(&kalah, "heuristic");
}

#[test]
fn pruning_visits_fewer_nodes_than_the_full_tree() {
    let evaluator = Othello::evaluator("heuristic").unwrap();
    let mut pruned = 0;
    let mut full = 0;
    for game in random_positions(20, 3) {
        pruned += search(&game, 5, evaluator.as_ref()).nodes;
        full += (0..=5)
            .map(|d| evoboard::games::perft(&game, d))
            .sum::<u64>();
    }
    assert!(
        pruned * 3 < full,
        "alpha-beta {pruned} nodes vs full tree {full}"
    );
}

/// A toy game with extra turns: a pile of stones, take 1, 2 or 3; taking exactly 2 (and not
/// the last stone) grants another turn; whoever takes the last stone wins.
#[derive(Clone, Debug, PartialEq)]
struct BonusNim {
    pile: u8,
    to_move: Player,
}

/// Only the core rules: the search needs nothing else.
impl Game for BonusNim {
    type Move = u8;
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn legal_moves(&self, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend((1..=3).filter(|&t| t <= self.pile));
    }
    fn play_unchecked(&mut self, take: u8) {
        self.pile -= take;
        if take != 2 || self.pile == 0 {
            self.to_move = self.to_move.opponent();
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        // The player who took the last stone is the one not to move.
        (self.pile == 0).then_some(Outcome::Win(self.to_move.opponent()))
    }
    fn score(&self) -> [i32; 2] {
        match self.outcome() {
            Some(Outcome::Win(Player::First)) => [1, 0],
            Some(Outcome::Win(Player::Second)) => [0, 1],
            _ => [0, 0],
        }
    }
}

/// Claims every unfinished position is a huge advantage for the first player.
struct FirstPlayerOptimist;

impl Evaluator<BonusNim> for FirstPlayerOptimist {
    fn evaluate(&self, _: &BonusNim, perspective: Player) -> f32 {
        if perspective == Player::First {
            1e9
        } else {
            -1e9
        }
    }
}

/// Claims every unfinished position is a huge advantage for whoever asks.
struct EveryoneOptimist;

impl Evaluator<BonusNim> for EveryoneOptimist {
    fn evaluate(&self, _: &BonusNim, _: Player) -> f32 {
        1e9
    }
}

/// Exact minimax from the first player's point of view: maximise when First moves, minimise
/// otherwise. No negation anywhere, so it is independent of the negamax sign convention.
fn solve_for_first(game: &BonusNim) -> i32 {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        return game.outcome().unwrap().sign_for(Player::First);
    }
    let values = moves.iter().map(|&mv| {
        let mut child = game.clone();
        child.play_unchecked(mv);
        solve_for_first(&child)
    });
    match game.to_move {
        Player::First => values.max().unwrap(),
        Player::Second => values.min().unwrap(),
    }
}

#[test]
fn extra_turns_keep_the_sign_and_match_an_exact_solver() {
    for pile in 1..=14 {
        for to_move in Player::BOTH {
            let game = BonusNim { pile, to_move };
            let exact = solve_for_first(&game) * if to_move == Player::First { 1 } else { -1 };
            let deep = u32::from(pile) + 1;
            let result = search(&game, deep, &FirstPlayerOptimist);
            assert_eq!(
                result.value,
                plain_negamax(&game, deep, &FirstPlayerOptimist)
            );
            // A win is ±(WIN_VALUE + 1); the sign must agree with the solver.
            assert_eq!(
                result.value.signum() as i32,
                exact,
                "pile {pile} {to_move:?}"
            );
            assert!(result.value.abs() > WIN_VALUE);
        }
    }
}

#[test]
fn exact_results_dominate_heuristic_values_however_large() {
    // Taking all three stones wins at once; taking two keeps the turn in a position the
    // evaluator calls worth 1e9 to the mover, which the search clamps below any exact win.
    let game = BonusNim {
        pile: 3,
        to_move: Player::Second,
    };
    let result = search(&game, 1, &EveryoneOptimist);
    assert_eq!(result.best, Some(3), "must take all three stones and win");
    assert_eq!(result.value, WIN_VALUE + 1.0);
}

#[test]
fn node_counts_and_finished_positions() {
    let game = BonusNim {
        pile: 0,
        to_move: Player::First,
    };
    let result = search(&game, 3, &FirstPlayerOptimist);
    assert_eq!(result.best, None);
    assert_eq!(result.nodes, 1);
    assert_eq!(result.value, -(WIN_VALUE + 1.0));
    let start = Othello::start();
    let heuristic = Othello::evaluator("heuristic").unwrap();
    // Depth 1 from the start: the root plus its four children.
    assert_eq!(search(&start, 1, heuristic.as_ref()).nodes, 5);
}
