//! Helpers shared by the integration tests that run the `evoboard` binary.
// Each test file compiles this module on its own and uses only some of the helpers.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The shipped Othello champion, by absolute path (the binary runs elsewhere).
pub const SHIPPED_OTHELLO_CHAMPION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../populations/othello/champion.evo"
);

/// Runs the binary from the temporary directory, so that files it writes by default
/// (`evolve`'s `plots/RUN`) never land in the working tree.
pub fn evoboard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .current_dir(std::env::temp_dir())
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Asserts the bad-input contract (README, "Commands"): exit 2, nothing on stdout, one
/// line on stderr that starts with `error: ` and says something, no panic. Returns it.
pub fn error_line(output: &Output) -> String {
    let err = String::from_utf8_lossy(&output.stderr)
        .trim_end()
        .to_string();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(output.stdout.is_empty(), "printed to stdout: {output:?}");
    assert_eq!(err.lines().count(), 1, "one error line: {err:?}");
    assert!(
        err.starts_with("error: ") && err.len() > "error: ".len(),
        "{err:?}"
    );
    err
}

/// Runs the binary with input it must refuse as bad (see [`error_line`]); returns the line.
pub fn bad_input(args: &[&str]) -> String {
    let output = evoboard(args);
    assert_eq!(
        output.status.code(),
        Some(2),
        "evoboard {args:?}: {output:?}"
    );
    error_line(&output)
}

/// Runs the binary, which must succeed, and returns its standard output.
pub fn stdout_of(args: &[&str]) -> String {
    let output = evoboard(args);
    assert!(output.status.success(), "evoboard {args:?}: {output:?}");
    String::from_utf8(output.stdout).expect("the output is UTF-8")
}

/// Runs the binary, which must succeed and print one JSON value, and returns that value.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    let out = stdout_of(args);
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("bad JSON ({e}): {out}"))
}

/// A small evolution run of `game` (6 networks, 2 generations at depth 1, 4 benchmark
/// games, no plots) in a fresh temporary directory, which it returns.
pub fn evolve_small(game: &str) -> PathBuf {
    let dir = temp_dir(game);
    let output = evoboard(&[
        "evolve",
        "--preset",
        "modern",
        "--game",
        game,
        "--population",
        "6",
        "--generations",
        "2",
        "--depth",
        "1",
        "--bench-games",
        "4",
        "--no-plots",
        "--out",
        dir.to_str().expect("temporary paths are UTF-8"),
    ]);
    assert!(output.status.success(), "evolve --game {game}: {output:?}");
    dir
}

/// Runs the binary with `input` on its standard input.
pub fn evoboard_with_input(args: &[&str], input: &str) -> Output {
    evoboard_with_bytes(args, input.as_bytes())
}

/// Runs the binary with `args` and raw `input` on stdin (which need not be UTF-8).
pub fn evoboard_with_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .current_dir(std::env::temp_dir())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("the input is written");
    child.wait_with_output().expect("the binary ends")
}

/// A fresh (removed if it existed, not yet created) directory under the temporary
/// directory, unique to this test process.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evoboard-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub mod server;

/// Copies the directory `from` to `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The files an experiment's results are made of, by relative path, with their bytes:
/// all but the runs' locks, the PNG drawings, and the time each generation took (the last
/// column of `stats.csv`).
pub fn result_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            pending.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else {
            let relative = path.strip_prefix(dir).unwrap().to_path_buf();
            let name = relative.to_string_lossy();
            if name.ends_with("-lock") || name.ends_with(".png") {
                continue;
            }
            let mut bytes = std::fs::read(&path).unwrap();
            if name.ends_with("stats.csv") {
                let text = String::from_utf8(bytes).unwrap();
                let timeless: Vec<&str> = text
                    .lines()
                    .map(|l| l.rsplit_once(',').unwrap().0)
                    .collect();
                bytes = timeless.join("\n").into_bytes();
            }
            files.push((relative, bytes));
        }
    }
    files.sort();
    files
}

/// Asserts that two experiments hold the same results, naming the first file that differs.
pub fn assert_same_files(a: &Path, b: &Path) {
    let (a, b) = (result_files(a), result_files(b));
    let names =
        |files: &[(PathBuf, Vec<u8>)]| files.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    for ((name, left), (_, right)) in a.iter().zip(&b) {
        assert!(left == right, "{} differs", name.display());
    }
}
