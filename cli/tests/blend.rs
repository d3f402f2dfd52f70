//! `evoboard blend`: a champion whose n-tuple weights are the weighted sum of others'; a
//! blend of a champion with itself plays its games exactly; what cannot blend is refused.

mod common;

use common::{SHIPPED_OTHELLO_CHAMPION, bad_input, json_of, stdout_of, temp_dir};

/// A short seeded benchmark of `champion` at depth 1 against `heuristic:1`, without times.
fn games_of(champion: &str) -> serde_json::Value {
    let mut report = json_of(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        &format!("champion:{champion}:1"),
        "--opponent",
        "heuristic:1",
        "--games",
        "20",
        "--seed",
        "5",
        "--json",
    ]);
    let object = report.as_object_mut().unwrap();
    object.retain(|key, _| !key.contains("time") && key != "player");
    report
}

#[test]
fn halves_of_one_champion_blend_into_it_and_play_its_games() {
    let dir = temp_dir("blend-halves");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("halves.evo");
    let half = format!("{SHIPPED_OTHELLO_CHAMPION}:0.5");
    let said = stdout_of(&[
        "blend",
        "--from",
        &half,
        "--from",
        &half,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(said.contains("plays at depth 2"), "{said}");
    assert_eq!(
        games_of(out.to_str().unwrap()),
        games_of(SHIPPED_OTHELLO_CHAMPION)
    );
    // A different weighting is a different player.
    let tilted = dir.join("tilted.evo");
    let quarter = format!("{SHIPPED_OTHELLO_CHAMPION}:0.25");
    let league = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../populations/othello-league/champion.evo:0.75"
    );
    stdout_of(&[
        "blend",
        "--from",
        &quarter,
        "--from",
        league,
        "--depth",
        "1",
        "--out",
        tilted.to_str().unwrap(),
    ]);
    assert_ne!(
        games_of(tilted.to_str().unwrap()),
        games_of(SHIPPED_OTHELLO_CHAMPION)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn what_cannot_blend_is_refused_with_one_line() {
    let dir = temp_dir("blend-refused");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("blend.evo");
    let out = out.to_str().unwrap();
    let mlp = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../populations/othello-mlp/champion.evo:1"
    );
    let shipped = format!("{SHIPPED_OTHELLO_CHAMPION}:1");
    let refused = |parts: &[&str]| {
        let mut args = vec!["blend", "--out", out];
        for part in parts {
            args.extend(["--from", part]);
        }
        bad_input(&args)
    };
    assert!(refused(&[mlp]).contains("is an MLP, which is not linear in its weights"));
    assert!(refused(&[&shipped, mlp]).contains("the champions' networks differ"));
    assert!(refused(&["populations/othello/champion.evo"]).contains("expected PATH:WEIGHT"));
    assert!(
        refused(&[&format!("{SHIPPED_OTHELLO_CHAMPION}:inf")]).contains("expected PATH:WEIGHT")
    );
    assert!(refused(&["/no/such/champion.evo:1"]).contains("/no/such/champion.evo"));
    // Weights that overflow what a network may hold.
    assert!(
        refused(&[&format!("{SHIPPED_OTHELLO_CHAMPION}:1e38")]).contains("cannot blend: weight")
    );
    assert!(!std::path::Path::new(out).exists(), "nothing written");
    std::fs::remove_dir_all(dir).unwrap();
}
