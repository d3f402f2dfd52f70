//! Hand-made Othello positions checked against the evaluation features of
//! `evoboard::eval::othello_features`, the WPC of `evoboard::eval::wpc`, and the weighted
//! heuristic / evaluator names of `evoboard::eval::othello_heuristic`.
//!
//! Every expected number below is derived by hand from the rules and the doc comments,
//! with the derivation written next to the position.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use evoboard::eval::othello_features::{self as features, Sides, empty_regions};
use evoboard::eval::wpc::{Wpc, standard_weights};
use evoboard::eval::{Evaluator, EvaluatorError, NamedEvaluators};
use evoboard::games::othello::Move;
use evoboard::games::othello::stability::{full_lines, stable_discs};
use evoboard::rng::rng_for;
use evoboard::{Game, MoveList, Notation, Othello, Player};
use rand::RngExt;

const BLACK: Player = Player::First;
const WHITE: Player = Player::Second;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// A position from a board drawn as eight whitespace-separated rows, row 1 (`a1..h1`) first
/// and row 8 (`a8..h8`) last, each eight squares of `X` (black), `O` (white) or `-`
/// (empty), and the side to move.
fn position(board: &str, to_move: Player) -> Othello {
    let rows: Vec<&str> = board.split_whitespace().collect();
    assert_eq!(rows.len(), 8, "board must have 8 rows: {board:?}");
    for row in &rows {
        assert_eq!(row.len(), 8, "row {row:?} must have 8 squares");
    }
    let side = if to_move == BLACK { "X" } else { "O" };
    let text = format!("{} {side}", rows.concat());
    Othello::from_position_string(&text).expect("hand-made position parses")
}

/// The bit of a square written as `a1`..`h8` (bit index = row * 8 + col).
fn sq(name: &str) -> u64 {
    let &[col @ b'a'..=b'h', row @ b'1'..=b'8'] = name.as_bytes() else {
        panic!("bad square name {name:?}");
    };
    1u64 << ((row - b'1') * 8 + (col - b'a'))
}

/// The bitboard of a list of squares.
fn bits(names: &[&str]) -> u64 {
    names.iter().fold(0, |acc, name| acc | sq(name))
}

/// The stable discs of `player` in `game`.
fn stable_of(game: &Othello, player: Player) -> u64 {
    let occupied = game.discs(player) | game.discs(player.opponent());
    stable_discs(game.discs(player), &full_lines(occupied))
}

/// The stable discs of `discs` on a board holding nothing else.
fn alone_stable(discs: u64) -> u64 {
    stable_discs(discs, &full_lines(discs))
}

/// Plays `square` (must be legal) and returns the new position.
fn play(game: &Othello, square: &str) -> Othello {
    game.play(Move::parse(square).unwrap()).expect("legal move")
}

/// Black a1, white b1, everything else empty.
/// Black can place only on c1 (a1-b1-c1); white has no placement (b1 can only be flanked
/// from a1, which is a corner). Empties: 62 squares in one region (even).
fn corner_pair(to_move: Player) -> Othello {
    position(
        "
            XO------
            --------
            --------
            --------
            --------
            --------
            --------
            --------
        ",
        to_move,
    )
}

/// Black a1, d4; white b1, a2, b2, e4.
///
/// Black placements: c1 (b1 flanked by a1), a3 (a2 by a1), c3 (b2 by a1), f4 (e4 by d4)
/// = 4. White placements: c4 (d4 flanked by e4) = 1; a1 is a corner and can never be
/// flanked. Frontier: black d4 (a1's neighbours b1, a2, b2 are all occupied) = 1; white
/// b1, a2, b2, e4 = 4. Stable: black a1 only; white none. Empties: 58, one region.
fn mixed() -> Othello {
    position(
        "
            XO------
            OO------
            --------
            ---XO---
            --------
            --------
            --------
            --------
        ",
        BLACK,
    )
}

