//! End-to-end tests of the `evoboard` binary: exit codes, output formats and error lines.
//!
//! Contract (README, "Commands"): exit 0 on success; bad input exits 2 with one line on stderr that
//! starts with `error:`; clap's own flag errors also exit 2; nothing ever panics.

mod common;

use std::collections::BTreeSet;

use common::{SHIPPED_OTHELLO_CHAMPION, bad_input, evoboard, json_of, stdout_of};
use serde_json::Value;

/// The standard Othello start position, as `show` prints it.
const START: &str = "---------------------------OX------XO--------------------------- X";

/// `--position=TEXT` as one argument. Position strings usually start with `-` (an empty a1);
/// both this form and the separate-argument form work (`position_as_separate_argument`).
fn position_arg(position: &str) -> String {
    format!("--position={position}")
}

fn string_set(value: &Value) -> BTreeSet<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("expected an array, got {value}"))
        .iter()
        .map(|v| v.as_str().expect("array of strings").to_string())
        .collect()
}

fn show_json(extra: &[&str]) -> Value {
    let mut args = vec!["show", "--game", "othello", "--json"];
    args.extend_from_slice(extra);
    json_of(&args)
}

fn perft(depth: u32, position: Option<&str>) -> u64 {
    let depth = depth.to_string();
    let position = position.map(position_arg);
    let mut args = vec!["perft", "--game", "othello", "--depth", &depth];
    if let Some(position) = &position {
        args.push(position);
    }
    let out = stdout_of(&args);
    out.trim()
        .parse()
        .unwrap_or_else(|e| panic!("perft printed '{out}', not a number: {e}"))
}

fn benchmark_json(extra: &[&str]) -> Value {
    let mut args = vec![
        "benchmark",
        "--game",
        "othello",
        "--player",
        "heuristic:3",
        "--opponent",
        "random",
        "--json",
    ];
    args.extend_from_slice(extra);
    json_of(&args)
}

fn number(report: &Value, key: &str) -> f64 {
    report[key]
        .as_f64()
        .unwrap_or_else(|| panic!("'{key}' should be a number in {report}"))
}

fn count(report: &Value, key: &str) -> u64 {
    report[key]
        .as_u64()
        .unwrap_or_else(|| panic!("'{key}' should be a whole number in {report}"))
}

// ---------------------------------------------------------------------------------------
// perft

#[test]
fn perft_depth_5_from_start_is_1396() {
    let out = stdout_of(&["perft", "--game", "othello", "--depth", "5"]);
    assert_eq!(out, "1396\n");
}

#[test]
fn perft_matches_published_othello_counts() {
    let published = [1, 4, 12, 56, 244, 1396, 8200, 55092];
    for (depth, &leaves) in published.iter().enumerate() {
        assert_eq!(perft(depth as u32, None), leaves, "perft({depth})");
    }
}

#[test]
fn perft_from_explicit_start_position_equals_default() {
    assert_eq!(perft(4, Some(START)), perft(4, None));
}

#[test]
fn perft_depth_1_from_position_counts_its_legal_moves() {
    let after_f5 = show_json(&["--moves", "f5"]);
    let position = after_f5["position"].as_str().expect("position string");
    let legal = after_f5["legal"].as_array().expect("legal array").len() as u64;
    assert_eq!(legal, 3, "after f5 white has f4, d6 and f6");
    assert_eq!(perft(1, Some(position)), legal);
    // One ply deeper from f5 is the start's depth-2 count spread over one first move:
    // by symmetry each of the four first moves has the same subtree.
    assert_eq!(perft(2, Some(position)) * 4, perft(3, None));
}

#[test]
fn perft_of_finished_game_is_one_leaf() {
    let finished = format!("{}---- O", "X".repeat(60));
    assert_eq!(perft(1, Some(&finished)), 1);
    assert_eq!(perft(3, Some(&finished)), 1);
}

// ---------------------------------------------------------------------------------------
// show

