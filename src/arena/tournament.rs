//! Round-robin tournaments with the per-agent statistics of Gifford et al. (2008) on Kalah:
//! win %, win % going first and second, average stones, margins, captures, extra turns
//! ("go-agains") and moves, plus the pairwise win/draw/loss matrix.

use serde::Serialize;

use crate::arena::agent::Agent;
use crate::arena::game_record::{GameRecord, player_side};
use crate::arena::journal::{Journal, JournalError, KeptGames};
use crate::arena::openings::OpeningError;
use crate::arena::series::{SeriesConfig, play_listed_games, play_series, series_openings};
use crate::arena::stats::{Forfeits, MoveTimes, WinRecord};
use crate::games::{Describe, Game, Player};
use crate::rng::derive_seed;
use crate::statistics::PairGames;

/// How a round robin is played.
#[derive(Clone, Copy, Debug)]
pub struct TournamentConfig {
    /// Games per pair; each agent moves first in half of them.
    pub games_per_pair: usize,
    /// Random plies that make each opening.
    pub opening_plies: u32,
    pub seed: u64,
    /// Think times are summarised over each agent's first this many moves of every game
    /// (the Congklak minimax report timed the first five); `None`: over all moves.
    pub timed_moves: Option<usize>,
}

/// One agent's results over all its games, from its own point of view.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct AgentSummary {
    pub agent: String,
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Wins over games (a draw is not a win), overall and with each seat.
    pub win_rate: f64,
    pub win_rate_first: f64,
    pub win_rate_second: f64,
    /// Own final score (stones in store, discs).
    pub avg_stones: f64,
    /// Own final score minus the opponent's.
    pub avg_margin: f64,
    /// Mean margin of the games won.
    pub avg_win_margin: f64,
    /// Mean margin by which the games lost were lost (positive).
    pub avg_loss_margin: f64,
    pub avg_captures: f64,
    pub avg_extra_turns: f64,
    /// Own moves per game (Gifford et al. track the AI player's moves).
    pub avg_moves: f64,
    /// Think time per own move over all games (the Congkak report's Tables 4.2–4.5).
    pub move_time: MoveTimes,
}

/// A finished round robin.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentResult {
    pub agents: Vec<AgentSummary>,
    /// `matrix[i][j]`: agent i's record against agent j (empty on the diagonal).
    pub matrix: Vec<Vec<Option<WinRecord>>>,
    /// Every game by who moved first from its opening (agent indexes), for ratings.
    pub pair_games: Vec<PairGames>,
    /// The games an agent forfeited, over every pair.
    pub forfeits: Forfeits,
}

/// Counts `record`'s result in `games`, where `agents[seat]` sat on each side: the
/// entry of the agent that moved first from the opening against the other.
fn count_for_ratings<G: Game>(
    games: &mut Vec<PairGames>,
    record: &GameRecord<G>,
    agents: [usize; 2],
) {
    let first_seat = record.start.to_move();
    let (first, second) = (
        agents[first_seat.index()],
        agents[first_seat.opponent().index()],
    );
    let index = match games
        .iter()
        .position(|g| (g.first, g.second) == (first, second))
    {
        Some(index) => index,
        None => {
            games.push(PairGames {
                first,
                second,
                ..PairGames::default()
            });
            games.len() - 1
        }
    };
    let entry = &mut games[index];
    match record.outcome.sign_for(first_seat) {
        1 => entry.first_wins += 1,
        0 => entry.draws += 1,
        _ => entry.second_wins += 1,
    }
}

#[derive(Default)]
struct Tally {
    /// Games and wins moving first [0] and second [1].
    games: [usize; 2],
    wins: [usize; 2],
    draws: usize,
    stones: i64,
    margin: i64,
    win_margin: i64,
    loss_margin: i64,
    captures: u64,
    extra_turns: u64,
    moves: u64,
    /// How many of each game's own moves are timed (all when `None`).
    timed_moves: Option<usize>,
    think_seconds: Vec<f64>,
    /// The most thought in one game, seconds.
    max_game_s: f64,
}

fn mean(total: f64, count: usize) -> f64 {
    if count == 0 {
        0.0
    } else {
        total / count as f64
    }
}

impl Tally {
    /// Adds one game played on `seat`; returns +1, 0 or −1 for a win, draw or loss.
    /// "First" means moving first from the game's opening position, which after an odd
    /// number of random plies (or an extra turn in them) need not be the first seat.
    fn add<G: Game>(&mut self, record: &GameRecord<G>, seat: Player) -> i32 {
        let (me, them) = (seat.index(), seat.opponent().index());
        let order = usize::from(seat != record.start.to_move());
        let margin = i64::from(record.score[me] - record.score[them]);
        self.games[order] += 1;
        self.stones += i64::from(record.score[me]);
        self.margin += margin;
        self.captures += u64::from(record.captures[me]);
        self.extra_turns += u64::from(record.extra_turns[me]);
        let times = &record.think_seconds[me];
        self.moves += times.len() as u64;
        self.max_game_s = self.max_game_s.max(times.iter().sum());
        self.think_seconds
            .extend(times.iter().take(self.timed_moves.unwrap_or(usize::MAX)));
        let result = record.outcome.sign_for(seat);
        match result {
            1 => {
                self.wins[order] += 1;
                self.win_margin += margin;
            }
            0 => self.draws += 1,
            _ => self.loss_margin -= margin,
        }
        result
    }

