//! `evoboard gtp`: an Othello engine speaking GTP (version 2) on stdin/stdout, the mirror
//! of `evoboard nboard` for programs that drive engines by GTP (and what `gtp:` specs are
//! tested against).
//!
//! Understood: `protocol_version`, `name`, `version`, `boardsize 8` (other sizes are
//! refused), `clear_board`, `play b|w MOVE` (`d3` or `pass`: evoboard's squares, row 1 at
//! the top), `genmove b|w` (the move is played and answered), `time_settings MAIN BYO
//! STONES` (a move may then take BYO/STONES seconds, never more than `--move-time`),
//! `list_commands`, `known_command NAME` and `quit`; other commands are refused. A command
//! may start with an id, which its answer repeats (`=ID …` or `?ID …`, then an empty
//! line); `#` starts a comment. A colour asked to move while the other side must pass
//! passes for it first. Lines are bounded as in `nboard`.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;

use crate::common::{LineRead, MAX_LINE_BYTES, read_text_line};
use crate::error::CliResult;
use crate::nboard::move_time;
use evoboard::arena::{AgentSpec, History};
use evoboard::games::othello::{Move, Othello};
use evoboard::games::{Game, MoveList, Notation, Player};
use evoboard::rng::rng_for;
use evoboard::search::Limits;

#[derive(Debug, Args)]
pub struct GtpArgs {
    /// The engine: any agent spec, e.g. `champion:populations/othello/champion.evo`.
    #[arg(long, default_value = "heuristic:4")]
    player: String,
    /// Longest think per `genmove`, in seconds, whatever `time_settings` allows.
    #[arg(long, default_value_t = 5.0, value_parser = move_time)]
    move_time: f64,
}

/// The commands answered, as `list_commands` gives them.
const COMMANDS: [&str; 11] = [
    "protocol_version",
    "name",
    "version",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "time_settings",
    "list_commands",
    "known_command",
    "quit",
];

pub fn run(args: &GtpArgs) -> CliResult {
    let input = std::io::stdin().lock();
    let move_time = Duration::from_secs_f64(args.move_time);
    serve(&args.player, move_time, input, &mut std::io::stdout())
}

