//! Oware / Ayo, Abapa rules (the Ayo thesis §3.2): 6 pits of 4 seeds, no stores in the
//! sowing and no extra turns; a sowing of 12+ skips its own pit; the last seed in an opponent
//! pit that then holds 2 or 3 captures it and the preceding opponent pits while they hold 2
//! or 3; a move that would capture every opponent seed (a grand slam) is played but captures
//! nothing; if the opponent has no seeds you must give them some, and if you cannot, you bank
//! the seeds left (all on your side) and the game ends. The game also ends when a player has
//! captured more than half the seeds, at an even split (24–24), or at the first repetition of
//! a position since the last capture; seeds left on the board then go to their row's owner.

use super::{Board, Landing, Mancala, MoveFacts, Rules, Sowing, bank_rows, playable_pits};
use crate::games::Player;

/// Oware's (Abapa) rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Oware;

impl Oware {
    /// The standard game: 6 pits of 4 seeds per side.
    pub fn game() -> Mancala<Oware> {
        Mancala::start(Oware, 6, 4)
    }
}

impl Rules for Oware {
    const NAME: &'static str = "oware";
    const ENDS_ON_REPETITION: bool = true;

    fn sowing(&self) -> Sowing {
        Sowing {
            into_own_store: false,
            skip_origin: true,
        }
    }

    /// When the opponent's row is empty, only a sowing that reaches it is allowed.
    fn allows(&self, board: &Board, mover: Player, pit: usize) -> bool {
        board.row_total(mover.opponent()) > 0
            || usize::from(board.pit(mover, pit)) >= board.pits_per_side() - pit
    }

    fn settle(&self, board: &mut Board, mover: Player, last: Landing) -> MoveFacts {
        let victim = mover.opponent();
        let Landing::Pit(side, last_pit) = last else {
            return MoveFacts::default();
        };
        if side != victim {
            return MoveFacts::default();
        }
        let ripe = |seeds: u8| seeds == 2 || seeds == 3;
        let chain: Vec<usize> = (0..=last_pit)
            .rev()
            .take_while(|&pit| ripe(board.pit(victim, pit)))
            .collect();
        let seeds: u32 = chain
            .iter()
            .map(|&pit| u32::from(board.pit(victim, pit)))
            .sum();
        if seeds == 0 || seeds == board.row_total(victim) {
            // Nothing ripe, or a grand slam: the move stands but captures nothing.
            return MoveFacts::default();
        }
        for pit in chain {
            board.set_pit(victim, pit, 0);
        }
        board.add_to_store(mover, seeds as u8);
        MoveFacts::CAPTURED
    }

    fn finish(&self, board: &mut Board, next: Player) -> bool {
        let half = board.total() / 2;
        let stores = Player::BOTH.map(|p| u32::from(board.store(p)));
        let decided = stores.iter().any(|&s| s > half) || (stores[0] == half && stores[1] == half);
        let over = decided || playable_pits(self, board, next) == 0;
        if over {
            bank_rows(board);
        }
        over
    }

    fn variant_word(&self) -> Option<&'static str> {
        None
    }

    fn from_variant_word(word: Option<&str>) -> Result<Oware, String> {
        match word {
            None => Ok(Oware),
            Some(other) => Err(format!("Oware has no variant '{other}'")),
        }
    }
}
