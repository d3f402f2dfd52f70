//! A benchmark that stops as soon as the evidence suffices: game pairs (each opening with
//! both colours) under a sequential probability ratio test (`statistics::sprt`).

use serde::Serialize;

use crate::arena::agent::Agent;
use crate::arena::game_record::{GameRecord, player_side};
use crate::arena::openings::{OpeningError, random_openings};
use crate::arena::series::{SeriesConfig, play_games};
use crate::games::Describe;
use crate::statistics::{EloEstimate, Pentanomial, Sprt, Verdict};

/// Pairs played between two looks at the ratio, per thread: enough to keep every thread
/// busy; the games past the deciding pair are dropped, so the result does not depend on
/// it.
const PAIRS_PER_THREAD: usize = 4;

/// Where a sequential test ended: its pair counts, ratio and bounds, its verdict (none
/// if the most games allowed were played first), and the Elo estimate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtResult {
    pub test: Sprt,
    pub pentanomial: Pentanomial,
    pub llr: f64,
    pub lower_bound: f64,
    pub upper_bound: f64,
    pub verdict: Option<Verdict>,
    pub elo: EloEstimate,
}

/// Plays `player` against `opponent` pair by pair (at most `config.games` games, and
/// one pair per distinct opening) until `test` reaches a verdict; returns the result and
/// the games that counted. The same seed gives the same games as
/// [`crate::arena::play_series`], and the same verdict whatever the number of threads.
pub fn play_sprt<G: Describe>(
    start: &G,
    player: &dyn Agent<G>,
    opponent: &dyn Agent<G>,
    test: Sprt,
    config: SeriesConfig,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<(SprtResult, Vec<GameRecord<G>>), OpeningError> {
    // A test may stop long before its cap: it plays as many distinct openings as there
    // are, up to the cap, rather than refusing a cap the game cannot fill.
    let wanted = config.games / 2;
    let openings = match random_openings(start, wanted, config.opening_plies, config.seed) {
        Err(OpeningError { found, .. }) if found > 0 => {
            random_openings(start, found, config.opening_plies, config.seed)?
        }
        result => result?,
    };
    let most_pairs = openings.len();
    let batch = PAIRS_PER_THREAD * rayon::current_num_threads();
    let mut counted: Vec<GameRecord<G>> = Vec::new();
    let mut pentanomial = Pentanomial::default();
    let mut verdict = None;
    let mut pair = 0;
    while verdict.is_none() && pair < most_pairs {
        let end = (pair + batch).min(most_pairs);
        let records = play_games(
            [player, opponent],
            &openings,
            config.seed,
            2 * pair..2 * end,
            on_game_done,
        );
        for games in records.chunks(2) {
            let score = |k: usize| {
                let seat = player_side(2 * pair + k);
                f64::from(games[k].outcome.sign_for(seat) + 1) / 2.0
            };
            pentanomial.add(score(0), score(1));
            counted.extend_from_slice(games);
            pair += 1;
            verdict = test.verdict(&pentanomial);
            if verdict.is_some() {
                break;
            }
        }
    }
    let (lower_bound, upper_bound) = test.bounds();
    let result = SprtResult {
        test,
        llr: test.llr(&pentanomial),
        lower_bound,
        upper_bound,
        verdict,
        elo: pentanomial.elo(),
        pentanomial,
    };
    Ok((result, counted))
}