/// Answers GTP commands from `input` on `out` until `quit` or the input's end; searches
/// think at most `move_time`.
pub fn serve(
    spec: &str,
    move_time: Duration,
    mut input: impl BufRead,
    out: &mut impl Write,
) -> CliResult {
    let start = Othello::start();
    let spec: AgentSpec = spec.parse()?;
    let searcher = spec.searcher(&start)?;
    // random and first do not search: they play as built.
    let agent = spec.build(&start)?;
    // A time limit in the spec itself holds too: the shorter one wins.
    let longest = searcher
        .as_ref()
        .and_then(|s| s.move_time)
        .map_or(move_time, |own| own.min(move_time));
    let mut think = longest;
    let mut game = start;
    let mut rng = rng_for(1, &[]);
    let never = AtomicBool::new(false);
    let mut line = String::new();
    loop {
        match read_text_line(&mut input, &mut line)? {
            LineRead::End => return Ok(()),
            LineRead::NotText => {
                answer(out, "", Err("a line that is not UTF-8 text".into()))?;
                continue;
            }
            LineRead::TooLong => {
                let refusal = format!("a line longer than {MAX_LINE_BYTES} bytes");
                answer(out, "", Err(refusal))?;
                continue;
            }
            LineRead::Text => {}
        }
        let text = line.split('#').next().unwrap_or_default();
        let mut words = text.split_whitespace();
        let Some(first) = words.next() else {
            continue;
        };
        let (id, command) = if first.bytes().all(|b| b.is_ascii_digit()) {
            (first, words.next().unwrap_or_default())
        } else {
            ("", first)
        };
        let args: Vec<&str> = words.collect();
        let result = match (command, args.as_slice()) {
            ("protocol_version", _) => Ok("2".to_string()),
            ("name", _) => Ok("evoboard".to_string()),
            ("version", _) => Ok(env!("CARGO_PKG_VERSION").to_string()),
            ("boardsize", ["8"]) => Ok(String::new()),
            ("boardsize", _) => Err("unacceptable size: Othello is played on 8x8".into()),
            ("clear_board", _) => {
                game = start;
                Ok(String::new())
            }
            ("play", [colour, mv]) => to_turn(&mut game, colour).and_then(|()| {
                let next = game
                    .parse_move(mv)
                    .and_then(|mv| game.play(mv))
                    .map_err(|error| format!("illegal move: {error}"))?;
                game = next;
                Ok(String::new())
            }),
            ("genmove", [colour]) => to_turn(&mut game, colour).and_then(|()| {
                if game.count_moves() == 0 {
                    return Ok("pass".to_string());
                }
                let mv = match &searcher {
                    Some(searcher) => {
                        let limits = Limits {
                            deadline: Instant::now() + think,
                            stop: &never,
                        };
                        let result = searcher.search_within(&game, limits).0;
                        result.best.unwrap_or(Move::PASS)
                    }
                    None => match agent.choose(&game, History::at(&game), &mut rng) {
                        Ok(mv) => mv,
                        Err(forfeit) => return Err(forfeit.reason),
                    },
                };
                game.play_unchecked(mv);
                Ok(vertex(mv))
            }),
            ("time_settings", [_, byo_yomi, stones]) => {
                match (byo_yomi.parse::<f64>(), stones.parse::<f64>()) {
                    (Ok(time), Ok(stones)) if time >= 0.0 && stones >= 0.0 => {
                        if time > 0.0 && stones > 0.0 {
                            // Beyond what a Duration holds is as long as the longest.
                            let per_move = Duration::try_from_secs_f64(time / stones);
                            think = longest.min(per_move.unwrap_or(longest));
                        }
                        Ok(String::new())
                    }
                    _ => Err("time_settings takes three numbers".into()),
                }
            }
            ("list_commands", _) => Ok(COMMANDS.join("\n")),
            ("known_command", [name]) => Ok(COMMANDS.contains(name).to_string()),
            ("quit", _) => Ok(String::new()),
            ("play" | "genmove" | "time_settings" | "known_command", _) => {
                Err(format!("wrong arguments for {command}"))
            }
            _ => Err("unknown command".into()),
        };
        answer(out, id, result)?;
        if command == "quit" {
            return Ok(());
        }
    }
}

/// Makes it `colour`'s turn: it is, the other side must pass first, or the game is over.
fn to_turn(game: &mut Othello, colour: &str) -> Result<(), String> {
    let side = match colour.to_ascii_lowercase().as_str() {
        "b" | "black" => Player::First,
        "w" | "white" => Player::Second,
        _ => return Err(format!("'{colour}' is not a colour (b or w)")),
    };
    if game.to_move() == side || game.count_moves() == 0 {
        return Ok(());
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if moves.as_slice() == [Move::PASS] {
        game.play_unchecked(Move::PASS);
        return Ok(());
    }
    Err(format!("it is not {colour}'s turn"))
}

/// A move as GTP engines write vertices: upper-case squares, `pass`.
fn vertex(mv: Move) -> String {
    match mv.square() {
        Some(_) => mv.to_string().to_uppercase(),
        None => "pass".to_string(),
    }
}

/// Writes the answer to command `id`: `=ID text` or `?ID reason`, then an empty line.
fn answer(out: &mut impl Write, id: &str, result: Result<String, String>) -> std::io::Result<()> {
    let (mark, text) = match result {
        Ok(text) => ('=', text),
        Err(reason) => ('?', reason),
    };
    let gap = if text.is_empty() { "" } else { " " };
    write!(out, "{mark}{id}{gap}{text}\n\n")?;
    out.flush()
}
