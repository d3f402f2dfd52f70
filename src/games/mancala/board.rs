//! The board shared by every mancala game: two rows of pits, two stores, burnt pits
//! (Congkak), and the sowing routine with the options the rulesets choose between.

use crate::games::Player;

/// Most pits a row may have (Congklak uses 7).
pub const MAX_PITS: usize = 10;

/// Pits and stores. Pit `i` of a side is counted from that side's own left, so with the
/// first player (South) at the bottom, sowing runs counter-clockwise through South's pits
/// 0…m−1, South's store, North's pits 0…m−1, North's store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pits: [u8; 2 * MAX_PITS],
    stores: [u8; 2],
    pits_per_side: u8,
    /// Bit `i` set: pit `i` (in `pits` order) is burnt: never sown into, never played.
    burnt: u32,
}

/// Where the last seed of a sowing fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    Store(Player),
    Pit(Player, usize),
}

/// A place a seed can be dropped: pit `slot` of `side`, or `side`'s store when `slot` is
/// the number of pits per side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub side: Player,
    pub slot: usize,
}

/// How a ruleset sows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sowing {
    /// Sowing drops a seed into the mover's own store as it passes (Kalah, Congklak);
    /// the opponent's store is always skipped.
    pub into_own_store: bool,
    /// A sowing that comes round to its starting pit skips it (Oware: 12+ seeds).
    pub skip_origin: bool,
}

impl Board {
    /// `pits_per_side` pits of `seeds` each, empty stores.
    pub fn new(pits_per_side: usize, seeds: u8) -> Board {
        let mut pits = [0; 2 * MAX_PITS];
        pits[..2 * pits_per_side].fill(seeds);
        Board {
            pits,
            stores: [0, 0],
            pits_per_side: pits_per_side as u8,
            burnt: 0,
        }
    }

    /// A board from explicit rows (each side's pits from its own left) and stores.
    pub fn from_parts(south: &[u8], north: &[u8], stores: [u8; 2]) -> Board {
        let m = south.len();
        let mut pits = [0; 2 * MAX_PITS];
        pits[..m].copy_from_slice(south);
        pits[m..2 * m].copy_from_slice(north);
        Board {
            pits,
            stores,
            pits_per_side: m as u8,
            burnt: 0,
        }
    }

    /// Every field packed into four words, for a position key.
    pub fn key_words(&self) -> [u64; 4] {
        let mut bytes = [0u8; 32];
        bytes[..2 * MAX_PITS].copy_from_slice(&self.pits);
        bytes[2 * MAX_PITS..2 * MAX_PITS + 2].copy_from_slice(&self.stores);
        bytes[2 * MAX_PITS + 2] = self.pits_per_side;
        bytes[2 * MAX_PITS + 3..2 * MAX_PITS + 7].copy_from_slice(&self.burnt.to_le_bytes());
        std::array::from_fn(|word| {
            u64::from_le_bytes(bytes[8 * word..8 * word + 8].try_into().expect("8 bytes"))
        })
    }

    pub fn pits_per_side(&self) -> usize {
        usize::from(self.pits_per_side)
    }

    fn index(&self, side: Player, pit: usize) -> usize {
        side.index() * self.pits_per_side() + pit
    }

    /// Seeds in pit `pit` (0-based from `side`'s left) of `side`.
    pub fn pit(&self, side: Player, pit: usize) -> u8 {
        self.pits[self.index(side, pit)]
    }

    pub fn set_pit(&mut self, side: Player, pit: usize, seeds: u8) {
        let i = self.index(side, pit);
        self.pits[i] = seeds;
    }

    /// `side`'s row, from its own left.
    pub fn row(&self, side: Player) -> &[u8] {
        let m = self.pits_per_side();
        &self.pits[side.index() * m..(side.index() + 1) * m]
    }

    pub fn store(&self, side: Player) -> u8 {
        self.stores[side.index()]
    }

    pub fn add_to_store(&mut self, side: Player, seeds: u8) {
        self.stores[side.index()] += seeds;
    }

    pub fn take_from_store(&mut self, side: Player, seeds: u8) {
        self.stores[side.index()] -= seeds;
    }

    /// Whether pit `pit` of `side` is burnt (Congkak: a hole its owner could not refill).
    #[inline]
    pub fn is_burnt(&self, side: Player, pit: usize) -> bool {
        self.burnt & (1 << self.index(side, pit)) != 0
    }

