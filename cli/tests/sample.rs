//! `evoboard sample`: positions from seeded games, reproducible from their seed, and the
//! committed test set it drew.

use std::path::Path;
use std::process::Command;

use evoboard::{Notation, Othello};

mod common;

/// The positions of `sample`'s output (its `#` line dropped).
fn positions(output: &str) -> Vec<&str> {
    output
        .lines()
        .filter(|line| !line.starts_with('#'))
        .collect()
}

#[test]
fn the_committed_engine_endgames_are_what_their_command_draws() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("tests/data/othello-engine-endgames.txt"))
        .expect("the test set is committed");
    let command = text
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("# evoboard "))
        .expect("the first line is the command that drew the set");
    // The command names the champion by a path from the repository's root.
    let output = Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .current_dir(&root)
        .args(command.split_whitespace())
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{output:?}");
    let drawn = String::from_utf8(output.stdout).unwrap();
    assert_eq!(positions(&drawn), positions(&text));
    let empties: Vec<u32> = positions(&text)
        .iter()
        .map(|line| {
            Othello::from_position_string(line)
                .expect("a position")
                .empties()
                .count_ones()
        })
        .collect();
    assert_eq!(empties.len(), 10);
    assert!(empties.iter().all(|e| (26..=30).contains(e)), "{empties:?}");
}

#[test]
fn a_sample_is_the_same_from_its_seed_and_another_from_another() {
    let draw = |seed: &str| {
        common::stdout_of(&[
            "sample",
            "--game",
            "kalah",
            "--plies",
            "4..12",
            "--positions",
            "5",
            "--seed",
            seed,
        ])
    };
    let first = draw("7");
    assert_eq!(first, draw("7"));
    assert_ne!(positions(&first), positions(&draw("8")));
    assert_eq!(positions(&first).len(), 5);
    assert!(first.starts_with("# evoboard sample: kalah; positions 5 after 4..=12 plies of random against itself; seed 7"), "{first}");
    for line in positions(&first) {
        evoboard::games::mancala::Mancala::<evoboard::games::mancala::Kalah>::from_position_string(
            line,
        )
        .expect("a Kalah position");
    }
}

#[test]
fn a_sample_it_cannot_draw_is_refused() {
    // One deterministic game cannot give two distinct positions after exactly 10 plies.
    assert_eq!(
        common::bad_input(&[
            "sample",
            "--game",
            "othello",
            "--player",
            "heuristic:1",
            "--plies",
            "10..10",
            "--positions",
            "2"
        ]),
        "error: the sampler found only 1 of 2 positions in 100 games: draw them from more random plies or ask for fewer positions"
    );
    assert!(
        common::bad_input(&["sample", "--game", "othello", "--plies", "9..3"])
            .contains("MIN ≤ MAX"),
    );
    assert!(
        common::bad_input(&[
            "sample", "--game", "othello", "--plies", "3..9", "--player", "nobody"
        ])
        .contains("nobody"),
    );
}
