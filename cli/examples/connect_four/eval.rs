//! How evoboard's evaluators read Connect Four: a dense input for MLPs, cells and a tuple
//! set for n-tuple networks, and a heuristic of weighted features for `heuristic:DEPTH`.

use std::sync::LazyLock;

use evoboard::eval::neural::{CellBoard, NeuralInput};
use evoboard::eval::weighted::{Feature, Featured, WeightedSum, feature_names};
use evoboard::eval::{EvaluatorError, NamedEvaluators, SharedEvaluator};
use evoboard::nn::TupleSpec;
use evoboard::{Game, Notation, Player};

use crate::game::{COLUMNS, ConnectFour, ROWS, bit};

/// Cells of the board as networks number them: row by row from the bottom, each from the
/// left.
const CELLS: usize = (COLUMNS * ROWS) as usize;

/// The tuple set of n-tuple networks (the TD preset's default).
const LINES_SET: &str = "lines";

/// The bit of network cell `cell`.
fn cell_bit(cell: u8) -> u64 {
    bit(cell % COLUMNS, cell / COLUMNS)
}

/// The cell a left–right mirror of the board puts in place of `cell`.
fn mirror(cell: u8) -> u8 {
    cell - cell % COLUMNS + (COLUMNS - 1 - cell % COLUMNS)
}

/// The 69 lines of four cells a game can be won on: 24 across, 21 up and 24 diagonal.
fn lines() -> Vec<[u8; 4]> {
    let mut lines = Vec::new();
    for (across, up) in [(1i8, 0i8), (0, 1), (1, 1), (1, -1)] {
        for column in 0..COLUMNS as i8 {
            for row in 0..ROWS as i8 {
                let (last_column, last_row) = (column + 3 * across, row + 3 * up);
                if (0..COLUMNS as i8).contains(&last_column) && (0..ROWS as i8).contains(&last_row)
                {
                    lines.push(std::array::from_fn(|k| {
                        let (c, r) = (column + k as i8 * across, row + k as i8 * up);
                        (r * COLUMNS as i8 + c) as u8
                    }));
                }
            }
        }
    }
    lines
}

/// The lines as bitboards.
static LINE_MASKS: LazyLock<Vec<u64>> = LazyLock::new(|| {
    lines()
        .iter()
        .map(|line| line.iter().fold(0, |mask, &cell| mask | cell_bit(cell)))
        .collect()
});

/// Lines that hold `discs` of `me`'s discs and no opponent disc (lines still open to
/// `me`), minus the same count for the opponent.
fn open_lines(game: &ConnectFour, me: Player, discs: u32) -> f32 {
    let open = |side: Player| {
        let (own, other) = (game.discs(side), game.discs(side.opponent()));
        LINE_MASKS
            .iter()
            .filter(|&&line| line & other == 0 && (line & own).count_ones() == discs)
            .count() as f32
    };
    open(me) - open(me.opponent())
}

/// `me`'s discs in the centre column minus the opponent's: the centre lies on the most
/// lines.
fn centre(game: &ConnectFour, me: Player) -> f32 {
    let column = (0..ROWS).fold(0, |mask, row| mask | bit(COLUMNS / 2, row));
    let count = |side: Player| (game.discs(side) & column).count_ones() as f32;
    count(me) - count(me.opponent())
}

/// The features of `heuristic`, through evoboard's weighted-feature mechanism (so sums
/// such as `threes+centre` and JSON weight files work as for the built-in games). The
/// weights were set by hand: a three with its fourth cell open is the threat that wins
/// games, twos and the centre break ties. At depth 2 the sum beat each feature alone in
/// 62–69% of 200 games (6-ply openings, seed 777), and `random` in 199.
static FEATURES: [Feature<ConnectFour>; 3] = [
    Feature {
        name: "threes",
        default_weight: 1.0,
        value: |e| open_lines(e.game, e.side, 3),
    },
    Feature {
        name: "twos",
        default_weight: 0.2,
        value: |e| open_lines(e.game, e.side, 2),
    },
    Feature {
        name: "centre",
        default_weight: 0.5,
        value: |e| centre(e.game, e.side),
    },
];

/// The features share nothing, so the context is `()`.
impl Featured for ConnectFour {
    type Context = ();
    const FEATURES: &'static [Feature<Self>] = &FEATURES;

    fn context(&self, _perspective: Player) {}
}

impl NamedEvaluators for ConnectFour {
    /// `heuristic`, `threes`, `twos`, `centre`, sums of them, or a JSON weights file.
    fn evaluator(name: &str) -> Result<SharedEvaluator<Self>, EvaluatorError> {
        Ok(WeightedSum::named(name, ConnectFour::new().name(), &[])?.shared())
    }

    fn panel_features() -> Vec<&'static str> {
        feature_names::<Self>()
    }
}

impl NeuralInput for ConnectFour {
    /// A value per cell, then whose turn it is.
    fn input_len(&self) -> usize {
        CELLS + 1
    }

    /// +1 on `perspective`'s discs, −1 on the opponent's, 0 on empty cells; the last input
    /// is 1 when `perspective` is to move (the same discs are worth more with the move).
    fn encode(&self, perspective: Player, out: &mut [f32]) {
        let (own, other) = (self.discs(perspective), self.discs(perspective.opponent()));
        for (cell, slot) in (0..).zip(&mut out[..CELLS]) {
            let at = cell_bit(cell);
            *slot = f32::from(u8::from(own & at != 0)) - f32::from(u8::from(other & at != 0));
        }
        out[CELLS] = f32::from(u8::from(self.to_move() == perspective));
    }

    /// 42 cells of three states; the board's one symmetry is its left–right mirror.
    fn cell_board(&self) -> Option<CellBoard> {
        Some(CellBoard {
            cells: CELLS,
            states: 3,
            symmetries: vec![
                (0..CELLS as u8).collect(),
                (0..CELLS as u8).map(mirror).collect(),
            ],
            features: &[],
        })
    }

    /// 0 empty, 1 `perspective`'s disc, 2 the opponent's.
    fn read_cells(&self, perspective: Player, out: &mut [u8]) {
        let (own, other) = (self.discs(perspective), self.discs(perspective.opponent()));
        for (cell, state) in (0..).zip(&mut out[..CELLS]) {
            let at = cell_bit(cell);
            *state = u8::from(own & at != 0) + 2 * u8::from(other & at != 0);
        }
    }

    fn tuple_sets(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            LINES_SET,
            "the 69 lines of four a game is won on (mirror images share a table)",
        )]
    }

    /// One tuple per pair of mirror-image lines: the network reads each at both images.
    fn tuple_set(&self, name: &str) -> Option<TupleSpec> {
        let sorted = |mut cells: [u8; 4]| {
            cells.sort_unstable();
            cells
        };
        let tuples = lines()
            .into_iter()
            .filter(|line| sorted(*line) <= sorted(line.map(mirror)))
            .map(Vec::from)
            .collect();
        (name == LINES_SET).then(|| TupleSpec {
            name: name.to_string(),
            states: 3,
            tuples,
            features: Vec::new(),
        })
    }

    fn default_tuple_set(&self) -> Option<&'static str> {
        Some(LINES_SET)
    }
}
