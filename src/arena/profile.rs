//! Performance profiles (Jaśkowski, Szubert & Liskowski, "The performance profile: a
//! multi-criteria performance evaluation method for test-based problems", 2014): a
//! player's expected score against opponents spread over a range of strength, not one
//! number against one opponent. Players trained against weak opponents can excel against
//! weak ones and fail against strong ones, and the other way round; a profile shows where.
//!
//! The opponents are a fixed, seeded pool (by default the game's panel evaluators searched
//! one and two plies deep, each also diluted with random moves, and `random`), rated once
//! by a round robin among themselves (Bradley–Terry, the first member at 0) and cut into
//! bins of equal size by rating. Each player then plays every member; a bin's point is its
//! score over the bin's games with a 95% Wilson interval (a draw as half a win), which
//! stays sound where a strong player wins nearly every game.

use serde::Serialize;

use crate::arena::agent::Agent;
use crate::arena::openings::OpeningError;
use crate::arena::panel::{panel_evaluators, search_spec};
use crate::arena::series::{SeriesConfig, play_series};
use crate::arena::stats::{Forfeits, SeriesStats, WinRecord};
use crate::arena::tournament::{TournamentConfig, round_robin};
use crate::eval::NamedEvaluators;
use crate::games::Describe;
use crate::rng::derive_seed;
use crate::statistics::{RatingError, rate};

/// Stream tags of the pool's round robin and of the players' series.
const POOL_STREAM: u64 = 0x706f_6f6c;
const PROFILE_STREAM: u64 = 0x7072_6f66;

/// The share of random moves of the pool's diluted members.
pub const POOL_DILUTION: f64 = 0.5;

/// How a profile is measured.
#[derive(Clone, Copy, Debug)]
pub struct ProfileConfig {
    /// Games of each pair of the pool's round robin (even: each opening both ways).
    pub pool_games: usize,
    /// Games of each player against each pool member (even).
    pub games: usize,
    /// Bins the pool is cut into, each of (nearly) equal size.
    pub bins: usize,
    pub opening_plies: u32,
    pub seed: u64,
}

/// Why a profile could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error(transparent)]
    Openings(#[from] OpeningError),
    #[error("rating the pool: {0}")]
    Rating(#[from] RatingError),
    #[error(
        "{bins} bins of a pool of {pool}: use at least 1 bin and no more than the pool has members"
    )]
    Bins { bins: usize, pool: usize },
    #[error("{0}; a profile with a forfeited game is not drawn (a failure never becomes a score)")]
    Forfeited(String),
    #[error("the pool names {0} twice")]
    Twice(String),
}

impl ProfileError {
    /// Whether the user gave something wrong (bins, openings) rather than an agent failing.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            ProfileError::Openings(_) | ProfileError::Bins { .. } | ProfileError::Twice(_)
        )
    }
}

/// The default pool of `G`: `random`, then each panel evaluator (each feature of the
/// game's heuristic alone, the heuristic, the game's reference evaluators) one and two
/// plies deep, as it is and with half its moves random.
pub fn default_pool<G: NamedEvaluators>() -> Vec<String> {
    let mut pool = vec!["random".to_string()];
    for depth in 1..=2 {
        for name in panel_evaluators::<G>() {
            let spec = search_spec(depth, name);
            pool.push(format!("{spec}@{POOL_DILUTION}"));
            pool.push(spec);
        }
    }
    pool
}

/// One pool member and its rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoolMember {
    pub spec: String,
    pub elo: f64,
    /// The bin it falls in (0: the weakest).
    pub bin: usize,
}

/// A bin of the pool: its members' ratings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    pub low_elo: f64,
    pub high_elo: f64,
    pub mean_elo: f64,
    pub members: usize,
}

/// The pool rated and cut into bins.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatedPool {
    /// By rating, weakest first.
    pub members: Vec<PoolMember>,
    pub bins: Vec<Bin>,
    /// The member rated 0.
    pub anchor: String,
}

