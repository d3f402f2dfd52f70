//! The Othello League measure (Lucas & Runarsson, CEC 2006 Othello League): an evaluator
//! at 1 ply with ε = 0.1 against the standard weighted piece counter at 1 ply with the
//! same ε, from the start position, scored (wins + draws/2) / games. It ranks evaluators,
//! not searches, so the player's own depth and ε are replaced.

use crate::arena::SeriesConfig;
use crate::arena::spec::{AgentSpec, SpecError};

/// The League's random-move probability, for the player and its opponent alike.
pub const LEAGUE_EPSILON: f64 = 0.1;
/// The League's reference opponent: the standard WPC at 1 ply with ε = 0.1.
pub const LEAGUE_OPPONENT: &str = "wpc:1@0.1";
/// The League's number of games.
pub const LEAGUE_GAMES: usize = 1000;

/// The agents of a League measure of `player`: it at 1 ply with ε = 0.1, and the WPC.
pub fn league_agents(player: &AgentSpec) -> Result<(AgentSpec, AgentSpec), SpecError> {
    Ok((
        player.at_one_ply_with_epsilon(LEAGUE_EPSILON)?,
        LEAGUE_OPPONENT.parse()?,
    ))
}

/// The League's series: `games` games from the start position (the ε moves give the
/// variety).
pub fn league_series(games: usize, seed: u64) -> SeriesConfig {
    SeriesConfig {
        games,
        opening_plies: 0,
        seed,
    }
}
