//! Experiment plans: a TOML file naming a game, a base configuration (any setting of a
//! run, by its name in `run.json`), named variants that override it, the seeds every
//! variant runs with, and the measures taken of every run's champion.
//!
//! A plan's runs are evolution runs, or with `kind = "distill"` offline distillation fits
//! (`learn::distill`), whose `[base]` and variants hold a fit's settings by their names in
//! `distill.json` (`teacher`, `hidden`, `positions`, ...).
//!
//! ```toml
//! game = "kalah"
//! seeds = [1, 2, 3, 4, 5]
//! baseline = "td"                 # the variant others are compared with (default: the first)
//!
//! [base]
//! preset = "td"
//! generations = 10
//! td_games = 2000
//!
//! [variants.td]                   # no overrides: the base itself
//! [variants."lambda-0.5"]         # quoted: a dot would split the name
//! td_lambda = 0.5
//!
//! [[evaluation.benchmark]]        # the champion against an opponent, on held-out openings
//! opponent = "heuristic:2"
//! games = 200
//! seed = 777
//! ```
//!
//! A plan is refused, with the key named, for an unknown key, a value of the wrong kind,
//! settings a run would refuse, a variant that changes nothing, or an evaluation seed that
//! is also a run seed (the measures must be held out from training).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::eval::NamedEvaluators;
use crate::evolve::config::EvolveConfig;
use crate::evolve::settings;
use crate::experiments::seed_roles;
use crate::learn::distill::DistillSettings;
use crate::learn::distill::run::check_files;

/// The name of the round robin's measure in results.
pub const RATING: &str = "rating (Elo)";

/// What a measure's values are, so that no table or axis passes one for another: a
/// benchmark counts wins, the League measure counts draws as half a win, the round robin
/// rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Wins / games.
    WinRate,
    /// (Wins + draws / 2) / games.
    Score,
    /// A Bradley–Terry rating on the Elo scale.
    Elo,
}

impl Metric {
    /// The metric of the measure named `measure` in results.
    pub fn of(measure: &str) -> Metric {
        match measure {
            "league" => Metric::Score,
            RATING => Metric::Elo,
            _ => Metric::WinRate,
        }
    }

    /// Its name in tables and on axes.
    pub fn name(self) -> &'static str {
        match self {
            Metric::WinRate => "win rate",
            Metric::Score => "score",
            Metric::Elo => "Elo",
        }
    }

    /// Its name as a CSV cell or JSON key.
    pub fn key(self) -> &'static str {
        match self {
            Metric::WinRate => "win_rate",
            Metric::Score => "score",
            Metric::Elo => "elo",
        }
    }

    /// What it counts, for a reader.
    pub fn definition(self) -> &'static str {
        match self {
            Metric::WinRate => "wins / games",
            Metric::Score => "(wins + draws/2) / games",
            Metric::Elo => "Bradley–Terry rating of the round robin, Elo scale",
        }
    }
}

/// Most runs a plan may ask for (variants × seeds).
pub const MAX_RUNS: usize = 10_000;

/// Why a plan cannot be run.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("{0}")]
    Syntax(String),
    #[error("{0}")]
    Invalid(String),
}

/// What a plan's runs are.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    /// Evolution runs (`evoboard evolve`), the default.
    #[default]
    Evolve,
    /// Offline distillation fits (`evoboard distill`).
    Distill,
}

impl RunKind {
    /// What a step of such a run is called: its champion is from one.
    pub fn step(self) -> &'static str {
        match self {
            RunKind::Evolve => "generation",
            RunKind::Distill => "epoch",
        }
    }
}

/// A plan as written: its game and the rest still unresolved (settings are checked once
/// the game is known, since their defaults depend on it).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanFile {
    pub game: String,
    #[serde(default)]
    pub kind: RunKind,
    #[serde(default)]
    pub description: String,
    pub seeds: Vec<u64>,
    #[serde(default)]
    pub baseline: Option<String>,
    #[serde(default)]
    base: toml::Table,
    variants: toml::Table,
    #[serde(default)]
    pub evaluation: Evaluation,
    #[serde(default)]
    pub held_out: Option<HeldOut>,
}

