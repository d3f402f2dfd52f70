//! The NBoard protocol, driven by scripted sessions over stdin/stdout.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// The engine with `args`, its stdin and stdout piped.
fn spawn_engine(args: &[&str]) -> (Child, ChildStdin) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .arg("nboard")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stdin = child.stdin.take().unwrap();
    (child, stdin)
}

/// The engine, 0.3 s into a 30-ply search that may take a minute.
fn engine_deep_in_a_search() -> (Child, ChildStdin) {
    let (child, mut stdin) = spawn_engine(&["--player", "heuristic:4", "--move-time", "60"]);
    writeln!(stdin, "nboard 2\nset depth 30\ngo").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    (child, stdin)
}

/// A session fed line by line as a GUI does: after `go` it waits for the move, after
/// `hint N` for N lines, so a later `ping` does not interrupt the search. Returns every
/// line the engine wrote.
fn paced_session(args: &[&str], script: &str) -> Vec<String> {
    let (mut child, mut stdin) = spawn_engine(args);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    let mut read_until = |done: &dyn Fn(&[String]) -> bool, lines: &mut Vec<String>| {
        let mut new = Vec::new();
        while !done(&new) {
            let mut line = String::new();
            assert!(
                stdout.read_line(&mut line).unwrap() > 0,
                "the engine ended early"
            );
            new.push(line.trim_end().to_string());
        }
        lines.extend(new);
    };
    for command in script.lines() {
        writeln!(stdin, "{command}").unwrap();
        if command == "go" {
            read_until(&|new| new.last().is_some_and(|l| l == "status"), &mut lines);
        } else if let Some(wanted) = command.strip_prefix("hint ") {
            let wanted: usize = wanted.parse().unwrap();
            let hints = move |new: &[String]| {
                new.iter().filter(|l| l.starts_with("search ")).count() == wanted
            };
            read_until(&hints, &mut lines);
        }
    }
    drop(stdin);
    let rest: Vec<String> = stdout.lines().map(Result::unwrap).collect();
    lines.extend(rest);
    assert!(child.wait().unwrap().success());
    lines
}

fn session(player: &str, script: &str) -> Vec<String> {
    let output = common::evoboard_with_input(&["nboard", "--player", player], script);
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

#[test]
fn a_session_answers_every_command_in_order() {
    let script = format!(
        "nboard 2\nset depth 2\nset game (;GM[Othello]PC[NBoard]PB[a]PW[b]{START}B[F5//0.01]W[D6];)\n\
         ping 1\ngo\nhint 3\nset contempt 0\nmove C3/0.5/1.2\nunknown command\nping 2\n"
    );
    let lines = paced_session(&["--player", "heuristic:4"], &script);
    assert_eq!(lines[0], "set myname evoboard");
    assert_eq!(lines[1], "pong 1");
    assert_eq!(lines[2], "status thinking");
    // After F5 D6 black may play C3 to C7. At depth 2 (`set depth 2`, not the spec's 4)
    // the heuristic values C3, C4 and C7 at -8 and C5 and C6 at -12; of the tied best
    // moves the first in generation order (a1, b1, …, h8) is played: C3.
    let chosen = lines[3].strip_prefix("=== C3/-8.00/").expect("C3 at -8");
    assert!(chosen.parse::<f32>().is_ok(), "the time: {chosen}");
    assert_eq!(lines[4], "status");
    let hints: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(
        hints,
        [
            "search C3 -8.00 0 2",
            "search C4 -8.00 0 2",
            "search C7 -8.00 0 2"
        ],
        "the best 3 at depth 2, ties in generation order"
    );
    assert_eq!(lines.last().unwrap(), "pong 2");
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("status ") && l.contains("illegal")),
        "{lines:?}"
    );
}

