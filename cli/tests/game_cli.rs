//! `evoboard_cli::run_game` end to end, on the Connect Four example's game (its `game.rs`
//! and `eval.rs`, compiled in here): the commands as the example's program runs them, in
//! the order a user would (evolve, resume, benchmark, play, plot, and the others on the
//! run), and what it refuses, in one `error:` line: `--game`, the built-in binary's own
//! commands, a run of another game.
//!
//! Cargo gives a test the path of the package's binaries but not of its examples, so the
//! test is that program itself: run with [`PROGRAM`] set, its `main` is the example's
//! (`run_game` over the process's arguments); without, it runs copies of itself so and
//! checks their output, status and files. It has no libtest harness (`harness = false`).

#[path = "../examples/connect_four/eval.rs"]
mod eval;
#[path = "../examples/connect_four/game.rs"]
mod game;

// Of the helpers the binary's tests share, `error_line` and `temp_dir`.
mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Output, Stdio};

use serde_json::Value;

use common::{error_line, temp_dir};

/// Set in the environment of the copies that act as the game's program.
const PROGRAM: &str = "EVOBOARD_GAME_CLI_PROGRAM";

fn main() -> ExitCode {
    if std::env::var_os(PROGRAM).is_some() {
        return evoboard_cli::run_game(game::ConnectFour::new());
    }
    let dir = Scratch(temp_dir("game-cli"));
    std::fs::create_dir_all(&dir.0).expect("the scratch directory is made");
    let run = dir.0.join("run");
    let checks: [(&str, Check); 6] = [
        ("evolve and resume", evolve_and_resume),
        ("benchmark, tournament and ratings", measure),
        ("play", play),
        ("plot", plot),
        ("show and perft", show_and_perft),
        ("refusals", refusals),
    ];
    for (name, check) in checks {
        print!("game_cli: {name} ... ");
        std::io::stdout().flush().expect("stdout");
        check(&run);
        println!("ok");
    }
    ExitCode::SUCCESS
}

/// A check of the program's commands on the run in the given directory.
type Check = fn(&Path);

/// Removes the scratch directory when the checks end, passed or failed.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the game's program with `args` and `input` on stdin, from the directory above the
/// run (so that files written by default stay in the scratch directory).
fn program(run: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(std::env::current_exe().expect("the test knows its path"))
        .current_dir(run.parent().expect("the run is in the scratch directory"))
        .env(PROGRAM, "1")
        .env("NO_COLOR", "1")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("the input is written");
    child.wait_with_output().expect("the program ends")
}

/// Runs the program, which must succeed, and returns its standard output.
fn stdout_of(run: &Path, args: &[&str]) -> String {
    stdout_with_input(run, args, "")
}

/// [`stdout_of`] with `input` on stdin.
fn stdout_with_input(run: &Path, args: &[&str], input: &str) -> String {
    let output = program(run, args, input);
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).expect("the output is UTF-8")
}

/// Runs the program, which must refuse its input in one `error:` line, and returns it.
fn refused(run: &Path, args: &[&str]) -> String {
    error_line(&program(run, args, ""))
}

