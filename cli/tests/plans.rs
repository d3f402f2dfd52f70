//! `evoboard plans`: the plans table of docs/experiments.md is what the command prints for
//! the repository's plans, and a plan run in part without a reason is refused.

mod common;

/// The repository's `experiments/`, by absolute path (the binary runs elsewhere).
const EXPERIMENTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../experiments");

/// The docs page that shows the table, by absolute path.
const DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/experiments.md");

const BEGIN: &str = "<!-- plans:begin -->";
const END: &str = "<!-- plans:end -->";

#[test]
fn the_docs_show_the_table_the_command_prints() {
    let printed = common::stdout_of(&["plans", "--dir", EXPERIMENTS]);
    let docs = std::fs::read_to_string(DOCS).unwrap();
    let (_, after) = docs
        .split_once(BEGIN)
        .unwrap_or_else(|| panic!("docs/experiments.md has no {BEGIN}"));
    let (shown, _) = after
        .split_once(END)
        .unwrap_or_else(|| panic!("docs/experiments.md has no {END} after {BEGIN}"));
    assert_eq!(
        shown.trim(),
        printed.trim(),
        "docs/experiments.md's plans table differs from `evoboard plans`: paste its output \
         between the markers"
    );
    // Every plan file is a row, and none is left unexplained.
    let plans = std::fs::read_dir(EXPERIMENTS)
        .unwrap()
        .filter(|entry| {
            let name = entry.as_ref().unwrap().file_name();
            let name = name.to_string_lossy();
            name.ends_with(".toml")
                && !["seeds.toml", "status.toml", "glance.toml"].contains(&name.as_ref())
        })
        .count();
    assert_eq!(printed.lines().count(), plans + 2, "{printed}");
}

#[test]
fn a_plan_run_in_part_without_a_reason_is_refused() {
    let dir = common::temp_dir("plans-part");
    let results = dir.join("results/p");
    std::fs::create_dir_all(results.join("evaluations")).unwrap();
    std::fs::write(
        dir.join("p.toml"),
        "game = \"kalah\"\nseeds = [1, 2]\n[variants.a]\n",
    )
    .unwrap();
    std::fs::write(results.join("evaluations/a-seed-1.json"), "{}").unwrap();
    let error = common::bad_input(&["plans", "--dir", dir.to_str().unwrap()]);
    assert!(
        error.contains("status.toml: p is run in part (1 of 2 runs measured)"),
        "{error}"
    );
    std::fs::write(dir.join("status.toml"), "[p]\nwhy = \"stopped\"\n").unwrap();
    let table = common::stdout_of(&["plans", "--dir", dir.to_str().unwrap()]);
    assert!(
        table.ends_with("| `p.toml` | kalah | 1 × 2 | paused | 1 of 2 runs measured; stopped |\n"),
        "{table}"
    );
}
