//! `evoboard play` driven through stdin: moves, hints, undo, bad input, quit, end of input,
//! and a saved record that `show --moves` replays.

mod common;

use std::process::Command;

/// Runs `play` with `args`, feeding `input`; returns (exit code, stdout, stderr).
fn play(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let output = common::evoboard_with_input(&all, input);
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The hint tables printed in `out` whose header contains `header`: the line after each.
fn hint_tables<'a>(out: &'a str, header: &str) -> Vec<&'a str> {
    let lines: Vec<&str> = out.lines().collect();
    lines
        .windows(2)
        .filter(|pair| pair[0].contains("hint for ") && pair[0].contains(header))
        .map(|pair| pair[1].trim())
        .collect()
}

#[test]
fn a_hint_prints_once_per_request_and_says_what_its_values_are() {
    // `--hints` shows the table once a turn; `hint` once more each time it is typed, and
    // `board` and `help` none.
    let (code, out, err) = play(
        &[
            "--game", "kalah", "--first", "human", "--second", "random", "--hints",
        ],
        "hint\nboard\nhelp\nhint\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let header = "hint for South (heuristic:4, best first; value: heuristic:4's evaluation for \
                  South, higher is better):";
    assert_eq!(out.matches(header).count(), 3, "{out}");
    let tables = hint_tables(&out, "(heuristic:4, best first;");
    assert_eq!(tables.len(), 3, "{out}");
    assert!(tables.iter().all(|t| *t == tables[0]), "{out}");
    assert_eq!(tables[0].split(" | ").count(), 6, "{out}");
    // A search that sees the game's end says so, with the margin in seeds (pit 1
    // captures and ends the game 4 ahead), not as a raw win value.
    let (code, out, err) = play(
        &[
            "--game",
            "kalah",
            "--position",
            "1,0,0,0,0,3 1,0,0,0,5,0 0 0 S",
            "--first",
            "human",
            "--second",
            "human",
            "--hint-engine",
            "heuristic:8",
        ],
        "hint\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("are sure results, by N seeds at the end):"),
        "{out}"
    );
    let tables = hint_tables(&out, "(heuristic:8, best first;");
    assert_eq!(tables.len(), 1, "{out}");
    assert!(tables[0].starts_with("1 wins by 4 | "), "{out}");
    assert!(!out.contains("1000"), "{out}");
}

#[test]
fn othello_human_session_with_hint_errors_undo_and_quit() {
    let (code, out, err) = play(
        &["--game", "othello", "--first", "human", "--second", "first"],
        "help\nhint\nz9\na1\nf5\nundo\nd3\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("commands: a move"), "{out}");
    assert!(
        out.contains("hint for black (X) (heuristic:4, best first; value: heuristic:4's"),
        "{out}"
    );
    assert!(out.contains("malformed move 'z9'"), "{out}");
    assert!(
        out.contains("'a1' is not legal here; legal: d3 c4 f5 e6"),
        "{out}"
    );
    assert!(
        out.contains("black (X) plays f5 (flips 1, score 4–1)"),
        "{out}"
    );
    assert!(
        out.contains("taken back to black (X)'s previous turn"),
        "{out}"
    );
    assert!(out.contains("black (X) plays d3"), "{out}");
    // After the undo the engine answers d3 with its first legal move, c3.
    assert!(out.contains("white (O) plays c3"), "{out}");
    assert!(out.trim_end().ends_with("game abandoned"), "{out}");
}

#[test]
fn kalah_extra_turn_and_end_of_input() {
    let (code, out, _) = play(
        &[
            "--game", "kalah", "--first", "human", "--second", "normal", "--hints",
        ],
        "3\n7\nundo\nundo\n",
    );
    assert_eq!(code, Some(0));
    assert!(
        out.contains("South plays 3 (score 1–0, and moves again)"),
        "{out}"
    );
    assert!(out.contains("expected a pit number from 1 to 6"), "{out}");
    assert!(out.contains("taken back to South's previous turn"), "{out}");
    assert!(out.contains("nothing to undo"), "{out}");
    assert!(out.contains("end of input: game abandoned"), "{out}");
    assert!(
        out.matches("hint for South (heuristic:4").count() >= 3,
        "hints before every human move"
    );
}

/// Two engines play `game` to the end with `--record`; the record's moves, replayed by
/// `show --moves` from its start position, must reach a finished game with its score.
fn engines_finish_and_the_record_replays(game: &str, game_name: &str, first: &str, second: &str) {
    let dir = std::env::temp_dir().join(format!("evoboard-play-{game}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.txt");
    let (code, out, err) = play(
        &[
            "--game",
            game,
            "--first",
            first,
            "--second",
            second,
            "--record",
            record.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("game over: "), "{out}");
    assert!(
        !out.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
    let text = std::fs::read_to_string(&record).unwrap();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .unwrap()
            .to_string()
    };
    assert_eq!(field("game"), game_name);
    let replay = Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .args([
            "show",
            "--game",
            game,
            "--position",
            &field("start"),
            "--moves",
            &field("moves"),
            "--json",
        ])
        .output()
        .unwrap();
    assert!(replay.status.success(), "{replay:?}");
    let shown: serde_json::Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(shown["terminal"], true);
    let score: Vec<u64> = shown["score"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    // The winner's score first (a draw's are equal).
    let (high, low) = (score[0].max(score[1]), score[0].min(score[1]));
    assert!(
        field("result").ends_with(&format!("{high}–{low}")),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn oware_engines_finish_and_the_record_replays() {
    engines_finish_and_the_record_replays("ayo", "oware", "random", "normal");
}

#[test]
fn oware_human_session_with_hint_illegal_move_and_undo() {
    let (code, out, _) = play(
        &["--game", "oware", "--first", "expert", "--second", "human"],
        "hint\n9\n1\nundo\n2\nquit\n",
    );
    assert_eq!(code, Some(0));
    assert!(out.contains("South plays"), "the engine opens: {out}");
    assert!(
        out.contains("hint for North (heuristic:4, best first; value: "),
        "{out}"
    );
    assert!(out.contains("expected a pit number from 1 to 6"), "{out}");
    assert!(out.contains("North plays 1"), "{out}");
    assert!(out.contains("taken back to North's previous turn"), "{out}");
    assert!(out.contains("North plays 2"), "{out}");
    assert!(out.trim_end().ends_with("game abandoned"), "{out}");
}

#[test]
fn bad_seats_are_errors() {
    let (code, _, err) = play(
        &[
            "--game", "othello", "--first", "nobody", "--second", "human",
        ],
        "",
    );
    assert_eq!(code, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn congklak_human_session_with_relay_hint_undo_and_pass() {
    // From a hand-made position: South's hole 6 relays through hole 7 (see the rule tests).
    let (code, out, err) = play(
        &[
            "--game",
            "congklak",
            "--position",
            "0,0,0,0,0,1,1 0,0,0,0,0,0,1 0 0 S",
            "--first",
            "human",
            "--second",
            "first",
        ],
        "hint\n9\n6\nundo\n6\npass\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("hint for South (heuristic:4, best first; value: "),
        "{out}"
    );
    assert!(
        out.contains("'9' is not") || out.contains("from 1 to 7"),
        "{out}"
    );
    assert!(out.contains("South plays 6 (1 relay, score 1–0)"), "{out}");
    assert!(out.contains("taken back to South's previous turn"), "{out}");
    // South's row is empty: after North's reply (a lone shot) South can only pass.
    assert!(out.contains("North plays 1 (score 1–1)"), "{out}");
    assert!(out.contains("South plays pass"), "{out}");
    assert!(out.contains("game over: North wins 2–1"), "{out}");
    assert!(out.contains("moves: 6,1,pass,7"), "{out}");
}

#[test]
fn congkak_simultaneous_opening_hides_the_engine_choice() {
    let (code, out, err) = play(
        &[
            "--game", "congkak", "--first", "normal", "--second", "human",
        ],
        "3/5\n0\n5\n",
    );
    assert_eq!(code, Some(0), "{err}");
    // The engine chose first but its hole is not shown before North chooses.
    let hidden = out
        .find("South has chosen (hidden until both have)")
        .expect(&out);
    let prompt = out.find("North, choose your hole").expect(&out);
    assert!(hidden < prompt, "{out}");
    assert!(out.contains("expected your hole number, 1 to 7"), "{out}");
    assert!(out.contains("both play "), "{out}");
    let joint = out
        .lines()
        .find_map(|l| l.split("both play ").nth(1))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    assert!(
        joint.ends_with("/5"),
        "North's part is its own choice: {joint}"
    );
    assert!(out.contains("end of input: game abandoned"), "{out}");
}

#[test]
fn congkak_engines_play_a_whole_match_and_the_record_replays() {
    engines_finish_and_the_record_replays("congkak", "congkak", "expert", "random");
}

#[test]
fn kalah_capture_illegal_empty_pit_and_quit() {
    // South's pit 1 (1 seed) lands in empty pit 2 facing North's 5-seed pit: a capture.
    let (code, out, err) = play(
        &[
            "--game",
            "kalah",
            "--position",
            "1,0,0,0,0,3 1,0,0,0,5,0 0 0 S",
            "--first",
            "human",
            "--second",
            "human",
        ],
        "2\n1\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("'2' is not legal here; legal: 1 6"), "{out}");
    assert!(out.contains("South plays 1 (captures, score 6–0)"), "{out}");
    assert!(out.contains("North to move> game abandoned"), "{out}");
}

#[test]
fn two_people_at_the_congkak_opening_each_enter_their_own_hole_with_hints_and_undo() {
    let dir = std::env::temp_dir().join(format!("evoboard-congkak-people-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("match.txt");
    let (code, out, err) = play(
        &[
            "--game",
            "congkak",
            "--first",
            "human",
            "--second",
            "human",
            "--hint-engine",
            "minimax:2:stores",
            "--record",
            record.to_str().unwrap(),
        ],
        "hint\n3\nhint\n5\nundo\n1\n1\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    // Hints at the joint choice list each own hole once, for South and for North.
    let hints = hint_tables(&out, "(minimax:2:stores, best first;");
    assert_eq!(hints.len(), 2, "{out}");
    for hint in &hints {
        assert_eq!(hint.split(" | ").count(), 7, "{hint}");
    }
    assert!(out.contains("both play 3/5"), "{out}");
    // The undo goes back to before the joint move, and both choose again.
    let after_undo = out.split("taken back to").nth(1).expect(&out);
    assert!(after_undo.contains("both play 1/1"), "{out}");
    assert!(out.trim_end().ends_with("game abandoned"), "{out}");
    assert!(!record.exists(), "an abandoned game saves no record");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_human_game_to_the_end_saves_a_record_that_replays() {
    let dir = std::env::temp_dir().join(format!("evoboard-congklak-rec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.txt");
    let start = "0,0,0,0,0,1,1 0,0,0,0,0,0,1 0 0 S";
    let (code, out, err) = play(
        &[
            "--game",
            "congklak",
            "--position",
            start,
            "--first",
            "human",
            "--second",
            "human",
            "--record",
            record.to_str().unwrap(),
        ],
        "6\n1\npass\n7\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("game over: North wins 2–1"), "{out}");
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(
        text,
        format!("game: congklak\nstart: {start}\nmoves: 6,1,pass,7\nresult: North wins 2–1\n")
    );
    let replay = common::evoboard(&[
        "show",
        "--game",
        "congklak",
        "--position",
        start,
        "--moves",
        "6,1,pass,7",
        "--json",
    ]);
    let shown: serde_json::Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(shown["terminal"], true);
    assert_eq!(shown["score"], serde_json::json!([1, 2]));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn othello_positions_starting_with_a_hyphen_are_accepted() {
    // The start position with black to move: its string begins with '-'.
    let start = "---------------------------OX------XO--------------------------- X";
    let (code, out, err) = play(
        &[
            "--game",
            "othello",
            "--first",
            "human",
            "--second",
            "first",
            "--position",
            start,
        ],
        "f5\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("black (X) plays f5"), "{out}");
}

#[test]
fn a_line_that_is_not_text_is_answered_and_the_game_goes_on() {
    let output = common::evoboard_with_bytes(
        &[
            "play", "--game", "othello", "--first", "human", "--second", "first",
        ],
        b"\xff\xfe\nf5\nquit\n",
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(out.contains("that line is not text (UTF-8)"), "{out}");
    assert!(out.contains("black (X) plays f5"), "{out}");
}

#[test]
fn a_record_that_cannot_be_written_is_refused_before_the_game() {
    let (code, out, err) = play(
        &[
            "--game",
            "kalah",
            "--first",
            "random",
            "--second",
            "random",
            "--record",
            "/nonexistent-dir/game.txt",
        ],
        "",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("error: cannot write the record to /nonexistent-dir/game.txt"),
        "{err}"
    );
    assert!(!out.contains("game over"), "no game is played: {out}");
}

#[test]
fn a_line_too_long_is_answered_and_the_game_goes_on() {
    let mut input = vec![b'x'; 100_000];
    input.extend(b"\nf5\nquit\n");
    let output = common::evoboard_with_bytes(
        &[
            "play", "--game", "othello", "--first", "human", "--second", "first",
        ],
        &input,
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(
        out.contains("that line is longer than 65536 bytes"),
        "{out}"
    );
    assert!(out.contains("black (X) plays f5"), "{out}");
}

#[test]
fn the_game_opens_saying_who_plays_which_side_and_the_commands() {
    let (code, out, _) = play(
        &[
            "--game",
            "kalah",
            "--first",
            "heuristic:2",
            "--second",
            "human",
        ],
        "quit\n",
    );
    assert_eq!(code, Some(0), "{out}");
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("South: heuristic:2, North: human; South moves first")
    );
    let commands = lines.next().unwrap();
    assert!(
        commands.starts_with("commands: ") && commands.contains("`hint`"),
        "{commands}"
    );
    // Engines alone: no commands to offer.
    let (_, out, _) = play(
        &["--game", "othello", "--first", "first", "--second", "first"],
        "",
    );
    assert!(
        out.starts_with("black (X): first, white (O): first; black (X) moves first\n  a b"),
        "{out}"
    );
}

#[test]
fn an_engine_on_a_game_clock_plays_a_whole_othello_game() {
    // `play` does not time the game: the clocked engine takes each earlier move to have
    // used its share of the clock, searches and solves within it, and the game ends.
    let (code, out, err) = play(
        &[
            "--game",
            "othello",
            "--first",
            "heuristic:30~0.5/game",
            "--second",
            "heuristic:1",
        ],
        "",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("game over: "), "{out}");
    let (code, _, err) = play(
        &[
            "--game",
            "kalah",
            "--first",
            "heuristic:4~5/game",
            "--second",
            "random",
        ],
        "",
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("a game clock (~SECONDS/game) is for Othello only"),
        "{err}"
    );
}
