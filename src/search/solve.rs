//! Exact solving of small mancala boards (Kalah): full-depth alpha-beta with a
//! transposition table.
//!
//! The value searched is the *future* store margin: what the side to move will bank from
//! here on minus what the opponent will. It depends only on the pits and the side to move,
//! not on the stores, so positions reached with different store totals share one table
//! entry. The game's value is the current store margin plus the future margin.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::games::mancala::{Kalah, Mancala, OnBoard, Rules};
use crate::games::{Game, MoveList, Player};

/// A solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final store margin (first player's store minus the second's) under perfect play.
    pub first_player_margin: i32,
    pub nodes: u64,
    pub table_entries: usize,
}

/// Multiply-shift hashing of the 128-bit position keys (the default SipHash is several
/// times slower and needs no protection here).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u128(&mut self, key: u128) {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        self.0 = folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (folded >> 31);
    }
}

/// Bounds known for a position's future margin, and the move that last proved best there
/// (searched first next time: the key to cut-offs in the repeated null-window searches).
#[derive(Clone, Copy)]
struct Bounds {
    lower: i16,
    upper: i16,
    best_move: u8,
}

struct Solver {
    table: HashMap<u128, Bounds, BuildHasherDefault<KeyHasher>>,
    nodes: u64,
    max_entries: usize,
}

/// Most pits a side the solver takes: a position key holds 14 pits and the side to move.
pub const MAX_SOLVER_PITS: usize = 7;

/// Why a board was not solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// More pits than a position key holds: the keys of distinct positions would collide
    /// and the values come out wrong.
    #[error(
        "a board of {0} pits a side is too wide to solve: the solver takes at most {MAX_SOLVER_PITS}"
    )]
    TooManyPits(usize),
    /// The table outgrew its limit: the board is too large to solve in the memory allowed.
    #[error(
        "the transposition table reached its limit of {0} positions before the search ended; this board is too large to solve here"
    )]
    TableFull(usize),
}

impl SolveError {
    /// True when the board asked for is at fault (exit code 2) rather than the memory.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, SolveError::TooManyPits(_))
    }
}

/// The pits (one byte each, at most 2 × [`MAX_SOLVER_PITS`]) and the side to move, packed.
fn key<R: Rules>(game: &Mancala<R>) -> u128 {
    let board = game.board();
    Player::BOTH
        .iter()
        .flat_map(|&side| board.row(side).iter())
        .fold(u128::from(game.to_move() == Player::Second), |k, &seeds| {
            (k << 8) | u128::from(seeds)
        })
}

/// The store margin of `mover` over the opponent.
fn margin<R: Rules>(game: &Mancala<R>, mover: Player) -> i32 {
    let board = game.board();
    i32::from(board.store(mover)) - i32::from(board.store(mover.opponent()))
}

impl Solver {
    /// Fail-soft alpha-beta on the future margin of the side to move.
    fn future<R: Rules>(
        &mut self,
        game: &Mancala<R>,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, SolveError> {
        self.nodes += 1;
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            // Kalah has no passes: no move means the game is over and every seed banked.
            debug_assert!(game.outcome().is_some());
            return Ok(0);
        }
        let k = key(game);
        let mut hint = None;
        if let Some(b) = self.table.get(&k) {
            hint = Some(b.best_move);
            let (lower, upper) = (i32::from(b.lower), i32::from(b.upper));
            if lower == upper || lower >= beta {
                return Ok(lower);
            }
            if upper <= alpha {
                return Ok(upper);
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        // The window actually searched: the result is exact only strictly inside it.
        let (alpha0, beta0) = (alpha, beta);
        let mover = game.to_move();
        // Children ordered: the table's best move, then extra turns, then what a move banks.
        let mut children: Vec<(i32, bool, Mancala<R>, u8)> = moves
            .iter()
            .map(|&mv| {
                let mut child = game.clone();
                child.play_unchecked(mv);
                let gain = margin(&child, mover) - margin(game, mover);
                (gain, child.to_move() == mover, child, mv.0)
            })
            .collect();
        children.sort_by_key(|(gain, again, _, mv)| {
            (
                Some(*mv) != hint,
                std::cmp::Reverse(*again),
                std::cmp::Reverse(*gain),
            )
        });
        let mut best = i32::MIN;
        let mut best_move = children[0].3;
        for (gain, again, child, mv) in &children {
            let value = gain
                + if *again {
                    self.future(child, alpha - gain, beta - gain)?
                } else {
                    -self.future(child, gain - beta, gain - alpha)?
                };
            if value > best {
                best = value;
                best_move = *mv;
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        let bounds = self.table.entry(k).or_insert(Bounds {
            lower: i16::MIN,
            upper: i16::MAX,
            best_move,
        });
        bounds.best_move = best_move;
        let best16 = best as i16;
        if best <= alpha0 {
            bounds.upper = bounds.upper.min(best16);
        } else if best >= beta0 {
            bounds.lower = bounds.lower.max(best16);
        } else {
            *bounds = Bounds {
                lower: best16,
                upper: best16,
                best_move,
            };
        }
        if self.table.len() > self.max_entries {
            return Err(SolveError::TableFull(self.max_entries));
        }
        Ok(best)
    }
}

/// Solves a Kalah position exactly, keeping at most `max_entries` positions in the table
/// (about 100 bytes each, growth slack included). Kalah suits the method: no position can
/// repeat and no rule looks at the stores, so the future margin depends on the pits and the
/// side to move alone. Boards up to [`MAX_SOLVER_PITS`] pits a side; wider ones are refused.
pub fn solve(game: &Mancala<Kalah>, max_entries: usize) -> Result<Solution, SolveError> {
    let pits = game.board().pits_per_side();
    if pits > MAX_SOLVER_PITS {
        return Err(SolveError::TooManyPits(pits));
    }
    let mut solver = Solver {
        table: HashMap::default(),
        nodes: 0,
        max_entries,
    };
    let mover = game.to_move();
    // MTD(f): null-window searches converge on the value from a first guess of 0, each
    // one cheap thanks to the bounds and best moves the table keeps from the others.
    let (mut lower, mut upper, mut guess) = (-1000, 1000, 0);
    while lower < upper {
        let beta = if guess == lower { guess + 1 } else { guess };
        guess = solver.future(game, beta - 1, beta)?;
        if guess < beta {
            upper = guess;
        } else {
            lower = guess;
        }
    }
    let future = guess;
    let for_mover = margin(game, mover) + future;
    Ok(Solution {
        first_player_margin: if mover == Player::First {
            for_mover
        } else {
            -for_mover
        },
        nodes: solver.nodes,
        table_entries: solver.table.len(),
    })
}
