//! The bitboard Othello against a deliberately naive reference: a mailbox board that walks
//! the eight directions square by square. Both must agree on the legal moves and on the board
//! after each move, on hundreds of seeded random positions.

use evoboard::eval::neural::NeuralInput;
use evoboard::games::othello::bitboard::{flips, flips_by_rays, neighbours};
use evoboard::rng::rng_for;
use evoboard::{Game, MoveList, Notation, Othello, Player};
use rand::RngExt;

/// Mailbox board: 0 empty, 1 black, 2 white; index row * 8 + col.
type Mailbox = [u8; 64];

const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn mailbox(game: &Othello) -> Mailbox {
    let text = game.to_position_string();
    let mut board = [0; 64];
    for (i, c) in text.chars().take(64).enumerate() {
        board[i] = match c {
            'X' => 1,
            'O' => 2,
            _ => 0,
        };
    }
    board
}

/// Squares flipped by `me` placing on `square`, walking each direction by hand.
fn reference_flips(board: &Mailbox, me: u8, square: usize) -> Vec<usize> {
    if board[square] != 0 {
        return Vec::new();
    }
    let them = 3 - me;
    let (row, col) = ((square / 8) as i32, (square % 8) as i32);
    let mut flipped = Vec::new();
    for (dr, dc) in DIRECTIONS {
        let mut line = Vec::new();
        let (mut r, mut c) = (row + dr, col + dc);
        while (0..8).contains(&r) && (0..8).contains(&c) && board[(r * 8 + c) as usize] == them {
            line.push((r * 8 + c) as usize);
            r += dr;
            c += dc;
        }
        let closed =
            (0..8).contains(&r) && (0..8).contains(&c) && board[(r * 8 + c) as usize] == me;
        if closed && !line.is_empty() {
            flipped.extend(line);
        }
    }
    flipped
}

fn reference_moves(board: &Mailbox, me: u8) -> Vec<usize> {
    (0..64)
        .filter(|&sq| !reference_flips(board, me, sq).is_empty())
        .collect()
}

fn colour(player: Player) -> u8 {
    match player {
        Player::First => 1,
        Player::Second => 2,
    }
}

/// Seeded random positions: random playouts of random length from the start.
fn random_positions(count: usize) -> Vec<Othello> {
    let mut rng = rng_for(42, &[]);
    let mut positions = Vec::new();
    let mut moves = MoveList::new();
    while positions.len() < count {
        let mut game = Othello::start();
        let plies = rng.random_range(0..70);
        for _ in 0..plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        positions.push(game);
    }
    positions
}

#[test]
fn bitboard_move_generation_matches_the_naive_reference() {
    let mut passes = 0;
    let mut finished = 0;
    for game in random_positions(600) {
        let board = mailbox(&game);
        let me = colour(game.to_move());
        let expected = reference_moves(&board, me);
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let position = game.to_position_string();
        if expected.is_empty() {
            // No placement: a pass if the opponent can move, otherwise the game is over.
            if reference_moves(&board, 3 - me).is_empty() {
                finished += 1;
                assert!(moves.is_empty(), "{position}");
                assert!(game.outcome().is_some(), "{position}");
            } else {
                passes += 1;
                assert_eq!(moves.len(), 1, "{position}");
                assert_eq!(game.format_move(moves[0]), "pass");
                let after = game.play(moves[0]).unwrap();
                assert_eq!(mailbox(&after), board);
                assert_eq!(after.to_move(), game.to_move().opponent());
            }
            continue;
        }
        let got: Vec<usize> = moves
            .iter()
            .map(|&mv| {
                let text = game.format_move(mv);
                let b = text.as_bytes();
                ((b[1] - b'1') * 8 + (b[0] - b'a')) as usize
            })
            .collect();
        assert_eq!(got, expected, "legal moves in {position}");
        assert_eq!(game.count_moves(), expected.len());
        for &mv in &moves {
            let square = got[moves.iter().position(|&m| m == mv).unwrap()];
            let mut board_after = board;
            board_after[square] = me;
            for f in reference_flips(&board, me, square) {
                board_after[f] = me;
            }
            let after = game.play(mv).unwrap();
            assert_eq!(
                mailbox(&after),
                board_after,
                "{position} after {}",
                game.format_move(mv)
            );
            assert_eq!(after.to_move(), game.to_move().opponent());
        }
    }
    // The random lengths reach passes and finished games; make sure both paths ran.
    assert!(finished > 0, "no finished game among the random positions");
    assert!(passes > 0, "no forced pass among the random positions");
}

