//! A tournament's journal: every finished game appended to a file as one line of JSON, so
//! a tournament of hours that is stopped (Ctrl-C, a lost session, a crash) resumes with the
//! same command and plays only the games it lacks. The first line names the tournament
//! (game, agents, games per pair, openings, seed); a journal of any other tournament, or a
//! file that is no journal, is refused and never written to. A tournament may grow: game k
//! of a pair is the same game whatever the games per pair, so resuming with more games
//! appends a header line with the new count and plays only the games added (a narrower
//! interval without playing the first games again); resuming with fewer is refused. A line
//! cut short by a crash is the only damage repaired (it was a game not yet kept); any other
//! bad line is an error naming it.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::arena::game_record::GameRecord;
use crate::games::Describe;
use crate::persist::{MAX_LINE_BYTES, open_regular, read_limited};

/// The version of the journal's lines; a journal of another version is refused.
pub const JOURNAL_FORMAT: u32 = 1;

/// What a journal's first line says: the tournament whose games it keeps. Resuming needs
/// all of it equal, since each game's opening and random stream derive from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalHeader {
    pub format: u32,
    pub game: String,
    pub agents: Vec<String>,
    pub games_per_pair: usize,
    pub opening_plies: u32,
    pub seed: u64,
}

/// One kept game: game `game` of the pair of agents `pair` (indexes into the header's
/// agents, the first lower).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line<R> {
    pair: [usize; 2],
    game: usize,
    record: R,
}

/// Why a journal could not be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("cannot use the journal {path}: {error}")]
    Unusable { path: String, error: std::io::Error },
    #[error("cannot write the journal {path}: {error}")]
    Write { path: String, error: std::io::Error },
    #[error("the journal {path} is in use by another process")]
    InUse { path: String },
    #[error("{path} is not a tournament journal of format {JOURNAL_FORMAT}: {reason}")]
    NotAJournal { path: String, reason: String },
    #[error(
        "the journal {path} keeps another tournament ({differs} differ): resume it with its own settings, or choose another file"
    )]
    OtherTournament { path: String, differs: String },
    #[error(
        "the journal {path} keeps a tournament of {kept} games a pair, more than the {wanted} asked for: resume it with {kept} or more"
    )]
    FewerGames {
        path: String,
        kept: usize,
        wanted: usize,
    },
    #[error("the journal {path} is damaged at line {line}: {reason}")]
    Damaged {
        path: String,
        line: usize,
        reason: String,
    },
}

impl JournalError {
    /// Whether the user gave something wrong (a path, a file or settings), rather than
    /// the machine failing to write.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, JournalError::Write { .. })
    }
}

/// The games an earlier run of the tournament kept, by (pair, game).
pub type KeptGames<G> = HashMap<([usize; 2], usize), GameRecord<G>>;

/// An open journal, locked for this process, to which finished games are appended.
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Opens the journal at `path` for the tournament `header` describes: a new file if
    /// there is none (or it is empty), else the games it kept, each replayed and checked.
    pub fn open<G: Describe>(
        path: &Path,
        header: &JournalHeader,
    ) -> Result<(Journal, KeptGames<G>), JournalError> {
        let shown = path.display().to_string();
        let io = |error: std::io::Error| JournalError::Unusable {
            path: shown.clone(),
            error,
        };
        let exists = match std::fs::symlink_metadata(path) {
            Ok(_) => true,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => false,
            Err(error) => return Err(io(error)),
        };
        if exists {
            // Checked first: a directory, device or pipe is refused before it is opened
            // for writing.
            open_regular(path, journal_limit(header)).map_err(io)?;
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(JournalError::InUse { path: shown });
            }
            Err(std::fs::TryLockError::Error(error)) => return Err(io(error)),
        }
        let bytes = read_limited(path, journal_limit(header)).map_err(io)?;
        let mut journal = Journal {
            path: path.to_path_buf(),
            file,
        };
        if bytes.is_empty() {
            journal.write_line(header)?;
            return Ok((journal, KeptGames::new()));
        }
        let (kept, whole, begun_with) = read_lines(&shown, &bytes, header)?;
        if whole < bytes.len() {
            // The last line was cut short by a stop while it was written: that game was
            // never kept, and the next line must start on a line of its own.
            journal
                .file
                .set_len(whole as u64)
                .map_err(|e| journal.io(e))?;
            journal
                .file
                .seek(SeekFrom::End(0))
                .map_err(|e| journal.io(e))?;
        }
        if begun_with < header.games_per_pair {
            // The tournament grows: the new count is kept before any game of it.
            journal.write_line(header)?;
            journal.file.sync_data().map_err(|e| journal.io(e))?;
        }
        Ok((journal, kept))
    }

    /// Appends finished games of `pair`, `(game index, record)`, and makes them durable.
    pub fn keep<'r, G: Describe + 'r>(
        &mut self,
        pair: [usize; 2],
        games: impl IntoIterator<Item = (usize, &'r GameRecord<G>)>,
    ) -> Result<(), JournalError> {
        for (game, record) in games {
            self.write_line(&Line { pair, game, record })?;
        }
        self.file.sync_data().map_err(|error| self.io(error))
    }

    fn write_line<T: Serialize>(&mut self, value: &T) -> Result<(), JournalError> {
        let mut line = serde_json::to_vec(value).expect("journal lines serialise");
        line.push(b'\n');
        self.file.write_all(&line).map_err(|error| self.io(error))
    }

    fn io(&self, error: std::io::Error) -> JournalError {
        JournalError::Write {
            path: self.path.display().to_string(),
            error,
        }
    }
}

