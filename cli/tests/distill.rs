//! `evoboard distill`: a small fit that writes a champion others can play and start
//! from, the same files from the same seed on any thread count, a killed fit resumed to
//! exactly the files of one never stopped, a plan's fit the same as the command's, and bad
//! input.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{SHIPPED_OTHELLO_CHAMPION, bad_input, evoboard, stdout_of, temp_dir};
use evoboard::learn::distill::SETTINGS;
use evoboard::learn::distill::settings::Kind;

/// What every fit of these tests shares: 3,000 positions of the shipped champion's games,
/// minibatches of 64.
fn small_fit<'a>(epochs: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "distill",
        "--game",
        "othello",
        "--teacher",
        SHIPPED_OTHELLO_CHAMPION,
        "--positions",
        "3000",
        "--validation-positions",
        "500",
        "--epochs",
        epochs,
        "--minibatch",
        "64",
        "--out",
        out,
    ]
}

/// A fit small enough for a test: 4 epochs.
fn distill(out: &str, extra: &[&str]) -> std::process::Output {
    let mut args = small_fit("4", out);
    args.extend_from_slice(&[
        "--learning-rate",
        "0.01",
        "--learning-rate-end",
        "0.003",
        "--symmetries",
        "--seed",
        "5",
    ]);
    args.extend_from_slice(extra);
    evoboard(&args)
}

fn validation_losses(stats: &str) -> Vec<f64> {
    stats
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(3).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn a_fit_lowers_the_validation_loss_and_its_champion_plays() {
    let dir = temp_dir("distill-fit");
    let out = dir.join("one");
    let output = distill(out.to_str().unwrap(), &["--threads", "1"]);
    assert!(output.status.success(), "{output:?}");
    let stats = std::fs::read_to_string(out.join("stats.csv")).unwrap();
    assert_eq!(
        stats.lines().next().unwrap(),
        "epoch,learning_rate,train_loss,validation_loss,seconds"
    );
    let losses = validation_losses(&stats);
    assert_eq!(losses.len(), 5, "{stats}");
    let best = losses[1..].iter().copied().fold(f64::INFINITY, f64::min);
    assert!(best < losses[0] * 0.8, "{stats}");

    let champion = out.join("champion.evo");
    let spec = format!("champion:{}:2", champion.display());
    let played = stdout_of(&[
        "benchmark",
        "--game",
        "othello",
        "--player",
        &spec,
        "--opponent",
        "random",
        "--games",
        "4",
    ]);
    assert!(played.contains("4 games"), "{played}");

    // The same seed on two threads writes the same champion.
    let two = dir.join("two");
    let output = distill(two.to_str().unwrap(), &["--threads", "2"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        std::fs::read(&champion).unwrap(),
        std::fs::read(two.join("champion.evo")).unwrap()
    );

    // A fit may start from a champion of the student's shape, not from another network.
    let resumed = dir.join("resumed");
    let output = distill(
        resumed.to_str().unwrap(),
        &["--start-from", champion.to_str().unwrap()],
    );
    assert!(output.status.success(), "{output:?}");
    let first = validation_losses(&std::fs::read_to_string(resumed.join("stats.csv")).unwrap())[0];
    assert!(
        first < losses[0],
        "started at {first}, fresh at {}",
        losses[0]
    );
    let refused = distill(
        dir.join("refused").to_str().unwrap(),
        &["--start-from", SHIPPED_OTHELLO_CHAMPION],
    );
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("not the student's"),
        "{refused:?}"
    );

    // An existing fit is never overwritten.
    let again = distill(out.to_str().unwrap(), &[]);
    assert_eq!(again.status.code(), Some(2), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("already holds a fit"));
    // Its settings are recorded, and a finished fit resumed is left as it was.
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("distill.json")).unwrap()).unwrap();
    assert_eq!(record["game"], "othello");
    assert_eq!(record["settings"]["positions"], 3000);
    assert_eq!(record["settings"]["seed"], 5);
    let before = std::fs::read(&champion).unwrap();
    let resumed = evoboard(&["distill", "--resume", "--out", out.to_str().unwrap()]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(std::fs::read(&champion).unwrap(), before);
    assert_eq!(
        validation_losses(&std::fs::read_to_string(out.join("stats.csv")).unwrap()),
        losses
    );
}

/// A fit long enough to be killed part-way: 60 epochs.
fn long_fit(out: &str) -> Vec<String> {
    let mut args = small_fit("60", out);
    args.extend_from_slice(&["--seed", "3", "--threads", "1"]);
    args.iter().map(|a| a.to_string()).collect()
}

/// `stats.csv` without its last column, the seconds.
fn timeless_stats(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("stats.csv"))
        .unwrap()
        .lines()
        .map(|line| line.rsplit_once(',').unwrap().0.to_string())
        .collect()
}

