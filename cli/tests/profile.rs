//! `evoboard profile`: a rated pool cut into bins, each player's score against every bin,
//! the same on any thread count, drawn as one figure; bad settings refused before any game.

mod common;

use common::{bad_input, json_of, temp_dir};

fn profile_json(threads: &str) -> serde_json::Value {
    json_of(&[
        "profile",
        "--game",
        "kalah",
        "--players",
        "random,heuristic:2",
        "--games",
        "4",
        "--bins",
        "3",
        "--seed",
        "11",
        "--threads",
        threads,
        "--json",
    ])
}

#[test]
fn a_profile_rates_the_pool_into_bins_and_scores_each_player_against_every_bin() {
    let report = profile_json("1");
    assert_eq!(report["schema"], "evoboard.profile/1");
    let members = report["pool"]["members"].as_array().unwrap();
    // Kalah's panel: six features and the heuristic, at two depths, diluted or not.
    assert_eq!(members.len(), 1 + 7 * 2 * 2);
    let elo: Vec<f64> = members.iter().map(|m| m["elo"].as_f64().unwrap()).collect();
    assert!(
        elo.windows(2).all(|w| w[0] <= w[1]),
        "weakest first: {elo:?}"
    );
    let random = members.iter().find(|m| m["spec"] == "random").unwrap();
    assert_eq!(random["elo"], 0.0, "the anchor");
    let bins = report["pool"]["bins"].as_array().unwrap();
    let sizes: Vec<u64> = bins
        .iter()
        .map(|b| b["members"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes, [10, 10, 9]);
    let score = |player: usize, bin: usize| {
        report["profiles"][player]["points"][bin]["score"]
            .as_f64()
            .unwrap()
    };
    for player in 0..2 {
        for bin in 0..3 {
            let games = report["profiles"][player]["points"][bin]["games"]
                .as_u64()
                .unwrap();
            assert_eq!(games, sizes[bin] * 4);
        }
    }
    // The random player does worse against the strongest bin than the weakest; the
    // two-ply heuristic beats it in every bin.
    assert!(score(0, 2) < score(0, 0), "{report}");
    for bin in 0..3 {
        assert!(score(1, bin) > score(0, bin), "{report}");
    }
    assert_eq!(profile_json("2"), report, "the same on any thread count");
}

#[test]
fn the_figure_is_drawn_with_every_player() {
    let dir = temp_dir("profile-figure");
    let out = dir.join("figure");
    json_of(&[
        "profile",
        "--game",
        "kalah",
        "--players",
        "random,heuristic:1",
        "--pool",
        "random,heuristic:1@0.5,heuristic:2",
        "--games",
        "2",
        "--bins",
        "3",
        "--plot",
        out.to_str().unwrap(),
        "--json",
    ]);
    let png = std::fs::read(out.join("profile.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let svg = std::fs::read_to_string(out.join("profile.svg")).unwrap();
    for label in ["random (", "heuristic:1 (", "Performance profile"] {
        assert!(svg.contains(label), "{label}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_settings_are_refused_before_any_game() {
    let base = ["profile", "--game", "kalah", "--players", "random"];
    let with = |extra: &[&str]| bad_input(&[&base[..], extra].concat());
    assert!(
        with(&["--pool", "random,heuristic:1", "--bins", "3"])
            .contains("--bins 3: the pool has only 2 members")
    );
    assert!(
        with(&[
            "--pool",
            "random,heuristic:1",
            "--pool-add",
            "heuristic:1",
            "--bins",
            "2"
        ])
        .contains("the pool names heuristic:1 twice")
    );
    assert!(with(&["--pool", "random"]).contains("a pool of 1 members: use 2 to 200"));
    assert!(with(&["--pool-games", "3"]).contains("use an even number"));
    assert!(
        with(&["--pool", "random,nonsense:1", "--bins", "2"])
            .contains("bad agent spec 'nonsense:1'")
    );
    let eleven = ["random"; 11].join(",");
    assert!(
        bad_input(&["profile", "--game", "kalah", "--players", &eleven])
            .contains("11 players: a profile figure shows at most 10")
    );
}