/// A nearly full board, white everywhere except: black c1, a7, g7, h7, c8, g8 and the nine
/// empties a1, f1, g1, h1, d2, a8, d8, e8, h8, which form six regions:
///
/// * `{a1}` (1): black only (a1-b1-c1; white's neighbours there are all white).
/// * `{f1, g1, h1}` (3): black only (f1 via e1 d1 to c1, g1 via g2..g6 to g7, h1 via
///   h2..h6 to h7); white has no black neighbour there.
/// * `{d2}` (1): nobody (white: its only black neighbour c1 sits on the edge; black:
///   every white run from d2 ends at the edge or at an empty square).
/// * `{a8}` (1): both (black via b8 to c8, white via a7 to a6).
/// * `{d8, e8}` (2): black on e8 (f8 to g8), white on d8 (c8 to b8) — even, scores 0.
/// * `{h8}` (1): white only (g8, h7, g7 are black and backed by white); black's
///   neighbours there are all black.
fn regions(to_move: Player) -> Othello {
    position(
        "
            -OXOO---
            OOO-OOOO
            OOOOOOOO
            OOOOOOOO
            OOOOOOOO
            OOOOOOOO
            XOOOOOXX
            -OX--OX-
        ",
        to_move,
    )
}

/// Black a1 b1 a2 b2 (a corner block) and h8; white c1 c2 a3 b3 c3 around the block.
/// Black frontier: only h8 (a1, b1, a2, b2 are fully surrounded) = 1.
/// White frontier: c1, c2, a3, b3, c3 (all touch row 4 or column d) = 5.
fn frontier_block(to_move: Player) -> Othello {
    position(
        "
            XXO-----
            XXO-----
            OOO-----
            --------
            --------
            --------
            --------
            -------X
        ",
        to_move,
    )
}

/// Every position used in the perspective / antisymmetry checks.
fn sample_positions() -> Vec<Othello> {
    let mut positions = vec![Othello::start(), mixed()];
    for side in [BLACK, WHITE] {
        positions.push(corner_pair(side));
        positions.push(regions(side));
        positions.push(frontier_block(side));
    }
    positions
}

// ---------------------------------------------------------------------------------------
// greedy
// ---------------------------------------------------------------------------------------

#[test]
fn greedy_is_disc_difference_with_perspective_sign() {
    let start = Othello::start();
    assert_eq!(features::greedy(&Sides::new(&start, BLACK)), 0.0);
    assert_eq!(features::greedy(&Sides::new(&start, WHITE)), 0.0);

    // mixed: black 2 discs, white 4.
    assert_eq!(features::greedy(&Sides::new(&mixed(), BLACK)), -2.0);
    assert_eq!(features::greedy(&Sides::new(&mixed(), WHITE)), 2.0);

    // regions: black 6 discs, 9 empties, so white 64 - 9 - 6 = 49. Independent of the turn.
    for side in [BLACK, WHITE] {
        assert_eq!(features::greedy(&Sides::new(&regions(side), BLACK)), -43.0);
        assert_eq!(features::greedy(&Sides::new(&regions(side), WHITE)), 43.0);
    }

    // After black d3 from the start, d4 flips: black 4 (d3 d4 d5 e4), white 1 (e5).
    let after = play(&start, "d3");
    assert_eq!(features::greedy(&Sides::new(&after, BLACK)), 3.0);
    assert_eq!(features::greedy(&Sides::new(&after, WHITE)), -3.0);
}

// ---------------------------------------------------------------------------------------
// forfeit
// ---------------------------------------------------------------------------------------

#[test]
fn forfeit_rewards_the_side_whose_opponent_must_pass() {
    // Only black can place (c1), whoever is to move.
    for side in [BLACK, WHITE] {
        let game = corner_pair(side);
        assert_eq!(features::forfeit(&Sides::new(&game, BLACK)), 1.0);
        assert_eq!(features::forfeit(&Sides::new(&game, WHITE)), -1.0);
    }

    // Colours swapped: white a1, black b1 -> only white can place (c1).
    let swapped = position(
        "
            OX------
            --------
            --------
            --------
            --------
            --------
            --------
            --------
        ",
        BLACK,
    );
    assert_eq!(swapped.move_squares(BLACK), 0);
    assert_eq!(swapped.move_squares(WHITE), sq("c1"));
    assert_eq!(features::forfeit(&Sides::new(&swapped, BLACK)), -1.0);
    assert_eq!(features::forfeit(&Sides::new(&swapped, WHITE)), 1.0);
}

#[test]
fn forfeit_is_zero_when_both_or_neither_can_move() {
    // Both sides can place.
    for game in [Othello::start(), mixed(), regions(BLACK)] {
        assert_eq!(features::forfeit(&Sides::new(&game, BLACK)), 0.0);
        assert_eq!(features::forfeit(&Sides::new(&game, WHITE)), 0.0);
    }

    // Black a1 and white h8 alone: no disc is adjacent to an opponent disc, nobody moves.
    let apart = position(
        "
            X-------
            --------
            --------
            --------
            --------
            --------
            --------
            -------O
        ",
        BLACK,
    );
    assert!(apart.is_over());
    assert_eq!(features::forfeit(&Sides::new(&apart, BLACK)), 0.0);
    assert_eq!(features::forfeit(&Sides::new(&apart, WHITE)), 0.0);
}