/// The most bytes a journal of `header`'s tournament can hold: a line per game and one for
/// the header, none longer than a line read at most.
fn journal_limit(header: &JournalHeader) -> u64 {
    let pairs = header.agents.len() * header.agents.len().saturating_sub(1) / 2;
    let lines = pairs
        .saturating_mul(header.games_per_pair)
        .saturating_add(1) as u64;
    lines.saturating_mul(MAX_LINE_BYTES as u64)
}

/// The kept games of a journal's `bytes`, the length of its whole lines (a last line
/// without its newline was cut short and is left out) and the games per pair its last
/// header line gives.
fn read_lines<G: Describe>(
    path: &str,
    bytes: &[u8],
    wanted: &JournalHeader,
) -> Result<(KeptGames<G>, usize, usize), JournalError> {
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut lines = bytes[..whole].split(|&b| b == b'\n');
    let not_a_journal = |reason: String| JournalError::NotAJournal {
        path: path.to_string(),
        reason,
    };
    let first = lines.next().filter(|line| !line.is_empty() && whole > 0);
    let header: JournalHeader = match first {
        None => return Err(not_a_journal("its first line is not whole".into())),
        Some(line) => serde_json::from_slice(line)
            .map_err(|error| not_a_journal(format!("its first line: {error}")))?,
    };
    if header.format != JOURNAL_FORMAT {
        return Err(not_a_journal(format!("it is of format {}", header.format)));
    }
    // The games per pair may grow (checked after the lines): the same tournament, longer.
    let differs = differences(&header, wanted);
    if !differs.is_empty() {
        return Err(JournalError::OtherTournament {
            path: path.to_string(),
            differs: differs.join(", "),
        });
    }
    let mut games_per_pair = header.games_per_pair;
    let mut kept = KeptGames::new();
    for (index, line) in lines.enumerate() {
        let number = index + 2;
        let damaged = |reason: String| JournalError::Damaged {
            path: path.to_string(),
            line: number,
            reason,
        };
        if line.is_empty() {
            continue; // the split's piece after the last newline
        }
        if line.len() > MAX_LINE_BYTES {
            return Err(damaged(format!("longer than {MAX_LINE_BYTES} bytes")));
        }
        let entry: Line<GameRecord<G>> = match serde_json::from_slice(line) {
            Ok(entry) => entry,
            Err(error) => match serde_json::from_slice::<JournalHeader>(line) {
                // A tournament grown to more games a pair, and nothing else changed.
                Ok(grown)
                    if grown.games_per_pair > games_per_pair
                        && differences(&header, &grown).is_empty() =>
                {
                    games_per_pair = grown.games_per_pair;
                    continue;
                }
                Ok(_) => return Err(damaged("a header of another tournament".into())),
                Err(_) => return Err(damaged(error.to_string())),
            },
        };
        let [first, second] = entry.pair;
        if first >= second || second >= wanted.agents.len() {
            return Err(damaged(format!(
                "no pair of the {} agents is {:?}",
                wanted.agents.len(),
                entry.pair
            )));
        }
        if entry.game >= games_per_pair {
            return Err(damaged(format!(
                "game {} of a pair playing {games_per_pair}",
                entry.game
            )));
        }
        entry.record.check_ending().map_err(damaged)?;
        if kept
            .insert((entry.pair, entry.game), entry.record)
            .is_some()
        {
            return Err(damaged(format!(
                "game {} of pair {:?} is kept twice",
                entry.game, entry.pair
            )));
        }
    }
    if games_per_pair > wanted.games_per_pair {
        return Err(JournalError::FewerGames {
            path: path.to_string(),
            kept: games_per_pair,
            wanted: wanted.games_per_pair,
        });
    }
    Ok((kept, whole, games_per_pair))
}

/// The names of the settings in which `found` differs from `wanted`, all but the games
/// per pair, by which a tournament may grow.
fn differences(found: &JournalHeader, wanted: &JournalHeader) -> Vec<&'static str> {
    [
        ("the game", found.game == wanted.game),
        ("the agents", found.agents == wanted.agents),
        (
            "the opening plies",
            found.opening_plies == wanted.opening_plies,
        ),
        ("the seed", found.seed == wanted.seed),
    ]
    .into_iter()
    .filter_map(|(name, same)| (!same).then_some(name))
    .collect()
}
