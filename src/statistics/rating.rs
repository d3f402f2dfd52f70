//! Ratings on the Elo scale from any set of games: a Bradley–Terry model with draws
//! (Davidson, "On extending the Bradley–Terry model to accommodate ties in paired
//! comparison experiments", 1970) and an advantage for the side that moves first, fitted
//! by maximum likelihood, with percentile-bootstrap intervals, anchored to one player.
//!
//! With strengths π = e^r, first-move factor θ = e^h and draw factor ν = e^d, a game
//! between i (moving first) and j ends
//! - in a win for i with probability π_i θ / D,
//! - in a win for j with probability π_j / D,
//! - drawn with probability ν √(π_i θ π_j) / D,
//!
//! where D is the sum of the three numerators. The log-likelihood is concave in (r, h,
//! d), so Newton's method finds its maximum. A weak normal prior (standard deviation
//! 1,000 Elo) on every parameter keeps a player who won or lost every game at a finite,
//! very uncertain, rating instead of ±∞.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::rng::rng_for;

/// Elo points per natural unit of log-strength: 400 / ln 10.
pub const ELO_PER_UNIT: f64 = 400.0 / std::f64::consts::LN_10;

/// The prior's standard deviation, in natural units (1,000 Elo).
const PRIOR_SD: f64 = 1000.0 / ELO_PER_UNIT;

/// The games between one ordered pair of players: `first` moved first in all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PairGames {
    pub first: usize,
    pub second: usize,
    pub first_wins: u64,
    pub draws: u64,
    pub second_wins: u64,
}

impl PairGames {
    fn games(&self) -> u64 {
        self.first_wins + self.draws + self.second_wins
    }
}

/// One player's rating: Elo relative to the anchor, its 95% bootstrap interval, and the
/// games it played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    pub player: String,
    pub elo: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub games: u64,
}

/// Everyone's ratings, best first, with the model's first-move advantage (in Elo) and
/// its draw factor ν, given as the draw rate it implies between equal players with no
/// first-move edge: ν / (2 + ν).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratings {
    pub anchor: String,
    pub players: Vec<PlayerRating>,
    pub first_move_elo: f64,
    pub equal_draw_rate: f64,
    pub bootstrap_samples: usize,
}

/// Why ratings cannot be fitted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    #[error("no player '{0}' to anchor the ratings to (players: {1})")]
    UnknownAnchor(String, String),
    #[error("a game names player {0}, but there are only {1} players")]
    UnknownPlayer(usize, usize),
    #[error("no games to rate")]
    NoGames,
    #[error("{0} bootstrap samples: at most {MAX_BOOTSTRAP}")]
    TooManySamples(usize),
}

/// Most bootstrap resamples a rating may ask for: each refits every rating, and intervals
/// settle long before this.
pub const MAX_BOOTSTRAP: usize = 100_000;

/// `samples` if a rating may use that many bootstrap resamples.
pub fn check_bootstrap(samples: usize) -> Result<usize, RatingError> {
    if samples > MAX_BOOTSTRAP {
        return Err(RatingError::TooManySamples(samples));
    }
    Ok(samples)
}