// ---------------------------------------------------------------------------------------
// mobility
// ---------------------------------------------------------------------------------------

#[test]
fn mobility_counts_hand_derived_placements() {
    // Start: black d3 c4 f5 e6, white e3 f4 c5 d6.
    let start = Othello::start();
    assert_eq!(start.move_squares(BLACK), bits(&["d3", "c4", "f5", "e6"]));
    assert_eq!(start.move_squares(WHITE), bits(&["e3", "f4", "c5", "d6"]));
    assert_eq!(features::mobility(&Sides::new(&start, BLACK)), 0.0);

    // mixed: black 4, white 1.
    let game = mixed();
    assert_eq!(game.move_squares(BLACK), bits(&["c1", "a3", "c3", "f4"]));
    assert_eq!(game.move_squares(WHITE), sq("c4"));
    assert_eq!(game.count_moves(), 4);
    assert_eq!(features::mobility(&Sides::new(&game, BLACK)), 3.0);
    assert_eq!(features::mobility(&Sides::new(&game, WHITE)), -3.0);

    // regions: black a1 f1 g1 h1 a8 e8 = 6, white a8 d8 h8 = 3.
    let game = regions(BLACK);
    assert_eq!(
        game.move_squares(BLACK),
        bits(&["a1", "f1", "g1", "h1", "a8", "e8"])
    );
    assert_eq!(game.move_squares(WHITE), bits(&["a8", "d8", "h8"]));
    assert_eq!(features::mobility(&Sides::new(&game, BLACK)), 3.0);
    assert_eq!(features::mobility(&Sides::new(&game, WHITE)), -3.0);

    // After black d3 from the start (black d3 d4 d5 e4, white e5): white c3 e3 c5, black
    // e6 f5 f6 (e5 flanked by e4, d5, d4 respectively); mobility is measured for both sides
    // whatever the turn.
    let after = play(&start, "d3");
    assert_eq!(after.move_squares(WHITE), bits(&["c3", "e3", "c5"]));
    assert_eq!(after.move_squares(BLACK), bits(&["e6", "f5", "f6"]));
    assert_eq!(features::mobility(&Sides::new(&after, WHITE)), 0.0);

    // corner_pair: black 1 (c1), white 0.
    assert_eq!(
        features::mobility(&Sides::new(&corner_pair(WHITE), BLACK)),
        1.0
    );
    assert_eq!(
        features::mobility(&Sides::new(&corner_pair(WHITE), WHITE)),
        -1.0
    );
}

// ---------------------------------------------------------------------------------------
// stability
// ---------------------------------------------------------------------------------------

#[test]
fn lone_corner_disc_is_stable() {
    for corner in ["a1", "h1", "a8", "h8"] {
        assert_eq!(alone_stable(sq(corner)), sq(corner), "{corner}");
    }
    // With an opponent disc next to it the corner is still stable.
    let game = corner_pair(BLACK);
    assert_eq!(stable_of(&game, BLACK), sq("a1"));
}

#[test]
fn edge_disc_next_to_own_corner_is_stable() {
    // Black a1 b1 (row 1), white h8 h7 (column h), white d4 in the middle.
    let game = position(
        "
            XX------
            --------
            --------
            ---O----
            --------
            --------
            -------O
            -------O
        ",
        BLACK,
    );
    assert_eq!(stable_of(&game, BLACK), bits(&["a1", "b1"]));
    assert_eq!(stable_of(&game, WHITE), bits(&["h7", "h8"]));

    // A chain along the edge: a1 b1 c1 all black are all stable.
    assert_eq!(
        alone_stable(bits(&["a1", "b1", "c1"])),
        bits(&["a1", "b1", "c1"])
    );
}

