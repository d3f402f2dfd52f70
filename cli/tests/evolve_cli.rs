//! `evoboard evolve` end to end: a run killed with SIGKILL and resumed ends exactly like an
//! uninterrupted one; damaged checkpoints and champions give one clear error and exit 2.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{bad_input, error_line, evoboard, temp_dir};
use evoboard::Othello;
use evoboard::champion::Champion;
use evoboard::nn::ntuple::GlobalFeature;
use evoboard::nn::{Architecture, Topology, TupleSpec};
use std::time::{Duration, Instant};

const RUN: [&str; 15] = [
    "evolve",
    "--no-plots",
    "--game",
    "othello",
    "--population",
    "12",
    "--depth",
    "1",
    "--bench-games",
    "20",
    "--seed",
    "5",
    "--preset",
    "modern",
    "--threads",
];

fn run_args<'a>(dir: &'a str, generations: &'a str) -> Vec<&'a str> {
    let mut args = RUN.to_vec();
    args.extend(["2", "--generations", generations, "--out", dir]);
    args
}

/// stats.csv without its timing column, the last checkpoint and the champion.
fn outputs(dir: &Path, last: u32) -> (String, Vec<u8>, Vec<u8>) {
    let csv = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().map(|l| l.rsplit_once(',').unwrap().0).collect();
    (
        rows.join("\n"),
        std::fs::read(dir.join(format!("gen-{last:05}.evo"))).unwrap(),
        std::fs::read(dir.join("champion.evo")).unwrap(),
    )
}

