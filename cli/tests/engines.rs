//! External engines as agents (`nboard:COMMAND`, `gtp:COMMAND`), played over the real
//! protocols against real processes: evoboard's own `nboard` and `gtp` engines, and shell
//! one-liners that fail.

mod common;

use std::time::{Duration, Instant};

use common::{bad_input, evoboard, temp_dir};
use evoboard::arena::{Agent, AgentSpec, GameRecord, SeriesConfig, play_series};
use evoboard::games::othello::Othello;
use evoboard::games::{Game, Notation};

/// evoboard's own engine speaking `protocol` (`nboard` or `gtp`) and playing `player`, as
/// an agent spec.
fn evoboard_engine(protocol: &str, player: &str) -> String {
    format!(
        "{protocol}:{} {protocol} --player {player}",
        env!("CARGO_BIN_EXE_evoboard")
    )
}

/// The agent a spec names, for Othello.
fn build(spec: &str) -> Box<dyn Agent<Othello>> {
    spec.parse::<AgentSpec>()
        .unwrap()
        .build(&Othello::start())
        .unwrap()
}

/// A series of `player` against `opponent` over 8 games from 4-ply openings.
fn series(player: &dyn Agent<Othello>, opponent: &dyn Agent<Othello>) -> Vec<GameRecord<Othello>> {
    let config = SeriesConfig {
        games: 8,
        opening_plies: 4,
        seed: 5,
    };
    play_series(&Othello::start(), player, opponent, config, &|| {}).unwrap()
}

/// The processes this test process started and has not reaped, by id.
fn children() -> Vec<u32> {
    let tasks = std::fs::read_dir("/proc/self/task").unwrap().flatten();
    tasks
        .flat_map(|task| {
            let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            list.split_whitespace()
                .map(|pid| pid.parse().unwrap())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// An engine plays whole games of legal moves, and since a fixed-depth search is
/// deterministic, the very games the same search plays in-process (over GTP, from
/// openings replayed from the start). Its processes are reused from series to series, at
/// most one per worker thread, and killed and reaped when the agent is dropped.
fn plays_the_games_its_search_plays_in_process(protocol: &str) {
    let engine = build(&evoboard_engine(protocol, "heuristic:3"));
    // The engines deepen iteratively, as a search with a time limit does here (ties
    // between moves then go to the previous depth's best): a limit never reached.
    let same_search = build("heuristic:3~600");
    for opponent in ["heuristic:1", "wpc:2", "random"] {
        let opponent = build(opponent);
        let external = series(engine.as_ref(), opponent.as_ref());
        let internal = series(same_search.as_ref(), opponent.as_ref());
        for (k, (record, expected)) in external.iter().zip(&internal).enumerate() {
            assert!(record.forfeit.is_none(), "game {k}: {:?}", record.forfeit);
            let mut position = record.start;
            for &mv in &record.moves {
                position = position.play(mv).expect("every move is legal");
            }
            assert_eq!(position.count_moves(), 0, "game {k} is played to its end");
            assert_eq!(record.outcome, position.outcome().unwrap());
            assert_eq!(record.move_text(), expected.move_text(), "game {k}");
        }
    }
    let command = format!(
        "{}\0{protocol}\0--player\0heuristic:3\0",
        env!("CARGO_BIN_EXE_evoboard")
    );
    let engines: Vec<u32> = children()
        .into_iter()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default() == command.as_bytes()
        })
        .collect();
    assert!(
        (1..=rayon::current_num_threads()).contains(&engines.len()),
        "{engines:?}"
    );
    drop(engine);
    let left: Vec<u32> = children()
        .into_iter()
        .filter(|pid| engines.contains(pid))
        .collect();
    assert!(left.is_empty(), "{left:?} of {engines:?} live on");
}

#[test]
fn an_nboard_engine_plays_the_games_its_search_plays_in_process() {
    plays_the_games_its_search_plays_in_process("nboard");
}

#[test]
fn a_gtp_engine_plays_the_games_its_search_plays_in_process() {
    plays_the_games_its_search_plays_in_process("gtp");
}

/// A GTP engine that refuses to be told of passes (as GRhino's `gtp-rhino` does) is told
/// the game without them, and plays it as it would have with them: every move names its
/// colour. Here evoboard's own engine, behind a filter that garbles every pass.
#[test]
fn a_gtp_engine_that_refuses_passes_plays_on() {
    let engine = build(&format!(
        "gtp:sh -c 'sed -u \"s/ pass$/ garbled/\" | {} gtp --player heuristic:3'",
        env!("CARGO_BIN_EXE_evoboard")
    ));
    let same_search = build("heuristic:3~600");
    let opponent = build("random");
    let external = series(engine.as_ref(), opponent.as_ref());
    let internal = series(same_search.as_ref(), opponent.as_ref());
    let passes = external
        .iter()
        .filter(|record| record.moves.contains(&evoboard::games::othello::Move::PASS))
        .count();
    assert!(passes > 0, "no game had a pass to refuse");
    for (k, (record, expected)) in external.iter().zip(&internal).enumerate() {
        assert!(record.forfeit.is_none(), "game {k}: {:?}", record.forfeit);
        assert_eq!(record.move_text(), expected.move_text(), "game {k}");
    }
}

/// `evoboard gtp` answers a controller's session: ids repeated, comments and blank lines
/// skipped, other board sizes, moves out of turn and illegal moves refused, nothing after
/// `quit`.
#[test]
fn evoboard_speaks_gtp() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .args(["gtp", "--player", "heuristic:1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = "1 protocol_version\n\
                  # a comment\n\
                  \n\
                  name\n\
                  2 boardsize 9\n\
                  3 boardsize 8\n\
                  4 clear_board\n\
                  5 play b d3\n\
                  6 play b c5\n\
                  7 play w a1\n\
                  8 known_command genmove\n\
                  9 known_command showboard\n\
                  10 genmove w\n\
                  11 frobnicate\n\
                  12 quit\n\
                  13 name\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), 13, "{text:?}");
    assert_eq!(
        &answers[..4],
        [
            "=1 2",
            "= evoboard",
            "?2 unacceptable size: Othello is played on 8x8",
            "=3"
        ]
    );
    assert_eq!(&answers[4..6], ["=4", "=5"]);
    assert!(
        answers[6].starts_with("?6 it is not b's turn"),
        "{}",
        answers[6]
    );
    assert!(answers[7].starts_with("?7 illegal move"), "{}", answers[7]);
    assert_eq!(&answers[8..10], ["=8 true", "=9 false"]);
    // After d3, white's replies are c3, e3 and c5.
    let reply = answers[10].strip_prefix("=10 ").unwrap();
    assert!(["C3", "E3", "C5"].contains(&reply), "{reply}");
    assert_eq!(&answers[11..], ["?11 unknown command", "=12"]);
}

