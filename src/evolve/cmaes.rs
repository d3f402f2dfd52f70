//! Separable CMA-ES (Ros & Hansen, "A simple modification in CMA-ES achieving linear time
//! and space complexity", 2008): the covariance-matrix adaptation evolution strategy with a
//! diagonal covariance, so that a generation costs O(λ·n) and networks of any size fit.
//!
//! Each generation samples λ chromosomes x = m + σ·√c ⊙ z, z ~ N(0, I); after they are
//! ranked, the mean moves to the weighted mean of the better half, the per-weight variances
//! c follow the steps that succeeded (rank-one and rank-μ updates), and the global step σ
//! grows or shrinks as the evolution path is longer or shorter than under random selection
//! (cumulative step-size adaptation). Only ranks are used, so fitness may be on any scale,
//! and the step sizes adapt without drifting without bound. Constants follow Hansen's
//! tutorial ("The CMA Evolution Strategy: A Tutorial", 2016), with the covariance learning
//! rates scaled by (n + 2)/3 as the separable variant prescribes.

use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

use rand::RngExt;

use crate::rng::GameRng;

/// The search distribution and its two evolution paths, as they stand between generations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SepCma {
    /// The distribution's mean m: the strategy's current best guess.
    pub mean: Vec<f64>,
    /// The global step size σ.
    pub sigma: f64,
    /// The diagonal of the covariance matrix C.
    pub variances: Vec<f64>,
    path_sigma: Vec<f64>,
    path_c: Vec<f64>,
    /// Updates made so far (the step-size path's start-up correction needs it).
    updates: u32,
}

/// The strategy's constants for dimension n and λ samples a generation.
struct Constants {
    weights: Vec<f64>,
    mu_eff: f64,
    c_sigma: f64,
    d_sigma: f64,
    c_c: f64,
    c_1: f64,
    c_mu: f64,
    /// E‖N(0, I)‖.
    chi_n: f64,
}

impl Constants {
    fn new(n: usize, lambda: usize) -> Constants {
        let n_f = n as f64;
        let mu = (lambda / 2).max(1);
        let raw: Vec<f64> = (1..=mu)
            .map(|i| ((lambda as f64 + 1.0) / 2.0).ln() - (i as f64).ln())
            .collect();
        let total: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / total).collect();
        let mu_eff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let c_sigma = (mu_eff + 2.0) / (n_f + mu_eff + 5.0);
        let d_sigma = 1.0 + 2.0 * (((mu_eff - 1.0) / (n_f + 1.0)).sqrt() - 1.0).max(0.0) + c_sigma;
        let c_c = (4.0 + mu_eff / n_f) / (n_f + 4.0 + 2.0 * mu_eff / n_f);
        let separable = (n_f + 2.0) / 3.0;
        let c_1 = (separable * 2.0 / ((n_f + 1.3).powi(2) + mu_eff)).min(1.0);
        let c_mu = (separable * 2.0 * (mu_eff - 2.0 + 1.0 / mu_eff)
            / ((n_f + 2.0).powi(2) + mu_eff))
            .clamp(0.0, 1.0 - c_1);
        let chi_n = n_f.sqrt() * (1.0 - 1.0 / (4.0 * n_f) + 1.0 / (21.0 * n_f * n_f));
        Constants {
            weights,
            mu_eff,
            c_sigma,
            d_sigma,
            c_c,
            c_1,
            c_mu,
            chi_n,
        }
    }
}

impl SepCma {
    /// A distribution centred on `mean` with step `sigma` and unit variances.
    pub fn new(mean: Vec<f64>, sigma: f64) -> SepCma {
        let n = mean.len();
        SepCma {
            mean,
            sigma,
            variances: vec![1.0; n],
            path_sigma: vec![0.0; n],
            path_c: vec![0.0; n],
            updates: 0,
        }
    }

