//! Kalah seen from the side to move, as the solver plays it: the mover's pits first, then
//! the opponent's, and no stores (the solver values only what is still to be banked). The
//! board is turned round whenever the turn passes, so one table entry serves a position
//! whichever player has it. Tests check every move against the game's own rules.

use std::cmp::Reverse;

use arrayvec::ArrayVec;

use crate::games::mancala::{Kalah, Mancala, OnBoard};
use crate::games::{Game, Player};

/// Most pits a side: a board holds both rows in 16 bytes.
pub const MAX_PITS: usize = 8;

/// A position for the side to move: pits `0..m` are the mover's, `m..2m` the opponent's,
/// each row counted from its owner's left, as in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoverBoard {
    pits: [u8; 2 * MAX_PITS],
    m: u8,
}

/// What a move did: the seeds it banked for the mover (store, captures, and the rows
/// banked when the game ends), whether the mover moves again, and whether the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sown {
    pub banked: i32,
    pub again: bool,
    pub over: bool,
}

/// One move from a board: the pit sown, the board it leaves (seen by whoever moves next)
/// and what the sowing did.
#[derive(Clone, Copy, Debug)]
pub struct Child {
    pub pit: usize,
    pub board: MoverBoard,
    pub sown: Sown,
}

/// A window wide enough for any future margin (at most 255 seeds lie on a board).
pub const ANY_MARGIN: (i32, i32) = (-(u8::MAX as i32) - 1, u8::MAX as i32 + 1);

impl Child {
    /// The ordering every search of the solver starts from: extra turns first, then the
    /// moves that bank the most. Extra turns go nearest the store first: sowing a pit
    /// changes only the pits after it, so a row's extra turns can all be taken from the
    /// right, where one taken from the left spoils those beyond it (on Kalah(6,4) this
    /// cut the nodes from 834 M to 116 M).
    pub fn promise(&self) -> (bool, Reverse<i32>, Reverse<usize>) {
        let nearest_store = if self.sown.again { self.pit } else { 0 };
        (
            !self.sown.again,
            Reverse(self.sown.banked),
            Reverse(nearest_store),
        )
    }

    /// The mover's future margin through this move within the window `(alpha, beta)`:
    /// what the move banked plus the child's future margin, which `search` gives for the
    /// child's own mover within a window — negated, and the window turned round, when the
    /// turn passed.
    pub fn value_within(
        &self,
        (alpha, beta): (i32, i32),
        search: impl FnOnce(&MoverBoard, (i32, i32)) -> i32,
    ) -> i32 {
        let banked = self.sown.banked;
        banked
            + if self.sown.over {
                0
            } else if self.sown.again {
                search(&self.board, (alpha - banked, beta - banked))
            } else {
                -search(&self.board, (banked - beta, banked - alpha))
            }
    }
}

impl MoverBoard {
    /// `game`'s pits, seen by its side to move.
    pub fn of(game: &Mancala<Kalah>) -> MoverBoard {
        let board = game.board();
        let m = board.pits_per_side();
        let mover = game.to_move();
        let mut pits = [0; 2 * MAX_PITS];
        pits[..m].copy_from_slice(board.row(mover));
        pits[m..2 * m].copy_from_slice(board.row(mover.opponent()));
        MoverBoard { pits, m: m as u8 }
    }

    /// The board whose first `2 * m` entries of `pits` are the mover's row then the
    /// opponent's (the rest must be zero).
    pub fn from_pits(pits: &[u8; 2 * MAX_PITS], m: usize) -> MoverBoard {
        debug_assert!(pits[2 * m..].iter().all(|&s| s == 0));
        MoverBoard {
            pits: *pits,
            m: m as u8,
        }
    }

    /// A board from both rows, the mover's first (for tests of the numbering).
    #[cfg(test)]
    pub fn from_rows(mover: &[u8], opponent: &[u8]) -> MoverBoard {
        let m = mover.len();
        let mut pits = [0; 2 * MAX_PITS];
        pits[..m].copy_from_slice(mover);
        pits[m..2 * m].copy_from_slice(opponent);
        MoverBoard { pits, m: m as u8 }
    }

    fn m(&self) -> usize {
        usize::from(self.m)
    }

    /// The pits: the mover's row, then the opponent's, then zeros.
    pub fn pits(&self) -> &[u8; 2 * MAX_PITS] {
        &self.pits
    }

    /// Seeds still on the board: no player can gain or lose more than these from here on.
    pub fn on_board(&self) -> i32 {
        self.pits.iter().map(|&s| i32::from(s)).sum()
    }