#[test]
fn moves_passes_and_bad_input_are_handled() {
    // White to move with no placement but black can move: the engine must pass.
    let pass_position = format!("BO[8 *O{} O]", "-".repeat(62));
    let script =
        format!("nboard 2\nset game (;GM[Othello]{pass_position};)\ngo\nmove A1\nping 3\n");
    let lines = paced_session(&["--player", "random"], &script);
    assert!(lines.iter().any(|l| l.starts_with("=== PA/")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("status illegal move")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 3");
    let broken = session("heuristic:1", "set game (;GM[Othello]BO[8 ---];)\nping 4\n");
    assert!(
        broken[0].starts_with("status cannot read the game"),
        "{broken:?}"
    );
    assert_eq!(broken[1], "pong 4");
}

#[test]
fn the_shipped_champion_plays_over_nboard() {
    let lines = session(
        &format!("champion:{}", common::SHIPPED_OTHELLO_CHAMPION),
        "nboard 2\ngo\n",
    );
    // The champion's n-tuple network sums over the board's 8 symmetries, so it values the
    // four first moves (images of each other) alike; a tie goes to the first in generation
    // order, D3. 0.21 is its value at the depth it evolved at, 2 (depth 1 gives -0.09).
    assert!(lines[2].starts_with("=== D3/0.21/"), "{lines:?}");
}

#[test]
fn a_proven_result_is_reported_as_its_disc_margin() {
    // Black's a1 flips b1 and fills the board: 64–0, reported as +64 discs, not as the
    // search's internal win value.
    let board = format!("-OXXXXXX{}", "X".repeat(56));
    let script = format!(
        "nboard 2\nset game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 {board} *];)\ngo\nhint 1\n"
    );
    let lines = session("heuristic:3", &script);
    assert!(
        lines.iter().any(|l| l.starts_with("=== A1/64.00/")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l == "search A1 64.00 0 3"),
        "{lines:?}"
    );
}

/// What an engine playing `random` answers to `input`, line by line.
fn random_engine_answers(input: &[u8]) -> Vec<String> {
    let output = common::evoboard_with_bytes(&["nboard", "--player", "random"], input);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    text.lines().map(String::from).collect()
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_line_and_the_session_goes_on() {
    assert_eq!(
        random_engine_answers(b"nboard 2\nping \xff\xfe 1\nping 2\n"),
        [
            "set myname evoboard",
            "status ignored a line that is not UTF-8 text",
            "pong 2"
        ]
    );
}

#[test]
fn a_deep_search_answers_within_the_move_time() {
    // Depth 30 would take days: iterative deepening stops at --move-time.
    let clock = Instant::now();
    let lines = paced_session(
        &["--player", "heuristic:4", "--move-time", "0.3"],
        "nboard 2\nset depth 30\ngo\nhint 2\nping 1\n",
    );
    assert!(
        clock.elapsed() < Duration::from_secs(5),
        "{:?}",
        clock.elapsed()
    );
    // How deep the search got depends on the clock, but not the move: the heuristic is
    // symmetric, so the four first moves tie at every depth and D3, first in generation
    // order, is played.
    let chosen = lines
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("a move");
    assert!(chosen.starts_with("=== D3/"), "{chosen}");
    // The hints name the depth reached: deeper than 1, far from 30.
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("search "))
        .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths.len(), 2);
    assert!(depths.iter().all(|&d| (2..30).contains(&d)), "{depths:?}");
    assert_eq!(lines.last().unwrap(), "pong 1");
}

#[test]
fn a_ping_during_a_search_stops_it_and_is_answered_at_once() {
    let (mut child, mut stdin) = engine_deep_in_a_search();
    let clock = Instant::now();
    writeln!(stdin, "ping 9").unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    while lines.last().is_none_or(|l: &String| !l.starts_with("pong")) {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0);
        lines.push(line.trim_end().to_string());
    }
    assert!(
        clock.elapsed() < Duration::from_secs(5),
        "{:?}",
        clock.elapsed()
    );
    assert_eq!(
        lines,
        ["set myname evoboard", "status thinking", "status", "pong 9"]
    );
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn the_move_time_must_be_a_positive_number_of_seconds() {
    for bad in ["0", "-1", "soon", "1e9"] {
        let output = common::evoboard(&["nboard", "--move-time", bad]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
}

#[test]
fn a_ping_also_cancels_the_searches_queued_before_it() {
    let (child, mut stdin) = engine_deep_in_a_search();
    let clock = Instant::now();
    // Read during the search: the hint waits behind it, the ping cancels both.
    writeln!(stdin, "hint 1\nping 4").unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(
        clock.elapsed() < Duration::from_secs(5),
        "{:?}",
        clock.elapsed()
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        ["set myname evoboard", "status thinking", "status", "pong 4"]
    );
}

#[test]
fn a_time_limit_in_the_spec_holds_in_nboard_too() {
    let clock = Instant::now();
    let lines = paced_session(
        &["--player", "heuristic:30~0.2", "--move-time", "60"],
        "nboard 2\ngo\n",
    );
    assert!(
        clock.elapsed() < Duration::from_secs(5),
        "{:?}",
        clock.elapsed()
    );
    assert!(lines.iter().any(|l| l.starts_with("=== ")), "{lines:?}");
}

#[test]
fn a_line_too_long_is_skipped_with_a_status_line_and_the_session_goes_on() {
    // 200 kB of zero bytes (valid UTF-8) in one line: more than a line may hold.
    let mut input = b"nboard 2\n".to_vec();
    input.extend(std::iter::repeat_n(0u8, 200_000));
    input.extend(b"\nping 1\n");
    assert_eq!(
        random_engine_answers(&input),
        [
            "set myname evoboard",
            "status ignored a line longer than 65536 bytes",
            "pong 1"
        ]
    );
}

/// The resident memory high-water mark of process `pid`, in kB (Linux).
fn peak_memory_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn input_flooding_in_during_searches_waits_in_a_bounded_queue() {
    // A client sending `go` far faster than the engine answers: the engine stops reading
    // while its queue is full, so its memory stays flat (unbounded, it grew by about
    // 400 MB a second).
    let (mut child, mut stdin) = spawn_engine(&["--player", "heuristic:6", "--move-time", "0.2"]);
    let stdout = child.stdout.take().unwrap();
    let drain = std::thread::spawn(move || std::io::copy(&mut { stdout }, &mut std::io::sink()));
    let writer = std::thread::spawn(move || {
        let burst = "go\n".repeat(10_000);
        while stdin.write_all(burst.as_bytes()).is_ok() {}
    });
    std::thread::sleep(Duration::from_secs(3));
    let peak = peak_memory_kb(child.id());
    child.kill().unwrap();
    child.wait().unwrap();
    writer.join().unwrap();
    drain.join().unwrap().ok();
    assert!(peak < 100_000, "peak resident memory {peak} kB");
}

#[test]
fn a_player_on_a_game_clock_solves_the_endgame_and_reports_the_exact_margin() {
    // FFO #40 (20 empties, black to move): +38 by a2 only. A 100-second game clock gives
    // the exact solver time enough.
    let line = include_str!("../../tests/data/ffo-40-49.tsv")
        .lines()
        .find(|line| line.starts_with("40\t"))
        .unwrap();
    let (board, side) = line.split('\t').nth(1).unwrap().split_once(' ').unwrap();
    assert_eq!(side, "X");
    let board = board.replace('X', "*");
    let script = format!("nboard 2\nset game (;GM[Othello]BO[8 {board} *];)\ngo\n");
    let lines = paced_session(
        &["--player", "heuristic:30~100/game", "--move-time", "60"],
        &script,
    );
    assert!(
        lines.iter().any(|l| l.starts_with("=== A2/38.00/")),
        "{lines:?}"
    );
}