#[test]
fn x_square_next_to_own_corner_is_not_stable_unless_anchored() {
    // Black a1 b2 only: b2 has empties on both sides of every line.
    assert_eq!(alone_stable(bits(&["a1", "b2"])), sq("a1"));

    // Black a1 b1 a2 b2, white c1: a2 and b1 lean on a1, but b2's a3-b2-c1 diagonal is
    // open at a3 and not anchored, so b2 is not stable...
    let game = position(
        "
            XXO-----
            XX------
            --------
            --------
            --------
            --------
            --------
            --------
        ",
        WHITE,
    );
    assert_eq!(stable_of(&game, BLACK), bits(&["a1", "b1", "a2"]));
    // ...and indeed white a3 flips it (a3-b2-c1).
    let after = play(&game, "a3");
    assert_ne!(after.discs(WHITE) & sq("b2"), 0);

    // With c1 black too, every line of b2 has a stable own neighbour (a2, b1, a1, c1).
    let all = bits(&["a1", "b1", "c1", "a2", "b2"]);
    assert_eq!(alone_stable(all), all);
}

/// Black c4, d3, e2 and white on every other square of c4's row (row 4), column (c) and
/// diagonals (a2..g8 and a6..f1); no corner is occupied.
fn full_lines_through_c4(f1: char, to_move: Player) -> Othello {
    let board = "
        --O--?--
        O-O-X---
        -OOX----
        OOXOOOOO
        -OOO----
        O-O-O---
        --O--O--
        --O---O-
    ";
    position(&board.replace('?', &f1.to_string()), to_move)
}

#[test]
fn disc_with_all_four_lines_full_is_stable_without_corners() {
    let game = full_lines_through_c4('O', BLACK);
    assert_eq!(game.discs(BLACK), bits(&["c4", "d3", "e2"]));
    // c4: all four lines full. d3, e2: their rows are open on both sides.
    assert_eq!(stable_of(&game, BLACK), sq("c4"));
    // No white disc has every line full or on an edge, so none is anchored.
    assert_eq!(stable_of(&game, WHITE), 0);
    assert_eq!(features::stability(&Sides::new(&game, BLACK)), 1.0);
    assert_eq!(features::stability(&Sides::new(&game, WHITE)), -1.0);

    // Empty f1 opens the a6-f1 diagonal: c4 is no longer stable, and white f1 flips it
    // (f1-e2-d3-c4-b5).
    let open = full_lines_through_c4('-', WHITE);
    assert_eq!(stable_of(&open, BLACK), 0);
    let after = play(&open, "f1");
    assert_ne!(after.discs(WHITE) & sq("c4"), 0);
}

#[test]
fn disc_on_open_row_is_not_stable_but_full_row_is() {
    // d1 alone: the edge anchors the column and diagonals, but c1 and e1 are empty.
    assert_eq!(alone_stable(sq("d1")), 0);

    // Row 1 full, black only on d1: every disc of row 1 is stable (full row + edge).
    let game = position(
        "
            OOOXOOOO
            --------
            --------
            --------
            --------
            --------
            --------
            --------
        ",
        BLACK,
    );
    assert_eq!(stable_of(&game, BLACK), sq("d1"));
    assert_eq!(stable_of(&game, WHITE), 0xff & !sq("d1"));
    assert_eq!(features::stability(&Sides::new(&game, BLACK)), -6.0);
}

#[test]
fn opponent_neighbour_does_not_anchor() {
    // Black a1 c1, white b1: c1's neighbour b1 is not black, so c1 is not stable...
    let game = position(
        "
            XOX-----
            --------
            --------
            --------
            --------
            --------
            --------
            --------
        ",
        WHITE,
    );
    assert_eq!(stable_of(&game, BLACK), sq("a1"));
    // ...nor is b1 anchored by the black corner next to it.
    assert_eq!(stable_of(&game, WHITE), 0);
    // White d1 flips c1 (d1-c1-b1).
    let after = play(&game, "d1");
    assert_ne!(after.discs(WHITE) & sq("c1"), 0);
}

#[test]
fn stability_feature_is_difference_of_stable_counts() {
    // Black a1 b1 c1 (3 stable); white h8 h7 (stable) and d4 (not).
    let game = position(
        "
            XXX-----
            --------
            --------
            ---O----
            --------
            --------
            -------O
            -------O
        ",
        WHITE,
    );
    assert_eq!(features::stability(&Sides::new(&game, BLACK)), 1.0);
    assert_eq!(features::stability(&Sides::new(&game, WHITE)), -1.0);
    // The start position has no stable disc.
    assert_eq!(
        features::stability(&Sides::new(&Othello::start(), BLACK)),
        0.0
    );
    assert_eq!(
        stable_of(&Othello::start(), BLACK) | stable_of(&Othello::start(), WHITE),
        0
    );
}

// ---------------------------------------------------------------------------------------
// frontier and corner
// ---------------------------------------------------------------------------------------

