//! Congkak as text for people: the board with any waiting hand, and notes on what a move
//! did that the generic reports do not say (a round's end, a waiting hand that stopped).

use super::opening::Hand;
use super::{Congkak, HOLES};
use crate::games::mancala::text;
use crate::games::{Describe, Game, MoveFacts, Player};

impl Congkak {
    /// A line for each hand that waited during the move before this position and has
    /// stopped since: it sowed on alongside the other player's move, which the move's own
    /// description does not tell.
    fn finished_hand_notes(&self, previous: &Congkak) -> Vec<String> {
        let Some(before) = previous.opening else {
            return Vec::new();
        };
        let now = self.opening.map(|opening| opening.hands);
        Player::BOTH
            .iter()
            .filter_map(|&owner| {
                if !matches!(before.hands[owner.index()], Hand::Sowing { .. }) {
                    return None;
                }
                let still_sowing =
                    now.is_some_and(|hands| matches!(hands[owner.index()], Hand::Sowing { .. }));
                (!still_sowing).then(|| {
                    format!(
                        "{}'s waiting hand sowed on alongside and stopped",
                        text::side_name(owner)
                    )
                })
            })
            .collect()
    }
}

impl Describe for Congkak {
    fn board_lines(&self) -> Vec<String> {
        let turn = if self.over {
            "match over".to_string()
        } else if self.at_joint_decision() {
            "both choose a hole at once".to_string()
        } else {
            format!("{} to move", text::side_name(self.to_move))
        };
        let status = format!(
            "round {} of at most {}; {turn}; stores: South {} North {}",
            self.round,
            self.round_cap,
            self.board.store(Player::First),
            self.board.store(Player::Second)
        );
        let mut lines = text::board_lines(&self.board, status);
        for (owner, hand) in Player::BOTH
            .iter()
            .zip(self.opening.iter().flat_map(|o| o.hands))
        {
            if let Hand::Sowing { at, seeds, .. } = hand {
                let place = if at.slot == HOLES {
                    "its store".to_string()
                } else {
                    format!("{} {}", text::side_name(at.side), at.slot + 1)
                };
                lines.push(format!(
                    "{}'s hand waits with {seeds} seeds (last dropped at {place})",
                    text::side_name(*owner)
                ));
            }
        }
        lines
    }

    /// The end of a round: what each side owned when it ended (store plus refilled holes,
    /// or the final stores), who starts the next round, and the holes burnt.
    fn move_notes(&self, previous: &Congkak) -> Vec<String> {
        if self.over && !previous.over {
            let [south, north] = self.score();
            return vec![format!(
                "round {} ends {south}–{north}: the match is over",
                self.round
            )];
        }
        if self.round == previous.round {
            return self.finished_hand_notes(previous);
        }
        let owned = |side| u32::from(self.board.store(side)) + self.board.row_total(side);
        let burnt = |side| (0..HOLES).filter(|&h| self.board.is_burnt(side, h)).count();
        vec![format!(
            "round {} ends {}–{}; {} starts round {} (burnt holes: South {}, North {})",
            previous.round,
            owned(Player::First),
            owned(Player::Second),
            text::side_name(self.to_move),
            self.round,
            burnt(Player::First),
            burnt(Player::Second)
        )]
    }

    fn player_name(&self, player: Player) -> &'static str {
        text::side_name(player)
    }

    fn last_move(&self) -> MoveFacts {
        self.last
    }
}
