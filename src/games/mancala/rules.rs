//! What a ruleset is ([`Rules`]: how to sow, which pits may be played, what the last seed
//! does, when the game ends), and the pieces of rules that several rulesets share: the
//! capture of the facing pit, banking the rows, counting the playable pits.

use std::fmt::Debug;

use crate::games::{MoveFacts, Player};

use super::{Board, Landing, Sowing};

/// The rules that distinguish one mancala game from another.
pub trait Rules: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// The game's command-line name.
    const NAME: &'static str;
    /// Whether the first repetition of a position (since the last capture) ends the game.
    const ENDS_ON_REPETITION: bool;
    /// Whether a player who cannot sow passes (Congklak) rather than the game ending.
    const PASSES: bool = false;

    /// How seeds are sown.
    fn sowing(&self) -> Sowing;

    /// Whether `mover` may play `pit`, which holds seeds (e.g. Oware's duty to feed).
    fn allows(&self, _board: &Board, _mover: Player, _pit: usize) -> bool {
        true
    }

    /// Applies what the last seed (at `last`) does: captures, extra turns.
    fn settle(&self, board: &mut Board, mover: Player, last: Landing) -> MoveFacts;

    /// Whether the game is over with `next` to move; if so, banks the seeds still on the
    /// board as the rules say. Called after every move and on reading a position.
    fn finish(&self, board: &mut Board, next: Player) -> bool;

    /// The extra word of the position string for this variant, if any.
    fn variant_word(&self) -> Option<&'static str>;

    /// The ruleset named by a position string's extra word (`None`: the standard rules).
    fn from_variant_word(word: Option<&str>) -> Result<Self, String>;
}

/// The last seed fell in `mover`'s own empty pit `pit`: takes it and the facing pit's
/// seeds into `mover`'s store (Kalah's capture, Congklak's "shooting"). When the facing pit
/// is empty, `lone_seed_banks` says whether the last seed is banked alone or stays.
/// Returns the seeds taken from the facing pit, or `None` when nothing was banked.
#[inline]
pub fn capture_opposite(
    board: &mut Board,
    mover: Player,
    pit: usize,
    lone_seed_banks: bool,
) -> Option<u8> {
    let opposite = board.opposite(pit);
    let facing = board.pit(mover.opponent(), opposite);
    if facing == 0 && !lone_seed_banks {
        return None;
    }
    board.set_pit(mover, pit, 0);
    board.set_pit(mover.opponent(), opposite, 0);
    board.add_to_store(mover, 1 + facing);
    Some(facing)
}

/// Banks each row into its owner's store.
pub fn bank_rows(board: &mut Board) {
    board.bank_row(Player::First);
    board.bank_row(Player::Second);
}

/// How many pits `mover` may play under `rules` (whether or not it is their turn).
pub fn playable_pits<R: Rules>(rules: &R, board: &Board, mover: Player) -> usize {
    (0..board.pits_per_side())
        .filter(|&pit| board.pit(mover, pit) > 0 && rules.allows(board, mover, pit))
        .count()
}
