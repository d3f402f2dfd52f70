//! A first guess of the exact value, for MTD(f) to start its probes from. Each probe that
//! starts far from the value costs nearly as much as a full solve of its bound, so a few
//! seconds of depth-limited search, iteratively deepened, save whole probes. The guess
//! only orders the probes: a wrong one costs time, never exactness.

use super::board::{Child, MoverBoard};
use super::endgame::Endgames;

/// Depth-limited fail-soft alpha-beta on the future margin: seeds banked up to the horizon,
/// exact values from the endgame database below its limit.
struct Estimator<'a> {
    endgames: Option<&'a Endgames>,
    empty_capture: bool,
    nodes: u64,
    /// Whether the last search stopped anywhere at its depth limit; if not, it saw every
    /// game to its end (or the database) and deeper searches cannot change its value.
    reached_horizon: bool,
}

impl Estimator<'_> {
    fn value(&mut self, board: &MoverBoard, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(endgames) = self.endgames.filter(|e| board.on_board() <= e.max_seeds) {
            return endgames.value(board);
        }
        if depth == 0 {
            self.reached_horizon = true;
            return 0;
        }
        let mut children = board.children(self.empty_capture);
        children.sort_by_key(Child::promise);
        let mut best = i32::MIN;
        for child in &children {
            let value = child.value_within((alpha, beta), |board, (alpha, beta)| {
                self.value(board, depth - 1, alpha, beta)
            });
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The future margin of `board` for the side to move as seen by the deepest search, one
/// ply deeper each time, that the `node_budget` allows. Deterministic: the budget counts
/// nodes, not time.
pub fn estimate(
    board: &MoverBoard,
    endgames: Option<&Endgames>,
    empty_capture: bool,
    node_budget: u64,
) -> i32 {
    let mut estimator = Estimator {
        endgames,
        empty_capture,
        nodes: 0,
        reached_horizon: false,
    };
    let mut guess = 0;
    for depth in 1..=u32::from(u8::MAX) {
        let before = estimator.nodes;
        estimator.reached_horizon = false;
        guess = estimator.value(board, depth, -i32::from(u8::MAX), i32::from(u8::MAX));
        // Stop once a search saw every line to its end (deeper ones would repeat it), or
        // before the next would overrun: each ply costs a few times the last.
        let last = estimator.nodes - before;
        if !estimator.reached_horizon || estimator.nodes + 4 * last > node_budget {
            break;
        }
    }
    guess
}
