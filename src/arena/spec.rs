//! Agent spec strings, parsed in one place for every command:
//! `random`, `first`, `heuristic:DEPTH`, `wpc:DEPTH`, `minimax:DEPTH:EVAL`,
//! `champion:PATH[:DEPTH]`, `nmm:DEPTH:WIDTH:PATH`, `nboard:COMMAND`, `gtp:COMMAND`; a
//! champion with an optional `%CONFIDENCE` suffix (selective search by Multi-ProbCut at
//! that confidence in percent, from the calibration beside the champion file; see
//! [`crate::search::probcut`]); each with an optional `~SECONDS` suffix (at most that
//! long a move: iterative deepening up to DEPTH) or, for Othello's searching agents,
//! `~SECONDS/game` (a game clock: SECONDS for the whole game, the endgame solvers once they
//! can finish in time; see [`crate::arena::clocked`]), and an optional `@EPS` suffix (play
//! a random move with probability EPS, e.g. `wpc:1@0.1`).
//!
//! `nboard:COMMAND` and `gtp:COMMAND` are external Othello engines speaking the NBoard
//! protocol or GTP ([`crate::arena::engine`]), e.g. `gtp:./my-engine --gtp~5`. COMMAND is
//! run directly, not by a shell: it is split into words at spaces, and a part in single
//! quotes is taken as it is, spaces included (`nboard:sh -c 'cd ~/engines && exec ./a'`).
//! It may not contain a comma (commas separate the agents of `tournament --agents`). A
//! last `~SECONDS` is the engine's time per move (default 30 s), after which it forfeits
//! the game; a last `@EPS` (a number) is the random-move suffix, so a command's own `@`
//! or `~` stay in it.

use std::any::{Any, TypeId};
use std::fmt;
use std::str::FromStr;

use crate::arena::agent::{Agent, EpsilonAgent, FirstMoveAgent, RandomAgent, SearchAgent};
use crate::arena::clocked::{ClockedAgent, GameClock};
use crate::arena::engine::{EngineAgent, Protocol};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::arena::panel::search_spec;
use crate::champion::Champion;
use crate::eval::neural::NeuralEvaluator;
use crate::eval::{EvaluatorError, NamedEvaluators, SharedEvaluator};
use crate::games::Game;
use crate::games::othello::Othello;
use crate::persist::PersistError;
use crate::search::MAX_DEPTH;
use crate::search::endgame::EndgameOrdering;
use crate::search::probcut::{CONFIDENCES, Calibration, CalibrationError, ProbCut};

/// The end of a `~SECONDS/game` suffix: a game clock rather than a time a move.
const PER_GAME: &str = "/game";

/// Deepest fixed-depth search a spec may ask for without a time limit: deeper ones can take
/// hours a move (Othello's `heuristic:12` already takes seconds), so they need `~SECONDS`.
pub const UNTIMED_DEPTH: u32 = 12;

/// Search depths of the difficulty levels (the Congklak minimax report names them; the depths are
/// ours):
/// `normal` = `heuristic:2`, `expert` = `heuristic:4`, `impossible` = `heuristic:8`
/// (`random` is the random player).
pub const NORMAL_DEPTH: u32 = 2;
pub const EXPERT_DEPTH: u32 = 4;
pub const IMPOSSIBLE_DEPTH: u32 = 8;

/// Why a spec could not be read or built.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("bad agent spec '{spec}': {reason}")]
    Malformed { spec: String, reason: String },
    #[error("agent spec '{spec}'")]
    Evaluator {
        spec: String,
        #[source]
        source: EvaluatorError,
    },
    #[error("agent spec '{spec}': the engine {reason}")]
    EngineStart { spec: String, reason: String },
    #[error("agent spec '{spec}'")]
    Champion {
        spec: String,
        #[source]
        source: PersistError,
    },
    #[error("agent spec '{spec}'")]
    Calibration {
        spec: String,
        #[source]
        source: CalibrationError,
    },
}

/// What kind of agent a spec names.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentKind {
    Random,
    First,
    /// Alpha-beta to `depth` with the evaluator named `evaluator` (game-specific names).
    Minimax {
        depth: u32,
        evaluator: String,
    },
    /// A saved evolved network at `depth` (default: the depth it evolved at).
    Champion {
        path: PathBuf,
        depth: Option<u32>,
    },
    /// The Congkak report's NMM: minimax on the store difference to `depth`, searching at each
    /// node only the `width` moves the saved network ranks best.
    Nmm {
        depth: u32,
        width: usize,
        path: PathBuf,
    },
    /// An external Othello engine speaking `protocol`, run as `command` (program,
    /// arguments).
    Engine {
        protocol: Protocol,
        command: Vec<String>,
    },
}

