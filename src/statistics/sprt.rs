//! Sequential probability ratio tests for A/B matches, as engine testers run them
//! (cutechess-cli, fastchess, Fishtest): games are played in pairs, each opening once with
//! each colour, and after every pair the log-likelihood ratio of "the player is `elo1`
//! stronger" against "it is `elo0` stronger" is compared with Wald's bounds.
//!
//! Pair results are counted by their total score (0, ½, 1, 1½, 2: the *pentanomial*
//! counts), which keeps the correlation between the two games of an opening, and the
//! ratio is the normal approximation of the generalised SPRT on the mean pair score
//! (Van den Bergh, "A practical introduction to the GSPRT", 2016): with N pairs, mean
//! score per game s and per-pair variance σ²,
//! LLR = N (s₁ − s₀)(2s − s₀ − s₁) / (2σ²), where s₀ and s₁ are the expected scores of
//! `elo0` and `elo1` on the logistic Elo scale. The moments in the ratio count one pair
//! of each kind more than were played (a weak prior), so that no handful of equal pairs
//! can decide a test.

use serde::Serialize;

use super::distributions::normal_quantile;

/// Pairs of each kind assumed before any is played, when the ratio is computed: without
/// them a run of identical pairs has no variance and one pair would decide the test
/// (an infinite ratio). Their weight fades as pairs are played; with them a player who
/// wins every pair by far is accepted within a few dozen pairs.
const PRIOR_PAIRS: f64 = 1.0;

/// Pair results by total score in half points: `counts[k]` pairs scored k/2 of 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

/// The expected score per game of a player `elo` points stronger (logistic Elo).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference whose expected score per game is `score`.
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Pentanomial {
    /// Counts a pair whose two games scored `first` and `second` (0, ½ or 1 each).
    pub fn add(&mut self, first: f64, second: f64) {
        let halves = (2.0 * (first + second)).round() as usize;
        self.counts[halves.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The mean score per game and the variance of one pair's mean score, from the counts
    /// plus `extra` in each.
    fn moments(&self, extra: f64) -> (f64, f64) {
        let weights: Vec<f64> = self.counts.iter().map(|&c| c as f64 + extra).collect();
        let total: f64 = weights.iter().sum();
        let score = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| weights[k] * score(k)).sum::<f64>() / total;
        let variance = (0..5)
            .map(|k| weights[k] * (score(k) - mean).powi(2))
            .sum::<f64>()
            / total;
        (mean, variance)
    }

    /// The mean score per game (½ before any pair).
    pub fn score(&self) -> f64 {
        if self.pairs() == 0 {
            return 0.5;
        }
        self.moments(0.0).0
    }

    /// The Elo difference the score implies, with its 95% interval (normal approximation
    /// on the pair scores); infinite where the score or a bound is 0 or 1.
    pub fn elo(&self) -> EloEstimate {
        let pairs = self.pairs();
        if pairs == 0 {
            return EloEstimate {
                elo: 0.0,
                ci_low: f64::NEG_INFINITY,
                ci_high: f64::INFINITY,
            };
        }
        let (mean, variance) = self.moments(0.0);
        let half = normal_quantile(0.975) * (variance / pairs as f64).sqrt();
        let to_elo = |s: f64| elo_of_score(s.clamp(0.0, 1.0));
        EloEstimate {
            elo: to_elo(mean),
            ci_low: to_elo(mean - half),
            ci_high: to_elo(mean + half),
        }
    }
}

/// An Elo difference and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    pub elo: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

/// The test: H0 "the player is `elo0` stronger" against H1 "`elo1` stronger", with
/// error rates `alpha` (accepting H1 when H0 holds) and `beta` (the reverse).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test concluded, once it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// The ratio fell to the lower bound: the player is not `elo1` stronger.
    H0,
    /// The ratio rose to the upper bound: the player is not merely `elo0` stronger.
    H1,
}

/// Why a test's settings are refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("'{0}': the SPRT takes ELO0,ELO1[,ALPHA,BETA] (e.g. 0,10 or 0,10,0.05,0.05)")]
    Malformed(String),
    #[error("the SPRT needs ELO0 < ELO1, both finite (got {0} and {1})")]
    Order(f64, f64),
    #[error("the SPRT's error rates must lie strictly between 0 and 0.5 (got {0})")]
    ErrorRate(f64),
}