#[test]
fn show_json_start_position_fields() {
    let start = show_json(&[]);
    assert_eq!(start["game"], "othello");
    assert_eq!(start["position"], START);
    assert_eq!(start["to_move"], 0);
    assert_eq!(
        string_set(&start["legal"]),
        ["d3", "c4", "f5", "e6"].map(String::from).into()
    );
    assert_eq!(start["terminal"], false);
    assert_eq!(start["score"], serde_json::json!([2, 2]));
    // Files, the 8 ranks (d4 and e5 white, d5 and e4 black, `*` on the legal squares), and
    // the count line.
    assert_eq!(
        start["board"],
        serde_json::json!([
            "  a b c d e f g h",
            "1 . . . . . . . .",
            "2 . . . . . . . .",
            "3 . . . * . . . .",
            "4 . . * O X . . .",
            "5 . . . X O * . .",
            "6 . . . . * . . .",
            "7 . . . . . . . .",
            "8 . . . . . . . .",
            "X (black) 2  O (white) 2  X to move  (* = legal move)",
        ])
    );
}

#[test]
fn show_json_position_round_trips() {
    for moves in ["", "f5", "f5,d6,c3", "f5,f6,e6,f4"] {
        let first = show_json(&["--moves", moves]);
        let position = first["position"].as_str().expect("position string");
        let again = show_json(&[&position_arg(position)]);
        assert_eq!(again, first, "round trip after moves '{moves}'");
    }
}

#[test]
fn show_after_f5_white_is_to_move() {
    let after = show_json(&["--moves", "f5"]);
    assert_eq!(after["to_move"], 1);
    assert_eq!(after["score"], serde_json::json!([4, 1]));
    assert_eq!(
        string_set(&after["legal"]),
        ["f4", "d6", "f6"].map(String::from).into()
    );
    assert_eq!(after["terminal"], false);
}

#[test]
fn show_text_after_three_moves() {
    let out = stdout_of(&["show", "--game", "othello", "--moves", "f5,d6,c3"]);
    assert!(out.contains("a b c d e f g h"), "{out}");
    assert!(out.contains("O to move"), "{out}");
    let position = out
        .lines()
        .find_map(|line| line.strip_prefix("position: "))
        .unwrap_or_else(|| panic!("no position line in {out}"));
    assert!(position.ends_with(" O"), "{position}");
    let legal: BTreeSet<&str> = out
        .lines()
        .find_map(|line| line.strip_prefix("legal: "))
        .unwrap_or_else(|| panic!("no legal line in {out}"))
        .split_whitespace()
        .collect();
    assert_eq!(legal, ["d3", "f3", "f4", "g5"].into());
    // The printed position is the same one the JSON form reports.
    let json = show_json(&["--moves", "f5,d6,c3"]);
    assert_eq!(json["position"], position);
}

#[test]
fn show_moves_accept_spaces_and_upper_case() {
    let a = show_json(&["--moves", "f5,d6,c3"]);
    let b = show_json(&["--moves", "F5, D6 ,c3"]);
    assert_eq!(a, b);
}

#[test]
fn finished_game_black_wins_with_empties() {
    let position = format!("{}---- O", "X".repeat(60));
    let shown = show_json(&[&position_arg(&position)]);
    assert_eq!(shown["terminal"], true);
    assert_eq!(shown["score"], serde_json::json!([64, 0]));
    assert_eq!(shown["legal"], serde_json::json!([]));
    assert_eq!(shown["to_move"], 1);

    let text = stdout_of(&["show", "--game", "othello", &position_arg(&position)]);
    let over = text
        .lines()
        .find(|line| line.starts_with("game over"))
        .unwrap_or_else(|| panic!("no game-over line in {text}"));
    assert!(over.contains("64"), "{over}");
    assert!(!text.contains("legal:"), "{text}");
}

#[test]
fn finished_game_white_wins_with_empties() {
    let position = format!("{}---- X", "O".repeat(60));
    let shown = show_json(&[&position_arg(&position)]);
    assert_eq!(shown["terminal"], true);
    assert_eq!(shown["score"], serde_json::json!([0, 64]));
    assert_eq!(shown["to_move"], 0);
}

#[test]
fn full_board_is_terminal_with_disc_counts() {
    let position = format!("{}O X", "X".repeat(63));
    let shown = show_json(&[&position_arg(&position)]);
    assert_eq!(shown["terminal"], true);
    assert_eq!(shown["score"], serde_json::json!([63, 1]));
}

