//! A learner added from outside the library (the `random_search` example's, compiled in
//! here) and registered through its public API is a preset like the built-in ones: `evolve
//! --help` lists it with its defaults, `evolve --preset random-search` runs and resumes
//! it, and an experiment plan naming it runs — with no edit to the library's settings,
//! the command line, plans or help.
//!
//! As in `game_cli`, the test is that program itself: run with [`PROGRAM`] set, its `main`
//! is the example's; without, it runs copies of itself so and checks what they do.

#[path = "../examples/random_search/learner.rs"]
mod learner;

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, ExitCode, Output};

use common::temp_dir;

/// Set in the environment of the copies that act as the example's program.
const PROGRAM: &str = "EVOBOARD_LEARNER_CLI_PROGRAM";

fn main() -> ExitCode {
    if std::env::var_os(PROGRAM).is_some() {
        evoboard::evolve::learner::register(&learner::RandomSearch)
            .expect("random-search is a new learner's name");
        return evoboard_cli::run_evoboard();
    }
    let dir = temp_dir("learner-cli");
    std::fs::create_dir_all(&dir).expect("the scratch directory is made");
    for (name, check) in [
        ("help", help as fn(&Path)),
        ("evolve and resume", evolve_and_resume),
        ("plan", plan),
    ] {
        print!("learner_cli: {name} ... ");
        std::io::stdout().flush().expect("stdout");
        check(&dir);
        println!("ok");
    }
    let _ = std::fs::remove_dir_all(&dir);
    ExitCode::SUCCESS
}

/// Runs the example's program with `args`.
fn program(args: &[&str]) -> Output {
    Command::new(std::env::current_exe().expect("the test knows its path"))
        .env(PROGRAM, "1")
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("the program runs")
}

/// The output of a command that must succeed.
fn succeeds(args: &[&str]) -> String {
    let output = program(args);
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

fn help(_: &Path) {
    let help = succeeds(&["evolve", "--help"]);
    assert!(
        help.contains(
            "`random-search` (random local search around the best network, an example learner)"
        ),
        "{help}"
    );
    // Its own defaults, stated as the built-in presets' are.
    assert!(help.contains("random-search: 8;"), "{help}");
    let config: serde_json::Value = serde_json::from_str(&succeeds(&[
        "evolve",
        "--game",
        "kalah",
        "--preset",
        "random-search",
        "--print-config",
    ]))
    .expect("JSON");
    assert_eq!(config["preset"], "random-search");
    assert_eq!(config["population"], 8);
}

fn evolve_and_resume(dir: &Path) {
    let out = dir.join("run");
    let out = out.to_str().expect("UTF-8 path");
    let run = |generations: &str, resume: bool| {
        let mut args = vec![
            "evolve",
            "--no-plots",
            "--out",
            out,
            "--generations",
            generations,
        ];
        if !resume {
            args.extend(["--game", "kalah", "--preset", "random-search"]);
            args.extend(["--population", "4", "--bench-games", "4"]);
        } else {
            args.push("--resume");
        }
        succeeds(&args)
    };
    run("1", false);
    let resumed = run("2", true);
    assert!(resumed.contains("preset random-search"), "{resumed}");
    let stats = std::fs::read_to_string(Path::new(out).join("stats.csv")).expect("stats.csv");
    assert_eq!(stats.lines().count(), 3, "{stats}");
    assert!(Path::new(out).join("champion.evo").exists());
}

fn plan(dir: &Path) {
    let plan = dir.join("plan.toml");
    std::fs::write(
        &plan,
        "game = \"kalah\"\nseeds = [1, 2]\n[base]\npreset = \"random-search\"\n\
         generations = 2\npopulation = 4\nbench_games = 4\n[variants.small]\n\
         [variants.wide]\ninitial_sigma = 0.2\n\
         [[evaluation.benchmark]]\nopponent = \"heuristic:1\"\ngames = 10\nseed = 5\n",
    )
    .expect("the plan is written");
    let out = dir.join("experiment");
    let report = succeeds(&[
        "experiment",
        plan.to_str().expect("UTF-8 path"),
        "--out",
        out.to_str().expect("UTF-8 path"),
    ]);
    assert!(report.contains("wide"), "{report}");
    let run = out.join("runs/wide/seed-2/run.json");
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run).expect("run.json")).expect("JSON");
    assert_eq!(config["config"]["preset"], "random-search");
}
