//! The Othello board as n-tuple networks read it, and the named tuple sets.
//!
//! Cells are the 64 squares (a1 = 0 … h8 = 63), each empty (0), the evaluated side's (1)
//! or the opponent's (2). The board's eight symmetries (four rotations, each with its
//! mirror image) place every tuple eight times.

use crate::games::Player;
use crate::games::othello::Othello;
use crate::games::othello::bitboard::{flips, lines_through, squares};
use crate::nn::TupleSpec;
use crate::nn::ntuple::MAX_FEATURES;
use crate::nn::ntuple::split_set_name;
use arrayvec::ArrayVec;

/// The global features networks may add to their tuples (`SET+discs`, `SET+mobility`,
/// `SET+wipeout`): the disc counts of the side evaluated and its opponent (0–64), their
/// numbers of legal placements (0–33, the most any Othello position has), and the fewest
/// discs one placement of the side evaluated can leave its opponent (0–3, or
/// [`WIPEOUT_FAR`] for four or more, or no placement at all). Networks evaluate the side
/// to move, so this is the threat the side to move poses; the reverse threat is not its
/// turn to carry out.
pub const GLOBAL_FEATURES: [(&str, u16); 5] = [
    ("discs", 65),
    ("opponent-discs", 65),
    ("mobility", 34),
    ("opponent-mobility", 34),
    ("wipeout", WIPEOUT_FAR + 1),
];

/// The `+EXTRA` suffixes of set names and the global features each adds.
const EXTRAS: [(&str, &[&str]); 3] = [
    ("discs", &["discs", "opponent-discs"]),
    ("mobility", &["mobility", "opponent-mobility"]),
    ("wipeout", &["wipeout"]),
];

/// The `wipeout` feature's value for "four or more discs left".
pub const WIPEOUT_FAR: u16 = 4;

/// The most discs one Othello placement can flip (from d4: 2 + 3 on the row, 2 + 3 on the
/// column, 2 + 3 and 2 + 2 on the diagonals).
const MOST_FLIPS: u32 = 19;

/// The values of global features `sources` (indices into [`GLOBAL_FEATURES`]) of `game`
/// for `perspective`. Each side's legal moves are generated at most once, whichever
/// features need them.
pub fn global_features(
    game: &Othello,
    perspective: Player,
    sources: &[u8],
) -> ArrayVec<u16, MAX_FEATURES> {
    let mut moves: [Option<u64>; 2] = [None; 2];
    let mut move_squares = |side: Player| {
        *moves[usize::from(side != perspective)].get_or_insert_with(|| game.move_squares(side))
    };
    let opponent = perspective.opponent();
    sources
        .iter()
        .map(|&index| match index {
            0 => game.discs(perspective).count_ones() as u16,
            1 => game.discs(opponent).count_ones() as u16,
            2 => move_squares(perspective).count_ones() as u16,
            3 => move_squares(opponent).count_ones() as u16,
            _ => fewest_left(game, perspective, move_squares(perspective)),
        })
        .collect()
}

/// The fewest discs one placement of `side` leaves its opponent, capped at [`WIPEOUT_FAR`].
/// A 1-ply player cannot see a wipe-out one move beyond its choice; this lets a network
/// see the threat in the position itself (see README, "Why the 1-ply measures lag").
/// `moves` are the side's legal placements.
fn fewest_left(game: &Othello, side: Player, moves: u64) -> u16 {
    let own = game.discs(side);
    let opp = game.discs(side.opponent());
    let opp_count = opp.count_ones();
    let far = u32::from(WIPEOUT_FAR);
    if opp_count >= far + MOST_FLIPS {
        return WIPEOUT_FAR;
    }
    // Only a placement whose lines hold all but three of the opponent's discs can leave
    // fewer than four: one AND and a count skip the flip computation for the others.
    squares(moves)
        .filter(|&square| (opp & !lines_through(square)).count_ones() < far)
        .map(|square| (opp_count - flips(own, opp, square).count_ones()) as u16)
        .fold(WIPEOUT_FAR, u16::min)
}

/// Cell states of an Othello square: empty, own disc, opponent disc.
pub const STATES: u8 = 3;

/// A map of (row, column) to (row, column).
type CoordinateMap = fn(u8, u8) -> (u8, u8);

/// The eight symmetries of the board as maps from square to square.
pub fn symmetries() -> Vec<Vec<u8>> {
    let maps: [CoordinateMap; 8] = [
        |r, c| (r, c),
        |r, c| (r, 7 - c),
        |r, c| (7 - r, c),
        |r, c| (7 - r, 7 - c),
        |r, c| (c, r),
        |r, c| (c, 7 - r),
        |r, c| (7 - c, r),
        |r, c| (7 - c, 7 - r),
    ];
    maps.iter()
        .map(|map| {
            (0..64u8)
                .map(|s| {
                    let (r, c) = map(s / 8, s % 8);
                    r * 8 + c
                })
                .collect()
        })
        .collect()
}