/// The measures taken of every run's champion.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Evaluation {
    /// Series of the champion against fixed opponents.
    #[serde(default)]
    pub benchmark: Vec<BenchmarkMeasure>,
    /// The Othello League measure.
    #[serde(default)]
    pub league: Option<LeagueMeasure>,
    /// A round robin among every run's champion (and fixed anchors), rated on the Elo
    /// scale.
    #[serde(default)]
    pub round_robin: Option<RoundRobinMeasure>,
}

/// The test after validation: the run whose champion scores highest on the evaluation
/// measure `choose_by`, or, for a player wanted good at several measures at once, the run
/// nearest to meeting every one of `targets` (the highest of its smallest margin, value
/// less target, over them), is measured again on games of seeds that neither the runs nor
/// the evaluation use (the first in plan order on a tie; only the variants `among` names,
/// if it names any). Validation chooses, so its winner's validation figure is flattered by
/// the choice; these measures are not, and are the figures to quote.
#[derive(Clone, Debug, Deserialize, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HeldOut {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choose_by: Option<String>,
    /// Evaluation measures and the value each should reach (one of these or `choose_by`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub targets: BTreeMap<String, f64>,
    #[serde(default)]
    pub among: Vec<String>,
    #[serde(default)]
    pub benchmark: Vec<BenchmarkMeasure>,
    #[serde(default)]
    pub league: Option<LeagueMeasure>,
    #[serde(default)]
    pub panel: Option<PanelMeasure>,
}

/// The champion (at `player_depth`, or the depth it evolved at) against each opponent of
/// the game's panel searching `depth` plies (see [`crate::arena::panel_opponents`]),
/// `games` games each from `openings`-ply openings of `seed`.
#[derive(Clone, Debug, Deserialize, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PanelMeasure {
    pub depth: u32,
    #[serde(default)]
    pub player_depth: Option<u32>,
    #[serde(default = "hundred")]
    pub games: usize,
    #[serde(default = "six")]
    pub openings: u32,
    pub seed: u64,
}

fn hundred() -> usize {
    100
}

/// Every champion (and each of `anchors`) against every other, `games` games a pair from
/// `openings`-ply openings of `seed`; each champion's measure is its Bradley–Terry rating,
/// the first anchor at 0 (without anchors, the baseline's champion of the first seed).
#[derive(Clone, Debug, Deserialize, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRobinMeasure {
    pub games: usize,
    #[serde(default = "six")]
    pub openings: u32,
    pub seed: u64,
    #[serde(default)]
    pub anchors: Vec<String>,
}

/// The champion (at `depth`, or the depth it was trained at) against `opponent`: its win
/// rate over `games` games from `openings`-ply random openings drawn from `seed`.
#[derive(Clone, Debug, Deserialize, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BenchmarkMeasure {
    /// How results name it (default: `vs OPPONENT`, with the depth when one is set).
    #[serde(default)]
    pub name: Option<String>,
    pub opponent: String,
    #[serde(default)]
    pub depth: Option<u32>,
    pub games: usize,
    #[serde(default = "six")]
    pub openings: u32,
    pub seed: u64,
}

fn six() -> u32 {
    6
}

/// The League measure over `games` games drawn from `seed`.
#[derive(Clone, Debug, Deserialize, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueMeasure {
    #[serde(default = "league_games")]
    pub games: usize,
    pub seed: u64,
}

fn league_games() -> usize {
    crate::arena::LEAGUE_GAMES
}

impl BenchmarkMeasure {
    /// The measure's name in results: `vs OPPONENT`, with the depth when one is set.
    pub fn name(&self) -> String {
        match (&self.name, self.depth) {
            (Some(name), _) => name.clone(),
            (None, Some(depth)) => format!("vs {} at depth {depth}", self.opponent),
            (None, None) => format!("vs {}", self.opponent),
        }
    }
}

/// The settings of a variant's runs, of the plan's kind.
#[derive(Clone, Debug, PartialEq)]
pub enum RunSettings {
    /// Boxed: a plan's variants are few, and an evolution run's settings are many.
    Evolve(Box<EvolveConfig>),
    Distill(DistillSettings),
}

