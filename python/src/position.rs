//! A position of any of the five games behind one type, so Python sees one `State` class:
//! [`Position`] holds the game's own type, [`Member`] goes from a game type to its variant
//! and back, and [`with_position!`](crate::with_position) runs generic code on whichever
//! game a position is.

use evoboard::Othello;
use evoboard::eval::NamedEvaluators;
use evoboard::games::mancala::{Congkak, Congklak, Kalah, Mancala, Oware};
use evoboard::games::{GameError, GameName, Perft};

/// A position of one of the built-in games.
#[derive(Clone, Debug)]
pub enum Position {
    Othello(Othello),
    Kalah(Mancala<Kalah>),
    Oware(Mancala<Oware>),
    Congklak(Mancala<Congklak>),
    Congkak(Congkak),
}

/// A game type that a [`Position`] can hold: everything the bindings do to a game.
pub trait Member: NamedEvaluators + Perft {
    /// The position as a [`Position`].
    fn wrap(self) -> Position;
    /// The game's own position, if `position` is of this game.
    fn peek(position: &Position) -> Option<&Self>;
}

macro_rules! members {
    ($($variant:ident: $game:ty),+) => {
        $(impl Member for $game {
            fn wrap(self) -> Position {
                Position::$variant(self)
            }
            fn peek(position: &Position) -> Option<&Self> {
                match position {
                    Position::$variant(game) => Some(game),
                    _ => None,
                }
            }
        })+
    };
}

members!(
    Othello: Othello,
    Kalah: Mancala<Kalah>,
    Oware: Mancala<Oware>,
    Congklak: Mancala<Congklak>,
    Congkak: Congkak
);

/// Runs `$body` with `$game` bound to the game's own position inside `$position` (a
/// `&Position`), so one generic function serves every game.
#[macro_export]
macro_rules! with_position {
    ($position:expr, |$game:ident| $body:expr) => {
        match $position {
            $crate::position::Position::Othello($game) => $body,
            $crate::position::Position::Kalah($game) => $body,
            $crate::position::Position::Oware($game) => $body,
            $crate::position::Position::Congklak($game) => $body,
            $crate::position::Position::Congkak($game) => $body,
        }
    };
}

impl Position {
    /// The start position of `game`; Kalah takes its size and capture rule.
    pub fn start(game: GameName, kalah: (usize, u8, bool)) -> Position {
        match game {
            GameName::Kalah => {
                let (pits, seeds, empty_capture) = kalah;
                Kalah::game(pits, seeds, empty_capture).wrap()
            }
            other => evoboard::with_game!(other, |start| start.wrap()),
        }
    }

    /// The position of the same game written `text` (a position string).
    pub fn parse_like(&self, text: &str) -> Result<Position, GameError> {
        fn parse<G: Member>(_: &G, text: &str) -> Result<Position, GameError> {
            Ok(G::from_position_string(text)?.wrap())
        }
        with_position!(self, |game| parse(game, text))
    }

    /// Which game this is.
    pub fn game_name(&self) -> GameName {
        match self {
            Position::Othello(_) => GameName::Othello,
            Position::Kalah(_) => GameName::Kalah,
            Position::Oware(_) => GameName::Oware,
            Position::Congklak(_) => GameName::Congklak,
            Position::Congkak(_) => GameName::Congkak,
        }
    }
}