impl std::str::FromStr for Sprt {
    type Err = SprtError;

    /// `ELO0,ELO1[,ALPHA,BETA]`; α and β default to 0.05.
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let malformed = || SprtError::Malformed(text.to_string());
        let numbers = text
            .split(',')
            .map(|part| part.trim().parse::<f64>().map_err(|_| malformed()))
            .collect::<Result<Vec<f64>, SprtError>>()?;
        let (elo0, elo1, alpha, beta) = match numbers.as_slice() {
            [elo0, elo1] => (*elo0, *elo1, 0.05, 0.05),
            [elo0, elo1, alpha, beta] => (*elo0, *elo1, *alpha, *beta),
            _ => return Err(malformed()),
        };
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::Order(elo0, elo1));
        }
        for rate in [alpha, beta] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(SprtError::ErrorRate(rate));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl Sprt {
    /// Wald's bounds on the log-likelihood ratio: (accept H0 at or below, accept H1 at
    /// or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after the pairs in `results`.
    pub fn llr(&self, results: &Pentanomial) -> f64 {
        let pairs = results.pairs();
        if pairs == 0 {
            return 0.0;
        }
        let (score, variance) = results.moments(PRIOR_PAIRS);
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        pairs as f64 * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    /// The verdict after `results`, if the ratio has reached a bound.
    pub fn verdict(&self, results: &Pentanomial) -> Option<Verdict> {
        let llr = self.llr(results);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_scores_are_the_textbook_ones() {
        let test: Sprt = "0,10".parse().unwrap();
        let (lower, upper) = test.bounds();
        // ln(0.05/0.95) and ln(0.95/0.05).
        assert!((lower + 2.944_438_979).abs() < 1e-8 && (upper - 2.944_438_979).abs() < 1e-8);
        assert!((expected_score(0.0) - 0.5).abs() < 1e-15);
        // 400 Elo: odds of 10 to 1.
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((elo_of_score(10.0 / 11.0) - 400.0).abs() < 1e-9);
    }

    #[test]
    fn the_ratio_follows_the_evidence() {
        let test: Sprt = "0,20".parse().unwrap();
        // Even pairs (one win each, or two draws): evidence for H0.
        let even = Pentanomial {
            counts: [5, 10, 400, 10, 5],
        };
        assert!(test.llr(&even) < test.bounds().0, "{}", test.llr(&even));
        assert_eq!(test.verdict(&even), Some(Verdict::H0));
        // Mostly won pairs: H1.
        let strong = Pentanomial {
            counts: [2, 5, 40, 30, 23],
        };
        assert_eq!(test.verdict(&strong), Some(Verdict::H1));
        // Too few pairs to tell.
        let few = Pentanomial {
            counts: [0, 1, 2, 1, 0],
        };
        assert_eq!(test.verdict(&few), None);
        // The estimate of the strong record: a score of 0.6675, about +121 Elo.
        let estimate = strong.elo();
        assert!((strong.score() - 0.6675).abs() < 1e-12);
        assert!((estimate.elo - elo_of_score(0.6675)).abs() < 1e-9);
        assert!(estimate.ci_low < estimate.elo && estimate.elo < estimate.ci_high);
    }

    #[test]
    fn bad_settings_are_refused() {
        assert!(matches!("0".parse::<Sprt>(), Err(SprtError::Malformed(_))));
        assert!(matches!(
            "0,x".parse::<Sprt>(),
            Err(SprtError::Malformed(_))
        ));
        assert!(matches!("10,0".parse::<Sprt>(), Err(SprtError::Order(..))));
        assert!(matches!("0,inf".parse::<Sprt>(), Err(SprtError::Order(..))));
        assert!(matches!(
            "0,10,0.5,0.05".parse::<Sprt>(),
            Err(SprtError::ErrorRate(_))
        ));
        assert!(matches!(
            "0,10,0.05".parse::<Sprt>(),
            Err(SprtError::Malformed(_))
        ));
        let full: Sprt = "-5,5,0.1,0.2".parse().unwrap();
        assert_eq!(
            (full.elo0, full.elo1, full.alpha, full.beta),
            (-5.0, 5.0, 0.1, 0.2)
        );
    }
}