/// The checkpoint files in a run directory, in order.
fn checkpoint_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("gen-"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_killed_run_resumes_to_exactly_the_uninterrupted_result() {
    let generations = 40;
    let whole = temp_dir("whole");
    let whole_str = whole.to_str().unwrap();
    let output = evoboard(&run_args(whole_str, &generations.to_string()));
    assert!(output.status.success(), "{output:?}");
    let expected = outputs(&whole, generations);

    let killed = temp_dir("killed");
    let killed_str = killed.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .current_dir(std::env::temp_dir())
        .args(run_args(killed_str, &generations.to_string()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a few generations are on disk (mid-way through a later one).
    let deadline = Instant::now() + Duration::from_secs(120);
    while !killed.join("gen-00003.evo").exists() {
        assert!(Instant::now() < deadline, "no checkpoint appeared");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    let done = std::fs::read_dir(&killed)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("gen-")
        })
        .count();
    assert!(
        done < generations as usize,
        "the run finished before it could be killed"
    );

    let resumed = evoboard(&[
        "evolve",
        "--preset",
        "modern",
        "--no-plots",
        "--game",
        "othello",
        "--out",
        killed_str,
        "--resume",
    ]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(outputs(&killed, generations), expected);

    // Resuming a finished run changes nothing.
    let again = evoboard(&[
        "evolve",
        "--preset",
        "modern",
        "--no-plots",
        "--game",
        "othello",
        "--out",
        killed_str,
        "--resume",
    ]);
    assert!(again.status.success());
    assert_eq!(outputs(&killed, generations), expected);
    for dir in [whole, killed] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn damaged_files_and_misuse_are_clear_errors() {
    let dir = temp_dir("damage");
    let dir_str = dir.to_str().unwrap();
    assert!(evoboard(&run_args(dir_str, "2")).status.success());

    // Starting over in the same directory would destroy the run.
    let line = error_line(&evoboard(&run_args(dir_str, "2")));
    assert!(line.contains("already holds a run"), "{line}");
    // Settings of a run cannot change on resume.
    let line = error_line(&evoboard(&[
        "evolve",
        "--preset",
        "modern",
        "--no-plots",
        "--game",
        "othello",
        "--out",
        dir_str,
        "--resume",
        "--population",
        "30",
    ]));
    assert!(line.contains("but --population would change"), "{line}");
    // Repeating a setting the run already has is fine.
    let same = evoboard(&[
        "evolve",
        "--preset",
        "modern",
        "--no-plots",
        "--game",
        "othello",
        "--out",
        dir_str,
        "--resume",
        "--population",
        "12",
    ]);
    assert!(same.status.success(), "{same:?}");
    // Nothing to resume.
    let missing = temp_dir("missing");
    let line = error_line(&evoboard(&[
        "evolve",
        "--preset",
        "modern",
        "--no-plots",
        "--game",
        "othello",
        "--out",
        missing.to_str().unwrap(),
        "--resume",
    ]));
    assert!(line.contains("holds no evoboard run"), "{line}");

    let checkpoint = dir.join("gen-00002.evo");
    let original = std::fs::read(&checkpoint).unwrap();
    let resume = || {
        evoboard(&[
            "evolve",
            "--preset",
            "modern",
            "--no-plots",
            "--game",
            "othello",
            "--out",
            dir_str,
            "--resume",
            "--generations",
            "3",
        ])
    };
    std::fs::write(&checkpoint, &original[..original.len() / 2]).unwrap();
    assert!(error_line(&resume()).contains("truncated"));
    let mut flipped = original.clone();
    flipped[original.len() / 2] ^= 1;
    std::fs::write(&checkpoint, &flipped).unwrap();
    assert!(error_line(&resume()).contains("corrupt"));
    let mut newer = original.clone();
    newer[8] = 99;
    std::fs::write(&checkpoint, &newer).unwrap();
    assert!(error_line(&resume()).contains("newer"));
    std::fs::write(&checkpoint, &original).unwrap();
    assert!(resume().status.success());

    // The champion as an agent, intact and damaged.
    let champion = dir.join("champion.evo");
    let spec = format!("champion:{}", champion.display());
    let bench = |spec: &str| {
        evoboard(&[
            "benchmark",
            "--game",
            "othello",
            "--player",
            spec,
            "--opponent",
            "random",
            "--games",
            "4",
        ])
    };
    assert!(bench(&spec).status.success());
    assert!(bench(&format!("{spec}:1")).status.success());
    let bytes = std::fs::read(&champion).unwrap();
    std::fs::write(&champion, &bytes[..10]).unwrap();
    assert!(error_line(&bench(&spec)).contains("truncated"));
    std::fs::write(&champion, std::fs::read(&checkpoint).unwrap()).unwrap();
    assert!(error_line(&bench(&spec)).contains("checkpoint file"));
    assert!(error_line(&bench("champion:/nonexistent/champion.evo")).contains("cannot read"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn resume_leaves_exactly_the_files_of_an_uninterrupted_run() {
    let dir = temp_dir("converge");
    let plots = temp_dir("converge-plots");
    let (out, plot_dir) = (dir.to_str().unwrap(), plots.to_str().unwrap());
    // The standard small run, drawing its plots (and keeping 2 checkpoints, the default).
    let args = |generations: &'static str| -> Vec<&str> {
        let mut args = run_args(out, generations);
        args.retain(|a| *a != "--no-plots");
        args.extend(["--plots", plot_dir]);
        args
    };
    assert!(evoboard(&args("3")).status.success());
    // What a kill leaves: an old checkpoint not yet removed, a half-drawn plot.
    std::fs::copy(dir.join("gen-00003.evo"), dir.join("gen-00001.evo")).unwrap();
    std::fs::write(plots.join(".fitness.tmp-4000000000.png"), b"half").unwrap();
    let resume = [args("4"), vec!["--resume"]].concat();
    assert!(evoboard(&resume).status.success());
    assert_eq!(checkpoint_names(&dir), ["gen-00003.evo", "gen-00004.evo"]);
    let leftovers = std::fs::read_dir(&plots)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".tmp-")
        })
        .count();
    assert_eq!(leftovers, 0);
    for d in [dir, plots] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn resume_may_change_how_many_checkpoints_are_kept() {
    let dir = temp_dir("keep-change");
    let out = dir.to_str().unwrap();
    let checkpoints = || checkpoint_names(&dir);
    let mut all = run_args(out, "3");
    all.extend(["--keep-checkpoints", "all"]);
    assert!(evoboard(&all).status.success());
    assert_eq!(checkpoints().len(), 3);
    let mut fewer = run_args(out, "4");
    fewer.extend(["--resume", "--keep-checkpoints", "1"]);
    assert!(evoboard(&fewer).status.success());
    assert_eq!(checkpoints(), ["gen-00004.evo"]);
    // The new count is the run's own now: a later resume keeps to it. A resume needs
    // neither --game nor the settings: run.json holds them.
    let later = [
        "evolve",
        "--no-plots",
        "--out",
        out,
        "--resume",
        "--generations",
        "5",
    ];
    assert!(evoboard(&later).status.success());
    assert_eq!(checkpoints(), ["gen-00005.evo"]);
    let mut zero = run_args(out, "5");
    zero.extend(["--resume", "--keep-checkpoints", "0"]);
    assert!(
        error_line(&evoboard(&zero))
            .contains("--keep-checkpoints takes a whole number of at least 1, or all, not 0")
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn ctrl_c_says_how_to_resume() {
    let dir = temp_dir("interrupted");
    let out = dir.to_str().unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .env_remove("CARGO")
        .args(run_args(out, "1000"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !dir.join("gen-00001.evo").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no generation ended"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: signals a child this test started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Started by path (not by cargo), the hint names the program by that path.
    assert!(
        stderr.contains(&format!(
            "interrupted: continue with `{} evolve --out {out} --resume`",
            env!("CARGO_BIN_EXE_evoboard")
        )),
        "{stderr}"
    );
    // gen-NNNNN.evo: the newest checkpoint's generation.
    let names = checkpoint_names(&dir);
    let latest: u32 = names.last().unwrap()[4..9].parse().unwrap();
    let budget = (latest + 1).to_string();
    let resumed = evoboard(&[run_args(out, &budget), vec!["--resume"]].concat());
    assert!(resumed.status.success(), "{resumed:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_run_that_cannot_start_leaves_no_directory_behind() {
    let dir = temp_dir("never-started");
    let out = dir.to_str().unwrap();
    // A depth beyond 12 is refused: every game of the run would search that deep.
    let refused = evoboard(&["evolve", "--game", "kalah", "--depth", "13", "--out", out]);
    assert!(error_line(&refused).contains("--depth takes a whole number from 1 to 12, not 13"));
    assert!(!dir.exists(), "the run directory is removed again");
}

#[test]
fn the_td_presets_refuse_zero_learning_games_in_every_game_before_writing() {
    for game in ["othello", "kalah", "oware", "congklak", "congkak"] {
        for preset in ["td", "ctdl"] {
            let dir = temp_dir(&format!("no-td-games-{game}-{preset}"));
            let line = error_line(&evoboard(&[
                "evolve",
                "--game",
                game,
                "--preset",
                preset,
                "--td-games",
                "0",
                "--out",
                dir.to_str().unwrap(),
            ]));
            assert!(line.contains("--td-games must be at least 1"), "{line}");
            assert!(!dir.exists(), "{game}: nothing is written");
        }
    }
}

/// A small TD run of one generation in `dir`.
fn small_td_run(dir: &Path) -> std::process::Output {
    small_td_run_with(
        dir,
        &[
            "--bench-games",
            "2",
            "--selection-games",
            "2",
            "--depth",
            "1",
            "--generations",
            "1",
        ],
    )
}

/// A TD run of a small Othello network learning from 20 games a generation in `dir`,
/// with `settings`.
fn small_td_run_with(dir: &Path, settings: &[&str]) -> std::process::Output {
    let mut args = vec![
        "evolve",
        "--no-plots",
        "--game",
        "othello",
        "--network",
        "ntuple:straight2",
        "--td-games",
        "20",
        "--out",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(settings);
    evoboard(&args)
}

#[test]
fn a_self_play_run_reports_no_diversity_and_a_population_does() {
    let dir = std::env::temp_dir().join(format!("evoboard-series-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = small_td_run(&dir.join("td"));
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().find(|l| l.starts_with("gen ")).unwrap();
    assert!(
        line.contains("20 self-play games") && !line.contains("diversity"),
        "{line}"
    );
    let output = evoboard(&[
        "evolve",
        "--no-plots",
        "--game",
        "kalah",
        "--preset",
        "modern",
        "--population",
        "4",
        "--bench-games",
        "2",
        "--generations",
        "1",
        "--out",
        dir.join("modern").to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().find(|l| l.starts_with("gen ")).unwrap();
    assert!(
        line.contains("fitness max") && line.contains("| diversity "),
        "{line}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_recorded_with_zero_learning_games_is_refused_on_resume() {
    let dir = temp_dir("zero-td-resume");
    assert!(small_td_run(&dir).status.success());
    // What an earlier build wrote for `--td-games 0`.
    let json = std::fs::read_to_string(dir.join("run.json")).unwrap();
    let mut info: serde_json::Value = serde_json::from_str(&json).unwrap();
    info["config"]["td_games"] = 0.into();
    std::fs::write(dir.join("run.json"), info.to_string()).unwrap();
    let line = error_line(&evoboard(&[
        "evolve",
        "--no-plots",
        "--out",
        dir.to_str().unwrap(),
        "--resume",
        "--generations",
        "2",
    ]));
    assert!(line.contains("--td-games must be at least 1"), "{line}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Othello champions no game can play, with valid checksums, and what their refusal says.
fn crafted_teachers() -> Vec<(Champion, &'static str)> {
    let plain = |architecture: Architecture| Champion {
        genes: vec![0.0; architecture.genes()],
        architecture,
        depth: 1,
        preset: "td".into(),
        seed: 1,
        generation: 1,
        fitness: 0.0,
        benchmark_win_rate: None,
        test_win_rate: None,
    };
    let tuples = |tuples: Vec<Vec<u8>>, features: Vec<GlobalFeature>| {
        plain(Architecture::NTuple(TupleSpec {
            name: "crafted".into(),
            states: 3,
            tuples,
            features,
        }))
    };
    let discs = GlobalFeature {
        name: "discs".into(),
        size: 65,
    };
    let mut nan = tuples(vec![vec![0, 1]], vec![]);
    nan.genes[4] = f32::NAN;
    vec![
        (tuples(vec![vec![0, 200]], vec![]), "cell 200"),
        (tuples(vec![vec![]], vec![]), "0 cells"),
        (tuples(vec![vec![0, 1]; 2000], vec![]), "placements"),
        (tuples(vec![vec![0]], vec![discs; 9]), "9 global features"),
        (
            plain(Architecture::Mlp(Topology::new(&[10, 4, 1]).unwrap())),
            "10 inputs",
        ),
        (nan, "weight 4"),
    ]
}

#[test]
fn teachers_are_checked_against_the_game_like_every_champion() {
    let dir = temp_dir("teachers");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("run");
    let teach = |teacher: &Path| {
        evoboard(&[
            "evolve",
            "--no-plots",
            "--game",
            "othello",
            "--td-games",
            "10",
            "--teacher",
            teacher.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let teacher = dir.join("teacher.evo");
    for (champion, reason) in crafted_teachers() {
        champion.save(&teacher, "othello").unwrap();
        let line = error_line(&teach(&teacher));
        assert!(
            line.contains("cannot be played") && line.contains(reason),
            "{reason}: {line}"
        );
        assert!(!out.exists(), "{reason}: nothing is written");
        // The same file as an agent is refused alike.
        let spec = format!("champion:{}", teacher.display());
        let agent = evoboard(&[
            "benchmark",
            "--game",
            "othello",
            "--player",
            &spec,
            "--opponent",
            "random",
            "--games",
            "2",
        ]);
        assert!(error_line(&agent).contains(reason), "{reason}");
    }
    // A Kalah network, in a Kalah file or passed off as Othello's.
    let kalah = Champion {
        architecture: Architecture::Mlp(Topology::new(&[14, 9, 1]).unwrap()),
        genes: vec![0.0; 14 * 9 + 9 + 9 + 1],
        ..crafted_teachers().remove(0).0
    };
    kalah.save(&teacher, "kalah").unwrap();
    assert!(error_line(&teach(&teacher)).contains("holds a file of the game kalah, not othello"));
    kalah.save(&teacher, "othello").unwrap();
    assert!(error_line(&teach(&teacher)).contains("14 inputs"));
    assert!(!out.exists());
    // A sound teacher still teaches.
    let sound = Champion {
        architecture: Architecture::Mlp(Topology::new(&[64, 4, 1]).unwrap()),
        genes: vec![0.01; 64 * 4 + 4 + 4 + 1],
        ..kalah
    };
    sound.save(&teacher, "othello").unwrap();
    assert!(Champion::load_for(&teacher, &Othello::start()).is_ok());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn learning_that_diverges_ends_with_exit_1_naming_the_generation() {
    let dir = temp_dir("diverging-cli");
    let output = small_td_run_with(
        &dir,
        &[
            "--bench-games",
            "0",
            "--generations",
            "3",
            "--learning-rate-end",
            "3e38",
            "--decay-generations",
            "2",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr.trim_end().lines().last().unwrap();
    assert!(
        line.starts_with("error: generation 2 produced unusable weights")
            && !stderr.contains("panicked"),
        "{stderr}"
    );
    assert!(dir.join("gen-00001.evo").exists() && !dir.join("gen-00002.evo").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_new_run_needs_a_new_or_empty_directory() {
    let dir = temp_dir("occupied");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let line = error_line(&small_td_run(&dir));
    assert!(line.contains("not an empty directory"), "{line}");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["notes.txt"], "nothing is added to it");
    // A file is not a directory either.
    let line = error_line(&small_td_run(&dir.join("notes.txt")));
    assert!(line.contains("not an empty directory"), "{line}");
    // An empty directory will do.
    std::fs::remove_file(dir.join("notes.txt")).unwrap();
    assert!(small_td_run(&dir).status.success());
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--learn-symmetries` needs a board with symmetries and TD games: on Kalah, or with the
/// paper's evolution alone, it is refused by name before the run's directory is made.
#[test]
fn learning_symmetries_is_refused_where_the_board_has_none() {
    let out = temp_dir("symmetries").join("run");
    let line = bad_input(&[
        "evolve",
        "--game",
        "kalah",
        "--learn-symmetries",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        line.contains("--learn-symmetries") && line.contains("kalah"),
        "{line}"
    );
    assert!(!out.exists());
    // Without TD games there is nothing to learn them from.
    let line = bad_input(&[
        "evolve",
        "--game",
        "othello",
        "--preset",
        "paper",
        "--learn-symmetries",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(line.contains("--td-games"), "{line}");
    assert!(!out.exists());
}

/// Every file in `dir` with its bytes, by name.
fn directory_contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// A finished run without checkpoints (the shipped runs, or a copy of one) cannot be
/// continued: resuming it is refused, and none of its files changes (no lock file either).
#[test]
fn resuming_a_run_without_checkpoints_changes_nothing() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../populations/kalah");
    let dir = temp_dir("resume-shipped");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["run.json", "stats.csv", "champion.evo"] {
        std::fs::copy(shipped.join(name), dir.join(name)).unwrap();
    }
    let before = directory_contents(&dir);
    let path = dir.to_str().unwrap();
    let err = bad_input(&[
        "evolve",
        "--out",
        path,
        "--resume",
        "--generations",
        "1",
        "--no-plots",
    ]);
    assert!(
        err.contains("generations in stats.csv but has no checkpoint"),
        "{err}"
    );
    // With the budget it had, too, and with only the champion left.
    bad_input(&["evolve", "--out", path, "--resume", "--no-plots"]);
    assert_eq!(directory_contents(&dir), before);
    std::fs::remove_file(dir.join("stats.csv")).unwrap();
    let err = bad_input(&["evolve", "--out", path, "--resume", "--no-plots"]);
    assert!(err.contains("records a champion.evo"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
