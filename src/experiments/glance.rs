//! "Results at a glance": the project's headline claims, each measured once on the
//! held-out seeds of the seed ledger, and the one table the docs show of them.
//!
//! The claims live in `experiments/glance.toml` (a player, what it is measured against,
//! the games of each seed, the held-out seeds, what made the player). Each series played is
//! kept in `experiments/results/glance/measurements.csv`, and a series kept is never played
//! again: a held-out seed is used once per claim, and a claim changed after it was measured
//! is refused rather than measured anew under the same name.

use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::arena::stats::wilson_interval;
use crate::arena::{
    AgentSpec, MAX_SERIES_GAMES, SeriesConfig, WinRecord, league_agents, league_series,
};
use crate::csv_rows::{column_names, csv_text};
use crate::eval::NamedEvaluators;
use crate::experiments::measures::play_specs;
use crate::experiments::plan::Metric;
use crate::experiments::seed_roles;
use crate::experiments::{ExperimentError, write_file};

/// The claims' file name, beside the plans in `experiments/` (not a plan).
pub const CLAIMS_NAME: &str = "glance.toml";
/// Where the claims are, from the repository's root.
pub const CLAIMS_FILE: &str = "experiments/glance.toml";
/// Where their measurements are kept.
pub const MEASUREMENTS_FILE: &str = "experiments/results/glance/measurements.csv";
/// Largest claims or measurements file read.
const MAX_FILE_BYTES: u64 = 1 << 20;
/// Most claims a file may hold.
const MAX_CLAIMS: usize = 200;

/// The claims file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claims {
    pub claim: Vec<Claim>,
}

/// One headline claim: `player` measured against `opponent` (or by the Othello League's
/// protocol) over `games` games of each held-out seed.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// A short name, unique in the file: the measurements' key.
    pub id: String,
    pub game: String,
    /// The player as the table names it.
    pub label: String,
    /// Its agent spec.
    pub player: String,
    /// The opponent's agent spec; none with `protocol = "league"`.
    #[serde(default)]
    pub opponent: Option<String>,
    /// `"league"`: the League measure (the player's evaluator at 1 ply with ε = 0.1
    /// against the WPC's, from the start position).
    #[serde(default)]
    pub protocol: Option<String>,
    /// Games of each seed (even: every opening is played with both colours).
    pub games: usize,
    /// Random plies of each opening (benchmarks; the League plays from the start).
    #[serde(default = "default_openings")]
    pub openings: u32,
    /// `"win rate"` (the default for benchmarks) or `"score"` (the League's).
    #[serde(default)]
    pub metric: Option<String>,
    /// Held-out seeds of `game`, each a series of `games` games.
    pub seeds: Vec<u64>,
    /// The plan or command that made the player.
    pub made_by: String,
    /// Shown in the README's short table too.
    #[serde(default)]
    pub key: bool,
}

fn default_openings() -> u32 {
    6
}

impl Claim {
    /// The metric the claim reports.
    pub fn metric(&self) -> Metric {
        match (self.metric.as_deref(), self.is_league()) {
            (Some("score"), _) | (None, true) => Metric::Score,
            _ => Metric::WinRate,
        }
    }

    fn is_league(&self) -> bool {
        self.protocol.as_deref() == Some("league")
    }

    /// What the player is measured against, as the table says it.
    pub fn measure(&self) -> String {
        match &self.opponent {
            Some(opponent) => format!("vs `{opponent}`"),
            None => "League (vs `wpc:1@0.1`, 1 ply, ε 0.1)".to_string(),
        }
    }

    /// The agents of the claim's series, player first.
    fn agents(&self) -> Result<(AgentSpec, AgentSpec), String> {
        let player: AgentSpec = self.player.parse().map_err(|e| format!("player: {e}"))?;
        match &self.opponent {
            Some(opponent) => Ok((
                player,
                opponent.parse().map_err(|e| format!("opponent: {e}"))?,
            )),
            None => league_agents(&player).map_err(|e| format!("player: {e}")),
        }
    }