/// Square index of (row, column), both 0-based.
fn at(row: u8, col: u8) -> u8 {
    row * 8 + col
}

/// The set the TD preset trains by default: Buro's patterns, the disc and move counts and
/// the wipe-out threat (together they cut 1-ply losses to the standard WPC from about a
/// third of the games to under a tenth; see README).
pub const DEFAULT_SET: &str = "logistello+discs+mobility+wipeout";

/// The names `--network ntuple:NAME` accepts, with what each is.
pub const TUPLE_SETS: [(&str, &str); 6] = [
    (
        "logistello",
        "Buro's 11 patterns: diagonals of 4-8, rows 2-4, edge with X-squares, 2x5 and 3x3 corners (167,265 weights)",
    ),
    (
        "straight2",
        "every straight 2-tuple, up to symmetry (Jaśkowski 2014's 2x1)",
    ),
    ("straight3", "every straight 3-tuple, up to symmetry"),
    ("straight4", "every straight 4-tuple, up to symmetry"),
    ("squares2", "every 2x2 square, up to symmetry"),
    (
        "straight4-squares2",
        "straight4 and squares2 together (2,511 weights; Jaśkowski & Szubert 2016's best)",
    ),
];

/// The tuple set called `name`, if there is one: a set of [`TUPLE_SETS`], optionally
/// followed by `+discs` and/or `+mobility` (each adds the two global features of that name).
pub fn tuple_set(name: &str) -> Option<TupleSpec> {
    let (base, features) = split_set_name(name, &EXTRAS, &GLOBAL_FEATURES)?;
    let tuples = match base {
        "logistello" => logistello(),
        "straight2" => distinct_up_to_symmetry(straight(2)),
        "straight3" => distinct_up_to_symmetry(straight(3)),
        "straight4" => distinct_up_to_symmetry(straight(4)),
        "squares2" => distinct_up_to_symmetry(squares2()),
        "straight4-squares2" => {
            let mut tuples = distinct_up_to_symmetry(straight(4));
            tuples.extend(distinct_up_to_symmetry(squares2()));
            tuples
        }
        _ => return None,
    };
    Some(TupleSpec {
        name: name.to_string(),
        states: STATES,
        tuples,
        features,
    })
}

/// Buro's Logistello patterns (Buro 1997, "Experiments with Multi-ProbCut and a new
/// high-quality evaluation function for Othello"), one orientation each.
fn logistello() -> Vec<Vec<u8>> {
    let diagonal = |len: u8| (0..len).map(|k| at(len - 1 - k, k)).collect::<Vec<u8>>();
    let row = |r: u8| (0..8).map(|c| at(r, c)).collect::<Vec<u8>>();
    let mut edge_x: Vec<u8> = row(0);
    edge_x.extend([at(1, 1), at(1, 6)]);
    let block = |rows: u8, cols: u8| {
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| at(r, c)))
            .collect::<Vec<u8>>()
    };
    vec![
        diagonal(4),
        diagonal(5),
        diagonal(6),
        diagonal(7),
        diagonal(8),
        row(1),
        row(2),
        row(3),
        edge_x,
        block(2, 5),
        block(3, 3),
    ]
}

/// Every straight run of `len` squares: along rows, columns and both diagonals.
fn straight(len: u8) -> Vec<Vec<u8>> {
    let steps: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut tuples = Vec::new();
    for r in 0..8i8 {
        for c in 0..8i8 {
            for (dr, dc) in steps {
                let cells: Option<Vec<u8>> = (0..len as i8)
                    .map(|k| {
                        let (rr, cc) = (r + k * dr, c + k * dc);
                        ((0..8).contains(&rr) && (0..8).contains(&cc))
                            .then(|| at(rr as u8, cc as u8))
                    })
                    .collect();
                tuples.extend(cells);
            }
        }
    }
    tuples
}

/// Every 2×2 square of the board.
fn squares2() -> Vec<Vec<u8>> {
    (0..7)
        .flat_map(|r| {
            (0..7).map(move |c| vec![at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1)])
        })
        .collect()
}

/// One tuple of each class of tuples that the symmetries map onto each other (as sets of
/// squares): the network places each back at all its images.
fn distinct_up_to_symmetry(tuples: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let symmetries = symmetries();
    let canonical = |tuple: &Vec<u8>| {
        symmetries
            .iter()
            .map(|map| {
                let mut image: Vec<u8> = tuple.iter().map(|&s| map[usize::from(s)]).collect();
                image.sort_unstable();
                image
            })
            .min()
            .expect("eight symmetries")
    };
    let mut seen = Vec::new();
    let mut kept = Vec::new();
    for tuple in tuples {
        let key = canonical(&tuple);
        if !seen.contains(&key) {
            seen.push(key);
            kept.push(tuple);
        }
    }
    kept
}
