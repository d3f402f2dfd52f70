//! Congkak (the Congkak report §2.3.2): Congklak's relay sowing played over rounds.
//!
//! - A round ends as soon as either row is empty after a turn; the seeds left on the board
//!   go to the owner of their row. The player with fewer seeds in store lost the round and
//!   starts the next (after a tied round, the player who would have moved next: a rule that
//!   needs no history, so a position string says all there is).
//! - Next round each player refills their own holes from the left, 7 seeds each, from their
//!   store; holes they cannot fill are burnt: never sown into, never played. A player who
//!   collects enough seeds reclaims burnt holes (left to right) at a later refill.
//! - The match ends when a player cannot fill a single hole, or after the round cap
//!   (default 10, as in the Congkak report's tests); the larger store wins.
//! - Round 1 opens simultaneously (the Congkak report §2.3.2; its §5.1.7 reports that taking
//!   the choices in turn let the second player see the first's). Both players choose a hole
//!   unseen, as one joint move; then both hands sow in lockstep, one seed each per step. A
//!   hand whose last seed falls in an occupied hole lifts it and sows on (relay); in its own
//!   store, its player picks again at once (the other hand waits; if both do so in the same
//!   step, that is another joint move); in an empty hole it stops (shooting, if the hole is
//!   its own; a hand whose last seed reaches its store when its row is empty stops too).
//!   Whoever stops last moves first afterwards. If both stop in the same step,
//!   neither finished last, and the race is run again: both choose a hole at once (the seed
//!   leaves this tie open; any fixed winner would hand symmetric play — equal agents
//!   choosing alike — to one side, and every race banks seeds, so re-runs end). Within a
//!   step both hands drop their seed first, then South's landing is resolved, then
//!   North's; a hand whose last hole was just emptied by the other stops.
//!
//! The rules of rounds are `game`; the lockstep opening is `opening`, the position and
//! move grammar `notation`, and the text for people `describe`.

mod describe;
mod game;
mod notation;
mod opening;

use super::{Board, MoveFacts, OnBoard};
use crate::games::Player;
use opening::Opening;

/// Holes per side and seeds per hole.
pub const HOLES: usize = 7;
pub const SEEDS_PER_HOLE: u8 = 7;
/// The Congkak report capped its test matches at 10 rounds.
pub const DEFAULT_ROUND_CAP: u8 = 10;

/// A Congkak move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CongkakMove {
    /// Sow from this hole (0-based from the mover's left).
    Hole(u8),
    /// Both players' holes at a simultaneous choice.
    Joint { south: u8, north: u8 },
}

/// A Congkak match.
#[derive(Clone, Debug, PartialEq)]
pub struct Congkak {
    board: Board,
    /// The player to move; at a simultaneous choice, the player this copy chooses for.
    to_move: Player,
    round: u8,
    round_cap: u8,
    opening: Option<Opening>,
    over: bool,
    last: MoveFacts,
}

impl OnBoard for Congkak {
    fn board(&self) -> &Board {
        &self.board
    }
}