/// A champion file loaded to play: its network, shared by every agent built from it, and
/// the depth it was trained at.
#[derive(Clone, Debug)]
pub struct LoadedChampion {
    pub network: Arc<NeuralEvaluator>,
    pub depth: u32,
}

/// Where agents get the champion files their specs name (by path): loaded afresh by
/// [`AgentSpec::load_champion`], or from a cache that shares them between agents.
pub type ChampionLoader<'a> = &'a dyn Fn(&Path) -> Result<LoadedChampion, SpecError>;

/// A parsed agent spec; [`AgentSpec::build`] turns it into an agent for a game.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    pub kind: AgentKind,
    pub epsilon: Option<f64>,
    /// At most this many seconds a move (the `~SECONDS` suffix); with a game clock, the
    /// most any one move may take (a server's limit).
    pub move_time: Option<f64>,
    /// This many seconds for the whole game (the `~SECONDS/game` suffix).
    pub game_time: Option<f64>,
    /// Selective search at this confidence, in percent (the `%CONFIDENCE` suffix of a
    /// calibrated champion).
    pub selectivity: Option<f64>,
    text: String,
    /// The spec without its @EPS suffix.
    body: String,
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        let malformed = |reason: &str| SpecError::Malformed {
            spec: text.to_string(),
            reason: reason.to_string(),
        };
        // Only a number after the last `~` is a time limit: a file path may contain `~`.
        let numeric = |t: &str| !t.is_empty() && t.bytes().all(|b| b"0123456789.+-eE".contains(&b));
        // An engine's command line may contain `@` of its own.
        let engine = Protocol::ALL.iter().any(|p| text.starts_with(p.prefix()));
        let (body, epsilon) = match text.rsplit_once('@') {
            None => (text, None),
            Some((_, eps)) if engine && !numeric(eps) => (text, None),
            Some((body, eps)) => {
                let eps: f64 = eps
                    .parse()
                    .map_err(|_| malformed("the @EPS suffix must be a number"))?;
                if !(0.0..=1.0).contains(&eps) {
                    return Err(malformed("the @EPS suffix must lie in [0, 1]"));
                }
                (body, Some(eps))
            }
        };
        let (searched, move_time, game_time) = match body.rsplit_once('~') {
            Some((searched, limit)) if numeric(limit.strip_suffix(PER_GAME).unwrap_or(limit)) => {
                let (number, per_game) = match limit.strip_suffix(PER_GAME) {
                    Some(number) => (number, true),
                    None => (limit, false),
                };
                let seconds = number
                    .parse::<f64>()
                    .ok()
                    .filter(|&s| crate::search::time_limit(s).is_ok())
                    .ok_or_else(|| {
                        malformed(&format!(
                            "the ~SECONDS{} suffix must be a number of seconds in (0, 86400]",
                            if per_game { PER_GAME } else { "" }
                        ))
                    })?;
                match per_game {
                    true => (searched, None, Some(seconds)),
                    false => (searched, Some(seconds), None),
                }
            }
            _ => (body, None, None),
        };
        let (searched, selectivity) = match searched.rsplit_once('%') {
            Some((rest, confidence)) if !engine && numeric(confidence) => {
                let confidence = confidence
                    .parse::<f64>()
                    .ok()
                    .filter(|c| CONFIDENCES.contains(c))
                    .ok_or_else(|| {
                        malformed(&format!(
                            "the %CONFIDENCE suffix must be a percentage from {} to {}",
                            CONFIDENCES.start(),
                            CONFIDENCES.end()
                        ))
                    })?;
                (rest, Some(confidence))
            }
            _ => (searched, None),
        };
        let timed = move_time.is_some() || game_time.is_some();
        let spec = |kind: AgentKind| -> Result<AgentSpec, SpecError> {
            let deepest = match &kind {
                AgentKind::Minimax { depth, .. } | AgentKind::Nmm { depth, .. } => Some(*depth),
                AgentKind::Champion { depth, .. } => *depth,
                AgentKind::Random | AgentKind::First if timed => {
                    return Err(malformed(
                        "random and first do not search: no time limit applies",
                    ));
                }
                AgentKind::Engine { .. } if game_time.is_some() => {
                    return Err(malformed(
                        "an external engine's time limit is per move (~SECONDS), not per game",
                    ));
                }
                AgentKind::Random | AgentKind::First | AgentKind::Engine { .. } => None,
            };
            if selectivity.is_some() && !matches!(kind, AgentKind::Champion { .. }) {
                return Err(malformed(
                    "selective search (%CONFIDENCE) needs a calibrated champion: \
                     champion:PATH[:DEPTH]%CONFIDENCE",
                ));
            }
            if let Some(depth) = deepest.filter(|&d| d > UNTIMED_DEPTH)
                && !timed
            {
                return Err(malformed(&format!(
                    "a {depth}-ply search can take hours a move: add a time limit \
                     (~SECONDS, e.g. ~5 for at most 5 s a move) or search at most \
                     {UNTIMED_DEPTH} plies"
                )));
            }
            Ok(AgentSpec {
                kind,
                epsilon,
                move_time,
                game_time,
                selectivity,
                text: text.to_string(),
                body: body.to_string(),
            })
        };
        let depth = |s: &str| -> Result<u32, SpecError> {
            match s.parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(d),
                _ => Err(malformed(&format!(
                    "the depth must be a whole number from 1 to {MAX_DEPTH}"
                ))),
            }
        };
        if let Some(rest) = searched.strip_prefix("champion:") {
            // The path may itself contain ':', so only a numeric last field is a depth.
            let (path, depth) = match rest.rsplit_once(':') {
                Some((path, d)) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => {
                    (path, Some(depth(d)?))
                }
                _ => (rest, None),
            };
            if path.is_empty() {
                return Err(malformed("champion:PATH needs a file path"));
            }
            return spec(AgentKind::Champion {
                path: PathBuf::from(path),
                depth,
            });
        }
        for protocol in Protocol::ALL {
            if let Some(command) = searched.strip_prefix(protocol.prefix()) {
                let command = command_words(command).map_err(|reason| malformed(&reason))?;
                return spec(AgentKind::Engine { protocol, command });
            }
        }
        if let Some(rest) = searched.strip_prefix("nmm:") {
            let mut fields = rest.splitn(3, ':');
            let (d, width, path) = (fields.next(), fields.next(), fields.next());
            let width = width
                .and_then(|w| w.parse::<usize>().ok())
                .filter(|&w| w >= 1);
            let (Some(d), Some(width), Some(path)) = (d, width, path.filter(|p| !p.is_empty()))
            else {
                return Err(malformed(
                    "expected nmm:DEPTH:WIDTH:PATH (WIDTH ≥ 1 moves kept per node)",
                ));
            };
            return spec(AgentKind::Nmm {
                depth: depth(d)?,
                width,
                path: PathBuf::from(path),
            });
        }
        let parts: Vec<&str> = searched.splitn(3, ':').collect();
        let minimax = |depth, evaluator: &str| AgentKind::Minimax {
            depth,
            evaluator: evaluator.to_string(),
        };
        let kind = match parts.as_slice() {
            ["random"] => AgentKind::Random,
            ["normal"] => minimax(NORMAL_DEPTH, "heuristic"),
            ["expert"] => minimax(EXPERT_DEPTH, "heuristic"),
            ["impossible"] => minimax(IMPOSSIBLE_DEPTH, "heuristic"),
            ["first"] => AgentKind::First,
            ["heuristic", d] => minimax(depth(d)?, "heuristic"),
            ["wpc", d] => minimax(depth(d)?, "wpc"),
            ["minimax", d, eval] if !eval.is_empty() => minimax(depth(d)?, eval),
            _ => {
                return Err(malformed(
                    "expected random, first, normal, expert, impossible, heuristic:DEPTH, \
                     wpc:DEPTH, minimax:DEPTH:EVAL, champion:PATH[:DEPTH], \
                     nmm:DEPTH:WIDTH:PATH, nboard:COMMAND or gtp:COMMAND, optionally \
                     followed by %CONFIDENCE (a champion), ~SECONDS (or ~SECONDS/game) \
                     and @EPS",
                ));
            }
        };
        spec(kind)
    }
}