impl RunSettings {
    /// The settings of the run of `seed`.
    pub fn with_seed(&self, seed: u64) -> RunSettings {
        match self {
            RunSettings::Evolve(config) => RunSettings::Evolve(Box::new(EvolveConfig {
                seed,
                ..(**config).clone()
            })),
            RunSettings::Distill(settings) => RunSettings::Distill(DistillSettings {
                seed,
                ..settings.clone()
            }),
        }
    }
}

/// One variant: its name and the settings of its runs (the seed set per run).
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub name: String,
    pub settings: RunSettings,
}

/// A plan resolved for its game: every variant's settings checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub game: String,
    pub kind: RunKind,
    pub description: String,
    pub seeds: Vec<u64>,
    pub variants: Vec<Variant>,
    /// Index of the variant the others are compared with.
    pub baseline: usize,
    pub evaluation: Evaluation,
    pub held_out: Option<HeldOut>,
}

impl PlanFile {
    /// Reads a plan's text; TOML errors say where (line and column) and what.
    pub fn parse(text: &str) -> Result<PlanFile, PlanError> {
        toml::from_str(text).map_err(|error| {
            let message = error.message().trim_end().to_string();
            let place = error
                .span()
                .map(|span| {
                    let line = text[..span.start].matches('\n').count() + 1;
                    format!(" (line {line})")
                })
                .unwrap_or_default();
            PlanError::Syntax(format!("{message}{place}"))
        })
    }

    /// The variants' names as written, before anything is resolved: what a reader of the
    /// plan's results directory needs to know which runs it should hold.
    pub fn variant_names(&self) -> Vec<String> {
        self.variants.keys().cloned().collect()
    }

    /// Resolves every variant's settings for the game `start` begins.
    pub fn resolve<G: NamedEvaluators>(self, start: &G) -> Result<Plan, PlanError> {
        let invalid = |message: String| Err(PlanError::Invalid(message));
        if self.seeds.is_empty() {
            return invalid("seeds: list at least one seed".into());
        }
        if self.variants.is_empty() {
            return invalid("variants: name at least one variant ([variants.NAME])".into());
        }
        if self.variants.len().saturating_mul(self.seeds.len()) > MAX_RUNS {
            return invalid(format!(
                "{} variants × {} seeds is over the limit of {MAX_RUNS} runs",
                self.variants.len(),
                self.seeds.len()
            ));
        }
        if let Some(seed) = duplicate(&self.seeds) {
            return invalid(format!("seeds: {seed} is listed twice"));
        }
        let mut variants: Vec<Variant> = Vec::new();
        for (name, overrides) in &self.variants {
            check_name(name)?;
            let toml::Value::Table(overrides) = overrides else {
                return invalid(format!("variants.{name}: must be a table of settings"));
            };
            let settings = match self.kind {
                RunKind::Evolve => settings(start, &self.base, overrides)
                    .map(|config| RunSettings::Evolve(Box::new(config))),
                RunKind::Distill => {
                    fit_settings(start, &self.base, overrides).map(RunSettings::Distill)
                }
            }
            .map_err(|reason| PlanError::Invalid(format!("variants.{name}: {reason}")))?;
            if let Some(same) = variants.iter().find(|v| v.settings == settings) {
                return invalid(format!(
                    "variants.{name}: changes nothing from variant '{}' (its runs would repeat them)",
                    same.name
                ));
            }
            variants.push(Variant {
                name: name.clone(),
                settings,
            });
        }
        let baseline = match &self.baseline {
            None => 0,
            Some(name) => variants
                .iter()
                .position(|v| &v.name == name)
                .ok_or_else(|| {
                    PlanError::Invalid(format!("baseline: no variant named '{name}'"))
                })?,
        };
        self.evaluation.check(start, &self.seeds)?;
        seed_roles::check_plan_seeds(start.name(), &self.seeds, &self.evaluation.seeds())
            .map_err(PlanError::Invalid)?;
        if let Some(held_out) = &self.held_out {
            held_out.check(start, &self.seeds, &variants, &self.evaluation)?;
        }
        Ok(Plan {
            game: self.game,
            kind: self.kind,
            description: self.description,
            seeds: self.seeds,
            variants,
            baseline,
            evaluation: self.evaluation,
            held_out: self.held_out,
        })
    }
}

