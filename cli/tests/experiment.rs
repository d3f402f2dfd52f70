//! `evoboard experiment`: a plan run end to end, an interrupted experiment resumed to the
//! same files, and plans refused with the key at fault named.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The smoke plan of `experiments/`, by absolute path.
const SMOKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../experiments/smoke.toml");

fn experiment(args: &[&str]) -> std::process::Output {
    let mut all = vec!["experiment"];
    all.extend_from_slice(args);
    common::evoboard(&all)
}

#[test]
fn the_smoke_plan_runs_end_to_end() {
    let dir = common::temp_dir("experiment-smoke");
    let out = dir.join("out");
    let output = experiment(&[SMOKE, "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let results = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let lines: Vec<&str> = results.lines().collect();
    assert_eq!(
        lines[0],
        "variant,seed,measure,metric,value,games,champion_generation,champion_sha256"
    );
    // 2 variants × 3 seeds, two measures each (a benchmark, the round robin's rating),
    // seeds outermost.
    assert_eq!(lines.len(), 13, "{results}");
    assert!(lines[1].starts_with("td0,1,vs heuristic:1,win_rate,"));
    assert!(lines[2].starts_with("td0,1,rating (Elo),elo,"));
    assert!(lines[3].starts_with("lambda,1,vs heuristic:1,"));
    // Every champion is rated against the anchor, `random` at 0, and beats it.
    let ratings: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("round-robin.json")).unwrap()).unwrap();
    assert_eq!(ratings["anchor"], "random");
    let players = ratings["players"].as_array().unwrap();
    assert_eq!(players.len(), 7);
    assert_eq!(players.last().unwrap()["player"], "random");
    assert_eq!(players[0]["games"], 120);
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let rows: Vec<&str> = summary.lines().collect();
    assert_eq!(rows.len(), 5);
    // The columns name the metric, the test and both p-values.
    assert!(
        rows[0].ends_with("difference_ci_high,test,pairs,p,p_holm"),
        "{summary}"
    );
    // The baseline has no comparison; the other variant has one, paired over the three
    // seeds both ran, with a p-value in [0, 1] and a Holm-adjusted one no smaller.
    assert!(rows[1].starts_with("td0,vs heuristic:1,win_rate,3,") && rows[1].ends_with(",,,,,,,"));
    let cells: Vec<&str> = rows[2].split(',').collect();
    let (test, pairs) = (cells[cells.len() - 4], cells[cells.len() - 3]);
    assert_eq!((test, pairs), ("paired t", "3"), "{summary}");
    let p: f64 = cells[cells.len() - 2].parse().unwrap();
    let p_holm: f64 = cells[cells.len() - 1].parse().unwrap();
    assert!(
        (0.0..=1.0).contains(&p) && p <= p_holm && p_holm <= 1.0,
        "{summary}"
    );
    for file in [
        "summary.md",
        "learning.csv",
        "learning.png",
        "learning.svg",
        "measure-vs-heuristic-1.png",
        "measure-rating-elo.png",
        "plan.toml",
        "runs/lambda/seed-2/champion.evo",
        "evaluations/td0-seed-3.json",
    ] {
        assert!(out.join(file).is_file(), "{file}");
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("| `lambda` | 3 |"), "{stdout}");
    // The run with the best validation benchmark (the first of a tie, in plan order) is
    // measured on held-out games: the benchmark, then a row per panel opponent.
    let validation: Vec<(&str, &str, f64)> = lines[1..]
        .iter()
        .map(|line| line.split(',').collect::<Vec<_>>())
        .filter(|cells| cells[2] == "vs heuristic:1")
        .map(|cells| (cells[0], cells[1], cells[4].parse().unwrap()))
        .collect();
    let best = validation.iter().map(|v| v.2).fold(f64::MIN, f64::max);
    let chosen = validation.iter().find(|v| v.2 == best).unwrap();
    let held_out: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("held-out.json")).unwrap()).unwrap();
    assert_eq!(held_out["variant"], chosen.0);
    assert_eq!(held_out["seed"].to_string(), chosen.1);
    assert_eq!(held_out["validation"], best);
    let measures = held_out["measures"].as_array().unwrap();
    assert_eq!(measures[0]["measure"], "vs heuristic:2");
    assert_eq!(measures[0]["games"], 40);
    assert!(measures.len() > 3, "{held_out}");
    assert!(
        measures[1..]
            .iter()
            .all(|m| m["measure"].as_str().unwrap().starts_with("panel: vs ") && m["games"] == 10)
    );
    assert!(stdout.contains("## Held out"), "{stdout}");
    // Run again without --resume: refused, nothing changed.
    let again = experiment(&[SMOKE, "--out", out.to_str().unwrap()]);
    assert_eq!(
        common::error_line(&again),
        format!(
            "error: {} holds an experiment already: resume it to finish it",
            out.display()
        )
    );
    // Resumed when complete: nothing to do, the same results.
    let before = dir.join("before");
    common::copy_dir(&out, &before);
    let resumed = experiment(&[SMOKE, "--out", out.to_str().unwrap(), "--resume"]);
    assert!(resumed.status.success(), "{resumed:?}");
    common::assert_same_files(&out, &before);
    // Four runs at once: the same files.
    let together = dir.join("together");
    let output = experiment(&[SMOKE, "--out", together.to_str().unwrap(), "--jobs", "4"]);
    assert!(output.status.success(), "{output:?}");
    common::assert_same_files(&together, &before);
    // A run copied in from another variant is refused by the setting that differs, before
    // its champion is measured under the wrong name.
    let swapped = dir.join("swapped");
    common::copy_dir(&before, &swapped);
    let td0_seed_1 = swapped.join("runs/td0/seed-1");
    std::fs::remove_dir_all(&td0_seed_1).unwrap();
    common::copy_dir(&swapped.join("runs/lambda/seed-1"), &td0_seed_1);
    std::fs::remove_file(swapped.join("evaluations/td0-seed-1.json")).unwrap();
    let refused = experiment(&[SMOKE, "--out", swapped.to_str().unwrap(), "--resume"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert_eq!(
        String::from_utf8_lossy(&refused.stderr).trim_end(),
        format!(
            "error: run td0, seed 1: {} holds a run of other settings than the plan's: td_lambda is 0.5, the plan's 0.0",
            td0_seed_1.display()
        )
    );
    assert!(!swapped.join("evaluations/td0-seed-1.json").exists());
    // A held-out table changed after the fact (its plan copied over plan.toml) is measured
    // again on resume; the runs and their measures are kept.
    let retested = dir.join("retested");
    common::copy_dir(&before, &retested);
    let changed = dir.join("changed-held-out.toml");
    let smoke = std::fs::read_to_string(SMOKE).unwrap();
    let fewer = smoke.replace("games = 40\nseed = 779", "games = 20\nseed = 779");
    assert_ne!(fewer, smoke);
    std::fs::write(&changed, &fewer).unwrap();
    std::fs::write(retested.join("plan.toml"), &fewer).unwrap();
    let output = experiment(&[
        changed.to_str().unwrap(),
        "--out",
        retested.to_str().unwrap(),
        "--resume",
    ]);
    assert!(output.status.success(), "{output:?}");
    let held_out: serde_json::Value =
        serde_json::from_slice(&std::fs::read(retested.join("held-out.json")).unwrap()).unwrap();
    assert_eq!(held_out["measures"][0]["games"], 20);
    common::assert_same_files(&retested.join("evaluations"), &before.join("evaluations"));
}

#[test]
fn a_run_copied_from_a_shorter_variant_or_reused_from_another_experiment_goes_on_to_the_plans_budget()
 {
    let dir = common::temp_dir("experiment-extend");
    std::fs::create_dir_all(&dir).unwrap();
    let smoke = std::fs::read_to_string(SMOKE).unwrap();
    let longer = dir.join("longer.toml");
    std::fs::write(&longer, smoke.replace("generations = 3", "generations = 6")).unwrap();
    let (short, fresh, extended) = (dir.join("short"), dir.join("fresh"), dir.join("extended"));
    for (plan, out) in [(Path::new(SMOKE), &short), (longer.as_path(), &fresh)] {
        let output = experiment(&[plan.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert!(output.status.success(), "{output:?}");
    }
    // The longer plan begun with the short runs copied in, none of them measured: each
    // goes on from its last checkpoint and ends as the run begun with six generations.
    common::copy_dir(&short.join("runs"), &extended.join("runs"));
    std::fs::copy(&longer, extended.join("plan.toml")).unwrap();
    let resume = |plan: &Path, out: &Path| {
        experiment(&[
            plan.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--resume",
        ])
    };
    let output = resume(&longer, &extended);
    assert!(output.status.success(), "{output:?}");
    common::assert_same_files(&extended, &fresh);
    // The same, asked of the runner: `--reuse` finds the short runs by their settings.
    let reusing = dir.join("reusing");
    let output = experiment(&[
        longer.to_str().unwrap(),
        "--out",
        reusing.to_str().unwrap(),
        "--reuse",
        short.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("reused 6 runs from other experiments, 0 of them with their measures"),
        "{output:?}"
    );
    common::assert_same_files(&reusing, &fresh);
    // A plan of the same settings and measures takes every run with its measures.
    let again = dir.join("again");
    let output = experiment(&[
        longer.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
        "--reuse",
        short.to_str().unwrap(),
        "--reuse",
        fresh.to_str().unwrap(),
    ]);
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("reused 6 runs from other experiments, 6 of them with their measures"),
        "{output:?}"
    );
    common::assert_same_files(&again, &fresh);
    // What is not an experiment is refused before anything is written.
    let nowhere = dir.join("nowhere");
    let refused = experiment(&[
        SMOKE,
        "--out",
        again.join("never").to_str().unwrap(),
        "--reuse",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let line = common::error_line(&refused);
    assert!(
        line.starts_with(&format!(
            "error: cannot reuse {}: no experiment's plan.toml there",
            nowhere.display()
        )),
        "{line}"
    );
    assert!(!again.join("never").exists());
    // A run longer than the plan's budget is not cut short: it is refused.
    let cut = dir.join("cut");
    common::copy_dir(&fresh.join("runs"), &cut.join("runs"));
    std::fs::copy(SMOKE, cut.join("plan.toml")).unwrap();
    let refused = resume(Path::new(SMOKE), &cut);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert_eq!(
        String::from_utf8_lossy(&refused.stderr).trim_end(),
        format!(
            "error: run td0, seed 1: {} holds a run of other settings than the plan's: generations is 6, the plan's 3",
            cut.join("runs/td0/seed-1").display()
        )
    );
}

#[test]
fn an_experiment_killed_and_resumed_ends_with_the_files_of_one_never_stopped() {
    let dir = common::temp_dir("experiment-kill");
    std::fs::create_dir_all(&dir).unwrap();
    // The smoke plan with more learning, so that a kill lands inside a run.
    let plan = dir.join("longer.toml");
    let text = std::fs::read_to_string(SMOKE)
        .unwrap()
        .replace("td_games = 300", "td_games = 6000");
    std::fs::write(&plan, text).unwrap();
    let plan = plan.to_str().unwrap();
    let whole = dir.join("whole");
    let output = experiment(&[plan, "--out", whole.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let killed = dir.join("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_evoboard"))
        .args(["experiment", plan, "--out", killed.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill once the first run has measured its champion and the second has begun.
    let clock = Instant::now();
    let second = killed.join("runs/lambda/seed-1/stats.csv");
    while !second.exists() && clock.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !killed.join("results.csv").exists(),
        "the kill came too late"
    );
    let resumed = experiment(&[plan, "--out", killed.to_str().unwrap(), "--resume"]);
    assert!(resumed.status.success(), "{resumed:?}");
    common::assert_same_files(&killed, &whole);
}

#[test]
fn plans_are_refused_with_the_key_at_fault() {
    let dir = common::temp_dir("experiment-bad");
    std::fs::create_dir_all(&dir).unwrap();
    let smoke = std::fs::read_to_string(SMOKE).unwrap();
    let a_benchmark_twice = smoke.replace(
        "[[evaluation.benchmark]]",
        "[[evaluation.benchmark]]\nopponent = \"heuristic:1\"\ngames = 2\nseed = 9\n[[evaluation.benchmark]]",
    );
    // (case, plan text, what its one error line holds)
    let cases = [
        (
            "unknown",
            smoke.replace("td_games = 300", "td_gams = 300"),
            "variants.td0: invalid evolution setting: unknown setting 'td_gams' (settings are named as in run.json, or as evolve's flags)",
        ),
        (
            "kind",
            smoke.replace("td_lambda = 0.5", "td_lambda = \"half\""),
            "variants.lambda: invalid evolution setting: td_lambda takes a number from 0 to 1, not 'half'",
        ),
        (
            "same",
            smoke.replace("td_lambda = 0.5", "td_lambda = 0.0"),
            "variants.lambda: changes nothing from variant 'td0' (its runs would repeat them)",
        ),
        (
            "range",
            smoke.replace("td_lambda = 0.5", "td_lambda = 1.5"),
            "variants.lambda: invalid evolution setting",
        ),
        (
            "seed",
            smoke.replace("seed = 777", "seed = 2"),
            "evaluation.benchmark[0]: seed 2 is also a run seed; measure on held-out openings",
        ),
        (
            "held-out-seed",
            smoke.replace("seed = 779", "seed = 777"),
            "held_out.benchmark[0]: seed 777 is also an evaluation seed, on which the run was chosen",
        ),
        (
            "held-out-choice",
            smoke.replace("choose_by = \"vs heuristic:1\"", "choose_by = \"league\""),
            "held_out.choose_by: 'league' is not a measure of the evaluation (vs heuristic:1, rating (Elo))",
        ),
        (
            "held-out-among",
            smoke.replace(
                "choose_by = \"vs heuristic:1\"",
                "choose_by = \"vs heuristic:1\"\namong = [\"td1\"]",
            ),
            "held_out.among: no variant named 'td1'",
        ),
        (
            "twice",
            a_benchmark_twice,
            "evaluation: two measures are named 'vs heuristic:1': give one a `name = \"...\"`",
        ),
        (
            "top",
            format!("{smoke}\ncolour = \"blue\"\n"),
            "unknown field `colour`",
        ),
        (
            "game",
            smoke.replace("\"kalah\"", "\"chess\""),
            "game: unknown game 'chess' (othello, kalah, oware, congklak or congkak)",
        ),
        (
            "opponent",
            smoke.replace("heuristic:1", "heuristic:x"),
            "evaluation.benchmark[0]: opponent: ",
        ),
        (
            "td-games",
            smoke.replace("td_games = 300", "td_games = 4294967295"),
            "td_games takes a whole number from 0 to 10000000, not 4294967295",
        ),
        (
            "depth",
            smoke
                .replace(
                    "games = 40\nseed = 777",
                    "games = 40\nseed = 777\ndepth = 13",
                )
                .replace(
                    "choose_by = \"vs heuristic:1\"",
                    "choose_by = \"vs heuristic:1 at depth 13\"",
                ),
            "a 13-ply search can take hours a move",
        ),
        (
            "panel-depth",
            smoke.replace("depth = 1\ngames = 10", "depth = 30\ngames = 10"),
            "a 30-ply search can take hours a move",
        ),
        (
            "engine",
            smoke.replace("\"kalah\"", "\"othello\"").replace(
                "opponent = \"heuristic:1\"",
                "opponent = \"gtp:/nonexistent/engine\"",
            ),
            "could not be started",
        ),
        (
            "syntax",
            smoke.replace("seeds = [1, 2, 3]", "seeds = [1, 2"),
            "missing comma between array elements",
        ),
        (
            "unclosed",
            smoke.replace("game = \"kalah\"", "game = \"kalah"),
            "(line 1)",
        ),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(&path, text).unwrap();
        let out = dir.join(format!("{name}-out"));
        let output = experiment(&[path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        let line = common::error_line(&output);
        assert!(line.contains(expected), "{name}: {line}");
        assert!(!out.exists(), "{name}: nothing is written");
    }
}

/// Plans at the limits are refused at once: many seeds listed twice (checked in linear
/// time, after the cap on runs), measures whose names give one figure file, and runs that
/// would not fit on the disk.
#[test]
fn large_or_colliding_plans_are_refused_before_anything_is_written() {
    let dir = common::temp_dir("experiment-limits");
    std::fs::create_dir_all(&dir).unwrap();
    let smoke = std::fs::read_to_string(SMOKE).unwrap();
    let mut seeds: Vec<String> = (0..4_000).map(|s| s.to_string()).collect();
    seeds.push("17".to_string());
    let twice = smoke.replace(
        "seeds = [1, 2, 3]",
        &format!("seeds = [{}]", seeds.join(", ")),
    );
    let colliding = smoke.replace(
        "[[evaluation.benchmark]]",
        "[[evaluation.benchmark]]\nopponent = \"heuristic:2\"\nname = \"VS Heuristic 1\"\ngames = 2\nseed = 9\n[[evaluation.benchmark]]",
    );
    let seeds: Vec<String> = (10..5_000).map(|s| s.to_string()).collect();
    let huge = format!(
        "game = \"othello\"\nseeds = [{}]\n[base]\npreset = \"modern\"\npopulation = 1000\ngenerations = 100\n[variants.a]\n",
        seeds.join(", ")
    );
    let cases = [
        ("twice", twice, "seeds: 17 is listed twice"),
        (
            "colliding",
            colliding,
            "would share the figure measure-vs-heuristic-1.png",
        ),
        ("huge", huge, "the plan's runs may take up to"),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(&path, text).unwrap();
        let out = dir.join(format!("{name}-out"));
        let clock = Instant::now();
        let output = experiment(&[path.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        let line = common::error_line(&output);
        assert!(line.contains(expected), "{name}: {line}");
        assert!(!out.exists(), "{name}: nothing is written");
        assert!(clock.elapsed() < Duration::from_secs(30), "{name}");
    }
}

/// An output directory whose champions' paths could not be named in an agent spec (`@`
/// starts the random-move suffix) is refused before any run.
#[test]
fn an_out_directory_a_champion_spec_cannot_name_is_refused_first() {
    let dir = common::temp_dir("experiment-at");
    let out = dir.join("out@1");
    let output = experiment(&[SMOKE, "--out", out.to_str().unwrap()]);
    let line = common::error_line(&output);
    assert!(line.contains("@EPS suffix"), "{line}");
    assert!(!out.exists(), "nothing is written");
}

/// A plan edited in place (its copy in the experiment's directory) and resumed measures
/// every champion again by the new measures: no result of the old ones is left.
#[test]
fn a_plan_edited_in_place_is_measured_again_on_resume() {
    let dir = common::temp_dir("experiment-edited");
    let out = dir.join("out");
    let output = experiment(&[SMOKE, "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let copy = out.join("plan.toml");
    let edited = std::fs::read_to_string(&copy)
        .unwrap()
        .replace("heuristic:1", "heuristic:3")
        .replace("games = 20\nseed = 778", "games = 22\nseed = 778");
    std::fs::write(&copy, edited).unwrap();
    let output = experiment(&[
        copy.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert!(output.status.success(), "{output:?}");
    let results = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert!(!results.contains("heuristic:1"), "{results}");
    assert_eq!(results.matches(",vs heuristic:3,").count(), 6, "{results}");
    let held_out: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("held-out.json")).unwrap()).unwrap();
    assert_eq!(held_out["chosen_by"], "vs heuristic:3");
    let ratings: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("round-robin.json")).unwrap()).unwrap();
    assert_eq!(ratings["players"][0]["games"], 6 * 22, "{ratings}");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(!summary.contains("| vs heuristic:1"), "{summary}");
    assert!(summary.contains("| vs heuristic:3"), "{summary}");
}

#[test]
fn a_resume_must_bring_the_plan_it_started_with() {
    let dir = common::temp_dir("experiment-changed");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out");
    let output = experiment(&[SMOKE, "--out", out.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    let changed = dir.join("changed.toml");
    let text = std::fs::read_to_string(SMOKE)
        .unwrap()
        .replace("[1, 2, 3]", "[1, 2, 3, 4]");
    std::fs::write(&changed, text).unwrap();
    let output = experiment(&[
        changed.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert!(common::error_line(&output).contains("the plan differs from the one"));
    let fresh = dir.join("fresh");
    let output = experiment(&[SMOKE, "--out", fresh.to_str().unwrap(), "--resume"]);
    assert_eq!(
        common::error_line(&output),
        format!("error: no experiment to resume in {}", fresh.display())
    );
}
