//! The command line with `--game kalah` and `--game oware`/`ayo`: perft, show, evolve to a
//! champion that plays, tournaments with CSV/JSON output, the Gifford sweep and the solver.

mod common;

use common::{bad_input, evoboard, evolve_small, stdout_of, temp_dir};

#[test]
fn perft_and_show_work_for_both_games() {
    assert_eq!(
        stdout_of(&["perft", "--game", "oware", "--depth", "5"]).trim(),
        "5219"
    );
    assert_eq!(
        stdout_of(&["perft", "--game", "ayo", "--depth", "4"]).trim(),
        "1014"
    );
    assert_eq!(
        stdout_of(&["perft", "--game", "kalah", "--depth", "3"]).trim(),
        "185"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "show", "--game", "kalah", "--moves", "3", "--json",
    ]))
    .unwrap();
    assert_eq!(json["position"], "4,4,0,5,5,5 4,4,4,4,4,4 1 0 S");
    assert_eq!(json["to_move"], 0, "an extra turn");
    assert_eq!(json["score"], serde_json::json!([1, 0]));
    let bad = evoboard(&["show", "--game", "oware", "--moves", "7"]);
    assert_eq!(bad.status.code(), Some(2));
    let position = "1,0,0,0,0,3 1,0,0,0,5,0 0 0 S";
    let after = stdout_of(&[
        "show",
        "--game",
        "kalah",
        "--position",
        position,
        "--moves",
        "1",
        "--json",
    ]);
    assert!(
        after.contains("\"0,0,0,0,0,3 1,0,0,0,0,0 6 0 N\""),
        "{after}"
    );
}

#[test]
fn evolved_mancala_champions_play_from_their_files() {
    for game in ["kalah", "oware"] {
        let dir = evolve_small(game);
        let out = dir.to_str().unwrap();
        let run: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
        assert_eq!(run["architecture"]["mlp"], serde_json::json!([14, 9, 1]));
        let spec = format!("champion:{out}/champion.evo");
        let report: serde_json::Value = serde_json::from_str(&stdout_of(&[
            "benchmark",
            "--game",
            game,
            "--player",
            &spec,
            "--opponent",
            "random",
            "--games",
            "10",
            "--json",
        ]))
        .unwrap();
        assert_eq!(report["games"], 10);
        // A champion of one game is refused by the other.
        let other = if game == "kalah" { "oware" } else { "kalah" };
        let wrong = evoboard(&[
            "benchmark",
            "--game",
            other,
            "--player",
            &spec,
            "--games",
            "2",
        ]);
        assert_eq!(wrong.status.code(), Some(2));
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn tournament_writes_tables_csv_and_json() {
    let dir = temp_dir("tournament");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("t.csv");
    let text = stdout_of(&[
        "tournament",
        "--game",
        "kalah",
        "--agents",
        "random,first,heuristic:2",
        "--games",
        "10",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(
        text.contains("win%") && text.contains("heuristic:2") && text.contains("#3"),
        "{text}"
    );
    let table = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(table.lines().count(), 4);
    assert!(table.starts_with("agent,games,wins,draws,losses,win_pct,"));
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "tournament",
        "--game",
        "oware",
        "--agents",
        "random,heuristic:1",
        "--games",
        "6",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["agents"].as_array().unwrap().len(), 2);
    assert_eq!(json["matrix"][0][0], serde_json::Value::Null);
    // The schema every JSON output shares: named, with the run's settings, rates as fractions.
    assert_eq!(json["schema"], "evoboard.tournament/1");
    assert_eq!(json["game"], "oware");
    assert_eq!(json["games_per_pair"], 6);
    assert_eq!(json["seed"], 1);
    let heuristic = &json["agents"][1];
    let wins = heuristic["wins"].as_f64().unwrap();
    assert_eq!(heuristic["win_rate"].as_f64().unwrap(), wins / 6.0);
    assert_eq!(json["matrix"][1][0]["win_rate"], heuristic["win_rate"]);
    let lonely = evoboard(&["tournament", "--game", "kalah", "--agents", "random"]);
    assert_eq!(lonely.status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn gifford_ranks_all_63_players_and_the_solver_answers() {
    let dir = temp_dir("gifford");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("g.csv");
    let printed = stdout_of(&[
        "gifford",
        "--depth",
        "1",
        "--games",
        "10",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    // The ranked table is printed whether or not it is also written as CSV.
    assert!(
        printed.starts_with("63 players ranked by win %"),
        "{printed}"
    );
    let ranks = printed
        .lines()
        .filter(|l| l.contains("minimax:1:h"))
        .count();
    assert_eq!(ranks, 63, "{printed}");
    let table = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert_eq!(rows.len(), 63);
    let win_pct = |row: &str| row.split(',').nth(8).unwrap().parse::<f64>().unwrap();
    assert!(
        rows.windows(2).all(|w| win_pct(w[0]) >= win_pct(w[1])),
        "ranked by win %"
    );
    std::fs::remove_dir_all(dir).unwrap();
    let solved = stdout_of(&["solve", "--game", "kalah", "--pits", "4", "--seeds", "3"]);
    assert!(solved.contains("first player wins by 6"), "{solved}");
    let bad = evoboard(&["solve", "--game", "oware", "--pits", "6", "--seeds", "4"]);
    assert_eq!(bad.status.code(), Some(2));
    // The solver's own limit, reported as bad input.
    assert_eq!(
        bad_input(&["solve", "--game", "kalah", "--pits", "9", "--seeds", "1"]),
        "error: a board of 9 pits a side is too wide to solve: the solver takes at most 8"
    );
}
