//! Seeded openings: distinct positions reached by random plies from the start, so that the
//! games of a series differ even between deterministic players.

use std::collections::HashSet;

use rand::RngExt;

use crate::games::{Game, MoveList, Notation};
use crate::rng::{GameRng, rng_for};

/// Stream tag for opening generation (see [`crate::rng::derive_seed`]).
const OPENINGS_STREAM: u64 = 0x6f70_656e;

/// Not enough distinct openings exist (or were found) at the requested depth.
#[derive(Debug, thiserror::Error)]
#[error(
    "found only {found} distinct unfinished openings of {plies} plies, {wanted} needed; {}",
    if *.too_long { "most random games end before that many plies: use fewer opening plies" }
    else { "use more opening plies (or fewer games)" }
)]
pub struct OpeningError {
    pub found: usize,
    pub wanted: usize,
    pub plies: u32,
    /// Most fruitless draws ended the game within the plies (rather than repeating an
    /// opening already found).
    pub too_long: bool,
}

/// `count` distinct unfinished positions, each `plies` uniformly random plies from `start`,
/// in a fixed order determined by `seed`. With 0 plies every game starts from `start`
/// itself (for series where a random agent provides the variety).
pub fn random_openings<G: Notation>(
    start: &G,
    count: usize,
    plies: u32,
    seed: u64,
) -> Result<Vec<G>, OpeningError> {
    if plies == 0 {
        return Ok(vec![start.clone(); count]);
    }
    let mut rng = rng_for(seed, &[OPENINGS_STREAM, u64::from(plies)]);
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    // Give up after this many draws in a row that found nothing new: the distinct
    // positions at this depth are (nearly) exhausted.
    let (mut fruitless, mut ended) = (0, 0);
    while openings.len() < count && fruitless < 2_000 {
        match random_opening(start, plies, &mut rng) {
            Some(game) if seen.insert(game.to_position_string()) => {
                openings.push(game);
                fruitless = 0;
                ended = 0;
            }
            Some(_) => fruitless += 1,
            None => {
                fruitless += 1;
                ended += 1;
            }
        }
    }
    if openings.len() < count {
        return Err(OpeningError {
            found: openings.len(),
            wanted: count,
            plies,
            too_long: 2 * ended > fruitless,
        });
    }
    Ok(openings)
}

/// The position after `plies` uniformly random plies from `start`, or `None` if the game
/// ended on the way (an opening must leave something to play).
pub fn random_opening<G: Game>(start: &G, plies: u32, rng: &mut GameRng) -> Option<G> {
    let mut game = start.clone();
    let mut moves = MoveList::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        game.play_unchecked(moves[rng.random_range(0..moves.len())]);
    }
    (game.count_moves() > 0).then_some(game)
}
