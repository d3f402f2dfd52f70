//! The rules checked against a naive reference, published counts and hand-made games.
//! `cargo test --release` runs these (the example is declared with `test = true`).

use std::collections::HashSet;

use evoboard::eval::neural::NeuralInput;
use evoboard::games::perft;
use evoboard::nn::Architecture;
use evoboard::rng::rng_for;
use evoboard::{Game, MoveList, Notation, Outcome, Player};
use rand::RngExt;

use crate::game::{COLUMNS, ConnectFour, ROWS};

/// Connect Four on a plain grid, written for clarity only: the reference the bitboards
/// are checked against.
#[derive(Clone)]
struct Naive {
    /// `grid[column][row]`: 0 empty, 1 or 2 a player's disc.
    grid: [[u8; ROWS as usize]; COLUMNS as usize],
    plies: usize,
    won: bool,
}

impl Naive {
    fn new() -> Naive {
        Naive {
            grid: [[0; ROWS as usize]; COLUMNS as usize],
            plies: 0,
            won: false,
        }
    }

    fn over(&self) -> bool {
        self.won || self.plies == usize::from(COLUMNS * ROWS)
    }

    /// Drops the mover's disc into `column` if it has room; whether it did.
    fn play(&mut self, column: usize) -> bool {
        let Some(row) = self.grid[column].iter().position(|&cell| cell == 0) else {
            return false;
        };
        let disc = 1 + (self.plies % 2) as u8;
        self.grid[column][row] = disc;
        self.plies += 1;
        let run = |dc: isize, dr: isize| {
            (1..4)
                .take_while(|k| {
                    let (c, r) = (column as isize + k * dc, row as isize + k * dr);
                    (0..COLUMNS as isize).contains(&c)
                        && (0..ROWS as isize).contains(&r)
                        && self.grid[c as usize][r as usize] == disc
                })
                .count()
        };
        self.won = [(1, 0), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| 1 + run(dc, dr) + run(-dc, -dr) >= 4);
        true
    }
}

fn naive_perft(game: &Naive, depth: u32) -> u64 {
    if depth == 0 || game.over() {
        return 1;
    }
    (0..usize::from(COLUMNS))
        .filter_map(|column| {
            let mut child = game.clone();
            child.play(column).then(|| naive_perft(&child, depth - 1))
        })
        .sum()
}

/// Plays columns written 1–7, checking each move.
fn play(moves: &[u8]) -> ConnectFour {
    moves.iter().fold(ConnectFour::new(), |game, &column| {
        game.play(game.parse_move(&column.to_string()).unwrap())
            .unwrap()
    })
}

#[test]
fn perft_matches_a_naive_counter() {
    // Every sequence of up to six moves is legal (7^d); at seven plies the 7 sequences that
    // drop all seven discs into one column are not. Wins come no earlier than ply 7.
    let closed_form = [1, 7, 49, 343, 2401, 16807, 117649, 823536];
    for (depth, &count) in (0..).zip(&closed_form) {
        assert_eq!(perft(&ConnectFour::new(), depth), count, "depth {depth}");
    }
    for depth in 7..=8 {
        assert_eq!(
            perft(&ConnectFour::new(), depth),
            naive_perft(&Naive::new(), depth)
        );
    }
}

#[test]
fn distinct_positions_match_the_published_counts() {
    // OEIS A212693 (John Tromp): legal positions after n plies, 0 ≤ n ≤ 8.
    let published = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275];
    let mut level = HashSet::from([ConnectFour::new()]);
    for (plies, &count) in published.iter().enumerate() {
        assert_eq!(level.len(), count, "after {plies} plies");
        level = level
            .iter()
            .flat_map(|game| {
                let mut moves = MoveList::new();
                game.legal_moves(&mut moves);
                moves.into_iter().map(move |mv| {
                    let mut child = *game;
                    child.play_unchecked(mv);
                    child
                })
            })
            .collect();
    }
}

