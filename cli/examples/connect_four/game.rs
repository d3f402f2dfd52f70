//! Connect Four's rules on bitboards, written against evoboard's public game traits only.
//!
//! A player's discs are one `u64`: bit `7 · column + row` (row 0 at the bottom). Each
//! column has a seventh, always empty bit above its top row, so shifting a bitboard by
//! 1 (up), 7 (across), 6 or 8 (the diagonals) never carries a disc from one column's top
//! into the next column's bottom, and four in a row is three shifts and ands.

use evoboard::games::{GameError, Perft};
use evoboard::{Describe, Game, MoveList, Notation, Outcome, Player};

pub const COLUMNS: u8 = 7;
pub const ROWS: u8 = 6;

/// Bits a column takes: its rows and the empty guard bit above them.
const STRIDE: u8 = ROWS + 1;

/// Columns in the order moves are generated: the centre first, so that the search meets
/// the usually better moves early and equal values go to the central move.
const ORDER: [u8; COLUMNS as usize] = [3, 2, 4, 1, 5, 0, 6];

/// The text of the first and second player's discs in position strings.
const DISC_CHARS: [char; 2] = ['x', 'o'];

/// The bit of the cell at `column`, `row`.
pub const fn bit(column: u8, row: u8) -> u64 {
    1 << (column * STRIDE + row)
}

/// Every top cell: a column is full when its top cell is taken.
const TOP: u64 = {
    let mut top = 0;
    let mut column = 0;
    while column < COLUMNS {
        top |= bit(column, ROWS - 1);
        column += 1;
    }
    top
};

/// Every cell of the board (no guard bits): the board is full when all are taken.
const FULL: u64 = {
    let mut full = 0;
    let mut column = 0;
    while column < COLUMNS {
        full |= (bit(column, ROWS) - 1) & !(bit(column, 0) - 1);
        column += 1;
    }
    full
};

/// Whether `discs` hold four in a row in any direction.
pub fn has_four(discs: u64) -> bool {
    [1, STRIDE, STRIDE - 1, STRIDE + 1].iter().any(|&step| {
        let pairs = discs & (discs >> step);
        pairs & (pairs >> (2 * step)) != 0
    })
}

/// A Connect Four position: the discs of each player. Whose turn it is follows from the
/// number of discs, since the first player starts and players alternate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConnectFour {
    discs: [u64; 2],
}

impl ConnectFour {
    /// The empty board, first player to move.
    pub fn new() -> ConnectFour {
        ConnectFour::default()
    }

    /// The discs of `player` as a bitboard (see the module notes for the layout).
    pub fn discs(&self, player: Player) -> u64 {
        self.discs[player.index()]
    }

    /// Whose disc is at `column`, `row`, if any.
    pub fn owner(&self, column: u8, row: u8) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|&player| self.discs(player) & bit(column, row) != 0)
    }

    fn occupied(&self) -> u64 {
        self.discs[0] | self.discs[1]
    }

    /// The discs in `column`, shifted down to bits 0–5.
    fn stack(&self, column: u8) -> u64 {
        (self.occupied() >> (column * STRIDE)) & (bit(0, ROWS) - 1)
    }

    /// The player with four in a row. Only the player who moved last can have one: the
    /// game ends as soon as a row is made.
    pub fn winner(&self) -> Option<Player> {
        let last = self.to_move().opponent();
        has_four(self.discs(last)).then_some(last)
    }
}

impl Game for ConnectFour {
    type Move = u8;

    fn to_move(&self) -> Player {
        if self.occupied().count_ones().is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.winner().is_none() {
            let occupied = self.occupied();
            moves.extend(
                ORDER
                    .into_iter()
                    .filter(|&column| occupied & bit(column, ROWS - 1) == 0),
            );
        }
    }

    fn count_moves(&self) -> usize {
        match self.winner() {
            Some(_) => 0,
            None => (TOP & !self.occupied()).count_ones() as usize,
        }
    }

