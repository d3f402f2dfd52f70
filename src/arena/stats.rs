//! Statistics of a series, from the first agent's ("player's") point of view.

use serde::{Deserialize, Serialize};

use crate::arena::game_record::{GameRecord, player_side};
use crate::games::Game;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Think time per move of one agent, in milliseconds, and the most it thought in one game
/// (what a game clock bounds), in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct MoveTimes {
    pub moves: usize,
    pub min_ms: f64,
    pub max_ms: f64,
    pub mean_ms: f64,
    pub sd_ms: f64,
    pub max_game_s: f64,
}

impl MoveTimes {
    /// Count, minimum, maximum, mean and (population) standard deviation of `seconds`, in
    /// milliseconds (the Congkak report's Tables 4.2–4.5 report these).
    pub fn from_seconds<'a>(seconds: impl Iterator<Item = &'a f64>) -> MoveTimes {
        let ms: Vec<f64> = seconds.map(|s| s * 1000.0).collect();
        if ms.is_empty() {
            return MoveTimes::default();
        }
        let n = ms.len() as f64;
        let mean = ms.iter().sum::<f64>() / n;
        let variance = ms.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
        MoveTimes {
            moves: ms.len(),
            min_ms: ms.iter().copied().fold(f64::INFINITY, f64::min),
            max_ms: ms.iter().copied().fold(0.0, f64::max),
            mean_ms: mean,
            sd_ms: variance.sqrt(),
            max_game_s: 0.0,
        }
    }

    /// [`MoveTimes::from_seconds`] over the moves of several games, each game's times a
    /// slice.
    pub fn from_games<'a>(games: impl Iterator<Item = &'a [f64]> + Clone) -> MoveTimes {
        MoveTimes {
            max_game_s: games
                .clone()
                .map(|game| game.iter().sum::<f64>())
                .fold(0.0, f64::max),
            ..MoveTimes::from_seconds(games.flatten())
        }
    }
}

/// Wins, draws and losses of one side over a number of games, with the win rate
/// (wins / games; a draw is not a win) and its 95% Wilson score interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WinRecord {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub win_rate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

impl WinRecord {
    pub fn new(wins: usize, draws: usize, losses: usize) -> WinRecord {
        let games = wins + draws + losses;
        let (ci_low, ci_high) = wilson_interval(wins, games);
        WinRecord {
            games,
            wins,
            draws,
            losses,
            win_rate: if games == 0 {
                0.0
            } else {
                wins as f64 / games as f64
            },
            ci_low,
            ci_high,
        }
    }

    /// Wins plus half the draws, per game (0 with no games): the score of Othello and
    /// chess tournaments, which tells near-equal players apart where the win rate, blind
    /// to draws, does not.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games as f64
    }

    /// The 95% interval of [`WinRecord::score`]: the normal approximation over the games'
    /// scores of 1, ½ and 0, within [0, 1] ((0, 1) with no games).
    pub fn score_interval(&self) -> (f64, f64) {
        if self.games == 0 {
            return (0.0, 1.0);
        }
        let n = self.games as f64;
        let mean = self.score();
        let mean_square = (self.wins as f64 + self.draws as f64 / 4.0) / n;
        let half = Z95 * ((mean_square - mean * mean).max(0.0) / n).sqrt();
        ((mean - half).max(0.0), (mean + half).min(1.0))
    }

    /// The 95% Wilson interval of [`WinRecord::score`], a draw counted as half a win:
    /// sound where the score is near 0 or 1 (a player that won every game has an interval
    /// below 1, where the normal approximation has none), and no narrower than the score's
    /// own spread, since draws only lessen it. For scores near the ends, such as a profile's.
    pub fn score_wilson_interval(&self) -> (f64, f64) {
        wilson_around(self.score(), self.games)
    }
}

/// The result of a series for the player (the first agent): its [`WinRecord`], the mean
/// final margin (player's score minus the opponent's), mean plies per game, and think times.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeriesStats {
    #[serde(flatten)]
    pub record: WinRecord,
    pub mean_margin: f64,
    pub mean_length: f64,
    pub player_time: MoveTimes,
    pub opponent_time: MoveTimes,
    /// The series' openings by how many of their two games the player won.
    pub openings_won: OpeningWins,
    /// Games the player lost with a final score of nothing: in Othello, wiped out (no disc
    /// left), the loss a 1-ply evaluator that cannot see the threat suffers most.
    pub wiped_out: usize,
}

/// The openings of a series (each played once with each colour) by how many of their two
/// games the player won, draws counting as non-wins. Where openings decide games — a
/// position won by whichever side holds it — any two players split them one game each, and
/// only the openings won with both colours tell the players apart. A last opening played
/// only once is not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OpeningWins {
    pub both: usize,
    pub one: usize,
    pub neither: usize,
}

impl OpeningWins {
    /// Counts the openings of a series whose game k the player won when `won(k)`.
    pub fn count(games: usize, won: impl Fn(usize) -> bool) -> OpeningWins {
        let mut counts = OpeningWins::default();
        for pair in 0..games / 2 {
            match usize::from(won(2 * pair)) + usize::from(won(2 * pair + 1)) {
                2 => counts.both += 1,
                1 => counts.one += 1,
                _ => counts.neither += 1,
            }
        }
        counts
    }
}

