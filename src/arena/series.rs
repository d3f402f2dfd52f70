//! A match series: every opening played once with each colour, games in parallel.

use crate::arena::agent::Agent;
use crate::arena::game_record::{GameRecord, play_game, player_side};
use crate::arena::openings::{OpeningError, random_openings};
use crate::farm::map_jobs;
use crate::games::{Describe, Notation, Player};
use crate::rng::rng_for;

/// Stream tag for the per-game generators of a series.
const GAME_STREAM: u64 = 0x6761_6d65;

/// Most games a series may ask for: a guard against typos that would run for days.
pub const MAX_SERIES_GAMES: usize = 1_000_000;

/// How a series is played.
#[derive(Clone, Copy, Debug)]
pub struct SeriesConfig {
    /// Number of games; game `k` uses opening `k / 2` and gives the player the first side
    /// when `k` is even, so an even count plays each opening with both colours.
    pub games: usize,
    /// Random plies from the start position that make each opening.
    pub opening_plies: u32,
    /// Seed of the openings and of every game's random stream.
    pub seed: u64,
}

/// Plays `config.games` games of `player` against `opponent`, in parallel (see
/// [`map_jobs`]: threads, and MPI processes when the run has them). Each game's randomness
/// derives from (seed, game index), so the records are identical whatever the number of
/// threads or processes. `on_game_done` is called after each game this process plays
/// (for progress bars).
pub fn play_series<G: Describe>(
    start: &G,
    player: &dyn Agent<G>,
    opponent: &dyn Agent<G>,
    config: SeriesConfig,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord<G>>, OpeningError> {
    let openings = series_openings(start, config)?;
    let pair = [player, opponent];
    Ok(play_games(
        pair,
        &openings,
        config.seed,
        0..config.games,
        on_game_done,
    ))
}

/// The openings of a series (game `k` starts from opening `k / 2`).
pub fn series_openings<G: Notation>(
    start: &G,
    config: SeriesConfig,
) -> Result<Vec<G>, OpeningError> {
    random_openings(
        start,
        config.games.div_ceil(2),
        config.opening_plies,
        config.seed,
    )
}

/// Games `games` of a series of `agents` (player, opponent) from `openings` (game `k`
/// from opening `k / 2`), in parallel; game `k` is the same whichever range it is played
/// in, so a series may be played in parts (a sequential test stops between them).
pub fn play_games<G: Describe>(
    agents: [&dyn Agent<G>; 2],
    openings: &[G],
    seed: u64,
    games: std::ops::Range<usize>,
    on_game_done: &(dyn Fn() + Sync),
) -> Vec<GameRecord<G>> {
    let listed: Vec<usize> = games.collect();
    play_listed_games(agents, openings, seed, &listed, on_game_done)
}

/// The games numbered `games` of a series, as [`play_games`] plays them (a resumed
/// tournament plays the ones its journal lacks).
pub fn play_listed_games<G: Describe>(
    [player, opponent]: [&dyn Agent<G>; 2],
    openings: &[G],
    seed: u64,
    games: &[usize],
    on_game_done: &(dyn Fn() + Sync),
) -> Vec<GameRecord<G>> {
    map_jobs(games.len(), |index| {
        let k = games[index];
        let mut rng = rng_for(seed, &[GAME_STREAM, k as u64]);
        let agents = match player_side(k) {
            Player::First => [player, opponent],
            Player::Second => [opponent, player],
        };
        let record = play_game(&openings[k / 2], agents, &mut rng);
        on_game_done();
        record
    })
}
