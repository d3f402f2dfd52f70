//! `evoboard show`: a position as a board diagram or as JSON, optionally after some moves.

use clap::Args;
use serde_json::json;

use crate::common::position_or_start;
use crate::error::CliResult;
use evoboard::games::joint::is_joint;
use evoboard::games::{Describe, GameError, MoveList, Notation, Outcome, Player};

/// Show a position (optionally after a list of moves), as text or JSON.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Position string (default: the initial position).
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Comma-separated moves to play first, in the game's notation (e.g. f5,d6,c3).
    #[arg(long, value_delimiter = ',')]
    moves: Vec<String>,
    /// Print one JSON object instead of a diagram.
    #[arg(long)]
    json: bool,
}

pub fn run<G: Describe>(start: G, args: &ShowArgs) -> CliResult {
    let game = replay(
        position_or_start(start, args.position.as_deref())?,
        &args.moves,
    )?;
    if args.json {
        println!("{}", describe_json(&game));
    } else {
        print_diagram(&game);
    }
    Ok(())
}

/// Plays `moves` (checked) from `game`.
pub fn replay<G: Notation>(mut game: G, moves: &[String]) -> Result<G, GameError> {
    for text in moves.iter().filter(|m| !m.trim().is_empty()) {
        let mv = game.parse_move(text)?;
        game = game.play(mv)?;
    }
    Ok(game)
}

fn legal_strings<G: Notation>(game: &G) -> Vec<String> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves.iter().map(|&mv| game.format_move(mv)).collect()
}

/// The `show --json` object: game, position, to_move (0/1), simultaneous (both choose at
/// once: Congkak's opening), legal, terminal, score, board.
pub fn describe_json<G: Describe>(game: &G) -> serde_json::Value {
    json!({
        "schema": "evoboard.show/1",
        "game": game.name(),
        "position": game.to_position_string(),
        "to_move": game.to_move().index(),
        "simultaneous": is_joint(game),
        "legal": legal_strings(game),
        "terminal": game.outcome().is_some(),
        "score": game.score(),
        "board": game.board_lines(),
    })
}

fn print_diagram<G: Describe>(game: &G) {
    for line in game.board_lines() {
        println!("{line}");
    }
    println!("position: {}", game.to_position_string());
    match game.outcome() {
        Some(outcome) => {
            let result = match outcome {
                Outcome::Win(Player::First) => "first player wins",
                Outcome::Win(Player::Second) => "second player wins",
                Outcome::Draw => "draw",
            };
            let [first, second] = game.score();
            println!("game over: {result}, {first}–{second}");
        }
        None => println!("legal: {}", legal_strings(game).join(" ")),
    }
}
