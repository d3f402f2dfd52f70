//! Learned evaluators: a network of any family scores positions.
//!
//! The two families read a position differently:
//! - an **MLP** (the Othello ENN paper §2.2) reads the dense input [`NeuralInput::encode`]
//!   as seen from the evaluated side, and its sigmoid output σ ∈ (0, 1) is used as 2σ − 1, so leaves
//!   evaluated for either side are comparable in negamax;
//! - an **n-tuple network** reads the board's cells as seen by the side to move, and its
//!   score Σ weights is that side's; the other side gets its negation. It is thus exactly
//!   antisymmetric, which temporal-difference learning and the search's move ordering
//!   (which values a child for the player who just moved) both rely on. Learning aims
//!   tanh(score) at game results (±1, 0); search and move choice compare the scores
//!   themselves, which never saturate.

use std::cell::RefCell;

use crate::eval::{Evaluator, each_evaluated};
use crate::eval::{mancala_tuples, othello_tuples};
use crate::games::mancala::congkak::HOLES;
use crate::games::mancala::{Board, Congkak, OnBoard};
use crate::games::othello::Othello;
use crate::games::othello::bitboard::squares;
use crate::games::{MoveList, Notation, Player};
use arrayvec::ArrayVec;

use crate::nn::ntuple::{IndexCache, MAX_CELLS, MAX_FEATURES, MAX_LOOKUPS};
use crate::nn::{Architecture, MAX_WIDTH, Mlp, NTuple, Network, TupleSpec};

/// How a game's board looks to n-tuple networks: its cells, their states and the board's
/// symmetries (maps from cell to cell, the identity first).
#[derive(Clone, Debug)]
pub struct CellBoard {
    pub cells: usize,
    pub states: u8,
    pub symmetries: Vec<Vec<u8>>,
    /// The global features n-tuple networks may read: names and numbers of values.
    pub features: &'static [(&'static str, u16)],
}

/// Games whose positions networks can read. The MLP input defaults to the dense
/// [`NeuralInput::encode`]; games whose inputs are −1/0/+1 may override it with a sparse pass.
/// Games that offer a cell view ([`NeuralInput::cell_board`]) can also be read by n-tuple
/// networks.
pub trait NeuralInput: Notation {
    /// Length of the dense MLP input vector for this game.
    fn input_len(&self) -> usize;

    /// Writes the dense MLP input as seen by `perspective` into `out`
    /// (`out.len() == input_len()`): own material positive, the opponent's negative.
    fn encode(&self, perspective: Player, out: &mut [f32]);

    /// The MLP's raw output (in (0, 1)) for `self` seen from `perspective`.
    fn network_output(&self, mlp: &Mlp, perspective: Player) -> f32 {
        let mut input = [0.0f32; MAX_WIDTH];
        let input = &mut input[..self.input_len()];
        self.encode(perspective, input);
        mlp.forward(input)
    }

    /// The other positions equal to this one up to the board's symmetries (Othello: its
    /// seven rotations and reflections), which a network should value alike; none for a
    /// game without symmetries. TD learning may learn them beside each position.
    fn symmetric_images(&self) -> Vec<Self>
    where
        Self: Sized,
    {
        Vec::new()
    }

    /// The cell view for n-tuple networks; `None` when the game has none.
    fn cell_board(&self) -> Option<CellBoard> {
        None
    }

    /// Writes each cell's state as `perspective` sees it into `out` (one per cell).
    fn read_cells(&self, _perspective: Player, _out: &mut [u8]) {}

    /// The values of the global features `sources` (indices into [`CellBoard::features`])
    /// as `perspective` sees the position. One call for all of them lets a game share
    /// work between features (Othello's move sets).
    fn global_features(&self, _perspective: Player, sources: &[u8]) -> ArrayVec<u16, MAX_FEATURES> {
        sources.iter().map(|_| 0).collect()
    }

