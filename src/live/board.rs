//! What the page needs to draw a position and to turn a click into a move: the board's
//! contents and, for each move in the game's notation, the square or pit it is played on.
//! The rules stay in Rust; the page only draws and sends move texts back.

use serde::Serialize;

use crate::eval::NamedEvaluators;
use crate::games::Player;
use crate::games::mancala::{Congkak, Mancala, OnBoard, Rules};
use crate::games::othello::{Move, Othello};

/// A position as the page draws it.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Drawing {
    /// Othello: 64 cells, `a1` first, row by row: 0 empty, 1 the first player's disc, 2 the
    /// second's.
    Grid { size: usize, cells: Vec<u8> },
    /// Mancala: each side's pits from its own left (South first), the stores, and which pits
    /// are burnt (Congkak).
    Pits {
        pits: [Vec<u8>; 2],
        stores: [u8; 2],
        burnt: [Vec<bool>; 2],
    },
}

/// A game the web page can draw.
pub trait Drawn: NamedEvaluators {
    fn drawing(&self) -> Drawing;

    /// Where a player's move (their own part at a simultaneous decision), written in the
    /// game's notation, is played: a cell or a pit of the mover's row; `None` for a pass.
    fn spot(&self, part: &str) -> Option<usize>;
}

impl Drawn for Othello {
    fn drawing(&self) -> Drawing {
        let [black, white] = [Player::First, Player::Second].map(|p| self.discs(p));
        let cells = (0..64)
            .map(|i| u8::from(black >> i & 1 == 1) + 2 * u8::from(white >> i & 1 == 1))
            .collect();
        Drawing::Grid { size: 8, cells }
    }

    fn spot(&self, part: &str) -> Option<usize> {
        Move::parse(part).ok()?.square().map(|s| s as usize)
    }
}

fn pits_drawing<G: OnBoard>(game: &G) -> Drawing {
    let board = game.board();
    let sides = [Player::First, Player::Second];
    Drawing::Pits {
        pits: sides.map(|side| board.row(side).to_vec()),
        stores: sides.map(|side| board.store(side)),
        burnt: sides.map(|side| {
            (0..board.pits_per_side())
                .map(|pit| board.is_burnt(side, pit))
                .collect()
        }),
    }
}

/// Pits are numbered from 1 in mancala notation.
fn pit_spot(part: &str) -> Option<usize> {
    part.trim().parse::<usize>().ok()?.checked_sub(1)
}

impl<R: Rules> Drawn for Mancala<R>
where
    Mancala<R>: NamedEvaluators,
{
    fn drawing(&self) -> Drawing {
        pits_drawing(self)
    }

    fn spot(&self, part: &str) -> Option<usize> {
        pit_spot(part)
    }
}

impl Drawn for Congkak {
    fn drawing(&self) -> Drawing {
        pits_drawing(self)
    }

    fn spot(&self, part: &str) -> Option<usize> {
        pit_spot(part)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mancala::Kalah;

    #[test]
    fn othello_start_has_four_discs_where_the_notation_says() {
        let Drawing::Grid { size, cells } = Othello::start().drawing() else {
            panic!("Othello is drawn as a grid");
        };
        assert_eq!(size, 8);
        let d4 = Othello::start().spot("d4").unwrap();
        let e4 = Othello::start().spot("e4").unwrap();
        assert_eq!((d4, e4), (27, 28));
        assert_eq!(cells.iter().filter(|&&c| c != 0).count(), 4);
        assert_ne!(cells[d4], 0);
        assert_ne!(cells[d4], cells[e4]);
        assert_eq!(Othello::start().spot("pass"), None);
    }

    #[test]
    fn kalah_pits_and_stores() {
        let Drawing::Pits { pits, stores, .. } = Kalah::game(6, 4, false).drawing() else {
            panic!("Kalah is drawn as pits");
        };
        assert_eq!(pits, [vec![4; 6], vec![4; 6]]);
        assert_eq!(stores, [0, 0]);
        assert_eq!(Kalah::game(6, 4, false).spot("3"), Some(2));
    }
}
