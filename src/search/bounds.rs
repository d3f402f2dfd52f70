//! Bounds on a position's exact value, as the exact solvers (Othello endgames, Kalah) keep
//! them in their tables: what stored bounds make of a search window, and what a fail-soft
//! search with a given window proves.

/// Stored bounds `lower..=upper` against the window (`alpha`, `beta`): `Err(value)` when they
/// settle the search (the fail-soft value to return), else the window narrowed to them.
pub(crate) fn narrow(lower: i32, upper: i32, alpha: i32, beta: i32) -> Result<(i32, i32), i32> {
    if lower >= beta || lower == upper {
        return Err(lower);
    }
    if upper <= alpha {
        return Err(upper);
    }
    Ok((alpha.max(lower), beta.min(upper)))
}

/// The bounds `known` becomes once a fail-soft search with window `searched` returned
/// `value`: an upper bound at or below the window, a lower bound at or above it, the exact
/// value inside it; what was known before still holds.
pub(crate) fn proven(value: i32, searched: (i32, i32), known: (i32, i32)) -> (i32, i32) {
    let (lower, upper) = match value {
        v if v <= searched.0 => (known.0, v),
        v if v >= searched.1 => (v, known.1),
        v => (v, v),
    };
    (lower.max(known.0), upper.min(known.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_settle_or_narrow_a_window() {
        assert_eq!(narrow(4, 9, 0, 4), Err(4));
        assert_eq!(narrow(3, 3, 0, 10), Err(3));
        assert_eq!(narrow(-5, 2, 2, 8), Err(2));
        assert_eq!(narrow(-5, 6, 0, 8), Ok((0, 6)));
        assert_eq!(proven(1, (2, 5), (-9, 9)), (-9, 1));
        assert_eq!(proven(1, (2, 5), (0, 9)), (0, 1));
        assert_eq!(proven(7, (2, 5), (-9, 9)), (7, 9));
        assert_eq!(proven(3, (2, 5), (-9, 9)), (3, 3));
    }
}