impl Plan {
    /// The measures every run's champion is measured by (the evaluation's benchmarks and
    /// League measure), as one line: what a kept evaluation file was measured for.
    pub fn measures_key(&self) -> String {
        let measures = serde_json::json!({
            "benchmark": self.evaluation.benchmark,
            "league": self.evaluation.league,
        });
        measures.to_string()
    }
}

impl Evaluation {
    /// Refuses measures that cannot be taken, or whose seed is also a run's seed.
    fn check<G: NamedEvaluators>(&self, start: &G, seeds: &[u64]) -> Result<(), PlanError> {
        let invalid = |message: String| Err(PlanError::Invalid(message));
        let held_out = |what: &str, seed: u64| {
            if seeds.contains(&seed) {
                invalid(format!(
                    "{what}: seed {seed} is also a run seed; measure on held-out openings"
                ))
            } else {
                Ok(())
            }
        };
        check_series(
            start,
            "evaluation",
            &self.benchmark,
            self.league.as_ref(),
            held_out,
        )?;
        if let Some(round_robin) = &self.round_robin {
            let what = "evaluation.round_robin";
            check_games(what, round_robin.games)?;
            for anchor in &round_robin.anchors {
                check_agent(start, &format!("{what}: anchors"), anchor)?;
            }
            held_out(what, round_robin.seed)?;
        }
        distinct("evaluation", &self.measure_names())
    }

    /// Every seed the measures play, so that held-out measures can keep clear of them.
    fn seeds(&self) -> Vec<u64> {
        let benchmarks = self.benchmark.iter().map(|b| b.seed);
        let league = self.league.iter().map(|l| l.seed);
        let round_robin = self.round_robin.iter().map(|r| r.seed);
        benchmarks.chain(league).chain(round_robin).collect()
    }

    /// The names of the measures, in the order results list them.
    pub fn measure_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.benchmark.iter().map(BenchmarkMeasure::name).collect();
        if self.league.is_some() {
            names.push("league".to_string());
        }
        if self.round_robin.is_some() {
            names.push(RATING.to_string());
        }
        names
    }
}

impl BenchmarkMeasure {
    /// Refuses an opponent that cannot be built, an odd or unbounded number of games, or a
    /// depth out of range; `what` names the measure in the message.
    fn check<G: NamedEvaluators>(&self, start: &G, what: &str) -> Result<(), PlanError> {
        check_agent(start, &format!("{what}: opponent"), &self.opponent)?;
        check_games(what, self.games)?;
        check_depth(what, self.depth)
    }
}

impl LeagueMeasure {
    /// Refuses the League measure for another game than Othello, or a number of games
    /// out of range; `what` names the measure in the message.
    fn check<G: NamedEvaluators>(&self, start: &G, what: &str) -> Result<(), PlanError> {
        if start.name() != "othello" {
            return Err(PlanError::Invalid(format!(
                "{what}: the League measure is for othello"
            )));
        }
        if self.games == 0 || self.games > crate::arena::MAX_SERIES_GAMES {
            return Err(PlanError::Invalid(format!(
                "{what}: games must lie in 1..={}",
                crate::arena::MAX_SERIES_GAMES
            )));
        }
        Ok(())
    }
}