impl AgentSpec {
    /// Builds the agent for game `G` (whose positions look like `start`), resolving
    /// evaluator names and loading champion files for that game.
    pub fn build<G: NamedEvaluators>(&self, start: &G) -> Result<Box<dyn Agent<G>>, SpecError> {
        self.build_with(&|path| self.load_champion(path, start))
    }

    /// [`AgentSpec::build`], with champion files from `load`.
    pub fn build_with<G: NamedEvaluators>(
        &self,
        load: ChampionLoader<'_>,
    ) -> Result<Box<dyn Agent<G>>, SpecError> {
        let base: Box<dyn Agent<G>> = match &self.kind {
            // Refused before building, so that a name another game gives its evaluator is
            // not looked up among Othello's.
            _ if self.game_time.is_some() && TypeId::of::<G>() != TypeId::of::<Othello>() => {
                return Err(SpecError::Malformed {
                    spec: self.text.clone(),
                    reason: "a game clock (~SECONDS/game) is for Othello only".to_string(),
                });
            }
            _ if self.game_time.is_some() => self.othello_only(Box::new(self.clocked(load)?))?,
            AgentKind::Engine { protocol, command } => {
                let move_time = self.move_time.map(Duration::from_secs_f64);
                let label = self.body.clone();
                let engine = EngineAgent::new(*protocol, command.clone(), label, move_time);
                // Started now, so that an engine that cannot run is an error before any
                // game rather than a forfeit of each.
                if TypeId::of::<G>() == TypeId::of::<Othello>() {
                    engine.start().map_err(|reason| SpecError::EngineStart {
                        spec: self.text.clone(),
                        reason,
                    })?;
                }
                self.othello_only(Box::new(engine))?
            }
            kind => match (kind, self.searcher_with(load)?) {
                (_, Some(agent)) => Box::new(agent),
                (AgentKind::First, None) => Box::new(FirstMoveAgent),
                (_, None) => Box::new(RandomAgent),
            },
        };
        Ok(match self.epsilon {
            Some(epsilon) if epsilon > 0.0 => Box::new(EpsilonAgent {
                inner: base,
                epsilon,
            }),
            _ => base,
        })
    }