    /// The mover's pits that hold seeds: the legal moves (a finished game has none).
    pub fn moves(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.m()).filter(|&pit| self.pits[pit] > 0)
    }

    /// Every legal move's [`Child`], in pit order.
    pub fn children(&self, empty_capture: bool) -> ArrayVec<Child, MAX_PITS> {
        self.moves()
            .map(|pit| {
                let mut board = *self;
                let sown = board.sow(pit, empty_capture);
                Child { pit, board, sown }
            })
            .collect()
    }

    /// Sows the mover's pit `pit` under Kalah's rules. The board left is seen by whoever
    /// moves next: the same player after an extra turn, the other one otherwise.
    pub fn sow(&mut self, pit: usize, empty_capture: bool) -> Sown {
        let m = self.m();
        // One lap: the mover's pits, the mover's store (cycle index m), the opponent's.
        let cycle = 2 * m + 1;
        let seeds = usize::from(std::mem::take(&mut self.pits[pit]));
        let (laps, rest) = (seeds / cycle, seeds % cycle);
        let mut banked = laps as i32;
        if laps > 0 {
            for seeds in &mut self.pits[..2 * m] {
                *seeds += laps as u8;
            }
        }
        // The last lap, cycle indices pit + 1 ..= end, wrapping at most once.
        let end = pit + rest;
        let add_one = |pits: &mut [u8]| pits.iter_mut().for_each(|seeds| *seeds += 1);
        add_one(&mut self.pits[pit + 1..=end.min(m - 1)]);
        if end >= m {
            banked += 1;
            // Cycle index c > m is pit c - 1.
            add_one(&mut self.pits[m..end.min(2 * m)]);
        }
        if end >= cycle {
            add_one(&mut self.pits[..=end - cycle]);
        }
        let last = if end >= cycle { end - cycle } else { end };
        let again = last == m;
        if last < m && self.pits[last] == 1 {
            let facing = 2 * m - 1 - last;
            if self.pits[facing] > 0 || empty_capture {
                banked += 1 + i32::from(self.pits[facing]);
                self.pits[last] = 0;
                self.pits[facing] = 0;
            }
        }
        let own: i32 = self.pits[..m].iter().map(|&s| i32::from(s)).sum();
        let theirs: i32 = self.pits[m..2 * m].iter().map(|&s| i32::from(s)).sum();
        let over = own == 0 || theirs == 0;
        if over {
            // Each player banks what is left on their own side.
            banked += own - theirs;
            self.pits = [0; 2 * MAX_PITS];
        } else if !again {
            self.turn_round();
        }
        Sown {
            banked,
            again: again && !over,
            over,
        }
    }

    /// The same position seen by the other player.
    fn turn_round(&mut self) {
        let m = self.m();
        let mut turned = [0; 2 * MAX_PITS];
        turned[..m].copy_from_slice(&self.pits[m..2 * m]);
        turned[m..2 * m].copy_from_slice(&self.pits[..m]);
        self.pits = turned;
    }
}

/// The store margin of `player` over the opponent in `game`.
pub fn store_margin(game: &Mancala<Kalah>, player: Player) -> i32 {
    let board = game.board();
    i32::from(board.store(player)) - i32::from(board.store(player.opponent()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::MoveList;
    use crate::games::mancala::Pit;
    use crate::rng::rng_for;
    use rand::RngExt;

    /// Random games on boards of every width, both capture rules: each move of the solver's
    /// board banks what the game's stores gain and leaves the game's next position.
    #[test]
    fn sowing_agrees_with_the_game_rules() {
        let mut moves = MoveList::new();
        for (pits, seeds) in [(1, 1), (3, 2), (4, 5), (6, 4), (6, 6), (7, 18)] {
            for empty_capture in [false, true] {
                let mut rng = rng_for(3, &[pits as u64, u64::from(seeds)]);
                for _ in 0..40 {
                    let mut game = Kalah::game(pits, seeds, empty_capture);
                    game.legal_moves(&mut moves);
                    while !moves.is_empty() {
                        let mv = moves[rng.random_range(0..moves.len())];
                        let mover = game.to_move();
                        let mut board = MoverBoard::of(&game);
                        let before = store_margin(&game, mover);
                        let sown = board.sow(usize::from(mv.0), empty_capture);
                        game.play_unchecked(Pit(mv.0));
                        assert_eq!(sown.banked, store_margin(&game, mover) - before);
                        assert_eq!(sown.over, game.outcome().is_some());
                        assert_eq!(sown.again, !sown.over && game.to_move() == mover);
                        if !sown.over {
                            assert_eq!(board, MoverBoard::of(&game));
                        }
                        game.legal_moves(&mut moves);
                    }
                }
            }
        }
    }
}
