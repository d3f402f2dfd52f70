//! The exact Othello endgame solver: against a brute-force solver on random late
//! positions, and on a published FFO test position.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use evoboard::arena::random_openings;
use evoboard::champion::Champion;

use evoboard::search::endgame::{
    EndgameError, EndgameOptions, EndgameOrdering, FfoPosition, ffo_positions, move_margins,
    solve_endgame, solve_endgame_within,
};
use evoboard::{Game, MoveList, Notation, Othello};

/// The final disc difference for the side to move under perfect play, by trying every
/// line: the reference the solver must equal.
fn brute_force(game: &Othello) -> i32 {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        let [black, white] = game.score();
        let margin = black - white;
        return if game.to_move() == evoboard::Player::First {
            margin
        } else {
            -margin
        };
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = *game;
            child.play_unchecked(mv);
            let value = brute_force(&child);
            if child.to_move() == game.to_move() {
                value
            } else {
                -value
            }
        })
        .max()
        .expect("a game that is not over has moves")
}

/// Late positions (9 empties unless a side passed) from seeded random games.
fn late_positions(count: usize) -> Vec<Othello> {
    random_openings(&Othello::start(), count, 51, 2026)
        .expect("random games last 51 plies")
        .into_iter()
        .filter(|game| game.outcome().is_none())
        .collect()
}

#[test]
fn equals_brute_force_on_random_late_positions() {
    let positions = late_positions(60);
    assert!(positions.len() >= 40, "{} positions", positions.len());
    for game in positions {
        let solution = solve_endgame(&game).unwrap();
        let expected = brute_force(&game);
        let text = game.to_position_string();
        assert_eq!(solution.margin, expected, "{text}");
        // The best move achieves the value.
        let best = solution.best.expect("the game is not over");
        let after = game.play(best).expect("the best move is legal");
        let value = if after.to_move() == game.to_move() {
            brute_force(&after)
        } else {
            -brute_force(&after)
        };
        assert_eq!(value, expected, "{text}: {best}");
    }
}

#[test]
fn one_and_two_threads_give_the_same_value_best_move_and_margins() {
    // 14–16 empties: deep enough for the moves of many nodes to be split between threads.
    let mut positions: Vec<Othello> = random_openings(&Othello::start(), 8, 45, 33)
        .expect("random games last 45 plies")
        .into_iter()
        .filter(|game| game.outcome().is_none())
        .collect();
    assert!(positions.len() >= 6, "{} positions", positions.len());
    let on = |threads| EndgameOptions {
        threads,
        deadline: None,
        ordering: EndgameOrdering::heuristic(),
    };
    let ffo_40 = ffo_positions().remove(0).game;
    for game in positions.iter().chain([&ffo_40]) {
        let one = solve_endgame_within(game, &on(1), &mut |_| {}).unwrap();
        let two = solve_endgame_within(game, &on(2), &mut |_| {}).unwrap();
        let text = game.to_position_string();
        assert_eq!((one.margin, one.best), (two.margin, two.best), "{text}");
    }
    positions.truncate(4);
    for game in &positions {
        let one = move_margins(game, 1).unwrap();
        assert_eq!(one, move_margins(game, 2).unwrap());
        // The best margin is the position's value.
        let value = solve_endgame(game).unwrap().margin;
        assert_eq!(one.iter().map(|&(_, margin)| margin).max(), Some(value));
    }
}

