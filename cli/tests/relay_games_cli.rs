//! The command line with `--game congklak` and `--game congkak`: perft, show, evolve to a
//! champion, the NMM agent and its pruning study, and tournaments with move-time tables.

mod common;

use common::{bad_input, evolve_small, stdout_of};

#[test]
fn perft_and_show_read_both_games() {
    // Congkak's first ply is one joint move: 7 × 7 choices.
    for (game, leaves) in [("congkak", "49"), ("congklak", "7")] {
        let output = stdout_of(&["perft", "--game", game, "--depth", "1"]);
        assert_eq!(output.trim(), leaves, "{game}");
    }
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "show", "--game", "congkak", "--moves", "3/5", "--json",
    ]))
    .unwrap();
    let position = json["position"].as_str().unwrap();
    assert!(position.contains(" r1"), "{position}");
    // A lone hole at the joint opening.
    bad_input(&["show", "--game", "congkak", "--moves", "3"]);
    for position in [
        "7,7,7 7,7,7 0 0 * r1",
        "0,0,0,0,0,0,0 7,7,7,7,7,7,7 49 0 * r1",
        "1,0,0,0,0,0,0 250,0,0,0,0,0,0 0 0 S r1 hands=pick;sow@N8:255:0;0",
        "x,7,7,7,7,7,7 7,7,7,7,7,7,7 7 0 * r1",
        "7,7,7,7,7,7,7 7,7,7,7,7,7,7 0 0 S r1 hands=pick;sow@S8:3:0;1",
        "7,7,7,7,7,7,7 7,7,7,7,7,7,7 0 0 S r1 hands=pick;pick;0",
        "7,7,7,7,7,7,7 7,7,7,7,7,7,7 0 0 S r1 hands=pick;sow@N3:0:0;1",
        "7,7,7,7,7,7,7 7,7,7,7,7,7,7 0 0 S r2 hands=pick;done@1;1",
        "7,7,7,7,7,7,7 7,7,7,7,7,7,7 0 0 S r11",
    ] {
        bad_input(&["show", "--game", "congkak", "--position", position]);
    }
    let burnt = stdout_of(&[
        "show",
        "--game",
        "congkak",
        "--position",
        "0,0,0,0,0,2,x 7,7,7,7,7,x,x 10 20 S r2",
    ]);
    assert!(burnt.contains("  x"), "burnt holes are drawn: {burnt}");
}

#[test]
fn evolve_runs_for_both_games_and_the_champions_play() {
    for game in ["congklak", "congkak"] {
        let dir = evolve_small(game);
        let out = dir.to_str().unwrap();
        let champion = format!("champion:{out}/champion.evo:1");
        let report = stdout_of(&[
            "benchmark",
            "--game",
            game,
            "--player",
            &champion,
            "--opponent",
            "random",
            "--games",
            "10",
        ]);
        assert!(report.contains("10 games"), "{report}");
        let nmm = format!("nmm:3:2:{out}/champion.evo");
        let report = stdout_of(&[
            "benchmark",
            "--game",
            game,
            "--player",
            &nmm,
            "--games",
            "4",
        ]);
        assert!(report.contains("4 games"), "{report}");
        let study = stdout_of(&[
            "prune",
            "--game",
            game,
            "--ranker",
            &format!("{out}/champion.evo"),
            "--depth",
            "3",
            "--widths",
            "1,7",
            "--positions",
            "20",
            "--games",
            "2",
        ]);
        // Keeping all 7 moves is plain minimax: an optimal move everywhere.
        let full = study
            .lines()
            .find(|l| l.starts_with("nmm width 7"))
            .unwrap();
        assert!(full.contains("100.0%"), "{study}");
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn bad_nmm_specs_are_refused() {
    let nmm_form = "expected nmm:DEPTH:WIDTH:PATH (WIDTH ≥ 1 moves kept per node)";
    for (spec, problem) in [
        ("nmm:3:0:x.evo", nmm_form),
        ("nmm:3:2:", nmm_form),
        ("nmm:3", nmm_form),
        (
            "nmm:0:2:x.evo",
            "the depth must be a whole number from 1 to 30",
        ),
    ] {
        let line = bad_input(&["benchmark", "--game", "congkak", "--player", spec]);
        assert_eq!(line, format!("error: bad agent spec '{spec}': {problem}"));
    }
    // A ranker file that is not there is the user's mistake too: exit 2, naming the file.
    let missing = bad_input(&[
        "benchmark",
        "--game",
        "congkak",
        "--player",
        "nmm:3:2:/nonexistent/champion.evo",
    ]);
    assert!(
        missing.starts_with(
            "error: agent spec 'nmm:3:2:/nonexistent/champion.evo': cannot read /nonexistent/champion.evo: "
        ),
        "{missing}"
    );
}

#[test]
fn tournament_reports_move_times_over_the_first_moves() {
    let report = stdout_of(&[
        "tournament",
        "--game",
        "congklak",
        "--agents",
        "random,normal,expert",
        "--games",
        "4",
        "--timed-moves",
        "5",
    ]);
    assert!(report.contains("first 5 moves"), "{report}");
    let row = report
        .lines()
        .skip_while(|l| !l.contains("first 5 moves"))
        .find(|l| l.starts_with("normal"))
        .unwrap();
    // Each of normal's 8 games (two pairs × 4) times at most 5 moves.
    let timed: usize = row.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!((1..=40).contains(&timed), "{row}");
}
