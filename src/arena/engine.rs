//! External engines as agents: another program, started as a child process, chooses the
//! moves over a text protocol, so champions can be measured against real engines. Two
//! protocols, both for Othello:
//! - NBoard: each move is asked statelessly, `set game` with the position as a GGF record,
//!   `ping N` (the engine is in step once it answers `pong N`), then `go`, answered by
//!   `=== MOVE[/EVAL[/TIME]]`.
//! - GTP: a game, not a position, so each move replays the game from the standard start
//!   (`clear_board`, then `play b|w MOVE` for every move; a series' opening is reached by
//!   a line of moves found from the start) and asks `genmove b|w`. Commands carry ids;
//!   the engine gets `boardsize 8` and `time_settings 0 SECONDS 1` when it starts.
//!
//! Moves are written as evoboard writes them (`d3`, `pass`: row 1 at the top), and a
//! forced pass is played without asking (a GTP engine that refuses to be told of one is
//! told the rest of the game all the same: each move names its colour).
//!
//! Games run in parallel and share the agent, so it keeps a pool of engine processes: a
//! move takes an idle one or starts one, and gives it back afterwards. At most one process
//! per game in play at once is alive, so the worker threads bound their number. An engine
//! that dies, answers something that is not a legal move, sends a line that is not text or
//! longer than [`MAX_LINE_BYTES`](crate::persist::MAX_LINE_BYTES), or does not answer in
//! time forfeits the game ([`Forfeit`] names the engine and what it did) and its process
//! is killed. Every wait has a deadline, so a stuck engine never hangs a series. Processes
//! (with any children they started) are killed and reaped when the agent is dropped.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

use crate::arena::agent::{Agent, Forfeit, History};
use crate::arena::process_groups;
use crate::games::othello::{Move, Othello};
use crate::games::{Game, MoveList, Notation, Player};
use crate::persist::{LineRead, read_text_line};
use crate::rng::GameRng;

/// Think time per move of an engine whose spec has no `~SECONDS`.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(30);

/// How much later than its move time an engine's answer may arrive (pipes and process
/// scheduling are not the engine's thinking).
pub const GRACE: Duration = Duration::from_secs(1);

/// How long an engine may take to start, or to take in a position or game (all of a
/// GTP replay together).
pub const SYNC_TIME: Duration = Duration::from_secs(10);

/// Most positions searched for a line of moves from the start to an opening: the bound on
/// the work for a position that no short line reaches.
const LINE_SEARCH_NODES: usize = 1_000_000;

/// Lines of an engine's output read ahead of the agent, and lines of its input waiting to
/// be written.
const READ_AHEAD: usize = 64;

/// Longest piece of an engine's answer quoted in a forfeit's reason.
const QUOTED_CHARS: usize = 60;

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Nboard,
    Gtp,
}

impl Protocol {
    /// Every protocol, in the order specs are tried.
    pub const ALL: [Protocol; 2] = [Protocol::Nboard, Protocol::Gtp];

    /// What starts its specs (`nboard:`, `gtp:`).
    pub fn prefix(self) -> &'static str {
        match self {
            Protocol::Nboard => "nboard:",
            Protocol::Gtp => "gtp:",
        }
    }
}

/// An Othello engine speaking `protocol`, run as `command` (program, then its
/// arguments), with at most `move_time` (plus [`GRACE`]) to answer each move.
pub struct EngineAgent {
    protocol: Protocol,
    command: Vec<String>,
    label: String,
    move_time: Duration,
    idle: Mutex<Vec<EngineProcess>>,
}

