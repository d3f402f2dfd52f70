//! What the page receives about a game: the view of `GET /api/games/ID` (seats, board,
//! who chooses now and with which moves, log, result) and the hints of one player. Plain
//! data, serialised as the page's JSON.

use serde::Serialize;

use crate::live::board::Drawing;

/// A game as the page sees it (what `GET /api/games/ID` answers).
#[derive(Debug, Serialize)]
pub struct View {
    pub id: u64,
    pub game: &'static str,
    /// Each side's name and who plays it (`human` or the agent spec).
    pub seats: [SeatView; 2],
    pub board: Drawing,
    /// The players who choose now: one, or both at a simultaneous decision; none at the end.
    pub choosers: Vec<Chooser>,
    pub score: [i32; 2],
    /// Every move so far, announced with what it did.
    pub log: Vec<String>,
    /// The moves in the game's notation (what a record holds).
    pub moves: Vec<String>,
    pub over: bool,
    /// `South wins 30–18`, `draw 24–24`, `North resigns`, once the game is over.
    pub result: Option<String>,
    /// Whether the finished game can be saved as a record.
    pub recordable: bool,
}

#[derive(Debug, Serialize)]
pub struct SeatView {
    pub name: &'static str,
    pub player: String,
    pub human: bool,
}

/// One player who chooses now.
#[derive(Debug, Serialize)]
pub struct Chooser {
    pub side: usize,
    pub human: bool,
    /// At a simultaneous decision: this side has chosen (its choice stays hidden).
    pub chosen: bool,
    /// The legal moves (own parts at a simultaneous decision) and where each is played.
    pub legal: Vec<LegalMove>,
}

#[derive(Debug, Serialize)]
pub struct LegalMove {
    pub text: String,
    pub at: Option<usize>,
}

/// Hints for one player: every choice and its search value, best first.
#[derive(Debug, Serialize)]
pub struct Hints {
    pub engine: String,
    pub side: usize,
    pub hints: Vec<Hint>,
}

#[derive(Debug, Serialize)]
pub struct Hint {
    #[serde(rename = "move")]
    pub text: String,
    pub value: f32,
}
