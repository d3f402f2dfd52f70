//! Othello bitboards: bit `row * 8 + col` is the square at column `a + col`, row `1 + row`,
//! so bit 0 is a1, bit 7 is h1 and bit 63 is h8.

/// Every square except the a-file: the squares a shift towards h may land on.
pub const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square except the h-file: the squares a shift towards a may land on.
pub const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The four corners a1, h1, a8, h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The eight compass directions as (left shift amount, mask applied after shifting);
/// a negative amount shifts right. The mask drops squares that wrapped around a board edge.
const DIRECTIONS: [(i32, u64); 8] = [
    (1, NOT_A_FILE),  // towards h
    (-1, NOT_H_FILE), // towards a
    (8, u64::MAX),    // towards row 8
    (-8, u64::MAX),   // towards row 1
    (9, NOT_A_FILE),  // towards h8
    (7, NOT_H_FILE),  // towards a8
    (-7, NOT_A_FILE), // towards h1
    (-9, NOT_H_FILE), // towards a1
];

/// Moves every disc of `bits` one square in direction `dir` (an index into the compass).
#[inline(always)]
pub fn shift(bits: u64, dir: usize) -> u64 {
    let (amount, mask) = DIRECTIONS[dir];
    let moved = if amount > 0 {
        bits << amount
    } else {
        bits >> -amount
    };
    moved & mask
}

/// The squares adjacent (in any of the eight directions) to some square of `bits`.
#[inline]
pub fn neighbours(bits: u64) -> u64 {
    (0..8).fold(0, |acc, dir| acc | shift(bits, dir))
}

/// Legal move squares for the side owning `own` against `opp` (empty ⇒ that side must pass
/// or the game is over). Each direction is a branch-free flood fill over opponent discs.
#[inline]
pub fn legal_moves(own: u64, opp: u64) -> u64 {
    let empty = !(own | opp);
    let mut moves = 0;
    for dir in 0..8 {
        let mut run = shift(own, dir) & opp;
        // A line holds at most six opponent discs between the mover and the empty square.
        run |= shift(run, dir) & opp;
        run |= shift(run, dir) & opp;
        run |= shift(run, dir) & opp;
        run |= shift(run, dir) & opp;
        run |= shift(run, dir) & opp;
        moves |= shift(run, dir) & empty;
    }
    moves
}

/// The opponent discs flipped when the side owning `own` plays on square `square`.
#[inline]
pub fn flips(own: u64, opp: u64, square: u32) -> u64 {
    let placed = 1u64 << square;
    let mut flipped = 0;
    for dir in 0..8 {
        let mut line = 0;
        let mut cursor = shift(placed, dir);
        while cursor & opp != 0 {
            line |= cursor;
            cursor = shift(cursor, dir);
        }
        if cursor & own != 0 {
            flipped |= line;
        }
    }
    flipped
}

/// Iterates over the indices of the set bits, lowest first.
pub fn squares(mut bits: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let square = bits.trailing_zeros();
            bits &= bits - 1;
            Some(square)
        }
    })
}
