//! The flips of the last move of a game, counted without finding them. With one empty
//! square left, every other square of its four lines holds a disc, so a side's flips on a
//! line depend only on which of the line's squares are its own: eight bits, looked up in
//! a table of 256 counts for each place of the empty square along the line.

use crate::games::othello::bitboard::{A_FILE, DIAGONALS};
use crate::games::othello::line_flips::line_flips;

/// `COUNTS[place][line]`: the discs flipped along a full line of 8 squares by a move on
/// square `place`, where the set bits of `line` are the mover's and the others the
/// opponent's. A line shorter than 8 (a diagonal) has opponent bits for its missing
/// squares, all at one end: a run into them meets no own disc and flips nothing, as
/// off the board.
static COUNTS: [[u8; 256]; 8] = {
    let mut counts = [[0u8; 256]; 8];
    let mut place = 0;
    while place < 8 {
        let mut line = 0;
        while line < 256 {
            let opp = !(line as u8) & !(1 << place);
            counts[place][line] = line_flips(line as u8, opp, place).count_ones() as u8;
            line += 1;
        }
        place += 1;
    }
    counts
};

/// The discs a move on `square` flips for the owner of `own`, when `square` is the only
/// empty square of the board: the sum over its row, column and two diagonals of
/// [`COUNTS`], each line's own discs gathered into eight bits by a multiplication (a
/// row's by a shift). Zero when the move is not legal.
#[inline]
pub(super) fn last_flip_count(own: u64, square: u32) -> i32 {
    let (row, col) = (square / 8, square % 8);
    let [diagonal, anti] = DIAGONALS[square as usize];
    let by_file = |line: u64| (line.wrapping_mul(A_FILE) >> 56) as usize;
    let across = (own >> (8 * row)) as u8 as usize;
    // The column's bit of row r goes to bit 56 + r.
    let down = (((own >> col) & A_FILE).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let (col, row) = (col as usize, row as usize);
    i32::from(COUNTS[col][across])
        + i32::from(COUNTS[row][down])
        + i32::from(COUNTS[col][by_file(own & diagonal)])
        + i32::from(COUNTS[col][by_file(own & anti)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::bitboard::flips;
    use crate::rng::rng_for;
    use rand::RngExt;

    #[test]
    fn counts_the_flips_of_the_last_move_on_every_square() {
        let mut rng = rng_for(2026, &[64]);
        for _ in 0..2000 {
            let square = rng.random_range(0..64u32);
            // Own discs dense or sparse, so that long runs both ways occur.
            let density = rng.random_range(1..8);
            let mut own = 0u64;
            for bit in 0..64 {
                if rng.random_range(0..8) < density {
                    own |= 1 << bit;
                }
            }
            own &= !(1 << square);
            let opp = !own & !(1 << square);
            for (mover, other) in [(own, opp), (opp, own)] {
                assert_eq!(
                    last_flip_count(mover, square),
                    flips(mover, other, square).count_ones() as i32,
                    "square {square}, own {mover:#x}"
                );
            }
        }
    }
}
