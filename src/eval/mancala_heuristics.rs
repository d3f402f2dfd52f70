//! Heuristic features of the mancala games.
//!
//! Kalah, Gifford et al.'s (2008) H1–H6 (H0, "first valid move", is the `first` agent):
//! - `h1` my store − the opponent's store;
//! - `h2` how close I am to winning: my store − T, T = ⌊total/2⌋ + 1 seeds (a sure win);
//! - `h3` how far the opponent is from winning: T − the opponent's store;
//! - `h4` seeds in the third of my pits nearest my store;
//! - `h5` seeds in the third of my pits farthest from it;
//! - `h6` seeds in the middle third (with m not a multiple of 3, the outer thirds have
//!   ⌊m/3⌋ pits and the middle the rest).
//!
//! `heuristic` for Kalah weighs them h1 1, h2 0.25, h3 0.25, h4 0.1, h5 0, h6 0.05: the store
//! difference decides, the distances to the winning threshold break its ties towards
//! banking early, and seeds kept near the store (which can reach it soon, and stay out of
//! the opponent's captures longer) count a little.
//!
//! Oware: `captured` (my store − theirs), `mobility` (my legal moves − theirs),
//! `vulnerable` (opponent pits with 1–2 seeds, which a sowing can make 2–3, minus mine),
//! `accumulation` (my pits of 12+ seeds — an "odu"/"kroo", which laps the board and can
//! capture on return — minus theirs); `heuristic` weights 1, 0.2, 0.3, 0.5.
//!
//! Congklak and Congkak: `stores` (my store − theirs, the Congkak report's MM evaluation),
//! `side` (seeds in my holes − in theirs: what a round ending now would bank), `holes` (my
//! playable holes − theirs), and for Congkak `burnt` (their burnt holes − mine: the
//! refill's lasting effect). Congklak's `heuristic` weights 1, 0.25, 0.1 (even with
//! `stores` at depth 4: 49/100). Congkak's weights `stores` 1 and `burnt` 7: a store plus 7
//! per hole its owner filled counts the seeds owned since the round began, which a refill
//! (store seeds moved into holes) does not disturb as it does the raw store; it beat
//! `stores` alone 83/100 at depth 4 (and 56/100 at depth 2), where `side` or `holes`
//! weights lost (15–36/100).
//!
//! Mancala features are cheap and share nothing, so their evaluation context is `()`.

use crate::eval::weighted::{Evaluated, Feature, Featured, WeightedSum, feature_names};
use crate::eval::{EvaluatorError, NamedEvaluators, SharedEvaluator};
use crate::games::Player;
use crate::games::mancala::{
    Board, Congkak, Congklak, Kalah, Mancala, OnBoard, Oware, Rules, playable_pits,
};

/// The seeds that guarantee a win: more than half of them.
fn winning_threshold<R: Rules>(game: &Mancala<R>) -> f32 {
    (game.board().total() / 2 + 1) as f32
}

fn store<R: Rules>(game: &Mancala<R>, side: Player) -> f32 {
    f32::from(game.board().store(side))
}

/// Seeds in `me`'s pits `range` of the thirds (0 = farthest from the store, 2 = nearest).
fn third<R: Rules>(game: &Mancala<R>, me: Player, which: usize) -> f32 {
    let m = game.board().pits_per_side();
    let outer = m / 3;
    let bounds = [0, outer, m - outer, m];
    game.board().row(me)[bounds[which]..bounds[which + 1]]
        .iter()
        .map(|&s| f32::from(s))
        .sum()
}

/// Kalah's features, Gifford et al.'s H1–H6.
static KALAH_FEATURES: [Feature<Mancala<Kalah>>; 6] = [
    Feature {
        name: "h1",
        default_weight: 1.0,
        value: |e| store(e.game, e.side) - store(e.game, e.side.opponent()),
    },
    Feature {
        name: "h2",
        default_weight: 0.25,
        value: |e| store(e.game, e.side) - winning_threshold(e.game),
    },
    Feature {
        name: "h3",
        default_weight: 0.25,
        value: |e| winning_threshold(e.game) - store(e.game, e.side.opponent()),
    },
    Feature {
        name: "h4",
        default_weight: 0.1,
        value: |e| third(e.game, e.side, 2),
    },
    Feature {
        name: "h5",
        default_weight: 0.0,
        value: |e| third(e.game, e.side, 0),
    },
    Feature {
        name: "h6",
        default_weight: 0.05,
        value: |e| third(e.game, e.side, 1),
    },
];

fn legal_count(game: &Mancala<Oware>, side: Player) -> f32 {
    playable_pits(&Oware, game.board(), side) as f32
}

fn count_pits(game: &Mancala<Oware>, side: Player, keep: fn(u8) -> bool) -> f32 {
    game.board().row(side).iter().filter(|&&s| keep(s)).count() as f32
}

/// Oware's features.
static OWARE_FEATURES: [Feature<Mancala<Oware>>; 4] = [
    Feature {
        name: "captured",
        default_weight: 1.0,
        value: |e| store(e.game, e.side) - store(e.game, e.side.opponent()),
    },
    Feature {
        name: "mobility",
        default_weight: 0.2,
        value: |e| legal_count(e.game, e.side) - legal_count(e.game, e.side.opponent()),
    },
    Feature {
        name: "vulnerable",
        default_weight: 0.3,
        value: |e| {
            let weak = |s: u8| s == 1 || s == 2;
            count_pits(e.game, e.side.opponent(), weak) - count_pits(e.game, e.side, weak)
        },
    },
    Feature {
        name: "accumulation",
        default_weight: 0.5,
        value: |e| {
            let heavy = |s: u8| s >= 12;
            count_pits(e.game, e.side, heavy) - count_pits(e.game, e.side.opponent(), heavy)
        },
    },
];

