//! Champions recorded by hash (`experiments::recorded`): every evaluation file, `results.csv`
//! and `held-out.json` names its champion's SHA-256; files kept from before are given it on
//! resume without measuring anything again.

mod common;

use std::path::Path;

use evoboard::experiments::recorded::champion_sha256;

/// The smoke plan of `experiments/`, by absolute path.
const SMOKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../experiments/smoke.toml");

fn experiment(args: &[&str]) -> std::process::Output {
    let mut all = vec!["experiment"];
    all.extend_from_slice(args);
    common::evoboard(&all)
}

fn json(file: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap()
}

fn write_json(file: &Path, value: &serde_json::Value) {
    std::fs::write(file, serde_json::to_string_pretty(value).unwrap() + "\n").unwrap();
}

/// The smoke plan run into `DIR/out`.
fn smoke(dir: &Path) -> std::path::PathBuf {
    let out = dir.join("out");
    let output = experiment(&[SMOKE, "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    out
}

fn resume(out: &Path) -> std::process::Output {
    experiment(&[SMOKE, "--out", out.to_str().unwrap(), "--resume"])
}

#[test]
fn every_champion_is_recorded_by_hash_and_old_files_gain_it_without_measuring_again() {
    let dir = common::temp_dir("recorded-hash");
    let out = smoke(&dir);
    let results = std::fs::read_to_string(out.join("results.csv")).unwrap();
    for variant in ["td0", "lambda"] {
        for seed in 1..=3 {
            let champion = out.join(format!("runs/{variant}/seed-{seed}/champion.evo"));
            let hash = champion_sha256(&champion).unwrap();
            let evaluation = json(&out.join(format!("evaluations/{variant}-seed-{seed}.json")));
            assert_eq!(evaluation["champion_sha256"], hash.as_str());
            let rows = results
                .lines()
                .filter(|row| row.starts_with(&format!("{variant},{seed},")));
            assert_eq!(rows.clone().count(), 2, "{results}");
            assert!(
                rows.into_iter()
                    .all(|row| row.ends_with(&format!(",{hash}")))
            );
        }
    }
    let held_out = json(&out.join("held-out.json"));
    let chosen = json(&out.join(format!(
        "evaluations/{}-seed-{}.json",
        held_out["variant"].as_str().unwrap(),
        held_out["seed"]
    )));
    assert_eq!(held_out["champion_sha256"], chosen["champion_sha256"]);
    let ratings = json(&out.join("round-robin.json"));
    assert_eq!(
        ratings["champion_sha256"]["lambda/seed-2"],
        json(&out.join("evaluations/lambda-seed-2.json"))["champion_sha256"]
    );
    // Files as kept before evaluations said what they were taken for and named their
    // champion's hash: resumed, nothing is measured or played again, and each file is
    // given its hash back, ending as the files of today's experiment.
    let before = dir.join("before");
    common::copy_dir(&out, &before);
    let old = |file: &Path, keys: &[&str]| {
        let mut value = json(file);
        for key in keys {
            value.as_object_mut().unwrap().remove(*key).unwrap();
        }
        write_json(file, &value);
    };
    for variant in ["td0", "lambda"] {
        for seed in 1..=3 {
            let file = out.join(format!("evaluations/{variant}-seed-{seed}.json"));
            old(&file, &["champion_sha256", "taken_for"]);
        }
    }
    old(&out.join("held-out.json"), &["champion_sha256"]);
    old(&out.join("round-robin.json"), &["champion_sha256"]);
    let resumed = resume(&out);
    assert!(resumed.status.success(), "{resumed:?}");
    let said = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        !said.contains("measuring") && !said.contains("held-out measures of"),
        "{said}"
    );
    common::assert_same_files(&out, &before);
}

/// Removes every champion and checkpoint of the experiment in `out`, as the repository
/// keeps it; returns the champions' bytes by run directory.
fn strip(out: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut champions = Vec::new();
    for variant in ["td0", "lambda"] {
        for seed in 1..=3 {
            let run = out.join(format!("runs/{variant}/seed-{seed}"));
            for entry in std::fs::read_dir(&run).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_str().unwrap().to_string();
                if name == "champion.evo" {
                    champions.push((run.clone(), std::fs::read(&path).unwrap()));
                }
                if name == "champion.evo" || name.starts_with("gen-") {
                    std::fs::remove_file(&path).unwrap();
                }
            }
        }
    }
    champions
}

fn rebuilt_runs(output: &std::process::Output) -> usize {
    String::from_utf8_lossy(&output.stderr)
        .matches("champion absent, playing the run again")
        .count()
}

