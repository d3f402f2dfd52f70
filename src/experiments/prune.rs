//! The Congkak report's research question, "can MM be sped up if using NN as a forward-pruning
//! method?". Over fixed positions it measures nodes and time per move of minimax on the
//! store difference (the Congkak report's MM) and of the same search keeping only the WIDTH moves a
//! network ranks best at each node (NMM); then it plays each NMM against MM at equal depth
//! for the strength cost. "Optimal" is the share of positions where the pruned search's
//! move is worth as much, to the full-width search, as the best move.

use std::path::PathBuf;
use std::time::Instant;

use crate::arena::{
    AgentSpec, OpeningError, SearchAgent, SeriesConfig, SeriesStats, WinRecord, play_series,
    random_openings,
};
use crate::eval::NamedEvaluators;
use crate::experiments::ExperimentError;
use crate::games::Game;
use crate::games::joint::is_joint;

/// What the study measures.
#[derive(Clone, Debug)]
pub struct PruneConfig {
    /// Search depth of MM and of every NMM.
    pub depth: u32,
    /// Moves each NMM keeps at each node.
    pub widths: Vec<usize>,
    /// The saved champion whose network ranks the moves.
    pub ranker: PathBuf,
    /// Positions timed: seeded random openings of `position_plies` plies.
    pub positions: usize,
    pub position_plies: u32,
    pub seed: u64,
}

/// Mean search cost per move over the study's positions.
#[derive(Clone, Copy, Debug)]
pub struct Cost {
    pub nodes: f64,
    pub ms: f64,
}

/// One NMM's results.
#[derive(Clone, Debug)]
pub struct PrunedResult {
    pub width: usize,
    pub cost: Cost,
    /// Percent of the positions where its move is as good as MM's best.
    pub optimal: f64,
    /// Its games against MM.
    pub record: WinRecord,
}

/// The searchers and positions of a study, built before anything is measured, so that a
/// ranker that cannot serve the game fails before the first result.
pub struct PruneStudy<G: NamedEvaluators> {
    start: G,
    /// MM's spec, as its row is labelled.
    pub mm_spec: String,
    mm: SearchAgent<G>,
    pruned: Vec<(usize, SearchAgent<G>)>,
    positions: Vec<G>,
}

impl<G: NamedEvaluators> PruneStudy<G> {
    /// MM, one NMM per width (the ranker read once per width) and the positions of `start`'s
    /// game that `config` asks for.
    pub fn new(start: G, config: &PruneConfig) -> Result<PruneStudy<G>, ExperimentError> {
        let mm_spec = format!("minimax:{}:stores", config.depth);
        let mm = mm_spec
            .parse::<AgentSpec>()?
            .searcher(&start)?
            .expect("minimax is a search");
        let pruned = config
            .widths
            .iter()
            .map(|&width| {
                let spec = format!("nmm:{}:{width}:{}", config.depth, config.ranker.display());
                let nmm = spec.parse::<AgentSpec>()?.searcher(&start)?;
                Ok((width, nmm.expect("nmm is a search")))
            })
            .collect::<Result<Vec<_>, ExperimentError>>()?;
        let positions =
            random_openings(&start, config.positions, config.position_plies, config.seed)?
                .into_iter()
                .filter(|game| game.count_moves() > 0 && !is_joint(game))
                .collect();
        Ok(PruneStudy {
            start,
            mm_spec,
            mm,
            pruned,
            positions,
        })
    }

    /// The positions timed (the openings where a player chooses alone).
    pub fn positions(&self) -> usize {
        self.positions.len()
    }

    /// The widths of the NMMs, in the order [`PruneStudy::pruned`] numbers them.
    pub fn widths(&self) -> Vec<usize> {
        self.pruned.iter().map(|(width, _)| *width).collect()
    }

    /// MM's cost, timed on the calling thread.
    pub fn full_width_cost(&self) -> Cost {
        cost(&self.mm, &self.positions).0
    }

    /// The `k`th NMM's cost (timed on the calling thread), its share of optimal moves, and
    /// its `series` against MM; `on_game_done` is called after each game.
    pub fn pruned(
        &self,
        k: usize,
        series: SeriesConfig,
        on_game_done: &(dyn Fn() + Sync),
    ) -> Result<PrunedResult, OpeningError> {
        let (width, nmm) = &self.pruned[k];
        let (cost, moves) = cost(nmm, &self.positions);
        let optimal = self.optimal_share(&moves);
        let records = play_series(&self.start, nmm, &self.mm, series, on_game_done)?;
        Ok(PrunedResult {
            width: *width,
            cost,
            optimal,
            record: SeriesStats::from_records(&records).record,
        })
    }

    /// Percent of the positions where `moves` are worth, to MM, as much as its best.
    fn optimal_share(&self, moves: &[G::Move]) -> f64 {
        let optimal = self
            .positions
            .iter()
            .zip(moves)
            .filter(|&(game, mv)| {
                let (values, _) = self.mm.move_values(game, None);
                let best = values[0].1;
                values
                    .iter()
                    .any(|(other, value)| other == mv && *value >= best - 1e-3)
            })
            .count();
        100.0 * optimal as f64 / self.positions.len().max(1) as f64
    }
}

/// Mean nodes and milliseconds per move of `agent` over `positions`, and its moves.
fn cost<G: Game>(agent: &SearchAgent<G>, positions: &[G]) -> (Cost, Vec<G::Move>) {
    let (mut nodes, mut seconds, mut moves) = (0u64, 0.0, Vec::new());
    for game in positions {
        let clock = Instant::now();
        let result = agent.search(game);
        seconds += clock.elapsed().as_secs_f64();
        nodes += result.nodes;
        moves.extend(result.best);
    }
    let n = positions.len().max(1) as f64;
    let cost = Cost {
        nodes: nodes as f64 / n,
        ms: 1000.0 * seconds / n,
    };
    (cost, moves)
}