impl Featured for Mancala<Kalah> {
    type Context = ();
    const FEATURES: &'static [Feature<Self>] = &KALAH_FEATURES;

    fn context(&self, _perspective: Player) {}
}

impl NamedEvaluators for Mancala<Kalah> {
    /// `heuristic`, `stores` (= h1, the store difference of the Congkak report's MM player),
    /// `h1`…`h6`, sums like `h1+h2+h4`, or a JSON weights file.
    fn evaluator(name: &str) -> Result<SharedEvaluator<Self>, EvaluatorError> {
        let name = if name == "stores" { "h1" } else { name };
        Ok(WeightedSum::named(name, Kalah::NAME, &[])?.shared())
    }

    fn panel_features() -> Vec<&'static str> {
        feature_names::<Self>()
    }
}

impl Featured for Mancala<Oware> {
    type Context = ();
    const FEATURES: &'static [Feature<Self>] = &OWARE_FEATURES;

    fn context(&self, _perspective: Player) {}
}

impl NamedEvaluators for Mancala<Oware> {
    /// `heuristic`, `stores` (= captured), a feature name, sums of them, or a JSON file.
    fn evaluator(name: &str) -> Result<SharedEvaluator<Self>, EvaluatorError> {
        let name = if name == "stores" { "captured" } else { name };
        Ok(WeightedSum::named(name, Oware::NAME, &[])?.shared())
    }

    fn panel_features() -> Vec<&'static str> {
        feature_names::<Self>()
    }
}

fn store_difference<G: OnBoard + Featured>(e: &Evaluated<'_, G>) -> f32 {
    let (board, me) = (e.game.board(), e.side);
    f32::from(board.store(me)) - f32::from(board.store(me.opponent()))
}

fn side_difference<G: OnBoard + Featured>(e: &Evaluated<'_, G>) -> f32 {
    let (board, me) = (e.game.board(), e.side);
    board.row_total(me) as f32 - board.row_total(me.opponent()) as f32
}

/// How many of the board's holes (by index) satisfy `keep`.
fn count_holes<G: OnBoard>(game: &G, keep: impl Fn(&Board, usize) -> bool) -> f32 {
    let board = game.board();
    (0..board.pits_per_side())
        .filter(|&hole| keep(board, hole))
        .count() as f32
}

fn playable_difference<G: OnBoard + Featured>(e: &Evaluated<'_, G>) -> f32 {
    let playable = |side: Player| count_holes(e.game, |b, h| b.pit(side, h) > 0);
    playable(e.side) - playable(e.side.opponent())
}

fn burnt_difference<G: OnBoard + Featured>(e: &Evaluated<'_, G>) -> f32 {
    let burnt = |side: Player| count_holes(e.game, |b, h| b.is_burnt(side, h));
    burnt(e.side.opponent()) - burnt(e.side)
}

/// The features Congklak and Congkak share, with the given weights for `side` and `holes`.
const fn board_features<G: OnBoard + Featured>(side: f32, holes: f32) -> [Feature<G>; 3] {
    [
        Feature {
            name: "stores",
            default_weight: 1.0,
            value: store_difference,
        },
        Feature {
            name: "side",
            default_weight: side,
            value: side_difference,
        },
        Feature {
            name: "holes",
            default_weight: holes,
            value: playable_difference,
        },
    ]
}

/// Congklak's features.
static CONGKLAK_FEATURES: [Feature<Mancala<Congklak>>; 3] = board_features(0.25, 0.1);

/// Congkak's features: the shared ones, and burnt holes.
static CONGKAK_FEATURES: [Feature<Congkak>; 4] = {
    let [stores, side, holes] = board_features(0.0, 0.0);
    [
        stores,
        side,
        holes,
        Feature {
            name: "burnt",
            default_weight: 7.0,
            value: burnt_difference,
        },
    ]
};

impl Featured for Mancala<Congklak> {
    type Context = ();
    const FEATURES: &'static [Feature<Self>] = &CONGKLAK_FEATURES;

    fn context(&self, _perspective: Player) {}
}

impl NamedEvaluators for Mancala<Congklak> {
    /// `heuristic`, `stores`, `side`, `holes`, sums of them, or a JSON weights file.
    fn evaluator(name: &str) -> Result<SharedEvaluator<Self>, EvaluatorError> {
        Ok(WeightedSum::named(name, Congklak::NAME, &[])?.shared())
    }

    fn panel_features() -> Vec<&'static str> {
        feature_names::<Self>()
    }
}

impl Featured for Congkak {
    type Context = ();
    const FEATURES: &'static [Feature<Self>] = &CONGKAK_FEATURES;

    fn context(&self, _perspective: Player) {}
}

impl NamedEvaluators for Congkak {
    /// `heuristic`, `stores`, `side`, `holes`, `burnt`, sums of them, or a JSON file.
    fn evaluator(name: &str) -> Result<SharedEvaluator<Self>, EvaluatorError> {
        Ok(WeightedSum::named(name, "congkak", &[])?.shared())
    }

    fn panel_features() -> Vec<&'static str> {
        feature_names::<Self>()
    }
}
