//! `evoboard bench`: what it measures and reports (its figures are the machine's, so only
//! the lines it prints are checked).

mod common;

use evoboard::evolve::config::{DEFAULT_TD_BATCH, FAST_TD_BATCH};

#[test]
fn td_speed_ups_at_both_batches_are_read_against_independent_games() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "bench",
            "--game",
            "kalah",
            "--perft-depth",
            "1",
            "--search-depth",
            "1",
            "--positions",
            "1",
            "--repeats",
            "1",
            "--learning-games",
            "40",
        ];
        args.extend_from_slice(extra);
        common::stdout_of(&args)
    };
    let speed_ups = |output: &str| -> Vec<String> {
        output
            .lines()
            .filter_map(|line| line.strip_prefix("TD learning 2-thread speed-up in batches of "))
            .map(|rest| rest.split(':').next().unwrap().to_string())
            .collect()
    };
    let both = run(&[]);
    assert_eq!(
        speed_ups(&both),
        [
            format!("{DEFAULT_TD_BATCH} (the default)"),
            format!("{FAST_TD_BATCH} (recommended for speed)")
        ],
        "{both}"
    );
    assert_eq!(speed_ups(&run(&["--td-batch", "5"])), ["5"]);
    // Each TD speed-up is read against the independent games' of the same rounds.
    assert!(
        both.contains("league generation 2-thread speed-up (independent games): "),
        "{both}"
    );
    let against_control = both
        .lines()
        .filter(|line| line.starts_with("TD learning 2-thread speed-up"))
        .filter(|line| line.ends_with("% of the independent games' in the same rounds"))
        .count();
    assert_eq!(against_control, 2, "{both}");
}
