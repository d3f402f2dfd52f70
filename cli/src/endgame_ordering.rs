//! `--order-by`: what orders the Othello endgame solver's moves far from the end, as
//! `solve` and `bench --endgame` take it (the library names the choices, alike for Python).

use crate::error::CliResult;
use evoboard::champion::{ENDGAME_ORDERING_DEFAULT, endgame_ordering};
use evoboard::search::endgame::EndgameOrdering;

/// `--order-by`'s help, shared by the commands that take it.
pub const ORDER_BY_HELP: &str = "Othello: what orders the exact solver's moves far from the end: `shipped` (the default: the shipped Othello champion, built into the program), `heuristic`, or an Othello champion's .evo file. The value and best move are the same whichever; only the nodes visited, and so the time, differ";

/// The ordering `--order-by` names (the default when not given).
pub fn ordering_flag(choice: Option<&str>) -> CliResult<EndgameOrdering> {
    Ok(endgame_ordering(
        choice.unwrap_or(ENDGAME_ORDERING_DEFAULT),
    )?)
}
