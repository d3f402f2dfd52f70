//! [`Mancala`] as text for people: the board with its stores, the side to move, and the
//! sides' names.

use crate::games::{Describe, MoveFacts, Player};

use super::{Mancala, Rules, text};

impl<R: Rules> Describe for Mancala<R> {
    fn board_lines(&self) -> Vec<String> {
        let turn = if self.over {
            "game over".to_string()
        } else {
            format!("{} to move", text::side_name(self.to_move))
        };
        let status = format!(
            "{turn}; stores: South {} North {}",
            self.board.store(Player::First),
            self.board.store(Player::Second)
        );
        text::board_lines(&self.board, status)
    }

    fn player_name(&self, player: Player) -> &'static str {
        text::side_name(player)
    }

    fn last_move(&self) -> MoveFacts {
        self.last
    }
}
