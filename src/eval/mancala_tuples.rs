//! The mancala board as n-tuple networks read it (Kalah, Oware, Congklak), and its tuple
//! sets.
//!
//! Cells are the pits, the side evaluated first (its pits from its own left), then the
//! opponent's (from the opponent's left); a cell's state is its seed count, capped at 15.
//! The board has no symmetry a network could share (the side to move's view already makes
//! both players alike). Global features give what pit patterns cannot: the store
//! difference, the seeds left on each side, and what the side to move's moves do this turn
//! (found by playing each: sowing relays, captures and extra turns depend on pits far
//! apart, which no small tuple sees together).

use arrayvec::ArrayVec;

use crate::games::mancala::{Board, Mancala, OnBoard, Rules};
use crate::games::{Game, MoveList, Player};
use crate::nn::TupleSpec;
use crate::nn::ntuple::MAX_FEATURES;
use crate::nn::ntuple::split_set_name;

/// Cell states: 0 to 15 seeds (more count as 15).
pub const STATES: u8 = 16;

/// The global features: own store minus the opponent's (−63 to 63, shifted to 0–126), the
/// seeds on each side's row (0–99), each store's own count (0–99: how near a sure win), the
/// most seeds one move of the side to move banks this turn (0–31: sowing past its store,
/// captures, a finished game's rows) and how many of its moves give it another turn (0–7);
/// the same two for the opponent as if it moved now (its threats: what the mover must
/// answer); and the most seeds the side to move banks over its whole turn, following
/// extra turns (0–31).
pub const GLOBAL_FEATURES: [(&str, u16); 10] = [
    ("store-difference", 127),
    ("row", 100),
    ("opponent-row", 100),
    ("store", 100),
    ("opponent-store", 100),
    ("best-bank", BANK_VALUES),
    ("extra-turns", TURN_VALUES),
    ("opponent-best-bank", BANK_VALUES),
    ("opponent-extra-turns", TURN_VALUES),
    ("turn-bank", BANK_VALUES),
];

/// The index of `turn-bank` in [`GLOBAL_FEATURES`].
const TURN_BANK: u8 = 9;

/// Values of the `best-bank` feature: 0 to 31 seeds (more count as 31).
const BANK_VALUES: u16 = 32;

/// Values of the `extra-turns` feature: 0 to 7 moves (more count as 7).
const TURN_VALUES: u16 = 8;

/// The `+EXTRA` suffixes of set names and the global features each adds.
const EXTRAS: [(&str, &[&str]); 6] = [
    ("stores", &["store-difference"]),
    ("rows", &["row", "opponent-row"]),
    ("store-counts", &["store", "opponent-store"]),
    ("moves", &["best-bank", "extra-turns"]),
    ("threats", &["opponent-best-bank", "opponent-extra-turns"]),
    ("turn", &["turn-bank"]),
];

/// Bounds on the search of the mover's whole turn for `turn-bank`: how many extra turns
/// deep it follows, and how many positions it plays in all (chains of extra turns branch).
const TURN_DEPTH: u32 = 8;
const TURN_POSITIONS: u32 = 256;

/// The set the TD preset trains by default.
pub const DEFAULT_SET: &str = "triples+stores";

/// The names `--network ntuple:NAME` accepts for mancala games.
pub const TUPLE_SETS: [(&str, &str); 7] = [
    ("singles", "every pit alone"),
    (
        "pairs",
        "every pit alone, neighbouring pits of a row, and each pit with the pit facing it",
    ),
    (
        "triples",
        "pairs, and every three neighbouring pits of a row",
    ),
    (
        "quads",
        "triples, and every four neighbouring pits of a row",
    ),
    (
        "all-pairs",
        "every pit alone and every two pits of the board together",
    ),
    (
        "all-pairs-triples",
        "all-pairs, and every three neighbouring pits of a row",
    ),
    (
        "all-triples",
        "all-pairs, and every three pits of the board together",
    ),
];

