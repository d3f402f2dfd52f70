//! Fitness from games (the Othello ENN paper §2.4.3): every individual plays every other
//! with both colours, 3 points for a win, 1 for a draw, 0 for a loss — and, where the run names
//! sparring partners, a fixed number of games against each of them, scored the same way.
//!
//! A league alone measures individuals only against each other, so a population can drift
//! together into play that any outside opponent punishes; partners anchor fitness to fixed
//! opponents. Every individual meets each partner on the same openings (common random
//! numbers), so differences in fitness come from the individuals, not from their luck in
//! the openings they were dealt; with `common_random_moves` the random moves of those
//! games are shared too.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::sync::Arc;

use crate::arena::{Agent, play_game, random_opening};
use crate::eval::NamedEvaluators;
use crate::eval::neural::NeuralEvaluator;
use crate::evolve::EvolveError;
use crate::evolve::benchmark::{network_player, network_playing};
use crate::evolve::config::EvolveConfig;
use crate::evolve::schema::parse_play;
use crate::farm::map_jobs;
use crate::games::{Outcome, Player};
use crate::rng::{GameRng, rng_for};

/// Stream tags of the league's seeds (see [`crate::rng::derive_seed`]).
const OPENING_STREAM: u64 = 0x6c67_6f70;
const GAME_STREAM: u64 = 0x6c67_676d;
const SAMPLE_STREAM: u64 = 0x6c67_7370;
const SPARRING_STREAM: u64 = 0x6c67_7370_6172;
const SPARRING_GAME_STREAM: u64 = 0x6c67_7370_676d;

/// One game: participant indices (population first, then hall of fame, then sparring
/// partners) and which of the two earn fitness from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fixture {
    first: usize,
    second: usize,
    credit_first: bool,
    credit_second: bool,
    /// Against a partner: the game's number k in the individual's series against it (its
    /// opening is number k / 2 of the partner's openings, shared by the whole population).
    sparring_round: Option<usize>,
}

/// Points for the side `me` from a finished game.
fn points(outcome: Outcome, me: Player) -> u32 {
    match outcome.sign_for(me) {
        1 => 3,
        0 => 1,
        _ => 0,
    }
}

/// The fixtures of one generation's league, in a fixed order.
///
/// - Full league: every ordered pair (i, j), i ≠ j — P·(P−1) games, each crediting both.
/// - Sampled league (`league_sample = K`): each individual i draws K distinct opponents
///   (seeded by run seed, generation and i) and plays each with both colours; i is credited
///   for these 2K games, and j too if j also drew i (the games are then played once).
/// - Hall of fame: each individual also plays every stored champion with both colours,
///   credited to the individual.
/// - Sparring: each individual plays `sparring_games` games against each of `partners`,
///   alternating colours, credited to the individual.
///
/// With `config.league` off only the last two remain.
fn fixtures(config: &EvolveConfig, generation: u32, hall: usize, partners: usize) -> Vec<Fixture> {
    let p = config.population;
    let mut list = Vec::new();
    let both_colours = |list: &mut Vec<Fixture>, i: usize, j: usize, credit_j: bool| {
        list.push(Fixture {
            first: i,
            second: j,
            credit_first: true,
            credit_second: credit_j,
            sparring_round: None,
        });
        list.push(Fixture {
            first: j,
            second: i,
            credit_first: credit_j,
            credit_second: true,
            sparring_round: None,
        });
    };
    match config.league_sample {
        _ if !config.league => {}
        None => {
            for i in 0..p {
                for j in i + 1..p {
                    both_colours(&mut list, i, j, true);
                }
            }
        }
        Some(k) => {
            // When i draws j and j draws i, the two draws name the same two games: play
            // them once and credit both.
            let mut merged: BTreeMap<(usize, usize), (bool, bool)> = BTreeMap::new();
            for i in 0..p {
                let mut rng = rng_for(
                    config.seed,
                    &[SAMPLE_STREAM, u64::from(generation), i as u64],
                );
                let others: Vec<usize> = (0..p).filter(|&j| j != i).collect();
                for c in rand::seq::index::sample(&mut rng, others.len(), k).iter() {
                    let j = others[c];
                    merged.entry((i, j)).or_default().0 = true;
                    merged.entry((j, i)).or_default().1 = true;
                }
            }
            list.extend(merged.into_iter().map(
                |((first, second), (credit_first, credit_second))| Fixture {
                    first,
                    second,
                    credit_first,
                    credit_second,
                    sparring_round: None,
                },
            ));
        }
    }
    for i in 0..p {
        for h in 0..hall {
            both_colours(&mut list, i, p + h, false);
        }
    }
    for i in 0..p {
        for partner in p + hall..p + hall + partners {
            for k in 0..config.sparring_games {
                let (first, second) = if k % 2 == 0 {
                    (i, partner)
                } else {
                    (partner, i)
                };
                list.push(Fixture {
                    first,
                    second,
                    credit_first: first == i,
                    credit_second: second == i,
                    sparring_round: Some(k),
                });
            }
        }
    }
    list
}

