//! The seven Othello features of the Othello ENN paper §2.4.4 (greedy, forfeit, mobility,
//! stability, frontier, corner, parity). Each is a difference "me minus opponent" seen from the
//! evaluated side, so positive always means good for that side.

use crate::games::othello::Othello;
use crate::games::othello::bitboard::{CORNERS, legal_moves, neighbours};
use crate::games::othello::stability::{full_lines, stable_discs};
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

/// Difference in stable discs, discs that can never be flipped again: those anchored by
/// corners, edges and full lines ([`stable_discs`]), a sound lower bound of true
/// stability and the usual engine definition.
pub fn stability(sides: &Sides) -> f32 {
    let full = full_lines(sides.own | sides.opp);
    count(stable_discs(sides.own, &full)) - count(stable_discs(sides.opp, &full))
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
