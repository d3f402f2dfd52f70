//! The search proper: fail-soft alpha-beta on the future margin of the side to move, with
//! the transposition table's bounds and best moves, the endgame database, an enhanced
//! transposition cut-off and a futility cut-off (see the module's documentation).

use crate::search::bounds::{narrow, proven};

use super::Solver;
use super::board::{Child, MoverBoard};
use super::table::Record;

impl Solver {
    /// A lower bound on the mover's future margin through `child`, from what is known of it
    /// without searching: the end of the game, the endgame database or the table.
    fn known_through(&self, child: &Child) -> Option<i32> {
        let banked = child.sown.banked;
        if child.sown.over {
            return Some(banked);
        }
        let sign = if child.sown.again { 1 } else { -1 };
        let on_board = child.board.on_board();
        if let Some(endgames) = self.endgames.as_ref().filter(|e| on_board <= e.max_seeds) {
            return Some(banked + sign * endgames.value(&child.board));
        }
        let known = self.table.get(child.board.key())?;
        let bound = if child.sown.again {
            known.lower
        } else {
            known.upper
        };
        (bound != if child.sown.again { i16::MIN } else { i16::MAX })
            .then(|| banked + sign * i32::from(bound))
    }

    /// Fail-soft alpha-beta on the future margin of the side to move.
    pub(super) fn future(&mut self, board: &MoverBoard, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let nodes_before = self.nodes;
        let on_board = board.on_board();
        if alpha >= on_board {
            return on_board;
        }
        if beta <= -on_board {
            return -on_board;
        }
        if let Some(endgames) = self.endgames.as_ref().filter(|e| on_board <= e.max_seeds) {
            return endgames.value(board);
        }
        let key = board.key();
        let known = self.table.get(key);
        if let Some(known) = known {
            (alpha, beta) = match narrow(known.lower.into(), known.upper.into(), alpha, beta) {
                Ok(window) => window,
                Err(settled) => return settled,
            };
        }
        // The window actually searched: the result is exact only strictly inside it.
        let (alpha_searched, beta_searched) = (alpha, beta);
        let mut children = board.children(self.empty_capture);
        let hint = known.map(|known| usize::from(known.best));
        children.sort_by_key(|child| (Some(child.pit) != hint, child.promise()));
        let mut best = (i32::MIN, children[0].pit);
        if on_board >= self.etc_seeds
            && let Some(cut) = children
                .iter()
                .filter_map(|child| Some((self.known_through(child)?, child.pit)))
                .find(|&(value, _)| value >= beta)
        {
            best = cut;
        }
        for child in &children {
            if best.0 >= beta {
                break;
            }
            let value = child.value_within((alpha, beta), |board, (alpha, beta)| {
                self.future(board, alpha, beta)
            });
            if value > best.0 {
                best = (value, child.pit);
                alpha = alpha.max(value);
            }
        }
        let known = known.map_or((i16::MIN.into(), i16::MAX.into()), |k| {
            (k.lower.into(), k.upper.into())
        });
        let (lower, upper) = proven(best.0, (alpha_searched, beta_searched), known);
        let work = (u64::BITS - (self.nodes - nodes_before + 1).leading_zeros()) as u8;
        self.table.put(
            key,
            Record {
                lower: lower as i16,
                upper: upper as i16,
                best: best.1 as u8,
                work,
            },
        );
        best.0
    }
}