    /// The cells and global features of this position as `perspective` sees them, for
    /// `ntuple`.
    fn read_board(
        &self,
        ntuple: &NTuple,
        perspective: Player,
    ) -> ([u8; MAX_CELLS], ArrayVec<u16, MAX_FEATURES>) {
        let mut cells = [0u8; MAX_CELLS];
        self.read_cells(perspective, &mut cells);
        (
            cells,
            self.global_features(perspective, ntuple.feature_sources()),
        )
    }

    /// The n-tuple sets this game offers by name, with a line on each.
    fn tuple_sets(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// The tuple set called `name`.
    fn tuple_set(&self, _name: &str) -> Option<TupleSpec> {
        None
    }

    /// The tuple set TD learning trains by default, if the game has tuple sets.
    fn default_tuple_set(&self) -> Option<&'static str> {
        None
    }

    /// Random plies that open each TD learning game by default. Games whose ε-greedy
    /// self-play from the start already reaches varied positions need none.
    fn learning_opening_plies(&self) -> u32 {
        0
    }

    /// The network's score of this position for the side to move, before any squashing:
    /// an n-tuple network's sum, an MLP's 2σ − 1. Scores order positions; values (see
    /// [`Network::squash`]) are what TD learning aims at. Ordering by unsquashed sums
    /// matters: tanh of a large sum is exactly ±1 in f32, and moves whose values tie
    /// there would be chosen by generation order.
    fn score_for_mover(&self, network: &Network) -> f32 {
        let mover = self.to_move();
        match network {
            Network::Mlp(mlp) => 2.0 * self.network_output(mlp, mover) - 1.0,
            Network::NTuple(ntuple) => {
                let (cells, features) = self.read_board(ntuple, mover);
                ntuple.sum(&cells, &features)
            }
        }
    }

    /// The value of this position for the side to move, in [−1, 1].
    fn value_for_mover(&self, network: &Network) -> f32 {
        network.squash(self.score_for_mover(network))
    }

    /// The score of this position for `mover`, who just moved here: a finished game's is
    /// [`Network::result_score`], beyond every network score.
    fn score_after(&self, network: &Network, mover: Player) -> f32 {
        self.score_after_from(network, mover, || self.score_for_mover(network))
    }

    /// [`NeuralInput::score_after`], with `score` giving this position's score for its
    /// side to move (asked only if the game goes on).
    fn score_after_from(
        &self,
        network: &Network,
        mover: Player,
        score: impl FnOnce() -> f32,
    ) -> f32 {
        match self.outcome() {
            Some(outcome) => network.result_score(outcome.sign_for(mover)),
            None if self.to_move() == mover => score(),
            None => -score(),
        }
    }

    /// [`NeuralInput::score_after`] of each of `children` (positions one move from this
    /// one, made by `mover`), read through `cache` (see [`NeuralInput::children_scores`]).
    fn scores_after(
        &self,
        network: &Network,
        children: &[Self],
        mover: Player,
        cache: &mut IndexCache,
    ) -> Vec<f32> {
        let Network::NTuple(ntuple) = network else {
            return children
                .iter()
                .map(|child| child.score_after(network, mover))
                .collect();
        };
        let scores = self.children_scores(ntuple, children, cache);
        children
            .iter()
            .zip(scores)
            .map(|(child, score)| child.score_after_from(network, mover, || score))
            .collect()
    }

    /// `ntuple`'s score of each of `children` (positions one move from this one) for its
    /// side to move, as [`NeuralInput::score_for_mover`] gives it. This position is indexed
    /// once from each side the children are read from, through `cache` (which may hold the
    /// boards of a game's earlier moves), and each child redoes only the tuples its move
    /// changed: exactly the scores read afresh, since tuple indices are whole numbers.
    fn children_scores(
        &self,
        ntuple: &NTuple,
        children: &[Self],
        cache: &mut IndexCache,
    ) -> MoveList<f32> {
        let mut seen_by: [Option<[u8; MAX_CELLS]>; 2] = [None, None];
        children
            .iter()
            .map(|child| {
                let side = child.to_move();
                let here = seen_by[side.index()].get_or_insert_with(|| {
                    let mut cells = [0u8; MAX_CELLS];
                    self.read_cells(side, &mut cells);
                    cells
                });
                let near = cache.index(ntuple, side.index(), here);
                let (cells, features) = child.read_board(ntuple, side);
                ntuple.sum_near(near, &cells, &features)
            })
            .collect()
    }

