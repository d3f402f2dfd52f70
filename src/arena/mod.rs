//! The arena: agents, agent specs, openings, single games, match series, tournaments,
//! statistics and their tables.

pub mod accuracy;
pub mod agent;
pub mod clocked;
pub mod engine;
pub mod game_record;
pub mod journal;
pub mod league;
pub mod openings;
pub mod panel;
pub mod process_groups;
pub mod profile;
pub mod reports;
pub mod series;
pub mod spec;
pub mod sprt;
pub mod stats;
pub mod tables;
pub mod tournament;

pub use agent::{Agent, EpsilonAgent, FirstMoveAgent, Forfeit, History, RandomAgent, SearchAgent};
pub use clocked::{ClockedAgent, Decided, Decision, GameClock};
pub use engine::{EngineAgent, Protocol};
pub use game_record::{GameRecord, play_game};
pub use league::{LEAGUE_GAMES, LEAGUE_OPPONENT, league_agents, league_series};
pub use openings::{OpeningError, random_opening, random_openings};
pub use panel::{PanelRow, panel_opponents, play_panel};
pub use series::{MAX_SERIES_GAMES, SeriesConfig, play_games, play_listed_games, play_series};
pub use spec::{AgentSpec, SpecError};
pub use sprt::{SprtResult, play_sprt};
pub use stats::{Forfeits, MoveTimes, OpeningWins, SeriesStats, WinRecord};
