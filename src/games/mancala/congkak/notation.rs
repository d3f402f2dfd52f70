//! Position strings extend the mancala ones: burnt holes are `x`, the side to move is `*`
//! at a simultaneous choice, then `rROUND` (`rROUND/CAP` for a non-default cap); during the
//! opening, when not both are choosing, a last field `hands=SOUTH;NORTH;STEP` with each hand
//! `pick`, `done@STEP` or `sow@SPOT:SEEDS:RELAYS` (SPOT like `N3`, slot m + 1 = the store).
//! Moves: a hole number, or at a simultaneous choice `SOUTH/NORTH` (`3/5`).

use super::opening::{Hand, Opening};
use super::{Congkak, CongkakMove, DEFAULT_ROUND_CAP, HOLES};
use crate::games::mancala::{Board, MoveFacts, Spot, text};
use crate::games::{GameError, Notation, Player};

impl Congkak {
    fn hands_text(opening: &Opening) -> String {
        let hand = |hand: &Hand| match *hand {
            Hand::Picking => "pick".to_string(),
            Hand::Done { step } => format!("done@{step}"),
            Hand::Sowing { at, seeds, relays } => format!(
                "sow@{}{}:{seeds}:{relays}",
                text::side_letter(at.side),
                at.slot + 1
            ),
        };
        format!(
            "hands={};{};{}",
            hand(&opening.hands[0]),
            hand(&opening.hands[1]),
            opening.step
        )
    }

    fn parse_hands(position: &str, field: &str) -> Result<Opening, GameError> {
        let bad = || {
            text::malformed(
                position,
                format!(
                    "'{field}' is not hands=SOUTH;NORTH;STEP (each pick, done@STEP or sow@SPOT:SEEDS:RELAYS)"
                ),
            )
        };
        let parts: Vec<&str> = field
            .strip_prefix("hands=")
            .ok_or_else(bad)?
            .split(';')
            .collect();
        let [south, north, step] = parts.as_slice() else {
            return Err(bad());
        };
        let hand = |s: &str| -> Option<Hand> {
            if s == "pick" {
                return Some(Hand::Picking);
            }
            if let Some(step) = s.strip_prefix("done@") {
                return Some(Hand::Done {
                    step: step.parse().ok()?,
                });
            }
            let rest = s.strip_prefix("sow@")?;
            let mut fields = rest.split(':');
            let spot = fields.next()?;
            let side = match spot.get(..1)? {
                "S" => Player::First,
                "N" => Player::Second,
                _ => return None,
            };
            let slot: usize = spot.get(1..)?.parse().ok()?;
            let seeds: u8 = fields.next()?.parse().ok()?;
            let relays: u16 = fields.next()?.parse().ok()?;
            let valid = (1..=HOLES + 1).contains(&slot) && seeds > 0 && fields.next().is_none();
            valid.then_some(Hand::Sowing {
                at: Spot {
                    side,
                    slot: slot - 1,
                },
                seeds,
                relays,
            })
        };
        Ok(Opening {
            hands: [hand(south).ok_or_else(bad)?, hand(north).ok_or_else(bad)?],
            step: step.parse().map_err(|_| bad())?,
        })
    }

    /// Whether `opening` can be reached in play: the side to move is exactly the one
    /// picking (both at `*`) and has seeds, hands sow only into their own store, round 1 has
    /// no burnt holes, and the seeds (hands included) fit the board's counters.
    fn check_opening(
        position: &str,
        board: &Board,
        opening: &Opening,
        to_move: Player,
        both: bool,
    ) -> Result<(), GameError> {
        let bad = |reason: &str| Err(text::malformed(position, reason));
        let picking = opening.hands.map(|hand| hand == Hand::Picking);
        let expected = if both {
            [true, true]
        } else {
            [to_move == Player::First, to_move == Player::Second]
        };
        if picking != expected {
            return bad("during the opening exactly the side to move is picking (both: write *)");
        }
        if Player::BOTH
            .iter()
            .any(|&p| picking[p.index()] && board.row_total(p) == 0)
        {
            return bad("a player who picks a hole needs seeds in their row");
        }
        if board.has_burnt() {
            return bad("no hole is burnt in round 1");
        }
        let mut in_hands = 0;
        for (owner, hand) in Player::BOTH.iter().zip(&opening.hands) {
            if let Hand::Sowing { at, seeds, .. } = *hand {
                if at.slot == HOLES && at.side != *owner {
                    return bad("a hand never sows into the opponent's store");
                }
                in_hands += u32::from(seeds);
            }
        }
        if board.total() + in_hands > 255 {
            return bad("the board and hands hold at most 255 seeds");
        }
        Ok(())
    }
}

