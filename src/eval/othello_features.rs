//! The seven Othello features of seed 004 §2.4.4 (greedy, forfeit, mobility, stability,
//! frontier, corner, parity). Each is a difference "me minus opponent" seen from the
//! evaluated side, so positive always means good for that side.

use crate::games::othello::Othello;
use crate::games::othello::bitboard::{
    CORNERS, NOT_A_FILE, NOT_H_FILE, legal_moves, neighbours, shift,
};
use crate::games::{Game, Player};

/// What the features read, computed once per evaluation: both disc sets, both sides'
/// placement squares (move generation is the costly part, and three features need it),
/// and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    pub own: u64,
    pub opp: u64,
    pub own_moves: u64,
    pub opp_moves: u64,
    pub our_turn: bool,
}

impl Sides {
    /// The position as seen by `perspective`.
    pub fn new(game: &Othello, perspective: Player) -> Sides {
        let own = game.discs(perspective);
        let opp = game.discs(perspective.opponent());
        Sides {
            own,
            opp,
            own_moves: legal_moves(own, opp),
            opp_moves: legal_moves(opp, own),
            our_turn: game.to_move() == perspective,
        }
    }

    fn empties(&self) -> u64 {
        !(self.own | self.opp)
    }
}

/// Disc difference: the greedy "most discs wins" concept.
pub fn greedy(sides: &Sides) -> f32 {
    count(sides.own) - count(sides.opp)
}

/// +1 when the opponent would have to pass (has no placement) while we can place,
/// −1 in the reverse case, 0 otherwise (including when neither side can move).
pub fn forfeit(sides: &Sides) -> f32 {
    let (mine, theirs) = (sides.own_moves != 0, sides.opp_moves != 0);
    f32::from(i8::from(mine && !theirs) - i8::from(theirs && !mine))
}

/// Difference in the number of legal placements of each side.
pub fn mobility(sides: &Sides) -> f32 {
    count(sides.own_moves) - count(sides.opp_moves)
}

/// Difference in stable discs: discs that can never be flipped again (see [`stable_discs`]).
pub fn stability(sides: &Sides) -> f32 {
    count(stable_discs(sides.own, sides.opp)) - count(stable_discs(sides.opp, sides.own))
}

/// Opponent frontier discs minus own frontier discs (a frontier disc touches an empty
/// square). Fewer own frontier discs means fewer moves handed to the opponent.
pub fn frontier(sides: &Sides) -> f32 {
    let open = neighbours(sides.empties());
    count(sides.opp & open) - count(sides.own & open)
}

/// Difference in occupied corners.
pub fn corner(sides: &Sides) -> f32 {
    count(sides.own & CORNERS) - count(sides.opp & CORNERS)
}

/// Region parity. The empty squares split into regions (8-connected). In a region with an
/// odd number of empties, whoever moves into it first can expect the last move there.
/// Each odd region scores +1 if only we can place in it, −1 if only the opponent can,
/// and, if both can, +1 when it is our turn and −1 when it is theirs. Even regions and
/// regions nobody can enter score 0.
pub fn parity(sides: &Sides) -> f32 {
    empty_regions(sides.empties())
        .filter(|region| region.count_ones() % 2 == 1)
        .map(
            |region| match (sides.own_moves & region != 0, sides.opp_moves & region != 0) {
                (true, false) => 1.0,
                (false, true) => -1.0,
                (true, true) if sides.our_turn => 1.0,
                (true, true) => -1.0,
                (false, false) => 0.0,
            },
        )
        .sum()
}

fn count(bits: u64) -> f32 {
    bits.count_ones() as f32
}

/// The connected (8-neighbour) regions of `empties`, each as a bitboard.
pub fn empty_regions(mut empties: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if empties == 0 {
            return None;
        }
        let mut region = empties & empties.wrapping_neg();
        loop {
            let grown = (region | neighbours(region)) & empties;
            if grown == region {
                break;
            }
            region = grown;
        }
        empties &= !region;
        Some(region)
    })
}

/// The two directions (compass indices of [`shift`]) of each of the four lines through a
/// square: horizontal, vertical and the two diagonals.
const AXES: [(usize, usize); 4] = [(0, 1), (2, 3), (4, 7), (5, 6)];

/// Squares whose neighbour on at least one side of the axis is off the board.
const AXIS_EDGES: [u64; 4] = [
    !(NOT_A_FILE & NOT_H_FILE),
    0xff00_0000_0000_00ff,
    0xff81_8181_8181_81ff,
    0xff81_8181_8181_81ff,
];

/// Squares whose whole line along `axis` is occupied: no disc there can be flipped along it.
fn full_lines(occupied: u64, (forward, backward): (usize, usize)) -> u64 {
    let empty = !occupied;
    let (mut ahead, mut behind) = (empty, empty);
    for _ in 0..7 {
        ahead |= shift(ahead, forward);
        behind |= shift(behind, backward);
    }
    !(ahead | behind)
}

/// Discs of `own` that can never be flipped, computed as a fixed point: a disc is stable when
/// on each of the four lines through it either the line is full, or a neighbour along it is
/// off the board or an own stable disc. This finds every corner-anchored and full-line stable
/// disc (a sound lower bound of true stability, the usual engine definition).
pub fn stable_discs(own: u64, opp: u64) -> u64 {
    let occupied = own | opp;
    let anchored: [u64; 4] = std::array::from_fn(|a| full_lines(occupied, AXES[a]) | AXIS_EDGES[a]);
    let mut stable = 0;
    loop {
        let mut next = own;
        for (a, &(forward, backward)) in AXES.iter().enumerate() {
            next &= anchored[a] | shift(stable, forward) | shift(stable, backward);
        }
        if next == stable {
            return stable;
        }
        stable = next;
    }
}