/// The cells of `board` as `perspective` sees them (see the module notes).
pub fn read_cells(board: &Board, perspective: Player, out: &mut [u8]) {
    let pits = board.pits_per_side();
    for (k, side) in [perspective, perspective.opponent()]
        .into_iter()
        .enumerate()
    {
        for (cell, &seeds) in out[k * pits..(k + 1) * pits]
            .iter_mut()
            .zip(board.row(side))
        {
            *cell = seeds.min(STATES - 1);
        }
    }
}

/// The values of global features `sources` (indices into [`GLOBAL_FEATURES`]) of `game`
/// for `perspective`; the side to move's moves are played at most once, whichever features
/// need them.
pub fn global_features<R: Rules>(
    game: &Mancala<R>,
    perspective: Player,
    sources: &[u8],
) -> ArrayVec<u16, MAX_FEATURES> {
    let board = game.board();
    let opponent = perspective.opponent();
    // The whole turn's search starts with the very moves the effects play: one pass.
    let whole_turn = sources.contains(&TURN_BANK);
    let mut moves: Option<(MoveEffects, u16)> = None;
    let mut effects =
        || *moves.get_or_insert_with(|| MoveEffects::with_turn(game, perspective, whole_turn));
    let mut threats: Option<MoveEffects> = None;
    let mut opponent_effects =
        || *threats.get_or_insert_with(|| MoveEffects::if_to_move(game, perspective, opponent));
    sources
        .iter()
        .map(|&index| match index {
            0 => {
                let difference =
                    i32::from(board.store(perspective)) - i32::from(board.store(opponent));
                (difference.clamp(-63, 63) + 63) as u16
            }
            1 => board.row_total(perspective).min(99) as u16,
            2 => board.row_total(opponent).min(99) as u16,
            3 => u16::from(board.store(perspective).min(99)),
            4 => u16::from(board.store(opponent).min(99)),
            5 => effects().0.best_bank.min(BANK_VALUES - 1),
            6 => effects().0.extra_turns.min(TURN_VALUES - 1),
            7 => opponent_effects().best_bank.min(BANK_VALUES - 1),
            8 => opponent_effects().extra_turns.min(TURN_VALUES - 1),
            _ => effects().1.min(BANK_VALUES - 1),
        })
        .collect()
}

/// What the moves of the side to move do this turn, found by playing each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveEffects {
    /// The most seeds one move adds to the mover's store.
    pub best_bank: u16,
    /// The moves after which the mover moves again.
    pub extra_turns: u16,
}

impl MoveEffects {
    /// The effects of `perspective`'s moves in `game`: none when it is not to move (a
    /// network reads a position for its side to move) or the game is over.
    pub fn of<R: Rules>(game: &Mancala<R>, perspective: Player) -> MoveEffects {
        MoveEffects::with_turn(game, perspective, false).0
    }

    /// [`MoveEffects::of`], and with `whole_turn` the most seeds `perspective` banks over
    /// its whole turn, following its extra turns (bounded by [`TURN_DEPTH`] and
    /// [`TURN_POSITIONS`]; zero without `whole_turn`, or when it is not to move): each
    /// move is played once for both.
    fn with_turn<R: Rules>(
        game: &Mancala<R>,
        perspective: Player,
        whole_turn: bool,
    ) -> (MoveEffects, u16) {
        let mut effects = MoveEffects::default();
        if game.to_move() != perspective || game.outcome().is_some() {
            return (effects, 0);
        }
        let before = game.board().store(perspective);
        let (mut budget, mut best_store) = (TURN_POSITIONS, u16::from(before));
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        for &mv in moves.iter() {
            let child = game.after(mv);
            let store = child.board().store(perspective);
            effects.best_bank = effects
                .best_bank
                .max(u16::from(store.saturating_sub(before)));
            let again = child.outcome().is_none() && child.to_move() == perspective;
            if again {
                effects.extra_turns += 1;
            }
            if whole_turn && budget > 0 {
                budget -= 1;
                let reached = if again {
                    best_turn(&child, perspective, TURN_DEPTH - 1, &mut budget)
                } else {
                    u16::from(store)
                };
                best_store = best_store.max(reached);
            }
        }
        (effects, best_store.saturating_sub(before.into()))
    }

