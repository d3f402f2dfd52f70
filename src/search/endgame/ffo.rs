//! The FFO endgame test positions #40–#49 (FForum, Fédération Française d'Othello), with
//! their published values and best moves: the usual yardstick of endgame solvers, shared
//! by the tests and `evoboard bench --endgame`.

use crate::games::Notation;
use crate::games::othello::{Move, Othello};

/// One test position.
#[derive(Clone, Debug)]
pub struct FfoPosition {
    /// Its number in the FFO set.
    pub number: u32,
    pub game: Othello,
    /// The final disc difference for the side to move under perfect play.
    pub margin: i32,
    /// Every move achieving it.
    pub best: Vec<Move>,
}

/// FFO #40–#49, in order.
pub fn ffo_positions() -> Vec<FfoPosition> {
    include_str!("../../../tests/data/ffo-40-49.tsv")
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let game = Othello::from_position_string(fields[1]).expect("a valid position");
            let best = fields[4]
                .split(',')
                .map(|text| game.parse_move(text).expect("a legal move"))
                .collect();
            FfoPosition {
                number: fields[0].parse().expect("a number"),
                game,
                margin: fields[3].parse().expect("a margin"),
                best,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_ten_positions_with_their_empties() {
        let positions = ffo_positions();
        let numbers: Vec<u32> = positions.iter().map(|p| p.number).collect();
        assert_eq!(numbers, (40..=49).collect::<Vec<_>>());
        let empties: Vec<u32> = positions
            .iter()
            .map(|p| p.game.empties().count_ones())
            .collect();
        assert_eq!(empties, [20, 22, 22, 23, 23, 24, 24, 25, 25, 26]);
        assert!(empties.iter().all(|&e| e <= super::super::MAX_EMPTIES));
    }
}