#[test]
fn a_network_orders_to_the_same_exact_values_on_one_and_two_threads() {
    // 17–22 empties: the evaluator's one-ply ordering searches run from 16 empties up.
    let positions: Vec<Othello> = random_openings(&Othello::start(), 8, 40, 59)
        .expect("random games last 40 plies")
        .into_iter()
        .filter(|game| game.outcome().is_none() && game.empties().count_ones() >= 17)
        .take(4)
        .collect();
    assert!(positions.len() >= 3, "{} positions", positions.len());
    let shipped = Champion::load_for(
        Path::new("../populations/othello/champion.evo"),
        &Othello::start(),
    )
    .unwrap()
    .evaluator(&Othello::start());
    let network = EndgameOrdering::network(Arc::new(shipped));
    let on = |threads, ordering: &EndgameOrdering| EndgameOptions {
        threads,
        deadline: None,
        ordering: ordering.clone(),
    };
    let (mut heuristic_nodes, mut network_nodes) = (0, 0);
    for game in &positions {
        let text = game.to_position_string();
        let heuristic = EndgameOrdering::heuristic();
        let by_heuristic = solve_endgame_within(game, &on(1, &heuristic), &mut |_| {}).unwrap();
        let one = solve_endgame_within(game, &on(1, &network), &mut |_| {}).unwrap();
        let two = solve_endgame_within(game, &on(2, &network), &mut |_| {}).unwrap();
        assert_eq!(one.margin, by_heuristic.margin, "{text}");
        assert_eq!((one.margin, one.best), (two.margin, two.best), "{text}");
        // The network's best move reaches the value.
        let best = one.best.unwrap();
        let margins = move_margins(game, 1).unwrap();
        assert!(margins.contains(&(best, one.margin)), "{text}: {margins:?}");
        heuristic_nodes += by_heuristic.nodes;
        network_nodes += one.nodes;
    }
    // The ordering is the network's: the trees differ.
    assert_ne!(heuristic_nodes, network_nodes);
}

#[test]
fn a_solve_visits_the_same_nodes_whatever_was_solved_before() {
    // Solves of as many empties share one kept table, which must read as empty to each.
    let positions: Vec<Othello> = random_openings(&Othello::start(), 6, 46, 8)
        .expect("random games last 46 plies")
        .into_iter()
        .filter(|game| game.outcome().is_none() && game.empties().count_ones() == 14)
        .collect();
    assert!(positions.len() >= 2, "{} positions", positions.len());
    let options = EndgameOptions {
        threads: 1,
        deadline: None,
        ordering: EndgameOrdering::heuristic(),
    };
    let solve = |game| solve_endgame_within(game, &options, &mut |_| {}).unwrap();
    let first = solve(&positions[0]);
    for game in &positions[1..] {
        solve(game);
    }
    assert_eq!(solve(&positions[0]), first);
}

#[test]
fn a_finished_game_is_scored_and_has_no_move() {
    // White has no discs: black wins with the 60 empties counted to them.
    let text = format!("{}{}{} X", "X".repeat(3), "-".repeat(60), "X");
    let game = Othello::from_position_string(&text).unwrap();
    let solution = solve_endgame(&game).unwrap();
    assert_eq!((solution.margin, solution.best), (64, None));
}

#[test]
fn refuses_positions_with_too_many_empties() {
    assert_eq!(
        solve_endgame(&Othello::start()),
        Err(EndgameError::TooManyEmpties(60))
    );
}

#[test]
fn solves_ffo_40_exactly() {
    let FfoPosition {
        number,
        game,
        margin,
        best,
    } = ffo_positions().remove(0);
    assert_eq!(number, 40);
    let solution = solve_endgame(&game).unwrap();
    assert_eq!(solution.margin, margin);
    assert!(
        best.contains(&solution.best.unwrap()),
        "{:?}",
        solution.best
    );
}

mod common;

#[test]
fn the_solve_command_reports_the_value_and_best_move() {
    // A late position from the brute-force test's stream, solved through the binary.
    let game = late_positions(1).remove(0);
    let expected = brute_force(&game);
    let output = common::stdout_of(&[
        "solve",
        "--game",
        "othello",
        "--position",
        &game.to_position_string(),
    ]);
    assert!(
        output.contains(&format!(": {expected:+} for ")),
        "{output} (expected {expected:+})"
    );
    assert!(output.contains("best move "), "{output}");
}