/// Number of games one generation's fitness plays.
pub fn league_games(config: &EvolveConfig, generation: u32, hall: usize, partners: usize) -> usize {
    fixtures(config, generation, hall, partners).len()
}

/// An upper bound of the memory one generation's fitness games take besides the players:
/// the fixture list (grown by doubling, so up to twice its length), one outcome a game
/// (their encodings too under MPI), and a sampled league's map of drawn pairs. Counted
/// from the settings alone, before anything is allocated.
pub fn fitness_bytes(config: &EvolveConfig) -> usize {
    let p = config.population;
    let pairs = p.saturating_mul(p.saturating_sub(1));
    let (league, drawn) = match config.league_sample {
        _ if !config.league => (0, 0),
        None => (pairs, 0),
        Some(k) => (pairs.min(2 * k * p), 2 * k * p),
    };
    let outside = (2 * p).saturating_mul(config.hall_of_fame).saturating_add(
        p.saturating_mul(config.sparring.len())
            .saturating_mul(config.sparring_games),
    );
    let games = league.saturating_add(outside);
    let per_game = 2 * std::mem::size_of::<Fixture>() + 4 * std::mem::size_of::<Outcome>() + 8;
    // A B-tree holds an entry in at most 64 bytes (nodes at least half full), and each
    // individual lists its possible opponents while it draws.
    let map = 64 * drawn + 8 * p;
    games.saturating_mul(per_game).saturating_add(map)
}

/// The fitness games one individual is credited with in a generation whose hall of fame
/// holds `hall` champions, fewest to most (see `fixtures`): they differ only in a sampled
/// league, where an individual also plays those that drew it.
pub fn credited_games(config: &EvolveConfig, hall: usize) -> RangeInclusive<usize> {
    let others = config.population.saturating_sub(1);
    let (fewest, most) = match (config.league, config.league_sample) {
        (false, _) => (0, 0),
        (true, None) => (2 * others, 2 * others),
        (true, Some(k)) => (2 * k, 2 * others),
    };
    let outside = 2 * hall + config.sparring.len() * config.sparring_games;
    fewest + outside..=most + outside
}

/// The mean fitness, when the league fixes it by construction: in a full league without
/// hall of fame or sparring partners every game hands its 3 points (2 for a draw) to the
/// population, so the mean is 3·(P − 1), less 1/P for each drawn game.
pub fn fixed_mean_fitness(config: &EvolveConfig) -> Option<f64> {
    let closed = config.evolves()
        && config.league
        && config.league_sample.is_none()
        && config.hall_of_fame == 0
        && config.sparring_games == 0;
    closed.then(|| 3.0 * config.population.saturating_sub(1) as f64)
}

