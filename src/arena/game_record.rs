//! Playing one game between two agents and keeping what happened.

use std::time::{Duration, Instant};

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::arena::agent::{Agent, Forfeit, History};
use crate::games::joint::{gather_move, is_joint};
use crate::games::{Describe, Game, Notation, Outcome, Player};
use crate::rng::GameRng;

/// One finished game: where it started, every move, the result, and how long each
/// side thought per move (seconds).
#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    pub start: G,
    pub moves: Vec<G::Move>,
    pub outcome: Outcome,
    pub score: [i32; 2],
    pub think_seconds: [Vec<f64>; 2],
    /// Moves of each side that captured (mancala games; joint moves are not counted).
    pub captures: [u32; 2],
    /// Moves of each side that earned another turn (mancala "go-agains").
    pub extra_turns: [u32; 2],
    /// The side that gave the game up instead of moving, and why (the game is its loss,
    /// scored as the board stood).
    pub forfeit: Option<(Player, Forfeit)>,
}

impl<G: Game> GameRecord<G> {
    /// Number of plies played (passes and extra turns included).
    pub fn plies(&self) -> usize {
        self.moves.len()
    }
}

impl<G: Describe> GameRecord<G> {
    /// Whether what the record says of its end is what its moves lead to: the outcome and
    /// score of the last position (or, for a forfeit, the forfeiting side's loss with the
    /// board as it stood), the captures and extra turns, and think times that are times.
    /// For records read back from a file, whose moves were replayed one by one.
    pub fn check_ending(&self) -> Result<(), String> {
        let mut game = self.start.clone();
        let (mut captures, mut extra_turns) = ([0, 0], [0, 0]);
        for &mv in &self.moves {
            play_counted(&mut game, mv, &mut captures, &mut extra_turns);
        }
        let outcome = match &self.forfeit {
            Some((side, _)) => Outcome::Win(side.opponent()),
            None => game
                .outcome()
                .ok_or("the game is not over where its moves end")?,
        };
        if self.outcome != outcome {
            return Err(format!(
                "its outcome is {:?}, its moves give {outcome:?}",
                self.outcome
            ));
        }
        if self.score != game.score() {
            return Err(format!(
                "its score is {:?}, its moves give {:?}",
                self.score,
                game.score()
            ));
        }
        if (self.captures, self.extra_turns) != (captures, extra_turns) {
            return Err("its captures or extra turns are not its moves'".into());
        }
        let times = self.think_seconds.iter().flatten();
        if times.clone().count() > 2 * self.moves.len() + 2
            || times.clone().any(|&t| !t.is_finite() || t < 0.0)
        {
            return Err(
                "its think times are not one per move, each finite and not negative".into(),
            );
        }
        Ok(())
    }
}

impl<G: Notation> GameRecord<G> {
    /// The move list in the game's notation, comma-separated (what `show --moves` reads).
    pub fn move_text(&self) -> String {
        self.moves
            .iter()
            .map(|&mv| self.start.format_move(mv))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// A record in words (its positions and moves in the game's notation), as it travels
/// between the processes of an MPI job.
#[derive(Serialize, Deserialize)]
struct RecordText {
    start: String,
    moves: Vec<String>,
    outcome: Outcome,
    score: [i32; 2],
    think_seconds: [Vec<f64>; 2],
    captures: [u32; 2],
    extra_turns: [u32; 2],
    forfeit: Option<(Player, String)>,
}

impl<G: Notation> Serialize for GameRecord<G> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut position = self.start.clone();
        let moves = self
            .moves
            .iter()
            .map(|&mv| {
                let text = position.format_move(mv);
                position.play_unchecked(mv);
                text
            })
            .collect();
        RecordText {
            start: self.start.to_position_string(),
            moves,
            outcome: self.outcome,
            score: self.score,
            think_seconds: self.think_seconds.clone(),
            captures: self.captures,
            extra_turns: self.extra_turns,
            forfeit: self
                .forfeit
                .as_ref()
                .map(|(side, forfeit)| (*side, forfeit.reason.clone())),
        }
        .serialize(serializer)
    }
}

/// Reads the moves back on the positions they were played in, each checked.
impl<'de, G: Notation> Deserialize<'de> for GameRecord<G> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = RecordText::deserialize(deserializer)?;
        let start = G::from_position_string(&text.start).map_err(D::Error::custom)?;
        let mut position = start.clone();
        let mut moves = Vec::with_capacity(text.moves.len());
        for word in &text.moves {
            let mv = position.parse_move(word).map_err(D::Error::custom)?;
            position = position.play(mv).map_err(D::Error::custom)?;
            moves.push(mv);
        }
        Ok(GameRecord {
            start,
            moves,
            outcome: text.outcome,
            score: text.score,
            think_seconds: text.think_seconds,
            captures: text.captures,
            extra_turns: text.extra_turns,
            forfeit: text
                .forfeit
                .map(|(side, reason)| (side, Forfeit { reason })),
        })
    }
}