#[test]
fn frontier_is_opponent_minus_own_frontier_discs() {
    for side in [BLACK, WHITE] {
        let game = frontier_block(side);
        assert_eq!(features::frontier(&Sides::new(&game, BLACK)), 5.0 - 1.0);
        assert_eq!(features::frontier(&Sides::new(&game, WHITE)), 1.0 - 5.0);
    }
    // mixed: black frontier d4 only (1), white b1 a2 b2 e4 (4).
    assert_eq!(features::frontier(&Sides::new(&mixed(), BLACK)), 3.0);
    // Start: all four discs touch an empty square.
    assert_eq!(
        features::frontier(&Sides::new(&Othello::start(), BLACK)),
        0.0
    );
}

#[test]
fn corner_is_difference_of_occupied_corners() {
    assert_eq!(features::corner(&Sides::new(&Othello::start(), BLACK)), 0.0);
    // frontier_block: black a1 and h8.
    assert_eq!(
        features::corner(&Sides::new(&frontier_block(BLACK), BLACK)),
        2.0
    );
    assert_eq!(
        features::corner(&Sides::new(&frontier_block(BLACK), WHITE)),
        -2.0
    );
    // Black a1; white h1, a8, h8.
    let game = position(
        "
            X------O
            --------
            --------
            ---XO---
            --------
            --------
            --------
            O------O
        ",
        BLACK,
    );
    assert_eq!(features::corner(&Sides::new(&game, BLACK)), -2.0);
    assert_eq!(features::corner(&Sides::new(&game, WHITE)), 2.0);
}

// ---------------------------------------------------------------------------------------
// parity and empty regions
// ---------------------------------------------------------------------------------------

#[test]
fn parity_scores_odd_regions_by_who_can_enter() {
    // Black to move: {a1} +1, {f1 g1 h1} +1, {d2} 0, {a8} +1 (both, our turn),
    // {d8 e8} 0 (even), {h8} -1.
    let game = regions(BLACK);
    assert_eq!(features::parity(&Sides::new(&game, BLACK)), 2.0);
    assert_eq!(features::parity(&Sides::new(&game, WHITE)), -2.0);

    // White to move: {a8} now goes to white: 1 + 1 + 0 - 1 + 0 - 1 = 0 for black.
    let game = regions(WHITE);
    assert_eq!(features::parity(&Sides::new(&game, BLACK)), 0.0);
    assert_eq!(features::parity(&Sides::new(&game, WHITE)), 0.0);

    // The start position: one region of 60 empties (even).
    assert_eq!(features::parity(&Sides::new(&Othello::start(), BLACK)), 0.0);
}

#[test]
fn parity_of_a_region_nobody_can_enter_is_zero() {
    // All black but a1: one odd region, and nobody can place (white has no discs).
    let game = position(
        "
            -XXXXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
        ",
        WHITE,
    );
    assert!(game.is_over());
    assert_eq!(features::parity(&Sides::new(&game, BLACK)), 0.0);
    assert_eq!(features::parity(&Sides::new(&game, WHITE)), 0.0);

    // White b1, c1 empty, every other square black. Black can place on c1 (c1-b1-a1);
    // white cannot (every line from c1 starts with white b1 or runs over black discs to
    // the edge). Region {c1} is odd and only black can enter: +1 for black on any turn.
    let game = position(
        "
            XO-XXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
            XXXXXXXX
        ",
        WHITE,
    );
    assert_eq!(game.move_squares(BLACK), sq("c1"));
    assert_eq!(game.move_squares(WHITE), 0);
    assert_eq!(features::parity(&Sides::new(&game, BLACK)), 1.0);
    assert_eq!(features::parity(&Sides::new(&game, WHITE)), -1.0);
}

fn sorted_regions(empties: u64) -> Vec<u64> {
    let mut regions: Vec<u64> = empty_regions(empties).collect();
    regions.sort_unstable();
    regions
}

/// Disjoint, non-empty, and their union is exactly `empties`.
fn assert_partition(empties: u64) {
    let mut union = 0;
    for region in empty_regions(empties) {
        assert_ne!(region, 0, "empty region reported");
        assert_eq!(union & region, 0, "regions overlap");
        union |= region;
    }
    assert_eq!(union, empties, "regions do not cover the empties");
}

