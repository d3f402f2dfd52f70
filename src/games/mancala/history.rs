//! Positions seen since the last capture, for rules that end a game on repetition. A
//! persistent list behind `Arc`, so cloning a game (as search does at every node) is cheap.

use std::sync::Arc;

use super::Board;
use crate::games::Player;

#[derive(Debug)]
struct Seen {
    board: Board,
    to_move: Player,
    earlier: Option<Arc<Seen>>,
}

/// The positions since the last capture, newest first.
#[derive(Clone, Debug, Default)]
pub struct History(Option<Arc<Seen>>);

impl History {
    pub fn contains(&self, board: &Board, to_move: Player) -> bool {
        let mut node = self.0.as_deref();
        while let Some(seen) = node {
            if seen.to_move == to_move && seen.board == *board {
                return true;
            }
            node = seen.earlier.as_deref();
        }
        false
    }

    pub fn push(&mut self, board: &Board, to_move: Player) {
        self.0 = Some(Arc::new(Seen {
            board: *board,
            to_move,
            earlier: self.0.take(),
        }));
    }
}
