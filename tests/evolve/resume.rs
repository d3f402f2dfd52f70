//! Resume and checkpoints: exact resume, inconsistent checkpoints refused and derived files
//! repaired, only the newest checkpoints kept, and settings added after a run was written.

use evoboard::Othello;
use evoboard::evolve::Evolution;
use evoboard::evolve::checkpoint::{EvolutionState, LearnerState};
use evoboard::evolve::config::{EvolveConfig, Preset};
use evoboard::evolve::population::Individual;

use crate::common::{Quiet, outputs, run, small, temp_dir};

#[test]
fn resuming_from_any_checkpoint_reproduces_the_uninterrupted_run() {
    let config = small(Preset::MODERN);
    let whole = temp_dir("whole");
    let expected = run(&config, &whole, 2);
    let parts = temp_dir("parts");
    let first_half = EvolveConfig {
        generations: 2,
        ..config.clone()
    };
    run(&first_half, &parts, 2);
    let mut resumed = Evolution::resume(Othello::start(), &parts, Some(4)).unwrap();
    assert_eq!(resumed.state().generation, 2);
    resumed.run(&Quiet).unwrap();
    let (csv, checkpoint, champion) = outputs(&parts, 4);
    assert_eq!(csv, expected.0);
    assert_eq!(champion, expected.2);
    // The budget is part of the stored config, so compare the states with it aligned.
    let load = |bytes: &[u8]| -> EvolutionState {
        evoboard::persist::decode(
            std::path::Path::new("x"),
            bytes,
            evoboard::persist::FileKind::Checkpoint,
            "othello",
        )
        .unwrap()
    };
    let (mut got, want) = (load(&checkpoint), load(&expected.1));
    got.config.generations = want.config.generations;
    assert_eq!(got, want);
    // A finished run has nothing left to do.
    let mut done = Evolution::resume(Othello::start(), &whole, None).unwrap();
    done.run(&Quiet).unwrap();
    assert_eq!(done.state().generation, 4);
    // A fresh run refuses to overwrite an existing one.
    assert!(Evolution::create(Othello::start(), config, &whole).is_err());
    for dir in [whole, parts] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn resume_refuses_inconsistent_checkpoints_and_repairs_derived_files() {
    use evoboard::persist::{FileKind, save};
    let dir = temp_dir("inconsistent");
    let config = EvolveConfig {
        generations: 2,
        ..small(Preset::PAPER)
    };
    run(&config, &dir, 2);
    let path = dir.join("gen-00002.evo");
    let original: EvolutionState =
        evoboard::evolve::checkpoint::load_checkpoint(&path, "othello").unwrap();
    let resume_error = |state: &EvolutionState| {
        save(&path, FileKind::Checkpoint, "othello", state).unwrap();
        match Evolution::resume(Othello::start(), &dir, None) {
            Err(error) => error.to_string(),
            Ok(_) => panic!("an inconsistent checkpoint was accepted"),
        }
    };
    let mut short_gene = original.clone();
    short_gene.population[3].genes.pop();
    assert!(resume_error(&short_gene).contains("wrong length"));
    let mut missing = original.clone();
    missing.population.pop();
    assert!(resume_error(&missing).contains("individuals"));
    let mut other_settings = original.clone();
    other_settings.config.depth = 3;
    assert!(resume_error(&other_settings).contains("run.json"));
    let mut renumbered = original.clone();
    renumbered.generation = 1;
    assert!(resume_error(&renumbered).contains("generation 2"));
    // Every network a checkpoint restores is checked as a champion file would be: a
    // champion searching at another depth than the run's, or a weight no player can use.
    for depth in [0, u32::MAX] {
        let mut deep = original.clone();
        deep.champion.as_mut().unwrap().depth = depth;
        assert!(resume_error(&deep).contains("does not fit"));
        let mut candidate = original.clone();
        candidate.candidates[0].depth = depth;
        assert!(resume_error(&candidate).contains("does not fit"));
    }
    let mut nan_individual = original.clone();
    nan_individual.population[2].genes[5] = f32::NAN;
    assert!(resume_error(&nan_individual).contains("weight 5"));
    let mut infinite_memory = original.clone();
    let mut previous: Vec<Vec<f32>> = original.learner_state.read().unwrap();
    previous[0][1] = f32::INFINITY;
    infinite_memory.learner_state = LearnerState::of(&previous);
    assert!(resume_error(&infinite_memory).contains("weight 1"));
    let mut nan_champion = original.clone();
    nan_champion.champion.as_mut().unwrap().genes[0] = f32::NAN;
    assert!(resume_error(&nan_champion).contains("weight 0"));
    save(&path, FileKind::Checkpoint, "othello", &original).unwrap();

    // Too small a budget would undo generations.
    assert!(Evolution::resume(Othello::start(), &dir, Some(1)).is_err());
    // A stats.csv that lost its last row (a kill between two writes) is rebuilt, and
    // temporary files of interrupted writes (by a process that is gone) are removed.
    let csv = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
    let shortened: Vec<&str> = csv.lines().take(2).collect();
    std::fs::write(dir.join("stats.csv"), shortened.join("\n") + "\n").unwrap();
    std::fs::write(dir.join(".gen-00003.evo.tmp-4000000000"), b"partial").unwrap();
    Evolution::resume(Othello::start(), &dir, None).unwrap();
    let without_time = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    let rebuilt = std::fs::read_to_string(dir.join("stats.csv")).unwrap();
    assert_eq!(without_time(&rebuilt), without_time(&csv));
    assert!(
        rebuilt.ends_with(",\n"),
        "the lost row's time is unknown, not invented"
    );
    assert!(!dir.join(".gen-00003.evo.tmp-4000000000").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn only_the_newest_checkpoints_are_kept_when_asked() {
    let dir = temp_dir("keep");
    let config = EvolveConfig {
        keep_checkpoints: Some(2),
        ..small(Preset::MODERN)
    };
    run(&config, &dir, 2);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("gen-"))
        .collect();
    names.sort();
    assert_eq!(names, ["gen-00003.evo", "gen-00004.evo"]);
    let mut more = Evolution::resume(Othello::start(), &dir, Some(5)).unwrap();
    more.run(&Quiet).unwrap();
    assert!(!dir.join("gen-00003.evo").exists() && dir.join("gen-00005.evo").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

/// Checkpoints keep a run's settings as JSON text, as `run.json` does: a run written
/// before a setting existed (here `td_play_depth`, missing from both files) reads it as its
/// default, and resumes to exactly the files of an uninterrupted run.
#[test]
fn a_setting_added_later_reads_as_its_default_from_older_files() {
    use evoboard::champion::Champion;
    use evoboard::evolve::checkpoint::load_checkpoint;
    use evoboard::evolve::stats::GenerationStats;
    use evoboard::persist::{FileKind, save};
    /// An `EvolutionState` as a build before the setting wrote it.
    #[derive(serde::Serialize)]
    struct Older<'a> {
        config: String,
        architecture: &'a evoboard::nn::Architecture,
        generation: u32,
        population: &'a [Individual],
        rng: &'a evoboard::rng::GameRng,
        hall_of_fame: &'a [Vec<f32>],
        history: &'a [GenerationStats],
        champion: &'a Option<Champion>,
        candidates: &'a [Champion],
        selected: &'a Option<Champion>,
        gate_reached: bool,
        learner_state: &'a LearnerState,
    }
    let without_setting = |value: serde_json::Value| {
        let mut value = value;
        let removed = value.as_object_mut().unwrap().remove("td_play_depth");
        assert_eq!(removed, Some(serde_json::json!(1)));
        value
    };
    let config = small(Preset::MODERN);
    let (whole, parts) = (temp_dir("older-whole"), temp_dir("older-parts"));
    let expected = run(&config, &whole, 2);
    run(
        &EvolveConfig {
            generations: 2,
            ..config.clone()
        },
        &parts,
        2,
    );
    let path = parts.join("gen-00002.evo");
    let state = load_checkpoint(&path, "othello").unwrap();
    let older = Older {
        config: without_setting(serde_json::to_value(&state.config).unwrap()).to_string(),
        architecture: &state.architecture,
        generation: state.generation,
        population: &state.population,
        rng: &state.rng,
        hall_of_fame: &state.hall_of_fame,
        history: &state.history,
        champion: &state.champion,
        candidates: &state.candidates,
        selected: &state.selected,
        gate_reached: state.gate_reached,
        learner_state: &state.learner_state,
    };
    save(&path, FileKind::Checkpoint, "othello", &older).unwrap();
    let run_json = parts.join("run.json");
    let mut info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run_json).unwrap()).unwrap();
    info["config"] = without_setting(info["config"].take());
    std::fs::write(&run_json, info.to_string()).unwrap();
    assert_eq!(load_checkpoint(&path, "othello").unwrap(), state);
    let mut resumed = Evolution::resume(Othello::start(), &parts, Some(4)).unwrap();
    resumed.run(&Quiet).unwrap();
    assert_eq!(outputs(&parts, 4), expected);
    for dir in [whole, parts] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// Runs stopped by the last build whose checkpoints carried each individual's mutation
/// memory and CMA-ES's distribution (format version 9, committed under
/// `tests/data/format-9/`: a Kalah run of each kind after one of two generations) resume
/// into exactly the run a fresh start plays today: the same statistics, the same champion
/// and the same checkpoint of generation 2. The paper run's `run.json` names its preset as
/// those builds did (`Paper`).
#[test]
fn checkpoints_of_format_9_resume_exactly() {
    use evoboard::evolve::checkpoint::RunDir;
    use evoboard::games::mancala::Kalah;
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/format-9");
    for preset in ["paper", "modern", "cmaes", "td"] {
        let stopped = temp_dir(&format!("format-9-{preset}"));
        std::fs::create_dir_all(&stopped).unwrap();
        for entry in std::fs::read_dir(fixtures.join(preset)).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, stopped.join(path.file_name().unwrap())).unwrap();
        }
        let info = RunDir {
            dir: stopped.clone(),
        }
        .read_info()
        .unwrap();
        let mut resumed = Evolution::resume(Kalah::game(6, 4, false), &stopped, Some(2)).unwrap();
        resumed.run(&Quiet).unwrap();
        let fresh = temp_dir(&format!("format-9-{preset}-fresh"));
        let config = EvolveConfig {
            generations: 2,
            ..info.config
        };
        let mut evolution = Evolution::create(Kalah::game(6, 4, false), config, &fresh).unwrap();
        evolution.run(&Quiet).unwrap();
        assert_eq!(outputs(&stopped, 2), outputs(&fresh, 2), "{preset}");
        for dir in [stopped, fresh] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
}

/// Every run shipped in the repository (`populations/`, and the runs of `experiments/results/`)
/// still reads and passes today's checks of its settings: learners, names and bounds that
/// changed since it was made keep it valid.
#[test]
fn every_shipped_run_reads_and_its_settings_pass_todays_checks() {
    use evoboard::evolve::checkpoint::read_run_info;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pending = vec![root.join("populations"), root.join("experiments/results")];
    let mut checked = 0;
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.file_name().is_some_and(|name| name == "run.json") {
                let info = read_run_info(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
                info.config
                    .validate()
                    .unwrap_or_else(|e| panic!("{path:?}: {e}"));
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "{checked} runs");
}
