//! The transposition table must not change what a fixed-depth search plays: in every game,
//! at depths 1–5 (the table is in use from depth 3) and, for Kalah, at depth 9 (where the
//! search deepens inside), alpha-beta returns plain negamax's value
//! and the same move a search without a table picks — the first, in root order, of those
//! with the best value. And the position keys it rests on tell positions apart exactly.

use std::collections::{HashMap, HashSet};

use evoboard::arena::random_opening;
use evoboard::eval::{Evaluator, NamedEvaluators};
use evoboard::games::mancala::{Congkak, Congklak, Kalah, Oware};
use evoboard::rng::rng_for;
use evoboard::search::{order_by_static_value, plain_negamax, search};
use evoboard::{Game, MoveList, Notation, Othello};

/// Seeded positions `2..2 + spread` plies into `start`'s game (test positions: no learning
/// uses them).
fn positions<G: Game>(start: &G, count: u32, spread: u32, seed: u64) -> Vec<G> {
    let mut rng = rng_for(seed, &[]);
    (0..count)
        .filter_map(|k| random_opening(start, 2 + k % spread, &mut rng))
        .filter(|game| game.count_moves() > 0)
        .collect()
}

/// The move a fixed-depth search without a table plays: root moves in the search's order
/// (by static value from depth 2 on, generation order at depth 1; a stable sort), the
/// first whose plain negamax value is the best.
fn reference_choice<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    depth: u32,
    evaluator: &E,
) -> (G::Move, f32) {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if depth >= 2 {
        order_by_static_value(game, &mut moves, evaluator);
    }
    let mut best: Option<(G::Move, f32)> = None;
    for &mv in &moves {
        let mut child = game.clone();
        child.play_unchecked(mv);
        let value = plain_negamax(&child, depth - 1, evaluator);
        let value = if child.to_move() == game.to_move() {
            value
        } else {
            -value
        };
        if best.is_none_or(|(_, top)| value > top) {
            best = Some((mv, value));
        }
    }
    best.expect("positions with moves")
}

fn table_keeps_choices<G: NamedEvaluators>(start: &G, evaluators: &[&str], count: u32) {
    keeps_choices_at(start, evaluators, count, 1..=5);
}

fn keeps_choices_at<G: NamedEvaluators>(
    start: &G,
    evaluators: &[&str],
    count: u32,
    depths: std::ops::RangeInclusive<u32>,
) {
    for name in evaluators {
        let evaluator = G::evaluator(name).unwrap();
        for game in positions(start, count, 30, 5) {
            for depth in depths.clone() {
                let result = search(&game, depth, evaluator.as_ref());
                let plain = plain_negamax(&game, depth, evaluator.as_ref());
                let at = || format!("{name} depth {depth} at {}", game.to_position_string());
                assert_eq!(result.value, plain, "value: {}", at());
                if game.joint().is_none() {
                    let (choice, value) = reference_choice(&game, depth, evaluator.as_ref());
                    assert_eq!(value, plain, "{}", at());
                    assert_eq!(result.best, Some(choice), "move: {}", at());
                }
            }
        }
    }
}

#[test]
fn the_table_keeps_othello_choices() {
    table_keeps_choices(&Othello::start(), &["heuristic", "wpc"], 24);
}

#[test]
fn the_table_keeps_kalah_choices() {
    table_keeps_choices(&Kalah::game(6, 4, false), &["heuristic"], 24);
    table_keeps_choices(&Kalah::game(6, 4, true), &["heuristic"], 24);
}

/// From depth 9 a search first deepens from depth 3 inside: the shallower searches fill the
/// table but must not change the choice (Kalah's narrow tree keeps plain negamax cheap).
#[test]
fn deepening_inside_a_deep_search_keeps_kalah_choices() {
    keeps_choices_at(
        &Kalah::game(6, 4, false),
        &["heuristic", "stores"],
        6,
        9..=9,
    );
}

#[test]
fn the_table_keeps_congklak_choices() {
    table_keeps_choices(&Congklak::game(), &["heuristic"], 16);
}

/// Oware (repetition ends a game) and Congkak (a simultaneous opening) have no keys, so
/// they are searched without a table; the search must still agree with negamax.
#[test]
fn games_without_keys_are_searched_as_before() {
    assert_eq!(Oware::game().position_key(), None);
    assert_eq!(Congkak::start().position_key(), None);
    table_keeps_choices(&Oware::game(), &["heuristic"], 16);
    table_keeps_choices(&Congkak::start(), &["heuristic"], 4);
}

/// Every position of the first `depth` plies: distinct positions (by their full text)
/// must have distinct keys, and a position reached by several move orders one key.
/// Returns the positions visited and how many of them were distinct.
fn keys_tell_positions_apart<G: Notation>(start: &G, depth: u32) -> (usize, usize) {
    let mut visited = 0;
    let mut key_of: HashMap<String, u64> = HashMap::new();
    let mut level = vec![start.clone()];
    let mut moves = MoveList::new();
    for _ in 0..depth {
        let mut next = Vec::new();
        visited += level.len();
        for game in &level {
            let key = game.position_key().expect("a keyed game");
            let known = *key_of.entry(game.to_position_string()).or_insert(key);
            assert_eq!(known, key, "one position, two keys");
            game.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = game.clone();
                child.play_unchecked(mv);
                next.push(child);
            }
        }
        level = next;
    }
    let distinct_keys: HashSet<u64> = key_of.values().copied().collect();
    assert_eq!(
        distinct_keys.len(),
        key_of.len(),
        "two positions share a key"
    );
    (visited, key_of.len())
}

#[test]
fn position_keys_tell_positions_apart() {
    // 9,913 positions in Othello's first 6 plies (perft), some reached by several orders.
    let (visited, distinct) = keys_tell_positions_apart(&Othello::start(), 7);
    assert_eq!(visited, 9_913);
    assert!(
        distinct < visited,
        "transpositions: {distinct} of {visited}"
    );
    keys_tell_positions_apart(&Kalah::game(6, 4, false), 5);
    keys_tell_positions_apart(&Congklak::game(), 4);
}