impl EngineAgent {
    /// An agent named `label` that starts `command` (non-empty) when a game first needs it.
    pub fn new(
        protocol: Protocol,
        command: Vec<String>,
        label: String,
        move_time: Option<Duration>,
    ) -> EngineAgent {
        assert!(!command.is_empty(), "an engine needs a program to run");
        EngineAgent {
            protocol,
            command,
            label,
            move_time: move_time.unwrap_or(DEFAULT_MOVE_TIME),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Starts one engine process and waits for it to answer its greeting, keeping it for
    /// the first game: why it cannot, if it cannot.
    pub fn start(&self) -> Result<(), String> {
        let process = self.take()?;
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(process);
        Ok(())
    }

    /// An idle engine process, or a new one that has answered its greeting.
    fn take(&self) -> Result<EngineProcess, String> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        if let Some(process) = idle {
            return Ok(process);
        }
        let mut process = EngineProcess::spawn(&self.command)?;
        match self.protocol {
            Protocol::Nboard => {
                process.send("nboard 2")?;
                process.sync()?;
            }
            Protocol::Gtp => {
                let wait = Wait::new("boardsize and time_settings", SYNC_TIME);
                process.gtp("boardsize 8", &wait)??;
                // Whole seconds, as GTP has them; an engine without clocks may refuse.
                let seconds = self.move_time.as_secs_f64().ceil().max(1.0);
                let _ = process.gtp(&format!("time_settings 0 {seconds} 1"), &wait)?;
            }
        }
        Ok(process)
    }

    /// The engine's move at `game`, reached by `history`, checked legal.
    fn ask(
        &self,
        process: &mut EngineProcess,
        game: &Othello,
        history: History<'_, Othello>,
    ) -> Result<Move, String> {
        let answer = match self.protocol {
            Protocol::Nboard => {
                process.send(&format!("set game {}", ggf(game)))?;
                process.sync()?;
                process.send("go")?;
                let wait = Wait::new("go", self.move_time + GRACE);
                loop {
                    // Other lines (`status`, `search`, `nodestats`…) are the engine's news.
                    let line = process.line(&wait)?;
                    if let Some(answer) = line.strip_prefix("===") {
                        let text = answer.split('/').next().unwrap_or_default().trim();
                        break (text.to_string(), line, "go");
                    }
                }
            }
            Protocol::Gtp => {
                let opening = line_from_start(history.start).ok_or(
                    "cannot be given this game: no line of moves from the start reaches its \
                     opening",
                )?;
                let wait = Wait::new("the game's moves", SYNC_TIME);
                process.gtp("clear_board", &wait)??;
                let mut position = Othello::start();
                for &mv in opening.iter().chain(history.moves) {
                    let colour = gtp_colour(position.to_move());
                    let played = process.gtp(&format!("play {colour} {mv}"), &wait)?;
                    // Every GTP move names its colour, so a pass changes nothing the engine
                    // is told later: one that refuses passes (GRhino's `gtp-rhino` passes
                    // for itself) is given the game without them.
                    if mv != Move::PASS {
                        played?;
                    }
                    position.play_unchecked(mv);
                }
                debug_assert_eq!(position, *game, "the history leads to the position");
                let command = format!("genmove {}", gtp_colour(game.to_move()));
                let wait = Wait::new("genmove", self.move_time + GRACE);
                let text = process.gtp(&command, &wait)??;
                if text.eq_ignore_ascii_case("resign") {
                    return Err("resigned".to_string());
                }
                (text.clone(), format!("= {text}"), "genmove")
            }
        };
        let (text, line, command) = answer;
        let mv = Move::parse(&text)
            .map_err(|_| format!("answered '{}' to {command}: not a move", quoted(&line)))?;
        if !game.is_legal(mv) {
            return Err(format!(
                "played {mv}, an illegal move in position {}",
                game.to_position_string()
            ));
        }
        Ok(mv)
    }
}

impl Agent<Othello> for EngineAgent {
    fn choose(
        &self,
        game: &Othello,
        history: History<'_, Othello>,
        _rng: &mut GameRng,
    ) -> Result<Move, Forfeit> {
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        if moves.as_slice() == [Move::PASS] {
            return Ok(Move::PASS);
        }
        let forfeit = |problem: String| Forfeit {
            reason: format!("engine '{}' {problem}", self.label),
        };
        let mut process = self.take().map_err(forfeit)?;
        // A process that failed is dropped here, which kills it.
        let mv = self.ask(&mut process, game, history).map_err(forfeit)?;
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(process);
        Ok(mv)
    }

    fn name(&self) -> String {
        self.label.clone()
    }
}

/// GTP's name of a side: black moves first.
fn gtp_colour(side: Player) -> &'static str {
    match side {
        Player::First => "b",
        Player::Second => "w",
    }
}