impl SeriesStats {
    /// Summarises the records of a series played by [`crate::arena::play_series`].
    pub fn from_records<G: Game>(records: &[GameRecord<G>]) -> SeriesStats {
        let games = records.len();
        let (mut wins, mut draws, mut margin, mut length) = (0, 0, 0i64, 0usize);
        let mut wiped_out = 0;
        for (k, record) in records.iter().enumerate() {
            let me = player_side(k);
            match record.outcome.sign_for(me) {
                1 => wins += 1,
                0 => draws += 1,
                _ if record.score[me.index()] == 0 => wiped_out += 1,
                _ => {}
            }
            margin += i64::from(record.score[me.index()] - record.score[me.opponent().index()]);
            length += record.plies();
        }
        let per_game = |total: f64| {
            if games == 0 {
                0.0
            } else {
                total / games as f64
            }
        };
        SeriesStats {
            record: WinRecord::new(wins, draws, games - wins - draws),
            mean_margin: per_game(margin as f64),
            mean_length: per_game(length as f64),
            player_time: MoveTimes::from_games(side_times(records, player_side)),
            opponent_time: MoveTimes::from_games(side_times(records, |k| {
                player_side(k).opponent()
            })),
            openings_won: OpeningWins::count(games, |k| {
                records[k].outcome.sign_for(player_side(k)) == 1
            }),
            wiped_out,
        }
    }
}

/// The think times of game `k`'s side `side(k)`, game by game.
fn side_times<'a, G: Game>(
    records: &'a [GameRecord<G>],
    side: impl Fn(usize) -> crate::games::Player + Clone + 'a,
) -> impl Iterator<Item = &'a [f64]> + Clone {
    records
        .iter()
        .enumerate()
        .map(move |(k, record)| record.think_seconds[side(k).index()].as_slice())
}

/// The games of one or more series that a side forfeited (an external engine that failed):
/// how many, and the first in words, naming the game and the engine.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Forfeits {
    pub games: usize,
    pub forfeited: usize,
    pub first: Option<String>,
}

impl Forfeits {
    /// Counts the forfeits among `records`, the games of a series; `series` names it in
    /// the note when there are several (e.g. "a vs b"), or is empty.
    pub fn add<G: Game>(&mut self, records: &[GameRecord<G>], series: &str) {
        self.games += records.len();
        for (k, record) in records.iter().enumerate() {
            let Some((_, forfeit)) = &record.forfeit else {
                continue;
            };
            self.forfeited += 1;
            if self.first.is_none() {
                let of = if series.is_empty() {
                    String::new()
                } else {
                    format!(" of {series}")
                };
                self.first = Some(format!("game {}{of}: {}", k + 1, forfeit.reason));
            }
        }
    }

    /// Counts the forfeits of `other` too (its first comes after this one's).
    pub fn join(&mut self, other: &Forfeits) {
        self.games += other.games;
        self.forfeited += other.forfeited;
        if self.first.is_none() {
            self.first.clone_from(&other.first);
        }
    }

    /// The warning for people, if any game was forfeited.
    pub fn warning(&self) -> Option<String> {
        let first = self.first.as_ref()?;
        Some(format!(
            "{} of {} games forfeited (each a loss for the side that forfeited); the first, {first}",
            self.forfeited, self.games
        ))
    }
}

/// The 95% Wilson score interval for `successes` out of `n` trials ((0, 1) when n = 0).
/// Unlike the normal approximation it stays inside [0, 1] and is sound near 0% and 100%.
pub fn wilson_interval(successes: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    wilson_around(successes as f64 / n as f64, n)
}

/// The 95% Wilson interval around the share `p` of `n` trials ((0, 1) when n = 0).
fn wilson_around(p: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::{OpeningWins, WinRecord};

    #[test]
    fn the_score_s_wilson_interval_is_the_win_rate_s_without_draws_and_stays_below_one() {
        let record = WinRecord::new(37, 0, 3);
        assert_eq!(
            record.score_wilson_interval(),
            (record.ci_low, record.ci_high)
        );
        let (low, high) = WinRecord::new(40, 0, 0).score_wilson_interval();
        assert!((low - 0.9124).abs() < 1e-4 && high == 1.0, "{low} {high}");
        // Two draws are one win's worth: the interval of 39 points out of 40.
        let drawn = WinRecord::new(38, 2, 0).score_wilson_interval();
        assert_eq!(drawn, WinRecord::new(39, 0, 1).score_wilson_interval());
        assert_eq!(WinRecord::new(0, 0, 0).score_wilson_interval(), (0.0, 1.0));
    }

    #[test]
    fn the_score_counts_a_draw_as_half_a_win_with_a_normal_interval() {
        // A League result of the docs: 9,228 wins, 87 draws, 685 losses.
        let record = WinRecord::new(9228, 87, 685);
        assert!((record.score() - 0.92715).abs() < 1e-12);
        let (low, high) = record.score_interval();
        assert_eq!(
            (format!("{low:.3}"), format!("{high:.3}")),
            ("0.922".into(), "0.932".into())
        );
        assert_eq!(WinRecord::new(0, 4, 0).score_interval(), (0.5, 0.5));
        assert_eq!(WinRecord::new(0, 0, 0).score_interval(), (0.0, 1.0));
    }

    #[test]
    fn openings_are_counted_by_their_two_games_and_a_lone_last_game_is_not() {
        // Games 0/1, 2/3, 4/5 and 6/7 share an opening each; game 8 has no partner.
        let won = [true, true, true, false, false, true, false, false, true];
        let counts = OpeningWins::count(won.len(), |k| won[k]);
        assert_eq!(
            counts,
            OpeningWins {
                both: 1,
                one: 2,
                neither: 1
            }
        );
    }
}