#[test]
fn the_solve_command_refuses_what_it_cannot_solve() {
    let start = Othello::start().to_position_string();
    assert_eq!(
        common::bad_input(&["solve", "--game", "othello", "--position", &start]),
        "error: the position has 60 empty squares; the exact solver takes at most 30"
    );
    assert_eq!(
        common::bad_input(&["solve", "--game", "othello"]),
        "error: solve --game othello needs --position or --positions (at most 30 empty squares each)"
    );
    assert_eq!(
        common::bad_input(&[
            "solve",
            "--game",
            "othello",
            "--position",
            &start,
            "--pits",
            "4"
        ]),
        "error: --pits, --seeds and --empty-capture are for kalah"
    );
    assert_eq!(
        common::bad_input(&["solve", "--game", "kalah", "--pits", "4"]),
        "error: solve --game kalah needs --pits and --seeds, and takes no --position, --positions, --time-limit or --order-by"
    );
    let refused = common::bad_input(&[
        "solve",
        "--game",
        "othello",
        "--position",
        &late_positions(1).remove(0).to_position_string(),
        "--order-by",
        "no/such/champion.evo",
    ]);
    assert!(refused.contains("no/such/champion.evo"), "{refused}");
}

#[test]
fn the_solve_command_solves_a_file_of_positions_line_by_line() {
    let games = late_positions(2);
    let dir = common::temp_dir("solve-positions");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("endgames.txt");
    let text = format!(
        "# two late positions\n{}\n\n{}\n",
        games[0].to_position_string(),
        games[1].to_position_string()
    );
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    let output = common::stdout_of(&["solve", "--game", "othello", "--positions", path]);
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 3, "{output}");
    for (line, (number, game)) in lines.iter().zip([(2, &games[0]), (4, &games[1])]) {
        let expected = format!("line {number}: othello, ");
        let value = format!(": {:+} for ", brute_force(game));
        assert!(
            line.starts_with(&expected) && line.contains(&value),
            "{line}"
        );
    }
    // The total is the sum of the lines' nodes.
    let nodes = |line: &str| -> u64 {
        let (_, after) = line.split_once(" — ").unwrap_or(("", line));
        after.split(' ').next().unwrap().parse().unwrap()
    };
    let total = lines[2].strip_prefix("2 positions: ").expect(lines[2]);
    assert_eq!(nodes(total), nodes(lines[0]) + nodes(lines[1]), "{output}");

    // Every line is checked before any is solved, and a bad one is named.
    let start = Othello::start().to_position_string();
    let refused = |text: &str| {
        std::fs::write(&file, text).unwrap();
        common::bad_input(&["solve", "--game", "othello", "--positions", path])
    };
    let first = games[0].to_position_string();
    assert_eq!(
        refused(&format!("{first}\n{start}\n")),
        format!("error: {path} line 2: 60 empty squares (the solver takes at most 30)")
    );
    assert!(
        refused(&format!("{first}\nXO\n")).starts_with(&format!("error: {path} line 2: ")),
        "a malformed line is named"
    );
    assert_eq!(
        refused("# nothing\n"),
        format!("error: {path} holds no position")
    );
    assert!(
        common::bad_input(&[
            "solve",
            "--game",
            "othello",
            "--positions",
            path,
            "--position",
            &first
        ])
        .contains("cannot be used with"),
        "--position and --positions are one or the other"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_positions_file_out_of_time_reports_every_line_and_fails() {
    // FFO #49 takes many seconds; a late position of 9 empties, milliseconds.
    let ffo = ffo_positions().pop().unwrap().game;
    let late = late_positions(1).remove(0);
    let dir = common::temp_dir("solve-positions-out-of-time");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("endgames.txt");
    let text = format!(
        "{}\n{}\n",
        ffo.to_position_string(),
        late.to_position_string()
    );
    std::fs::write(&file, text).unwrap();
    let output = common::evoboard(&[
        "solve",
        "--game",
        "othello",
        "--positions",
        file.to_str().unwrap(),
        "--time-limit",
        "0.5",
    ]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let out = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("line 1: no exact value within the time limit"),
        "{out}"
    );
    assert!(
        lines[1].contains(&format!(": {:+} for ", brute_force(&late))),
        "{out}"
    );
    assert!(lines[2].starts_with("2 positions: "), "{out}");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr).lines().last(),
        Some("error: 1 of 2 positions had no exact value within the time limit")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_solve_command_gives_one_value_whatever_orders_its_moves() {
    let game = ffo_positions().remove(0);
    let line = |order_by: &str| {
        let output = common::stdout_of(&[
            "solve",
            "--game",
            "othello",
            "--position",
            &game.game.to_position_string(),
            "--threads",
            "1",
            "--order-by",
            order_by,
        ]);
        // The value and best move, without the nodes and time.
        output.split(" — ").next().unwrap().to_string()
    };
    let by_network = line("shipped");
    assert!(by_network.contains("+38 for X"), "{by_network}");
    assert_eq!(line("heuristic"), by_network);
    let league = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../populations/othello-league/champion.evo"
    );
    assert_eq!(line(league), by_network);
}

