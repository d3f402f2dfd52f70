//! Exact values of every move of a position, from the solvers in [`crate::search`].

use crate::games::Player;
use crate::games::mancala::{Kalah, Mancala, OnBoard};
use crate::games::othello::Othello;
use crate::games::{Game, MoveList};
use crate::search::endgame::{MAX_EMPTIES, move_margins};
use crate::search::solve::{KalahSolver, check_board};

/// An exact solver for the positions of one game.
pub trait ExactMoves<G: Game> {
    /// What positions the solver takes, in words (part of the cache key).
    fn describe(&self) -> String;

    /// Whether the solver takes `game` (few enough empty squares or seeds).
    fn admits(&self, game: &G) -> bool;

    /// The final margin for the side to move after each of its legal moves, under
    /// perfect play from then on.
    fn move_values(&mut self, game: &G) -> Vec<(G::Move, i32)>;
}

/// Othello positions of at most `max_empties` empty squares, by the endgame solver.
pub struct OthelloOracle {
    pub max_empties: u32,
}

impl OthelloOracle {
    /// An oracle for positions of up to `max_empties` empties (at most [`MAX_EMPTIES`]).
    pub fn new(max_empties: u32) -> Result<OthelloOracle, String> {
        if max_empties > MAX_EMPTIES {
            return Err(format!(
                "at most {MAX_EMPTIES} empty squares can be solved exactly, not {max_empties}"
            ));
        }
        Ok(OthelloOracle { max_empties })
    }
}

impl ExactMoves<Othello> for OthelloOracle {
    fn describe(&self) -> String {
        format!("exact endgames of at most {} empties", self.max_empties)
    }

    fn admits(&self, game: &Othello) -> bool {
        game.empties().count_ones() <= self.max_empties
    }

    fn move_values(&mut self, game: &Othello) -> Vec<(<Othello as Game>::Move, i32)> {
        // As many threads as the command's pool: the margins do not depend on it.
        move_margins(game, rayon::current_num_threads())
            .expect("the oracle admits only positions the solver takes")
    }
}

/// Kalah positions of one board and rules with at most `max_seeds` seeds left on the
/// board, by the Kalah solver (one table kept over every position). The solver, and its
/// endgame database, are made at the first position solved: a sample read from the cache
/// needs neither.
pub struct KalahOracle {
    board: Mancala<Kalah>,
    max_seeds: u32,
    table_bytes: usize,
    solver: Option<KalahSolver>,
}

impl KalahOracle {
    /// An oracle for positions of `board`'s pits and rules with at most `max_seeds` seeds
    /// on the board; `table_bytes` bounds the solver's memory.
    pub fn new(
        board: &Mancala<Kalah>,
        max_seeds: u32,
        table_bytes: usize,
    ) -> Result<KalahOracle, String> {
        check_board(board.board().pits_per_side(), max_seeds).map_err(|e| e.to_string())?;
        Ok(KalahOracle {
            board: board.clone(),
            max_seeds,
            table_bytes,
            solver: None,
        })
    }
}

impl ExactMoves<Mancala<Kalah>> for KalahOracle {
    fn describe(&self) -> String {
        format!(
            "exact values with at most {} seeds on the board",
            self.max_seeds
        )
    }

    fn admits(&self, game: &Mancala<Kalah>) -> bool {
        seeds_on_board(game) <= self.max_seeds
    }

    fn move_values(&mut self, game: &Mancala<Kalah>) -> Vec<(<Mancala<Kalah> as Game>::Move, i32)> {
        let (board, max_seeds, table_bytes) = (&self.board, self.max_seeds, self.table_bytes);
        let solver = self.solver.get_or_insert_with(|| {
            KalahSolver::new(board, max_seeds, table_bytes, 1, &mut |_| {})
                .expect("the board was checked when the oracle was made")
        });
        let mover = game.to_move();
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| {
                let child = game.after(mv);
                let first = solver.margin(&child);
                (
                    mv,
                    if mover == Player::First {
                        first
                    } else {
                        -first
                    },
                )
            })
            .collect()
    }
}

fn seeds_on_board(game: &Mancala<Kalah>) -> u32 {
    let board = game.board();
    board.row_total(Player::First) + board.row_total(Player::Second)
}
