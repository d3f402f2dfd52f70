//! Distillation by minibatches: an MLP fitted offline to a teacher's values on a fixed set
//! of positions, by Adam (Kingma & Ba 2015) over many passes, instead of the one online
//! SGD step per position of [`crate::learn::td::train`] with a teacher.
//!
//! Online distillation sees every position once, with a step small enough for the newest
//! positions not to undo the older ones. Here the same positions are seen many times,
//! minibatches average the gradient of many, and Adam scales each weight's step by that
//! weight's own gradient history. On Othello's 64-42-1 network this fits the teacher's
//! values more closely than online distillation does (mean squared error 0.043–0.059
//! against about 0.067), yet the depth-2 player does not follow the error (scores of
//! 0.70–0.82 against `heuristic:2`); a 64-128-1 fit wins more than 85%
//! (docs/results/othello-mlp.md).
//!
//! The positions come from games the teacher plays against itself from random openings,
//! with random moves among its own (see [`SampleSettings`]); each is labelled with the
//! teacher's value for its side to move. Validation positions come from other games of the
//! same sampler and choose the epoch kept. Or each sampled position stands for the leaves
//! of its 2-ply search, fitted as a group less the group's mean error: the differences a
//! depth-2 player compares. Everything is seeded; the minibatch gradient is
//! summed over fixed chunks in a fixed order, so the weights do not depend on the number of
//! threads.

use std::ops::Range;

use rand::RngExt;
use rand::seq::SliceRandom;
use rayon::prelude::*;

use crate::eval::neural::NeuralInput;
use crate::games::MoveList;
use crate::learn::td::greedy_move;
use crate::learn::teacher::Teacher;
use crate::nn::ntuple::IndexCache;
use crate::nn::{MAX_WIDTH, Mlp, Network};
use crate::rng::rng_for;

/// Positions summed on one thread before the threads' sums are added, in order: the unit
/// of work whose boundaries, not the thread count, fix the order of the sums.
const CHUNK: usize = 64;

/// Games played at once while sampling: each game's generator is its own, so the games are
/// the same however many threads play them.
const GAMES_AT_ONCE: usize = 256;

/// Adam's decay rates of its first and second moment estimates, and its guard against
/// division by zero (Kingma & Ba's defaults).
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const ADAM_EPSILON: f32 = 1e-8;

/// How the positions to fit are drawn: games of the teacher against itself, each from
/// `opening_plies` uniformly random plies, the teacher choosing by its one-ply value and
/// playing a random move with probability `exploration`. Every position of a game with a
/// move to make is taken, until `positions` are.
///
/// With `leaves`, each such position stands for the leaves of its 2-ply search instead
/// (see [`search_leaves`]), kept together as one group of the set, until `positions`
/// leaves are: the student then learns what tells apart the positions a depth-2 player
/// compares, not their common level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleSettings {
    pub positions: usize,
    pub opening_plies: u32,
    pub exploration: f64,
    pub leaves: bool,
}

/// How the student is fitted: `epochs` passes over the positions in a fresh random order
/// each, minibatches of `minibatch` positions, Adam's step falling geometrically from
/// `learning_rate` in the first epoch to `learning_rate_end` in the last. With `symmetries`
/// each position is shown in one of its symmetric images (see
/// [`NeuralInput::symmetric_images`]), drawn afresh each epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitSettings {
    pub epochs: usize,
    pub minibatch: usize,
    pub learning_rate: f32,
    pub learning_rate_end: f32,
    pub symmetries: bool,
}

impl FitSettings {
    /// Adam's step size in `epoch` (0-based).
    pub fn learning_rate_at(&self, epoch: usize) -> f32 {
        if self.epochs <= 1 {
            return self.learning_rate;
        }
        let progress = epoch as f32 / (self.epochs - 1) as f32;
        self.learning_rate * (self.learning_rate_end / self.learning_rate).powf(progress)
    }
}

/// Positions with the value each should learn for its side to move.
pub struct Labelled<G> {
    pub positions: Vec<G>,
    pub targets: Vec<f32>,
    /// Where each group of positions ends, if the positions are grouped (the leaves of one
    /// search each): a group's mean error is taken out of each of its errors, so only the
    /// differences between its values are fitted. `None`: each position's value is fitted.
    pub group_ends: Option<Vec<u32>>,
}