    /// The effects of `side`'s moves were it to move now in `game`'s position: none when
    /// `perspective`, for whom the network reads, is not to move, or the game is over.
    pub fn if_to_move<R: Rules>(
        game: &Mancala<R>,
        perspective: Player,
        side: Player,
    ) -> MoveEffects {
        if game.to_move() != perspective || game.outcome().is_some() {
            return MoveEffects::default();
        }
        let turned = Mancala::from_board(game.rules().clone(), *game.board(), side);
        MoveEffects::of(&turned, side)
    }
}

/// The highest store `mover` reaches by the end of its turn from `game`, where it is to move.
fn best_turn<R: Rules>(game: &Mancala<R>, mover: Player, depth: u32, budget: &mut u32) -> u16 {
    let mut best = u16::from(game.board().store(mover));
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    for &mv in moves.iter() {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let child = game.after(mv);
        let goes_on = child.outcome().is_none() && child.to_move() == mover && depth > 1;
        let reached = if goes_on {
            best_turn(&child, mover, depth - 1, budget)
        } else {
            u16::from(child.board().store(mover))
        };
        best = best.max(reached);
    }
    best
}

/// The tuple set called `name` for a board of `pits` pits a side, optionally followed by
/// `+stores` (the store difference), `+rows` (the seeds on each side) and/or
/// `+store-counts` (each store's count).
pub fn tuple_set(name: &str, pits: usize) -> Option<TupleSpec> {
    let (base, features) = split_set_name(name, &EXTRAS, &GLOBAL_FEATURES)?;
    let (runs, every) = match base {
        "singles" => (1, 1),
        "pairs" => (2, 1),
        "triples" => (3, 1),
        "quads" => (4, 1),
        "all-pairs" => (1, 2),
        "all-pairs-triples" => (3, 2),
        "all-triples" => (3, 3),
        _ => return None,
    };
    Some(TupleSpec {
        name: name.to_string(),
        states: STATES,
        tuples: tuples(pits, runs, every),
        features,
    })
}

/// Every set of up to `every` pits of the board, then runs of longer lengths up to `runs`
/// of neighbouring pits in each row and, when pairs are runs, each own pit with the
/// opponent's pit facing it (cell numbering as in [`read_cells`]). Pits far apart matter
/// together in relay sowing: where a sowing ends, and so whether it goes on, depends on
/// whether a pit many holes away is empty.
fn tuples(pits: usize, runs: usize, every: usize) -> Vec<Vec<u8>> {
    let mut tuples = Vec::new();
    for len in 1..=every {
        tuples.extend(subsets(2 * pits as u8, len));
    }
    for len in every + 1..=runs {
        for row in 0..2 {
            for first in 0..=pits.saturating_sub(len) {
                tuples.push(
                    (first..first + len)
                        .map(|p| (row * pits + p) as u8)
                        .collect(),
                );
            }
        }
    }
    if every < 2 && runs >= 2 {
        // Own pit p faces the opponent's pit pits − 1 − p (counted from the opponent's left).
        tuples.extend((0..pits).map(|p| vec![p as u8, (pits + pits - 1 - p) as u8]));
    }
    tuples
}

/// Every set of `len` cells out of `cells`, each in increasing order, in lexicographic order.
fn subsets(cells: u8, len: usize) -> Vec<Vec<u8>> {
    if len == 0 {
        return vec![Vec::new()];
    }
    subsets(cells, len - 1)
        .into_iter()
        .flat_map(|head| {
            let next = head.last().map_or(0, |&last| last + 1);
            (next..cells).map(move |cell| [head.as_slice(), &[cell]].concat())
        })
        .collect()
}
