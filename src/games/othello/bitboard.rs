//! Othello bitboards: bit `row * 8 + col` is the square at column `a + col`, row `1 + row`,
//! so bit 0 is a1, bit 7 is h1 and bit 63 is h8.

/// Every square except the a-file: the squares a shift towards h may land on.
pub const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
/// The a-file: shifted, any column; multiplied, a gather of one disc per column.
pub const A_FILE: u64 = !NOT_A_FILE;
/// Every square except the h-file: the squares a shift towards a may land on.
pub const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// The four corners a1, h1, a8, h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The eight compass directions as (left shift amount, mask applied after shifting);
/// a negative amount shifts right. The mask drops squares that wrapped around a board edge.
const DIRECTIONS: [(i32, u64); 8] = [
    (1, NOT_A_FILE),  // towards h
    (-1, NOT_H_FILE), // towards a
    (8, u64::MAX),    // towards row 8
    (-8, u64::MAX),   // towards row 1
    (9, NOT_A_FILE),  // towards h8
    (7, NOT_H_FILE),  // towards a8
    (-7, NOT_A_FILE), // towards h1
    (-9, NOT_H_FILE), // towards a1
];

/// Moves every disc of `bits` one square in direction `dir` (an index into the compass).
#[inline(always)]
pub fn shift(bits: u64, dir: usize) -> u64 {
    let (amount, mask) = DIRECTIONS[dir];
    let moved = if amount > 0 {
        bits << amount
    } else {
        bits >> -amount
    };
    moved & mask
}

/// The squares adjacent (in any of the eight directions) to some square of `bits`: the
/// squares beside them along the row, then every square of those rows and of `bits`
/// one row up and one row down.
#[inline]
pub fn neighbours(bits: u64) -> u64 {
    let beside = ((bits << 1) & NOT_A_FILE) | ((bits >> 1) & NOT_H_FILE);
    let row = bits | beside;
    beside | (row << 8) | (row >> 8)
}

/// Legal move squares for the side owning `own` against `opp` (empty ⇒ that side must pass
/// or the game is over): the squares beyond a run of opponent discs that starts next to an
/// own disc, found along the four lines (row, column, both diagonals) at once.
#[inline]
pub fn legal_moves(own: u64, opp: u64) -> u64 {
    // Off the a- and h-files only: a run along a row or diagonal never wraps an edge.
    let inner = opp & NOT_A_FILE & NOT_H_FILE;
    let empty = !(own | opp);
    (line_moves(own, inner, 1)
        | line_moves(own, opp, 8)
        | line_moves(own, inner, 7)
        | line_moves(own, inner, 9))
        & empty
}

/// [`legal_moves`] along one line (bit distance `step`), in both of its directions: a
/// parallel-prefix flood over the opponent discs `opp` that doubles its stride, so a run
/// of up to six discs takes four steps instead of six.
#[inline(always)]
fn line_moves(own: u64, opp: u64, step: u32) -> u64 {
    let stride = 2 * step;
    let mut up = opp & (own << step);
    up |= opp & (up << step);
    let pairs_up = opp & (opp << step);
    up |= pairs_up & (up << stride);
    up |= pairs_up & (up << stride);
    let mut down = opp & (own >> step);
    down |= opp & (down >> step);
    let pairs_down = opp & (opp >> step);
    down |= pairs_down & (down >> stride);
    down |= pairs_down & (down >> stride);
    (up << step) | (down >> step)
}

/// `RAYS[dir][square]`: the squares beyond `square` in direction `dir`, up to the edge.
static RAYS: [[u64; 64]; 8] = build_rays();

