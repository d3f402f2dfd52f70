//! Ratings from tournaments: Bradley–Terry on the Elo scale, anchored, with bootstrap
//! intervals, placing players whose order is known.

mod common;

#[test]
fn ratings_order_random_the_heuristics_and_the_champion_apart() {
    let champion = format!("champion:{}:1", common::SHIPPED_OTHELLO_CHAMPION);
    let agents = format!("random,heuristic:1,heuristic:2,{champion}");
    let report = common::json_of(&[
        "tournament",
        "--game",
        "othello",
        "--agents",
        &agents,
        "--games",
        "200",
        "--seed",
        "4242",
        "--ratings",
        "random",
        "--json",
    ]);
    let ratings = &report["ratings"];
    assert_eq!(ratings["anchor"], "random");
    let players = ratings["players"].as_array().unwrap();
    let names: Vec<&str> = players
        .iter()
        .map(|p| p["player"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [champion.as_str(), "heuristic:2", "heuristic:1", "random"]
    );
    assert_eq!(players[3]["elo"], 0.0);
    // Each interval lies wholly above the next player's.
    for pair in players.windows(2) {
        let (upper, lower) = (&pair[0], &pair[1]);
        assert!(
            upper["ci_low"].as_f64().unwrap() > lower["ci_high"].as_f64().unwrap(),
            "{upper} overlaps {lower}"
        );
    }
    for p in players {
        assert_eq!(p["games"], 600);
    }
}

#[test]
fn ratings_are_reproducible_and_anchored_where_asked() {
    let args = |anchor: &str| {
        vec![
            "tournament".to_string(),
            "--game".into(),
            "kalah".into(),
            "--agents".into(),
            "random,heuristic:1".into(),
            "--games".into(),
            "20".into(),
            "--ratings".into(),
            anchor.into(),
            "--bootstrap".into(),
            "50".into(),
            "--json".into(),
        ]
    };
    let run = |anchor: &str| {
        let args = args(anchor);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        common::json_of(&args)["ratings"].clone()
    };
    let first = run("heuristic:1");
    assert_eq!(first, run("heuristic:1"));
    let elo = |ratings: &serde_json::Value, name: &str| {
        ratings["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player"] == name)
            .unwrap()["elo"]
            .as_f64()
            .unwrap()
    };
    let other = run("random");
    assert_eq!(elo(&first, "heuristic:1"), 0.0);
    assert_eq!(elo(&other, "random"), 0.0);
    // Moving the anchor shifts every rating alike.
    let gap = |r: &serde_json::Value| elo(r, "heuristic:1") - elo(r, "random");
    assert!((gap(&first) - gap(&other)).abs() < 1e-6);
    assert_eq!(
        common::bad_input(&[
            "tournament",
            "--game",
            "kalah",
            "--agents",
            "random,heuristic:1",
            "--ratings",
            "heuristic:9"
        ]),
        "error: --ratings heuristic:9: the anchor must be one of --agents (random, heuristic:1)"
    );
}

#[test]
fn a_runs_kept_generations_are_rated_against_anchors() {
    let dir = std::env::temp_dir().join(format!("evoboard-gauntlet-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    let run_text = run.to_str().unwrap();
    let evolve = common::evoboard(&[
        "evolve",
        "--game",
        "kalah",
        "--td-games",
        "2000",
        "--generations",
        "4",
        "--snapshots",
        "2",
        "--no-plots",
        "--out",
        run_text,
    ]);
    assert!(evolve.status.success(), "{evolve:?}");
    // The setting is the run's: resumed without the flag, the run keeps snapshots still.
    let resumed = common::evoboard(&[
        "evolve",
        "--resume",
        "--generations",
        "6",
        "--no-plots",
        "--out",
        run_text,
    ]);
    assert!(resumed.status.success(), "{resumed:?}");
    let kept: Vec<String> = std::fs::read_dir(run.join("snapshots"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(kept, ["gen-00002.evo", "gen-00004.evo", "gen-00006.evo"]);
    let rate = || common::stdout_of(&["ratings", "--run", run_text, "--games", "40"]);
    let printed = rate();
    assert!(printed.contains("random = 0"), "{printed}");
    let table = std::fs::read_to_string(run.join("ratings.csv")).unwrap();
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let players: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(
        players,
        [
            "generation 2",
            "generation 4",
            "generation 6",
            "random",
            "heuristic:1",
            "heuristic:2"
        ]
    );
    let elo = |player: &str| -> f64 {
        rows.iter().find(|r| r[0] == player).unwrap()[2]
            .parse()
            .unwrap()
    };
    assert_eq!(elo("random"), 0.0);
    assert!(
        elo("heuristic:2") > elo("heuristic:1") && elo("heuristic:1") > 0.0,
        "{table}"
    );
    assert!(run.join("plots/rating.png").is_file());
    // The same gauntlet again: the same table.
    rate();
    assert_eq!(
        std::fs::read_to_string(run.join("ratings.csv")).unwrap(),
        table
    );
    // A run that kept nothing cannot be rated.
    std::fs::remove_dir_all(run.join("snapshots")).unwrap();
    assert_eq!(
        common::bad_input(&["ratings", "--run", run_text]),
        format!(
            "error: {run_text} kept no networks: evolve runs keep them with the setting snapshots = K"
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
