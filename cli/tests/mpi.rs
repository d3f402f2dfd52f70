//! Runs over MPI (`mpirun -n N evoboard ...`, feature `mpi`) give exactly the files and
//! tables of one process: checkpoints, champion and stats (timings aside), whatever the
//! number of processes, also when a run resumes with another number.
//!
//! Needs Open MPI's `mpirun` (`.ci/run` installs it): without it these tests fail, never
//! skip. Run with `cargo test --release --features mpi --test mpi`.
#![cfg(feature = "mpi")]

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{evoboard, temp_dir};

/// `evoboard args` under `mpirun -n processes` (oversubscribed, so a small machine runs
/// more processes than cores; allowed as root, as CI runs).
fn mpirun(processes: usize, args: &[&str]) -> Output {
    Command::new("mpirun")
        .args(["-n", &processes.to_string(), "--oversubscribe"])
        .arg(env!("CARGO_BIN_EXE_evoboard"))
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .unwrap_or_else(|error| {
            panic!(
                "cannot start mpirun ({error}): the MPI tests need Open MPI \
                 (apt-get install openmpi-bin libopenmpi-dev, as .ci/run does)"
            )
        })
}

fn succeeded(output: Output, what: &str) -> Output {
    assert!(
        output.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Every file of a run directory by name, `stats.csv` without its timing column.
fn run_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let bytes = std::fs::read(entry.path()).unwrap();
            let bytes = if name == "stats.csv" {
                let text = String::from_utf8(bytes).unwrap();
                let rows: Vec<&str> = text
                    .lines()
                    .map(|l| l.rsplit_once(',').unwrap().0)
                    .collect();
                rows.join("\n").into_bytes()
            } else {
                bytes
            };
            (name, bytes)
        })
        .filter(|(name, _)| name != ".evoboard-lock")
        .collect();
    files.sort();
    files
}

fn evolve_args<'a>(preset: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "evolve",
        "--game",
        "othello",
        "--preset",
        preset,
        "--population",
        "8",
        "--depth",
        "1",
        "--bench-games",
        "8",
        "--selection-games",
        "4",
        "--seed",
        "11",
        "--no-plots",
        "--out",
        out,
    ];
    args.extend(extra);
    args
}

#[test]
fn an_evolution_over_three_processes_equals_the_one_process_run() {
    let dir = temp_dir("mpi-evolve");
    let (one, three) = (dir.join("one"), dir.join("three"));
    let (one, three) = (one.to_str().unwrap(), three.to_str().unwrap());
    let extra = ["--generations", "3", "--keep-checkpoints", "all"];
    succeeded(
        evoboard(&[evolve_args("modern", one, &extra), vec!["--threads", "2"]].concat()),
        "one process",
    );
    let output = succeeded(
        mpirun(
            3,
            &[evolve_args("modern", three, &extra), vec!["--threads", "1"]].concat(),
        ),
        "three processes",
    );
    let one_files = run_files(Path::new(one));
    assert!(one_files.iter().any(|(name, _)| name == "gen-00003.evo"));
    assert!(one_files.iter().any(|(name, _)| name == "champion.evo"));
    assert_eq!(run_files(Path::new(three)), one_files);
    // The leader alone printed: one summary line per generation.
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.matches("gen    1/3").count(), 1, "{stdout}");
}

#[test]
fn a_run_resumed_with_another_number_of_processes_ends_as_one_process_would() {
    let dir = temp_dir("mpi-resume");
    let (one, spread) = (dir.join("one"), dir.join("spread"));
    let (one, spread) = (one.to_str().unwrap(), spread.to_str().unwrap());
    succeeded(
        evoboard(&evolve_args(
            "cmaes",
            one,
            &["--generations", "4", "--threads", "1"],
        )),
        "one process",
    );
    succeeded(
        mpirun(2, &evolve_args("cmaes", spread, &["--generations", "2"])),
        "two processes",
    );
    succeeded(
        mpirun(
            3,
            &[
                "evolve",
                "--resume",
                "--no-plots",
                "--out",
                spread,
                "--generations",
                "4",
            ],
        ),
        "the resume on three processes",
    );
    assert_eq!(run_files(Path::new(spread)), run_files(Path::new(one)));
}