/// Rates `players` from `games`, `anchor` at 0 Elo, with 95% intervals from `samples`
/// bootstrap resamples of the games (drawn from `seed`; 0 samples: no intervals).
pub fn rate(
    players: &[String],
    games: &[PairGames],
    anchor: &str,
    samples: usize,
    seed: u64,
) -> Result<Ratings, RatingError> {
    check_bootstrap(samples)?;
    let anchor_index = players
        .iter()
        .position(|p| p == anchor)
        .ok_or_else(|| RatingError::UnknownAnchor(anchor.to_string(), players.join(", ")))?;
    if let Some(bad) = games
        .iter()
        .flat_map(|g| [g.first, g.second])
        .find(|&p| p >= players.len())
    {
        return Err(RatingError::UnknownPlayer(bad, players.len()));
    }
    if games.iter().all(|g| g.games() == 0) {
        return Err(RatingError::NoGames);
    }
    let fitted = fit(players.len(), games, anchor_index);
    let resampled: Vec<Vec<f64>> = (0..samples)
        .map(|k| {
            fit(
                players.len(),
                &resample(games, seed, k as u64),
                anchor_index,
            )
        })
        .collect();
    let mut played = vec![0u64; players.len()];
    for g in games {
        played[g.first] += g.games();
        played[g.second] += g.games();
    }
    let mut rated: Vec<PlayerRating> = players
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let elo = fitted[i] * ELO_PER_UNIT;
            let (ci_low, ci_high) = if samples == 0 {
                (f64::NAN, f64::NAN)
            } else {
                let mut values: Vec<f64> = resampled.iter().map(|r| r[i] * ELO_PER_UNIT).collect();
                values.sort_by(f64::total_cmp);
                (percentile(&values, 0.025), percentile(&values, 0.975))
            };
            PlayerRating {
                player: name.clone(),
                elo,
                ci_low,
                ci_high,
                games: played[i],
            }
        })
        .collect();
    rated.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    let n = players.len();
    Ok(Ratings {
        anchor: anchor.to_string(),
        players: rated,
        first_move_elo: fitted[n] * ELO_PER_UNIT,
        equal_draw_rate: {
            let nu = fitted[n + 1].exp();
            nu / (2.0 + nu)
        },
        bootstrap_samples: samples,
    })
}

