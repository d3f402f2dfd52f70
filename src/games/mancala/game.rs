//! [`Mancala`] as a [`Game`]: its start, its legal moves, and a move sown, settled by the
//! rules and checked for the end (or, under a repetition rule, for a position seen since
//! the last capture).

use crate::games::{Game, MoveFacts, MoveList, Outcome, Player, position_key};

use super::history::History;
use super::{Board, Mancala, Pit, Rules, bank_rows};

impl<R: Rules> Mancala<R> {
    /// A game from `board` with `to_move` to play.
    pub fn from_board(rules: R, mut board: Board, to_move: Player) -> Mancala<R> {
        let over = rules.finish(&mut board, to_move);
        let mut history = History::default();
        if R::ENDS_ON_REPETITION && !over {
            history.push(&board, to_move);
        }
        Mancala {
            rules,
            board,
            to_move,
            over,
            history,
            last: MoveFacts::default(),
        }
    }

    /// The standard start: `pits` pits of `seeds` seeds per side, the first player to move.
    pub fn start(rules: R, pits: usize, seeds: u8) -> Mancala<R> {
        Mancala::from_board(rules, Board::new(pits, seeds), Player::First)
    }

    pub fn rules(&self) -> &R {
        &self.rules
    }
}

impl<R: Rules> Game for Mancala<R> {
    type Move = Pit;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut MoveList<Pit>) {
        moves.clear();
        if self.over {
            return;
        }
        let mover = self.to_move;
        moves.extend(
            (0..self.board.pits_per_side())
                .filter(|&pit| {
                    self.board.pit(mover, pit) > 0 && self.rules.allows(&self.board, mover, pit)
                })
                .map(|pit| Pit(pit as u8)),
        );
        if R::PASSES && moves.is_empty() {
            moves.push(Pit::PASS);
        }
    }

    fn play_unchecked(&mut self, mv: Pit) {
        let mover = self.to_move;
        if mv == Pit::PASS {
            self.to_move = mover.opponent();
            self.last = MoveFacts::default();
            return;
        }
        let last = self
            .board
            .sow(mover, mover, usize::from(mv.0), self.rules.sowing());
        let settled = self.rules.settle(&mut self.board, mover, last);
        let next = if settled.extra_turn {
            mover
        } else {
            mover.opponent()
        };
        self.to_move = next;
        self.last = settled;
        self.over = self.rules.finish(&mut self.board, next);
        if R::ENDS_ON_REPETITION && !self.over {
            if settled.captured {
                self.history = History::default();
            }
            if self.history.contains(&self.board, next) {
                bank_rows(&mut self.board);
                self.over = true;
            } else {
                self.history.push(&self.board, next);
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        Some(Outcome::from_score(self.score()))
    }

    fn score(&self) -> [i32; 2] {
        Player::BOTH.map(|p| i32::from(self.board.store(p)))
    }

    /// The board, the side to move and whether the game is over; none under a repetition
    /// rule, where the positions since the last capture matter too.
    fn position_key(&self) -> Option<u64> {
        if R::ENDS_ON_REPETITION {
            return None;
        }
        let [a, b, c, d] = self.board.key_words();
        let state = self.to_move.index() as u64 | u64::from(self.over) << 1;
        Some(position_key(&[a, b, c, d, state]))
    }
}
