//! The stability cut-off: the opponent's stable discs, which no move can ever flip,
//! bound the final margin.

use crate::games::othello::stability::{full_lines, stable_discs};

/// The stability cut-off of a null-window search that asks whether the value exceeds
/// `alpha`: the opponent's stable discs cap the final margin of the owner of `own` at
/// 64 − 2 × stable, and a cap at most `alpha` fails low at once. Stability is only
/// computed when such a cap could be low enough.
#[inline]
pub(super) fn stability_cutoff(own: u64, opp: u64, alpha: i32) -> Option<i32> {
    // Even if every opponent disc were stable the cap would not reach alpha.
    if 64 - 2 * opp.count_ones() as i32 > alpha {
        return None;
    }
    let cap = 64 - 2 * stable_discs(opp, &full_lines(own | opp)).count_ones() as i32;
    (cap <= alpha).then_some(cap)
}