/// The `q` quantile of sorted `values` (linear between order statistics).
fn percentile(values: &[f64], q: f64) -> f64 {
    let position = q * (values.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(values.len() - 1);
    let fraction = position - below as f64;
    values[below] * (1.0 - fraction) + values[above] * fraction
}

/// Bootstrap resample `k` of `games`: as many games, drawn with replacement from all of
/// them.
fn resample(games: &[PairGames], seed: u64, k: u64) -> Vec<PairGames> {
    let total: u64 = games.iter().map(PairGames::games).sum();
    let mut rng = rng_for(seed, &[k]);
    let mut counts: Vec<PairGames> = games
        .iter()
        .map(|g| PairGames {
            first_wins: 0,
            draws: 0,
            second_wins: 0,
            ..*g
        })
        .collect();
    // Cumulative game counts: game number x falls in the first entry whose end passes it.
    let mut ends = Vec::with_capacity(3 * games.len());
    let mut end = 0;
    for g in games {
        for count in [g.first_wins, g.draws, g.second_wins] {
            end += count;
            ends.push(end);
        }
    }
    for _ in 0..total {
        let x = rng.random_range(0..total);
        let slot = ends.partition_point(|&end| end <= x);
        let target = &mut counts[slot / 3];
        match slot % 3 {
            0 => target.first_wins += 1,
            1 => target.draws += 1,
            _ => target.second_wins += 1,
        }
    }
    counts
}

/// The maximum a posteriori parameters: `players` log-strengths (the anchor's 0), then h
/// and d. Newton's method with step halving; the posterior is strictly concave.
fn fit(players: usize, games: &[PairGames], anchor: usize) -> Vec<f64> {
    let size = players + 2;
    let mut theta = vec![0.0; size];
    let mut current = log_posterior(&theta, games);
    for _ in 0..100 {
        let (gradient, hessian) = derivatives(&theta, games);
        // Free parameters: all but the anchor's rating.
        let free: Vec<usize> = (0..size).filter(|&k| k != anchor).collect();
        let matrix: Vec<Vec<f64>> = free
            .iter()
            .map(|&a| free.iter().map(|&b| -hessian[a][b]).collect())
            .collect();
        let vector: Vec<f64> = free.iter().map(|&a| gradient[a]).collect();
        let step = solve(matrix, vector);
        let mut scale = 1.0;
        loop {
            let mut next = theta.clone();
            for (k, &a) in free.iter().enumerate() {
                next[a] += scale * step[k];
            }
            let value = log_posterior(&next, games);
            if value >= current || scale < 1e-6 {
                let moved = step.iter().map(|s| (scale * s).abs()).fold(0.0, f64::max);
                theta = next;
                current = value;
                if moved < 1e-10 {
                    return theta;
                }
                break;
            }
            scale /= 2.0;
        }
    }
    theta
}

/// The three outcome probabilities (first wins, second wins, draw) of a game between
/// log-strengths `a` (first, with its advantage) and `b`, with log draw factor `d`.
fn probabilities(a: f64, b: f64, d: f64) -> [f64; 3] {
    let c = d + 0.5 * (a + b);
    let top = a.max(b).max(c);
    let [ea, eb, ec] = [a, b, c].map(|u| (u - top).exp());
    let sum = ea + eb + ec;
    [ea / sum, eb / sum, ec / sum]
}

/// The log-likelihood of `games` plus the prior's log-density (up to a constant).
fn log_posterior(theta: &[f64], games: &[PairGames]) -> f64 {
    let n = theta.len() - 2;
    let (h, d) = (theta[n], theta[n + 1]);
    let mut total: f64 = theta.iter().map(|t| -0.5 * (t / PRIOR_SD).powi(2)).sum();
    for g in games {
        let p = probabilities(theta[g.first] + h, theta[g.second], d);
        total += g.first_wins as f64 * p[0].ln()
            + g.second_wins as f64 * p[1].ln()
            + g.draws as f64 * p[2].ln();
    }
    total
}

/// The gradient and Hessian of [`log_posterior`].
fn derivatives(theta: &[f64], games: &[PairGames]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let size = theta.len();
    let n = size - 2;
    let (h, d) = (theta[n], theta[n + 1]);
    let mut gradient: Vec<f64> = theta.iter().map(|t| -t / PRIOR_SD.powi(2)).collect();
    let mut hessian = vec![vec![0.0; size]; size];
    for (k, row) in hessian.iter_mut().enumerate() {
        row[k] = -1.0 / PRIOR_SD.powi(2);
    }
    for g in games {
        let count = g.games() as f64;
        if count == 0.0 {
            continue;
        }
        let p = probabilities(theta[g.first] + h, theta[g.second], d);
        let (w, t, l) = (g.first_wins as f64, g.draws as f64, g.second_wins as f64);
        // d/d(a, b, d) of the log-likelihood, a = r_first + h and b = r_second.
        let local = [
            w + 0.5 * t - count * (p[0] + 0.5 * p[2]),
            l + 0.5 * t - count * (p[1] + 0.5 * p[2]),
            t - count * p[2],
        ];
        // −count · Jᵀ (diag p − p pᵀ) J, with the outcomes' log-odds u = J (a, b, d):
        // u₁ = a, u₂ = b, u₃ = d + (a + b)/2.
        let jacobian = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]];
        let mut local_hessian = [[0.0; 3]; 3];
        for (x, row) in local_hessian.iter_mut().enumerate() {
            for (y, cell) in row.iter_mut().enumerate() {
                let mut sum = 0.0;
                for u in 0..3 {
                    for v in 0..3 {
                        let cov = if u == v { p[u] } else { 0.0 } - p[u] * p[v];
                        sum += jacobian[u][x] * cov * jacobian[v][y];
                    }
                }
                *cell = -count * sum;
            }
        }
        // (a, b, d) in the parameters: a touches r_first and h, b r_second, d itself.
        let touches: [&[usize]; 3] = [&[g.first, n], &[g.second], &[n + 1]];
        for x in 0..3 {
            for &i in touches[x] {
                gradient[i] += local[x];
                for y in 0..3 {
                    for &j in touches[y] {
                        hessian[i][j] += local_hessian[x][y];
                    }
                }
            }
        }
    }
    (gradient, hessian)
}

