//! `tournament --journal`: a stopped tournament goes on from its journal and ends with the
//! tables it would have had unstopped; a journal of another tournament, a file that is no
//! journal, or a game altered in it is refused, and the file is left as it was.
//! (The table is compared as CSV, which holds no think times.)

mod common;

use std::path::Path;
#[cfg(unix)]
use std::time::{Duration, Instant};

use common::{bad_input, evoboard, temp_dir};

/// A quick tournament of `seed` whose per-agent table goes to `csv`.
fn tournament(seed: &str, csv: &Path, journal: Option<&Path>) -> Vec<String> {
    tournament_of("6", seed, csv, journal)
}

/// [`tournament`] of `games` a pair.
fn tournament_of(games: &str, seed: &str, csv: &Path, journal: Option<&Path>) -> Vec<String> {
    let mut args: Vec<String> = [
        "tournament",
        "--game",
        "othello",
        "--agents",
        "heuristic:1,heuristic:2,random",
        "--games",
        games,
        "--seed",
        seed,
        "--ratings",
        "--csv",
        csv.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    if let Some(journal) = journal {
        args.extend([
            "--journal".to_string(),
            journal.to_str().unwrap().to_string(),
        ]);
    }
    args
}

/// The per-agent table (it holds no think times, which do not reproduce).
fn table(csv: &Path) -> String {
    std::fs::read_to_string(csv).unwrap()
}

fn run(args: &[String]) -> std::process::Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    evoboard(&args)
}

/// Runs a tournament that must go on from `kept` games of its journal, and succeed.
fn resume(args: &[String], kept: usize) {
    let resumed = run(args);
    assert!(resumed.status.success(), "{resumed:?}");
    assert!(
        String::from_utf8_lossy(&resumed.stderr).contains(&format!("{kept} games kept, going on")),
        "{resumed:?}"
    );
}

fn refused(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    bad_input(&args)
}