#[test]
fn both_flip_finders_match_the_reference_on_random_boards() {
    // Boards no game reaches as well as those it does: each square empty, own or the
    // opponent's at random, from nearly empty to nearly full, so that long runs, runs to
    // the edge and short diagonals all occur. `flips` is the build's choice (by gathered
    // lines with BMI2), `flips_by_rays` the portable one.
    let mut rng = rng_for(2026, &[67]);
    for _ in 0..3000 {
        let empty_share = rng.random_range(1..8);
        let mut board = [0u8; 64];
        let (mut own, mut opp) = (0u64, 0u64);
        for (square, cell) in board.iter_mut().enumerate() {
            if rng.random_range(0..8) < empty_share {
                continue;
            }
            if rng.random::<bool>() {
                *cell = 1;
                own |= 1 << square;
            } else {
                *cell = 2;
                opp |= 1 << square;
            }
        }
        for square in (0..64).filter(|&s| board[s] == 0) {
            let expected = reference_flips(&board, 1, square)
                .iter()
                .fold(0u64, |bits, &s| bits | 1 << s);
            let square = square as u32;
            assert_eq!(
                flips(own, opp, square),
                expected,
                "{own:#x} {opp:#x} {square}"
            );
            assert_eq!(
                flips_by_rays(own, opp, square),
                expected,
                "{own:#x} {opp:#x} {square}"
            );
        }
    }
}

#[test]
fn neighbours_are_the_squares_one_king_step_away() {
    let mut rng = rng_for(2026, &[66]);
    for _ in 0..2000 {
        // Sparse and dense sets alike, edges and corners included.
        let bits = rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>();
        let mut expected = 0u64;
        for square in (0..64).filter(|s| bits >> s & 1 == 1) {
            let (row, col) = (square / 8, square % 8);
            for (dr, dc) in [
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ] {
                let (r, c) = (row + dr, col + dc);
                if (0..8).contains(&r) && (0..8).contains(&c) {
                    expected |= 1 << (r * 8 + c);
                }
            }
        }
        assert_eq!(neighbours(bits), expected, "{bits:#018x}");
    }
}

#[test]
fn position_strings_round_trip() {
    for game in random_positions(300) {
        let text = game.to_position_string();
        assert_eq!(text.len(), 66);
        let back = Othello::from_position_string(&text).unwrap();
        assert_eq!(back, game);
        assert_eq!(back.to_position_string(), text);
    }
}

#[test]
fn start_position_string_is_the_standard_one() {
    let start = Othello::start();
    assert_eq!(
        start.to_position_string(),
        format!(
            "{}OX{}XO{} X",
            "-".repeat(27),
            "-".repeat(6),
            "-".repeat(27)
        )
    );
}

#[test]
fn disc_count_grows_by_one_per_placement_and_final_score_gives_empties_to_winner() {
    for game in random_positions(300) {
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let discs = |g: &Othello| 64 - g.to_position_string()[..64].matches('-').count();
        for &mv in &moves {
            let after = game.play(mv).unwrap();
            let placed = usize::from(game.format_move(mv) != "pass");
            assert_eq!(discs(&after), discs(&game) + placed);
        }
        if let Some(outcome) = game.outcome() {
            let [black, white] = game.score();
            let text = game.to_position_string();
            let (x, o) = (
                text[..64].matches('X').count() as i32,
                text[..64].matches('O').count() as i32,
            );
            let empties = 64 - x - o;
            match outcome {
                evoboard::Outcome::Win(Player::First) => {
                    assert_eq!([black, white], [x + empties, o])
                }
                evoboard::Outcome::Win(Player::Second) => {
                    assert_eq!([black, white], [x, o + empties])
                }
                evoboard::Outcome::Draw => assert_eq!([black, white], [x, o]),
            }
        }
    }
}

#[test]
fn encoding_is_plus_one_own_minus_one_opponent() {
    for game in random_positions(50) {
        let board = mailbox(&game);
        for perspective in Player::BOTH {
            let mut input = vec![0.0; game.input_len()];
            game.encode(perspective, &mut input);
            for (i, &x) in input.iter().enumerate() {
                let expected = match board[i] {
                    0 => 0.0,
                    c if c == colour(perspective) => 1.0,
                    _ => -1.0,
                };
                assert_eq!(x, expected);
            }
        }
    }
}

#[test]
fn malformed_positions_and_moves_are_errors() {
    let start = Othello::start();
    for bad in [
        "",
        "X",
        &format!("{} X", "-".repeat(63)),
        &format!("{} X", "-".repeat(65)),
        &format!("{}Z{} X", "-".repeat(10), "-".repeat(53)),
        &format!("{} Y", "-".repeat(64)),
        &format!("{} X extra", "-".repeat(64)),
    ] {
        assert!(
            Othello::from_position_string(bad).is_err(),
            "accepted {bad:?}"
        );
    }
    for bad in ["", "i1", "a9", "a0", "aa", "d33", "pas"] {
        assert!(start.parse_move(bad).is_err(), "accepted move {bad:?}");
    }
    let a1 = start.parse_move("a1").unwrap();
    assert!(start.play(a1).is_err());
    assert!(start.play(start.parse_move("pass").unwrap()).is_err());
}