/// Solves `matrix · x = vector` by Gaussian elimination with partial pivoting (`matrix`
/// is symmetric positive definite here, and small: one row per player).
fn solve(mut matrix: Vec<Vec<f64>>, mut vector: Vec<f64>) -> Vec<f64> {
    let n = vector.len();
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))
            .expect("a column has rows");
        matrix.swap(column, pivot);
        vector.swap(column, pivot);
        let (done, rest) = matrix.split_at_mut(column + 1);
        let pivot_row = &done[column];
        for (offset, row) in rest.iter_mut().enumerate() {
            let factor = row[column] / pivot_row[column];
            for (cell, above) in row[column..].iter_mut().zip(&pivot_row[column..]) {
                *cell -= factor * above;
            }
            vector[column + 1 + offset] -= factor * vector[column];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let known: f64 = (row + 1..n).map(|k| matrix[row][k] * x[k]).sum();
        x[row] = (vector[row] - known) / matrix[row][row];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected counts of `games` games between log-strengths a (first) and b.
    fn expected(first: usize, second: usize, theta: &[f64], games: f64) -> PairGames {
        let n = theta.len() - 2;
        let p = probabilities(theta[first] + theta[n], theta[second], theta[n + 1]);
        PairGames {
            first,
            second,
            first_wins: (games * p[0]).round() as u64,
            second_wins: (games * p[1]).round() as u64,
            draws: (games * p[2]).round() as u64,
        }
    }

    #[test]
    fn the_fit_recovers_the_parameters_that_made_the_counts() {
        // Three players at 0, +200 and +400 Elo, first move worth 50, draws frequent.
        let truth = [0.0, 200.0, 400.0, 50.0, 100.0].map(|elo| elo / ELO_PER_UNIT);
        let mut games = Vec::new();
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    games.push(expected(i, j, &truth, 1_000_000.0));
                }
            }
        }
        let theta = fit(3, &games, 0);
        for (got, want) in theta.iter().zip(truth) {
            assert!((got - want).abs() * ELO_PER_UNIT < 0.5, "{theta:?}");
        }
    }

    #[test]
    fn ratings_are_anchored_ordered_and_bracketed_by_their_intervals() {
        let names: Vec<String> = ["weak", "middle", "strong"].map(String::from).to_vec();
        let truth = [0.0, 150.0, 300.0, 30.0, -200.0].map(|elo| elo / ELO_PER_UNIT);
        let mut games = Vec::new();
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    games.push(expected(i, j, &truth, 200.0));
                }
            }
        }
        let ratings = rate(&names, &games, "middle", 100, 7).unwrap();
        let order: Vec<&str> = ratings.players.iter().map(|p| p.player.as_str()).collect();
        assert_eq!(order, ["strong", "middle", "weak"]);
        let middle = &ratings.players[1];
        assert_eq!(middle.elo, 0.0);
        for p in &ratings.players {
            assert!(p.ci_low <= p.elo && p.elo <= p.ci_high, "{p:?}");
        }
        let total: u64 = games.iter().map(PairGames::games).sum();
        let counted: u64 = ratings.players.iter().map(|p| p.games).sum();
        assert_eq!(counted, 2 * total);
        assert!(ratings.players[0].ci_low > 0.0 && ratings.players[2].ci_high < 0.0);
        // The same seed gives the same intervals.
        assert_eq!(rate(&names, &games, "middle", 100, 7).unwrap(), ratings);
        assert!(matches!(
            rate(&names, &games, "nobody", 0, 7),
            Err(RatingError::UnknownAnchor(..))
        ));
        assert_eq!(rate(&names, &[], "weak", 0, 7), Err(RatingError::NoGames));
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_posterior() {
        let games = [
            PairGames {
                first: 0,
                second: 1,
                first_wins: 7,
                draws: 2,
                second_wins: 3,
            },
            PairGames {
                first: 1,
                second: 0,
                first_wins: 4,
                draws: 0,
                second_wins: 5,
            },
        ];
        let theta = [0.1, -0.3, 0.2, -0.5];
        let (gradient, hessian) = derivatives(&theta, &games);
        let step = 1e-6;
        for k in 0..4 {
            let mut up = theta;
            up[k] += step;
            let mut down = theta;
            down[k] -= step;
            let slope = (log_posterior(&up, &games) - log_posterior(&down, &games)) / (2.0 * step);
            assert!(
                (slope - gradient[k]).abs() < 1e-5,
                "{k}: {slope} {}",
                gradient[k]
            );
            let (g_up, _) = derivatives(&up, &games);
            let (g_down, _) = derivatives(&down, &games);
            for j in 0..4 {
                let curve = (g_up[j] - g_down[j]) / (2.0 * step);
                assert!((curve - hessian[j][k]).abs() < 1e-4, "{j},{k}");
            }
        }
    }
}
