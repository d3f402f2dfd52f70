//! `benchmark --sprt`: game pairs under a sequential test, on matches whose answer is
//! known.

mod common;

/// The `sprt` object of `benchmark --json --sprt TEST` with `extra` flags.
fn sprt(player: &str, opponent: &str, test: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "benchmark",
        "--game",
        "othello",
        "--player",
        player,
        "--opponent",
        opponent,
        "--sprt",
        test,
        "--json",
    ];
    args.extend_from_slice(extra);
    let report = common::json_of(&args);
    let result = report["sprt"].clone();
    let pairs: u64 = result["pentanomial"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(report["games"].as_u64().unwrap(), 2 * pairs, "{report}");
    result
}

#[test]
fn the_champion_against_random_stops_early_with_h1() {
    let champion = format!("champion:{}:1", common::SHIPPED_OTHELLO_CHAMPION);
    let result = sprt(&champion, "random", "0,20", &[]);
    assert_eq!(result["verdict"], "H1", "{result}");
    let pairs: u64 = result["pentanomial"]["counts"][4].as_u64().unwrap();
    assert!(pairs <= 40, "{result}");
    assert!(result["llr"].as_f64().unwrap() >= result["upper_bound"].as_f64().unwrap());
}

#[test]
fn a_player_against_itself_rarely_accepts_h1() {
    // Nominal rate 5%: over 12 seeds, 3 or more false acceptances would happen by chance
    // about 2% of the time.
    let accepted = (1..=12)
        .filter(|seed| {
            let seed = seed.to_string();
            let result = sprt(
                "heuristic:1@0.2",
                "heuristic:1@0.2",
                "0,20",
                &["--seed", &seed, "--games", "2000"],
            );
            result["verdict"] == "H1"
        })
        .count();
    assert!(accepted < 3, "{accepted} of 12 accepted H1");
}

#[test]
fn the_verdict_does_not_depend_on_the_threads() {
    let run = |threads: &str| {
        sprt(
            "heuristic:2@0.1",
            "heuristic:1@0.1",
            "0,50",
            &["--seed", "5", "--threads", threads],
        )
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn bad_tests_are_refused() {
    let bad = |test: &str| {
        common::bad_input(&[
            "benchmark",
            "--game",
            "kalah",
            "--player",
            "random",
            "--sprt",
            test,
        ])
    };
    assert!(
        bad("10,0").contains("the SPRT needs ELO0 < ELO1"),
        "{}",
        bad("10,0")
    );
    assert!(bad("0,10,0.7,0.05").contains("error rates"));
    assert!(bad("zero,ten").contains("ELO0,ELO1[,ALPHA,BETA]"));
    assert_eq!(
        common::bad_input(&[
            "benchmark",
            "--game",
            "othello",
            "--player",
            "random",
            "--protocol",
            "league",
            "--sprt",
            "0,10"
        ]),
        "error: --protocol league: the League measure is a fixed number of games; drop --sprt"
    );
}