#[test]
fn empty_regions_partition_the_empty_squares() {
    let game = regions(BLACK);
    let empties = game.empties();
    assert_eq!(
        empties,
        bits(&["a1", "f1", "g1", "h1", "d2", "a8", "d8", "e8", "h8"])
    );
    assert_partition(empties);
    let mut expected = vec![
        sq("a1"),
        bits(&["f1", "g1", "h1"]),
        sq("d2"),
        sq("a8"),
        bits(&["d8", "e8"]),
        sq("h8"),
    ];
    expected.sort_unstable();
    assert_eq!(sorted_regions(empties), expected);

    // The start position: one region of 60 squares.
    let start_empties = Othello::start().empties();
    assert_eq!(sorted_regions(start_empties), vec![start_empties]);
    assert_eq!(start_empties.count_ones(), 60);

    for game in sample_positions() {
        assert_partition(game.empties());
    }
    assert_eq!(empty_regions(0).count(), 0);
}

#[test]
fn empty_regions_use_eight_neighbours_without_wrapping() {
    // a1 and b2 touch diagonally: one region.
    assert_eq!(sorted_regions(bits(&["a1", "b2"])).len(), 1);
    // a1 and c1 are two apart: two regions.
    assert_eq!(sorted_regions(bits(&["a1", "c1"])).len(), 2);
    // h1 (bit 7) and a2 (bit 8) are consecutive bits but not neighbours.
    assert_eq!(
        sorted_regions(bits(&["h1", "a2"])),
        vec![sq("h1"), sq("a2")]
    );
    // h1 (bit 7) and a3 (bit 16 = 7 + 9) are not diagonal neighbours either.
    assert_eq!(
        sorted_regions(bits(&["h1", "a3"])),
        vec![sq("h1"), sq("a3")]
    );
}

// ---------------------------------------------------------------------------------------
// Standard WPC
// ---------------------------------------------------------------------------------------

#[test]
fn standard_weights_are_symmetric_with_documented_first_row() {
    let w = standard_weights();
    assert_eq!(w[..8], [1.00, -0.25, 0.10, 0.05, 0.05, 0.10, -0.25, 1.00]);
    for row in 0..8 {
        for col in 0..8 {
            let here = w[row * 8 + col];
            assert_eq!(here, w[(7 - row) * 8 + col], "row mirror at {row},{col}");
            assert_eq!(here, w[row * 8 + (7 - col)], "column mirror at {row},{col}");
            assert_eq!(here, w[col * 8 + row], "diagonal mirror at {row},{col}");
        }
    }
    // Row 8 equals row 1; the centre is 0.01; the X-squares are -0.25.
    assert_eq!(w[56..], w[..8]);
    assert_eq!(w[27], 0.01);
    assert_eq!(w[9], -0.25);
}

#[test]
fn wpc_values_of_hand_made_positions() {
    let wpc = Wpc::standard();
    // Start: two 0.01 centre discs each.
    let start = Othello::start();
    assert_eq!(wpc.evaluate(&start, BLACK), 0.0);
    assert_eq!(wpc.evaluate(&start, WHITE), 0.0);

    // Lone black corner: exactly 1.00.
    let corner_only = position(
        "
            X-------
            --------
            --------
            --------
            --------
            --------
            --------
            --------
        ",
        WHITE,
    );
    assert_eq!(wpc.evaluate(&corner_only, BLACK), 1.0);
    assert_eq!(wpc.evaluate(&corner_only, WHITE), -1.0);

    // Black a1 (1.00) against white b1 (-0.25): 1.25.
    assert_eq!(wpc.evaluate(&corner_pair(BLACK), BLACK), 1.25);
    assert_eq!(wpc.evaluate(&corner_pair(BLACK), WHITE), -1.25);

    // mixed: black a1 + d4 = 1.01, white b1 + a2 + b2 + e4 = -0.74: 1.75.
    let value = wpc.evaluate(&mixed(), BLACK);
    assert!((value - 1.75).abs() < 1e-5, "{value}");
    assert_eq!(wpc.evaluate(&mixed(), WHITE), -value);
}

// ---------------------------------------------------------------------------------------
// Weighted heuristic and evaluator names
// ---------------------------------------------------------------------------------------

type FeatureFn = fn(&Sides) -> f32;

const NAMED_FEATURES: [(&str, FeatureFn); 7] = [
    ("greedy", features::greedy),
    ("forfeit", features::forfeit),
    ("mobility", features::mobility),
    ("stability", features::stability),
    ("frontier", features::frontier),
    ("corner", features::corner),
    ("parity", features::parity),
];