#[test]
fn an_absent_champion_is_played_again_when_needed_and_must_hash_as_recorded() {
    let dir = common::temp_dir("recorded-rebuild");
    let out = smoke(&dir);
    let champions = strip(&out);
    let present = || {
        champions
            .iter()
            .filter(|(run, _)| run.join("champion.evo").exists())
            .count()
    };
    // Finished and measured: resumed, nothing is played again.
    let output = resume(&out);
    assert!(output.status.success(), "{output:?}");
    assert_eq!((rebuilt_runs(&output), present()), (0, 0), "{output:?}");
    // Another held-out table: the chosen run's champion is played again, to the same bytes.
    let smoke_text = std::fs::read_to_string(SMOKE).unwrap();
    let fewer = smoke_text.replace("games = 40\nseed = 779", "games = 20\nseed = 779");
    let plan = dir.join("fewer.toml");
    std::fs::write(&plan, &fewer).unwrap();
    std::fs::write(out.join("plan.toml"), &fewer).unwrap();
    let resume_as = |plan: &Path, out: &Path| {
        experiment(&[
            plan.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--resume",
        ])
    };
    let output = resume_as(&plan, &out);
    assert!(output.status.success(), "{output:?}");
    assert_eq!((rebuilt_runs(&output), present()), (1, 1), "{output:?}");
    for (run, bytes) in &champions {
        if let Ok(rebuilt) = std::fs::read(run.join("champion.evo")) {
            assert!(rebuilt == *bytes, "{} differs", run.display());
        }
    }
    let held_out = json(&out.join("held-out.json"));
    assert_eq!(held_out["measures"][0]["games"], 20);
    // A recorded hash the run does not reproduce stops the experiment, naming the run and
    // both hashes.
    let chosen = out.join(format!(
        "runs/{}/seed-{}",
        held_out["variant"].as_str().unwrap(),
        held_out["seed"]
    ));
    let evaluation = out.join(format!(
        "evaluations/{}-seed-{}.json",
        held_out["variant"].as_str().unwrap(),
        held_out["seed"]
    ));
    let mut measures = json(&evaluation);
    let recorded = measures["champion_sha256"].as_str().unwrap().to_string();
    let wrong = "0".repeat(64);
    measures["champion_sha256"] = wrong.clone().into();
    write_json(&evaluation, &measures);
    std::fs::remove_file(chosen.join("champion.evo")).unwrap();
    std::fs::write(out.join("plan.toml"), &smoke_text).unwrap();
    let output = resume(&out);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr)
            .lines()
            .last()
            .unwrap(),
        format!(
            "error: the champion of {} played again hashes {recorded}, not the recorded {wrong}: \
             the run does not reproduce",
            chosen.display()
        )
    );
    assert!(!chosen.join("champion.evo").exists());
    measures["champion_sha256"] = recorded.into();
    write_json(&evaluation, &measures);
    // Measures not yet taken: every champion is played again, then measured.
    let edited = smoke_text.replace("heuristic:1", "heuristic:3");
    let plan = dir.join("edited.toml");
    std::fs::write(&plan, &edited).unwrap();
    std::fs::write(out.join("plan.toml"), &edited).unwrap();
    let output = resume_as(&plan, &out);
    assert!(output.status.success(), "{output:?}");
    assert_eq!((rebuilt_runs(&output), present()), (6, 6), "{output:?}");
    let results = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(results.matches(",vs heuristic:3,").count(), 6, "{results}");
    for (run, bytes) in &champions {
        assert!(std::fs::read(run.join("champion.evo")).unwrap() == *bytes);
    }
}

