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