impl<G> Labelled<G> {
    /// The ranges of positions fitted together: each group, or each position alone.
    fn units(&self) -> Vec<Range<usize>> {
        match &self.group_ends {
            None => (0..self.positions.len()).map(|i| i..i + 1).collect(),
            Some(ends) => {
                let mut begin = 0;
                ends.iter()
                    .map(|&end| {
                        let unit = begin..end as usize;
                        begin = end as usize;
                        unit
                    })
                    .collect()
            }
        }
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

/// Draws `settings.positions` positions from games `player` (a network: the teacher, or the student) plays
/// against itself from `start`, and labels them with `teacher`'s values. Game k's
/// generator is `rng_for(seed, [stream, k])`: training and validation sets are two
/// streams of the same seed. Fails if a round of games yields no position (openings as
/// long as the games).
pub fn sample<G: NeuralInput>(
    start: &G,
    player: &Network,
    teacher: &dyn Teacher<G>,
    settings: SampleSettings,
    seed: u64,
    stream: u64,
) -> Result<Labelled<G>, String> {
    let mut positions = Vec::with_capacity(settings.positions);
    let mut group_ends = settings.leaves.then(Vec::new);
    let mut first_game = 0u64;
    while positions.len() < settings.positions {
        let games: Vec<Vec<G>> = (first_game..first_game + GAMES_AT_ONCE as u64)
            .into_par_iter()
            .map(|k| sampling_game(start, player, settings, seed, stream, k))
            .collect();
        first_game += GAMES_AT_ONCE as u64;
        let before = positions.len();
        match &mut group_ends {
            None => positions.extend(games.into_iter().flatten()),
            Some(ends) => {
                let roots: Vec<G> = games.into_iter().flatten().collect();
                let groups: Vec<Vec<G>> = roots.par_iter().map(search_leaves).collect();
                for group in groups.into_iter().filter(|group| group.len() > 1) {
                    if positions.len() >= settings.positions {
                        break;
                    }
                    positions.extend(group);
                    ends.push(positions.len() as u32);
                }
            }
        }
        if positions.len() == before {
            return Err(format!(
                "{GAMES_AT_ONCE} sampling games gave no position: they end within their \
                 {} opening plies",
                settings.opening_plies
            ));
        }
    }
    if group_ends.is_none() {
        positions.truncate(settings.positions);
    }
    let targets = positions
        .par_iter()
        .map(|position| {
            teacher
                .value_for_mover(position, player)
                .expect("a network teacher values every position")
        })
        .collect();
    Ok(Labelled {
        positions,
        targets,
        group_ends,
    })
}

/// The leaves of `root`'s 2-ply search that its own side is to move in, which a depth-2
/// player compares by the network's values for that side. Leaves after a pass (the other
/// side to move) and finished games, which the search values otherwise, are left out.
pub fn search_leaves<G: NeuralInput>(root: &G) -> Vec<G> {
    let mover = root.to_move();
    let mut leaves = Vec::new();
    let (mut moves, mut replies) = (MoveList::new(), MoveList::new());
    root.legal_moves(&mut moves);
    for &mv in moves.iter() {
        let mut child = root.clone();
        child.play_unchecked(mv);
        if child.outcome().is_some() {
            continue;
        }
        child.legal_moves(&mut replies);
        for &reply in replies.iter() {
            let mut leaf = child.clone();
            leaf.play_unchecked(reply);
            if leaf.outcome().is_none() && leaf.to_move() == mover {
                leaves.push(leaf);
            }
        }
    }
    leaves
}

/// The positions with a move to make of sampling game `k` (see [`sample`]).
fn sampling_game<G: NeuralInput>(
    start: &G,
    player: &Network,
    settings: SampleSettings,
    seed: u64,
    stream: u64,
    k: u64,
) -> Vec<G> {
    let mut rng = rng_for(seed, &[stream, k]);
    let mut game = start.clone();
    let mut moves = MoveList::new();
    let mut cache = IndexCache::default();
    let mut positions = Vec::new();
    let mut ply = 0;
    while game.outcome().is_none() {
        game.legal_moves(&mut moves);
        let random = ply < settings.opening_plies || rng.random_bool(settings.exploration);
        if ply >= settings.opening_plies {
            positions.push(game.clone());
        }
        let mv = if random {
            moves[rng.random_range(0..moves.len())]
        } else {
            greedy_move(player, &game, &mut cache).0
        };
        game.play_unchecked(mv);
        ply += 1;
    }
    positions
}

/// Adam's state over a chromosome: where a run stands between epochs.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Adam {
    first: Vec<f32>,
    second: Vec<f32>,
    steps: i32,
}

impl Adam {
    pub fn new(genes: usize) -> Adam {
        Adam {
            first: vec![0.0; genes],
            second: vec![0.0; genes],
            steps: 0,
        }
    }

    /// The number of weights it steps.
    pub fn genes(&self) -> usize {
        self.first.len()
    }

