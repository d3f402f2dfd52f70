//! Kalah(m, n) (Gifford et al. 2008): sow counter-clockwise through your own store, skipping
//! the opponent's; the last seed in your store gives another turn; the last seed in an empty
//! pit of your own captures it together with the opposite pit (when that pit holds seeds —
//! or always, in the empty-capture variant of Irving, Donkers & Uiterwijk 2000); a sowing of
//! 13+ seeds passes its own pit again (no skipping). The game ends as soon as either row is
//! empty after a move, and each player banks the seeds left on their own side.

use super::{Board, Landing, Mancala, MoveFacts, Rules, Sowing, bank_rows, capture_opposite};
use crate::games::Player;

/// Kalah's rules; `empty_capture` also captures when the opposite pit is empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kalah {
    pub empty_capture: bool,
}

/// The position-string word of the empty-capture variant.
const EMPTY_CAPTURE: &str = "empty-capture";

impl Kalah {
    /// Kalah with `pits` pits of `seeds` seeds per side.
    pub fn game(pits: usize, seeds: u8, empty_capture: bool) -> Mancala<Kalah> {
        Mancala::start(Kalah { empty_capture }, pits, seeds)
    }
}

impl Rules for Kalah {
    const NAME: &'static str = "kalah";
    const ENDS_ON_REPETITION: bool = false;

    fn sowing(&self) -> Sowing {
        Sowing {
            into_own_store: true,
            skip_origin: false,
        }
    }

    fn settle(&self, board: &mut Board, mover: Player, last: Landing) -> MoveFacts {
        match last {
            Landing::Store(_) => MoveFacts::EXTRA_TURN,
            Landing::Pit(side, pit) if side == mover && board.pit(mover, pit) == 1 => {
                match capture_opposite(board, mover, pit, self.empty_capture) {
                    Some(_) => MoveFacts::CAPTURED,
                    None => MoveFacts::default(),
                }
            }
            Landing::Pit(..) => MoveFacts::default(),
        }
    }

    fn finish(&self, board: &mut Board, _next: Player) -> bool {
        let empty_row = Player::BOTH.iter().any(|&p| board.row_total(p) == 0);
        if empty_row {
            bank_rows(board);
        }
        empty_row
    }

    fn variant_word(&self) -> Option<&'static str> {
        self.empty_capture.then_some(EMPTY_CAPTURE)
    }

    fn from_variant_word(word: Option<&str>) -> Result<Kalah, String> {
        match word {
            None => Ok(Kalah::default()),
            Some(EMPTY_CAPTURE) => Ok(Kalah {
                empty_capture: true,
            }),
            Some(other) => Err(format!(
                "unknown Kalah variant '{other}' (only '{EMPTY_CAPTURE}')"
            )),
        }
    }
}