impl HeldOut {
    /// Refuses a choice among variants the plan lacks or by a measure the evaluation does not
    /// take, a table without measures, measures that cannot be taken, and seeds that the
    /// runs or the evaluation use: held-out games are games no choice was made on.
    fn check<G: NamedEvaluators>(
        &self,
        start: &G,
        run_seeds: &[u64],
        variants: &[Variant],
        evaluation: &Evaluation,
    ) -> Result<(), PlanError> {
        let invalid = |message: String| Err(PlanError::Invalid(message));
        if let Some(unknown) = self
            .among
            .iter()
            .find(|name| !variants.iter().any(|v| &v.name == *name))
        {
            return invalid(format!("held_out.among: no variant named '{unknown}'"));
        }
        let validation = evaluation.measure_names();
        let named: Vec<(&str, &String)> = match (&self.choose_by, self.targets.is_empty()) {
            (Some(measure), true) => vec![("held_out.choose_by", measure)],
            (None, false) => self
                .targets
                .keys()
                .map(|measure| ("held_out.targets", measure))
                .collect(),
            _ => {
                return invalid(
                    "held_out: choose the run by one measure (choose_by) or by targets, one of the two"
                        .into(),
                );
            }
        };
        if let Some((key, measure)) = named.iter().find(|(_, m)| !validation.contains(m)) {
            return invalid(format!(
                "{key}: '{measure}' is not a measure of the evaluation ({})",
                validation.join(", ")
            ));
        }
        if let Some((measure, target)) = self.targets.iter().find(|(_, t)| !t.is_finite()) {
            return invalid(format!(
                "held_out.targets: '{measure}' = {target} is not a number"
            ));
        }
        if self.measure_names().is_empty() {
            return invalid("held_out: name at least one measure to take".into());
        }
        let validation_seeds = evaluation.seeds();
        let fresh = |what: &str, seed: u64| {
            if run_seeds.contains(&seed) {
                invalid(format!("{what}: seed {seed} is also a run seed"))
            } else if validation_seeds.contains(&seed) {
                invalid(format!(
                    "{what}: seed {seed} is also an evaluation seed, on which the run was chosen"
                ))
            } else {
                Ok(())
            }
        };
        check_series(
            start,
            "held_out",
            &self.benchmark,
            self.league.as_ref(),
            fresh,
        )?;
        if let Some(panel) = &self.panel {
            let what = "held_out.panel";
            check_games(what, panel.games)?;
            check_depth(what, Some(panel.depth))?;
            check_depth(&format!("{what}: player_depth"), panel.player_depth)?;
            fresh(what, panel.seed)?;
        }
        distinct("held_out", &self.measure_names())
    }

    /// The names of the held-out measures other than the panel's rows, in the order
    /// results list them.
    pub fn measure_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.benchmark.iter().map(BenchmarkMeasure::name).collect();
        if self.league.is_some() {
            names.push("league".to_string());
        }
        if self.panel.is_some() {
            names.push("panel".to_string());
        }
        names
    }
}

/// Refuses the benchmarks and League measure of `table` that cannot be taken, or whose
/// seed `seed_allowed` refuses (given the measure's place in the plan and its seed).
fn check_series<G: NamedEvaluators>(
    start: &G,
    table: &str,
    benchmarks: &[BenchmarkMeasure],
    league: Option<&LeagueMeasure>,
    seed_allowed: impl Fn(&str, u64) -> Result<(), PlanError>,
) -> Result<(), PlanError> {
    for (k, measure) in benchmarks.iter().enumerate() {
        let what = format!("{table}.benchmark[{k}]");
        measure.check(start, &what)?;
        seed_allowed(&what, measure.seed)?;
    }
    if let Some(league) = league {
        let what = format!("{table}.league");
        league.check(start, &what)?;
        seed_allowed(&what, league.seed)?;
    }
    Ok(())
}

/// Refuses an agent spec that cannot be built for the game; `what` names where it was.
fn check_agent<G: NamedEvaluators>(start: &G, what: &str, spec: &str) -> Result<(), PlanError> {
    spec.parse::<crate::arena::AgentSpec>()
        .and_then(|spec| spec.build(start).map(drop))
        .map_err(|error| PlanError::Invalid(format!("{what}: {error}")))
}

/// Refuses a series of an odd number of games, or of none, or of more than a series holds.
fn check_games(what: &str, games: usize) -> Result<(), PlanError> {
    if games < 2 || games % 2 == 1 || games > crate::arena::MAX_SERIES_GAMES {
        return Err(PlanError::Invalid(format!(
            "{what}: games must be even, from 2 to {} (each opening with both colours)",
            crate::arena::MAX_SERIES_GAMES
        )));
    }
    Ok(())
}

/// Refuses a search depth out of range.
fn check_depth(what: &str, depth: Option<u32>) -> Result<(), PlanError> {
    if depth.is_some_and(|d| !(1..=crate::search::MAX_DEPTH).contains(&d)) {
        return Err(PlanError::Invalid(format!(
            "{what}: depth must lie in 1..={}",
            crate::search::MAX_DEPTH
        )));
    }
    Ok(())
}

