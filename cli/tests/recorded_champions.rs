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
