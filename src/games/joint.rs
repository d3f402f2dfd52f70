//! Simultaneous decisions, opted into through [`Game::joint`]: both players choose the
//! next move at once, neither seeing the other's choice (Congkak's opening).
//!
//! Every legal move at such a decision is a joint move. A copy of the position "seen by" a
//! player has that player to move, and a player controls only their own part of the move
//! played. The helpers here are the one place where the arena and `play` meet joint
//! decisions; the search values them by the chooser's maximin (`search::maximin`).

use crate::games::{Game, GameError, Notation, Player};

/// The extension a game implements for its simultaneous decisions.
pub trait JointDecision<G: Game> {
    /// The position as `player` chooses in it: a copy whose `to_move` is `player`.
    fn seen_by(&self, player: Player) -> G;

    /// `player`'s part of joint move `mv` (a small index: two joint moves with the same
    /// part are the same choice for `player`).
    fn part(&self, mv: G::Move, player: Player) -> u8;

    /// The joint move made of the first player's part of `first` and the second player's
    /// part of `second`.
    fn merge(&self, first: G::Move, second: G::Move) -> G::Move;

    /// Reads `player`'s own part as people write it (a Congkak hole), as a joint move whose
    /// other part is a placeholder for [`JointDecision::merge`].
    fn parse_part(&self, text: &str, player: Player) -> Result<G::Move, GameError>;

    /// Writes `player`'s own part of `mv` (what [`JointDecision::parse_part`] reads).
    fn format_part(&self, mv: G::Move, player: Player) -> String;
}

/// Whether both players choose the next move of `game` at once.
pub fn is_joint<G: Game>(game: &G) -> bool {
    game.joint().is_some()
}

/// The move to play at `game`: `choose(view, player)` is asked for each chooser's move,
/// on the position as that player sees it, and at a joint decision the two answers are
/// merged so that each player decides only their own part.
pub fn gather_move<G: Game, E>(
    game: &G,
    mut choose: impl FnMut(&G, Player) -> Result<G::Move, E>,
) -> Result<G::Move, E> {
    match game.joint() {
        None => choose(game, game.to_move()),
        Some(joint) => {
            let first = choose(&joint.seen_by(Player::First), Player::First)?;
            let second = choose(&joint.seen_by(Player::Second), Player::Second)?;
            Ok(joint.merge(first, second))
        }
    }
}

/// Reads `player`'s choice as people write it: their own part at a joint decision (see
/// [`JointDecision::parse_part`]), else a whole move.
pub fn parse_part<G: Notation>(game: &G, text: &str, player: Player) -> Result<G::Move, GameError> {
    match game.joint() {
        Some(joint) => joint.parse_part(text, player),
        None => game.parse_move(text),
    }
}

/// Writes `player`'s choice in `mv` as people write it: their own part at a joint
/// decision, else the whole move.
pub fn format_part<G: Notation>(game: &G, mv: G::Move, player: Player) -> String {
    match game.joint() {
        Some(joint) => joint.format_part(mv, player),
        None => game.format_move(mv),
    }
}
