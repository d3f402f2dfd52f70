//! Congklak (the Congklak minimax report §I): 7 holes of 7 seeds per side and a store each.
//! Sowing runs counter-clockwise through the mover's own store, skipping the opponent's. Relay
//! sowing: when the last seed falls in an occupied hole (on either side), that hole is
//! lifted and sowing goes on. The last seed in the mover's store earns another turn; in an
//! empty hole of the mover's, it "shoots": that seed and the facing hole's seeds go to the
//! store and the turn ends (with the facing hole empty, the lone seed is banked — or, in the
//! `lone-seed-stays` variant, stays); in an empty hole of the opponent's, the turn ends.
//! A player with no seeds passes; the game ends when every hole is empty.
//!
//! Relays end by themselves: every lap of the board passes the mover's store, which keeps
//! one seed for good, so a turn makes fewer laps than there are seeds on the board. The
//! [`MAX_RELAYS`] guard only protects against rule changes that would break that argument.

use super::{Board, Landing, Mancala, MoveFacts, Rules, Sowing, capture_opposite};
use crate::games::Player;

/// Most relays (lifts after the chosen hole) a turn may make; at the bound the turn ends as
/// if the last seed had fallen in an empty hole of the opponent. With 98 seeds a turn has
/// fewer than 98 laps of at most 15 drops, and each relay drops at least 2 seeds, so
/// standard play stays below 98 · 15 / 2 = 735 relays.
pub const MAX_RELAYS: u16 = 1000;

/// How Congklak and Congkak sow: into the mover's store, never skipping the origin.
pub const RELAY_SOWING: Sowing = Sowing {
    into_own_store: true,
    skip_origin: false,
};

/// While the last seed of a sowing for `mover` fell in an occupied pit, lifts that pit and
/// sows on; returns where the last seed finally fell and how many relays there were.
pub fn relay(board: &mut Board, mover: Player, mut last: Landing) -> (Landing, u16) {
    let mut relays = 0;
    while let Landing::Pit(side, pit) = last
        && board.pit(side, pit) > 1
        && relays < MAX_RELAYS
    {
        last = board.sow(mover, side, pit, RELAY_SOWING);
        relays += 1;
    }
    (last, relays)
}

/// What the final landing of a relayed sowing does for `mover` (extra turn, shooting,
/// or nothing); shared with Congkak.
pub fn settle_landing(
    board: &mut Board,
    mover: Player,
    last: Landing,
    relays: u16,
    lone_seed_banks: bool,
) -> MoveFacts {
    let mut settled = match last {
        Landing::Store(_) => MoveFacts::EXTRA_TURN,
        Landing::Pit(side, pit) if side == mover && board.pit(side, pit) == 1 => MoveFacts {
            captured: capture_opposite(board, mover, pit, lone_seed_banks).is_some_and(|f| f > 0),
            ..MoveFacts::default()
        },
        Landing::Pit(..) => MoveFacts::default(),
    };
    settled.relays = relays;
    settled
}

/// Congklak's rules; `lone_seed_banks` says what a shot at an empty facing hole does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Congklak {
    pub lone_seed_banks: bool,
}

impl Default for Congklak {
    fn default() -> Congklak {
        Congklak {
            lone_seed_banks: true,
        }
    }
}

/// The position-string word of the variant where a lone shot seed stays in its hole.
const LONE_SEED_STAYS: &str = "lone-seed-stays";

impl Congklak {
    /// The standard game: 7 holes of 7 seeds per side, South to move.
    pub fn game() -> Mancala<Congklak> {
        Mancala::start(Congklak::default(), 7, 7)
    }
}

impl Rules for Congklak {
    const NAME: &'static str = "congklak";
    const ENDS_ON_REPETITION: bool = false;
    const PASSES: bool = true;

    fn sowing(&self) -> Sowing {
        RELAY_SOWING
    }

    fn settle(&self, board: &mut Board, mover: Player, last: Landing) -> MoveFacts {
        let (last, relays) = relay(board, mover, last);
        settle_landing(board, mover, last, relays, self.lone_seed_banks)
    }

    fn finish(&self, board: &mut Board, _next: Player) -> bool {
        Player::BOTH.iter().all(|&p| board.row_total(p) == 0)
    }

    fn variant_word(&self) -> Option<&'static str> {
        (!self.lone_seed_banks).then_some(LONE_SEED_STAYS)
    }

    fn from_variant_word(word: Option<&str>) -> Result<Congklak, String> {
        match word {
            None => Ok(Congklak::default()),
            Some(LONE_SEED_STAYS) => Ok(Congklak {
                lone_seed_banks: false,
            }),
            Some(other) => Err(format!(
                "unknown Congklak variant '{other}' (only '{LONE_SEED_STAYS}')"
            )),
        }
    }
}
