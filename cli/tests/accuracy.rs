//! `evoboard accuracy`: exact-play figures on a small sample, the cache, and bad input.

mod common;

use common::{SHIPPED_OTHELLO_CHAMPION, bad_input, evoboard, temp_dir};
use serde_json::Value;

fn accuracy(game: &str, cache: &str, extra: &[&str]) -> (Value, String) {
    let mut args = vec!["accuracy", "--game", game, "--cache", cache, "--json"];
    args.extend_from_slice(extra);
    let output = evoboard(&args);
    assert!(output.status.success(), "{output:?}");
    let report = serde_json::from_slice(&output.stdout).expect("one JSON object");
    (report, String::from_utf8_lossy(&output.stderr).into_owned())
}

fn share(report: &Value, player: usize) -> f64 {
    report["players"][player]["optimal_share"].as_f64().unwrap()
}

#[test]
fn othello_endgames_rank_players_and_a_second_measure_reads_the_cache() {
    let dir = temp_dir("accuracy-othello");
    let cache = dir.to_str().unwrap();
    let champion = format!("champion:{SHIPPED_OTHELLO_CHAMPION}:2");
    let sample = [
        "--positions",
        "40",
        "--max-empties",
        "12",
        "--plies",
        "48..56",
    ];
    let players = [
        "--player",
        "random",
        "--player",
        "heuristic:6",
        "--player",
        &champion,
    ];
    let args: Vec<&str> = sample.iter().chain(&players).copied().collect();
    let (first, stderr) = accuracy("othello", cache, &args);
    assert!(!stderr.contains("cache"), "{stderr}");
    assert_eq!(first["players"].as_array().unwrap().len(), 3);
    for player in first["players"].as_array().unwrap() {
        assert_eq!(player["positions"], 40);
        let (low, share, high) = (
            player["optimal_ci_low"].as_f64().unwrap(),
            player["optimal_share"].as_f64().unwrap(),
            player["optimal_ci_high"].as_f64().unwrap(),
        );
        assert!(low <= share && share <= high, "{player}");
        assert!(player["mean_loss"].as_f64().unwrap() >= 0.0);
    }
    // The others are compared with the first player, on the same positions.
    assert!(first["players"][0]["versus"].is_null());
    let versus = &first["players"][1]["versus"];
    assert_eq!(versus["reference"], "random");
    assert!(versus["ci_high"].as_f64().unwrap() < 0.0, "{versus}");
    // Searching 6 plies of a 12-empty endgame finds more optimal moves than chance.
    assert!(share(&first, 1) > share(&first, 0) + 0.2, "{first}");
    assert!(
        first["sample"]
            .as_str()
            .unwrap()
            .contains("at most 12 empties")
    );

    let (again, stderr) = accuracy("othello", cache, &args);
    assert!(stderr.contains("read from the cache"), "{stderr}");
    assert_eq!(again, first);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kalah_positions_are_valued_by_the_solver() {
    let dir = temp_dir("accuracy-kalah");
    let args = [
        "--positions",
        "30",
        "--max-seeds",
        "16",
        "--plies",
        "30..60",
        "--table-mb",
        "64",
        "--player",
        "first",
        "--player",
        "heuristic:4",
    ];
    let (report, _) = accuracy("kalah", dir.to_str().unwrap(), &args);
    assert!(share(&report, 1) > share(&report, 0), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_requests_get_one_error_line() {
    let line = bad_input(&[
        "accuracy", "--game", "othello", "--player", "random", "--plies", "9..3",
    ]);
    assert!(line.contains("MIN ≤ MAX"), "{line}");
    let line = bad_input(&[
        "accuracy",
        "--game",
        "othello",
        "--player",
        "nonsense:3",
        "--no-cache",
    ]);
    assert!(line.contains("nonsense"), "{line}");
    let line = bad_input(&[
        "accuracy",
        "--game",
        "othello",
        "--player",
        "random",
        "--plies",
        "0..10",
        "--positions",
        "5",
        "--no-cache",
    ]);
    assert!(line.contains("found only 0 of 5 positions"), "{line}");
    let line = bad_input(&["accuracy", "--game", "oware", "--player", "random"]);
    assert!(line.contains("oware"), "{line}");
}
