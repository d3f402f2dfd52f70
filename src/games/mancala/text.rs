//! What every mancala game writes and reads the same way, for people and for networks: the
//! rows-and-stores part of a position string, the board drawing, and the network input.

use super::{Board, MAX_PITS};
use crate::games::{GameError, Player};

/// Marks a burnt pit in position strings and drawings.
const BURNT: &str = "x";

fn row_text(board: &Board, side: Player) -> String {
    (0..board.pits_per_side())
        .map(|pit| {
            if board.is_burnt(side, pit) {
                BURNT.to_string()
            } else {
                board.pit(side, pit).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `SOUTH-PITS NORTH-PITS SOUTH-STORE NORTH-STORE`, pits from each side's own left, burnt
/// pits written `x`.
pub fn board_text(board: &Board) -> String {
    format!(
        "{} {} {} {}",
        row_text(board, Player::First),
        row_text(board, Player::Second),
        board.store(Player::First),
        board.store(Player::Second)
    )
}

/// The error for position `text`, which is wrong for `reason`.
pub fn malformed(text: &str, reason: impl Into<String>) -> GameError {
    GameError::MalformedPosition {
        text: text.to_string(),
        reason: reason.into(),
    }
}

/// The whitespace-separated fields of `position`, which must number within `counts`
/// (`expected` describes them for the error).
pub fn fields<'a>(
    position: &'a str,
    counts: std::ops::RangeInclusive<usize>,
    expected: &str,
) -> Result<Vec<&'a str>, GameError> {
    let fields: Vec<&str> = position.split_whitespace().collect();
    if counts.contains(&fields.len()) {
        Ok(fields)
    } else {
        Err(malformed(position, format!("expected {expected}")))
    }
}

/// Reads the four board fields written by [`board_text`] out of position `text`.
pub fn parse_board(text: &str, fields: &[&str]) -> Result<Board, GameError> {
    let row = |field: &str| -> Result<Vec<Option<u8>>, GameError> {
        field
            .split(',')
            .map(|s| match s {
                BURNT => Ok(None),
                _ => s
                    .parse::<u8>()
                    .map(Some)
                    .map_err(|_| malformed(text, format!("'{s}' is not a seed count"))),
            })
            .collect()
    };
    let (south, north) = (row(fields[0])?, row(fields[1])?);
    if south.len() != north.len() || !(1..=MAX_PITS).contains(&south.len()) {
        return Err(malformed(
            text,
            format!("both rows need the same number of pits, 1 to {MAX_PITS}"),
        ));
    }
    let store = |field: &str| {
        field
            .parse::<u8>()
            .map_err(|_| malformed(text, format!("'{field}' is not a store count")))
    };
    let stores = [store(fields[2])?, store(fields[3])?];
    let seeds = |row: &[Option<u8>]| row.iter().map(|s| u32::from(s.unwrap_or(0))).sum::<u32>();
    let total = seeds(&south) + seeds(&north) + stores.iter().map(|&s| u32::from(s)).sum::<u32>();
    if total > 255 {
        return Err(malformed(text, "the board holds at most 255 seeds"));
    }
    let counts = |row: &[Option<u8>]| row.iter().map(|s| s.unwrap_or(0)).collect::<Vec<u8>>();
    let mut board = Board::from_parts(&counts(&south), &counts(&north), stores);
    for (side, row) in [(Player::First, &south), (Player::Second, &north)] {
        for (pit, seeds) in row.iter().enumerate() {
            board.set_burnt(side, pit, seeds.is_none());
        }
    }
    Ok(board)
}

/// Reads a side-to-move field, `S` or `N`.
pub fn parse_side(text: &str, field: &str) -> Result<Player, GameError> {
    match field {
        "S" => Ok(Player::First),
        "N" => Ok(Player::Second),
        other => Err(malformed(
            text,
            format!("side to move must be S or N, found '{other}'"),
        )),
    }
}

/// `S` or `N`.
pub fn side_letter(side: Player) -> &'static str {
    match side {
        Player::First => "S",
        Player::Second => "N",
    }
}

/// What mancala games call the players.
pub fn side_name(side: Player) -> &'static str {
    match side {
        Player::First => "South",
        Player::Second => "North",
    }
}

/// The board for people: North's row above South's, each numbered from its owner's left,
/// North's store on the left and South's on the right, burnt pits as `x`; then `status`.
pub fn board_lines(board: &Board, status: String) -> Vec<String> {
    let m = board.pits_per_side();
    let cell = |side: Player, pit: usize| {
        if board.is_burnt(side, pit) {
            format!("{BURNT:>3}")
        } else {
            format!("{:>3}", board.pit(side, pit))
        }
    };
    let north: String = (0..m).rev().map(|p| cell(Player::Second, p)).collect();
    let south: String = (0..m).map(|p| cell(Player::First, p)).collect();
    let numbers_north: String = (0..m).rev().map(|p| format!("{:>3}", p + 1)).collect();
    let numbers_south: String = (0..m).map(|p| format!("{:>3}", p + 1)).collect();
    vec![
        format!("North  {numbers_north}"),
        format!("       {north}"),
        format!(
            "   {:>3}{}{:>3}",
            board.store(Player::Second),
            " ".repeat(3 * m + 1),
            board.store(Player::First)
        ),
        format!("       {south}"),
        format!("South  {numbers_south}"),
        status,
    ]
}
