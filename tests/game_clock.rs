//! Game clocks (`~SECONDS/game`): the spec, the clock's bookkeeping, a game on a tiny
//! clock, the switch to the exact endgame solver, and the win/loss/draw solver against the
//! exact one.

use std::time::Duration;

use evoboard::arena::{
    AgentSpec, ClockedAgent, Decided, GameClock, SpecError, play_game, random_openings,
};
use evoboard::games::mancala::Kalah;
use evoboard::games::othello::Move;
use evoboard::rng::rng_for;
use evoboard::search::endgame::{EndgameOptions, solve_endgame, solve_wld_within};
use evoboard::{Game, Notation, Othello};

fn spec(text: &str) -> Result<AgentSpec, SpecError> {
    text.parse()
}

fn refusal(text: &str) -> String {
    spec(text).expect_err(text).to_string()
}

#[test]
fn a_game_clock_parses_and_a_time_a_move_keeps_its_meaning() {
    let clocked = spec("heuristic:30~10/game").unwrap();
    assert_eq!((clocked.move_time, clocked.game_time), (None, Some(10.0)));
    let with_eps = spec("champion:some/dir~x/champion.evo:6~2.5/game@0.1").unwrap();
    assert_eq!(with_eps.game_time, Some(2.5));
    assert_eq!(with_eps.epsilon, Some(0.1));
    let per_move = spec("heuristic:30~5").unwrap();
    assert_eq!((per_move.move_time, per_move.game_time), (Some(5.0), None));
    assert_eq!(
        spec("wpc:3~60/game").unwrap().game_clock(),
        Some(GameClock {
            budget: Duration::from_secs(60),
            cap: None
        })
    );
}

#[test]
fn bad_game_clocks_are_refused() {
    for bad in [
        "heuristic:4~0/game",
        "heuristic:4~-3/game",
        "heuristic:4~1e9/game",
    ] {
        let reason = refusal(bad);
        let expected = "the ~SECONDS/game suffix must be a number of seconds in (0, 86400]";
        assert!(reason.contains(expected), "{reason}");
    }
    assert!(refusal("random~5/game").contains("no time limit applies"));
    assert!(refusal("nboard:./engine~5/game").contains("per move"));
    assert!(spec("heuristic:4~ten/game").is_err());
    // Deep searches need a time limit; a game clock is one.
    assert!(spec("heuristic:20").is_err());
    assert!(spec("heuristic:20~30/game").is_ok());
    let kalah = spec("heuristic:4~10/game")
        .unwrap()
        .build(&Kalah::game(6, 4, false))
        .err()
        .expect("Kalah has no game clock")
        .to_string();
    assert!(kalah.contains("Othello only"), "{kalah}");
}

#[test]
fn no_move_is_given_more_than_the_time_left() {
    let cap = Duration::from_millis(700);
    for clock in [
        GameClock {
            budget: Duration::from_secs(10),
            cap: None,
        },
        GameClock {
            budget: Duration::from_secs(10),
            cap: Some(cap),
        },
    ] {
        let mut assumed = Duration::ZERO;
        for empties in (0..=60).rev() {
            // Every move's search and solve fit in what is left, whatever was spent.
            for spent_ms in (0..=11_000).step_by(250) {
                let spent = Duration::from_millis(spent_ms);
                let left = clock.budget.saturating_sub(spent);
                let search = clock.search_time(spent, empties);
                let solve = clock.solve_time(spent);
                assert!(search < left || left.is_zero(), "{empties} {spent_ms}");
                assert!(solve <= left / 2, "{empties} {spent_ms}");
                if let Some(cap) = clock.cap {
                    assert!(search <= cap && solve <= cap);
                }
            }
            // A side whose time nobody measures assumes more spent as the game goes on,
            // never the whole budget.
            let now = clock.assumed_spent(empties);
            assert!(now >= assumed && now < clock.budget, "{empties}");
            assumed = now;
        }
        assert_eq!(clock.assumed_spent(60), Duration::ZERO);
    }
}

/// The agent of `text`, which has a game clock, for Othello.
fn clocked(text: &str) -> ClockedAgent {
    let spec = spec(text).unwrap();
    spec.clocked(&|path| spec.load_champion(path, &Othello::start()))
        .unwrap()
}

#[test]
fn a_game_on_a_tiny_clock_completes_with_legal_moves() {
    let agent = clocked("heuristic:30~0.001/game");
    let opponent = spec("heuristic:1")
        .unwrap()
        .build(&Othello::start())
        .unwrap();
    let start = random_openings(&Othello::start(), 1, 6, 3).unwrap()[0];
    for agents in [
        [
            &agent as &dyn evoboard::arena::Agent<Othello>,
            opponent.as_ref(),
        ],
        [opponent.as_ref(), &agent],
    ] {
        let record = play_game(&start, agents, &mut rng_for(1, &[]));
        assert!(record.forfeit.is_none());
        let mut game = start;
        for &mv in &record.moves {
            game = game.play(mv).expect("every move is legal");
        }
        assert!(game.is_over(), "{}", game.to_position_string());
    }
    let summary = evoboard::arena::Agent::<Othello>::summary(&agent).unwrap();
    assert!(summary.contains("by search"), "{summary}");
}

#[test]
fn with_time_enough_the_agent_plays_the_exact_solvers_move() {
    // FFO #40 (20 empties): +38 for the side to move, by a2 only.
    let line = include_str!("data/ffo-40-49.tsv")
        .lines()
        .find(|line| line.starts_with("40\t"))
        .unwrap();
    let game = Othello::from_position_string(line.split('\t').nth(1).unwrap()).unwrap();
    assert_eq!(game.empties().count_ones(), 20);
    let exact = solve_endgame(&game).unwrap();
    assert_eq!(
        (exact.margin, exact.best),
        (38, Some(game.parse_move("a2").unwrap()))
    );
    let agent = clocked("heuristic:30~1000/game");
    let decision = agent.decide(&game, Some(Duration::ZERO), None);
    assert_eq!(decision.how, Decided::Exact);
    assert_eq!(Some(decision.mv), exact.best);
    assert_eq!(decision.value, evoboard::search::WIN_VALUE + 38.0);
}

/// The exact value of `mv` at `game` for its mover.
fn margin_after(game: &Othello, mv: Move) -> i32 {
    let child = game.play(mv).unwrap();
    let value = solve_endgame(&child).unwrap().margin;
    if child.to_move() == game.to_move() {
        value
    } else {
        -value
    }
}

#[test]
fn the_win_loss_draw_solver_agrees_with_the_exact_one() {
    let positions: Vec<Othello> = random_openings(&Othello::start(), 24, 47, 2027)
        .unwrap()
        .into_iter()
        .filter(|game| !game.is_over())
        .collect();
    assert!(positions.len() >= 16, "{}", positions.len());
    let mut signs = [0; 3];
    for game in positions {
        let text = game.to_position_string();
        let exact = solve_endgame(&game).unwrap();
        let wld = solve_wld_within(&game, &EndgameOptions::default()).unwrap();
        assert_eq!(wld.sign, exact.margin.signum(), "{text}");
        signs[(wld.sign + 1) as usize] += 1;
        // Its move keeps the result, unless every move loses.
        let best = wld.best.expect("the game is not over");
        if wld.sign >= 0 {
            assert_eq!(
                margin_after(&game, best).signum(),
                wld.sign,
                "{text}: {best}"
            );
        }
    }
    // Both wins and losses were asked about.
    assert!(signs[0] > 0 && signs[2] > 0, "{signs:?}");
}
