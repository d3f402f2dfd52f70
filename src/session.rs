//! A game people play against engines, one move at a time: the positions so far (for
//! undo), what each move did in words, hints, the result and the saved record. The terminal
//! (`play`) and the web page (`serve`) share it, so both say and save the same things.

use crate::arena::{History, SearchAgent};
use crate::games::joint::{format_part, is_joint};
use crate::games::{Describe, Game, MoveList, Notation, Outcome, Player};
use crate::search::Limits;

/// A game in progress from a start position: every move played and the position before it.
#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    start: G,
    game: G,
    /// The position before each move, for undo.
    before: Vec<G>,
    moves: Vec<G::Move>,
}

impl<G: Describe> Session<G> {
    /// A session at `start`.
    pub fn new(start: G) -> Session<G> {
        Session {
            game: start.clone(),
            start,
            before: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// The start position.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The position now.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The position before the last move, if any was played.
    pub fn previous(&self) -> Option<&G> {
        self.before.last()
    }

    /// Plays `mv`, which must be legal now.
    pub fn play(&mut self, mv: G::Move) {
        debug_assert!(
            self.game.is_legal(mv),
            "an illegal move reached the session"
        );
        self.before.push(self.game.clone());
        self.moves.push(mv);
        self.game.play_unchecked(mv);
    }

    /// Back to the position before `side`'s last move (or last simultaneous choice);
    /// `false` if `side` has not moved.
    pub fn undo(&mut self, side: Player) -> bool {
        let Some(index) = self
            .before
            .iter()
            .rposition(|g| g.to_move() == side || is_joint(g))
        else {
            return false;
        };
        self.moves.truncate(index);
        self.game = self.before[index].clone();
        self.before.truncate(index);
        true
    }

    /// The game so far, for an agent that needs it (a GTP engine replays it).
    pub fn history(&self) -> History<'_, G> {
        History {
            start: &self.start,
            moves: &self.moves,
            spent: None,
        }
    }

    /// The moves played, in the game's notation.
    pub fn move_texts(&self) -> Vec<String> {
        self.moves
            .iter()
            .map(|&mv| self.start.format_move(mv))
            .collect()
    }

    /// The result read out, winner's score first (`black (X) wins 40–24`, `draw 24–24`),
    /// once the game is over.
    pub fn result(&self) -> Option<String> {
        let outcome = self.game.outcome()?;
        let [a, b] = self.game.score();
        Some(match outcome {
            Outcome::Win(p) => {
                let (winner, loser) = if p == Player::First { (a, b) } else { (b, a) };
                format!("{} wins {winner}–{loser}", self.game.player_name(p))
            }
            Outcome::Draw => format!("draw {a}–{b}"),
        })
    }

    /// The saved record of a finished game (game, start position, moves, result), as
    /// `show --moves` reads it back; `None` while the game goes on.
    pub fn record(&self) -> Option<String> {
        let result = self.result()?;
        Some(format!(
            "game: {}\nstart: {}\nmoves: {}\nresult: {result}\n",
            self.start.name(),
            self.start.to_position_string(),
            self.move_texts().join(",")
        ))
    }
}

/// `player`'s legal choices in `game`, in the game's notation (own parts at a simultaneous
/// decision, each once).
pub fn legal_parts<G: Notation>(game: &G, player: Player) -> Vec<String> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mut parts: Vec<String> = Vec::new();
    for &mv in &moves {
        let part = format_part(game, mv, player);
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    parts
}

/// Every choice of `player` in `game` with its value for `engine`, best first (hints):
/// within `limits` when given, else at the engine's own depth and time limit.
pub fn hints<G: Notation>(
    engine: &SearchAgent<G>,
    game: &G,
    player: Player,
    limits: Option<Limits<'_>>,
) -> Vec<(String, f32)> {
    let (values, _) = engine.move_values(game, limits);
    // `+ 0.0` turns a negative zero into zero.
    values
        .iter()
        .map(|(mv, value)| (format_part(game, *mv, player), value + 0.0))
        .collect()
}

/// What a move did, beyond moving: relays, captures, the game's own notes (flips, a round's
/// end), score changes, extra turns.
pub fn effect<G: Describe>(previous: &G, now: &G) -> String {
    let mover = previous.to_move();
    let facts = now.last_move();
    let mut notes = Vec::new();
    match facts.relays {
        0 => {}
        1 => notes.push("1 relay".to_string()),
        laps => notes.push(format!("{laps} relays")),
    }
    if facts.captured {
        notes.push("captures".to_string());
    }
    notes.extend(now.move_notes(previous));
    if previous.score() != now.score() {
        let [a, b] = now.score();
        notes.push(format!("score {a}–{b}"));
    }
    if now.outcome().is_none() {
        if is_joint(now) {
            notes.push("both choose again".to_string());
        } else if is_joint(previous) {
            notes.push(format!("{} moves next", now.player_name(now.to_move())));
        } else if facts.extra_turn && now.to_move() == mover {
            notes.push("and moves again".to_string());
        }
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    }
}

/// The last move as read out: `South plays 3 (score 1–0, and moves again)`, `both play 2/5`.
pub fn announce<G: Describe>(previous: &G, now: &G, mv: G::Move) -> String {
    let (name, verb) = if is_joint(previous) {
        ("both", "play")
    } else {
        (previous.player_name(previous.to_move()), "plays")
    };
    format!(
        "{name} {verb} {}{}",
        previous.format_move(mv),
        effect(previous, now)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mancala::Kalah;

    #[test]
    fn undo_returns_to_the_sides_previous_turn_and_the_record_reads_back() {
        let mut session = Session::new(Kalah::game(6, 4, false));
        let start = session.game().clone();
        assert!(!session.undo(Player::First), "nothing to undo yet");
        // Pit 3 ends in South's store: South moves again, then sows pit 1.
        session.play(start.parse_move("3").unwrap());
        let after_three = session.game().clone();
        assert_eq!(after_three.to_move(), Player::First);
        session.play(after_three.parse_move("1").unwrap());
        assert_eq!(session.move_texts(), ["3", "1"]);
        assert!(session.undo(Player::First));
        assert_eq!(session.move_texts(), ["3"]);
        assert_eq!(session.game(), &after_three);
        assert!(session.undo(Player::First));
        assert_eq!(session.game(), &start);
        assert_eq!(session.record(), None, "no record before the end");
    }

    #[test]
    fn announce_names_the_mover_and_the_extra_turn() {
        let start = Kalah::game(6, 4, false);
        let mut now = start.clone();
        let mv = start.parse_move("3").unwrap();
        now.play_unchecked(mv);
        assert_eq!(
            announce(&start, &now, mv),
            "South plays 3 (score 1–0, and moves again)"
        );
    }
}