#[test]
fn runs_reused_or_started_from_without_their_champions_are_rebuilt_where_needed() {
    let dir = common::temp_dir("recorded-reuse");
    let out = smoke(&dir);
    let champions = strip(&out);
    // Reused with their measures and hashes: the round robin of the new experiment needs
    // every champion, played again in its own directory; the source is left as it was.
    let reusing = dir.join("reusing");
    let output = experiment(&[
        SMOKE,
        "--out",
        reusing.to_str().unwrap(),
        "--reuse",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(rebuilt_runs(&output), 6, "{output:?}");
    for (run, bytes) in &champions {
        assert!(!run.join("champion.evo").exists());
        let relative = run.strip_prefix(&out).unwrap();
        assert!(std::fs::read(reusing.join(relative).join("champion.evo")).unwrap() == *bytes);
    }
    // A plan whose runs start from an absent champion of another experiment's run: that
    // run is played again first, its champion checked and put back.
    let start = out.join("runs/td0/seed-1/champion.evo");
    let text = std::fs::read_to_string(SMOKE).unwrap().replace(
        "[base]\n",
        &format!("[base]\nstart_from = \"{}\"\n", start.display()),
    );
    let plan = dir.join("started.toml");
    std::fs::write(&plan, text).unwrap();
    let started = dir.join("started");
    let output = experiment(&[plan.to_str().unwrap(), "--out", started.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(rebuilt_runs(&output), 1, "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("(out/td0, seed 1): champion absent"),
        "{said}"
    );
    assert!(std::fs::read(&start).unwrap() == champions[0].1);
}

#[test]
fn verify_plays_chosen_runs_again_and_fails_on_a_hash_they_do_not_reproduce() {
    let dir = common::temp_dir("recorded-verify");
    let out = smoke(&dir);
    let champions = strip(&out);
    let before = dir.join("before");
    common::copy_dir(&out, &before);
    let verify = |extra: &[&str]| {
        let mut args = vec![SMOKE, "--out", out.to_str().unwrap(), "--verify"];
        args.extend_from_slice(extra);
        experiment(&args)
    };
    let output = verify(&["--runs", "3", "--verify-seed", "5"]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(": recorded "))
        .collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines.iter().all(|line| line.contains(", match, ")),
        "{stdout}"
    );
    // The same seed chooses the same runs; the directory is only read.
    let again = verify(&["--runs", "3", "--verify-seed", "5"]);
    let chosen = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains(": recorded "))
            .map(|l| l.split(": recorded").next().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        chosen(&String::from_utf8_lossy(&again.stdout)),
        chosen(&stdout)
    );
    common::assert_same_files(&out, &before);
    assert!(!out.join("runs/td0/seed-1/champion.evo").exists());
    // --rebuild puts back the champions it is asked for, to the recorded bytes, and only
    // those; a run the experiment did not finish is refused, naming it.
    let rebuild = |runs: &[&str]| {
        let mut args = vec![SMOKE, "--out", out.to_str().unwrap()];
        for run in runs {
            args.extend_from_slice(&["--rebuild", run]);
        }
        experiment(&args)
    };
    let output = rebuild(&["lambda:2", "lambda:2"]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(rebuilt_runs(&output), 1, "{output:?}");
    let put_back = out.join("runs/lambda/seed-2/champion.evo");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!("{0}\n{0}\n", put_back.display())
    );
    let (_, bytes) = champions
        .iter()
        .find(|(run, _)| run.ends_with("lambda/seed-2"))
        .unwrap();
    assert!(std::fs::read(&put_back).unwrap() == *bytes);
    std::fs::remove_file(&put_back).unwrap();
    common::assert_same_files(&out, &before);
    for (wrong, says) in [
        (
            "lambda:9",
            "has no finished run of variant 'lambda' with seed 9",
        ),
        (
            "nope:1",
            "has no finished run of variant 'nope' with seed 1",
        ),
        ("lambda", "'lambda' is not VARIANT:SEED"),
        ("lambda:x", "'x' in 'lambda:x' is not a seed"),
    ] {
        let output = rebuild(&["td0:1", wrong]);
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(says),
            "{output:?}"
        );
        common::assert_same_files(&out, &before);
    }
    // A recorded hash the run does not reproduce: its line says so, and the command fails.
    let wrong = "0".repeat(64);
    for variant in ["td0", "lambda"] {
        for seed in 1..=3 {
            let file = out.join(format!("evaluations/{variant}-seed-{seed}.json"));
            let mut measures = json(&file);
            measures["champion_sha256"] = wrong.clone().into();
            write_json(&file, &measures);
        }
    }
    let output = verify(&[]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(": recorded "))
        .collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for line in &lines {
        assert!(
            line.contains(&format!("recorded {wrong}, rebuilt ")),
            "{line}"
        );
        assert!(line.contains(", MISMATCH, "), "{line}");
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.lines().last().unwrap().starts_with(&format!(
            "error: {}: 2 runs played again did not hash as recorded (",
            out.display()
        )),
        "{stderr}"
    );
    // A finished run without a recorded hash fails the check too.
    let file = out.join("evaluations/td0-seed-2.json");
    let mut measures = json(&file);
    measures.as_object_mut().unwrap().remove("champion_sha256");
    write_json(&file, &measures);
    let output = verify(&[]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("td0 seed 2: no recorded hash"));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("1 run without a recorded hash"),
        "{output:?}"
    );
}