#[test]
fn a_journal_cut_anywhere_resumes_to_the_tables_of_a_tournament_never_stopped() {
    let dir = temp_dir("journal-resume");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("table.csv");
    assert!(run(&tournament("5", &csv, None)).status.success());
    let unstopped = table(&csv);
    let journal = dir.join("games.jsonl");
    let whole = run(&tournament("5", &csv, Some(&journal)));
    assert!(whole.status.success(), "{whole:?}");
    assert_eq!(table(&csv), unstopped);
    let bytes = std::fs::read(&journal).unwrap();
    let lines = bytes.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(lines, 1 + 3 * 6, "the header and a line per game");
    // Cut after a few whole games, and again in the middle of a line (a stop while it
    // was written): both go on to the same tables and the whole journal.
    let fourth_line = bytes
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(3)
        .unwrap()
        .0;
    for cut in [fourth_line + 1, fourth_line + 40] {
        std::fs::write(&journal, &bytes[..cut]).unwrap();
        resume(&tournament("5", &csv, Some(&journal)), 3);
        assert_eq!(table(&csv), unstopped);
        let again = std::fs::read(&journal).unwrap();
        assert_eq!(again.iter().filter(|&&b| b == b'\n').count(), lines);
        assert_eq!(again[..fourth_line], bytes[..fourth_line]);
    }
    // A finished journal plays nothing more and changes nothing.
    let before = std::fs::read(&journal).unwrap();
    assert!(run(&tournament("5", &csv, Some(&journal))).status.success());
    assert_eq!(std::fs::read(&journal).unwrap(), before);
    assert_eq!(table(&csv), unstopped);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_journal_grows_to_more_games_a_pair_without_playing_its_games_again() {
    let dir = temp_dir("journal-grows");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("table.csv");
    assert!(run(&tournament_of("10", "5", &csv, None)).status.success());
    let unstopped = table(&csv);
    let journal = dir.join("games.jsonl");
    assert!(run(&tournament("5", &csv, Some(&journal))).status.success());
    let six = std::fs::read_to_string(&journal).unwrap();
    resume(&tournament_of("10", "5", &csv, Some(&journal)), 18);
    // The games of six a pair are kept as they were, then the new count, then the games
    // it adds; the tables are those of ten games a pair played at once.
    assert_eq!(table(&csv), unstopped);
    let ten = std::fs::read_to_string(&journal).unwrap();
    assert!(ten.starts_with(&six));
    let added: Vec<&str> = ten[six.len()..].lines().collect();
    assert_eq!(added.len(), 1 + 3 * 4, "{ten}");
    assert!(added[0].contains("\"games_per_pair\":10"), "{}", added[0]);
    // Once grown, it resumes at its new count and nothing less.
    assert!(
        run(&tournament_of("10", "5", &csv, Some(&journal)))
            .status
            .success()
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), ten);
    let fewer = refused(&tournament("5", &csv, Some(&journal)));
    assert!(
        fewer.ends_with("keeps a tournament of 10 games a pair, more than the 6 asked for: resume it with 10 or more"),
        "{fewer}"
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), ten);
    // A header line of another tournament within a journal is damage.
    let other = six
        .lines()
        .next()
        .unwrap()
        .replace("\"seed\":5", "\"seed\":6");
    let forged = dir.join("forged.jsonl");
    std::fs::write(&forged, format!("{six}{other}\n")).unwrap();
    let error = refused(&tournament_of("10", "5", &csv, Some(&forged)));
    assert!(
        error.ends_with("damaged at line 20: a header of another tournament"),
        "{error}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_journal_of_anything_else_is_refused_and_left_as_it_was() {
    let dir = temp_dir("journal-refused");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("table.csv");
    let journal = dir.join("games.jsonl");
    assert!(run(&tournament("5", &csv, Some(&journal))).status.success());
    let kept = std::fs::read_to_string(&journal).unwrap();

    let other = refused(&tournament("6", &csv, Some(&journal)));
    assert!(
        other.contains("keeps another tournament (the seed differ)"),
        "{other}"
    );

    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let not_one = refused(&tournament("5", &csv, Some(&notes)));
    assert!(not_one.contains("is not a tournament journal"), "{not_one}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");

    let altered_within = |from: &str, to: &str, line: usize, games: usize| {
        let mut lines: Vec<String> = kept
            .lines()
            .take(games.saturating_add(1))
            .map(String::from)
            .collect();
        assert!(lines[line].contains(from), "{}", lines[line]);
        lines[line] = lines[line].replacen(from, to, 1);
        let path = dir.join("altered.jsonl");
        let text = lines.join("\n") + "\n";
        std::fs::write(&path, &text).unwrap();
        let error = refused(&tournament("5", &csv, Some(&path)));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        error
    };
    let altered = |from: &str, to: &str, line: usize| altered_within(from, to, line, usize::MAX);
    // A forged result: the score the moves give is checked.
    let score = kept.lines().nth(1).unwrap();
    let at = score.find("\"score\":[").unwrap() + "\"score\":[".len();
    let digit = &score[at..at + 1];
    let forged = if digit == "9" { "8" } else { "9" };
    let error = altered(
        &format!("\"score\":[{digit}"),
        &format!("\"score\":[{forged}"),
        1,
    );
    assert!(error.contains("damaged at line 2: its score is"), "{error}");
    // A game moved to another index did not start from that game's opening.
    let error = altered_within("\"game\":0", "\"game\":2", 1, 1);
    assert!(
        error.contains("keeps game 2 of heuristic:1 vs heuristic:2, which did not start"),
        "{error}"
    );
    let error = altered("\"pair\":[0,1]", "\"pair\":[1,1]", 1);
    assert!(
        error.contains("no pair of the 3 agents is [1, 1]"),
        "{error}"
    );
    let error = altered("\"game\":1", "\"game\":0", 2);
    assert!(error.contains("is kept twice"), "{error}");
    let error = altered("\"moves\":[\"", "\"moves\":[\"a1\",\"", 3);
    assert!(error.contains("damaged at line 4"), "{error}");

    let directory = refused(&tournament("5", &csv, Some(&dir)));
    assert!(directory.contains("not a regular file"), "{directory}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_games_played_and_the_same_command_goes_on() {
    let dir = temp_dir("journal-interrupted");
    std::fs::create_dir_all(&dir).unwrap();
    let journal = dir.join("games.jsonl");
    let csv = dir.join("table.csv");
    // Clocked players at 20 ms a move: a few seconds of games, stopped within them.
    let args = [
        "tournament",
        "--game",
        "othello",
        "--agents",
        "heuristic:30~0.02,heuristic:1",
        "--games",
        "8",
        "--threads",
        "1",
        "--csv",
        csv.to_str().unwrap(),
        "--journal",
        journal.to_str().unwrap(),
    ];
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let games = |path: &Path| {
        std::fs::read(path)
            .map_or(0, |bytes| bytes.iter().filter(|&&b| b == b'\n').count())
            .saturating_sub(1)
    };
    while games(&journal) < 1 {
        assert!(started.elapsed() < Duration::from_secs(60), "no game ended");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: signals a child this test started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("games kept in"), "{stderr}");
    assert!(stderr.contains("run the same command to go on"), "{stderr}");
    let stopped_at = games(&journal);
    assert!((1..8).contains(&stopped_at), "{stopped_at} games kept");
    assert!(!csv.exists(), "no table from a stopped tournament");
    let resumed = evoboard(&args);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(games(&journal), 8);
    assert!(
        std::fs::read_to_string(&csv)
            .unwrap()
            .contains("\"heuristic:1\",8,")
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every game's records read back and check (relay sowing, joint moves, captures, extra
/// turns): a journal cut after three games resumes to the same table.
#[test]
fn every_game_s_records_resume_from_a_journal() {
    let dir = temp_dir("journal-games");
    std::fs::create_dir_all(&dir).unwrap();
    for game in ["kalah", "oware", "congklak", "congkak"] {
        let (whole, resumed) = (
            dir.join(format!("{game}-1.csv")),
            dir.join(format!("{game}-2.csv")),
        );
        let journal = dir.join(format!("{game}.jsonl"));
        let args = |csv: &Path| {
            vec![
                "tournament".to_string(),
                "--game".into(),
                game.into(),
                "--agents".into(),
                "heuristic:1,random".into(),
                "--games".into(),
                "6".into(),
                "--csv".into(),
                csv.to_str().unwrap().into(),
                "--journal".into(),
                journal.to_str().unwrap().into(),
            ]
        };
        assert!(run(&args(&whole)).status.success(), "{game}");
        let kept: String = std::fs::read_to_string(&journal)
            .unwrap()
            .lines()
            .take(4)
            .map(|line| format!("{line}\n"))
            .collect();
        std::fs::write(&journal, kept).unwrap();
        let output = run(&args(&resumed));
        assert!(output.status.success(), "{game}: {output:?}");
        assert_eq!(table(&resumed), table(&whole), "{game}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