    fn summary(&self, agent: String) -> AgentSummary {
        let games = self.games[0] + self.games[1];
        let wins = self.wins[0] + self.wins[1];
        let losses = games - wins - self.draws;
        AgentSummary {
            agent,
            games,
            wins,
            draws: self.draws,
            losses,
            win_rate: mean(wins as f64, games),
            win_rate_first: mean(self.wins[0] as f64, self.games[0]),
            win_rate_second: mean(self.wins[1] as f64, self.games[1]),
            avg_stones: mean(self.stones as f64, games),
            avg_margin: mean(self.margin as f64, games),
            avg_win_margin: mean(self.win_margin as f64, wins),
            avg_loss_margin: mean(self.loss_margin as f64, losses),
            avg_captures: mean(self.captures as f64, games),
            avg_extra_turns: mean(self.extra_turns as f64, games),
            avg_moves: mean(self.moves as f64, games),
            move_time: MoveTimes {
                max_game_s: self.max_game_s,
                ..MoveTimes::from_seconds(self.think_seconds.iter())
            },
        }
    }
}

/// Every pair of `agents` plays `games_per_pair` games (openings and random streams seeded
/// by (seed, pair)); games run in parallel and the result does not depend on thread count.
pub fn round_robin<G: Describe>(
    start: &G,
    agents: &[(String, Box<dyn Agent<G>>)],
    config: TournamentConfig,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<TournamentResult, OpeningError> {
    play_pairs(
        start,
        agents,
        &all_pairs(agents.len()),
        config,
        on_game_done,
    )
}

/// The pairs `(i, j)` of `agents` (i < j) play `games_per_pair` games each, seeded as in
/// [`round_robin`]: a gauntlet plays some pairs only (each network against fixed anchors).
pub fn play_pairs<G: Describe>(
    start: &G,
    agents: &[(String, Box<dyn Agent<G>>)],
    pairs: &[(usize, usize)],
    config: TournamentConfig,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<TournamentResult, OpeningError> {
    let mut standings = Standings::new(agents.len(), config);
    for &(i, j) in pairs {
        let records = play_series(
            start,
            agents[i].1.as_ref(),
            agents[j].1.as_ref(),
            pair_series(config, i, j),
            on_game_done,
        )?;
        standings.add_pair(agents, [i, j], &records);
    }
    Ok(standings.finish(agents))
}

/// Why a kept tournament could not be played to its end.
#[derive(Debug, thiserror::Error)]
pub enum KeptTournamentError {
    #[error(transparent)]
    Openings(#[from] OpeningError),
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error("the journal keeps game {game} of {pair}, which did not start from its opening")]
    ForeignGame { pair: String, game: usize },
    #[error("stopped on request with {kept} games kept: run the same command to go on")]
    Stopped { kept: usize },
}

impl KeptTournamentError {
    /// Whether the user gave something wrong (a journal, settings), rather than the
    /// machine failing or a stop being asked for.
    pub fn is_bad_input(&self) -> bool {
        match self {
            KeptTournamentError::Openings(_) | KeptTournamentError::ForeignGame { .. } => true,
            KeptTournamentError::Journal(error) => error.is_bad_input(),
            KeptTournamentError::Stopped { .. } => false,
        }
    }
}

/// A round robin as [`round_robin`] plays it, keeping each finished game in `journal` (on
/// the process that writes; `None` on the others of an MPI job) and playing only the games
/// `kept` lacks, so that a stopped tournament goes on where it stopped and ends with the
/// result it would have had unstopped; `kept` comes from [`check_kept`]. Games are played in rounds of `at_once` (the
/// threads and processes at work), each kept as it ends; a stop asked for through
/// [`crate::interrupt`] ends the tournament between rounds.
pub fn round_robin_kept<G: Describe>(
    start: &G,
    agents: &[(String, Box<dyn Agent<G>>)],
    config: TournamentConfig,
    kept: CheckedGames<G>,
    mut journal: Option<&mut Journal>,
    at_once: usize,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<TournamentResult, KeptTournamentError> {
    let CheckedGames(mut kept) = kept;
    let mut standings = Standings::new(agents.len(), config);
    let mut kept_now = kept.len();
    for (i, j) in all_pairs(agents.len()) {
        let series = pair_series(config, i, j);
        let openings = series_openings(start, series)?;
        let mut records: Vec<Option<GameRecord<G>>> = (0..series.games)
            .map(|k| kept.remove(&([i, j], k)))
            .collect();
        let missing: Vec<usize> = (0..series.games)
            .filter(|&k| records[k].is_none())
            .collect();
        for round in missing.chunks(at_once.max(1)) {
            if crate::interrupt::requested() {
                return Err(KeptTournamentError::Stopped { kept: kept_now });
            }
            let played = play_listed_games(
                [agents[i].1.as_ref(), agents[j].1.as_ref()],
                &openings,
                series.seed,
                round,
                on_game_done,
            );
            if let Some(journal) = journal.as_deref_mut() {
                journal.keep([i, j], round.iter().copied().zip(&played))?;
            }
            kept_now += played.len();
            for (&k, record) in round.iter().zip(played) {
                records[k] = Some(record);
            }
        }
        let records: Vec<GameRecord<G>> = records.into_iter().flatten().collect();
        standings.add_pair(agents, [i, j], &records);
    }
    Ok(standings.finish(agents))
}

/// Kept games each known to have started from the opening its pair and number give it:
/// what [`round_robin_kept`] goes on from.
pub struct CheckedGames<G: Game>(KeptGames<G>);

impl<G: Game> CheckedGames<G> {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `kept`, once every game in it is found to have started from the opening its pair and
/// number give it (a game moved in a journal to another place would count for the wrong
/// opening).
pub fn check_kept<G: Describe>(
    start: &G,
    agents: &[(String, Box<dyn Agent<G>>)],
    config: TournamentConfig,
    kept: KeptGames<G>,
) -> Result<CheckedGames<G>, KeptTournamentError> {
    for (i, j) in all_pairs(agents.len()) {
        let series = pair_series(config, i, j);
        let openings = series_openings(start, series)?;
        for k in 0..series.games {
            if let Some(record) = kept.get(&([i, j], k))
                && record.start.to_position_string() != openings[k / 2].to_position_string()
            {
                return Err(KeptTournamentError::ForeignGame {
                    pair: format!("{} vs {}", agents[i].0, agents[j].0),
                    game: k,
                });
            }
        }
    }
    Ok(CheckedGames(kept))
}

/// Every pair `(i, j)` of `n` agents, i < j, in the order a round robin plays them.
fn all_pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

/// The series agents `i` and `j` play: its openings and games seeded by (seed, pair).
fn pair_series(config: TournamentConfig, i: usize, j: usize) -> SeriesConfig {
    SeriesConfig {
        games: config.games_per_pair,
        opening_plies: config.opening_plies,
        seed: derive_seed(config.seed, &[i as u64, j as u64]),
    }
}

/// The standings of a tournament as its pairs' series come in.
struct Standings {
    tallies: Vec<Tally>,
    matrix: Vec<Vec<Option<WinRecord>>>,
    pair_games: Vec<PairGames>,
    forfeits: Forfeits,
}

impl Standings {
    fn new(n: usize, config: TournamentConfig) -> Self {
        Standings {
            tallies: (0..n)
                .map(|_| Tally {
                    timed_moves: config.timed_moves,
                    ..Tally::default()
                })
                .collect(),
            matrix: vec![vec![None; n]; n],
            pair_games: Vec::new(),
            forfeits: Forfeits::default(),
        }
    }

    /// Counts the series `records` of `agents[i]` against `agents[j]` (game k: `i` on
    /// [`player_side`]`(k)`).
    fn add_pair<G: Game>(
        &mut self,
        agents: &[(String, Box<dyn Agent<G>>)],
        [i, j]: [usize; 2],
        records: &[GameRecord<G>],
    ) {
        self.forfeits
            .add(records, &format!("{} vs {}", agents[i].0, agents[j].0));
        let mut pair = [[0usize; 3]; 2]; // per side of the pair: wins, draws, losses
        for (k, record) in records.iter().enumerate() {
            let mut seated = [i, j];
            if player_side(k) != Player::First {
                seated.swap(0, 1);
            }
            count_for_ratings(&mut self.pair_games, record, seated);
            for (slot, (who, seat)) in [(i, player_side(k)), (j, player_side(k).opponent())]
                .into_iter()
                .enumerate()
            {
                let column = match self.tallies[who].add(record, seat) {
                    1 => 0,
                    0 => 1,
                    _ => 2,
                };
                pair[slot][column] += 1;
            }
        }
        self.matrix[i][j] = Some(WinRecord::new(pair[0][0], pair[0][1], pair[0][2]));
        self.matrix[j][i] = Some(WinRecord::new(pair[1][0], pair[1][1], pair[1][2]));
    }

    fn finish<G: Game>(self, agents: &[(String, Box<dyn Agent<G>>)]) -> TournamentResult {
        TournamentResult {
            agents: self
                .tallies
                .iter()
                .zip(agents)
                .map(|(tally, (name, _))| tally.summary(name.clone()))
                .collect(),
            matrix: self.matrix,
            pair_games: self.pair_games,
            forfeits: self.forfeits,
        }
    }
}

/// The statistics of the first agent of a series played by [`play_series`].
pub fn series_summary<G: Game>(agent: String, records: &[GameRecord<G>]) -> AgentSummary {
    let mut tally = Tally::default();
    for (k, record) in records.iter().enumerate() {
        tally.add(record, player_side(k));
    }
    tally.summary(agent)
}
