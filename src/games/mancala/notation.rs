//! [`Mancala`]'s notation: pit numbers, `pass`, and the position strings laid out in the
//! module's documentation.

use crate::games::{GameError, Notation};

use super::{Mancala, Pit, Rules, text};

impl<R: Rules> Notation for Mancala<R> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn same_variant(&self, other: &Self) -> bool {
        self.rules == other.rules && self.board.pits_per_side() == other.board.pits_per_side()
    }

    fn parse_move(&self, text: &str) -> Result<Pit, GameError> {
        let m = self.board.pits_per_side();
        if R::PASSES && text.trim() == "pass" {
            return Ok(Pit::PASS);
        }
        match text.trim().parse::<usize>() {
            Ok(n) if (1..=m).contains(&n) => Ok(Pit((n - 1) as u8)),
            _ => Err(GameError::MalformedMove {
                text: text.to_string(),
                reason: format!("expected a pit number from 1 to {m}"),
            }),
        }
    }

    fn format_move(&self, mv: Pit) -> String {
        if mv == Pit::PASS {
            "pass".to_string()
        } else {
            (mv.0 + 1).to_string()
        }
    }

    fn to_position_string(&self) -> String {
        let mut text = format!(
            "{} {}",
            text::board_text(&self.board),
            text::side_letter(self.to_move)
        );
        if let Some(word) = self.rules.variant_word() {
            text.push(' ');
            text.push_str(word);
        }
        text
    }

    fn from_position_string(position: &str) -> Result<Self, GameError> {
        let fields = text::fields(
            position,
            5..=6,
            "SOUTH-PITS NORTH-PITS SOUTH-STORE NORTH-STORE S|N [VARIANT]",
        )?;
        let board = text::parse_board(position, &fields[..4])?;
        if board.has_burnt() {
            return Err(text::malformed(
                position,
                format!("{} has no burnt pits", R::NAME),
            ));
        }
        let to_move = text::parse_side(position, fields[4])?;
        let rules = R::from_variant_word(fields.get(5).copied())
            .map_err(|reason| text::malformed(position, reason))?;
        Ok(Mancala::from_board(rules, board, to_move))
    }
}