    /// Whether the state fits chromosomes of `genes` weights and is usable.
    pub fn fits(&self, genes: usize) -> bool {
        [&self.mean, &self.variances, &self.path_sigma, &self.path_c]
            .iter()
            .all(|v| v.len() == genes && v.iter().all(|x| x.is_finite()))
            && self.variances.iter().all(|&c| c > 0.0)
            && self.sigma.is_finite()
            && self.sigma > 0.0
    }

    /// The mean as a chromosome.
    pub fn mean_genes(&self) -> Vec<f32> {
        self.mean.iter().map(|&m| m as f32).collect()
    }

    /// `count` chromosomes drawn from the distribution.
    pub fn sample(&self, count: usize, rng: &mut GameRng) -> Vec<Vec<f32>> {
        (0..count)
            .map(|_| {
                self.mean
                    .iter()
                    .zip(&self.variances)
                    .map(|(&m, &c)| {
                        let z: f64 = rng.sample(StandardNormal);
                        (m + self.sigma * c.sqrt() * z) as f32
                    })
                    .collect()
            })
            .collect()
    }

    /// Moves the distribution after a generation: `samples` are the chromosomes drawn from
    /// it, `ranked` their indices from best to worst. The mean takes the share `mean_rate`
    /// of the selected step (1: all of it); the paths, variances and σ learn from the whole
    /// step either way, as in Miyazawa & Akimoto's formulation.
    pub fn update(&mut self, samples: &[&[f32]], ranked: &[usize], mean_rate: f64) {
        let n = self.mean.len();
        let k = Constants::new(n, samples.len());
        // The steps y = (x − m)/σ of the μ best, and their weighted mean.
        let steps: Vec<Vec<f64>> = ranked[..k.weights.len()]
            .iter()
            .map(|&i| {
                samples[i]
                    .iter()
                    .zip(&self.mean)
                    .map(|(&x, &m)| (f64::from(x) - m) / self.sigma)
                    .collect()
            })
            .collect();
        let mut step_mean = vec![0.0; n];
        for (w, y) in k.weights.iter().zip(&steps) {
            for (acc, yi) in step_mean.iter_mut().zip(y) {
                *acc += w * yi;
            }
        }
        for (m, y) in self.mean.iter_mut().zip(&step_mean) {
            *m += mean_rate * self.sigma * y;
        }
        // Step-size path: C^(−1/2) y_w is y_w / √c for a diagonal C.
        let rate = (k.c_sigma * (2.0 - k.c_sigma) * k.mu_eff).sqrt();
        for ((p, y), c) in self
            .path_sigma
            .iter_mut()
            .zip(&step_mean)
            .zip(&self.variances)
        {
            *p = (1.0 - k.c_sigma) * *p + rate * y / c.sqrt();
        }
        let path_length = self.path_sigma.iter().map(|p| p * p).sum::<f64>().sqrt();
        self.updates += 1;
        let start_up = (1.0 - (1.0 - k.c_sigma).powi(2 * self.updates as i32)).sqrt();
        let stalled = path_length / start_up < (1.4 + 2.0 / (n as f64 + 1.0)) * k.chi_n;
        let h_sigma = if stalled { 1.0 } else { 0.0 };
        let rate_c = (k.c_c * (2.0 - k.c_c) * k.mu_eff).sqrt();
        for (p, y) in self.path_c.iter_mut().zip(&step_mean) {
            *p = (1.0 - k.c_c) * *p + h_sigma * rate_c * y;
        }
        for (i, c) in self.variances.iter_mut().enumerate() {
            let rank_mu: f64 = k
                .weights
                .iter()
                .zip(&steps)
                .map(|(w, y)| w * y[i] * y[i])
                .sum();
            let rank_one = self.path_c[i].powi(2) + (1.0 - h_sigma) * k.c_c * (2.0 - k.c_c) * *c;
            *c = (1.0 - k.c_1 - k.c_mu) * *c + k.c_1 * rank_one + k.c_mu * rank_mu;
        }
        self.sigma *= ((k.c_sigma / k.d_sigma) * (path_length / k.chi_n - 1.0)).exp();
    }
}