    /// This spec's evaluator searched one ply deep, playing a uniformly random move with
    /// probability `epsilon` (replacing any @EPS of its own): the player of the Othello
    /// League measure (Lucas & Runarsson, CEC 2006), which ranks evaluators, not searches.
    /// Fails for `random`, `first` and `nmm`, which have no evaluator of their own.
    pub fn at_one_ply_with_epsilon(&self, epsilon: f64) -> Result<AgentSpec, SpecError> {
        debug_assert!((0.0..=1.0).contains(&epsilon), "epsilon {epsilon}");
        let mut spec = self.clone();
        spec.body = match &mut spec.kind {
            AgentKind::Minimax { depth, evaluator } => {
                *depth = 1;
                search_spec(1, evaluator)
            }
            AgentKind::Champion { path, depth, .. } => {
                *depth = Some(1);
                format!("champion:{}:1", path.display())
            }
            AgentKind::Random
            | AgentKind::First
            | AgentKind::Nmm { .. }
            | AgentKind::Engine { .. } => {
                return Err(SpecError::Malformed {
                    spec: self.text.clone(),
                    reason: "the league protocol needs an evaluator (heuristic:D, wpc:D, \
                             minimax:D:EVAL or champion:PATH)"
                        .to_string(),
                });
            }
        };
        spec.epsilon = Some(epsilon);
        spec.move_time = None;
        spec.game_time = None;
        spec.selectivity = None;
        spec.text = format!("{}@{epsilon}", spec.body);
        Ok(spec)
    }

    /// This spec's game clock, if it has one.
    pub fn game_clock(&self) -> Option<GameClock> {
        self.game_time.map(|seconds| GameClock {
            budget: Duration::from_secs_f64(seconds),
            cap: self.move_time.map(Duration::from_secs_f64),
        })
    }

    /// The Othello agent of a spec with a game clock, with champion files from `load`.
    pub fn clocked(&self, load: ChampionLoader<'_>) -> Result<ClockedAgent, SpecError> {
        let clock = self.game_clock().ok_or_else(|| SpecError::Malformed {
            spec: self.text.clone(),
            reason: "no game clock (~SECONDS/game)".to_string(),
        })?;
        let search = self
            .searcher_with::<Othello>(load)?
            .expect("specs that do not search are refused a time limit");
        // A champion's network orders its endgame solves; the heuristic, cheaper to
        // evaluate, orders by deeper searches.
        let ordering = match self.kind {
            AgentKind::Champion { .. } => EndgameOrdering::network(Arc::clone(&search.evaluator)),
            _ => EndgameOrdering::heuristic(),
        };
        Ok(ClockedAgent::new(search, clock, ordering))
    }

    /// `agent` as an agent of game `G`, which must be Othello (external engines and game
    /// clocks play nothing else).
    fn othello_only<G: Game>(
        &self,
        agent: Box<dyn Agent<Othello>>,
    ) -> Result<Box<dyn Agent<G>>, SpecError> {
        let agent: Box<dyn Any> = Box::new(agent);
        agent
            .downcast::<Box<dyn Agent<G>>>()
            .map(|agent| *agent)
            .map_err(|_| SpecError::Malformed {
                spec: self.text.clone(),
                reason: "external engines play Othello only".to_string(),
            })
    }
}