/// Plays generation `generation`'s fitness games between `population`, the `hall` of past
/// champions and the sparring `partners`, and returns each individual's points. Games run
/// in parallel (threads, and MPI processes when the run has them: only the outcomes
/// travel); a league game's opening derives from (seed, generation, the unordered
/// pair), a sparring game's from (seed, generation, partner, opening number), and every
/// game's random stream from (seed, generation, first, second[, round]) — a sparring
/// game's from (seed, generation, partner, round) alone under `common_random_moves` — so
/// the result does not depend on scheduling.
pub fn play_league<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    generation: u32,
    population: &[Arc<NeuralEvaluator>],
    hall: &[Arc<NeuralEvaluator>],
    partners: &[Box<dyn Agent<G>>],
    on_game_done: &(dyn Fn() + Sync),
) -> Result<Vec<f64>, EvolveError> {
    let networks: Vec<Box<dyn Agent<G>>> = population
        .iter()
        .chain(hall)
        .enumerate()
        .map(|(i, evaluator)| network_player(config, evaluator.clone(), format!("individual {i}")))
        .collect();
    let agents: Vec<&dyn Agent<G>> = networks
        .iter()
        .chain(partners)
        .map(|agent| agent.as_ref())
        .collect();
    let first_partner = networks.len();
    // With `sparring_play`, each partner's games see the population as that play asks.
    let playing_partners: Vec<Vec<Box<dyn Agent<G>>>> = config
        .sparring_play
        .iter()
        .map(|play| {
            let (depth, epsilon) = parse_play(play).expect("run settings are checked");
            population
                .iter()
                .enumerate()
                .map(|(i, evaluator)| {
                    network_playing(depth, epsilon, evaluator.clone(), format!("individual {i}"))
                })
                .collect()
        })
        .collect();
    let seat = |index: usize, partner: Option<usize>| -> &dyn Agent<G> {
        match partner {
            Some(partner) if index < first_partner && !playing_partners.is_empty() => {
                playing_partners[partner][index].as_ref()
            }
            _ => agents[index],
        }
    };
    let generation_key = u64::from(generation);
    let fixtures = fixtures(config, generation, hall.len(), partners.len());
    let outcomes: Vec<(Outcome, Option<String>)> = map_jobs(fixtures.len(), |k| {
        let fixture = fixtures[k];
        let (low, high) = (
            fixture.first.min(fixture.second),
            fixture.first.max(fixture.second),
        );
        let (opening_key, game_key) = match fixture.sparring_round {
            None => (
                [OPENING_STREAM, generation_key, low as u64, high as u64],
                vec![
                    GAME_STREAM,
                    generation_key,
                    fixture.first as u64,
                    fixture.second as u64,
                ],
            ),
            Some(round) => {
                let partner = (high - first_partner) as u64;
                let game_key = if config.common_random_moves {
                    vec![SPARRING_GAME_STREAM, generation_key, partner, round as u64]
                } else {
                    vec![
                        GAME_STREAM,
                        generation_key,
                        fixture.first as u64,
                        fixture.second as u64,
                        round as u64,
                    ]
                };
                (
                    [SPARRING_STREAM, generation_key, partner, (round / 2) as u64],
                    game_key,
                )
            }
        };
        let mut opening_rng = rng_for(config.seed, &opening_key);
        let opening = opening_for(start, config.league_opening_plies, &mut opening_rng);
        let mut rng = rng_for(config.seed, &game_key);
        let partner = fixture.sparring_round.map(|_| high - first_partner);
        let players = [seat(fixture.first, partner), seat(fixture.second, partner)];
        let record = play_game(&opening, players, &mut rng);
        on_game_done();
        let forfeit = record.forfeit.map(|(_, forfeit)| forfeit.reason);
        (record.outcome, forfeit)
    });
    if let Some((k, reason)) =
        (outcomes.iter().enumerate()).find_map(|(k, (_, forfeit))| Some((k, forfeit.clone()?)))
    {
        let fixture = fixtures[k];
        return Err(EvolveError::Forfeited {
            during: format!(
                "generation {generation}'s fitness game {} ({} vs {})",
                k + 1,
                agents[fixture.first].name(),
                agents[fixture.second].name()
            ),
            reason,
        });
    }
    let mut fitness = vec![0.0; population.len()];
    for (fixture, (outcome, _)) in fixtures.into_iter().zip(outcomes) {
        if fixture.credit_first {
            fitness[fixture.first] += f64::from(points(outcome, Player::First));
        }
        if fixture.credit_second {
            fitness[fixture.second] += f64::from(points(outcome, Player::Second));
        }
    }
    Ok(fitness)
}

/// A seeded opening of `plies` random plies; retries on the rare playout that ends the
/// game, and falls back to the start position after many failures.
fn opening_for<G: NamedEvaluators>(start: &G, plies: u32, rng: &mut GameRng) -> G {
    (0..100)
        .find_map(|_| random_opening(start, plies, rng))
        .unwrap_or_else(|| start.clone())
}
