//! `evoboard distill`: a small fit that writes a champion others can play and resume
//! from, the same files from the same seed on any thread count, and bad input.

mod common;

use common::{SHIPPED_OTHELLO_CHAMPION, bad_input, evoboard, stdout_of, temp_dir};

/// A fit small enough for a test: 3,000 positions, 4 epochs.
fn distill(out: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "distill",
        "--game",
        "othello",
        "--teacher",
        SHIPPED_OTHELLO_CHAMPION,
        "--positions",
        "3000",
        "--validation-positions",
        "500",
        "--epochs",
        "4",
        "--minibatch",
        "64",
        "--learning-rate",
        "0.01",
        "--learning-rate-end",
        "0.003",
        "--symmetries",
        "--seed",
        "5",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    evoboard(&args)
}

fn validation_losses(stats: &str) -> Vec<f64> {
    stats
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(3).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn a_fit_lowers_the_validation_loss_and_its_champion_plays() {
    let dir = temp_dir("distill-fit");
    let out = dir.join("one");
    let output = distill(out.to_str().unwrap(), &["--threads", "1"]);
    assert!(output.status.success(), "{output:?}");
    let stats = std::fs::read_to_string(out.join("stats.csv")).unwrap();
    assert_eq!(
        stats.lines().next().unwrap(),
        "epoch,learning_rate,train_loss,validation_loss,seconds"
    );
    let losses = validation_losses(&stats);
    assert_eq!(losses.len(), 5, "{stats}");
    let best = losses[1..].iter().copied().fold(f64::INFINITY, f64::min);
    assert!(best < losses[0] * 0.8, "{stats}");

    let champion = out.join("champion.evo");
    let spec = format!("champion:{}:2", champion.display());
    let played = stdout_of(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        &spec,
        "--opponent",
        "random",
        "--games",
        "4",
    ]);
    assert!(played.contains("4 games"), "{played}");

    // The same seed on two threads writes the same champion.
    let two = dir.join("two");
    let output = distill(two.to_str().unwrap(), &["--threads", "2"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        std::fs::read(&champion).unwrap(),
        std::fs::read(two.join("champion.evo")).unwrap()
    );

    // A fit may start from a champion of the student's shape, not from another network.
    let resumed = dir.join("resumed");
    let output = distill(
        resumed.to_str().unwrap(),
        &["--start-from", champion.to_str().unwrap()],
    );
    assert!(output.status.success(), "{output:?}");
    let first = validation_losses(&std::fs::read_to_string(resumed.join("stats.csv")).unwrap())[0];
    assert!(
        first < losses[0],
        "started at {first}, fresh at {}",
        losses[0]
    );
    let refused = distill(
        dir.join("refused").to_str().unwrap(),
        &["--start-from", SHIPPED_OTHELLO_CHAMPION],
    );
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("not the student's"),
        "{refused:?}"
    );

    // An existing champion is never overwritten.
    let again = distill(out.to_str().unwrap(), &[]);
    assert_eq!(again.status.code(), Some(2), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("already holds a champion"));
}

#[test]
fn search_leaves_fit_the_differences_a_depth_2_player_compares() {
    let dir = temp_dir("distill-leaves");
    let plain = dir.join("plain");
    assert!(distill(plain.to_str().unwrap(), &[]).status.success());
    let leaves = dir.join("leaves");
    let output = distill(leaves.to_str().unwrap(), &["--search-leaves"]);
    assert!(output.status.success(), "{output:?}");
    // Whole groups of leaves: at least the positions asked for, and an error of the
    // differences only, below the same fresh student's error of the values.
    let sampled = String::from_utf8_lossy(&output.stderr);
    let count: usize = sampled
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{sampled}"));
    assert!((3000..3000 + 2000).contains(&count), "{sampled}");
    let fresh = |dir: &std::path::Path| {
        validation_losses(&std::fs::read_to_string(dir.join("stats.csv")).unwrap())[0]
    };
    assert!(
        fresh(&leaves) < fresh(&plain),
        "{} {}",
        fresh(&leaves),
        fresh(&plain)
    );
    let losses = validation_losses(&std::fs::read_to_string(leaves.join("stats.csv")).unwrap());
    let best = losses[1..].iter().copied().fold(f64::INFINITY, f64::min);
    assert!(best < losses[0], "{losses:?}");
}

#[test]
fn bad_flags_are_refused_with_one_error_line() {
    let dir = temp_dir("distill-bad");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let base = [
        "distill",
        "--game",
        "othello",
        "--teacher",
        SHIPPED_OTHELLO_CHAMPION,
        "--out",
        out,
    ];
    let with = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        bad_input(&args)
    };
    assert!(with(&["--exploration", "1.5"]).contains("probability"));
    assert!(with(&["--learning-rate", "0"]).contains("step size"));
    assert!(with(&["--positions", "0"]).contains("--positions"));
    assert!(with(&["--hidden", "500"]).contains("--hidden"));
    assert!(with(&["--opening-plies", "200"]).contains("opening plies"));
    let missing = bad_input(&[
        "distill",
        "--game",
        "othello",
        "--teacher",
        "no-such-champion.evo",
        "--out",
        out,
    ]);
    assert!(missing.contains("no-such-champion.evo"), "{missing}");
    assert!(!std::path::Path::new(out).exists());
}
