//! The evaluator whose shallow searches order the Othello endgame solver's moves far from
//! the end, as `solve` and `bench --endgame` choose it (`--order-by`).

use std::path::Path;
use std::sync::Arc;

use crate::error::CliResult;
use evoboard::champion::Champion;
use evoboard::games::othello::Othello;
use evoboard::search::endgame::EndgameOrdering;

/// The shipped Othello champion, built into the program so that the solver orders by it
/// from any directory: a trained network orders far better than the heuristic (FFO
/// #40–#44: about 150 M nodes against 240 M; docs/measurements.md).
static SHIPPED_CHAMPION: &[u8] = include_bytes!("../../populations/othello/champion.evo");

/// `--order-by`'s help, shared by the commands that take it.
pub const ORDER_BY_HELP: &str = "Othello: what orders the exact solver's moves far from the end: `shipped` (the shipped Othello champion, built into the program), `heuristic`, or an Othello champion's .evo file. The value and best move are the same whichever; only the nodes visited, and so the time, differ";

/// The default of `--order-by`.
pub const ORDER_BY_DEFAULT: &str = "shipped";

/// The ordering `choice` names.
pub fn endgame_ordering(choice: &str) -> CliResult<EndgameOrdering> {
    let game = Othello::start();
    let champion = match choice {
        "heuristic" => return Ok(EndgameOrdering::heuristic()),
        "shipped" => Champion::read_for(
            Path::new("the shipped Othello champion built into evoboard"),
            SHIPPED_CHAMPION,
            &game,
        )?,
        path => Champion::load_for(Path::new(path), &game)?,
    };
    Ok(EndgameOrdering::network(Arc::new(
        champion.evaluator(&game),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_champion_reads_as_a_network() {
        let shipped = format!("{:?}", endgame_ordering("shipped").unwrap());
        assert!(shipped.contains("depth: 1"), "{shipped}");
        let heuristic = format!("{:?}", endgame_ordering("heuristic").unwrap());
        assert!(heuristic.contains("depth: 3"), "{heuristic}");
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let error = endgame_ordering("no/such/champion.evo").unwrap_err();
        assert!(
            error.to_string().contains("no/such/champion.evo"),
            "{error}"
        );
    }
}
