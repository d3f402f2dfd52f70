//! The learning phase of a generation: each individual plays `td_games` games of TD
//! learning (see [`crate::learn::td`]), in self-play or against sparring partners.
//!
//! With a teacher, positions learn the teacher's values, where it knows them, instead of
//! their own one move later (see [`crate::learn::td::train`]).
//!
//! Game k of individual i in generation g starts from an opening of `td_opening_plies`
//! random plies and draws all its randomness from (seed, g, i, k): whether it is against a
//! partner (with probability `sparring_share`), which one (k modulo their number) and its
//! side (alternating with k), so the phase gives the same weights whatever the threads.

use rand::RngExt;

use crate::arena::{Agent, Forfeit, random_opening};
use crate::eval::NamedEvaluators;
use crate::evolve::config::EvolveConfig;
use crate::evolve::population::Individual;
use crate::games::Player;
use crate::learn::td::{self, GameSetup, Opponent};
use crate::learn::teacher::Teacher;
use crate::rng::rng_for;

/// Stream tag of the learning games' seeds (see [`crate::rng::derive_seed`]).
const TD_STREAM: u64 = 0x7464_6c67;

/// Who a learner learns with: the sparring partners it plays, and what teaches its
/// positions their targets, if anything.
pub struct Tutors<'a, G> {
    pub sparring: &'a [Box<dyn Agent<G>>],
    pub teacher: Option<&'a dyn Teacher<G>>,
}

/// Lets each individual learn from its generation's games; returns each one's score
/// against the sparring partners ((wins + draws/2) per game; 0.5 when it played none).
pub fn learn<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    generation: u32,
    population: &mut [Individual],
    tutors: &Tutors<'_, G>,
    architecture: &crate::nn::Architecture,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<Vec<f64>, Forfeit> {
    let Tutors { sparring, teacher } = *tutors;
    let settings = config.td_settings(generation);
    population
        .iter_mut()
        .enumerate()
        .map(|(i, individual)| {
            let setup = |k: usize| {
                let mut rng = rng_for(
                    config.seed,
                    &[TD_STREAM, u64::from(generation), i as u64, k as u64],
                );
                let opponent = if !sparring.is_empty() && rng.random_bool(config.sparring_share) {
                    Opponent::Partner {
                        agent: sparring[k % sparring.len()].as_ref(),
                        side: if k.is_multiple_of(2) {
                            Player::Second
                        } else {
                            Player::First
                        },
                    }
                } else {
                    Opponent::SelfPlay
                };
                let opening = (0..100)
                    .find_map(|_| random_opening(start, config.td_opening_plies, &mut rng))
                    .unwrap_or_else(|| start.clone());
                on_game_done();
                GameSetup {
                    start: opening,
                    opponent,
                    rng,
                }
            };
            let mut network = start.network(architecture, std::mem::take(&mut individual.genes));
            let results = td::train(&mut network, config.td_games, &setup, settings, teacher)?;
            individual.genes = network.genes().to_vec();
            Ok(partner_score(&results))
        })
        .collect()
}

/// The learner's score over the games it played against partners (0.5 if none).
fn partner_score(results: &[Option<i32>]) -> f64 {
    let played: Vec<i32> = results.iter().flatten().copied().collect();
    if played.is_empty() {
        return 0.5;
    }
    played
        .iter()
        .map(|&r| (f64::from(r) + 1.0) / 2.0)
        .sum::<f64>()
        / played.len() as f64
}
