//! GGF, the Generic Game Format of Othello servers and of the NBoard GUI: the start
//! position and moves of a game record, read into an [`Othello`] position.

use crate::games::Notation;
use crate::games::othello::Othello;

/// Reads a GGF game record: the `BO[8 <64 squares> <side>]` start position (`-` empty,
/// `*` black, `O` white; side `*` or `O`) and its `B[…]`/`W[…]` moves (`PA` = pass; an
/// evaluation or time after a `/` is ignored).
pub fn parse_ggf(text: &str) -> Result<Othello, String> {
    let mut game = None;
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let tag: String = rest[..open]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_uppercase())
            .collect::<String>()
            .chars()
            .rev()
            .collect();
        let close = rest[open..].find(']').ok_or("a tag is not closed")? + open;
        let value = &rest[open + 1..close];
        rest = &rest[close + 1..];
        match tag.as_str() {
            "BO" => game = Some(parse_board(value)?),
            "B" | "W" => {
                let current = game.as_mut().ok_or("a move comes before the BO[] board")?;
                let text = value.split('/').next().unwrap_or_default();
                let mv = current.parse_move(text).map_err(|e| e.to_string())?;
                *current = current.play(mv).map_err(|e| e.to_string())?;
            }
            _ => {}
        }
    }
    game.ok_or_else(|| "no BO[] board".to_string())
}

/// The `BO[…]` board of a GGF record, read by the game's own position parser once GGF's
/// symbols (`*` for black, `B`/`W` for the side to move) are written as its own.
fn parse_board(value: &str) -> Result<Othello, String> {
    let fields: Vec<&str> = value.split_whitespace().collect();
    let [size, squares @ .., side] = fields.as_slice() else {
        return Err("BO[] needs a size, the squares and the side to move".into());
    };
    if *size != "8" {
        return Err(format!("board size {size} is not 8"));
    }
    let squares = squares.concat().replace('*', "X");
    let side = match *side {
        "*" | "B" => "X",
        "W" => "O",
        other => other,
    };
    Othello::from_position_string(&format!("{squares} {side}")).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_gives_the_position_after_its_moves() {
        let start = format!(
            "BO[8 {}{}{} *]",
            "-".repeat(27),
            "O*------*O",
            "-".repeat(27)
        );
        let game = parse_ggf(&format!("(;GM[Othello]{start}B[F5//1.2]W[d6];)")).unwrap();
        let mut expected = Othello::start();
        for text in ["f5", "d6"] {
            expected = expected.play(expected.parse_move(text).unwrap()).unwrap();
        }
        assert_eq!(game.to_position_string(), expected.to_position_string());
        assert!(parse_ggf("(;GM[Othello];)").is_err());
        assert!(parse_ggf("B[f5]").is_err());
    }
}
