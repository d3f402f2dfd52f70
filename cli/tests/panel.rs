//! `evoboard panel` (the ENN paper's one-feature opponents) and `benchmark --protocol
//! league` (the CEC 2006 Othello League measure), run through the binary.

mod common;

use common::{bad_input, json_of, stdout_of};
use evoboard::arena::AgentSpec;
use serde_json::Value;

fn count(value: &Value, key: &str) -> u64 {
    value[key]
        .as_u64()
        .unwrap_or_else(|| panic!("'{key}' should be a whole number in {value}"))
}

/// A small panel of `game` at depth 1 (both sides), as JSON.
fn panel(game: &str, player: &str, games: u32) -> Value {
    let games = games.to_string();
    json_of(&[
        "panel", "--game", game, "--player", player, "--depth", "1", "--games", &games, "--json",
    ])
}

fn opponents(report: &Value) -> Vec<String> {
    report["rows"]
        .as_array()
        .expect("rows is an array")
        .iter()
        .map(|row| row["opponent"].as_str().expect("opponent").to_string())
        .collect()
}

#[test]
fn othello_panel_has_every_feature_then_heuristic_wpc_random() {
    let report = panel("othello", "heuristic:1", 4);
    let expected = [
        "minimax:1:greedy",
        "minimax:1:forfeit",
        "minimax:1:mobility",
        "minimax:1:stability",
        "minimax:1:frontier",
        "minimax:1:corner",
        "minimax:1:parity",
        "heuristic:1",
        "wpc:1",
        "random",
    ];
    assert_eq!(opponents(&report), expected);
    assert_eq!(report["game"], "othello");
    assert_eq!(report["player"], "heuristic:1");
    assert_eq!(count(&report, "depth"), 1);
    assert_eq!(count(&report, "games"), 4);
    assert_eq!(count(&report, "seed"), 1);
    assert_eq!(count(&report, "opening_plies"), 6);
}

#[test]
fn mancala_panels_use_each_games_features() {
    let cases: [(&str, &[&str]); 4] = [
        ("kalah", &["h1", "h2", "h3", "h4", "h5", "h6"]),
        (
            "oware",
            &["captured", "mobility", "vulnerable", "accumulation"],
        ),
        ("congklak", &["stores", "side", "holes"]),
        ("congkak", &["stores", "side", "holes", "burnt"]),
    ];
    for (game, features) in cases {
        let report = panel(game, "heuristic:1", 2);
        let mut expected: Vec<String> = features.iter().map(|f| format!("minimax:1:{f}")).collect();
        expected.extend(["heuristic:1".to_string(), "random".to_string()]);
        assert_eq!(opponents(&report), expected, "{game}");
    }
}

#[test]
fn every_row_plays_all_its_games() {
    let report = panel("kalah", "heuristic:1", 6);
    let rows = report["rows"].as_array().expect("rows");
    let (mut wins, mut games) = (0, 0);
    for row in rows {
        let total = count(row, "wins") + count(row, "draws") + count(row, "losses");
        assert_eq!(total, 6, "{row}");
        let rate = row["win_rate"].as_f64().expect("win_rate");
        assert_eq!(rate, count(row, "wins") as f64 / 6.0, "{row}");
        let (low, high) = (row["ci_low"].as_f64(), row["ci_high"].as_f64());
        assert!(low <= Some(rate) && Some(rate) <= high, "{row}");
        wins += count(row, "wins");
        games += total;
    }
    assert_eq!(count(&report["overall"], "wins"), wins);
    assert_eq!(count(&report["overall"], "games"), games);
}

/// Against itself a deterministic player plays each opening's two games as mirror images,
/// so it wins exactly as often as it loses.
#[test]
fn the_heuristic_against_itself_wins_as_often_as_it_loses() {
    for game in ["othello", "kalah"] {
        let report = panel(game, "heuristic:1", 8);
        let rows = report["rows"].as_array().expect("rows");
        let mirror = rows
            .iter()
            .find(|row| row["opponent"] == "heuristic:1")
            .unwrap_or_else(|| panic!("{game}: no heuristic:1 row in {report}"));
        assert_eq!(count(mirror, "wins"), count(mirror, "losses"), "{mirror}");
    }
}

#[test]
fn panel_is_deterministic_and_thread_independent() {
    let run = |threads: &str| {
        stdout_of(&[
            "panel",
            "--game",
            "othello",
            "--player",
            "wpc:1@0.2",
            "--depth",
            "1",
            "--games",
            "6",
            "--seed",
            "7",
            "--threads",
            threads,
            "--json",
        ])
    };
    let one = run("1");
    assert_eq!(one, run("1"));
    assert_eq!(one, run("2"));
}

#[test]
fn panel_table_lists_every_opponent_and_the_overall_rate() {
    let out = stdout_of(&[
        "panel",
        "--game",
        "kalah",
        "--player",
        "heuristic:1",
        "--depth",
        "1",
        "--games",
        "2",
    ]);
    for opponent in ["minimax:1:h1", "minimax:1:h6", "heuristic:1", "random"] {
        assert!(
            out.lines().any(|line| line.starts_with(opponent)),
            "{opponent}: {out}"
        );
    }
    assert!(
        out.lines().last().unwrap_or("").starts_with("overall"),
        "{out}"
    );
}