    /// The series of seed `seed`.
    fn series(&self, seed: u64) -> SeriesConfig {
        if self.is_league() {
            league_series(self.games, seed)
        } else {
            SeriesConfig {
                games: self.games,
                opening_plies: self.openings,
                seed,
            }
        }
    }

    /// Refuses a claim that could not be measured, or whose seeds are not held out for
    /// its game (a claim measured on a seed choices were made on would not be held out).
    fn check(&self) -> Result<(), String> {
        let what = |message: String| format!("claim {}: {message}", self.id);
        if self.id.is_empty() || self.id.contains([',', '"', '\n']) {
            return Err(what(
                "id: a name without commas, quotes or line breaks".into(),
            ));
        }
        match (&self.protocol, &self.opponent) {
            (None, Some(_)) => {}
            (Some(p), None) if p == "league" => {}
            (Some(p), _) if p != "league" => {
                return Err(what(format!("protocol: '{p}' is not \"league\"")));
            }
            _ => {
                return Err(what(
                    "give an opponent, or protocol = \"league\" (not both)".into(),
                ));
            }
        }
        if let Some(metric) = &self.metric
            && metric != "score"
            && metric != "win rate"
        {
            return Err(what(format!(
                "metric: '{metric}' is not \"score\" or \"win rate\""
            )));
        }
        if self.is_league() && self.metric() != Metric::Score {
            return Err(what("metric: the League measure is a score".into()));
        }
        if self.games == 0 || self.games % 2 == 1 || self.games > MAX_SERIES_GAMES {
            return Err(what(format!(
                "games: {} — an even number from 2 to {MAX_SERIES_GAMES}",
                self.games
            )));
        }
        if self.seeds.is_empty() {
            return Err(what("seeds: none given".into()));
        }
        let held_out = seed_roles::held_out(&self.game);
        if let Some(seed) = self.seeds.iter().find(|seed| !held_out.contains(seed)) {
            return Err(what(format!(
                "seeds: {seed} is not held out for {} in experiments/seeds.toml \
                 (held out: {held_out:?}); a claim is measured on held-out seeds only",
                self.game
            )));
        }
        self.agents().map(|_| ()).map_err(what)
    }
}

impl Claims {
    /// Reads and checks the claims in `text`.
    pub fn parse(text: &str) -> Result<Claims, String> {
        let claims: Claims = toml::from_str(text).map_err(|e| e.to_string())?;
        if claims.claim.len() > MAX_CLAIMS {
            return Err(format!(
                "{} claims: at most {MAX_CLAIMS}",
                claims.claim.len()
            ));
        }
        for (k, claim) in claims.claim.iter().enumerate() {
            claim.check()?;
            if claims.claim[..k].iter().any(|other| other.id == claim.id) {
                return Err(format!("claim {}: the id is used twice", claim.id));
            }
        }
        Ok(claims)
    }

    /// Reads the claims file at `path`.
    pub fn read(path: &Path) -> Result<Claims, String> {
        let text = read_text(path)?;
        Claims::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// One series played: a row of the measurements file. The specs and games are kept so
/// that a claim changed after its measure is recognised.
#[derive(Clone, Debug, Deserialize, PartialEq, Serialize)]
pub struct Measurement {
    pub claim: String,
    pub seed: u64,
    pub player: String,
    pub opponent: String,
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
}

impl Measurement {
    /// Is this the series `claim` plays on `seed`, as the claim now stands?
    fn is_of(&self, claim: &Claim) -> bool {
        self.player == claim.player
            && self.opponent == opponent_cell(claim)
            && self.games == claim.games
    }
}

/// A claim's opponent as the measurements file keeps it.
fn opponent_cell(claim: &Claim) -> String {
    match &claim.opponent {
        Some(opponent) => opponent.clone(),
        None => "league".to_string(),
    }
}

/// The measurements kept in `path` (none if it does not exist).
pub fn read_measurements(path: &Path) -> Result<Vec<Measurement>, String> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = read_text(path)?;
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<Vec<Measurement>, _>>()
        .map_err(|e| format!("{} is damaged: {e}", path.display()))
}

/// Writes `measurements` to `path` (atomically: a stopped measure loses no series).
pub fn write_measurements(
    path: &Path,
    measurements: &[Measurement],
) -> Result<(), ExperimentError> {
    let Some(first) = measurements.first() else {
        return Ok(());
    };
    let text = csv_text(
        &column_names(first),
        measurements,
        csv::QuoteStyle::Necessary,
    );
    write_file(path, text.as_bytes())
}

/// The series of `claims` not yet measured, as (claim, seed) in file order; refuses a claim
/// whose kept measurement was of other players or games.
pub fn missing<'a>(
    claims: &'a Claims,
    measurements: &[Measurement],
) -> Result<Vec<(&'a Claim, u64)>, String> {
    let mut todo = Vec::new();
    for claim in &claims.claim {
        for &seed in &claim.seeds {
            match measurements
                .iter()
                .find(|m| m.claim == claim.id && m.seed == seed)
            {
                Some(kept) if kept.is_of(claim) => {}
                Some(kept) => {
                    return Err(format!(
                        "claim {}: seed {seed} was measured as {} vs {} over {} games; a held-out \
                         series is played once, so a changed claim takes a new id",
                        claim.id, kept.player, kept.opponent, kept.games
                    ));
                }
                None => todo.push((claim, seed)),
            }
        }
    }
    Ok(todo)
}