#[test]
fn single_feature_weights_evaluate_to_that_feature() {
    let mobility_only = <Othello as NamedEvaluators>::evaluator("mobility").unwrap();
    assert_eq!(mobility_only.evaluate(&mixed(), BLACK), 3.0);
    for (name, feature) in NAMED_FEATURES {
        let heuristic = <Othello as NamedEvaluators>::evaluator(name).unwrap();
        for game in sample_positions() {
            for side in [BLACK, WHITE] {
                assert_eq!(
                    heuristic.evaluate(&game, side),
                    feature(&Sides::new(&game, side)),
                    "{name} on {}",
                    game.to_position_string()
                );
            }
        }
    }
}

#[test]
fn default_heuristic_values_and_antisymmetry() {
    let heuristic = <Othello as NamedEvaluators>::evaluator("heuristic").unwrap();
    // corner_pair: greedy 0, forfeit 1, mobility 1, stability 1, frontier 1 - 1 = 0,
    // corner 1, parity 0 => 10 + 8 + 12 + 30 = 60.
    assert_eq!(heuristic.evaluate(&corner_pair(BLACK), BLACK), 60.0);
    assert_eq!(heuristic.evaluate(&corner_pair(WHITE), WHITE), -60.0);
    // mixed: greedy -2, forfeit 0, mobility 3, stability 1, frontier 3, corner 1, parity 0
    // => -2 + 24 + 12 + 9 + 30 = 73.
    assert_eq!(heuristic.evaluate(&mixed(), BLACK), 73.0);

    // Every feature is "me minus opponent", so the sum is antisymmetric.
    for game in sample_positions() {
        assert_eq!(
            heuristic.evaluate(&game, BLACK),
            -heuristic.evaluate(&game, WHITE),
            "{}",
            game.to_position_string()
        );
    }
}

/// Every position of `games` seeded random games, from the start to the end (passes and
/// finished games included).
fn random_game_positions(games: u64) -> Vec<Othello> {
    let mut positions = Vec::new();
    let mut moves = MoveList::new();
    for seed in 0..games {
        let mut rng = rng_for(seed, &[]);
        let mut game = Othello::start();
        positions.push(game);
        while game.outcome().is_none() {
            game.legal_moves(&mut moves);
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            positions.push(game);
        }
    }
    positions
}

/// The default weights of the Othello ENN paper's heuristic, in the order of `NAMED_FEATURES`.
const DEFAULT_WEIGHTS: [f32; 7] = [1.0, 10.0, 8.0, 12.0, 3.0, 30.0, 4.0];

/// Σ weight × feature in the order of `NAMED_FEATURES`, as the Othello ENN paper's heuristic
/// sums them.
fn weighted_sum(weights: [f32; 7], sides: &Sides) -> f32 {
    NAMED_FEATURES
        .iter()
        .zip(weights)
        .map(|((_, feature), weight)| weight * feature(sides))
        .sum()
}

/// `heuristic` is Σ default weight × feature in table order, bit for bit (so searches and
/// benchmarks keep their results), and a sum of names is the sum of those features.
#[test]
fn heuristic_is_the_weighted_sum_of_the_features_bit_for_bit() {
    let heuristic = <Othello as NamedEvaluators>::evaluator("heuristic").unwrap();
    let sum = <Othello as NamedEvaluators>::evaluator("mobility+corner").unwrap();
    let positions = random_game_positions(60);
    assert!(positions.len() > 3000, "{}", positions.len());
    for game in &positions {
        for side in [BLACK, WHITE] {
            let sides = Sides::new(game, side);
            let expected = weighted_sum(DEFAULT_WEIGHTS, &sides);
            let position = game.to_position_string();
            let value = heuristic.evaluate(game, side);
            assert_eq!(value.to_bits(), expected.to_bits(), "{position}");
            let pair = features::mobility(&sides) + features::corner(&sides);
            assert_eq!(sum.evaluate(game, side), pair, "{position}");
        }
    }
}

/// A JSON file in the temp directory, removed on drop.
struct TempJson(PathBuf);

impl TempJson {
    fn new(contents: &str) -> TempJson {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "evoboard-othello-features-{}-{unique}.json",
            std::process::id()
        ));
        std::fs::write(&path, contents).expect("write temp weights file");
        TempJson(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }
}