#[test]
fn panel_bad_input_exits_2() {
    let line = bad_input(&["panel", "--game", "othello", "--player", "foo"]);
    assert!(line.contains("bad agent spec 'foo'"), "{line}");
    bad_input(&[
        "panel", "--game", "othello", "--player", "random", "--depth", "0",
    ]);
}

// ---------------------------------------------------------------------------------------
// benchmark --protocol league

fn league(player: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "benchmark",
        "--game",
        "othello",
        "--player",
        player,
        "--protocol",
        "league",
        "--json",
    ];
    args.extend_from_slice(extra);
    json_of(&args)
}

#[test]
fn league_wpc_against_itself_scores_about_half() {
    let report = league("wpc:1", &["--games", "200"]);
    assert_eq!(report["protocol"], "league");
    assert_eq!(report["player"], "wpc:1@0.1");
    assert_eq!(report["opponent"], "wpc:1@0.1");
    assert_eq!(count(&report, "games"), 200);
    assert_eq!(count(&report, "opening_plies"), 0);
    let score = report["score"].as_f64().expect("score");
    assert!((0.35..=0.65).contains(&score), "{report}");
}

#[test]
fn league_score_counts_a_draw_as_half_a_win() {
    let report = league("heuristic:3", &["--games", "40", "--seed", "3"]);
    assert_eq!(report["player"], "heuristic:1@0.1");
    let games = count(&report, "games") as f64;
    let expected = (count(&report, "wins") as f64 + count(&report, "draws") as f64 / 2.0) / games;
    assert_eq!(report["score"].as_f64(), Some(expected), "{report}");
}

#[test]
fn league_plays_1000_games_unless_told() {
    let report = league("wpc:2", &[]);
    assert_eq!(count(&report, "games"), 1000);
}

#[test]
fn league_results_do_not_depend_on_threads() {
    // Everything but the think times, which are measured.
    let run = |threads| {
        let mut report = league(
            "minimax:2:mobility",
            &["--games", "20", "--threads", threads],
        );
        let fields = report.as_object_mut().expect("an object");
        fields.remove("player_time");
        fields.remove("opponent_time");
        report
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn league_refuses_what_it_fixes() {
    let base = [
        "benchmark",
        "--game",
        "othello",
        "--protocol",
        "league",
        "--player",
    ];
    let refuse = |extra: &[&str], needle: &str| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let line = bad_input(&args);
        assert!(line.contains(needle), "{line}");
    };
    refuse(&["random"], "needs an evaluator");
    refuse(&["first"], "needs an evaluator");
    refuse(&["wpc:1", "--opponent", "wpc:1@0.1"], "--opponent");
    refuse(&["wpc:1", "--openings", "0"], "--openings");
    let line = bad_input(&[
        "benchmark",
        "--game",
        "kalah",
        "--protocol",
        "league",
        "--player",
        "heuristic:1",
    ]);
    assert!(line.contains("othello"), "{line}");
}

#[test]
fn standard_protocol_is_unchanged_and_scored_with_its_interval() {
    let report = json_of(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        "wpc:1",
        "--opponent",
        "random",
        "--games",
        "4",
        "--openings",
        "2",
        "--json",
    ]);
    assert_eq!(report["protocol"], "standard");
    assert_eq!(report["player"], "wpc:1");
    assert_eq!(count(&report, "opening_plies"), 2);
    let games = count(&report, "games") as f64;
    let score = (count(&report, "wins") as f64 + count(&report, "draws") as f64 / 2.0) / games;
    assert_eq!(report["score"].as_f64(), Some(score), "{report}");
    let (low, high) = (
        report["score_ci_low"].as_f64().expect("score_ci_low"),
        report["score_ci_high"].as_f64().expect("score_ci_high"),
    );
    assert!(
        0.0 <= low && low <= score && score <= high && high <= 1.0,
        "{report}"
    );
}

#[test]
fn one_ply_epsilon_specs_read_back_as_themselves() {
    for (spec, expected) in [
        ("heuristic:4", "heuristic:1@0.1"),
        ("wpc:3@0.5", "wpc:1@0.1"),
        ("minimax:5:corner", "minimax:1:corner@0.1"),
        ("expert", "heuristic:1@0.1"),
        ("champion:some/dir:x.evo", "champion:some/dir:x.evo:1@0.1"),
        ("champion:best.evo:4", "champion:best.evo:1@0.1"),
    ] {
        let league = spec
            .parse::<AgentSpec>()
            .expect("a valid spec")
            .at_one_ply_with_epsilon(0.1)
            .expect("an evaluator");
        assert_eq!(league.to_string(), expected);
        assert_eq!(expected.parse::<AgentSpec>().expect("it parses"), league);
    }
    for spec in ["random", "first@0.2", "nmm:2:3:net.evo"] {
        let parsed = spec.parse::<AgentSpec>().expect("a valid spec");
        assert!(parsed.at_one_ply_with_epsilon(0.1).is_err(), "{spec}");
    }
}