/// A line of moves from the standard start to `target`, passes included, if one is
/// found within `LINE_SEARCH_NODES` positions: every disc placed must be on a square
/// `target` has filled.
pub fn line_from_start(target: &Othello) -> Option<Vec<Move>> {
    fn walk(
        position: &Othello,
        target: &Othello,
        filled: u64,
        line: &mut Vec<Move>,
        budget: &mut usize,
    ) -> bool {
        if position == target {
            return true;
        }
        let here = position.discs(Player::First) | position.discs(Player::Second);
        if *budget == 0 || here & !filled != 0 || here == filled {
            return false;
        }
        *budget -= 1;
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        for mv in moves {
            if mv.square().is_some_and(|square| filled >> square & 1 == 0) {
                continue;
            }
            let mut next = *position;
            next.play_unchecked(mv);
            line.push(mv);
            if walk(&next, target, filled, line, budget) {
                return true;
            }
            line.pop();
        }
        false
    }
    let filled = target.discs(Player::First) | target.discs(Player::Second);
    let mut line = Vec::new();
    let mut budget = LINE_SEARCH_NODES;
    walk(&Othello::start(), target, filled, &mut line, &mut budget).then_some(line)
}

/// `game` as a GGF record with no moves: its board and side to move (`*` black, `O` white,
/// `-` empty), which is all an NBoard engine needs to choose a move.
pub fn ggf(game: &Othello) -> String {
    let position = game.to_position_string().replace('X', "*");
    let (squares, side) = position.split_once(' ').unwrap_or((&position, "*"));
    format!("(;GM[Othello]PC[evoboard]TY[8]BO[8 {squares} {side}];)")
}

/// The start of `line`, short enough to quote in a message.
fn quoted(line: &str) -> String {
    match line.char_indices().nth(QUOTED_CHARS) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line.to_string(),
    }
}

/// How long the answer to a command may take.
struct Wait {
    command: &'static str,
    limit: Duration,
    deadline: Instant,
}

impl Wait {
    /// Waiting from now for the answer to `command`, for at most `limit`.
    fn new(command: &'static str, limit: Duration) -> Wait {
        Wait {
            command,
            limit,
            deadline: Instant::now() + limit,
        }
    }
}

/// A GTP answer line to command `id` (or without an id): whether it is a success (`=`)
/// and its text.
fn gtp_answer<'a>(line: &'a str, id: &str) -> Option<(bool, &'a str)> {
    let success = line.starts_with('=');
    let rest = line.strip_prefix(['=', '?'])?;
    let rest = rest.strip_prefix(id).unwrap_or(rest);
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then(|| (success, rest.trim()))
}

