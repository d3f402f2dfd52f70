//! Exact final margins of late Kalah positions, read from an endgame database built once:
//! what a learner can take as its targets where perfect play has already decided the game
//! (`evolve --teacher exact:SEEDS`).

use super::SolveError;
use super::board::{MAX_PITS, MoverBoard, store_margin};
use super::endgame::Endgames;
use crate::games::Game;
use crate::games::mancala::{Kalah, Mancala, OnBoard};

/// Most seeds on the board a database of late positions may cover: 548 million positions
/// (one byte each) on a board of six pits a side, built in a few minutes.
pub const MAX_LATE_SEEDS: u32 = 22;

/// The exact values of every position of one board and rule set with at most
/// [`LateValues::max_seeds`] seeds on the board.
pub struct LateValues {
    endgames: Endgames,
    pits: usize,
    empty_capture: bool,
}

impl LateValues {
    /// Builds the database for positions of `game`'s pits and rules with at most
    /// `max_seeds` seeds on the board, on the current thread pool.
    pub fn build(game: &Mancala<Kalah>, max_seeds: u32) -> Result<LateValues, SolveError> {
        let pits = game.board().pits_per_side();
        if pits > MAX_PITS {
            return Err(SolveError::TooManyPits(pits));
        }
        if !(2..=MAX_LATE_SEEDS).contains(&max_seeds) {
            return Err(SolveError::LateSeeds(max_seeds));
        }
        let empty_capture = game.rules().empty_capture;
        let endgames = Endgames::within(pits, max_seeds as usize, usize::MAX, empty_capture)?
            .expect("two seeds or more always fit");
        endgames.build(|_| {});
        Ok(LateValues {
            endgames,
            pits,
            empty_capture,
        })
    }

    /// Most seeds on the board of a position the database knows.
    pub fn max_seeds(&self) -> u32 {
        self.endgames.max_seeds as u32
    }

    /// Memory the database holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.endgames.positions()
    }

    /// The final store margin of the side to move in `game` under perfect play, if the
    /// game is not over and the database knows the position (the same pits and rules, at
    /// most [`LateValues::max_seeds`] seeds on the board).
    pub fn margin_for_mover(&self, game: &Mancala<Kalah>) -> Option<i32> {
        let board = game.board();
        let mover = game.to_move();
        let (own, theirs) = (board.row_total(mover), board.row_total(mover.opponent()));
        let known = board.pits_per_side() == self.pits
            && game.rules().empty_capture == self.empty_capture
            && own > 0
            && theirs > 0
            && own + theirs <= self.max_seeds()
            && game.outcome().is_none();
        known.then(|| store_margin(game, mover) + self.endgames.value(&MoverBoard::of(game)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{MoveList, Player};
    use crate::rng::rng_for;
    use crate::search::solve::solve;
    use rand::RngExt;

    /// The positions of random games of `start`, from the start to the end.
    fn random_positions(start: &Mancala<Kalah>, games: u64) -> Vec<Mancala<Kalah>> {
        let mut positions = Vec::new();
        for seed in 0..games {
            let mut rng = rng_for(seed, &[]);
            let mut game = start.clone();
            let mut moves = MoveList::new();
            while game.outcome().is_none() {
                positions.push(game.clone());
                game.legal_moves(&mut moves);
                game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            positions.push(game);
        }
        positions
    }

    #[test]
    fn late_positions_have_the_solvers_values_and_no_others_any() {
        for empty_capture in [false, true] {
            let start = Kalah::game(4, 3, empty_capture);
            let values = LateValues::build(&start, 10).unwrap();
            let mut known = 0;
            for game in random_positions(&start, 30) {
                let board = game.board();
                let seeds = board.row_total(Player::First) + board.row_total(Player::Second);
                match values.margin_for_mover(&game) {
                    Some(margin) => {
                        known += 1;
                        let first = solve(&game, 1 << 20, 1, |_| {})
                            .unwrap()
                            .first_player_margin;
                        let mover = game.to_move();
                        let expected = if mover == Player::First {
                            first
                        } else {
                            -first
                        };
                        assert_eq!(margin, expected, "{game:?}");
                    }
                    None => assert!(seeds > 10 || game.outcome().is_some(), "{game:?}"),
                }
            }
            assert!(known > 50, "only {known} late positions");
            // Another board or rule set is not the database's.
            let other = Kalah::game(5, 1, empty_capture);
            assert_eq!(values.margin_for_mover(&other), None);
            let other_rule = Kalah::game(4, 1, !empty_capture);
            assert_eq!(values.margin_for_mover(&other_rule), None);
        }
    }

    #[test]
    fn a_database_of_too_few_or_too_many_seeds_is_refused() {
        let start = Kalah::game(6, 4, false);
        for seeds in [0, 1, MAX_LATE_SEEDS + 1] {
            let error = LateValues::build(&start, seeds).err().unwrap();
            assert!(error.is_bad_input());
            assert!(error.to_string().contains(&seeds.to_string()), "{error}");
        }
    }
}
