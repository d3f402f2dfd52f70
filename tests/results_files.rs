//! The committed experiments' files (`experiments/results/PLAN/`) prove themselves: every
//! run's champion is recorded by its SHA-256 in its evaluation file and in `results.csv`,
//! every champion kept in the repository hashes as recorded, and every champion a plan
//! starts from or learns from is kept. The others are rebuilt on demand and checked against
//! their hash (`evoboard experiment PLAN --verify`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use evoboard::experiments::recorded::champion_sha256;

const RESULTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/results");

/// Every run directory of every experiment: (experiment, variant, seed, its directory).
fn runs() -> Vec<(PathBuf, String, u64, PathBuf)> {
    let mut runs = Vec::new();
    for experiment in sorted_dirs(Path::new(RESULTS)) {
        for variant in sorted_dirs(&experiment.join("runs")) {
            for run in sorted_dirs(&variant) {
                let name = |path: &Path| path.file_name().unwrap().to_str().unwrap().to_string();
                let seed = name(&run).strip_prefix("seed-").unwrap().parse().unwrap();
                runs.push((experiment.clone(), name(&variant), seed, run));
            }
        }
    }
    runs
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The champion hash of each (variant, seed) in an experiment's `results.csv`; a run whose
/// rows disagree, or that has a row without a hash, fails.
fn csv_hashes(experiment: &Path) -> BTreeMap<(String, u64), String> {
    let file = experiment.join("results.csv");
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| {
        header
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("{file:?} has no {name} column"))
    };
    let (variant, seed, hash) = (column("variant"), column("seed"), column("champion_sha256"));
    let mut hashes = BTreeMap::new();
    for row in reader.records() {
        let row = row.unwrap();
        let key = (row[variant].to_string(), row[seed].parse().unwrap());
        assert_eq!(row[hash].len(), 64, "{file:?}: {row:?}");
        let before = hashes.insert(key, row[hash].to_string());
        assert!(before.is_none_or(|h| h == row[hash]), "{file:?}: {row:?}");
    }
    hashes
}

#[test]
fn every_run_records_its_champions_hash_and_every_champion_kept_hashes_as_recorded() {
    let runs = runs();
    assert!(runs.len() >= 400, "{} runs", runs.len());
    let mut by_experiment: BTreeMap<PathBuf, BTreeMap<(String, u64), String>> = BTreeMap::new();
    let mut kept = 0;
    for (experiment, variant, seed, run) in &runs {
        let file = experiment
            .join("evaluations")
            .join(format!("{variant}-seed-{seed}.json"));
        let evaluation: serde_json::Value = serde_json::from_slice(
            &std::fs::read(&file).unwrap_or_else(|e| panic!("{file:?}: {e}")),
        )
        .unwrap();
        let recorded = evaluation["champion_sha256"]
            .as_str()
            .unwrap_or_else(|| panic!("{file:?} records no champion_sha256"));
        let csv = by_experiment
            .entry(experiment.clone())
            .or_insert_with(|| csv_hashes(experiment));
        assert_eq!(
            csv.get(&(variant.clone(), *seed)).map(String::as_str),
            Some(recorded),
            "{experiment:?}/results.csv, {variant} seed {seed}"
        );
        let champion = run.join("champion.evo");
        if champion.exists() {
            assert_eq!(
                champion_sha256(&champion).unwrap(),
                recorded,
                "{champion:?}"
            );
            kept += 1;
        }
    }
    assert!(kept > 0);
}

/// A champion that a plan starts from or learns from, or that a headline claim plays, is
/// read as a file: it must be in the repository, not left to be rebuilt.
#[test]
fn every_champion_a_plan_or_a_claim_reads_is_kept() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut named = Vec::new();
    for entry in std::fs::read_dir(root.join("experiments")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // Quoted values without spaces (descriptions name files in prose).
        for piece in text
            .split('"')
            .filter(|piece| !piece.contains(char::is_whitespace))
        {
            let piece = piece.strip_prefix("champion:").unwrap_or(piece);
            if let Some(end) = piece.find(".evo") {
                named.push((path.clone(), piece[..end + 4].to_string()));
            }
        }
    }
    assert!(named.len() >= 10, "{named:?}");
    for (plan, champion) in named {
        assert!(
            root.join(&champion).is_file(),
            "{plan:?} reads {champion}, which is not kept"
        );
    }
}

/// What the repository gives a newcomer of `experiments/results` stays light: text,
/// figures and the champions something reads, the rest recorded by hash.
#[test]
fn the_committed_results_weigh_at_most_50_mb() {
    const LIMIT: u64 = 50_000_000;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = committed_results(root);
    assert!(files.len() >= 1000, "{} files", files.len());
    let bytes: u64 = files
        .iter()
        .map(|file| std::fs::metadata(root.join(file)).map_or(0, |m| m.len()))
        .sum();
    assert!(
        bytes <= LIMIT,
        "experiments/results holds {bytes} bytes in the repository, more than {LIMIT}"
    );
}

/// The files of `experiments/results` that git tracks; where the tree is not a git
/// checkout (an unpacked archive of the repository), every file there.
fn committed_results(root: &Path) -> Vec<PathBuf> {
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-z", "--", "experiments/results"])
        .current_dir(root)
        .output();
    match listed {
        Ok(output) if output.status.success() => output
            .stdout
            .split(|&byte| byte == 0)
            .filter(|name| !name.is_empty())
            .map(|name| PathBuf::from(String::from_utf8(name.to_vec()).unwrap()))
            .collect(),
        _ => {
            let mut files = Vec::new();
            let mut dirs = vec![PathBuf::from("experiments/results")];
            while let Some(dir) = dirs.pop() {
                for entry in std::fs::read_dir(root.join(&dir)).unwrap() {
                    let entry = entry.unwrap();
                    let path = dir.join(entry.file_name());
                    if entry.file_type().unwrap().is_dir() {
                        dirs.push(path);
                    } else {
                        files.push(path);
                    }
                }
            }
            files
        }
    }
}
