//! Flips by whole lines: on one line of up to eight squares held as two bytes (own and
//! opponent discs), two small tables give the flipped squares. With BMI2's bit gather
//! and scatter, each line through a square (column and both diagonals; the row is a
//! shift) becomes such a byte and back, which [`super::bitboard::flips`] uses when the
//! build has BMI2; the endgame solver's count of the last move's flips is tabled from
//! the same line flips on any processor.

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
use super::bitboard::{A_FILE, DIAGONALS};
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
use std::arch::x86_64::{_pdep_u64, _pext_u64};

/// `OUTFLANK[p][opp]`: on an 8-square line whose square `p` is played, the squares just
/// beyond each run of opponent discs next to `p` (one each side, if the run is not
/// empty). A placement flips a run if the square beyond it holds an own disc.
static OUTFLANK: [[u8; 256]; 8] = build_outflank();

/// `BETWEEN[p][ends]`: the squares strictly between `p` and each square of `ends`.
static BETWEEN: [[u8; 256]; 8] = build_between();

/// Per square: the masks of its column, diagonal and anti-diagonal, and its place (bit
/// index after gathering) on its row and on each of those lines.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
static LINES: [([u64; 3], [u8; 4]); 64] = build_lines();

const fn build_outflank() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut opp = 0;
        while opp < 256 {
            let mut ends = 0u8;
            let mut q = p + 1;
            while q < 8 && opp >> q & 1 == 1 {
                q += 1;
            }
            if q > p + 1 && q < 8 {
                ends |= 1 << q;
            }
            let mut q = p as i32 - 1;
            while q >= 0 && opp >> q & 1 == 1 {
                q -= 1;
            }
            if q < p as i32 - 1 && q >= 0 {
                ends |= 1 << q;
            }
            table[p][opp] = ends;
            opp += 1;
        }
        p += 1;
    }
    table
}

const fn build_between() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut ends = 0;
        while ends < 256 {
            let mut between = 0u8;
            let mut q = 0;
            while q < 8 {
                if ends >> q & 1 == 1 {
                    let (low, high) = if q < p { (q, p) } else { (p, q) };
                    let mut s = low + 1;
                    while s < high {
                        between |= 1 << s;
                        s += 1;
                    }
                }
                q += 1;
            }
            table[p][ends] = between;
            ends += 1;
        }
        p += 1;
    }
    table
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
const fn build_lines() -> [([u64; 3], [u8; 4]); 64] {
    let mut lines = [([0u64; 3], [0u8; 4]); 64];
    let mut square = 0;
    while square < 64 {
        let [diagonal, anti] = DIAGONALS[square];
        let masks = [A_FILE << (square % 8), diagonal, anti];
        let below = (1u64 << square) - 1;
        lines[square] = (
            masks,
            [
                (square % 8) as u8,
                (masks[0] & below).count_ones() as u8,
                (masks[1] & below).count_ones() as u8,
                (masks[2] & below).count_ones() as u8,
            ],
        );
        square += 1;
    }
    lines
}

/// The squares flipped along one line (bit `i` the line's `i`-th square) by a move on
/// its square `place`, given the line's own discs `own` and opponent discs `opp`.
#[inline(always)]
pub const fn line_flips(own: u8, opp: u8, place: usize) -> u8 {
    BETWEEN[place][(OUTFLANK[place][opp as usize] & own) as usize]
}

/// The opponent discs flipped when the side owning `own` plays on `square`.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline]
pub fn flips(own: u64, opp: u64, square: u32) -> u64 {
    let (masks, places) = &LINES[square as usize];
    let shift = square & !7;
    let line = |own: u64, opp: u64, place: u8| {
        u64::from(line_flips(own as u8, opp as u8, usize::from(place)))
    };
    let mut flipped = line(own >> shift, opp >> shift, places[0]) << shift;
    for (&mask, &place) in masks.iter().zip(&places[1..]) {
        // SAFETY: this function is compiled only when the build targets BMI2.
        unsafe {
            let gathered = line(_pext_u64(own, mask), _pext_u64(opp, mask), place);
            flipped |= _pdep_u64(gathered, mask);
        }
    }
    flipped
}
