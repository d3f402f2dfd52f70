//! Learning the order a teacher gives a position's moves, not only its values
//! (`evolve --teacher-ranking T`). A player that searches compares the values of positions
//! reached from one root, never the level of one position against another far away;
//! fitting a teacher's values everywhere spends a small student's capacity on the level
//! too. Here each learning position's moves are ranked: the student's values of the
//! positions they lead to, as a softmax at temperature T (Hinton, Vinyals & Dean,
//! *Distilling the knowledge in a neural network*, 2015), are moved towards the teacher's
//! softmax of its own values of them, by the gradient of their cross-entropy. Preferences
//! between moves taught an Othello evaluator more than value regression did in Runarsson
//! & Lucas, *Preference learning for move prediction and evaluation function approximation
//! in Othello* (2014).

use crate::eval::neural::NeuralInput;
use crate::games::MoveList;
use crate::games::joint::is_joint;
use crate::learn::td::value_after;
use crate::learn::teacher::Teacher;
use crate::nn::Network;

/// The updates that teach `network` the teacher's order of `position`'s moves at
/// `temperature`: each position a move leads to, with a target for its own side to move
/// (see [`NeuralInput::learn`]). With p the teacher's softmax and q the student's over the
/// moves (each move's value for the side that makes it), a move's value moves by p − q,
/// the cross-entropy's gradient scaled by the temperature, so its steps are the size of a
/// value error. Finished games are valued exactly by both and learn nothing; a position
/// with fewer than two moves, or whose moves are chosen jointly, teaches no order.
pub fn ranking_updates<G: NeuralInput>(
    network: &Network,
    teacher: &dyn Teacher<G>,
    position: &G,
    temperature: f32,
) -> Vec<(G, f32)> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    if moves.len() < 2 || is_joint(position) {
        return Vec::new();
    }
    let mover = position.to_move();
    let children: Vec<G> = moves.iter().map(|&mv| position.after(mv)).collect();
    let student: Vec<f32> = children
        .iter()
        .map(|child| value_after(network, child, mover))
        .collect();
    let taught: Vec<f32> = children
        .iter()
        .zip(&student)
        .map(|(child, &own)| {
            if child.outcome().is_some() {
                return own;
            }
            match teacher.value_for_mover(child, network) {
                Some(value) if child.to_move() == mover => value,
                Some(value) => -value,
                None => own,
            }
        })
        .collect();
    let (p, q) = (
        softmax(&taught, temperature),
        softmax(&student, temperature),
    );
    children
        .into_iter()
        .zip(student)
        .zip(p.iter().zip(&q))
        .filter(|((child, _), _)| child.outcome().is_none())
        .map(|((child, own), (p, q))| {
            let target = own + (p - q);
            let target = if child.to_move() == mover {
                target
            } else {
                -target
            };
            (child, target)
        })
        .collect()
}

/// exp(xᵢ / t) / Σ exp(xⱼ / t), from the largest x down so that no term overflows.
fn softmax(values: &[f32], temperature: f32) -> Vec<f32> {
    let top = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let weights: Vec<f32> = values
        .iter()
        .map(|&x| ((x - top) / temperature).exp())
        .collect();
    let total: f32 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::othello::Othello;
    use crate::learn::teacher::NetworkTeacher;
    use crate::nn::ntuple::IndexCache;
    use crate::nn::{Architecture, Topology};
    use crate::rng::rng_for;
    use rand::RngExt;

    /// A 64-42-1 MLP with random weights drawn from `seed`.
    fn mlp(seed: u64) -> Network {
        let architecture = Architecture::Mlp(Topology::new(&[64, 42, 1]).unwrap());
        let mut rng = rng_for(seed, &[]);
        let genes = (0..architecture.genes())
            .map(|_| rng.random_range(-0.5..0.5f32))
            .collect();
        Othello::start().network(&architecture, genes)
    }

    /// A position eight plies in, with several moves.
    fn position() -> Othello {
        let mut position = Othello::start();
        let mut moves = MoveList::new();
        for ply in 0..8 {
            position.legal_moves(&mut moves);
            position.play_unchecked(moves[ply % moves.len()]);
        }
        position
    }

    /// How far the student's softmax over `position`'s moves is from the teacher's: their
    /// Kullback–Leibler divergence.
    fn divergence(student: &Network, teacher: &Network, position: &Othello) -> f32 {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let values = |network: &Network| -> Vec<f32> {
            moves
                .iter()
                .map(|&mv| {
                    let mut child = *position;
                    child.play_unchecked(mv);
                    value_after(network, &child, position.to_move())
                })
                .collect()
        };
        let (p, q) = (
            softmax(&values(teacher), 0.1),
            softmax(&values(student), 0.1),
        );
        p.iter().zip(&q).map(|(p, q)| p * (p / q).ln()).sum::<f32>()
    }

    #[test]
    fn a_student_that_ranks_like_its_teacher_learns_nothing() {
        let network = mlp(1);
        let teacher = NetworkTeacher::new(network.clone(), 0, 0);
        let position = position();
        let updates = ranking_updates(&network, &teacher, &position, 0.1);
        assert!(updates.len() >= 4, "{} moves", updates.len());
        for (child, target) in &updates {
            let own = child.value_for_mover(&network);
            assert!((target - own).abs() < 1e-6, "{target} against {own}");
        }
    }

    #[test]
    fn learning_the_ranking_brings_the_students_softmax_towards_the_teachers() {
        let teacher_network = mlp(2);
        let teacher = NetworkTeacher::new(teacher_network.clone(), 0, 0);
        let mut student = mlp(3);
        let position = position();
        let before = divergence(&student, &teacher_network, &position);
        for _ in 0..200 {
            for (child, target) in ranking_updates(&student, &teacher, &position, 0.1) {
                child.learn(&mut student, target, 0.05, &mut IndexCache::default());
            }
        }
        let after = divergence(&student, &teacher_network, &position);
        assert!(after < before * 0.2, "divergence {before} → {after}");
    }

    #[test]
    fn the_softmax_of_large_values_stays_finite_and_sums_to_one() {
        let p = softmax(&[1.0, -1.0, 0.5], 0.001);
        assert!(p.iter().all(|x| x.is_finite()));
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(p[0] > 0.999);
    }
}
