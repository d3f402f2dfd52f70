//! The last few empties: no table, no move list, no ordering beyond parity. A position
//! this close to the end is searched faster than it could be looked up.

use super::last_flip::last_flip_count;
use crate::games::othello::bitboard::{flips, legal_moves, squares};

/// From this many empties down, positions are searched here.
pub(super) const SHALLOW_EMPTIES: u32 = 6;

/// `NEIGHBOURS[square]`: the squares next to `square`. A placement flips nothing unless
/// an opponent disc is among them, so most empty squares are ruled out with one test.
static NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = (square as i32 / 8, square as i32 % 8);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r, c) = (row + dr, col + dc);
                if (dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 {
                    table[square] |= 1u64 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        square += 1;
    }
    table
};

/// Board quarters: parity ordering plays first in those with an odd number of empties.
const QUARTERS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// `QUARTER_BIT[square]`: the parity bit of the square's quarter.
static QUARTER_BIT: [u8; 64] = {
    let mut bits = [0u8; 64];
    let mut square = 0;
    while square < 64 {
        bits[square] = 1 << ((square / 32) * 2 + (square % 8) / 4);
        square += 1;
    }
    bits
};

/// `ODD_SQUARES[parity]`: the squares of the quarters whose bit is set in `parity`.
static ODD_SQUARES: [u64; 16] = {
    let mut masks = [0u64; 16];
    let mut parity = 0;
    while parity < 16 {
        let mut quarter = 0;
        while quarter < 4 {
            if parity >> quarter & 1 == 1 {
                masks[parity] |= QUARTERS[quarter];
            }
            quarter += 1;
        }
        parity += 1;
    }
    masks
};

/// The quarters with an odd number of empties, one bit each: playing a square flips its
/// quarter's bit, so the search keeps it up to date with one XOR.
pub(super) fn parity(empty: u64) -> u8 {
    (0..4).fold(0, |acc, quarter| {
        acc | (((empty & QUARTERS[quarter]).count_ones() % 2) as u8) << quarter
    })
}

/// The empty squares of quarters holding an odd number of them.
#[inline]
pub(super) fn odd_squares(empty: u64) -> u64 {
    ODD_SQUARES[usize::from(parity(empty))] & empty
}

/// The flips of a move to `square` by the owner of `own`, with the cheap test first.
#[inline(always)]
fn try_flips(own: u64, opp: u64, square: u32) -> u64 {
    if NEIGHBOURS[square as usize] & opp == 0 {
        0
    } else {
        flips(own, opp, square)
    }
}

/// The final disc difference for the owner of `own` when the game ends here: the empty
/// squares go to the winner.
pub(super) fn final_margin(own: u64, opp: u64) -> i32 {
    let (mine, theirs) = (own.count_ones() as i32, opp.count_ones() as i32);
    let empty = 64 - mine - theirs;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empty,
        std::cmp::Ordering::Less => mine - theirs - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The null-window search of the last few empties: the value for the owner of `own` if
/// it is at most `alpha` (or a bound at most `alpha`), else a bound above `alpha`
/// (fail-soft). `parity` is [`parity`] of the empties; `nodes` counts the positions.
pub(super) fn shallow(own: u64, opp: u64, alpha: i32, parity: u8, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let empty = !(own | opp);
    match empty.count_ones() {
        2 => {
            let first = empty.trailing_zeros();
            return last_two(
                own,
                opp,
                alpha,
                first,
                (empty & (empty - 1)).trailing_zeros(),
                nodes,
            );
        }
        3 => return last_three(own, opp, alpha, parity, empty, nodes),
        _ => {}
    }
    let child = |own, opp, square: u32, nodes: &mut u64| {
        shallow(
            own,
            opp,
            -alpha - 1,
            parity ^ QUARTER_BIT[square as usize],
            nodes,
        )
    };
    in_parity_order(own, opp, alpha, parity, empty, nodes, child)
}

/// [`shallow`] with the three empty squares of `empty`, in parity order, each move's
/// two-empties position searched at once.
fn last_three(own: u64, opp: u64, alpha: i32, parity: u8, empty: u64, nodes: &mut u64) -> i32 {
    let child = |own, opp, square: u32, nodes: &mut u64| {
        *nodes += 1;
        let rest = empty & !(1 << square);
        let (first, last) = (rest.trailing_zeros(), 63 - rest.leading_zeros());
        last_two(own, opp, -alpha - 1, first, last, nodes)
    };
    in_parity_order(own, opp, alpha, parity, empty, nodes, child)
}

/// The moves to the squares of `empty` by the owner of `own`, those in odd quarters first
/// (`parity`, see [`parity`]), each valued by `child` from the position it leaves (the
/// opponent's discs first, and the square played): the fail-soft null-window value above
/// `alpha` as in [`shallow`], or with no move the value after a pass or at the end. Inlined
/// into each caller, so that its `child` is too.
#[inline(always)]
fn in_parity_order(
    own: u64,
    opp: u64,
    alpha: i32,
    parity: u8,
    empty: u64,
    nodes: &mut u64,
    child: impl Fn(u64, u64, u32, &mut u64) -> i32,
) -> i32 {
    let odd = ODD_SQUARES[usize::from(parity)] & empty;
    let mut best = -65;
    for square in squares(odd).chain(squares(empty & !odd)) {
        let flipped = try_flips(own, opp, square);
        if flipped == 0 {
            continue;
        }
        let value = -child(opp & !flipped, own | flipped | 1 << square, square, nodes);
        if value > best {
            best = value;
            if value > alpha {
                return value;
            }
        }
    }
    if best > -65 {
        best
    } else if legal_moves(opp, own) == 0 {
        final_margin(own, opp)
    } else {
        -shallow(opp, own, -alpha - 1, parity, nodes)
    }
}

/// [`shallow`] with the two empty squares `a` and `b`: each side's moves written out.
fn last_two(own: u64, opp: u64, alpha: i32, a: u32, b: u32, nodes: &mut u64) -> i32 {
    let mut best = -65;
    for (square, other) in [(a, b), (b, a)] {
        let flipped = try_flips(own, opp, square);
        if flipped != 0 {
            *nodes += 1;
            let value = -last_one(opp & !flipped, own | flipped | 1 << square, other);
            if value > alpha {
                return value;
            }
            best = best.max(value);
        }
    }
    if best > -65 {
        return best;
    }
    // A pass: the opponent plays, if they can, to the lowest value.
    let mut worst = 65;
    for (square, other) in [(a, b), (b, a)] {
        let flipped = try_flips(opp, own, square);
        if flipped != 0 {
            *nodes += 1;
            let value = last_one(own & !flipped, opp | flipped | 1 << square, other);
            if value <= alpha {
                return value;
            }
            worst = worst.min(value);
        }
    }
    if worst < 65 {
        worst
    } else {
        final_margin(own, opp)
    }
}

/// The exact value of a position with one empty `square` for the owner of `own`: they
/// play it if they can, else the opponent does if they can, else the game ends. The
/// flips are only counted ([`last_flip_count`]).
#[inline]
pub(super) fn last_one(own: u64, opp: u64, square: u32) -> i32 {
    // 63 discs: the margin before the move is own − opp = 2 own − 63.
    let margin = 2 * own.count_ones() as i32 - 63;
    let mine = last_flip_count(own, square);
    if mine > 0 {
        return margin + 2 * mine + 1;
    }
    let theirs = last_flip_count(opp, square);
    if theirs > 0 {
        return margin - 2 * theirs - 1;
    }
    final_margin(own, opp)
}
