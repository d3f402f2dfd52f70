//! Small seeded `evolve` runs pinned to outputs committed in `tests/data/pinned/RUN/`: their
//! stats.csv without the timing column, and a checksum of every `.evo` file they leave (the
//! champion and the newest checkpoints). The thread-count and resume tests compare runs with
//! each other, so a change that alters every run alike (how the generator samples, an
//! opening, a learning step) passes them; it fails here.
//!
//! A change meant to alter seeded runs re-pins them on purpose:
//! `EVOBOARD_REPIN=1 cargo test --release --test pinned_runs` rewrites the expected files,
//! whose diff then goes into the commit that explains it.

mod common;

use std::path::{Path, PathBuf};

/// The stats.csv column that depends on the clock.
const TIMING_COLUMN: &str = "seconds";

/// Runs `evolve` with `flags` and compares its outputs with those pinned under `name`, or
/// rewrites them when `EVOBOARD_REPIN` is set.
fn check_pinned_run(name: &str, flags: &[&str]) {
    let dir = common::temp_dir(&format!("pinned-{name}"));
    let out = dir.to_str().expect("temporary paths are UTF-8");
    let args = [
        &["evolve", "--no-plots", "--threads", "2", "--out", out],
        flags,
    ]
    .concat();
    let output = common::evoboard(&args);
    assert!(output.status.success(), "evoboard {args:?}: {output:?}");
    let outputs = [
        ("stats-untimed.csv", untimed_stats(&dir)),
        ("checksums.txt", checksums(&dir)),
    ];
    std::fs::remove_dir_all(&dir).unwrap();
    let pinned = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/pinned")
        .join(name);
    let repin = std::env::var_os("EVOBOARD_REPIN").is_some();
    for (file, actual) in outputs {
        let path = pinned.join(file);
        if repin {
            std::fs::create_dir_all(&pinned).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            actual,
            expected,
            "evoboard {} no longer reproduces {}. If the change is meant to alter seeded runs, \
             re-pin: EVOBOARD_REPIN=1 cargo test --release --test pinned_runs, and commit the \
             new files with the reason.",
            args.join(" "),
            path.display()
        );
    }
}

/// stats.csv of the run in `dir` without its timing column.
fn untimed_stats(dir: &Path) -> String {
    let csv = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let timing = header
        .iter()
        .position(|&column| column == TIMING_COLUMN)
        .expect("stats.csv has a timing column");
    csv.lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            let kept: Vec<&str> = [&fields[..timing], &fields[timing + 1..]].concat();
            kept.join(",") + "\n"
        })
        .collect()
}

/// A line `FNV-1a BYTES NAME` for each `.evo` file in `dir`, by name. Not CRC-32: an
/// `.evo` file ends with the CRC-32 of what precedes it, so the CRC-32 of every whole file
/// is the same constant.
fn checksums(dir: &Path) -> String {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "evo"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy();
            format!("{:016x} {} {name}\n", fnv1a(&bytes), bytes.len())
        })
        .collect()
}

/// The 64-bit FNV-1a hash of `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The paper preset's MLP on Othello: the run pinned since before network families and
/// learners were added.
#[test]
fn the_paper_preset_on_othello() {
    check_pinned_run(
        "othello-paper",
        &[
            "--game",
            "othello",
            "--preset",
            "paper",
            "--population",
            "6",
            "--generations",
            "5",
            "--depth",
            "2",
            "--bench-games",
            "10",
            "--seed",
            "42",
        ],
    );
}

/// TD learning of an n-tuple network on Kalah, half of its games against a sparring
/// partner, the champion chosen between two candidates.
#[test]
fn the_td_preset_on_kalah() {
    check_pinned_run(
        "kalah-td",
        &[
            "--game",
            "kalah",
            "--preset",
            "td",
            "--td-games",
            "200",
            "--sparring",
            "heuristic:1@0.1",
            "--generations",
            "3",
            "--depth",
            "1",
            "--bench-games",
            "10",
            "--candidates",
            "2",
            "--selection-games",
            "8",
            "--seed",
            "42",
        ],
    );
}

/// The modern preset's self-adaptive Gaussian mutation and hall of fame on Congkak's MLP,
/// through its simultaneous opening.
#[test]
fn the_modern_preset_on_congkak() {
    check_pinned_run(
        "congkak-modern",
        &[
            "--game",
            "congkak",
            "--preset",
            "modern",
            "--population",
            "6",
            "--generations",
            "3",
            "--depth",
            "2",
            "--bench-games",
            "10",
            "--gate",
            "1.0",
            "--seed",
            "42",
        ],
    );
}