#[test]
fn four_in_a_row_wins_in_every_direction() {
    let wins: [(&str, &[u8]); 5] = [
        ("across", &[1, 1, 2, 2, 3, 3, 4]),
        ("up", &[1, 2, 1, 2, 1, 2, 1]),
        ("up-right", &[1, 2, 2, 3, 4, 3, 3, 4, 7, 4, 4]),
        ("up-left", &[7, 6, 6, 5, 4, 5, 5, 4, 1, 4, 4]),
        ("second player, across", &[1, 2, 1, 3, 1, 4, 7, 5]),
    ];
    for (direction, moves) in wins {
        let (last, before) = moves.split_last().unwrap();
        let before = play(before);
        assert_eq!(before.outcome(), None, "{direction}");
        let winner = before.to_move();
        let after = play(moves);
        assert_eq!(after.outcome(), Some(Outcome::Win(winner)), "{direction}");
        assert_eq!(after.count_moves(), 0, "{direction}");
        assert_eq!(after.score()[winner.index()], 1, "{direction}");
        assert!(before.parse_move(&last.to_string()).is_ok());
    }
}

/// Plays from `game` into `target`, each player only onto their own cells of it: the end
/// position if some order of moves gets there.
fn fill(game: ConnectFour, target: &ConnectFour) -> Option<ConnectFour> {
    if game.count_moves() == 0 {
        return Some(game);
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves.into_iter().find_map(|mv| {
        let mut child = game;
        child.play_unchecked(mv);
        let mover = game.to_move();
        (child.discs(mover) & !target.discs(mover) == 0)
            .then(|| fill(child, target))
            .flatten()
    })
}

#[test]
fn a_full_board_without_four_is_a_draw() {
    // Pairs of columns alternate in colour, and each column alternates up: no line of four
    // is one colour.
    let target =
        ConnectFour::from_position_string("ooxxoox/xxooxxo/ooxxoox/xxooxxo/ooxxoox/xxooxxo")
            .unwrap();
    let game = fill(ConnectFour::new(), &target).expect("some order of moves reaches it");
    assert_eq!(game, target);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert_eq!(game.score(), [0, 0]);
}

#[test]
fn position_strings_read_back_exactly() {
    let mut rng = rng_for(5, &[]);
    for _ in 0..200 {
        let mut game = ConnectFour::new();
        loop {
            let text = game.to_position_string();
            assert_eq!(ConnectFour::from_position_string(&text), Ok(game), "{text}");
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
    }
    let empty = "......./......./......./......./......./.......";
    assert_eq!(ConnectFour::new().to_position_string(), empty);
    for bad in [
        "......./......./......./......./...x.../.......",
        "......./......./......./......./......./..xx...",
        "......./......./......./......./......./..o....",
        "......./......./xo...../xo...../xo...../xo.....",
        "......./......./......./......./......./......",
        "......./......./......./......./......./...y...",
    ] {
        assert!(ConnectFour::from_position_string(bad).is_err(), "{bad}");
    }
}

#[test]
fn moves_are_column_numbers() {
    let game = ConnectFour::new();
    for column in 0..COLUMNS {
        let text = game.format_move(column);
        assert_eq!(text, (column + 1).to_string());
        assert_eq!(game.parse_move(&text), Ok(column));
    }
    for bad in ["0", "8", "a", ""] {
        assert!(game.parse_move(bad).is_err(), "{bad}");
    }
    let full = play(&[1, 1, 1, 1, 1, 1]);
    assert!(full.play(0).is_err());
    assert_eq!(full.count_moves(), 6);
}

#[test]
fn networks_read_both_views() {
    let game = play(&[4, 3]);
    let mut first = [0.0; 43];
    game.encode(Player::First, &mut first);
    let mut second = [0.0; 43];
    game.encode(Player::Second, &mut second);
    assert_eq!(first[3], 1.0, "X's disc in column 4, bottom row");
    assert_eq!(first[2], -1.0, "O's disc in column 3, bottom row");
    assert!(
        first[..42]
            .iter()
            .zip(&second[..42])
            .all(|(a, b)| *a == -*b)
    );
    assert_eq!((first[42], second[42]), (1.0, 0.0), "X is to move");
    let set = game.tuple_set("lines").unwrap();
    assert_eq!(
        set.tuples.len(),
        36,
        "33 mirror pairs and 3 lines of the centre column"
    );
    assert_eq!(game.check_architecture(&Architecture::NTuple(set)), Ok(()));
}
