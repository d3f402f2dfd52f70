//! Holm's step-down adjustment of p-values (Holm, "A simple sequentially rejective
//! multiple test procedure", 1979). A plan that compares nine variants with a baseline on
//! three measures makes 24 tests: at 5% each, one "significant" difference is expected by
//! chance alone. Holm's adjusted p-values keep the chance of any false finding among them
//! at the level read off, and assume nothing about how the tests depend on each other.

/// The Holm-adjusted p-values of `p_values`, in their order: the k-th smallest of m is
/// multiplied by m − k + 1, capped at 1, and made no smaller than those before it.
/// A NaN stays NaN and takes no part.
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p_values.len())
        .filter(|&k| !p_values[k].is_nan())
        .collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let m = order.len();
    let mut adjusted = vec![f64::NAN; p_values.len()];
    let mut running = 0.0f64;
    for (rank, &k) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p_values[k]).min(1.0));
        adjusted[k] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::holm;

    #[test]
    fn holm_multiplies_by_the_tests_left_and_keeps_the_order() {
        // Sorted 0.01, 0.02, 0.03, 0.04 of four: ×4, ×3, ×2, ×1 = 0.04, 0.06, 0.06, 0.04,
        // then made non-decreasing: 0.04, 0.06, 0.06, 0.06.
        let adjusted = holm(&[0.03, 0.01, 0.04, 0.02]);
        let expected = [0.06, 0.04, 0.06, 0.06];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!((a - e).abs() < 1e-12, "{adjusted:?}");
        }
    }

    #[test]
    fn holm_caps_at_one_and_leaves_a_lone_test_alone() {
        assert_eq!(holm(&[0.4, 0.5, 0.9]), vec![1.0, 1.0, 1.0]);
        assert_eq!(holm(&[0.037]), vec![0.037]);
        assert!(holm(&[]).is_empty());
        let with_nan = holm(&[0.01, f64::NAN, 0.02]);
        assert_eq!((with_nan[0], with_nan[2]), (0.02, 0.02));
        assert!(with_nan[1].is_nan());
    }
}