const fn build_rays() -> [[u64; 64]; 8] {
    const STEPS: [(i32, i32); 8] = [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut rays = [[0u64; 64]; 8];
    let mut dir = 0;
    while dir < 8 {
        let (dr, dc) = STEPS[dir];
        let mut square = 0;
        while square < 64 {
            let (mut r, mut c) = (square as i32 / 8 + dr, square as i32 % 8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                rays[dir][square] |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            square += 1;
        }
        dir += 1;
    }
    rays
}

/// `LINES[square]`: every square on the eight rays from `square` (the squares a
/// placement there could ever flip).
static LINES: [u64; 64] = build_lines();

const fn build_lines() -> [u64; 64] {
    let mut lines = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let mut dir = 0;
        while dir < 8 {
            lines[square] |= RAYS[dir][square];
            dir += 1;
        }
        square += 1;
    }
    lines
}

/// The squares a placement on `square` could ever flip: those on its row, column and
/// diagonals. A cheap bound on [`flips`].
#[inline]
pub fn lines_through(square: u32) -> u64 {
    LINES[square as usize]
}

/// `DIAGONALS[square]`: the squares of its a1–h8 diagonal and of its h1–a8 diagonal,
/// the square included: the lines whose discs are gathered to look flips up by line.
pub static DIAGONALS: [[u64; 2]; 64] = {
    let mut diagonals = [[0u64; 2]; 64];
    let mut square = 0;
    while square < 64 {
        let own = 1u64 << square;
        // Rays 4 and 7 run along the a1–h8 direction, 5 and 6 along h1–a8.
        diagonals[square] = [
            RAYS[4][square] | RAYS[7][square] | own,
            RAYS[5][square] | RAYS[6][square] | own,
        ];
        square += 1;
    }
    diagonals
};

/// `UP_RAYS[square]` and `DOWN_RAYS[square]`: the rays of `square` towards higher bit
/// indices (directions 0, 2, 4, 5) and towards lower ones (1, 3, 6, 7), side by side so
/// that [`flips`] treats four directions at once.
static UP_RAYS: [[u64; 4]; 64] = rays_of([0, 2, 4, 5]);
static DOWN_RAYS: [[u64; 4]; 64] = rays_of([1, 3, 6, 7]);

const fn rays_of(dirs: [usize; 4]) -> [[u64; 4]; 64] {
    let mut rays = [[0u64; 4]; 64];
    let mut square = 0;
    while square < 64 {
        let mut i = 0;
        while i < 4 {
            rays[square][i] = RAYS[dirs[i]][square];
            i += 1;
        }
        square += 1;
    }
    rays
}

/// The opponent discs flipped when the side owning `own` plays on square `square`.
///
/// With BMI2 (the machines this project's builds target) by whole lines, each gathered
/// into a byte and looked up (`line_flips.rs`; exact endgames 9% faster, see
/// docs/measurements.md), else by rays ([`flips_by_rays`]).
#[inline]
pub fn flips(own: u64, opp: u64, square: u32) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        super::line_flips::flips(own, opp, square)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        flips_by_rays(own, opp, square)
    }
}

/// [`flips`] on any processor. Branch-free, four directions at a time (the compiler
/// makes vector code of each loop): along each ray the first square that is not an
/// opponent disc is found with one bit scan; if it holds an own disc, the opponent discs
/// before it flip.
#[inline]
pub fn flips_by_rays(own: u64, opp: u64, square: u32) -> u64 {
    let mut flipped = [0u64; 4];
    for (flip, &ray) in flipped.iter_mut().zip(&UP_RAYS[square as usize]) {
        let blockers = ray & !opp;
        let nearest = blockers & blockers.wrapping_neg();
        let closed = u64::from(nearest & own != 0).wrapping_neg();
        *flip = nearest.wrapping_sub(1) & ray & closed;
    }
    for (flip, &ray) in flipped.iter_mut().zip(&DOWN_RAYS[square as usize]) {
        let blockers = ray & !opp;
        let nearest = (1u64 << 63) >> (blockers | 1).leading_zeros();
        let closed = u64::from(nearest & own & blockers != 0).wrapping_neg();
        *flip |= !(nearest << 1).wrapping_sub(1) & ray & closed;
    }
    flipped[0] | flipped[1] | flipped[2] | flipped[3]
}

/// The squares of `bits` with the rows in reverse order (row r to row 7 − r).
pub fn flip_rows(bits: u64) -> u64 {
    bits.swap_bytes()
}

/// The squares of `bits` with each row mirrored (column c to column 7 − c).
pub fn mirror_columns(bits: u64) -> u64 {
    bits.reverse_bits().swap_bytes()
}

/// The squares of `bits` reflected in the a1–h8 diagonal (row r, column c to row c,
/// column r): three exchanges of bit blocks, each half the size of the last.
pub fn transpose(bits: u64) -> u64 {
    let swap = |x: u64, mask: u64, shift: u32| {
        let moved = mask & (x ^ (x << shift));
        x ^ moved ^ (moved >> shift)
    };
    let x = swap(bits, 0x0f0f_0f0f_0000_0000, 28);
    let x = swap(x, 0x3333_0000_3333_0000, 14);
    swap(x, 0x5500_5500_5500_5500, 7)
}

/// The eight images of `bits` under the board's symmetries, the identity first: each
/// reflection or rotation is a transpose or not, then a row flip or not, then a column
/// mirror or not.
pub fn symmetric_images(bits: u64) -> [u64; 8] {
    let mut images = [0; 8];
    for (k, image) in images.iter_mut().enumerate() {
        let mut x = if k & 4 != 0 { transpose(bits) } else { bits };
        if k & 2 != 0 {
            x = flip_rows(x);
        }
        if k & 1 != 0 {
            x = mirror_columns(x);
        }
        *image = x;
    }
    images
}

/// Iterates over the indices of the set bits, lowest first.
pub fn squares(mut bits: u64) -> impl Iterator<Item = u32> + Clone {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let square = bits.trailing_zeros();
            bits &= bits - 1;
            Some(square)
        }
    })
}