impl Drop for TempJson {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn weights_file_overrides_only_given_keys() {
    let file = TempJson::new(r#"{"greedy": 0.5, "corner": 40}"#);
    let weighted = <Othello as NamedEvaluators>::evaluator(file.path()).expect("json path");
    // mixed is 0.5 * -2 + 24 + 12 + 9 + 40 = 84.
    assert_eq!(weighted.evaluate(&mixed(), BLACK), 84.0);

    let empty = TempJson::new("{}");
    let defaults = <Othello as NamedEvaluators>::evaluator(empty.path()).unwrap();
    let weights = [0.5, 10.0, 8.0, 12.0, 3.0, 40.0, 4.0];
    for game in random_game_positions(10) {
        for side in [BLACK, WHITE] {
            let sides = Sides::new(&game, side);
            let value = weighted.evaluate(&game, side);
            assert_eq!(value.to_bits(), weighted_sum(weights, &sides).to_bits());
            let value = defaults.evaluate(&game, side);
            assert_eq!(
                value.to_bits(),
                weighted_sum(DEFAULT_WEIGHTS, &sides).to_bits()
            );
        }
    }
}

#[test]
fn weights_file_rejects_unknown_keys_and_malformed_json() {
    for contents in [r#"{"greedy": 1, "bogus": 2}"#, r#"{"greedy": "#] {
        let file = TempJson::new(contents);
        assert!(
            matches!(
                <Othello as NamedEvaluators>::evaluator(file.path()),
                Err(EvaluatorError::WeightsFile { .. })
            ),
            "{contents}"
        );
    }
    let missing = std::env::temp_dir().join(format!(
        "evoboard-othello-features-{}-missing.json",
        std::process::id()
    ));
    let missing = missing.to_str().unwrap();
    assert!(matches!(
        <Othello as NamedEvaluators>::evaluator(missing),
        Err(EvaluatorError::WeightsFile { .. })
    ));
}

#[test]
fn evaluator_names_resolve() {
    assert!(matches!(
        <Othello as NamedEvaluators>::evaluator("nonsense"),
        Err(EvaluatorError::Unknown { .. })
    ));

    let game = mixed();
    let expected = [
        ("heuristic", 73.0),
        ("greedy", -2.0),
        ("forfeit", 0.0),
        ("mobility", 3.0),
        ("stability", 1.0),
        ("frontier", 3.0),
        ("corner", 1.0),
        ("parity", 0.0),
    ];
    for (name, value) in expected {
        let evaluator = <Othello as NamedEvaluators>::evaluator(name)
            .unwrap_or_else(|e| panic!("{name} should resolve: {e}"));
        assert_eq!(evaluator.evaluate(&game, BLACK), value, "{name}");
        assert_eq!(evaluator.evaluate(&game, WHITE), -value, "{name}");
    }
    // corner_pair exercises forfeit: only black can place.
    let forfeit = <Othello as NamedEvaluators>::evaluator("forfeit").unwrap();
    assert_eq!(forfeit.evaluate(&corner_pair(BLACK), BLACK), 1.0);

    let wpc = <Othello as NamedEvaluators>::evaluator("wpc").expect("wpc resolves");
    assert_eq!(wpc.evaluate(&corner_pair(BLACK), BLACK), 1.25);
}

/// The bitboard images of a position are the n-tuple networks' eight square maps applied
/// to its discs (the same set of boards, in some order), and they keep the side to move,
/// the disc counts and the number of legal moves.
#[test]
fn a_positions_images_are_the_eight_square_maps_of_the_board() {
    use evoboard::eval::othello_tuples::symmetries;
    let maps = symmetries();
    let mapped = |bits: u64, map: &[u8]| {
        (0..64)
            .filter(|&s| bits >> s & 1 == 1)
            .fold(0u64, |acc, s| acc | 1 << map[s])
    };
    let mut rng = rng_for(17, &[]);
    for _ in 0..200 {
        let mut game = Othello::start();
        for _ in 0..rng.random_range(0..50) {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            if game.outcome().is_some() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game = game.play(mv).unwrap();
        }
        let images = game.images();
        assert_eq!(images[0], game);
        let boards = |positions: &mut dyn Iterator<Item = (u64, u64)>| {
            let mut boards: Vec<(u64, u64)> = positions.collect();
            boards.sort_unstable();
            boards
        };
        let expected = boards(&mut maps.iter().map(|map| {
            (
                mapped(game.discs(BLACK), map),
                mapped(game.discs(WHITE), map),
            )
        }));
        let found = boards(&mut images.iter().map(|i| (i.discs(BLACK), i.discs(WHITE))));
        assert_eq!(found, expected);
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        for image in &images {
            assert_eq!(image.to_move(), game.to_move());
            let mut image_moves = MoveList::new();
            image.legal_moves(&mut image_moves);
            assert_eq!(image_moves.len(), moves.len());
        }
    }
}
