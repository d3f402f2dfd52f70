//! Congkak (seed 000 §2.3.2): Congklak's relay sowing played over rounds.
//!
//! - A round ends as soon as either row is empty after a turn; the seeds left on the board
//!   go to the owner of their row. The player with fewer seeds in store lost the round and
//!   starts the next (after a tied round, the player who would have moved next: a rule that
//!   needs no history, so a position string says all there is).
//! - Next round each player refills their own holes from the left, 7 seeds each, from their
//!   store; holes they cannot fill are burnt: never sown into, never played. A player who
//!   collects enough seeds reclaims burnt holes (left to right) at a later refill.
//! - The match ends when a player cannot fill a single hole, or after the round cap
//!   (default 10, as in seed 000's tests); the larger store wins.
//! - Round 1 opens simultaneously (seed 000 §2.3.2; its §5.1.7 reports that taking the
//!   choices in turn let the second player see the first's). Both players choose a hole
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
//! The rules of rounds are here; the lockstep opening is `opening`, the position and
//! move grammar `notation`, and the text for people `describe`.

mod describe;
mod notation;
mod opening;

use super::congklak::{RELAY_SOWING, relay, settle_landing};
use super::{Board, MoveFacts, OnBoard, bank_rows};
use crate::games::{Game, JointDecision, MoveList, Outcome, Player};
use opening::{Hand, Opening};

/// Holes per side and seeds per hole.
pub const HOLES: usize = 7;
pub const SEEDS_PER_HOLE: u8 = 7;
/// Seed 000 capped its test matches at 10 rounds.
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

impl Congkak {
    /// A new match: 7 holes of 7 seeds a side, round 1 about to open simultaneously.
    pub fn start() -> Congkak {
        Congkak::with_round_cap(DEFAULT_ROUND_CAP)
    }

    /// A new match that ends after `round_cap` rounds at the latest.
    pub fn with_round_cap(round_cap: u8) -> Congkak {
        Congkak {
            board: Board::new(HOLES, SEEDS_PER_HOLE),
            to_move: Player::First,
            round: 1,
            round_cap: round_cap.max(1),
            opening: Some(Opening {
                hands: [Hand::Picking; 2],
                step: 0,
            }),
            over: false,
            last: MoveFacts::default(),
        }
    }

    /// The round being played (1-based).
    pub fn round(&self) -> u8 {
        self.round
    }

    pub fn round_cap(&self) -> u8 {
        self.round_cap
    }

    /// Every seed in play: on the board, in the stores, and in a hand waiting mid-sowing
    /// during the opening. Constant through a match.
    pub fn total_seeds(&self) -> u32 {
        let in_hands = self.opening.map_or(0, |opening| {
            opening
                .hands
                .iter()
                .map(|hand| match hand {
                    Hand::Sowing { seeds, .. } => u32::from(*seeds),
                    _ => 0,
                })
                .sum()
        });
        self.board.total() + in_hands
    }

    /// Ends the round if a row is empty, else hands the turn to `next`.
    fn after_turn(&mut self, next: Player) {
        if Player::BOTH.iter().all(|&p| self.board.row_total(p) > 0) {
            self.to_move = next;
            return;
        }
        bank_rows(&mut self.board);
        let [south, north] = Player::BOTH.map(|p| self.board.store(p));
        let loser = match south.cmp(&north) {
            std::cmp::Ordering::Less => Player::First,
            std::cmp::Ordering::Greater => Player::Second,
            std::cmp::Ordering::Equal => next,
        };
        let cannot_refill = south < SEEDS_PER_HOLE || north < SEEDS_PER_HOLE;
        if cannot_refill || self.round >= self.round_cap {
            self.over = true;
            self.to_move = next;
            return;
        }
        for side in Player::BOTH {
            for hole in 0..HOLES {
                let filled = self.board.store(side) >= SEEDS_PER_HOLE;
                if filled {
                    self.board.take_from_store(side, SEEDS_PER_HOLE);
                    self.board.set_pit(side, hole, SEEDS_PER_HOLE);
                }
                self.board.set_burnt(side, hole, !filled);
            }
        }
        self.round += 1;
        self.to_move = loser;
    }

    fn own_holes(&self, side: Player) -> impl Iterator<Item = u8> + '_ {
        (0..HOLES)
            .filter(move |&hole| self.board.pit(side, hole) > 0)
            .map(|hole| hole as u8)
    }
}

impl OnBoard for Congkak {
    fn board(&self) -> &Board {
        &self.board
    }
}

impl Game for Congkak {
    type Move = CongkakMove;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut MoveList<CongkakMove>) {
        moves.clear();
        if self.over {
            return;
        }
        if self.at_joint_decision() {
            for south in self.own_holes(Player::First) {
                moves.extend(
                    self.own_holes(Player::Second)
                        .map(|north| CongkakMove::Joint { south, north }),
                );
            }
        } else {
            moves.extend(self.own_holes(self.to_move).map(CongkakMove::Hole));
        }
    }

    fn play_unchecked(&mut self, mv: CongkakMove) {
        match (mv, self.opening) {
            (CongkakMove::Joint { south, north }, Some(mut opening)) => {
                opening.hands = [
                    self.lift_into_hand(Player::First, south),
                    self.lift_into_hand(Player::Second, north),
                ];
                self.run_opening(opening, None);
            }
            (CongkakMove::Hole(hole), Some(mut opening)) => {
                opening.hands[self.to_move.index()] = self.lift_into_hand(self.to_move, hole);
                self.run_opening(opening, Some(self.to_move));
            }
            (CongkakMove::Hole(hole), None) => {
                let mover = self.to_move;
                let last = self
                    .board
                    .sow(mover, mover, usize::from(hole), RELAY_SOWING);
                let (last, relays) = relay(&mut self.board, mover, last);
                self.last = settle_landing(&mut self.board, mover, last, relays, true);
                let next = if self.last.extra_turn {
                    mover
                } else {
                    mover.opponent()
                };
                self.after_turn(next);
            }
            (CongkakMove::Joint { .. }, None) => {}
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over.then(|| Outcome::from_score(self.score()))
    }

    fn score(&self) -> [i32; 2] {
        Player::BOTH.map(|p| i32::from(self.board.store(p)))
    }

    fn joint(&self) -> Option<&dyn JointDecision<Congkak>> {
        self.at_joint_decision()
            .then_some(self as &dyn JointDecision<Congkak>)
    }
}
