//! perft counts of Othello from the start position (published sequence; a pass is one ply).

use evoboard::games::perft;
use evoboard::{Game, Notation, Othello};

const PUBLISHED: [u64; 10] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284];

#[test]
fn perft_depths_1_to_9_match_published_counts() {
    let start = Othello::start();
    for depth in 1..=9 {
        assert_eq!(
            perft(&start, depth),
            PUBLISHED[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "release-only: 24.5 M leaves")]
fn perft_depth_10_matches_published_count() {
    assert_eq!(perft(&Othello::start(), 10), PUBLISHED[9]);
}

#[test]
fn perft_depth_zero_is_one_and_finished_games_are_leaves() {
    let start = Othello::start();
    assert_eq!(perft(&start, 0), 1);
    // Black owns every disc: nobody can move, the game is over, so it is one leaf at any depth.
    let over =
        Othello::from_position_string(&format!("{}{} X", "X".repeat(60), "-".repeat(4))).unwrap();
    assert!(over.outcome().is_some());
    for depth in 0..4 {
        assert_eq!(perft(&over, depth), 1);
    }
}

#[test]
fn a_forced_pass_counts_as_one_ply() {
    // Black a1, white b1, white to move: white cannot flank anything, black can (c1),
    // so white's only move is a pass.
    let game = Othello::from_position_string(&format!("XO{} O", "-".repeat(62))).unwrap();
    let mut moves = evoboard::MoveList::new();
    game.legal_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert_eq!(game.format_move(moves[0]), "pass");
    assert_eq!(perft(&game, 1), 1);
    // After the pass black has exactly one placement (c1), which ends the game.
    assert_eq!(perft(&game, 2), 1);
    assert_eq!(perft(&game, 3), 1);
}

#[test]
fn the_fast_perft_counts_exactly_as_the_generic_one() {
    use evoboard::arena::random_opening;
    use evoboard::games::Perft;
    use evoboard::rng::rng_for;
    let start = Othello::start();
    for depth in 0..=9 {
        assert_eq!(
            start.perft_fast(depth),
            perft(&start, depth),
            "depth {depth}"
        );
    }
    // Positions from random play, late ones included (passes, finished games).
    let mut rng = rng_for(5, &[]);
    for plies in (0..64).step_by(3) {
        let Some(game) = random_opening(&start, plies, &mut rng) else {
            continue;
        };
        for depth in 0..=4 {
            assert_eq!(
                game.perft_fast(depth),
                perft(&game, depth),
                "{} depth {depth}",
                game.to_position_string()
            );
        }
    }
    // A forced pass and a finished game.
    let pass = Othello::from_position_string(&format!("XO{} O", "-".repeat(62))).unwrap();
    let over =
        Othello::from_position_string(&format!("{}{} X", "X".repeat(60), "-".repeat(4))).unwrap();
    for depth in 0..4 {
        assert_eq!(pass.perft_fast(depth), perft(&pass, depth));
        assert_eq!(over.perft_fast(depth), 1);
    }
}
