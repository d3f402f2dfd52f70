//! A learning game's updates made ready to apply, so that the phase of [`super::td::train`]
//! that runs on one thread (applying a batch's updates in order) does as little as it can.
//!
//! Each update moves a position's value towards its target with the weights as they stand
//! after the updates before it, so the value must be summed at apply time. What the value
//! looks up, though, does not depend on the weights: for an n-tuple network, the weight
//! indices of each position (its cells read, its tuples indexed, its global features such
//! as Othello's move counts found). Those are found here, while the games are still played
//! in parallel; applying is then a sum, a step and a write per weight looked up. The steps
//! and their order are unchanged, so the weights learned are bit for bit those of applying
//! the positions themselves.

use crate::eval::neural::NeuralInput;
use crate::nn::Network;
use crate::nn::ntuple::IndexCache;

/// One game's updates, in the order they are applied.
pub enum Updates<G> {
    /// For an n-tuple network: each position's weight indices, `stride` (the network's
    /// [`NTuple::lookups`](crate::nn::NTuple::lookups)) per position, one position after
    /// another, and each position's target. A game's positions take `4 · stride` bytes each
    /// (under 300 for Othello's default network), so a batch of games holds at most the
    /// batch's positions times that.
    Lookups {
        stride: usize,
        lookups: Vec<u32>,
        targets: Vec<f32>,
    },
    /// For any other network: the positions themselves, read again when applied.
    Positions(Vec<(G, f32)>),
}

impl<G: NeuralInput> Updates<G> {
    /// The updates `positions` (one game's positions in order, each with its target) ready
    /// to apply to `network` or to a network of the same architecture.
    pub fn prepare(network: &Network, positions: Vec<(G, f32)>) -> Updates<G> {
        let Network::NTuple(ntuple) = network else {
            return Updates::Positions(positions);
        };
        let stride = ntuple.lookups();
        let mut lookups = Vec::with_capacity(stride * positions.len());
        // Successive positions of a game, indexed through one cache as `learn` would.
        let mut cache = IndexCache::default();
        for (position, _) in &positions {
            position.lookups(ntuple, &mut cache, &mut lookups);
        }
        Updates::Lookups {
            stride,
            lookups,
            targets: positions.into_iter().map(|(_, target)| target).collect(),
        }
    }

    /// Applies the updates to `network` (of the architecture they were prepared for), in
    /// order, with step size `rate`.
    pub fn apply(&self, network: &mut Network, rate: f32) {
        match (self, network) {
            (
                Updates::Lookups {
                    stride,
                    lookups,
                    targets,
                },
                Network::NTuple(ntuple),
            ) => {
                for (lookups, &target) in lookups.chunks_exact(*stride).zip(targets) {
                    ntuple.learn(lookups, target, rate);
                }
            }
            (Updates::Positions(positions), network) => {
                let mut cache = IndexCache::default();
                for (position, target) in positions {
                    position.learn(network, *target, rate, &mut cache);
                }
            }
            (Updates::Lookups { .. }, Network::Mlp(_)) => {
                unreachable!("weight indices are prepared for n-tuple networks only")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Othello;
    use crate::games::{Game, MoveList, Notation};
    use crate::nn::Architecture;
    use crate::rng::rng_for;
    use rand::RngExt;

    /// Othello's default network with small random weights.
    fn network(rng: &mut crate::rng::GameRng) -> Network {
        let start = Othello::start();
        let spec = start.tuple_set(start.default_tuple_set().unwrap()).unwrap();
        let architecture = Architecture::NTuple(spec);
        let genes = (0..architecture.genes())
            .map(|_| rng.random_range(-0.1..0.1f32))
            .collect();
        start.network(&architecture, genes)
    }

    /// The positions of a random game in order, with targets of both signs.
    fn game_positions(rng: &mut crate::rng::GameRng) -> Vec<(Othello, f32)> {
        let mut game = Othello::start();
        let mut positions = Vec::new();
        let mut moves = MoveList::new();
        while game.outcome().is_none() {
            positions.push((game, rng.random_range(-1.0..1.0f32)));
            game.legal_moves(&mut moves);
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        positions
    }

    #[test]
    fn prepared_lookups_are_each_positions_own() {
        let mut rng = rng_for(31, &[]);
        let network = network(&mut rng);
        let Network::NTuple(ntuple) = &network else {
            unreachable!("an n-tuple set")
        };
        let positions = game_positions(&mut rng);
        let Updates::Lookups {
            stride, lookups, ..
        } = Updates::prepare(&network, positions.clone())
        else {
            unreachable!("an n-tuple network's updates are its lookups")
        };
        assert_eq!(lookups.len(), stride * positions.len());
        for ((position, _), prepared) in positions.iter().zip(lookups.chunks_exact(stride)) {
            let (cells, features) = position.read_board(ntuple, position.to_move());
            let mut fresh = Vec::new();
            ntuple.board_lookups(&ntuple.index_board(&cells), &features, &mut fresh);
            assert_eq!(
                prepared,
                fresh.as_slice(),
                "{}",
                position.to_position_string()
            );
        }
    }

    #[test]
    fn applying_prepared_updates_learns_what_the_positions_teach() {
        let mut rng = rng_for(32, &[]);
        let initial = network(&mut rng);
        let mut prepared = initial.clone();
        let mut one_by_one = initial.clone();
        for _ in 0..3 {
            let positions = game_positions(&mut rng);
            for (position, target) in &positions {
                position.learn(&mut one_by_one, *target, 0.01, &mut IndexCache::default());
            }
            Updates::prepare(&prepared, positions).apply(&mut prepared, 0.01);
        }
        assert_eq!(prepared.genes(), one_by_one.genes());
        assert_ne!(prepared.genes(), initial.genes());
    }
}