/// Plays the pool's round robin and cuts it into `config.bins` bins of equal size by
/// rating (the first `members % bins` bins one larger).
pub fn rate_pool<G: Describe>(
    start: &G,
    pool: &[(String, Box<dyn Agent<G>>)],
    config: ProfileConfig,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<RatedPool, ProfileError> {
    if let Some(twice) = (pool.iter().enumerate())
        .find_map(|(k, (name, _))| pool[..k].iter().any(|(n, _)| n == name).then_some(name))
    {
        // Members are told apart by name: a twice-named one would be counted in one bin.
        return Err(ProfileError::Twice(twice.clone()));
    }
    if config.bins == 0 || config.bins > pool.len() {
        return Err(ProfileError::Bins {
            bins: config.bins,
            pool: pool.len(),
        });
    }
    let tournament = TournamentConfig {
        games_per_pair: config.pool_games,
        opening_plies: config.opening_plies,
        seed: derive_seed(config.seed, &[POOL_STREAM]),
        timed_moves: None,
    };
    let result = round_robin(start, pool, tournament, on_game_done)?;
    if let Some(warning) = result.forfeits.warning() {
        return Err(ProfileError::Forfeited(warning));
    }
    let names: Vec<String> = pool.iter().map(|(name, _)| name.clone()).collect();
    let ratings = rate(&names, &result.pair_games, &names[0], 0, config.seed)?;
    let mut members: Vec<PoolMember> = ratings
        .players
        .iter()
        .map(|p| PoolMember {
            spec: p.player.clone(),
            elo: p.elo,
            bin: 0,
        })
        .collect();
    // Ties keep the pool's order, so the bins do not depend on how the sort breaks them.
    members.sort_by(|a, b| {
        let order = |m: &PoolMember| names.iter().position(|n| *n == m.spec);
        a.elo.total_cmp(&b.elo).then(order(a).cmp(&order(b)))
    });
    let bins = cut_into_bins(&mut members, config.bins);
    Ok(RatedPool {
        members,
        bins,
        anchor: names[0].clone(),
    })
}

/// Gives each of `members` (by rating) its bin, `count` bins of sizes differing by at
/// most one, and returns the bins.
fn cut_into_bins(members: &mut [PoolMember], count: usize) -> Vec<Bin> {
    let (size, larger) = (members.len() / count, members.len() % count);
    let mut start = 0;
    (0..count)
        .map(|bin| {
            let end = start + size + usize::from(bin < larger);
            let slice = &mut members[start..end];
            for member in slice.iter_mut() {
                member.bin = bin;
            }
            start = end;
            Bin {
                low_elo: slice[0].elo,
                high_elo: slice[slice.len() - 1].elo,
                mean_elo: slice.iter().map(|m| m.elo).sum::<f64>() / slice.len() as f64,
                members: slice.len(),
            }
        })
        .collect()
}

/// A player's score in one bin, over all its games against the bin's members.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProfilePoint {
    pub bin: usize,
    pub games: usize,
    /// Wins plus half the draws, per game, and its 95% Wilson interval.
    pub score: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

/// A player's performance profile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Profile {
    pub player: String,
    pub points: Vec<ProfilePoint>,
    /// The score over all the pool's games.
    pub overall: f64,
}