/// The words of an engine's command line: split at spaces, a part in single quotes taken
/// as it is; no comma (it would split `tournament --agents`).
fn command_words(text: &str) -> Result<Vec<String>, String> {
    if text.contains(',') {
        return Err(
            "the command may not contain ',' (commas separate the agents of a list)".into(),
        );
    }
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_default();
            }
            c if c.is_whitespace() && !quoted => words.extend(word.take()),
            c => word.get_or_insert_default().push(c),
        }
    }
    if quoted {
        return Err("a quote (') in the command is not closed".into());
    }
    words.extend(word);
    if words.is_empty() {
        return Err("an engine spec (nboard:COMMAND, gtp:COMMAND) needs a command to run".into());
    }
    Ok(words)
}

impl AgentSpec {
    /// The search this spec names (minimax, heuristic, wpc, champion), without its @EPS
    /// part; `None` for `random` and `first`. Engines that report evaluations use it.
    pub fn searcher<G: NamedEvaluators>(
        &self,
        start: &G,
    ) -> Result<Option<SearchAgent<G>>, SpecError> {
        self.searcher_with(&|path| self.load_champion(path, start))
    }

    /// [`AgentSpec::searcher`], with champion files from `load`.
    pub fn searcher_with<G: NamedEvaluators>(
        &self,
        load: ChampionLoader<'_>,
    ) -> Result<Option<SearchAgent<G>>, SpecError> {
        let evaluator = |name: &str| {
            G::evaluator(name).map_err(|source| SpecError::Evaluator {
                spec: self.text.clone(),
                source,
            })
        };
        let label = self.body.clone();
        // Searched outside a game (hints, GTP), a game clock's spec takes a typical move's time.
        let move_time = match self.game_clock() {
            Some(clock) => Some(clock.typical_move()),
            None => self.move_time.map(Duration::from_secs_f64),
        };
        let agent = match &self.kind {
            AgentKind::Random | AgentKind::First => return Ok(None),
            AgentKind::Engine { .. } => {
                return Err(SpecError::Malformed {
                    spec: self.text.clone(),
                    reason: "an external engine is played as it is: it has no search here"
                        .to_string(),
                });
            }
            AgentKind::Minimax {
                depth,
                evaluator: name,
            } => SearchAgent::new(*depth, evaluator(name)?, label),
            AgentKind::Champion { path, depth } => {
                let champion = load(path)?;
                let depth = depth.unwrap_or(champion.depth);
                if depth > UNTIMED_DEPTH && move_time.is_none() {
                    return Err(SpecError::Malformed {
                        spec: self.text.clone(),
                        reason: format!(
                            "the champion searches {depth} plies, which can take hours a \
                             move: name a depth (champion:PATH:D) or add a time limit (~SECONDS)"
                        ),
                    });
                }
                SearchAgent {
                    probcut: self.probcut(path)?,
                    ..SearchAgent::new(depth, champion.network, label)
                }
            }
            AgentKind::Nmm { depth, width, path } => {
                let ranker: SharedEvaluator<G> = load(path)?.network;
                SearchAgent {
                    pruning: Some((ranker, *width)),
                    ..SearchAgent::new(*depth, evaluator("stores")?, label)
                }
            }
        };
        Ok(Some(SearchAgent { move_time, ..agent }))
    }

    /// The selective search of the champion file at `path`, if the spec asks for one: its
    /// calibration, read from beside it, at the spec's confidence.
    fn probcut(&self, path: &Path) -> Result<Option<Arc<ProbCut>>, SpecError> {
        let Some(confidence) = self.selectivity else {
            return Ok(None);
        };
        let calibration = Calibration::load_for(path).map_err(|source| SpecError::Calibration {
            spec: self.text.clone(),
            source,
        })?;
        Ok(Some(Arc::new(ProbCut::new(&calibration, confidence))))
    }

    /// Loads the champion file at `path` (named by this spec) to play game `G`.
    pub fn load_champion<G: NamedEvaluators>(
        &self,
        path: &Path,
        start: &G,
    ) -> Result<LoadedChampion, SpecError> {
        let champion = Champion::load_for(path, start).map_err(|source| SpecError::Champion {
            spec: self.text.clone(),
            source,
        })?;
        Ok(LoadedChampion {
            network: Arc::new(champion.evaluator(start)),
            depth: champion.depth,
        })
    }
}