#[test]
fn a_killed_fit_resumes_to_exactly_the_files_of_one_never_stopped() {
    let dir = temp_dir("distill-killed");
    let whole = dir.join("whole");
    let output = evoboard(
        &long_fit(whole.to_str().unwrap())
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(output.status.success(), "{output:?}");

    let killed = dir.join("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .current_dir(std::env::temp_dir())
        .args(long_fit(killed.to_str().unwrap()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !killed.join("fit-state.evo").exists() {
        assert!(Instant::now() < deadline, "no state appeared");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    let rows = timeless_stats(&killed).len();
    assert!(rows < 61, "the fit finished before it could be killed");

    let resumed = evoboard(&["distill", "--resume", "--out", killed.to_str().unwrap()]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert!(
        String::from_utf8_lossy(&resumed.stderr).contains("resuming after epoch"),
        "{resumed:?}"
    );
    assert_eq!(timeless_stats(&killed), timeless_stats(&whole));
    for file in ["champion.evo", "fit-state.evo", "distill.json"] {
        assert!(
            std::fs::read(killed.join(file)).unwrap() == std::fs::read(whole.join(file)).unwrap(),
            "{file} differs"
        );
    }

    // A resume takes the recorded settings, and only those.
    let other = evoboard(&[
        "distill",
        "--resume",
        "--epochs",
        "70",
        "--out",
        killed.to_str().unwrap(),
    ]);
    assert_eq!(other.status.code(), Some(2), "{other:?}");
    assert!(String::from_utf8_lossy(&other.stderr).contains("--epochs: --resume continues"));
    let nothing = bad_input(&[
        "distill",
        "--resume",
        "--out",
        dir.join("none").to_str().unwrap(),
    ]);
    assert!(nothing.contains("no fit to resume"), "{nothing}");
}

#[test]
fn a_plans_fit_is_the_commands_fit_byte_for_byte() {
    let dir = temp_dir("distill-plan");
    std::fs::create_dir_all(&dir).unwrap();
    let command = dir.join("command");
    let output = distill(command.to_str().unwrap(), &[]);
    assert!(output.status.success(), "{output:?}");

    // The same settings (the command's seed 5 as the plan's seed), by their plan names.
    let plan = dir.join("fits.toml");
    std::fs::write(
        &plan,
        format!(
            "game = \"othello\"\nkind = \"distill\"\nseeds = [5]\n\
             [base]\nteacher = \"{SHIPPED_OTHELLO_CHAMPION}\"\npositions = 3000\n\
             validation_positions = 500\nepochs = 4\nminibatch = 64\nlearning_rate = 0.01\n\
             learning_rate_end = 0.003\nsymmetries = true\n\
             [variants.small]\n\
             [[evaluation.benchmark]]\nopponent = \"random\"\ndepth = 1\ngames = 4\nseed = 4242\n"
        ),
    )
    .unwrap();
    let results = dir.join("results");
    let output = evoboard(&[
        "experiment",
        plan.to_str().unwrap(),
        "--out",
        results.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    let run = results.join("runs/small/seed-5");
    assert!(
        std::fs::read(run.join("champion.evo")).unwrap()
            == std::fs::read(command.join("champion.evo")).unwrap(),
        "the plan's champion differs from the command's"
    );
    assert_eq!(timeless_stats(&run), timeless_stats(&command));
    // The learning curve is the validation loss per epoch (epoch 0: the start's).
    let learning = std::fs::read_to_string(results.join("learning.csv")).unwrap();
    let mut lines = learning.lines();
    assert_eq!(
        lines.next(),
        Some("variant,epoch,runs,validation_loss,ci_low,ci_high")
    );
    assert_eq!(lines.count(), 5, "{learning}");
    assert!(results.join("learning.png").exists());
    let results_csv = std::fs::read_to_string(results.join("results.csv")).unwrap();
    assert!(
        results_csv.contains("small,5,vs random at depth 1,"),
        "{results_csv}"
    );

    // A plan whose fit settings are out of bounds is refused with the setting named.
    let bad = dir.join("bad.toml");
    let text = std::fs::read_to_string(&plan)
        .unwrap()
        .replace("epochs = 4", "epochs = 0");
    std::fs::write(&bad, text).unwrap();
    let refused = bad_input(&[
        "experiment",
        bad.to_str().unwrap(),
        "--out",
        dir.join("bad").to_str().unwrap(),
    ]);
    assert!(
        refused.contains("variants.small: epochs: 0 is not a whole number from 1 to 10000"),
        "{refused}"
    );
}

#[test]
fn search_leaves_fit_the_differences_a_depth_2_player_compares() {
    let dir = temp_dir("distill-leaves");
    let plain = dir.join("plain");
    assert!(distill(plain.to_str().unwrap(), &[]).status.success());
    let leaves = dir.join("leaves");
    let output = distill(leaves.to_str().unwrap(), &["--search-leaves"]);
    assert!(output.status.success(), "{output:?}");
    // Whole groups of leaves: at least the positions asked for, and an error of the
    // differences only, below the same fresh student's error of the values.
    let sampled = String::from_utf8_lossy(&output.stderr);
    let count: usize = sampled
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{sampled}"));
    assert!((3000..3000 + 2000).contains(&count), "{sampled}");
    let fresh = |dir: &std::path::Path| {
        validation_losses(&std::fs::read_to_string(dir.join("stats.csv")).unwrap())[0]
    };
    assert!(
        fresh(&leaves) < fresh(&plain),
        "{} {}",
        fresh(&leaves),
        fresh(&plain)
    );
    let losses = validation_losses(&std::fs::read_to_string(leaves.join("stats.csv")).unwrap());
    let best = losses[1..].iter().copied().fold(f64::INFINITY, f64::min);
    assert!(best < losses[0], "{losses:?}");
}

#[test]
fn bad_flags_are_refused_with_one_error_line() {
    let dir = temp_dir("distill-bad");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let base = [
        "distill",
        "--game",
        "othello",
        "--teacher",
        SHIPPED_OTHELLO_CHAMPION,
        "--out",
        out,
    ];
    let with = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        bad_input(&args)
    };
    assert!(with(&["--exploration", "1.5"]).contains("--exploration: 1.5 is not a probability"));
    assert!(with(&["--learning-rate", "0"]).contains("step size"));
    assert!(with(&["--positions", "0"]).contains("--positions"));
    assert!(with(&["--hidden", "500"]).contains("--hidden"));
    assert!(with(&["--opening-plies", "200"]).contains("--opening-plies: 256 sampling games"));
    let no_teacher = bad_input(&["distill", "--game", "othello", "--out", out]);
    assert!(no_teacher.contains("--teacher: required"), "{no_teacher}");
    let missing = bad_input(&[
        "distill",
        "--game",
        "othello",
        "--teacher",
        "no-such-champion.evo",
        "--out",
        out,
    ]);
    assert!(missing.contains("no-such-champion.evo"), "{missing}");
    assert!(!std::path::Path::new(out).exists());
}

/// Values one past a setting's bounds, as text.
fn one_past(kind: Kind) -> Vec<String> {
    match kind {
        Kind::Whole { min, max } => {
            let mut past = Vec::new();
            if max < u64::MAX {
                past.push((max + 1).to_string());
            }
            if min > 0 {
                past.push((min - 1).to_string());
            }
            past
        }
        Kind::Probability => vec!["1.5".into(), "-0.1".into()],
        Kind::StepSize => vec!["0".into(), "1.5".into()],
        Kind::Switch | Kind::File { .. } => Vec::new(),
    }
}

#[test]
fn every_setting_is_a_flag_and_a_plan_key_with_the_same_bounds() {
    let dir = temp_dir("distill-bounds");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let help = stdout_of(&["distill", "--help"]);
    let mut checked = 0;
    for setting in SETTINGS {
        let flag = format!("--{}", setting.flag);
        assert!(help.contains(&flag), "{flag} is not in --help");
        for past in one_past(setting.kind) {
            let by_flag = bad_input(&[
                "distill",
                "--game",
                "othello",
                "--teacher",
                SHIPPED_OTHELLO_CHAMPION,
                &format!("{flag}={past}"),
                "--out",
                out,
            ]);
            assert!(
                by_flag.starts_with(&format!("error: {flag}: {past} is not ")),
                "{by_flag}"
            );
            let plan = dir.join(format!("{}.toml", setting.name));
            std::fs::write(
                &plan,
                format!(
                    "game = \"othello\"\nkind = \"distill\"\nseeds = [1]\n[base]\n\
                     teacher = \"{SHIPPED_OTHELLO_CHAMPION}\"\n{} = {past}\n[variants.a]\n",
                    setting.name
                ),
            )
            .unwrap();
            let by_key = bad_input(&["experiment", plan.to_str().unwrap(), "--out", out]);
            let reason = by_flag
                .split_once(": ")
                .unwrap()
                .1
                .split_once(": ")
                .unwrap()
                .1;
            assert!(
                by_key.contains(&format!("variants.a: {}: {reason}", setting.name)),
                "{by_key} (the flag's: {by_flag})"
            );
            checked += 1;
        }
    }
    assert!(checked >= 18, "{checked} bounds checked");
    assert!(!std::path::Path::new(out).exists());
}
