//! `evoboard calibrate` and selective search from the command line: a calibration written
//! beside a champion, the same on any number of threads, read by `champion:PATH%CONFIDENCE`
//! in a benchmark and by `bench --selective`; a champion that cannot be calibrated is an
//! error before any work.

mod common;

use std::path::PathBuf;

/// A copy of the shipped champion in a fresh directory.
fn champion_copy(name: &str) -> PathBuf {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(&dir).unwrap();
    let champion = dir.join("champion.evo");
    std::fs::copy(common::SHIPPED_OTHELLO_CHAMPION, &champion).unwrap();
    champion
}

#[test]
fn a_calibration_lands_beside_the_champion_and_plays() {
    let champion = champion_copy("calibrate");
    let path = champion.to_str().unwrap();
    let calibrate = |threads: &str, out: Option<&str>| {
        let mut args = vec![
            "calibrate",
            "--champion",
            path,
            "--positions",
            "240",
            "--depth",
            "4",
            "--seed",
            "3",
            "--threads",
            threads,
        ];
        args.extend(out.map(|out| ["--out", out]).into_iter().flatten());
        common::stdout_of(&args)
    };
    let printed = calibrate("1", None);
    assert!(
        printed.starts_with(&format!(
            "{path}: 240 positions from 16 games (seed 3), each searched at depths 0 to 4"
        )),
        "{printed}"
    );
    // A line per stage group and depth: 30-39 empties, depth 4 against depth 2.
    assert!(
        printed
            .lines()
            .any(|line| line.split_whitespace().take(3).eq(["30-39", "4", "2"])),
        "{printed}"
    );
    let beside = champion.with_extension("probcut.json");
    assert!(printed.ends_with(&format!("wrote {}\n", beside.display())));
    let other = champion.with_file_name("two-threads.json");
    calibrate("2", Some(other.to_str().unwrap()));
    assert_eq!(
        std::fs::read(&beside).unwrap(),
        std::fs::read(&other).unwrap(),
        "the thread count changes nothing"
    );

    let selective = format!("champion:{path}:30%95~0.05");
    let played = common::stdout_of(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        &selective,
        "--opponent",
        "heuristic:1",
        "--games",
        "2",
    ]);
    assert!(played.contains(&selective), "{played}");
    let measured = common::stdout_of(&[
        "bench",
        "--game",
        "othello",
        "--selective",
        &selective,
        "--positions",
        "2",
    ]);
    assert!(
        measured.contains("full width (without %95): mean depth")
            && measured.contains("selective search reaches"),
        "{measured}"
    );
}

#[test]
fn what_cannot_be_calibrated_or_measured_is_refused_before_any_work() {
    let missing = common::bad_input(&["calibrate", "--champion", "/nonexistent/champion.evo"]);
    assert!(missing.contains("/nonexistent/champion.evo"), "{missing}");
    let champion = champion_copy("uncalibrated");
    let path = champion.to_str().unwrap();
    let uncalibrated = common::bad_input(&[
        "bench",
        "--game",
        "othello",
        "--selective",
        &format!("champion:{path}%95~0.1"),
    ]);
    assert!(
        uncalibrated.contains("cannot read the selective search's calibration"),
        "{uncalibrated}"
    );
    let untimed = common::bad_input(&[
        "bench",
        "--game",
        "othello",
        "--selective",
        &format!("champion:{path}:4%95"),
    ]);
    assert!(untimed.contains("a time a search"), "{untimed}");
    let too_few = common::bad_input(&["calibrate", "--champion", path, "--positions", "10"]);
    assert!(too_few.contains("--positions"), "{too_few}");
}