#[test]
fn the_endgame_bench_solves_ffo_positions_on_one_and_two_threads() {
    let output = common::stdout_of(&[
        "bench",
        "--game",
        "othello",
        "--endgame",
        "1",
        "--repeats",
        "1",
    ]);
    assert!(
        output.starts_with("endgame FFO #40 (20 empties): 1 thread: ")
            && output.contains("; 2 threads: ")
            && output.contains("endgame FFO #40-#40: "),
        "{output}"
    );
    assert_eq!(
        common::bad_input(&["bench", "--game", "kalah", "--endgame", "1"]),
        "error: bench --endgame measures evoboard's Othello solver: it takes --game othello"
    );
}

#[test]
fn progress_reports_bounds_that_close_in_on_the_value() {
    let FfoPosition { game, margin, .. } = ffo_positions().remove(0);
    let mut reports = Vec::new();
    let options = EndgameOptions::default();
    let solution = solve_endgame_within(&game, &options, &mut |p| reports.push(p)).unwrap();
    assert_eq!(solution.margin, margin);
    assert!(!reports.is_empty());
    for pair in reports.windows(2) {
        assert!(pair[0].lower <= pair[1].lower && pair[1].upper <= pair[0].upper);
        assert!(pair[0].nodes <= pair[1].nodes);
    }
    for report in &reports {
        assert!(
            (report.lower..=report.upper).contains(&margin),
            "{report:?}"
        );
    }
    let last = reports.last().unwrap();
    assert_eq!((last.lower, last.upper), (margin, margin));
}

#[test]
fn a_solve_past_its_deadline_stops_with_the_bounds_proven() {
    // FFO #49 takes seconds; a deadline already past stops it at the first look at the clock.
    let FfoPosition {
        number,
        game,
        margin,
        ..
    } = ffo_positions().pop().unwrap();
    assert_eq!(number, 49);
    let clock = Instant::now();
    let options = EndgameOptions {
        deadline: Some(clock),
        ..EndgameOptions::default()
    };
    let stopped = solve_endgame_within(&game, &options, &mut |_| {});
    let Err(EndgameError::OutOfTime {
        lower,
        upper,
        nodes,
    }) = stopped
    else {
        panic!("{stopped:?}");
    };
    assert!((lower..=upper).contains(&margin));
    assert!(nodes > 0);
    assert!(clock.elapsed() < Duration::from_secs(60));
}

#[test]
fn the_solve_command_gives_up_at_its_time_limit() {
    let game = ffo_positions().pop().unwrap().game;
    let position = game.to_position_string();
    let args = |limit| {
        [
            "solve",
            "--game",
            "othello",
            "--position",
            &position,
            "--time-limit",
            limit,
        ]
    };
    let output = common::evoboard(&args("0.01"));
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.trim_end()
            .ends_with("the value for the side to move lies in -64..=64")
            && err.contains("error: no exact value within the time limit: after "),
        "{err}"
    );
    assert_eq!(
        common::bad_input(&args("0")),
        "error: invalid value '0' for '--time-limit <TIME_LIMIT>': '0' is not a number of seconds in (0, 86400] (see --help)"
    );
}