/// What an engine's reader thread hands over.
enum Output {
    Line(String),
    /// A line that is not text, or too long: why.
    Unreadable(&'static str),
    End,
}

/// A running engine: its input and output lines, each on a thread of its own (so that
/// every wait has a deadline, and a write into a dead engine's pipe kills nothing), and
/// the number of the last `ping` (NBoard) or command (GTP).
struct EngineProcess {
    child: Child,
    input: SyncSender<String>,
    output: Receiver<Output>,
    pings: u64,
    /// The engine's process group, in the registry that a signal ending evoboard kills.
    group: Option<process_groups::Registered>,
}

impl EngineProcess {
    /// Starts `command` in a process group of its own (so that killing it kills what it
    /// started), its error output discarded.
    fn spawn(command: &[String]) -> Result<EngineProcess, String> {
        let mut builder = Command::new(&command[0]);
        builder
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut builder, 0);
        let mut child = builder
            .spawn()
            .map_err(|error| format!("could not be started: {error}"))?;
        let child_id = child.id();
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (input, lines) = sync_channel(READ_AHEAD);
        std::thread::spawn(move || write_lines(stdin, lines));
        let (sender, output) = sync_channel(READ_AHEAD);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            loop {
                let next = match read_text_line(&mut reader, &mut line) {
                    Ok(LineRead::Text) => Output::Line(line.trim_end().to_string()),
                    Ok(LineRead::NotText) => Output::Unreadable("a line that is not UTF-8 text"),
                    Ok(LineRead::TooLong) => Output::Unreadable("a line too long to read"),
                    Ok(LineRead::End) | Err(_) => Output::End,
                };
                let last = matches!(next, Output::End);
                // The agent has dropped the process: nobody reads any more.
                if sender.send(next).is_err() || last {
                    return;
                }
            }
        });
        Ok(EngineProcess {
            child,
            input,
            output,
            pings: 0,
            group: i32::try_from(child_id).ok().map(process_groups::register),
        })
    }

    /// Sends one line.
    fn send(&mut self, line: &str) -> Result<(), String> {
        match self.input.try_send(line.to_string()) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err("does not read its input".to_string()),
            Err(TrySendError::Disconnected(_)) => Err(self.gone()),
        }
    }

    /// The next line of output, if it comes within `wait`.
    fn line(&mut self, wait: &Wait) -> Result<String, String> {
        let left = wait.deadline.saturating_duration_since(Instant::now());
        match self.output.recv_timeout(left) {
            Ok(Output::Line(line)) => Ok(line),
            Ok(Output::Unreadable(what)) => Err(format!("sent {what}")),
            Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "did not answer {} within {:.1} s",
                wait.command,
                wait.limit.as_secs_f64()
            )),
        }
    }

    /// Sends `ping N` and skips the output up to `pong N` (within [`SYNC_TIME`]): the
    /// engine has taken in everything sent before.
    fn sync(&mut self) -> Result<(), String> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings))?;
        let wait = Wait::new("ping", SYNC_TIME);
        while self.line(&wait)?.trim() != pong {}
        Ok(())
    }

    /// Sends a GTP `command` with the next id and waits for its answer: the engine's
    /// text after `=`, or (inner error) its refusal after `?`. Lines that answer nothing
    /// are skipped.
    fn gtp(&mut self, command: &str, wait: &Wait) -> Result<Result<String, String>, String> {
        self.pings += 1;
        let id = self.pings.to_string();
        self.send(&format!("{id} {command}"))?;
        loop {
            let line = self.line(wait)?;
            let Some((success, text)) = gtp_answer(&line, &id) else {
                continue;
            };
            return Ok(if success {
                Ok(text.to_string())
            } else {
                Err(format!("refused '{command}': {}", quoted(text)))
            });
        }
    }

    /// Why the engine no longer talks: how it ended, once it has. The process is left
    /// unreaped (a zombie keeps its id, so its group can still be killed in [`Drop`]).
    fn gone(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Some(ended) = self.ended() {
                return format!("ended ({ended})");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        "closed its output".to_string()
    }

    /// How the process ended, if it has, without reaping it.
    #[cfg(unix)]
    fn ended(&self) -> Option<String> {
        let pid = libc::id_t::try_from(self.child.id()).ok()?;
        // SAFETY: `waitid` writes a `siginfo_t` it is given; WNOWAIT leaves the child
        // waitable.
        let info = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            if libc::waitid(libc::P_PID, pid, &mut info, flags) != 0 || info.si_pid() == 0 {
                return None;
            }
            info
        };
        // SAFETY: filled by `waitid` for a child that ended.
        let status = unsafe { info.si_status() };
        Some(match info.si_code {
            libc::CLD_EXITED => format!("exit status: {status}"),
            _ => format!("signal: {status}"),
        })
    }

    #[cfg(not(unix))]
    fn ended(&mut self) -> Option<String> {
        Some(self.child.try_wait().ok()??.to_string())
    }
}

/// Writes `lines` into an engine's input until it fails or the agent drops the process.
/// A pipe whose reader has gone raises SIGPIPE, which the `evoboard` binary does not
/// ignore: it is blocked on this thread (where it stays pending until the thread ends),
/// so the write just fails.
fn write_lines(mut stdin: ChildStdin, lines: Receiver<String>) {
    #[cfg(unix)]
    unsafe {
        let mut blocked: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut blocked);
        libc::sigaddset(&mut blocked, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &blocked, std::ptr::null_mut());
    }
    for line in lines {
        if writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

impl Drop for EngineProcess {
    /// Kills the engine's whole group (what it started too), then reaps it: the group is
    /// killed while its leader is unreaped, so the id cannot belong to anyone else yet.
    fn drop(&mut self) {
        if let Ok(group) = i32::try_from(self.child.id()) {
            process_groups::kill_group(group);
        }
        let _ = self.child.kill();
        self.group = None;
        let _ = self.child.wait();
    }
}