/// The tables of `benchmark --json`, `panel --json` and `tournament --csv` on 1 and on 3
/// processes; only the benchmark's think times may differ.
#[test]
fn benchmark_panel_and_tournament_over_three_processes_equal_one_process() {
    let without_times = |output: Output| {
        let mut json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        for side in ["player_time", "opponent_time"] {
            json.as_object_mut().unwrap().remove(side).unwrap();
        }
        json
    };
    let benchmark = [
        "benchmark",
        "--game",
        "congkak",
        "--player",
        "heuristic:2",
        "--opponent",
        "random",
        "--games",
        "10",
        "--json",
    ];
    assert_eq!(
        without_times(succeeded(mpirun(3, &benchmark), "benchmark on 3")),
        without_times(succeeded(evoboard(&benchmark), "benchmark on 1"))
    );
    let panel = [
        "panel",
        "--game",
        "kalah",
        "--player",
        "heuristic:1",
        "--games",
        "4",
        "--json",
    ];
    assert_eq!(
        succeeded(mpirun(3, &panel), "panel on 3").stdout,
        succeeded(evoboard(&panel), "panel on 1").stdout
    );
    let dir = temp_dir("mpi-tournament");
    std::fs::create_dir_all(&dir).unwrap();
    // A small round robin on `processes`, its table written to `csv`, its games kept in
    // `journal` if one is given; returns the table.
    let tournament = |processes: usize, csv: &Path, journal: Option<&Path>| {
        let mut args = vec![
            "tournament",
            "--game",
            "othello",
            "--agents",
            "heuristic:1,random,first",
            "--games",
            "4",
            "--csv",
            csv.to_str().unwrap(),
        ];
        if let Some(journal) = journal {
            args.extend(["--journal", journal.to_str().unwrap()]);
        }
        succeeded(mpirun(processes, &args), "tournament");
        std::fs::read(csv).unwrap()
    };
    let tables: Vec<Vec<u8>> = [1, 3]
        .into_iter()
        .map(|processes| tournament(processes, &dir.join(format!("{processes}.csv")), None))
        .collect();
    assert!(tables[0].starts_with(b"agent,games,wins"));
    assert_eq!(tables[0], tables[1]);
    // A journal cut after three games goes on over three processes to the same table,
    // the leader writing the games the others play.
    let journal = dir.join("games.jsonl");
    let csv = dir.join("resumed.csv");
    tournament(1, &csv, Some(&journal));
    let text = std::fs::read_to_string(&journal).unwrap();
    let cut: String = text
        .lines()
        .take(4)
        .map(|line| format!("{line}\n"))
        .collect();
    std::fs::write(&journal, cut).unwrap();
    assert_eq!(tournament(3, &csv, Some(&journal)), tables[0]);
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap().lines().count(),
        1 + 3 * 4
    );
}

#[test]
fn a_command_that_does_not_spread_is_refused_once() {
    let output = mpirun(2, &["perft", "--game", "othello", "--depth", "2"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let refusal = "error: only evolve, benchmark, panel, tournament and experiment run over MPI";
    assert_eq!(stderr.matches(refusal).count(), 1, "{stderr}");
    assert!(output.stdout.is_empty());
}

/// An experiment's runs spread over processes, each run whole on one (two at once on
/// each): the files of the experiment run by one process, and a second start refused once.
#[test]
fn an_experiment_over_three_processes_equals_one_process() {
    let plan = concat!(env!("CARGO_MANIFEST_DIR"), "/../experiments/smoke.toml");
    let dir = temp_dir("mpi-experiment");
    let (one, spread) = (dir.join("one"), dir.join("spread"));
    succeeded(
        evoboard(&["experiment", plan, "--out", one.to_str().unwrap()]),
        "the experiment on one process",
    );
    let args = ["experiment", plan, "--out", spread.to_str().unwrap()];
    let mut with_jobs = args.to_vec();
    with_jobs.extend(["--jobs", "2"]);
    let output = succeeded(mpirun(3, &with_jobs), "the experiment on three processes");
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("| `lambda` | 3 |"),
        "the leader prints the summary"
    );
    common::assert_same_files(&spread, &one);
    let again = mpirun(3, &args);
    assert!(!again.status.success());
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert_eq!(
        stderr.matches("holds an experiment already").count(),
        1,
        "{stderr}"
    );
}