    /// Moves `genes` one step of size `rate` against `gradient`.
    fn step(&mut self, genes: &mut [f32], gradient: &[f32], rate: f32) {
        self.steps += 1;
        let first_correction = 1.0 - BETA1.powi(self.steps);
        let second_correction = 1.0 - BETA2.powi(self.steps);
        for (((gene, &g), m), v) in genes
            .iter_mut()
            .zip(gradient)
            .zip(&mut self.first)
            .zip(&mut self.second)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let m_hat = *m / first_correction;
            let v_hat = *v / second_correction;
            *gene -= rate * m_hat / (v_hat.sqrt() + ADAM_EPSILON);
        }
    }
}

/// Writes the student's dense input for `position` as its side to move sees it, in
/// symmetric image `image` (0: the position itself).
fn encoded<G: NeuralInput>(position: &G, image: u8, input: &mut [f32]) {
    let mover = position.to_move();
    if image == 0 {
        position.encode(mover, input);
    } else {
        position.symmetric_images()[image as usize - 1].encode(mover, input);
    }
}

/// Runs epoch `epoch` of fitting `student` to `train` (seeded by `seed`), with Adam state
/// `adam`, and returns the training loss over the epoch. A minibatch takes whole units
/// (positions, or groups: see [`Labelled::group_ends`]) until it holds
/// `settings.minibatch` positions.
pub fn fit_epoch<G: NeuralInput>(
    student: &mut Mlp,
    adam: &mut Adam,
    train: &Labelled<G>,
    settings: FitSettings,
    seed: u64,
    epoch: usize,
) -> f64 {
    let mut rng = rng_for(seed, &[epoch as u64]);
    let units = train.units();
    let mut order: Vec<u32> = (0..units.len() as u32).collect();
    order.shuffle(&mut rng);
    let image_count = if settings.symmetries {
        train
            .positions
            .first()
            .map_or(1, |p| 1 + p.symmetric_images().len())
    } else {
        1
    };
    let images: Vec<u8> = (0..train.len())
        .map(|_| rng.random_range(0..image_count) as u8)
        .collect();
    let rate = settings.learning_rate_at(epoch);
    let genes = student.genes().len();
    let units_per_chunk = if train.group_ends.is_some() { 1 } else { CHUNK };
    let mut total = 0.0f64;
    let mut genes_now = student.genes().to_vec();
    for minibatch in minibatches(&order, &units, settings.minibatch.max(1)) {
        let size: usize = minibatch.iter().map(|&u| units[u as usize].len()).sum();
        let scale = 1.0 / size as f32;
        let sums: Vec<(Vec<f32>, f64)> = minibatch
            .par_chunks(units_per_chunk)
            .map(|chunk| {
                let mut gradient = vec![0.0f32; genes];
                let loss = chunk
                    .iter()
                    .map(|&u| {
                        let unit = units[u as usize].clone();
                        unit_gradient(student, train, unit, &images, scale, &mut gradient)
                    })
                    .sum::<f64>();
                (gradient, loss)
            })
            .collect();
        let mut gradient = vec![0.0f32; genes];
        for (part, loss) in &sums {
            gradient.iter_mut().zip(part).for_each(|(g, p)| *g += p);
            total += loss;
        }
        adam.step(&mut genes_now, &gradient, rate);
        student.set_genes(&genes_now);
    }
    total / train.len().max(1) as f64
}

/// `order`'s units in consecutive minibatches, each closed once it holds `minibatch`
/// positions.
fn minibatches<'a>(
    order: &'a [u32],
    units: &'a [Range<usize>],
    minibatch: usize,
) -> impl Iterator<Item = &'a [u32]> {
    let mut rest = order;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut positions = 0;
        let mut taken = 0;
        while taken < rest.len() && positions < minibatch {
            positions += units[rest[taken] as usize].len();
            taken += 1;
        }
        let (batch, later) = rest.split_at(taken);
        rest = later;
        Some(batch)
    })
}

/// The error of a student's output `output` (σ) against `target`: its value 2σ − 1 less
/// the target.
fn value_error(output: f32, target: f32) -> f32 {
    2.0 * output - 1.0 - target
}

/// The student's error (see [`value_error`]) at position `i` of `set`.
fn error_at<G: NeuralInput>(student: &Mlp, set: &Labelled<G>, i: usize) -> f32 {
    let position = &set.positions[i];
    value_error(
        position.network_output(student, position.to_move()),
        set.targets[i],
    )
}