/// Engines play in benchmarks, panels and tournaments from the command line like any
/// agent, and panels and tournaments name the series of a forfeited game.
#[test]
fn commands_accept_engines_wherever_they_take_a_spec() {
    let engine = evoboard_engine("nboard", "heuristic:1");
    let gtp_engine = evoboard_engine("gtp", "wpc:1");
    let output = evoboard(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        &engine,
        "--opponent",
        "heuristic:1",
        "--games",
        "4",
        "--openings",
        "4",
        "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["games"], 4, "{report}");
    let output = evoboard(&[
        "tournament",
        "--game",
        "othello",
        "--agents",
        &format!("{engine},random,{gtp_engine}"),
        "--games",
        "2",
        "--openings",
        "2",
        "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["agents"][0]["agent"], engine.as_str());
    assert_eq!(report["agents"][0]["games"], 4, "{report}");
    assert_eq!(report["agents"][2]["agent"], gtp_engine.as_str());
    assert_eq!(report["agents"][2]["games"], 4, "{report}");
    assert_eq!(report["forfeited"], 0, "{report}");
    let output = evoboard(&[
        "panel",
        "--game",
        "othello",
        "--player",
        &gtp_engine,
        "--depth",
        "1",
        "--games",
        "2",
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
    // An engine that starts, then dies at its first move.
    let dead = scripted_engine("exit 3");
    let dead = dead.as_str();
    let output = evoboard(&[
        "panel", "--game", "othello", "--player", dead, "--depth", "1", "--games", "2",
    ]);
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("warning: "), "{stderr}");
    assert!(
        stderr.contains(&format!(" games forfeited (each a loss for the side that forfeited); the first, game 1 of {dead} vs ")),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(&format!(": engine '{dead}' ended (exit status: 3)\n")),
        "{stderr}"
    );
    let output = evoboard(&[
        "tournament",
        "--game",
        "othello",
        "--agents",
        &format!("random,{dead}"),
        "--games",
        "2",
    ]);
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    let expected = format!(
        "warning: 2 of 2 games forfeited (each a loss for the side that forfeited); the first, \
         game 1 of random vs {dead}: engine '{dead}' ended (exit status: 3)\n"
    );
    assert_eq!(stderr, expected);
}

/// An NBoard engine as a shell one-liner: it answers `ping N` with `pong N` and `go`
/// with `on_go` (a shell command).
fn scripted_engine(on_go: &str) -> String {
    format!(
        "nboard:sh -c 'while read c a; do case $c in ping) echo pong $a;; go) {on_go};; esac; done'"
    )
}

/// A GTP engine as a shell one-liner: it answers every command `=ID` (an empty success)
/// and `genmove` with `=ID ` followed by `on_genmove`'s output.
fn scripted_gtp_engine(on_genmove: &str) -> String {
    format!(
        "gtp:sh -c 'while read id c a; do case $c in genmove) printf \"=$id \"; {on_genmove};; \
         *) echo =$id;; esac; echo; done'"
    )
}

#[test]
fn a_gtp_engine_answering_garbage_or_resigning_forfeits() {
    every_game_forfeited(
        &scripted_gtp_engine("echo Z9"),
        "answered '= Z9' to genmove: not a move",
    );
    every_game_forfeited(&scripted_gtp_engine("echo resign"), "resigned");
}

/// A benchmark of `engine` against heuristic:1 over 4 games: it completes, each game is
/// the engine's loss, and one warning names the engine, the first game and `problem`.
fn every_game_forfeited(engine: &str, problem: &str) {
    let output = evoboard(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        engine,
        "--opponent",
        "heuristic:1",
        "--games",
        "4",
        "--openings",
        "2",
        "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (&report["games"], &report["losses"], &report["forfeited"]),
        (&4.into(), &4.into(), &4.into()),
        "{report}"
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    let expected = format!(
        "warning: 4 of 4 games forfeited (each a loss for the side that forfeited); \
         the first, game 1: engine '{engine}' {problem}"
    );
    assert!(
        stderr.starts_with(&expected),
        "{stderr:?} against {expected:?}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
}

#[test]
fn an_engine_that_dies_during_a_game_forfeits() {
    every_game_forfeited(&scripted_engine("exit 3"), "ended (exit status: 3)");
}

/// Engines that cannot start (no such program, one that exits at once, one that refuses
/// its greeting) are an error before any game, in every command that takes an agent:
/// never a series of forfeits that reads as a score.
#[test]
fn an_engine_that_cannot_start_is_an_error_before_any_game() {
    // Quoted, so that the shell does not expand `?1` to a file name of the directory the
    // engine runs in.
    let refusing = "gtp:sh -c 'while read id c a; do echo \"?$id no\"; echo; done'";
    let engines = [
        (
            "nboard:/nonexistent/engine --nboard",
            "could not be started: No such file or directory",
        ),
        (
            "gtp:/nonexistent/engine",
            "could not be started: No such file or directory",
        ),
        ("nboard:sh -c 'exit 3'", "ended (exit status: 3)"),
        (refusing, "refused 'boardsize 8': no"),
    ];
    let run = temp_dir("engine-start");
    let out = run.to_str().unwrap();
    for (engine, problem) in engines {
        let commands: [&[&str]; 5] = [
            &[
                "benchmark",
                "--game",
                "othello",
                "--player",
                "random",
                "--opponent",
                engine,
            ],
            &[
                "tournament",
                "--game",
                "othello",
                "--agents",
                &format!("random,{engine}"),
            ],
            &[
                "panel", "--game", "othello", "--player", engine, "--depth", "1",
            ],
            &[
                "accuracy",
                "--game",
                "othello",
                "--player",
                engine,
                "--positions",
                "2",
                "--no-cache",
            ],
            &[
                "evolve",
                "--game",
                "othello",
                "--preset",
                "modern",
                "--population",
                "2",
                "--generations",
                "1",
                "--bench-opponents",
                engine,
                "--gate",
                "0.75",
                "--no-plots",
                "--out",
                out,
            ],
        ];
        for args in commands {
            let line = bad_input(args);
            assert!(line.contains(&format!("'{engine}'")), "{args:?}: {line}");
            assert!(line.contains(problem), "{args:?}: {line}");
            assert!(!run.exists(), "{args:?} wrote its run");
        }
    }
}

/// `accuracy` gives a GTP engine each position by replaying its game from the start, so
/// over GTP and over NBoard the same search measures the same.
#[test]
fn accuracy_measures_an_engine_alike_over_gtp_and_nboard() {
    let measure = |player: &str| {
        let output = evoboard(&[
            "accuracy",
            "--game",
            "othello",
            "--player",
            player,
            "--positions",
            "6",
            "--max-empties",
            "10",
            "--plies",
            "50..56",
            "--no-cache",
            "--json",
        ]);
        assert!(output.status.success(), "{output:?}");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let player = &report["players"][0];
        assert_eq!(player["forfeited"], 0, "{report}");
        (player["optimal"].clone(), player["mean_loss"].clone())
    };
    let in_process = measure("heuristic:3~600");
    assert_eq!(measure(&evoboard_engine("gtp", "heuristic:3")), in_process);
    assert_eq!(
        measure(&evoboard_engine("nboard", "heuristic:3")),
        in_process
    );
    assert_ne!(
        measure("first"),
        in_process,
        "the sample tells the players apart"
    );
}

#[test]
fn an_engine_answering_garbage_or_an_illegal_move_forfeits() {
    every_game_forfeited(
        &scripted_engine("echo === garbage/0/0"),
        "answered '=== garbage/0/0' to go: not a move",
    );
    // No corner is ever open a few plies from the start.
    every_game_forfeited(
        &scripted_engine("echo === A1"),
        "played a1, an illegal move in position",
    );
    let noise = "printf %0100000d 0; echo";
    every_game_forfeited(&scripted_engine(noise), "sent a line too long to read");
}

/// An engine that sleeps through its move time forfeits, and its process is killed with
/// what it started (no `sleep` outlives the benchmark).
#[test]
fn an_engine_past_its_time_forfeits_and_is_killed() {
    let marker = format!("12{}.5", std::process::id());
    let engine = format!("{}~0.2", scripted_engine(&format!("sleep {marker}")));
    every_game_forfeited(&engine, "did not answer go within 1.2 s");
    assert_no_sleep_lives_on(&marker);
}

#[test]
fn bad_engine_specs_are_refused() {
    let refused = |game: &str, spec: &str, reason: &str| {
        let line = bad_input(&[
            "benchmark",
            "--game",
            game,
            "--player",
            spec,
            "--opponent",
            "random",
        ]);
        assert!(line.contains(reason), "{spec}: {line}");
    };
    refused("othello", "nboard:", "needs a command to run");
    refused("othello", "gtp:  ", "needs a command to run");
    refused(
        "othello",
        "nboard:sh -c 'exit",
        "a quote (') in the command is not closed",
    );
    refused(
        "othello",
        "nboard:engine a,b",
        "the command may not contain ','",
    );
    refused(
        "othello",
        "nboard:engine~0",
        "the ~SECONDS suffix must be a number",
    );
    refused(
        "othello",
        "nboard:engine@2",
        "the @EPS suffix must lie in [0, 1]",
    );
    refused(
        "kalah",
        "nboard:engine",
        "external engines play Othello only",
    );
    refused("oware", "gtp:engine", "external engines play Othello only");
    let line = bad_input(&[
        "play",
        "--game",
        "othello",
        "--first",
        "human",
        "--second",
        "nboard:engine",
    ]);
    assert!(
        line.contains("external engines play in benchmark"),
        "{line}"
    );
    for protocol in ["nboard", "gtp"] {
        let line = bad_input(&[protocol, "--player", "gtp:engine"]);
        assert!(
            line.contains("an external engine is played as it is"),
            "{line}"
        );
    }
}

/// Whether a process `sleep MARKER` is alive.
fn sleeping(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        cmdline == format!("sleep\0{marker}\0").as_bytes()
    })
}

/// Waits up to 10 s for every `sleep MARKER` to end.
fn assert_no_sleep_lives_on(marker: &str) {
    let clock = Instant::now();
    while sleeping(marker) {
        assert!(
            clock.elapsed() < Duration::from_secs(10),
            "a process the engine started lives on"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An engine that dies in a game leaves nothing running: what it started in its process
/// group is killed with it (the engine is not reaped before its group is killed).
#[test]
fn what_a_dying_engine_started_dies_with_it() {
    let marker = format!("13{}.5", std::process::id());
    let engine = format!(
        "nboard:sh -c 'sleep {marker} >/dev/null & while read c a; do case $c in ping) echo pong $a;; go) exit 3;; esac; done'"
    );
    every_game_forfeited(&engine, "ended (exit status: 3)");
    assert_no_sleep_lives_on(&marker);
}

/// SIGTERM or Ctrl-C (SIGINT) to evoboard kills the engines it started, with what they
/// started, though they run in process groups of their own that the signal never reaches;
/// evoboard then ends with status 128 + the signal.
#[test]
fn a_signal_to_evoboard_ends_its_engines_too() {
    use std::process::{Command, Stdio};
    for (signal, status) in [(libc::SIGTERM, 143), (libc::SIGINT, 130)] {
        let marker = format!("14{}{signal}.5", std::process::id());
        let engine = format!("{}~60", scripted_engine(&format!("sleep {marker}")));
        let mut child = Command::new(env!("CARGO_BIN_EXE_evoboard"))
            .args(["benchmark", "--game", "othello", "--player", &engine])
            .args(["--opponent", "random", "--games", "2"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let clock = Instant::now();
        while !sleeping(&marker) {
            assert!(
                clock.elapsed() < Duration::from_secs(20),
                "the engine never moved"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        unsafe { libc::kill(pid, signal) };
        let ended = child.wait().unwrap();
        assert_eq!(ended.code(), Some(status), "{ended:?}");
        assert_no_sleep_lives_on(&marker);
    }
}

/// GTP's `time_settings` with times no clock holds (1e300, inf, 10^20 seconds) is taken
/// as the longest think time, not a panic.
#[test]
fn gtp_time_settings_beyond_any_clock_are_the_longest_think_time() {
    for time in ["1e300", "inf", "99999999999999999999"] {
        let script = format!("1 boardsize 8\n2 time_settings 0 {time} 1\n3 genmove b\n4 quit\n");
        let output = common::evoboard_with_input(
            &["gtp", "--player", "heuristic:1", "--move-time", "1"],
            &script,
        );
        assert!(output.status.success(), "{time}: {output:?}");
        let text = String::from_utf8(output.stdout).unwrap();
        let answers: Vec<&str> = text.split_terminator("\n\n").collect();
        assert_eq!(&answers[..2], ["=1", "=2"], "{time}: {text:?}");
        assert!(answers[2].starts_with("=3 "), "{time}: {text:?}");
    }
}

/// A GTP sparring partner in TD learning is given each game from its start, so it answers
/// every move as the same search over NBoard does: the runs are identical.
#[test]
fn a_gtp_sparring_partner_plays_every_move_of_its_learning_games() {
    let run = |protocol: &str| {
        let dir = temp_dir(&format!("td-sparring-{protocol}"));
        let output = evoboard(&[
            "evolve",
            "--game",
            "othello",
            "--preset",
            "td",
            "--generations",
            "1",
            "--td-games",
            "32",
            "--selection-games",
            "2",
            "--bench-games",
            "2",
            "--candidates",
            "1",
            "--sparring",
            &evoboard_engine(protocol, "heuristic:1"),
            "--sparring-share",
            "1",
            "--no-plots",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{protocol}: {output:?}");
        let stats = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
        let timeless: Vec<String> = stats
            .lines()
            .map(|line| line.rsplit_once(',').unwrap().0.to_string())
            .collect();
        let champion = std::fs::read(dir.join("champion.evo")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        (timeless, champion)
    };
    assert_eq!(run("gtp"), run("nboard"));
}
