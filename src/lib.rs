//! evoboard: evolves neural-network board evaluators for two-player games and benchmarks
//! them against heuristic search players. See README.md for the commands.
//!
//! # Adding a game
//!
//! A game added from outside the crate gets the search, the learners, the arena and the
//! plots by implementing five traits, each on top of the one before:
//!
//! 1. [`Game`]: the rules (moves, play, outcome, score, side to move). This is all that
//!    [`search`] and [`perft`](crate::games::perft()) need.
//! 2. [`Notation`]: the game's name, moves as text, and a position string that reads back
//!    exactly. Openings are told apart by it, and files are labelled with the name.
//! 3. [`Describe`]: the board as text lines, for people.
//! 4. [`NeuralInput`](crate::eval::neural::NeuralInput): how networks read a position. It
//!    gives a dense input for MLPs, and optionally a cell view with its symmetries and
//!    tuple sets, so that the n-tuple networks of the TD presets can read the game.
//! 5. [`NamedEvaluators`](crate::eval::NamedEvaluators): the heuristic behind
//!    `heuristic:DEPTH` and `minimax:DEPTH:NAME`. It is usually a
//!    [`WeightedSum`](crate::eval::weighted::WeightedSum) of the game's table of named
//!    features ([`Featured`](crate::eval::weighted::Featured)).
//!
//! With these in place, [`AgentSpec`](crate::arena::AgentSpec)s build players (`random`,
//! `heuristic:2`, `champion:PATH`), [`play_series`](crate::arena::play_series) plays
//! them, [`Evolution`](crate::evolve::Evolution) learns an evaluator with any preset, and
//! [`plot_run`](crate::report::plot::plot_run) draws the run. The command line's library,
//! `evoboard_cli`, runs the `evoboard` commands (`evolve`, `benchmark`, `play`, `plot`, …)
//! on such a game from a `main` of one line: `cli/examples/connect_four/` does this for
//! Connect Four (`cargo run --release -p evoboard-cli --example connect_four -- --help`).
//! A game of take-away shows the library's sequence in brief:
//!
//! ```
//! use evoboard::arena::{AgentSpec, SeriesConfig, SeriesStats, play_series};
//! use evoboard::eval::neural::NeuralInput;
//! use evoboard::eval::weighted::{Feature, Featured, WeightedSum, feature_names};
//! use evoboard::eval::{EvaluatorError, NamedEvaluators, SharedEvaluator};
//! use evoboard::evolve::config::{EvolveConfig, Preset};
//! use evoboard::evolve::{Evolution, Observer};
//! use evoboard::games::GameError;
//! use evoboard::{Describe, Game, MoveList, Notation, Outcome, Player};
//!
//! /// Players take 1 to 3 stones in turn; whoever takes the last stone wins.
//! #[derive(Clone, Debug)]
//! struct TakeAway {
//!     stones: u8,
//!     to_move: Player,
//! }
//!
//! impl Game for TakeAway {
//!     type Move = u8;
//!     fn to_move(&self) -> Player {
//!         self.to_move
//!     }
//!     fn legal_moves(&self, moves: &mut MoveList<u8>) {
//!         moves.clear();
//!         moves.extend((1..=3).filter(|&take| take <= self.stones));
//!     }
//!     fn play_unchecked(&mut self, take: u8) {
//!         self.stones -= take;
//!         self.to_move = self.to_move.opponent();
//!     }
//!     fn outcome(&self) -> Option<Outcome> {
//!         (self.stones == 0).then(|| Outcome::Win(self.to_move.opponent()))
//!     }
//!     fn score(&self) -> [i32; 2] {
//!         let won = |player| i32::from(self.outcome() == Some(Outcome::Win(player)));
//!         [won(Player::First), won(Player::Second)]
//!     }
//! }
//!
//! impl Notation for TakeAway {
//!     fn name(&self) -> &'static str {
//!         "take-away"
//!     }
//!     fn parse_move(&self, text: &str) -> Result<u8, GameError> {
//!         text.parse().map_err(|_| GameError::MalformedMove {
//!             text: text.to_string(),
//!             reason: "a move is a number of stones".to_string(),
//!         })
//!     }
//!     fn format_move(&self, take: u8) -> String {
//!         take.to_string()
//!     }
//!     fn to_position_string(&self) -> String {
//!         format!("{} {}", self.stones, self.to_move.index() + 1)
//!     }
//!     fn from_position_string(text: &str) -> Result<TakeAway, GameError> {
//!         let bad = || GameError::MalformedPosition {
//!             text: text.to_string(),
//!             reason: "expected STONES PLAYER (1 or 2)".to_string(),
//!         };
//!         let (stones, player) = text.split_once(' ').ok_or_else(bad)?;
//!         Ok(TakeAway {
//!             stones: stones.parse().map_err(|_| bad())?,
//!             to_move: match player {
//!                 "1" => Player::First,
//!                 "2" => Player::Second,
//!                 _ => return Err(bad()),
//!             },
//!         })
//!     }
//! }
//!
//! impl Describe for TakeAway {
//!     fn board_lines(&self) -> Vec<String> {
//!         vec!["o".repeat(usize::from(self.stones))]
//!     }
//! }
//!
//! impl NeuralInput for TakeAway {
//!     fn input_len(&self) -> usize {
//!         2
//!     }
//!     fn encode(&self, perspective: Player, out: &mut [f32]) {
//!         out[0] = f32::from(self.stones) / 15.0;
//!         out[1] = f32::from(u8::from(self.to_move == perspective));
//!     }
//! }
//!
//! /// The heuristic's one feature: a multiple of 4 stones is lost for the player to move.
//! impl Featured for TakeAway {
//!     type Context = ();
//!     const FEATURES: &'static [Feature<TakeAway>] = &[Feature {
//!         name: "fours",
//!         default_weight: 1.0,
//!         value: |e| {
//!             let lost = e.game.stones % 4 == 0;
//!             if lost == (e.game.to_move == e.side) { -1.0 } else { 1.0 }
//!         },
//!     }];
//!     fn context(&self, _perspective: Player) {}
//! }
//!
//! impl NamedEvaluators for TakeAway {
//!     fn evaluator(name: &str) -> Result<SharedEvaluator<Self>, EvaluatorError> {
//!         Ok(WeightedSum::named(name, "take-away", &[])?.shared())
//!     }
//!     fn panel_features() -> Vec<&'static str> {
//!         feature_names::<Self>()
//!     }
//! }
//!
//! /// Evolution reports its progress to an observer; this one stays silent.
//! struct Quiet;
//! impl Observer for Quiet {}
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let start = TakeAway { stones: 15, to_move: Player::First };
//! // The heuristic plays perfectly: it wins every game against a random player in
//! // which it moves first from 15 stones, and most of the others.
//! let heuristic = "heuristic:1".parse::<AgentSpec>()?.build(&start)?;
//! let random = "random".parse::<AgentSpec>()?.build(&start)?;
//! let series = SeriesConfig { games: 20, opening_plies: 0, seed: 1 };
//! let records = play_series(&start, heuristic.as_ref(), random.as_ref(), series, &|| {})?;
//! assert!(SeriesStats::from_records(&records).record.wins >= 10);
//!
//! // A short evolution with the modern preset, then its plots.
//! let dir = std::env::temp_dir().join(format!("take-away-{}", std::process::id()));
//! let config = EvolveConfig {
//!     generations: 2,
//!     population: 4,
//!     bench_games: 4,
//!     bench_opening_plies: 1,
//!     ..EvolveConfig::for_game(Preset::MODERN, &start)
//! };
//! Evolution::create(start, config, &dir)?.run(&Quiet)?;
//! let plots = evoboard::report::plot::plot_run(&dir, &dir.join("plots"))?;
//! assert!(dir.join("champion.evo").exists() && !plots.is_empty());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```

pub mod arena;
pub mod champion;
pub mod csv_rows;
pub mod errors;
pub mod eval;
pub mod evolve;
pub mod experiments;
pub mod farm;
pub mod games;
pub mod interrupt;
pub mod learn;
pub mod live;
pub mod nn;
pub mod persist;
pub mod report;
pub mod rng;
pub mod runs;
pub mod search;
pub mod session;
pub mod statistics;

pub use games::othello::Othello;
pub use games::{Describe, Game, MoveList, Notation, Outcome, Player};