/// Refuses two measures of one table with the same name, or with names that give the
/// same figure file (`vs heuristic:1`, `VS Heuristic 1`): results or plots would mix them.
fn distinct(table: &str, names: &[String]) -> Result<(), PlanError> {
    let file = |name: &str| measure_figure_name(name);
    for (k, name) in names.iter().enumerate() {
        let Some(other) = names[..k].iter().find(|other| file(other) == file(name)) else {
            continue;
        };
        let message = if other == name {
            format!("{table}: two measures are named '{name}': give one a `name = \"...\"`")
        } else {
            format!(
                "{table}: the measures '{other}' and '{name}' would share the figure {}.png: give one another `name = \"...\"`",
                file(name)
            )
        };
        return Err(PlanError::Invalid(message));
    }
    Ok(())
}

/// Variant names become directory and file names: letters, digits, `-`, `_` and `.`.
fn check_name(name: &str) -> Result<(), PlanError> {
    let plain = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        Ok(())
    } else {
        Err(PlanError::Invalid(format!(
            "variants.{name}: a variant name is 1–64 letters, digits, '-', '_' or '.', not starting with '.'"
        )))
    }
}

fn duplicate(seeds: &[u64]) -> Option<u64> {
    let mut seen = std::collections::HashSet::with_capacity(seeds.len());
    seeds.iter().copied().find(|&seed| !seen.insert(seed))
}

/// The settings of a variant: the defaults of its preset for the game, then `base`, then
/// `overrides` (keys as in `run.json`, or as `evolve`'s flags), resolved and checked as
/// every front end's are ([`settings::resolve`]). The seed is left to each run.
fn settings<G: NamedEvaluators>(
    start: &G,
    base: &toml::Table,
    overrides: &toml::Table,
) -> Result<EvolveConfig, String> {
    let given = given_settings(base, overrides)?;
    settings::resolve(start, &given).map_err(|error| error.to_string())
}

/// The settings of a distillation variant: the defaults, then `base`, then `overrides`
/// (keys as in `distill.json`, or as `distill`'s flags), checked as the command's are, and
/// the files they name read as the fit will read them. The seed is left to each run.
fn fit_settings<G: NamedEvaluators>(
    start: &G,
    base: &toml::Table,
    overrides: &toml::Table,
) -> Result<DistillSettings, String> {
    let given = given_settings(base, overrides)?;
    let settings = DistillSettings::resolve(&given).map_err(|error| error.to_string())?;
    check_files(start, &settings).map_err(|error| error.to_string())?;
    Ok(settings)
}

/// The settings `base` and then `overrides` give, as values; the seed is refused (each run
/// has its own, from the plan's `seeds`).
fn given_settings(
    base: &toml::Table,
    overrides: &toml::Table,
) -> Result<Vec<(String, serde_json::Value)>, String> {
    let mut given = Vec::new();
    for (key, value) in base.iter().chain(overrides) {
        if key.replace('-', "_") == "seed" {
            return Err(format!(
                "{key}: the seeds are the plan's `seeds`, not a setting"
            ));
        }
        let value = serde_json::to_value(value).map_err(|e| format!("{key}: {e}"))?;
        given.push((key.clone(), value));
    }
    Ok(given)
}

/// The plans in `dir` (its `.toml` files but the seed ledger, `seeds.toml`, the plans'
/// status notes, `status.toml`, and the headline claims, `glance.toml`), sorted.
pub fn plan_files(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let not_plans = [
        seed_roles::LEDGER_FILE,
        super::status::NOTES_FILE,
        super::glance::CLAIMS_NAME,
    ]
    .map(std::ffi::OsStr::new);
    let mut plans = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let is_plan = path.extension().is_some_and(|ext| ext == "toml")
            && !path
                .file_name()
                .is_some_and(|name| not_plans.contains(&name));
        if is_plan {
            plans.push(path);
        }
    }
    plans.sort();
    Ok(plans)
}