/// Plays `claim`'s series on `seed` (a forfeited game is an error, never a result).
pub fn measure<G: NamedEvaluators>(
    start: &G,
    claim: &Claim,
    seed: u64,
) -> Result<Measurement, ExperimentError> {
    let (player, opponent) = claim.agents().map_err(ExperimentError::Directory)?;
    let record = play_specs(start, &player, &opponent, claim.series(seed))?;
    Ok(Measurement {
        claim: claim.id.clone(),
        seed,
        player: claim.player.clone(),
        opponent: opponent_cell(claim),
        games: record.games,
        wins: record.wins,
        draws: record.draws,
        losses: record.losses,
    })
}

/// A claim's games pooled over its measured seeds, and how many of its seeds they are.
fn pooled(claim: &Claim, measurements: &[Measurement]) -> (WinRecord, usize) {
    let mine: Vec<&Measurement> = measurements
        .iter()
        .filter(|m| m.claim == claim.id && claim.seeds.contains(&m.seed) && m.is_of(claim))
        .collect();
    let sum = |f: fn(&Measurement) -> usize| mine.iter().map(|m| f(m)).sum::<usize>();
    (
        WinRecord::new(sum(|m| m.wins), sum(|m| m.draws), sum(|m| m.losses)),
        mine.len(),
    )
}

/// The figure of a claim: its metric pooled over the seeds, with the 95% interval
/// (Wilson's for a win rate, the normal one for a score).
fn figure(claim: &Claim, record: &WinRecord) -> String {
    let (value, (low, high)) = match claim.metric() {
        Metric::Score => (record.score(), record.score_interval()),
        _ => (record.win_rate, wilson_interval(record.wins, record.games)),
    };
    match claim.metric() {
        Metric::Score => format!("score **{value:.3}** ({low:.3} – {high:.3})"),
        _ => format!(
            "win rate **{:.1}%** ({:.1} – {:.1})",
            100.0 * value,
            100.0 * low,
            100.0 * high
        ),
    }
}

/// The table of `claims` (only the key ones with `key_only`): game, player, measure,
/// figure with its interval, the games and held-out seeds behind it, and what made the
/// player. A claim not yet measured on every seed says so instead of a figure.
pub fn table(claims: &Claims, measurements: &[Measurement], key_only: bool) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "| game | player | measure | figure (95% interval) | W / D / L | held-out seeds | made by |"
    );
    let _ = writeln!(text, "| --- | --- | --- | --- | ---: | --- | --- |");
    for claim in claims.claim.iter().filter(|c| c.key || !key_only) {
        let (record, seeds) = pooled(claim, measurements);
        let (figure, counts) = if seeds == claim.seeds.len() {
            (
                figure(claim, &record),
                format!("{} / {} / {}", record.wins, record.draws, record.losses),
            )
        } else {
            ("not yet measured".to_string(), "–".to_string())
        };
        let seeds: Vec<String> = claim.seeds.iter().map(u64::to_string).collect();
        let _ = writeln!(
            text,
            "| {} | {} | {} | {figure} | {counts} | {} × {} games | {} |",
            claim.game,
            claim.label,
            claim.measure(),
            seeds.join(", "),
            claim.games,
            claim.made_by
        );
    }
    text
}