impl Notation for Congkak {
    fn name(&self) -> &'static str {
        "congkak"
    }

    fn parse_move(&self, text: &str) -> Result<CongkakMove, GameError> {
        let malformed = |reason: String| GameError::MalformedMove {
            text: text.to_string(),
            reason,
        };
        let hole = |s: &str| match s.trim().parse::<u8>() {
            Ok(n) if (1..=HOLES as u8).contains(&n) => Ok(n - 1),
            _ => Err(malformed(format!(
                "'{}' is not a hole number from 1 to {HOLES}",
                s.trim()
            ))),
        };
        match (text.split_once('/'), self.at_joint_decision()) {
            (Some((south, north)), true) => Ok(CongkakMove::Joint {
                south: hole(south)?,
                north: hole(north)?,
            }),
            (None, false) => hole(text).map(CongkakMove::Hole),
            (_, true) => Err(malformed(
                "both players choose at once here: write SOUTH/NORTH, like 3/5".to_string(),
            )),
            (_, false) => Err(malformed(format!(
                "expected one hole number from 1 to {HOLES}"
            ))),
        }
    }

    fn format_move(&self, mv: CongkakMove) -> String {
        match mv {
            CongkakMove::Hole(hole) => (hole + 1).to_string(),
            CongkakMove::Joint { south, north } => format!("{}/{}", south + 1, north + 1),
        }
    }

    fn to_position_string(&self) -> String {
        let side = if self.at_joint_decision() {
            "*"
        } else {
            text::side_letter(self.to_move)
        };
        let mut position = format!("{} {side} r{}", text::board_text(&self.board), self.round);
        if self.round_cap != DEFAULT_ROUND_CAP {
            position.push_str(&format!("/{}", self.round_cap));
        }
        if let Some(opening) = self.opening.filter(|_| !self.at_joint_decision()) {
            position.push(' ');
            position.push_str(&Congkak::hands_text(&opening));
        }
        position
    }

    fn from_position_string(position: &str) -> Result<Congkak, GameError> {
        let fields = text::fields(
            position,
            6..=7,
            "SOUTH-HOLES NORTH-HOLES SOUTH-STORE NORTH-STORE S|N|* rROUND[/CAP] [hands=…]",
        )?;
        let board = text::parse_board(position, &fields[..4])?;
        if board.pits_per_side() != HOLES {
            return Err(text::malformed(
                position,
                format!("Congkak has {HOLES} holes a side"),
            ));
        }
        let (round, cap) = fields[5]
            .strip_prefix('r')
            .and_then(|r| match r.split_once('/') {
                Some((round, cap)) => Some((round.parse::<u8>().ok()?, cap.parse::<u8>().ok()?)),
                None => Some((r.parse::<u8>().ok()?, DEFAULT_ROUND_CAP)),
            })
            .filter(|&(round, cap)| round >= 1 && cap >= round)
            .ok_or_else(|| {
                text::malformed(
                    position,
                    format!(
                        "'{}' is not rROUND or rROUND/CAP (1 ≤ ROUND ≤ CAP)",
                        fields[5]
                    ),
                )
            })?;
        let opening = match (fields[4], fields.get(6)) {
            ("*", None) => Some(Opening {
                hands: [Hand::Picking; 2],
                step: 0,
            }),
            ("*", Some(_)) => {
                return Err(text::malformed(
                    position,
                    "a simultaneous choice (*) has no hands field",
                ));
            }
            (_, Some(hands)) => Some(Congkak::parse_hands(position, hands)?),
            (_, None) => None,
        };
        if opening.is_some() && round != 1 {
            return Err(text::malformed(
                position,
                "only round 1 opens simultaneously",
            ));
        }
        let to_move = match fields[4] {
            "*" => Player::First,
            side => text::parse_side(position, side)?,
        };
        if let Some(o) = opening {
            Congkak::check_opening(position, &board, &o, to_move, fields[4] == "*")?;
        } else if round == 1 && board.has_burnt() {
            return Err(text::malformed(position, "no hole is burnt before round 2"));
        }
        let mut game = Congkak {
            board,
            to_move,
            round,
            round_cap: cap,
            opening,
            over: false,
            last: MoveFacts::default(),
        };
        if opening.is_none() {
            game.after_turn(to_move);
        }
        Ok(game)
    }
}
