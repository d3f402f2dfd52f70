//! What a measure's values over seeds say: mean, spread and a 95% interval, and whether
//! two variants differ beyond noise.
//!
//! Intervals use Student's t, and comparisons Welch's t test (Welch, "The generalization
//! of 'Student's' problem when several different population variances are involved",
//! 1947): with the 5–10 seeds an experiment can afford, a bootstrap's resamples are too
//! few distinct sets to trust its tails, and Welch's test does not assume two variants
//! vary alike (a learner that sometimes fails varies more than one that never does).

use serde::Serialize;

use super::distributions::{student_t_cdf, student_t_quantile};

/// The values of one measure over seeds: count, mean, sample standard deviation and the
/// 95% confidence interval of the mean (t with n − 1 degrees of freedom; none for n < 2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

impl Summary {
    /// Summarises `values` (none: `None`).
    pub fn of(values: &[f64]) -> Option<Summary> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let (sd, half) = if n < 2 {
            (0.0, f64::NAN)
        } else {
            let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let sd = variance.sqrt();
            let t = student_t_quantile(0.975, (n - 1) as f64);
            (sd, t * sd / (n as f64).sqrt())
        };
        Some(Summary {
            n,
            mean,
            sd,
            ci_low: mean - half,
            ci_high: mean + half,
        })
    }

    /// Squared standard error of the mean.
    fn variance_of_mean(&self) -> f64 {
        self.sd * self.sd / self.n as f64
    }
}

/// A variant against the baseline: the difference of means (variant − baseline), its
/// 95% interval and the two-sided p-value of Welch's t test.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub difference: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub p_value: f64,
    /// Welch–Satterthwaite degrees of freedom.
    pub df: f64,
}

impl Comparison {
    /// `variant` against `baseline`; `None` when either has fewer than two values.
    /// Two samples without any spread differ surely when their means do (p = 0) and not
    /// at all when they agree (p = 1).
    pub fn welch(variant: &Summary, baseline: &Summary) -> Option<Comparison> {
        if variant.n < 2 || baseline.n < 2 {
            return None;
        }
        let difference = variant.mean - baseline.mean;
        let (va, vb) = (variant.variance_of_mean(), baseline.variance_of_mean());
        let error = (va + vb).sqrt();
        if error == 0.0 {
            let p_value = if difference == 0.0 { 1.0 } else { 0.0 };
            return Some(Comparison {
                difference,
                ci_low: difference,
                ci_high: difference,
                p_value,
                df: (variant.n + baseline.n - 2) as f64,
            });
        }
        let df = (va + vb).powi(2)
            / (va * va / (variant.n - 1) as f64 + vb * vb / (baseline.n - 1) as f64);
        let t = difference / error;
        let half = student_t_quantile(0.975, df) * error;
        Some(Comparison {
            difference,
            ci_low: difference - half,
            ci_high: difference + half,
            p_value: 2.0 * (1.0 - student_t_cdf(t.abs(), df)),
            df,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_has_the_t_interval_of_its_mean() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!((s.n, s.mean), (5, 3.0));
        assert!((s.sd - 2.5f64.sqrt()).abs() < 1e-12);
        // t(0.975, 4) = 2.776445…; sd/√n = √0.5.
        let half = 2.776_445_105_197_793 * 0.5f64.sqrt();
        assert!((s.ci_high - (3.0 + half)).abs() < 1e-9, "{s:?}");
        assert!((s.ci_low - (3.0 - half)).abs() < 1e-9, "{s:?}");
        let one = Summary::of(&[0.7]).unwrap();
        assert_eq!((one.mean, one.sd), (0.7, 0.0));
        assert!(one.ci_low.is_nan());
        assert_eq!(Summary::of(&[]), None);
    }

    #[test]
    fn welch_matches_a_worked_example() {
        // Computed independently (SciPy's ttest_ind with equal_var=False):
        // t = −2.656445, df = 7.482864, p = 0.030725; t(0.975, df) = 2.334041.
        let a = Summary::of(&[19.0, 22.0, 16.0, 29.0, 24.0]).unwrap();
        let b = Summary::of(&[20.0, 11.0, 17.0, 12.0, 13.0]).unwrap();
        let c = Comparison::welch(&b, &a).unwrap();
        assert!((c.difference - (-7.4)).abs() < 1e-12);
        let t = c.difference / (a.variance_of_mean() + b.variance_of_mean()).sqrt();
        assert!((t - (-2.656_445)).abs() < 1e-6, "{t}");
        assert!((c.df - 7.482_864).abs() < 1e-6, "{c:?}");
        assert!((c.p_value - 0.030_725).abs() < 1e-6, "{c:?}");
        let half = 2.334_041 * 7.76f64.sqrt();
        assert!((c.ci_low - (-7.4 - half)).abs() < 1e-5, "{c:?}");
        let same = Comparison::welch(&a, &a).unwrap();
        assert!((same.p_value - 1.0).abs() < 1e-12);
    }
}