/// A UTF-8 file of at most [`MAX_FILE_BYTES`].
fn read_text(path: &Path) -> Result<String, String> {
    let bytes = crate::persist::read_limited(path, MAX_FILE_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(extra: &str) -> String {
        format!(
            "[[claim]]\nid = \"k\"\ngame = \"kalah\"\nlabel = \"h1\"\nplayer = \"heuristic:1\"\n\
             games = 4\nseeds = [32001]\nmade_by = \"-\"\n{extra}"
        )
    }

    #[test]
    fn the_claims_file_is_named_alike_in_both_constants() {
        assert!(CLAIMS_FILE.ends_with(&format!("/{CLAIMS_NAME}")));
    }

    #[test]
    fn a_claim_on_a_seed_not_held_out_is_refused() {
        let text = claim("opponent = \"random\"\n").replace("32001", "777");
        let error = Claims::parse(&text).unwrap_err();
        assert!(
            error.contains("claim k: seeds: 777 is not held out for kalah"),
            "{error}"
        );
        // Another game's held-out seed is not this game's.
        let error =
            Claims::parse(&claim("opponent = \"random\"\n").replace("32001", "31001")).unwrap_err();
        assert!(error.contains("31001 is not held out for kalah"), "{error}");
    }

    #[test]
    fn bad_claims_are_refused_by_name() {
        for (extra, expected) in [
            ("", "give an opponent"),
            ("opponent = \"random\"\nprotocol = \"league\"\n", "not both"),
            ("opponent = \"nobody\"\n", "claim k: opponent:"),
            ("opponent = \"random\"\nmetric = \"elo\"\n", "metric: 'elo'"),
            (
                "protocol = \"league\"\nmetric = \"win rate\"\n",
                "League measure is a score",
            ),
        ] {
            let error = Claims::parse(&claim(extra)).unwrap_err();
            assert!(error.contains(expected), "{extra:?}: {error}");
        }
        let odd = claim("opponent = \"random\"\n").replace("games = 4", "games = 3");
        assert!(Claims::parse(&odd).unwrap_err().contains("games: 3"));
        let twice = format!(
            "{}{}",
            claim("opponent = \"random\"\n"),
            claim("opponent = \"random\"\n")
        );
        assert!(Claims::parse(&twice).unwrap_err().contains("used twice"));
    }

    #[test]
    fn a_kept_series_is_not_played_again_and_a_changed_claim_is_refused() {
        let claims = Claims::parse(&claim("opponent = \"random\"\n")).unwrap();
        let start = crate::games::mancala::Kalah::game(6, 4, false);
        let todo = missing(&claims, &[]).unwrap();
        assert_eq!(todo.len(), 1);
        let measured = measure(&start, todo[0].0, todo[0].1).unwrap();
        assert_eq!(measured.games, 4);
        assert_eq!(measured.wins + measured.draws + measured.losses, 4);
        let kept = vec![measured.clone()];
        assert!(missing(&claims, &kept).unwrap().is_empty());
        // The same series again gives the same record: a seeded measure.
        assert_eq!(measure(&start, todo[0].0, todo[0].1).unwrap(), measured);
        let changed = Claims::parse(&claim("opponent = \"heuristic:2\"\n")).unwrap();
        let error = missing(&changed, &kept).unwrap_err();
        assert!(error.contains("a changed claim takes a new id"), "{error}");
        let table = table(&claims, &kept, false);
        assert!(
            table.contains("| kalah | h1 | vs `random` | win rate **"),
            "{table}"
        );
        assert!(table.contains("| 32001 × 4 games | - |"), "{table}");
        assert!(self::table(&claims, &[], false).contains("not yet measured"));
        assert_eq!(self::table(&claims, &kept, true).lines().count(), 2);
    }
}