    /// Burns pit `pit` of `side` (which must be empty), or reclaims it.
    pub fn set_burnt(&mut self, side: Player, pit: usize, burnt: bool) {
        let bit = 1 << self.index(side, pit);
        if burnt {
            self.burnt |= bit;
        } else {
            self.burnt &= !bit;
        }
    }

    /// Whether any pit is burnt.
    pub fn has_burnt(&self) -> bool {
        self.burnt != 0
    }

    /// Seeds in `side`'s row.
    pub fn row_total(&self, side: Player) -> u32 {
        self.row(side).iter().map(|&s| u32::from(s)).sum()
    }

    /// Seeds on the board and in the stores: constant through a game.
    pub fn total(&self) -> u32 {
        self.row_total(Player::First)
            + self.row_total(Player::Second)
            + u32::from(self.stores[0])
            + u32::from(self.stores[1])
    }

    /// Moves every seed of `side`'s row into `side`'s store (the end-of-game sweep).
    pub fn bank_row(&mut self, side: Player) {
        let seeds = self.row_total(side) as u8;
        let m = self.pits_per_side();
        self.pits[side.index() * m..(side.index() + 1) * m].fill(0);
        self.stores[side.index()] += seeds;
    }

    /// The pit facing `pit` of `side` across the board.
    pub fn opposite(&self, pit: usize) -> usize {
        self.pits_per_side() - 1 - pit
    }

    /// Lifts the seeds of pit `origin` of row `row` and sows them one by one
    /// counter-clockwise for `mover` (whose store receives seeds, when the rules say so);
    /// returns where the last one fell. The pit must hold seeds. `row` is the mover's own
    /// for an ordinary move; relay sowing (Congklak) lifts the pit where a lap ended, on
    /// either side, and sows on for the same mover.
    pub fn sow(&mut self, mover: Player, row: Player, origin: usize, sowing: Sowing) -> Landing {
        // The hot loop of every mancala search: plain indices, no `Spot` values (the same
        // walk as [`Board::next_spot`], which the lockstep opening steps seed by seed).
        let m = self.pits_per_side();
        let start = self.index(row, origin);
        let mut seeds = std::mem::take(&mut self.pits[start]);
        let burnt = self.burnt;
        let (mut side, mut slot) = (row, origin);
        loop {
            slot += 1;
            if slot > m {
                side = side.opponent();
                slot = 0;
            }
            if slot == m {
                if sowing.into_own_store && side == mover {
                    self.stores[mover.index()] += 1;
                    seeds -= 1;
                    if seeds == 0 {
                        return Landing::Store(mover);
                    }
                }
                continue;
            }
            let i = side.index() * m + slot;
            if (sowing.skip_origin && i == start) || (burnt != 0 && burnt & (1 << i) != 0) {
                continue;
            }
            self.pits[i] += 1;
            seeds -= 1;
            if seeds == 0 {
                return Landing::Pit(side, slot);
            }
        }
    }

    /// Empties pit `at` and returns its seeds.
    #[inline]
    pub fn lift(&mut self, at: Spot) -> u8 {
        let i = self.index(at.side, at.slot);
        std::mem::take(&mut self.pits[i])
    }

    /// Puts one seed at `at` (a pit or a store).
    #[inline]
    pub fn drop_seed(&mut self, at: Spot) {
        if at.slot == self.pits_per_side() {
            self.stores[at.side.index()] += 1;
        } else {
            let i = self.index(at.side, at.slot);
            self.pits[i] += 1;
        }
    }

    /// Where `mover`'s sowing from `origin` drops its next seed after `at`: counter-clockwise,
    /// skipping the opponent's store (and the mover's own unless the rules sow into it),
    /// burnt pits, and the origin itself when the rules say so.
    #[inline]
    pub fn next_spot(&self, mut at: Spot, origin: Spot, mover: Player, sowing: Sowing) -> Spot {
        let m = self.pits_per_side();
        loop {
            at.slot += 1;
            if at.slot > m {
                at = Spot {
                    side: at.side.opponent(),
                    slot: 0,
                };
            }
            let usable = if at.slot == m {
                sowing.into_own_store && at.side == mover
            } else {
                let burnt = self.burnt != 0 && self.is_burnt(at.side, at.slot);
                !(burnt || sowing.skip_origin && at == origin)
            };
            if usable {
                return at;
            }
        }
    }
}
