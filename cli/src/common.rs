//! What the commands share: the `--game` and series flags, the game a run records, worker
//! threads, and how a command reads its inputs and writes its output files.

use evoboard::games::{GameError, Notation};

use crate::error::{BadInput, CliError, CliResult};

pub use evoboard::games::GameName;
pub(crate) use evoboard::with_game;

/// Parses `--game`: the library's names of the games (and their aliases), listed in
/// `--help` with what each game is.
pub(crate) fn game_parser() -> impl clap::builder::TypedValueParser<Value = GameName> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = GameName::ALL.map(|game| {
        let value = PossibleValue::new(game.as_str()).aliases(game.aliases().iter().copied());
        match game {
            GameName::Othello => value,
            GameName::Kalah => {
                value.help("Kalah(6,4) (commands that take --position also play other sizes)")
            }
            GameName::Oware => value.help("Oware (Abapa rules); `ayo` is the same game"),
            GameName::Congklak => {
                value.help("Congklak: 7 holes of 7 seeds, relay sowing, shooting, passes")
            }
            GameName::Congkak => value.help(
                "Congkak: Congklak's sowing over rounds, burnt holes, a simultaneous opening",
            ),
        }
    });
    PossibleValuesParser::new(values).map(|name| {
        name.parse::<GameName>()
            .expect("every listed name is a game")
    })
}

/// The game the run in `run` records in its `run.json`.
pub(crate) fn recorded_game(run: &evoboard::evolve::checkpoint::RunDir) -> CliResult<GameName> {
    let recorded = run.read_info()?.game;
    recorded.parse().map_err(|_| {
        BadInput(format!(
            "{} records an unknown game '{}'",
            run.run_json().display(),
            recorded.escape_debug()
        ))
        .into()
    })
}

/// Refuses a run of another game than the one that starts at `start`: a program over
/// `run_game` has one game, so a run it reads must be of that game.
pub(crate) fn check_run_game<G: Notation>(
    run: &evoboard::evolve::checkpoint::RunDir,
    start: &G,
) -> CliResult {
    let recorded = run.read_info()?.game;
    if recorded != start.name() {
        return Err(BadInput(format!(
            "{} is a run of the game {}, not {}",
            run.dir.display(),
            recorded.escape_debug(),
            start.name()
        ))
        .into());
    }
    Ok(())
}

/// How the games of a series are set up: shared by `benchmark` and `tournament`.
#[derive(Debug, clap::Args)]
pub struct SeriesArgs {
    /// Games of each series between two agents: an even number, as each opening is
    /// played with both colours.
    #[arg(long, default_value_t = 100, value_parser = even_games)]
    pub games: u32,
    /// Random plies from the start position that make each opening (0: every game from the
    /// start position, for when a random or @EPS agent provides the variety).
    #[arg(long, default_value_t = 6)]
    pub openings: u32,
    /// Seed of the openings and of the agents' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=MAX_THREADS))]
    pub threads: u16,
}

/// Parses `--games`: even (every opening with both colours, every agent first in half),
/// from 2 to [`MAX_GAMES`].
pub(crate) fn even_games(text: &str) -> Result<u32, String> {
    let games: u32 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of games"))?;
    if games == 0 || i64::from(games) > MAX_GAMES || games % 2 == 1 {
        return Err(format!(
            "{games} games: use an even number from 2 to {MAX_GAMES} (each opening is played with both colours)"
        ));
    }
    Ok(games)
}

/// `MIN..MAX`, MIN ≤ MAX ≤ 400.
pub(crate) fn plies_range(text: &str) -> Result<(u32, u32), String> {
    let (low, high) = text
        .split_once("..")
        .ok_or_else(|| format!("{text:?} is not MIN..MAX"))?;
    let number = |part: &str| {
        part.parse::<u32>()
            .map_err(|_| format!("{part:?} in {text:?} is not a number of plies"))
    };
    let (low, high) = (number(low)?, number(high)?);
    if low > high || high > 400 {
        return Err(format!("{text:?}: MIN..MAX with MIN ≤ MAX ≤ 400"));
    }
    Ok((low, high))
}

/// Most games a command plays per series: a guard against typos that would run for days.
pub const MAX_GAMES: i64 = evoboard::arena::MAX_SERIES_GAMES as i64;

/// Most worker threads a command accepts: far above any core count, far below what
/// exhausts the process's memory for stacks.
pub const MAX_THREADS: i64 = 1024;

/// Sets the number of rayon worker threads (0 keeps rayon's default: one per core).
pub(crate) fn configure_threads(threads: usize) -> CliResult {
    if threads > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()?;
    }
    Ok(())
}

/// Fails before any work if `path` could not be written when the work ends: its directory
/// must exist and `path` must not be a directory. `what` names the output in the message.
/// Only the leader of an MPI job writes, so only it checks.
pub(crate) fn check_output_path(path: &std::path::Path, what: &str) -> Result<(), BadInput> {
    if !evoboard::farm::is_leader() {
        return Ok(());
    }
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => std::path::Path::new("."),
    };
    let problem = if !directory.is_dir() {
        format!("{} is not a directory", directory.display())
    } else if path.is_dir() {
        "it is a directory".to_string()
    } else {
        return Ok(());
    };
    Err(BadInput(format!(
        "cannot write {what} to {}: {problem}",
        path.display()
    )))
}

/// Writes an output file atomically, naming it if that fails (in an MPI job, the leader
/// alone writes).
pub(crate) fn write_output(path: &std::path::Path, bytes: &[u8]) -> CliResult {
    if !evoboard::farm::is_leader() {
        return Ok(());
    }
    evoboard::persist::write_atomic(path, bytes).map_err(|error| {
        let message = format!("cannot write {}: {error}", path.display());
        CliError::Failure(message.into())
    })
}

pub(crate) use evoboard::persist::{LineRead, MAX_LINE_BYTES, read_text_line};

/// Reads a position string, or the start position when none is given.
pub(crate) fn position_or_start<G: Notation>(
    start: G,
    position: Option<&str>,
) -> Result<G, GameError> {
    match position {
        Some(text) => G::from_position_string(text),
        None => Ok(start),
    }
}