    /// Drops a disc into column `mv` (0-based), onto the highest disc there.
    fn play_unchecked(&mut self, mv: u8) {
        let row = self.stack(mv).count_ones() as u8;
        self.discs[self.to_move().index()] |= bit(mv, row);
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(winner) => Some(Outcome::Win(winner)),
            None if self.occupied() == FULL => Some(Outcome::Draw),
            None => None,
        }
    }

    /// 1 for the player with four in a row, 0 otherwise: the game has no margin.
    fn score(&self) -> [i32; 2] {
        let won = |player| i32::from(self.winner() == Some(player));
        [won(Player::First), won(Player::Second)]
    }
}

impl Notation for ConnectFour {
    fn name(&self) -> &'static str {
        "connect-four"
    }

    /// A column number, 1 (left) to 7.
    fn parse_move(&self, text: &str) -> Result<u8, GameError> {
        match text.trim().parse::<u8>() {
            Ok(column @ 1..=COLUMNS) => Ok(column - 1),
            _ => Err(GameError::MalformedMove {
                text: text.to_string(),
                reason: format!("a move is a column number from 1 to {COLUMNS}"),
            }),
        }
    }

    fn format_move(&self, mv: u8) -> String {
        (mv + 1).to_string()
    }

    /// The rows from the top down, separated by `/`: `x` the first player's discs, `o`
    /// the second's, `.` empty cells.
    fn to_position_string(&self) -> String {
        (0..ROWS)
            .rev()
            .map(|row| {
                (0..COLUMNS)
                    .map(|column| match self.owner(column, row) {
                        Some(player) => DISC_CHARS[player.index()],
                        None => '.',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Reads a position string, refusing boards that play cannot reach in these ways:
    /// floating discs, disc counts that do not alternate, or four in a row for the player
    /// who is to move (the game would have ended on their move).
    fn from_position_string(text: &str) -> Result<ConnectFour, GameError> {
        let malformed = |reason: &str| GameError::MalformedPosition {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != usize::from(ROWS) {
            return Err(malformed("expected 6 rows separated by '/'"));
        }
        let mut game = ConnectFour::new();
        for (row, line) in (0..ROWS).rev().zip(rows) {
            if line.chars().count() != usize::from(COLUMNS) {
                return Err(malformed("each row has 7 cells"));
            }
            for (column, cell) in (0..COLUMNS).zip(line.chars()) {
                match DISC_CHARS.iter().position(|&c| c == cell) {
                    Some(side) => game.discs[side] |= bit(column, row),
                    None if cell == '.' => {}
                    None => return Err(malformed("cells are 'x', 'o' or '.'")),
                }
            }
        }
        // A column's discs stand on each other: its bits are a run from the bottom row.
        let floats = (0..COLUMNS).any(|column| {
            let stack = game.stack(column);
            stack & (stack + 1) != 0
        });
        if floats {
            return Err(malformed("a disc floats above an empty cell"));
        }
        let [first, second] = game.discs.map(u64::count_ones);
        if first != second && first != second + 1 {
            return Err(malformed(
                "the first player has as many discs as the second, or one more",
            ));
        }
        if has_four(game.discs(game.to_move())) {
            return Err(malformed("the player to move already has four in a row"));
        }
        Ok(game)
    }
}

impl Describe for ConnectFour {
    /// The column numbers, then the rows from the top: `X` and `O` discs, `.` empty.
    fn board_lines(&self) -> Vec<String> {
        let numbers = (1..=COLUMNS).map(|c| c.to_string()).collect::<Vec<_>>();
        let mut lines = vec![numbers.join(" ")];
        lines.extend((0..ROWS).rev().map(|row| {
            (0..COLUMNS)
                .map(|column| match self.owner(column, row) {
                    Some(player) => self.player_name(player),
                    None => ".",
                })
                .collect::<Vec<_>>()
                .join(" ")
        }));
        lines
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "X",
            Player::Second => "O",
        }
    }
}

/// `perft` and `bench` count through the move list (the trait's default): Connect Four
/// has no faster walk of its own.
impl Perft for ConnectFour {}
