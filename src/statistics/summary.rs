//! What a measure's values over seeds say: mean, spread and a 95% interval, and whether
//! two variants differ beyond noise.
//!
//! Intervals use Student's t: with the 5–10 seeds an experiment can afford, a bootstrap's
//! resamples are too few distinct sets to trust its tails. Two variants run on the same
//! seeds are not independent samples (they share openings, founders and, where one
//! continues the other's runs, whole histories), so they are compared paired: the
//! per-seed differences, with a one-sample t test. Welch's t test (Welch, "The
//! generalization of 'Student's' problem when several different population variances are
//! involved", 1947) is kept for runs that share no seeds; it does not assume two variants
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

/// Which test a [`Comparison`] made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Test {
    /// Paired t test on per-seed differences (runs that share seeds).
    Paired,
    /// Welch's t test (independent runs).
    Welch,
}

impl Test {
    /// The test's name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Test::Paired => "paired t",
            Test::Welch => "Welch t",
        }
    }
}

/// A variant against the baseline: the difference of means (variant − baseline), its
/// 95% interval and the two-sided p-value of the test that fits how the runs were made.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub difference: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub p_value: f64,
    /// Degrees of freedom: pairs − 1 (paired), Welch–Satterthwaite's (Welch).
    pub df: f64,
    pub test: Test,
    /// Seeds both sides ran on (paired); 0 for Welch's test.
    pub pairs: usize,
}

impl Comparison {
    /// The paired comparison of `variant` with `baseline`, given as (seed, value) each:
    /// the mean of the differences over the seeds both have, its t interval and the
    /// two-sided p of the one-sample t test; `None` with fewer than two shared seeds.
    /// Differences without any spread differ surely when they are not zero (p = 0) and
    /// not at all when they are (p = 1).
    pub fn paired(variant: &[(u64, f64)], baseline: &[(u64, f64)]) -> Option<Comparison> {
        let differences: Vec<f64> = variant
            .iter()
            .filter_map(|&(seed, value)| {
                baseline
                    .iter()
                    .find(|&&(other, _)| other == seed)
                    .map(|&(_, base)| value - base)
            })
            .collect();
        let of = Summary::of(&differences).filter(|s| s.n >= 2)?;
        let df = (of.n - 1) as f64;
        let error = of.variance_of_mean().sqrt();
        let p_value = if error == 0.0 {
            if of.mean == 0.0 { 1.0 } else { 0.0 }
        } else {
            2.0 * (1.0 - student_t_cdf((of.mean / error).abs(), df))
        };
        let (ci_low, ci_high) = if error == 0.0 {
            (of.mean, of.mean)
        } else {
            (of.ci_low, of.ci_high)
        };
        Some(Comparison {
            difference: of.mean,
            ci_low,
            ci_high,
            p_value,
            df,
            test: Test::Paired,
            pairs: of.n,
        })
    }

    /// `variant` against `baseline` by seed: paired when they share at least two seeds,
    /// by Welch's test otherwise.
    pub fn by_seed(variant: &[(u64, f64)], baseline: &[(u64, f64)]) -> Option<Comparison> {
        Comparison::paired(variant, baseline).or_else(|| {
            let values = |pairs: &[(u64, f64)]| pairs.iter().map(|&(_, v)| v).collect::<Vec<_>>();
            Comparison::welch(
                &Summary::of(&values(variant))?,
                &Summary::of(&values(baseline))?,
            )
        })
    }

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
                test: Test::Welch,
                pairs: 0,
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
            test: Test::Welch,
            pairs: 0,
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

    fn seeded(values: &[f64]) -> Vec<(u64, f64)> {
        values
            .iter()
            .enumerate()
            .map(|(k, &v)| (k as u64 + 1, v))
            .collect()
    }

    #[test]
    fn paired_matches_a_worked_example() {
        // Worked by hand: differences −1, −11, 1, −17, −11; mean −7.8, sd √57.2 =
        // 7.563068, standard error 3.382307, t = −2.306118, df = 4; p = I_x(2, ½) at
        // x = 4 / (4 + t²), in closed form 0.082383.
        let a = seeded(&[19.0, 22.0, 16.0, 29.0, 24.0]);
        let b = seeded(&[18.0, 11.0, 17.0, 12.0, 13.0]);
        let c = Comparison::paired(&b, &a).unwrap();
        assert_eq!((c.test, c.pairs, c.df), (Test::Paired, 5, 4.0));
        assert!((c.difference - (-7.8)).abs() < 1e-12, "{c:?}");
        assert!((c.p_value - 0.082_383).abs() < 1e-6, "{c:?}");
        // t(0.975, 4) = 2.776445: −7.8 ± 9.390789.
        assert!((c.ci_low - (-17.190_789)).abs() < 1e-5, "{c:?}");
        assert!((c.ci_high - 1.590_789).abs() < 1e-5, "{c:?}");
    }

    #[test]
    fn pairing_removes_what_the_seeds_share() {
        // The variant is the baseline plus 0.01 on every seed, and the seeds vary by far
        // more than that: paired, the gain is certain; Welch's test cannot see it.
        let base = seeded(&[0.50, 0.70, 0.60, 0.80, 0.55]);
        let better: Vec<(u64, f64)> = base.iter().map(|&(s, v)| (s, v + 0.01)).collect();
        let paired = Comparison::by_seed(&better, &base).unwrap();
        assert_eq!(paired.test, Test::Paired);
        assert!(paired.p_value < 1e-6, "{paired:?}");
        assert!((paired.difference - 0.01).abs() < 1e-12);
        let values = |p: &[(u64, f64)]| p.iter().map(|&(_, v)| v).collect::<Vec<_>>();
        let welch = Comparison::welch(
            &Summary::of(&values(&better)).unwrap(),
            &Summary::of(&values(&base)).unwrap(),
        )
        .unwrap();
        assert!(welch.p_value > 0.85, "{welch:?}");
    }

    #[test]
    fn runs_on_other_seeds_fall_back_to_welch() {
        let a = vec![(1, 0.5), (2, 0.6), (3, 0.7)];
        let b = vec![(4, 0.4), (5, 0.5), (6, 0.45)];
        let c = Comparison::by_seed(&a, &b).unwrap();
        assert_eq!((c.test, c.pairs), (Test::Welch, 0));
        // One shared seed is no pairing either.
        let one = vec![(3, 0.4), (5, 0.5), (6, 0.45)];
        assert_eq!(Comparison::by_seed(&a, &one).unwrap().test, Test::Welch);
        // Only the seeds both ran on are paired.
        let partial = vec![(1, 0.4), (2, 0.5), (9, 0.1)];
        let c = Comparison::by_seed(&a, &partial).unwrap();
        assert_eq!((c.test, c.pairs), (Test::Paired, 2));
        assert!((c.difference - 0.1).abs() < 1e-12);
    }
}