    /// Appends to `out` the weight indices `ntuple`'s value of this position for the side
    /// to move looks up (see [`NTuple::board_lookups`]). The position is indexed through
    /// `cache`: reading a game's positions in order redoes only the tuples that changed
    /// since the last one of the same side.
    fn lookups(&self, ntuple: &NTuple, cache: &mut IndexCache, out: &mut impl Extend<u32>) {
        let mover = self.to_move();
        let (cells, features) = self.read_board(ntuple, mover);
        let board = cache.index(ntuple, mover.index(), &cells);
        ntuple.board_lookups(board, &features, out);
    }

    /// One step of gradient learning of the network's value for the side to move towards
    /// `target`: w ← w + rate · (target − value) · ∂value/∂w. Returns the value before it.
    /// N-tuple networks read the position through `cache` (see [`NeuralInput::lookups`]).
    fn learn(&self, network: &mut Network, target: f32, rate: f32, cache: &mut IndexCache) -> f32 {
        let mover = self.to_move();
        match network {
            Network::Mlp(mlp) => {
                let mut input = [0.0f32; MAX_WIDTH];
                let input = &mut input[..self.input_len()];
                self.encode(mover, input);
                // value = 2σ − 1, so its gradient is twice the output's.
                let step = |output: f32| 2.0 * rate * (target - (2.0 * output - 1.0));
                2.0 * mlp.add_gradient(input, step) - 1.0
            }
            Network::NTuple(ntuple) => {
                let mut lookups: ArrayVec<u32, MAX_LOOKUPS> = ArrayVec::new();
                self.lookups(ntuple, cache, &mut lookups);
                ntuple.learn(&lookups, target, rate)
            }
        }
    }

    /// The network of `architecture` with chromosome `genes` for this game.
    fn network(&self, architecture: &Architecture, genes: Vec<f32>) -> Network {
        let (symmetries, features) = self
            .cell_board()
            .map_or((Vec::new(), &[][..]), |b| (b.symmetries, b.features));
        Network::new(architecture, genes, &symmetries, features)
    }

    /// Why `architecture` cannot read this game's positions, if it cannot.
    fn check_architecture(&self, architecture: &Architecture) -> Result<(), String> {
        match architecture {
            Architecture::Mlp(topology) if topology.inputs() != self.input_len() => Err(format!(
                "the network reads {} inputs, {} has {}",
                topology.inputs(),
                self.name(),
                self.input_len()
            )),
            Architecture::Mlp(_) => Ok(()),
            Architecture::NTuple(spec) => {
                let board = self
                    .cell_board()
                    .ok_or_else(|| format!("{} has no n-tuple networks", self.name()))?;
                spec.check(
                    board.cells,
                    board.states,
                    board.symmetries.len(),
                    board.features,
                )
                .map_err(|e| e.to_string())
            }
        }
    }
}

impl NeuralInput for Othello {
    fn input_len(&self) -> usize {
        64
    }

    /// +1 on own discs, −1 on opponent discs, 0 on empty squares.
    fn encode(&self, perspective: Player, out: &mut [f32]) {
        let own = self.discs(perspective);
        let opp = self.discs(perspective.opponent());
        for (i, slot) in out.iter_mut().enumerate().take(64) {
            *slot = ((own >> i & 1) as f32) - ((opp >> i & 1) as f32);
        }
    }

    /// +1 on own discs, −1 on opponent discs: only occupied squares cost anything.
    fn network_output(&self, mlp: &Mlp, perspective: Player) -> f32 {
        let own = self.discs(perspective);
        let opp = self.discs(perspective.opponent());
        mlp.forward_signed(
            squares(own).map(|s| s as usize),
            squares(opp).map(|s| s as usize),
        )
    }