/// What each error of `unit` is measured from: the unit's mean error if the set is
/// grouped (only the differences within a group are fitted), else 0.
fn unit_offset<G: NeuralInput>(student: &Mlp, set: &Labelled<G>, unit: &Range<usize>) -> f32 {
    if set.group_ends.is_none() {
        return 0.0;
    }
    let sum: f32 = unit.clone().map(|i| error_at(student, set, i)).sum();
    sum / unit.len() as f32
}

/// Adds the gradient of `unit`'s squared errors (see [`unit_offset`]), times `scale`, to
/// `gradient`, each position shown in its image of `images`; returns the errors' sum.
fn unit_gradient<G: NeuralInput>(
    student: &Mlp,
    set: &Labelled<G>,
    unit: Range<usize>,
    images: &[u8],
    scale: f32,
    gradient: &mut [f32],
) -> f64 {
    let offset = unit_offset(student, set, &unit);
    let mut loss = 0.0f64;
    let mut input = [0.0f32; MAX_WIDTH];
    for i in unit {
        let input = &mut input[..set.positions[i].input_len()];
        encoded(&set.positions[i], images[i], input);
        let target = set.targets[i];
        // Loss (v − t − offset)² with v = 2σ − 1: ∂loss/∂σ = 4 (v − t − offset).
        student.accumulate_gradient(
            input,
            |output| {
                let error = value_error(output, target) - offset;
                loss += f64::from(error * error);
                4.0 * error * scale
            },
            gradient,
        );
    }
    loss
}

