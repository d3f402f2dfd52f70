//! `evoboard glance`: the headline table the docs show is what the command prints from the
//! committed claims and measurements, and a claim's held-out series is played once.

mod common;

use std::path::Path;
use std::process::Command;

use common::{error_line, evoboard, temp_dir};

/// The repository's root, where the claims and measurements are found by default.
fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// `evoboard glance ARGS` run from the repository's root: its standard output.
fn glance_at_root(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .current_dir(root())
        .arg("glance")
        .args(args)
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The text of `file` (from the root) between the lines `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->`.
fn between_markers(file: &str, name: &str) -> String {
    let text = std::fs::read_to_string(root().join(file)).expect("the doc exists");
    let begin = format!("<!-- {name}:begin -->\n");
    let end = format!("<!-- {name}:end -->");
    let from = text
        .find(&begin)
        .unwrap_or_else(|| panic!("{file} has no {begin:?}"))
        + begin.len();
    let to = text[from..]
        .find(&end)
        .unwrap_or_else(|| panic!("{file} has no {end:?}"))
        + from;
    text[from..to].to_string()
}

#[test]
fn the_docs_tables_are_what_glance_prints() {
    assert_eq!(
        between_markers("docs/results.md", "glance"),
        glance_at_root(&[]),
        "docs/results.md's table differs from `evoboard glance`: paste its output"
    );
    assert_eq!(
        between_markers("README.md", "glance-key"),
        glance_at_root(&["--key"]),
        "README.md's table differs from `evoboard glance --key`: paste its output"
    );
}

#[test]
fn every_committed_claim_is_measured_on_every_seed() {
    let table = glance_at_root(&[]);
    assert!(!table.contains("not yet measured"), "{table}");
}

#[test]
fn a_claim_is_measured_once_and_refused_once_changed() {
    let dir = temp_dir("glance");
    std::fs::create_dir_all(&dir).unwrap();
    let claims = dir.join("claims.toml");
    let measurements = dir.join("measurements.csv");
    let write_claims = |opponent: &str| {
        std::fs::write(
            &claims,
            format!(
                "[[claim]]\nid = \"kalah-h1\"\ngame = \"kalah\"\nlabel = \"h1\"\n\
                 player = \"heuristic:1\"\nopponent = \"{opponent}\"\ngames = 6\n\
                 seeds = [32001, 32002]\nmade_by = \"-\"\nkey = true\n"
            ),
        )
        .unwrap();
    };
    write_claims("random");
    let (c, m) = (claims.to_str().unwrap(), measurements.to_str().unwrap());
    let before = evoboard(&["glance", "--claims", c, "--measurements", m]);
    assert!(String::from_utf8_lossy(&before.stdout).contains("not yet measured"));
    let measured = evoboard(&["glance", "--claims", c, "--measurements", m, "--measure"]);
    assert!(measured.status.success(), "{measured:?}");
    let kept = std::fs::read_to_string(&measurements).unwrap();
    assert_eq!(
        kept.lines().count(),
        3,
        "a header and one row per seed: {kept}"
    );
    assert!(kept.starts_with("claim,seed,player,opponent,games,wins,draws,losses\n"));
    // Measuring again plays nothing: the file is unchanged, and stderr names no series.
    let again = evoboard(&["glance", "--claims", c, "--measurements", m, "--measure"]);
    assert!(again.status.success());
    assert!(
        !String::from_utf8_lossy(&again.stderr).contains("series"),
        "{again:?}"
    );
    assert_eq!(std::fs::read_to_string(&measurements).unwrap(), kept);
    assert_eq!(again.stdout, measured.stdout);
    let table = String::from_utf8_lossy(&again.stdout).to_string();
    assert!(
        table.contains("| kalah | h1 | vs `random` | win rate **"),
        "{table}"
    );
    assert!(table.contains("| 32001, 32002 × 6 games | - |"), "{table}");
    // The claim changed after its measure: refused, naming it.
    write_claims("heuristic:2");
    let changed = evoboard(&["glance", "--claims", c, "--measurements", m]);
    assert!(
        error_line(&changed)
            .contains("claim kalah-h1: seed 32001 was measured as heuristic:1 vs random"),
        "{changed:?}"
    );
    // A claim on a seed the ledger does not hold out: refused before any game.
    std::fs::write(
        &claims,
        std::fs::read_to_string(&claims)
            .unwrap()
            .replace("32002", "777"),
    )
    .unwrap();
    let validation = evoboard(&["glance", "--claims", c, "--measurements", m, "--measure"]);
    assert!(
        error_line(&validation).contains("seeds: 777 is not held out for kalah"),
        "{validation:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