    fn symmetric_images(&self) -> Vec<Othello> {
        self.images()[1..].to_vec()
    }

    fn cell_board(&self) -> Option<CellBoard> {
        Some(CellBoard {
            cells: 64,
            states: othello_tuples::STATES,
            symmetries: othello_tuples::symmetries(),
            features: &othello_tuples::GLOBAL_FEATURES,
        })
    }

    /// 0 empty, 1 own disc, 2 opponent disc: eight squares at a time, each row's bits
    /// spread into bytes.
    fn read_cells(&self, perspective: Player, out: &mut [u8]) {
        let own = self.discs(perspective);
        let opp = self.discs(perspective.opponent());
        for (row, cells) in out[..64].chunks_exact_mut(8).enumerate() {
            let spread = |bits: u64| spread_bits((bits >> (8 * row)) as u8);
            cells.copy_from_slice(&(spread(own) | spread(opp) << 1).to_le_bytes());
        }
    }

    fn global_features(&self, perspective: Player, sources: &[u8]) -> ArrayVec<u16, MAX_FEATURES> {
        othello_tuples::global_features(self, perspective, sources)
    }

    fn tuple_sets(&self) -> &'static [(&'static str, &'static str)] {
        &othello_tuples::TUPLE_SETS
    }

    fn tuple_set(&self, name: &str) -> Option<TupleSpec> {
        othello_tuples::tuple_set(name)
    }

    fn default_tuple_set(&self) -> Option<&'static str> {
        Some(othello_tuples::DEFAULT_SET)
    }
}

/// The eight bits of `byte` as eight bytes, each 0 or 1 (bit k in byte k): a multiply
/// places every bit in its own byte, then a mask keeps one bit of each.
#[inline]
fn spread_bits(byte: u8) -> u64 {
    const MAGIC: u64 = 0x0000_0408_1020_4081;
    ((u64::from(byte & 0x7f) * MAGIC) & 0x0101_0101_0101_0101) | (u64::from(byte >> 7) << 56)
}

/// Mancala MLP inputs are seed counts over the total (the dense default encoding); n-tuple
/// networks read the pits' seed counts (see [`mancala_tuples`]).
impl<R: crate::games::mancala::Rules> NeuralInput for crate::games::mancala::Mancala<R> {
    fn input_len(&self) -> usize {
        2 * self.board().pits_per_side() + 2
    }

    fn encode(&self, perspective: Player, out: &mut [f32]) {
        encode_mancala_board(self.board(), perspective, out);
    }

    fn cell_board(&self) -> Option<CellBoard> {
        Some(CellBoard {
            cells: 2 * self.board().pits_per_side(),
            states: mancala_tuples::STATES,
            symmetries: vec![(0..2 * self.board().pits_per_side() as u8).collect()],
            features: &mancala_tuples::GLOBAL_FEATURES,
        })
    }

    fn read_cells(&self, perspective: Player, out: &mut [u8]) {
        mancala_tuples::read_cells(self.board(), perspective, out);
    }

    fn global_features(&self, perspective: Player, sources: &[u8]) -> ArrayVec<u16, MAX_FEATURES> {
        mancala_tuples::global_features(self, perspective, sources)
    }

    fn tuple_sets(&self) -> &'static [(&'static str, &'static str)] {
        &mancala_tuples::TUPLE_SETS
    }

    fn tuple_set(&self, name: &str) -> Option<TupleSpec> {
        mancala_tuples::tuple_set(name, self.board().pits_per_side())
    }

    fn default_tuple_set(&self) -> Option<&'static str> {
        Some(mancala_tuples::DEFAULT_SET)
    }

    /// Sowing games branch little (at most one move per pit), so self-play from the start
    /// keeps to a narrow band of openings; from 10 random plies a network meets the
    /// positions other players lead it into (Kalah against `heuristic:2`: 74.5% → 83.0%).
    fn learning_opening_plies(&self) -> u32 {
        10
    }
}

