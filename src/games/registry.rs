//! The built-in games by name: the one list every front end (command line, web page, plan
//! files, `run.json`) reads a game's name from, and [`with_game!`](crate::with_game) to run
//! generic code on the named game.

use std::fmt;
use std::str::FromStr;

/// The games evoboard plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameName {
    Othello,
    /// Kalah(6,4) (commands that take a position also play other sizes).
    Kalah,
    /// Oware (Abapa rules); `ayo` is the same game.
    Oware,
    /// Congklak: 7 holes of 7 seeds, relay sowing, shooting, passes.
    Congklak,
    /// Congkak: Congklak's sowing over rounds, burnt holes, a simultaneous opening.
    Congkak,
}

impl GameName {
    /// Every game, in the order they are listed to people.
    pub const ALL: [GameName; 5] = [
        GameName::Othello,
        GameName::Kalah,
        GameName::Oware,
        GameName::Congklak,
        GameName::Congkak,
    ];

    /// The name files and commands use (the game's `Notation::name`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameName::Othello => "othello",
            GameName::Kalah => "kalah",
            GameName::Oware => "oware",
            GameName::Congklak => "congklak",
            GameName::Congkak => "congkak",
        }
    }

    /// Other names the game is known by.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            GameName::Oware => &["ayo"],
            _ => &[],
        }
    }
}

impl fmt::Display for GameName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no game evoboard plays.
#[derive(Debug, thiserror::Error)]
#[error("unknown game '{}'", .0.escape_debug())]
pub struct UnknownGame(pub String);

/// Reads a game's name or alias, ignoring case (`run.json`, plans and requests name games
/// as people write them).
impl FromStr for GameName {
    type Err = UnknownGame;

    fn from_str(text: &str) -> Result<GameName, UnknownGame> {
        GameName::ALL
            .into_iter()
            .find(|game| {
                std::iter::once(game.as_str())
                    .chain(game.aliases().iter().copied())
                    .any(|name| name.eq_ignore_ascii_case(text))
            })
            .ok_or_else(|| UnknownGame(text.to_string()))
    }
}

/// Runs `$body` with `$start` bound to the start position of the named
/// [`GameName`](crate::games::GameName), so one generic function serves every game.
#[macro_export]
macro_rules! with_game {
    ($name:expr, |$start:ident| $body:expr) => {
        match $name {
            $crate::games::GameName::Othello => {
                let $start = $crate::games::othello::Othello::start();
                $body
            }
            $crate::games::GameName::Kalah => {
                let $start = $crate::games::mancala::Kalah::game(6, 4, false);
                $body
            }
            $crate::games::GameName::Oware => {
                let $start = $crate::games::mancala::Oware::game();
                $body
            }
            $crate::games::GameName::Congklak => {
                let $start = $crate::games::mancala::Congklak::game();
                $body
            }
            $crate::games::GameName::Congkak => {
                let $start = $crate::games::mancala::Congkak::start();
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Notation;

    #[test]
    fn every_name_reads_back_and_names_its_game() {
        for game in GameName::ALL {
            assert_eq!(game.as_str().parse::<GameName>().unwrap(), game);
            assert_eq!(with_game!(game, |start| start.name()), game.as_str());
        }
        assert_eq!("AYO".parse::<GameName>().unwrap(), GameName::Oware);
        assert!("chess".parse::<GameName>().is_err());
    }
}