#[test]
fn forced_pass_is_the_only_legal_move() {
    // a1 O, b1 X, c1 empty: X (to move) cannot flank anything, O can play c1, so X passes.
    let position = format!("OX{} X", "-".repeat(62));
    let shown = show_json(&[&position_arg(&position)]);
    assert_eq!(shown["terminal"], false);
    assert_eq!(shown["legal"], serde_json::json!(["pass"]));
    let after = show_json(&[&position_arg(&position), "--moves", "pass"]);
    assert_eq!(after["to_move"], 1);
    assert_eq!(string_set(&after["legal"]), ["c1".to_string()].into());
}

// ---------------------------------------------------------------------------------------
// bad input: exit 2, one `error:` line, no panic

#[test]
fn malformed_position_wrong_length() {
    let line = bad_input(&["show", "--game", "othello", "--position=XXX X"]);
    assert!(line.contains("malformed position"), "{line}");
    let line = bad_input(&[
        "perft",
        "--game",
        "othello",
        "--depth",
        "1",
        "--position=XX",
    ]);
    assert!(line.contains("malformed position"), "{line}");
}

#[test]
fn malformed_position_bad_symbol() {
    let position = START.replacen('O', "Q", 1);
    let line = bad_input(&["show", "--game", "othello", &position_arg(&position)]);
    assert!(line.contains("malformed position"), "{line}");
    assert!(line.contains("'Q'"), "{line}");
}

#[test]
fn malformed_position_bad_side_to_move() {
    let position = START.replace(" X", " Z");
    let line = bad_input(&["show", "--game", "othello", &position_arg(&position)]);
    assert!(line.contains("side to move"), "{line}");
    let no_side = START.trim_end_matches(" X");
    let line = bad_input(&["show", "--game", "othello", &position_arg(no_side)]);
    assert!(line.contains("malformed position"), "{line}");
}

#[test]
fn illegal_move_in_moves() {
    let line = bad_input(&["show", "--game", "othello", "--moves", "a1"]);
    assert!(line.contains("illegal move 'a1'"), "{line}");
    // Legal first move, illegal second one (f5 again is occupied).
    let line = bad_input(&["show", "--game", "othello", "--moves", "f5,f5"]);
    assert!(line.contains("illegal move"), "{line}");
    // Passing is illegal when a placement exists.
    bad_input(&["show", "--game", "othello", "--moves", "pass"]);
}

#[test]
fn malformed_move_in_moves() {
    let line = bad_input(&["show", "--game", "othello", "--moves", "z9"]);
    assert!(line.contains("malformed move 'z9'"), "{line}");
    bad_input(&["show", "--game", "othello", "--moves", "f5,a0"]);
}

#[test]
fn unknown_agent_spec() {
    let err = bad_input(&["benchmark", "--game", "othello", "--player", "foo"]);
    assert!(
        err.lines().next().unwrap().contains("bad agent spec 'foo'"),
        "{err}"
    );
    let err = bad_input(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        "random",
        "--opponent",
        "minimax:2",
    ]);
    assert!(err.contains("bad agent spec 'minimax:2'"), "{err}");
}

#[test]
fn bad_agent_specs_name_the_spec_and_the_problem() {
    let cases = [
        ("heuristic:0", "depth"),
        ("heuristic:x", "depth"),
        ("wpc:31", "depth"),
        ("heuristic:-1", "depth"),
        ("random@2", "@EPS"),
        ("random@-0.5", "@EPS"),
        ("random@x", "@EPS"),
        ("heuristic:2@", "@EPS"),
    ];
    for (spec, problem) in cases {
        let player = format!("--player={spec}");
        let err = bad_input(&["benchmark", "--game", "othello", &player]);
        assert!(err.contains(&format!("bad agent spec '{spec}'")), "{err}");
        assert!(err.contains(problem), "{err}");
    }
}

#[test]
fn unknown_evaluator() {
    let line = bad_input(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        "minimax:2:nonsense",
        "--games",
        "2",
    ]);
    assert!(line.contains("unknown evaluator 'nonsense'"), "{line}");
    assert!(line.contains("minimax:2:nonsense"), "{line}");
}

#[test]
fn missing_weights_file() {
    let line = bad_input(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        "minimax:2:/nonexistent.json",
        "--games",
        "2",
    ]);
    assert!(line.contains("/nonexistent.json"), "{line}");
    assert!(line.contains("cannot read weights file"), "{line}");
}