/// A path as text for a flag.
fn text(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// `spec` for the run's champion.
fn champion(run: &Path) -> String {
    format!("champion:{}", run.join("champion.evo").display())
}

fn evolve_and_resume(run: &Path) {
    let out = stdout_of(
        run,
        &[
            "evolve",
            "--preset",
            "modern",
            "--population",
            "4",
            "--generations",
            "2",
            "--depth",
            "1",
            "--bench-games",
            "4",
            "--snapshots",
            "1",
            "--no-plots",
            "--out",
            text(run),
        ],
    );
    assert!(out.contains("evolving connect-four in"), "{out}");
    let info: Value = serde_json::from_slice(&std::fs::read(run.join("run.json")).unwrap())
        .expect("run.json is JSON");
    assert_eq!(info["game"], "connect-four", "{info}");
    assert!(run.join("gen-00002.evo").is_file(), "the last checkpoint");
    assert!(run.join("champion.evo").is_file());
    let rows = |run: &Path| {
        std::fs::read_to_string(run.join("stats.csv"))
            .expect("stats.csv")
            .lines()
            .count()
    };
    assert_eq!(rows(run), 1 + 2, "a header and a row per generation");
    // The run records its game: --resume needs none, and continues it.
    let out = stdout_of(
        run,
        &[
            "evolve",
            "--out",
            text(run),
            "--resume",
            "--generations",
            "3",
        ],
    );
    assert!(out.contains("from generation 3 of 3"), "{out}");
    assert_eq!(rows(run), 1 + 3);
}

fn measure(run: &Path) {
    let champion = champion(run);
    let out = stdout_of(
        run,
        &[
            "benchmark",
            "--player",
            &champion,
            "--opponent",
            "random",
            "--games",
            "4",
            "--json",
        ],
    );
    let report: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(report["schema"], "evoboard.benchmark/1");
    assert_eq!(report["game"], "connect-four");
    assert_eq!(report["games"], 4, "{report}");
    let out = stdout_of(
        run,
        &[
            "tournament",
            "--agents",
            &format!("random,heuristic:1,{champion}"),
            "--games",
            "2",
            "--json",
        ],
    );
    let report: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(
        report["agents"].as_array().map(Vec::len),
        Some(3),
        "{report}"
    );
    let out = stdout_of(
        run,
        &[
            "ratings",
            "--run",
            text(run),
            "--games",
            "2",
            "--bootstrap",
            "0",
        ],
    );
    assert!(out.contains("generation 3"), "{out}");
    assert!(run.join("ratings.csv").is_file());
}

fn play(run: &Path) {
    // Engines alone: no input needed.
    let record = run.with_file_name("game.txt");
    let out = stdout_of(
        run,
        &[
            "play",
            "--first",
            &champion(run),
            "--second",
            "heuristic:1",
            "--record",
            text(&record),
        ],
    );
    assert!(out.contains("game over: "), "{out}");
    assert!(record.is_file(), "the record is saved");
    // A person: a move, a hint, an illegal move, then quitting.
    let out = stdout_with_input(
        run,
        &["play", "--first", "human", "--second", "random"],
        "4\nhint\n9\nquit\n",
    );
    assert!(out.contains("X to move> "), "{out}");
    assert!(out.contains("hint for X (heuristic:4"), "{out}");
    assert!(out.contains("a column number from 1 to 7"), "{out}");
    assert!(out.contains("game abandoned"), "{out}");
}

fn plot(run: &Path) {
    let out = stdout_of(run, &["plot", "--run", text(run)]);
    let paths: Vec<&str> = out.lines().collect();
    assert!(paths.iter().any(|p| p.ends_with(".png")), "{out}");
    for path in paths {
        assert!(Path::new(path).is_file(), "{path}");
    }
}

fn show_and_perft(run: &Path) {
    // The published counts: 7, 49, 343, 2,401 leaves.
    assert_eq!(stdout_of(run, &["perft", "--depth", "4"]).trim(), "2401");
    let out = stdout_of(run, &["show", "--moves", "4,4", "--json"]);
    let shown: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(shown["game"], "connect-four");
    assert_eq!(shown["legal"].as_array().map(Vec::len), Some(7), "{shown}");
}

fn refusals(run: &Path) {
    // The game is the program's.
    for args in [
        &["benchmark", "--game", "othello", "--player", "random"][..],
        &["plot", "--run", text(run), "--game=connect-four"][..],
    ] {
        let line = refused(run, args);
        assert!(
            line.contains("this program plays connect-four alone: drop --game"),
            "{line}"
        );
    }
    // The built-in binary's own commands are not this program's.
    for command in ["nboard", "solve", "experiment", "serve"] {
        let line = refused(run, &[command]);
        assert!(line.contains(&format!("'{command}'")), "{line}");
    }
    // A run of another game.
    let other = run.with_file_name("othello-run");
    std::fs::create_dir_all(&other).unwrap();
    let info = std::fs::read_to_string(run.join("run.json")).unwrap();
    std::fs::write(
        other.join("run.json"),
        info.replace("\"connect-four\"", "\"othello\""),
    )
    .unwrap();
    for args in [
        &["ratings", "--run", text(&other)][..],
        &["evolve", "--out", text(&other), "--resume"][..],
    ] {
        let line = refused(run, args);
        assert!(
            line.contains("is a run of the game othello, not connect-four"),
            "{args:?}: {line}"
        );
    }
    // Bad values, as the built-in binary refuses them.
    let line = refused(run, &["perft", "--depth", "-3"]);
    assert!(line.contains("must be a positive integer"), "{line}");
    let line = refused(run, &["show", "--moves", "8"]);
    assert!(line.contains("a column number from 1 to 7"), "{line}");
}