/// Congkak adds burnt-hole flags and the round to the seed counts: dense too.
impl NeuralInput for Congkak {
    /// Board inputs, then 1 for each burnt hole (own, then the opponent's), then the round
    /// as a fraction of the cap.
    fn input_len(&self) -> usize {
        2 * HOLES + 2 + 2 * HOLES + 1
    }

    fn encode(&self, perspective: Player, out: &mut [f32]) {
        let board = self.board();
        encode_mancala_board(board, perspective, out);
        let mut slot = 2 * HOLES + 2;
        for side in [perspective, perspective.opponent()] {
            for hole in 0..HOLES {
                out[slot] = f32::from(u8::from(board.is_burnt(side, hole)));
                slot += 1;
            }
        }
        out[slot] = f32::from(self.round()) / f32::from(self.round_cap());
    }
}

/// A mancala board as MLP inputs: own pits, own store, opponent pits, opponent store, each
/// divided by the total seeds (2m + 2 values written at the start of `out`).
fn encode_mancala_board(board: &Board, perspective: Player, out: &mut [f32]) {
    let total = board.total().max(1) as f32;
    let mut slots = out.iter_mut();
    for side in [perspective, perspective.opponent()] {
        for &seeds in board.row(side) {
            *slots.next().expect("input long enough") = f32::from(seeds) / total;
        }
        *slots.next().expect("input long enough") = f32::from(board.store(side)) / total;
    }
}

/// A network of any family used as a static evaluator (see the module notes for how each
/// family reads a position).
#[derive(Clone, Debug)]
pub struct NeuralEvaluator {
    network: Network,
}

impl NeuralEvaluator {
    pub fn new(network: impl Into<Network>) -> NeuralEvaluator {
        NeuralEvaluator {
            network: network.into(),
        }
    }
}

impl<G: NeuralInput> Evaluator<G> for NeuralEvaluator {
    fn evaluate(&self, game: &G, perspective: Player) -> f32 {
        NetworkView(&self.network).evaluate(game, perspective)
    }

    fn evaluate_children(
        &self,
        parent: &G,
        children: &[G],
        perspectives: &[Player],
    ) -> MoveList<f32> {
        NetworkView(&self.network).evaluate_children(parent, children, perspectives)
    }
}

thread_local! {
    /// The boards this thread's searches last indexed: a game's positions two plies apart
    /// differ in a few cells, so each search re-indexes only those.
    static SEARCH_BOARDS: RefCell<IndexCache> = RefCell::new(IndexCache::default());
}

/// A network borrowed as a static evaluator, as [`NeuralEvaluator`] owns one: what a
/// learner's search over its own weights uses, without a copy of them for each search.
#[derive(Clone, Copy, Debug)]
pub struct NetworkView<'n>(pub &'n Network);

impl<G: NeuralInput> Evaluator<G> for NetworkView<'_> {
    fn evaluate(&self, game: &G, perspective: Player) -> f32 {
        match self.0 {
            Network::Mlp(mlp) => 2.0 * game.network_output(mlp, perspective) - 1.0,
            Network::NTuple(_) => {
                let score = game.score_for_mover(self.0);
                if perspective == game.to_move() {
                    score
                } else {
                    -score
                }
            }
        }
    }

    /// An n-tuple network indexes `parent` once and each child only where its move changed
    /// the board (see [`NeuralInput::children_scores`]).
    fn evaluate_children(
        &self,
        parent: &G,
        children: &[G],
        perspectives: &[Player],
    ) -> MoveList<f32> {
        let Network::NTuple(ntuple) = self.0 else {
            return each_evaluated(self, children, perspectives);
        };
        let scores = SEARCH_BOARDS
            .with(|boards| parent.children_scores(ntuple, children, &mut boards.borrow_mut()));
        children
            .iter()
            .zip(perspectives)
            .zip(scores)
            .map(|((child, &perspective), score)| {
                if perspective == child.to_move() {
                    score
                } else {
                    -score
                }
            })
            .collect()
    }
}