/// The mean squared error of `student`'s values (2σ − 1) against `set`'s targets, each
/// group's mean error taken out if the set is grouped.
pub fn loss<G: NeuralInput>(student: &Mlp, set: &Labelled<G>) -> f64 {
    let units = set.units();
    let sums: Vec<f64> = units
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|unit| {
                    let offset = unit_offset(student, set, unit);
                    unit.clone()
                        .map(|i| {
                            let error = error_at(student, set, i) - offset;
                            f64::from(error * error)
                        })
                        .sum::<f64>()
                })
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / set.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Othello;
    use crate::games::{Game, Player};
    use crate::learn::teacher::NetworkTeacher;
    use crate::nn::{Topology, nguyen_widrow};

    fn mlp(layers: &[usize], seed: u64) -> Mlp {
        let topology = Topology::new(layers).unwrap();
        let genes = nguyen_widrow(&topology, &mut rng_for(seed, &[]));
        Mlp::new(topology, genes)
    }

    /// A teacher of the student's own family with other weights: one the student can
    /// match exactly, so the loss has somewhere to go.
    fn teacher_and_sets() -> (Network, Labelled<Othello>, Labelled<Othello>) {
        let teacher = Network::Mlp(mlp(&[64, 8, 1], 5));
        let judge = NetworkTeacher::new(teacher.clone(), 0, 0);
        let settings = SampleSettings {
            positions: 600,
            opening_plies: 4,
            exploration: 0.2,
            leaves: false,
        };
        let train = sample(&Othello::start(), &teacher, &judge, settings, 9, 0).unwrap();
        let validation = sample(&Othello::start(), &teacher, &judge, settings, 9, 1).unwrap();
        (teacher, train, validation)
    }

    /// `positions` leaves of the same teacher's games, grouped by search, from `stream`.
    fn leaf_set(positions: usize, stream: u64) -> Labelled<Othello> {
        let teacher = Network::Mlp(mlp(&[64, 8, 1], 5));
        let judge = NetworkTeacher::new(teacher.clone(), 0, 0);
        let settings = SampleSettings {
            positions,
            opening_plies: 4,
            exploration: 0.2,
            leaves: true,
        };
        sample(&Othello::start(), &teacher, &judge, settings, 9, stream).unwrap()
    }

    fn fit_settings(epochs: usize) -> FitSettings {
        FitSettings {
            epochs,
            minibatch: 100,
            learning_rate: 0.01,
            learning_rate_end: 0.001,
            symmetries: false,
        }
    }

    #[test]
    fn samples_are_the_teachers_values_of_positions_in_play() {
        let (teacher, train, validation) = teacher_and_sets();
        assert_eq!(train.len(), 600);
        assert_eq!(train.targets.len(), 600);
        for (position, &target) in train.positions.iter().zip(&train.targets) {
            assert!(position.outcome().is_none());
            assert_eq!(target, position.value_for_mover(&teacher));
        }
        // The validation stream is other games.
        assert_ne!(train.positions[..50], validation.positions[..50]);
    }

    #[test]
    fn the_starts_search_leaves_are_its_twelve_two_ply_positions() {
        // Othello's perft(2) is 12: four moves, three replies each, Black to move again.
        let leaves = search_leaves(&Othello::start());
        assert_eq!(leaves.len(), 12);
        assert!(leaves.iter().all(|leaf| leaf.to_move() == Player::First));
        let mut distinct = leaves.clone();
        distinct.sort_by_key(|leaf| format!("{leaf:?}"));
        distinct.dedup();
        assert_eq!(distinct.len(), 12);
    }

    #[test]
    fn leaf_groups_are_whole_searches_and_fit_only_their_differences() {
        let mut set = leaf_set(3000, 0);
        let ends = set.group_ends.clone().unwrap();
        assert_eq!(*ends.last().unwrap() as usize, set.len());
        assert!(set.len() >= 3000);
        let units = set.units();
        assert!(units.iter().all(|unit| unit.len() > 1));
        // Each group is the leaves of one position, whose mover they share.
        for unit in &units {
            let mover = set.positions[unit.start].to_move();
            assert!(
                set.positions[unit.clone()]
                    .iter()
                    .all(|p| p.to_move() == mover)
            );
        }
        // A group's level is not fitted: shifting all its targets alike changes nothing.
        let student = mlp(&[64, 8, 1], 6);
        let before = loss(&student, &set);
        for (k, unit) in units.iter().enumerate() {
            let shift = 0.05 * (k % 7) as f32;
            set.targets[unit.clone()]
                .iter_mut()
                .for_each(|t| *t += shift);
        }
        assert!((loss(&student, &set) - before).abs() < 1e-6);
        // Without groups the same shift does change the loss.
        let ungrouped = Labelled {
            group_ends: None,
            ..set
        };
        assert!((loss(&student, &ungrouped) - before).abs() > 1e-3);
    }

    #[test]
    fn fitting_leaf_groups_brings_the_students_differences_towards_the_teachers() {
        assert_fit_cuts_the_loss_fourfold(&leaf_set(6000, 0), &leaf_set(2000, 1), 20);
    }

    /// Fits a fresh student to `train` for `epochs` and checks its loss on `validation`
    /// falls to under a quarter.
    fn assert_fit_cuts_the_loss_fourfold(
        train: &Labelled<Othello>,
        validation: &Labelled<Othello>,
        epochs: usize,
    ) {
        let mut student = mlp(&[64, 8, 1], 6);
        let before = loss(&student, validation);
        let mut adam = Adam::new(student.genes().len());
        let settings = fit_settings(epochs);
        for epoch in 0..settings.epochs {
            fit_epoch(&mut student, &mut adam, train, settings, 3, epoch);
        }
        let after = loss(&student, validation);
        assert!(after < before / 4.0, "validation loss {before} → {after}");
    }

    #[test]
    fn openings_as_long_as_the_games_are_refused() {
        let teacher = Network::Mlp(mlp(&[64, 8, 1], 5));
        let judge = NetworkTeacher::new(teacher.clone(), 0, 0);
        let settings = SampleSettings {
            positions: 10,
            opening_plies: 200,
            exploration: 0.0,
            leaves: false,
        };
        let refused = sample(&Othello::start(), &teacher, &judge, settings, 9, 0);
        assert!(refused.err().unwrap().contains("200 opening plies"));
    }

    #[test]
    fn fitting_brings_the_student_towards_the_teacher() {
        let (_, train, validation) = teacher_and_sets();
        assert_fit_cuts_the_loss_fourfold(&train, &validation, 30);
    }

    #[test]
    fn the_fit_is_the_same_on_any_number_of_threads() {
        let (_, values, _) = teacher_and_sets();
        for train in [values, leaf_set(3000, 0)] {
            assert_fit_ignores_threads(&train);
        }
    }

    fn assert_fit_ignores_threads(train: &Labelled<Othello>) {
        let fitted = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut student = mlp(&[64, 8, 1], 6);
                let mut adam = Adam::new(student.genes().len());
                let settings = FitSettings {
                    symmetries: true,
                    ..fit_settings(3)
                };
                for epoch in 0..settings.epochs {
                    fit_epoch(&mut student, &mut adam, train, settings, 3, epoch);
                }
                student.genes().to_vec()
            })
        };
        assert_eq!(fitted(1), fitted(3));
    }

    #[test]
    fn the_step_falls_geometrically_over_the_epochs() {
        let settings = fit_settings(3);
        assert_eq!(settings.learning_rate_at(0), 0.01);
        assert!((settings.learning_rate_at(1) - 0.01 * 0.1f32.sqrt()).abs() < 1e-7);
        assert!((settings.learning_rate_at(2) - 0.001).abs() < 1e-8);
    }
}