/// The evaluator errors above say their cause once, not twice.
#[test]
fn evaluator_errors_do_not_repeat_their_cause() {
    for (spec, cause) in [
        ("minimax:2:nonsense", "unknown evaluator"),
        ("minimax:2:/nonexistent.json", "cannot read weights file"),
    ] {
        let line = bad_input(&["benchmark", "--game", "othello", "--player", spec]);
        assert_eq!(line.matches(cause).count(), 1, "{line}");
    }
}

#[test]
fn weights_files_valid_and_invalid() {
    let dir = std::env::temp_dir().join(format!("evoboard-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let good = dir.join("good.json");
    let unknown_key = dir.join("unknown.json");
    let not_json = dir.join("broken.json");
    std::fs::write(&good, r#"{"corner": 50, "greedy": 0.5}"#).unwrap();
    std::fs::write(&unknown_key, r#"{"corners": 50}"#).unwrap();
    std::fs::write(&not_json, "{ this is not json").unwrap();

    let spec = |path: &std::path::Path| format!("minimax:1:{}", path.display());
    let good_spec = spec(&good);
    let report = json_of(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        &good_spec,
        "--opponent",
        "random",
        "--games",
        "2",
        "--json",
    ]);
    assert_eq!(count(&report, "games"), 2);
    for path in [&unknown_key, &not_json] {
        let spec = spec(path);
        let line = bad_input(&["benchmark", "--game", "othello", "--player", &spec]);
        assert!(line.contains("weights file"), "{line}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unknown_flag() {
    bad_input(&["perft", "--game", "othello", "--depth", "1", "--bogus"]);
    bad_input(&["show", "--game", "othello", "--frobnicate"]);
    bad_input(&["no-such-command"]);
}

#[test]
fn unknown_game() {
    let err = bad_input(&["perft", "--game", "chess", "--depth", "1"]);
    assert!(err.contains("chess"), "{err}");
    bad_input(&["show", "--game", "chess"]);
}

#[test]
fn missing_required_flags() {
    bad_input(&["perft", "--game", "othello"]);
    bad_input(&["benchmark", "--game", "othello"]);
    bad_input(&["perft", "--game", "othello", "--depth", "-1"]);
}

#[test]
fn zero_games() {
    let line = bad_input(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        "random",
        "--games",
        "0",
    ]);
    assert!(line.contains("--games"), "{line}");
}

#[test]
fn too_many_openings_for_too_few_plies() {
    let line = bad_input(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        "random",
        "--games",
        "100",
        "--openings",
        "1",
    ]);
    assert!(line.contains("found only 4"), "{line}");
    // 8 games need 4 openings, and exactly 4 distinct 1-ply openings exist.
    let report = benchmark_json(&["--games", "8", "--openings", "1"]);
    assert_eq!(count(&report, "games"), 8);
}

/// Position strings start with `-` whenever a1 is empty, which is almost always; passing
/// one as a separate argument (`--position "---…"`) must work like `--position=---…`.
#[test]
fn position_as_separate_argument() {
    let out = stdout_of(&["show", "--game", "othello", "--json", "--position", START]);
    let shown: Value = serde_json::from_str(out.trim()).expect("JSON");
    assert_eq!(shown["position"], START);
    let out = stdout_of(&[
        "perft",
        "--game",
        "othello",
        "--depth",
        "1",
        "--position",
        START,
    ]);
    assert_eq!(out, "4\n");
}

#[test]
fn position_not_starting_with_hyphen_works_as_separate_argument() {
    let position = format!("{}---- O", "X".repeat(60));
    let out = stdout_of(&[
        "show",
        "--game",
        "othello",
        "--json",
        "--position",
        &position,
    ]);
    let shown: Value = serde_json::from_str(out.trim()).expect("JSON");
    assert_eq!(shown["position"], position.as_str());
}

/// Errors echo the user's text; a newline in it must not split the error line.
#[test]
fn error_line_stays_one_line_with_newline_in_input() {
    bad_input(&["show", "--game", "othello", "--position=bad\nX"]);
    bad_input(&["show", "--game", "othello", "--moves", "z\n9"]);
}

// ---------------------------------------------------------------------------------------
// benchmark

#[test]
fn benchmark_json_heuristic_beats_random() {
    let report = benchmark_json(&["--games", "100"]);
    for key in [
        "wins",
        "draws",
        "losses",
        "win_rate",
        "ci_low",
        "ci_high",
        "mean_margin",
        "mean_length",
        "games",
    ] {
        assert!(report.get(key).is_some(), "missing '{key}' in {report}");
    }
    assert_eq!(report["game"], "othello");
    assert_eq!(report["player"], "heuristic:3");
    assert_eq!(report["opponent"], "random");
    assert_eq!(count(&report, "games"), 100);
    let (wins, draws, losses) = (
        count(&report, "wins"),
        count(&report, "draws"),
        count(&report, "losses"),
    );
    assert_eq!(wins + draws + losses, 100, "{report}");
    assert!(wins >= 95, "heuristic:3 should crush random: {report}");
    let win_rate = number(&report, "win_rate");
    let (low, high) = (number(&report, "ci_low"), number(&report, "ci_high"));
    assert!((win_rate - wins as f64 / 100.0).abs() < 1e-9, "{report}");
    assert!(0.0 <= low && low <= win_rate, "{report}");
    assert!(win_rate <= high && high <= 1.0, "{report}");
    assert!(number(&report, "mean_margin") > 0.0, "{report}");
    let length = number(&report, "mean_length");
    assert!((20.0..=64.0).contains(&length), "{report}");
}

#[test]
fn benchmark_is_deterministic_across_thread_counts() {
    let run_with =
        |threads: &str| benchmark_json(&["--seed", "7", "--games", "20", "--threads", threads]);
    let one = run_with("1");
    let two = run_with("2");
    for key in [
        "games",
        "wins",
        "draws",
        "losses",
        "mean_margin",
        "mean_length",
    ] {
        assert_eq!(one[key], two[key], "'{key}' differs: {one} vs {two}");
        assert!(one[key].is_number(), "'{key}' missing: {one}");
    }
    for side in ["player_time", "opponent_time"] {
        assert_eq!(
            one[side]["moves"], two[side]["moves"],
            "move counts differ: {one} vs {two}"
        );
    }
    assert_eq!(count(&one, "games"), 20);
    assert_eq!(one["seed"], 7);
}

#[test]
fn benchmark_seed_is_reproducible_with_random_players() {
    let args = [
        "benchmark",
        "--game",
        "othello",
        "--player",
        "random",
        "--opponent",
        "heuristic:1@0.3",
        "--games",
        "10",
        "--seed",
        "3",
        "--json",
    ];
    let a = json_of(&args);
    let b = json_of(&args);
    for key in ["wins", "draws", "losses", "mean_margin", "mean_length"] {
        assert_eq!(a[key], b[key], "'{key}' differs between identical runs");
    }
}

#[test]
fn benchmark_text_table() {
    let out = stdout_of(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        "heuristic:3",
        "--opponent",
        "random",
        "--games",
        "10",
    ]);
    assert!(out.contains("win rate"), "{out}");
    assert!(out.contains("heuristic:3"), "{out}");
    assert!(out.contains("random"), "{out}");
    assert!(out.contains("10 games"), "{out}");
    assert!(
        serde_json::from_str::<Value>(out.trim()).is_err(),
        "text mode printed JSON"
    );
}

#[test]
fn an_odd_number_of_games_is_refused_by_every_series_command() {
    for command in [
        &[
            "benchmark",
            "--game",
            "kalah",
            "--player",
            "random",
            "--opponent",
            "random",
        ][..],
        &["tournament", "--game", "kalah", "--agents", "random,random"][..],
        &["panel", "--game", "othello", "--player", "random"][..],
    ] {
        let args = [command, &["--games", "3"][..]].concat();
        let message = bad_input(&args);
        assert!(message.contains("use an even number"), "{message}");
    }
}

#[test]
fn unwritable_outputs_are_refused_before_any_work_and_named() {
    let csv = "/nonexistent-dir/table.csv";
    for command in [
        &[
            "tournament",
            "--game",
            "kalah",
            "--agents",
            "random,random",
            "--games",
            "2",
            "--csv",
            csv,
        ][..],
        &["gifford", "--games", "1", "--csv", csv][..],
    ] {
        let message = bad_input(command);
        assert!(
            message.contains("cannot write the CSV table to /nonexistent-dir/table.csv"),
            "{message}"
        );
    }
    let out =
        std::env::temp_dir().join(format!("evoboard-unwritable-plots-{}", std::process::id()));
    let message = bad_input(&[
        "evolve",
        "--game",
        "kalah",
        "--td-games",
        "10",
        "--generations",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--plots",
        "/proc/evoboard-plots",
    ]);
    assert!(
        message.contains("cannot write plots to /proc/evoboard-plots"),
        "{message}"
    );
    assert!(!out.exists(), "no run is started");
}

#[test]
fn prune_says_which_games_it_studies_before_printing_anything() {
    let message = bad_input(&[
        "prune",
        "--game",
        "othello",
        "--ranker",
        SHIPPED_OTHELLO_CHAMPION,
    ]);
    assert!(message.contains("--game must be kalah, oware"), "{message}");
    // A ranker of another game fails before the table starts (bad_input: no stdout).
    let message = bad_input(&[
        "prune",
        "--game",
        "kalah",
        "--ranker",
        SHIPPED_OTHELLO_CHAMPION,
    ]);
    assert!(message.contains("not kalah"), "{message}");
}

#[test]
fn bare_evoboard_prints_the_whole_help_line_by_line() {
    let output = evoboard(&[]);
    assert_eq!(output.status.code(), Some(2));
    let help = String::from_utf8(output.stderr).unwrap();
    assert!(help.lines().count() > 10, "{help}");
    assert!(
        help.lines()
            .any(|line| line.trim_start().starts_with("evolve")),
        "{help}"
    );
}

/// A negative number for a whole-number flag is answered as such, whatever the command
/// (clap used to take `-10` for a flag: "unexpected argument '-1' found").
#[test]
fn negative_counts_are_refused_as_such_by_every_command() {
    let cases: [&[&str]; 5] = [
        &[
            "benchmark",
            "--game",
            "othello",
            "--player",
            "random",
            "--opponent",
            "random",
            "--games",
            "-10",
        ],
        &[
            "tournament",
            "--game",
            "kalah",
            "--agents",
            "random,first",
            "--openings",
            "-2",
        ],
        &["perft", "--game", "othello", "--depth", "-1"],
        &["bench", "--repeats", "-4"],
        &["solve", "--pits", "-3"],
    ];
    for args in cases {
        let message = bad_input(args);
        assert!(
            message.contains("must be a positive integer"),
            "{args:?}: {message}"
        );
        assert!(
            message.contains('-'),
            "{args:?}: the value is named: {message}"
        );
    }
    // evolve's settings are checked by the library's schema, which names flag and value.
    for (flag, value, accepts) in [
        ("--population", "-5", "a whole number from 1 to 10000"),
        (
            "--keep-checkpoints",
            "-1",
            "a whole number of at least 1, or all",
        ),
        ("--hidden", "8,-3", "up to 8 whole numbers from 1 to 128"),
        ("--gate", "-0.5", "a number from 0 to 1"),
    ] {
        let message = bad_input(&["evolve", "--game", "kalah", flag, value]);
        let expected = format!("{flag} takes {accepts}, not");
        assert!(
            message.contains(&expected) && message.contains(value),
            "{message}"
        );
    }
}

/// The counts the results page quotes, from the shipped champions on the held-out openings
/// of seed 777: Congklak's openings by games won (the player wins 35 openings with both
/// colours, 64 with one, 1 with neither), and the Othello champion's wipe-outs at one ply
/// against the WPC (10 of its 13 losses).
#[test]
fn benchmark_counts_openings_won_and_wipe_outs() {
    let congklak = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../populations/congklak/champion.evo"
    );
    let report = json_of(&[
        "benchmark",
        "--game",
        "congklak",
        "--player",
        &format!("champion:{congklak}:2"),
        "--opponent",
        "heuristic:2",
        "--games",
        "200",
        "--seed",
        "777",
        "--json",
    ]);
    assert_eq!(
        report["openings_won"],
        serde_json::json!({"both": 48, "one": 52, "neither": 0})
    );
    let othello = json_of(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        &format!("champion:{SHIPPED_OTHELLO_CHAMPION}:1"),
        "--opponent",
        "wpc:1",
        "--games",
        "200",
        "--seed",
        "777",
        "--json",
    ]);
    assert_eq!(
        (othello["losses"].as_u64(), othello["wiped_out"].as_u64()),
        (Some(13), Some(10))
    );
}