/// Plays from `start` to the end; `agents[0]` moves for the first player, `agents[1]` for
/// the second, whoever's turn it is (so passes and extra turns need no special care). An
/// agent that forfeits loses the game there.
pub fn play_game<G: Describe>(
    start: &G,
    agents: [&dyn Agent<G>; 2],
    rng: &mut GameRng,
) -> GameRecord<G> {
    let mut game = start.clone();
    let mut moves = Vec::new();
    let mut think_seconds = [Vec::new(), Vec::new()];
    let (mut captures, mut extra_turns) = ([0, 0], [0, 0]);
    let mut forfeit = None;
    while game.count_moves() > 0 {
        let history = History {
            start,
            moves: &moves,
            spent: Some(
                think_seconds
                    .each_ref()
                    .map(|seconds| Duration::from_secs_f64(seconds.iter().sum::<f64>())),
            ),
        };
        let chosen = gather_move(&game, |view, player| {
            // At a joint decision each agent chooses its own part on its own view.
            let clock = Instant::now();
            let mv = agents[player.index()].choose(view, history, rng);
            think_seconds[player.index()].push(clock.elapsed().as_secs_f64());
            mv.map_err(|reason| (player, reason))
        });
        let mv = match chosen {
            Ok(mv) => mv,
            Err(given_up) => {
                forfeit = Some(given_up);
                break;
            }
        };
        debug_assert!(game.is_legal(mv), "agent chose an illegal move");
        play_counted(&mut game, mv, &mut captures, &mut extra_turns);
        moves.push(mv);
    }
    let outcome = match &forfeit {
        Some((side, _)) => Outcome::Win(side.opponent()),
        None => game.outcome().expect("a game without legal moves is over"),
    };
    GameRecord {
        start: start.clone(),
        moves,
        outcome,
        score: game.score(),
        think_seconds,
        captures,
        extra_turns,
        forfeit,
    }
}

/// Plays `mv` on `game`, counting a capture or an extra turn for the side that moved (a
/// joint move's effects belong to both hands: counted for neither).
fn play_counted<G: Describe>(
    game: &mut G,
    mv: G::Move,
    captures: &mut [u32; 2],
    extra_turns: &mut [u32; 2],
) {
    let side = game.to_move();
    let joint = is_joint(game);
    game.play_unchecked(mv);
    if !joint {
        let facts = game.last_move();
        captures[side.index()] += u32::from(facts.captured);
        extra_turns[side.index()] += u32::from(facts.extra_turn);
    }
}

/// The side `agents[0]` played on in game `index` of a series: colours alternate so that
/// each opening is played once with each colour.
pub fn player_side(index: usize) -> Player {
    if index.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::AgentSpec;
    use crate::eval::NamedEvaluators;
    use crate::games::mancala::{Congkak, Congklak, Kalah, Oware};
    use crate::games::othello::Othello;
    use crate::persist::{decode_message, encode_message};
    use crate::rng::rng_for;

    /// A record decoded from its message is the record: the same start, moves, result,
    /// counts and think times (what a process of an MPI job receives from another).
    fn round_trip<G: NamedEvaluators>(start: G) {
        let random = "random"
            .parse::<AgentSpec>()
            .unwrap()
            .build(&start)
            .unwrap();
        for seed in 0..3 {
            let mut rng = rng_for(seed, &[]);
            let record = play_game(&start, [random.as_ref(), random.as_ref()], &mut rng);
            let back: GameRecord<G> = decode_message(&encode_message(&record)).unwrap();
            assert_eq!(
                back.start.to_position_string(),
                record.start.to_position_string()
            );
            assert_eq!(back.moves, record.moves);
            assert_eq!(back.outcome, record.outcome);
            assert_eq!(back.score, record.score);
            assert_eq!(back.think_seconds, record.think_seconds);
            assert_eq!(
                (back.captures, back.extra_turns),
                (record.captures, record.extra_turns)
            );
            assert_eq!(back.forfeit, record.forfeit);
        }
        let mut damaged = encode_message(&play_game(
            &start,
            [random.as_ref(), random.as_ref()],
            &mut rng_for(9, &[]),
        ));
        let last = damaged.len() - 1;
        damaged.truncate(last);
        assert!(decode_message::<GameRecord<G>>(&damaged).is_none());
    }

    #[test]
    fn records_of_every_game_survive_their_message() {
        round_trip(Othello::start());
        round_trip(Kalah::game(6, 4, false));
        round_trip(Oware::game());
        round_trip(Congklak::game());
        round_trip(Congkak::start());
    }
}
