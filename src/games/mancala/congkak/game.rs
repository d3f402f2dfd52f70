//! The rules of rounds: a match's start, a turn's end (the round banked, the holes
//! refilled or burnt, the loser to move), and [`Congkak`] as a [`Game`], whose moves after
//! the opening are sown with relays as in Congklak.

use crate::games::mancala::congklak::{RELAY_SOWING, relay, settle_landing};
use crate::games::mancala::{Board, MoveFacts, bank_rows};
use crate::games::{Game, JointDecision, MoveList, Outcome, Player};

use super::opening::{Hand, Opening};
use super::{Congkak, CongkakMove, DEFAULT_ROUND_CAP, HOLES, SEEDS_PER_HOLE};

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
    pub(super) fn after_turn(&mut self, next: Player) {
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

    pub(super) fn own_holes(&self, side: Player) -> impl Iterator<Item = u8> + '_ {
        (0..HOLES)
            .filter(move |&hole| self.board.pit(side, hole) > 0)
            .map(|hole| hole as u8)
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