/// Plays `player` against every member of `pool` (`agents`, by the pool's spec), each
/// series from its own seeded openings (the same for every player), and sums by bin.
pub fn profile<G: Describe>(
    start: &G,
    player: (&str, &dyn Agent<G>),
    agents: &[(String, Box<dyn Agent<G>>)],
    pool: &RatedPool,
    config: ProfileConfig,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<Profile, ProfileError> {
    let mut by_bin = vec![[0usize; 3]; pool.bins.len()];
    let mut forfeits = Forfeits::default();
    for (index, (spec, opponent)) in agents.iter().enumerate() {
        let member = pool
            .members
            .iter()
            .find(|m| &m.spec == spec)
            .expect("every agent of the pool is rated");
        let series = SeriesConfig {
            games: config.games,
            opening_plies: config.opening_plies,
            seed: derive_seed(config.seed, &[PROFILE_STREAM, index as u64]),
        };
        let records = play_series(start, player.1, opponent.as_ref(), series, on_game_done)?;
        forfeits.add(&records, &format!("{} vs {spec}", player.0));
        let record = SeriesStats::from_records(&records).record;
        let tally = &mut by_bin[member.bin];
        tally[0] += record.wins;
        tally[1] += record.draws;
        tally[2] += record.losses;
    }
    if let Some(warning) = forfeits.warning() {
        return Err(ProfileError::Forfeited(warning));
    }
    let records: Vec<WinRecord> = by_bin
        .iter()
        .map(|&[wins, draws, losses]| WinRecord::new(wins, draws, losses))
        .collect();
    let total = records.iter().fold([0; 3], |sum, r| {
        [sum[0] + r.wins, sum[1] + r.draws, sum[2] + r.losses]
    });
    Ok(Profile {
        player: player.0.to_string(),
        points: records
            .iter()
            .enumerate()
            .map(|(bin, record)| {
                let (ci_low, ci_high) = record.score_wilson_interval();
                ProfilePoint {
                    bin,
                    games: record.games,
                    score: record.score(),
                    ci_low,
                    ci_high,
                }
            })
            .collect(),
        overall: WinRecord::new(total[0], total[1], total[2]).score(),
    })
}

/// Whether `a`'s profile is at or above `b`'s in every bin within the intervals: in no bin
/// does `a`'s interval lie wholly below `b`'s.
pub fn at_or_above(a: &Profile, b: &Profile) -> bool {
    a.points
        .iter()
        .zip(&b.points)
        .all(|(a, b)| a.ci_high >= b.ci_low)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::AgentSpec;
    use crate::games::othello::Othello;

    #[test]
    fn the_default_pool_is_random_then_every_panel_evaluator_at_two_depths_each_diluted() {
        let pool = default_pool::<Othello>();
        // Seven features, the heuristic and the standard WPC; two depths; with and
        // without random moves; and random.
        assert_eq!(pool.len(), 1 + 9 * 2 * 2);
        assert_eq!(pool[0], "random");
        for spec in [
            "heuristic:2",
            "wpc:1@0.5",
            "minimax:2:corner",
            "minimax:1:parity@0.5",
        ] {
            assert!(pool.iter().any(|s| s == spec), "{spec} in {pool:?}");
        }
        for spec in &pool {
            spec.parse::<AgentSpec>()
                .unwrap_or_else(|e| panic!("{spec}: {e}"))
                .build(&Othello::start())
                .unwrap();
        }
    }

    #[test]
    fn bins_take_the_rated_members_in_order_in_sizes_differing_by_at_most_one() {
        let mut members: Vec<PoolMember> = (0..7)
            .map(|k| PoolMember {
                spec: format!("m{k}"),
                elo: 100.0 * k as f64,
                bin: 9,
            })
            .collect();
        let bins = cut_into_bins(&mut members, 3);
        let sizes: Vec<usize> = bins.iter().map(|b| b.members).collect();
        assert_eq!(sizes, [3, 2, 2]);
        let of: Vec<usize> = members.iter().map(|m| m.bin).collect();
        assert_eq!(of, [0, 0, 0, 1, 1, 2, 2]);
        assert_eq!(
            (bins[0].low_elo, bins[0].high_elo, bins[0].mean_elo),
            (0.0, 200.0, 100.0)
        );
        assert_eq!(
            (bins[2].low_elo, bins[2].high_elo, bins[2].mean_elo),
            (500.0, 600.0, 550.0)
        );
    }

    #[test]
    fn one_profile_is_at_or_above_another_unless_an_interval_lies_wholly_below() {
        let profile = |points: &[(f64, f64, f64)]| Profile {
            player: String::new(),
            points: points
                .iter()
                .enumerate()
                .map(|(bin, &(score, ci_low, ci_high))| ProfilePoint {
                    bin,
                    games: 10,
                    score,
                    ci_low,
                    ci_high,
                })
                .collect(),
            overall: 0.0,
        };
        let strong = profile(&[(0.9, 0.8, 1.0), (0.6, 0.5, 0.7)]);
        let close = profile(&[(0.85, 0.75, 0.95), (0.55, 0.45, 0.65)]);
        let weak = profile(&[(0.9, 0.8, 1.0), (0.3, 0.2, 0.4)]);
        assert!(at_or_above(&close, &strong) && at_or_above(&strong, &close));
        assert!(at_or_above(&strong, &weak));
        assert!(!at_or_above(&weak, &strong), "below in the second bin");
    }
}
