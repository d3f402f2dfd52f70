//! The board shared by every mancala game: two rows of pits, two stores, and the sowing
//! routine with the options the rulesets choose between.

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
}

/// Where the last seed of a sowing fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    Store(Player),
    Pit(Player, usize),
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
        }
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
        let m = self.pits_per_side();
        let start = self.index(row, origin);
        let mut seeds = self.pits[start];
        self.pits[start] = 0;
        let (mut side, mut slot) = (row, origin);
        loop {
            // Advance one position: slot m is `side`'s store, after which the other row begins.
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
            if sowing.skip_origin && side == row && slot == origin {
                continue;
            }
            let i = self.index(side, slot);
            self.pits[i] += 1;
            seeds -= 1;
            if seeds == 0 {
                return Landing::Pit(side, slot);
            }
        }
    }
}
