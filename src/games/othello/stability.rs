//! Stable discs: discs no move can ever flip. The heuristic's stability feature counts
//! them and the endgame solver's stability cut-off bounds the final margin by them; both
//! use this one definition.

use super::bitboard::{NOT_A_FILE, NOT_H_FILE};

/// The discs of `discs` that can never be flipped, a subset found by the usual fixed
/// point: a disc is stable when along each of the four lines through it, the line is
/// full, or one neighbour on the line is the board's edge or a stable disc of the same
/// colour. `full` is [`full_lines`] of the occupied squares, which both sides share.
pub fn stable_discs(discs: u64, full: &[u64; 4]) -> u64 {
    let mut stable = 0u64;
    loop {
        let across =
            full[0] | EDGE_FILES | ((stable << 1) & NOT_A_FILE) | ((stable >> 1) & NOT_H_FILE);
        let down = full[1] | EDGE_ROWS | (stable << 8) | (stable >> 8);
        let diagonal = full[2] | EDGE | ((stable << 9) & NOT_A_FILE) | ((stable >> 9) & NOT_H_FILE);
        let anti = full[3] | EDGE | ((stable << 7) & NOT_H_FILE) | ((stable >> 7) & NOT_A_FILE);
        let next = stable | (discs & across & down & diagonal & anti);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The a- and h-files, rows 1 and 8, and the whole rim.
const EDGE_FILES: u64 = 0x8181_8181_8181_8181;
const EDGE_ROWS: u64 = 0xff00_0000_0000_00ff;
const EDGE: u64 = EDGE_FILES | EDGE_ROWS;

/// The squares on full rows, full columns, full a1–h8 diagonals and full h1–a8 diagonals
/// of `occupied`: those no empty square shares that line with, found by spreading the
/// empty squares along each line both ways (in three doubling steps a way).
pub fn full_lines(occupied: u64) -> [u64; 4] {
    let empty = !occupied;
    // (bit distance of one step along the line, squares a step towards higher bits may
    // land on, squares a step towards lower bits may land on)
    const LINES: [(u32, u64, u64); 4] = [
        (1, NOT_A_FILE, NOT_H_FILE),
        (8, u64::MAX, u64::MAX),
        (9, NOT_A_FILE, NOT_H_FILE),
        (7, NOT_H_FILE, NOT_A_FILE),
    ];
    LINES.map(|(step, up_mask, down_mask)| {
        let (mut up, mut down) = (empty, empty);
        let (mut up_reach, mut down_reach) = (up_mask, down_mask);
        let mut stride = step;
        for _ in 0..3 {
            up |= up_reach & (up << stride);
            down |= down_reach & (down >> stride);
            up_reach &= up_reach << stride;
            down_reach &= down_reach >> stride;
            stride *= 2;
        }
        !(up | down)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;
    use rand::RngExt;

    /// Every row, column, a1–h8 diagonal and h1–a8 diagonal, as square masks.
    fn lines_by_kind() -> [[u64; 15]; 4] {
        let mut lines = [[0u64; 15]; 4];
        for square in 0..64 {
            let (row, col) = (square / 8, square % 8);
            let bit = 1u64 << square;
            lines[0][row] |= bit;
            lines[1][col] |= bit;
            lines[2][7 + col - row] |= bit;
            lines[3][row + col] |= bit;
        }
        lines
    }

    #[test]
    fn full_lines_are_those_without_an_empty_square() {
        let lines = lines_by_kind();
        let mut rng = rng_for(2026, &[65]);
        for _ in 0..5000 {
            // Few empties, as in an endgame, so that many lines are full.
            let mut occupied = u64::MAX;
            for _ in 0..rng.random_range(0..20) {
                occupied &= !(1 << rng.random_range(0..64));
            }
            let full = full_lines(occupied);
            for (kind, lines) in lines.iter().enumerate() {
                let expected = lines
                    .iter()
                    .filter(|&&line| occupied & line == line)
                    .fold(0, |acc, line| acc | line);
                assert_eq!(full[kind], expected, "kind {kind}, occupied {occupied:#x}");
            }
        }
    }
}