/// The file name (without extension) of the figure of `measure`: its words, lower case,
/// joined by `-`. Two measures of one plan may not share it (the plan refuses them).
pub fn measure_figure_name(measure: &str) -> String {
    let slug = measure
        .to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    format!("measure-{slug}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::config::NetworkChoice;
    use crate::games::othello::Othello;

    fn resolved(variant: &str) -> Result<Plan, PlanError> {
        let text = format!(
            "game = \"othello\"\nseeds = [1]\n[base]\npreset = \"cmaes\"\n[variants.a]\n{variant}\n"
        );
        PlanFile::parse(&text)?.resolve(&Othello::start())
    }

    #[test]
    fn a_network_is_written_as_on_the_command_line_or_as_in_run_json() {
        let written = resolved("network = \"ntuple:straight2\"").unwrap();
        let tagged = resolved("network = { ntuple = \"straight2\" }").unwrap();
        let RunSettings::Evolve(config) = &written.variants[0].settings else {
            panic!("an evolution plan");
        };
        assert_eq!(
            config.network,
            NetworkChoice::NTuple("straight2".to_string())
        );
        assert_eq!(written, tagged);
        let wrong = resolved("network = \"ntuple\"").unwrap_err().to_string();
        assert!(
            wrong.contains("network: unknown network 'ntuple'"),
            "{wrong}"
        );
    }

    /// A plan's evaluation compares variants: a seed the ledger holds out is refused there
    /// and as a run seed, and allowed in the plan's `[held_out]` table.
    #[test]
    fn a_plan_that_measures_or_trains_on_a_held_out_seed_is_refused() {
        let reserved = crate::experiments::seed_roles::held_out("othello")[0];
        let plan = |seeds: &str, evaluation: u64, held_out: u64| {
            let text = format!(
                "game = \"othello\"\nseeds = [{seeds}]\n[base]\npreset = \"cmaes\"\n[variants.a]\n\
                 [[evaluation.benchmark]]\nopponent = \"heuristic:1\"\ngames = 10\nseed = {evaluation}\n\
                 [held_out]\nchoose_by = \"vs heuristic:1\"\n\
                 [[held_out.benchmark]]\nopponent = \"heuristic:2\"\ngames = 10\nseed = {held_out}\n"
            );
            PlanFile::parse(&text)
                .and_then(|plan| plan.resolve(&Othello::start()))
                .map(|_| ())
                .map_err(|error| error.to_string())
        };
        assert_eq!(plan("1", 777, reserved), Ok(()));
        let compared = plan("1", reserved, 9001).unwrap_err();
        assert!(
            compared.contains(&format!(
                "evaluation: seed {reserved} is held out for othello"
            )),
            "{compared}"
        );
        let trained = plan(&format!("1, {reserved}"), 777, 9001).unwrap_err();
        assert!(
            trained.contains(&format!("seeds: seed {reserved} is held out for othello")),
            "{trained}"
        );
    }

    /// The held-out run is chosen by one measure or by targets, each an evaluation measure.
    #[test]
    fn a_held_out_choice_names_one_measure_or_targets_of_the_evaluation() {
        let plan = |choice: &str| {
            let text = format!(
                "game = \"othello\"\nseeds = [1]\n[base]\npreset = \"cmaes\"\n[variants.a]\n\
                 [[evaluation.benchmark]]\nopponent = \"heuristic:1\"\ngames = 10\nseed = 777\n\
                 [evaluation.league]\nseed = 4242\n\
                 [held_out]\n{choice}\n\
                 [[held_out.benchmark]]\nopponent = \"heuristic:2\"\ngames = 10\nseed = 9\n"
            );
            PlanFile::parse(&text)
                .and_then(|plan| plan.resolve(&Othello::start()))
                .map(|_| ())
                .map_err(|error| error.to_string())
        };
        let targets = "[held_out.targets]\nleague = 0.96\n\"vs heuristic:1\" = 0.9";
        assert_eq!(plan(targets), Ok(()));
        assert_eq!(plan("choose_by = \"league\""), Ok(()));
        let one_of_two =
            "held_out: choose the run by one measure (choose_by) or by targets, one of the two";
        assert!(plan("").unwrap_err().contains(one_of_two));
        let both = format!("choose_by = \"league\"\n{targets}");
        assert!(plan(&both).unwrap_err().contains(one_of_two));
        let unknown = plan("[held_out.targets]\n\"vs heuristic:3\" = 0.5").unwrap_err();
        assert!(
            unknown.contains(
                "held_out.targets: 'vs heuristic:3' is not a measure of the evaluation (vs heuristic:1, league)"
            ),
            "{unknown}"
        );
        let infinite = plan("[held_out.targets]\nleague = inf").unwrap_err();
        assert!(
            infinite.contains("'league' = inf is not a number"),
            "{infinite}"
        );
    }
}
