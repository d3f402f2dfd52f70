//! Round 1's simultaneous opening: both hands sow in lockstep until a player must choose
//! again or both have stopped, and the joint decisions where both choose at once.

use super::{Congkak, CongkakMove, HOLES};
use crate::games::mancala::congklak::{MAX_RELAYS, RELAY_SOWING};
use crate::games::mancala::{MoveFacts, Spot, capture_opposite};
use crate::games::{GameError, JointDecision, Notation, Player};

/// One player's hand during the simultaneous opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hand {
    /// Its player must choose a hole (at the start, and after a last seed in own store).
    Picking,
    /// Sowing: the last seed went to `at`, `seeds` are still in hand.
    Sowing { at: Spot, seeds: u8, relays: u16 },
    /// Stopped at lockstep step `step`.
    Done { step: u32 },
}

/// The simultaneous opening of round 1, while it lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Opening {
    pub(super) hands: [Hand; 2],
    pub(super) step: u32,
}

impl Congkak {
    /// Whether both players choose the next move at once (both hands picking).
    pub(super) fn at_joint_decision(&self) -> bool {
        self.opening
            .is_some_and(|o| o.hands == [Hand::Picking, Hand::Picking])
    }

    /// Lifts `hole` of `side` into that side's hand.
    pub(super) fn lift_into_hand(&mut self, side: Player, hole: u8) -> Hand {
        let at = Spot {
            side,
            slot: usize::from(hole),
        };
        Hand::Sowing {
            at,
            seeds: self.board.lift(at),
            relays: 0,
        }
    }

    /// Runs the opening's hands in lockstep until a player must choose or both have stopped.
    /// `chooser` made the move that set them going (`None`: both, a joint move); the move's
    /// effects reported are their hand's (either hand's for a joint move).
    pub(super) fn run_opening(&mut self, mut opening: Opening, chooser: Option<Player>) {
        let mut settled = MoveFacts::default();
        while opening
            .hands
            .iter()
            .any(|hand| matches!(hand, Hand::Sowing { .. }))
            && !opening.hands.contains(&Hand::Picking)
        {
            opening.step = opening.step.saturating_add(1);
            for (i, hand) in opening.hands.iter_mut().enumerate() {
                if let Hand::Sowing { at, seeds, .. } = hand {
                    *at = self
                        .board
                        .next_spot(*at, *at, Player::BOTH[i], RELAY_SOWING);
                    self.board.drop_seed(*at);
                    *seeds -= 1;
                }
            }
            for (i, hand) in opening.hands.iter_mut().enumerate() {
                if let Hand::Sowing {
                    at,
                    seeds: 0,
                    relays,
                } = *hand
                {
                    let player = Player::BOTH[i];
                    let (next, captured) = self.resolve_landing(player, at, relays, opening.step);
                    *hand = next;
                    if chooser.is_none_or(|c| c == player) {
                        if !matches!(next, Hand::Sowing { .. }) {
                            // This relay chain is over: stopped, or in the store to pick again.
                            settled.relays = settled.relays.saturating_add(relays);
                        }
                        settled.captured |= captured;
                    }
                }
            }
            // The other hand's relay or shot may have emptied a picking player's row.
            for (i, hand) in opening.hands.iter_mut().enumerate() {
                if *hand == Hand::Picking && self.board.row_total(Player::BOTH[i]) == 0 {
                    *hand = Hand::Done { step: opening.step };
                }
            }
        }
        self.last = settled;
        match opening.hands {
            [Hand::Picking, Hand::Picking] => {
                self.opening = Some(Opening {
                    hands: opening.hands,
                    step: 0,
                });
                self.to_move = Player::First;
            }
            [Hand::Done { step: south }, Hand::Done { step: north }]
                if south == north && Player::BOTH.iter().all(|&p| self.board.row_total(p) > 0) =>
            {
                // Neither finished last: the race is run again, both choosing at once.
                self.opening = Some(Opening {
                    hands: [Hand::Picking; 2],
                    step: 0,
                });
                self.to_move = Player::First;
            }
            [Hand::Done { step: south }, Hand::Done { step: north }] => {
                self.opening = None;
                self.after_turn(if north > south {
                    Player::Second
                } else {
                    Player::First
                });
            }
            [Hand::Picking, _] => {
                self.opening = Some(opening);
                self.to_move = Player::First;
            }
            [_, _] => {
                self.opening = Some(opening);
                self.to_move = Player::Second;
            }
        }
    }

    /// What a hand of `mover` whose last seed fell at `at` does next in the opening, and
    /// whether it captured seeds from the facing hole. A last seed in the own store picks
    /// again, unless the row is empty: then the hand stops.
    fn resolve_landing(&mut self, mover: Player, at: Spot, relays: u16, step: u32) -> (Hand, bool) {
        let done = Hand::Done { step };
        if at.slot == HOLES {
            let picks = self.board.row_total(mover) > 0;
            return (if picks { Hand::Picking } else { done }, false);
        }
        match self.board.pit(at.side, at.slot) {
            0 => (done, false),
            1 if at.side == mover => {
                let facing = capture_opposite(&mut self.board, mover, at.slot, true);
                (done, facing.is_some_and(|f| f > 0))
            }
            1 => (done, false),
            _ if relays >= MAX_RELAYS => (done, false),
            _ => (
                Hand::Sowing {
                    at,
                    seeds: self.board.lift(at),
                    relays: relays + 1,
                },
                false,
            ),
        }
    }
}

impl JointDecision<Congkak> for Congkak {
    fn seen_by(&self, player: Player) -> Congkak {
        let mut copy = self.clone();
        if self.at_joint_decision() {
            copy.to_move = player;
        }
        copy
    }

    fn part(&self, mv: CongkakMove, player: Player) -> u8 {
        match (mv, player) {
            (CongkakMove::Hole(hole), _) => hole,
            (CongkakMove::Joint { south, .. }, Player::First) => south,
            (CongkakMove::Joint { north, .. }, Player::Second) => north,
        }
    }

    fn merge(&self, first: CongkakMove, second: CongkakMove) -> CongkakMove {
        CongkakMove::Joint {
            south: self.part(first, Player::First),
            north: self.part(second, Player::Second),
        }
    }

    fn parse_part(&self, text: &str, player: Player) -> Result<CongkakMove, GameError> {
        if !self.at_joint_decision() {
            return self.parse_move(text);
        }
        let own = match text.trim().parse::<u8>() {
            Ok(n) if (1..=HOLES as u8).contains(&n) => n - 1,
            _ => {
                return Err(GameError::MalformedMove {
                    text: text.to_string(),
                    reason: format!("expected your hole number, 1 to {HOLES}"),
                });
            }
        };
        // The other part is a placeholder that `merge` replaces.
        let other = self.own_holes(player.opponent()).next().unwrap_or(0);
        Ok(match player {
            Player::First => CongkakMove::Joint {
                south: own,
                north: other,
            },
            Player::Second => CongkakMove::Joint {
                south: other,
                north: own,
            },
        })
    }

    fn format_part(&self, mv: CongkakMove, player: Player) -> String {
        (self.part(mv, player) + 1).to_string()
    }
}
