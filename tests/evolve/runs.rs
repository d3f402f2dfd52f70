//! Whole runs: determinism across thread counts, the gate, stopping when learning diverges,
//! starting from a champion, and one writer per run directory.

use evoboard::Othello;
use evoboard::evolve::Evolution;
use evoboard::evolve::checkpoint::EvolutionState;
use evoboard::evolve::cmaes::SepCma;
use evoboard::evolve::config::{EvolveConfig, Preset};
use evoboard::games::mancala::Kalah;

use crate::common::{Quiet, run, small, small_td, temp_dir};

/// Learning that diverges (here α reaching 3·10³⁸ in generation 2) stops the run before
/// the generation is saved: the last checkpoint and the champion stay those of
/// generation 1, and the error names generation 2.
#[test]
fn a_run_whose_learning_diverges_stops_with_its_last_good_checkpoint() {
    let dir = temp_dir("diverging");
    let config = EvolveConfig {
        generations: 3,
        td_games: 40,
        learning_rate_end: Some(3e38),
        decay_generations: 2,
        sparring: Vec::new(),
        sparring_share: 0.0,
        ..small_td()
    };
    let mut evolution = Evolution::create(Othello::start(), config, &dir).unwrap();
    let error = evolution.run(&Quiet).unwrap_err();
    assert!(!error.is_bad_input());
    let message = error.to_string();
    assert!(
        message.contains("generation 2") && message.contains("generation 1"),
        "{message}"
    );
    assert!(dir.join("gen-00001.evo").exists() && !dir.join("gen-00002.evo").exists());
    let champion =
        evoboard::champion::Champion::load_for(&dir.join("champion.evo"), &Othello::start())
            .expect("the champion of generation 1 is intact");
    assert_eq!(champion.generation, 1);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    for preset in [Preset::PAPER, Preset::MODERN] {
        let config = small(preset);
        let (one, two) = (
            temp_dir(&format!("{preset}-t1")),
            temp_dir(&format!("{preset}-t2")),
        );
        let a = run(&config, &one, 1);
        let b = run(&config, &two, 2);
        assert_eq!(a, b, "{preset}");
        assert_eq!(a.0.lines().count(), 1 + 4, "header and four generations");
        let other_seed = temp_dir(&format!("{preset}-seed"));
        let c = run(&EvolveConfig { seed: 12, ..config }, &other_seed, 2);
        assert_ne!(a.1, c.1, "another seed evolves differently");
        for dir in [one, two, other_seed] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
}

#[test]
fn the_gate_stops_the_run() {
    let dir = temp_dir("gate");
    let config = EvolveConfig {
        gate: 0.0,
        ..small(Preset::PAPER)
    };
    let mut evolution = Evolution::create(Othello::start(), config, &dir).unwrap();
    evolution.run(&Quiet).unwrap();
    assert!(evolution.state().gate_reached);
    assert_eq!(
        evolution.state().generation,
        1,
        "a 0% gate is reached at once"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_gate_of_one_is_no_gate_and_old_stops_at_it_resume() {
    let config = EvolveConfig {
        gate: 1.0,
        generations: 1,
        ..small(Preset::PAPER)
    };
    assert!(!config.gate_passed_by(1.0));
    let gated = EvolveConfig {
        gate: 0.75,
        ..config.clone()
    };
    assert!(gated.gate_passed_by(0.75) && !gated.gate_passed_by(0.74));
    // A run an older version stopped at a perfect benchmark with no gate: the checkpoint
    // says the gate was reached, and resuming with a larger budget goes on.
    let dir = temp_dir("no-gate");
    run(&config, &dir, 1);
    let path = dir.join("gen-00001.evo");
    let mut stopped: EvolutionState =
        evoboard::evolve::checkpoint::load_checkpoint(&path, "othello").unwrap();
    stopped.history[0].benchmark = Some(evoboard::arena::WinRecord::new(6, 0, 0));
    stopped.gate_reached = true;
    evoboard::persist::save(
        &path,
        evoboard::persist::FileKind::Checkpoint,
        "othello",
        &stopped,
    )
    .unwrap();
    let mut resumed = Evolution::resume(Othello::start(), &dir, Some(2)).unwrap();
    resumed.run(&Quiet).unwrap();
    assert_eq!(resumed.state().generation, 2);
    assert!(!resumed.state().gate_reached);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_run_directory_is_written_by_one_process_at_a_time() {
    let dir = temp_dir("lock");
    let config = small(Preset::MODERN);
    let running = Evolution::create(Othello::start(), config.clone(), &dir).unwrap();
    // A second writer, fresh or resuming, is refused while the first holds the run.
    let message = |result: Result<Evolution<Othello>, evoboard::evolve::EvolveError>| match result {
        Err(error) => error.to_string(),
        Ok(_) => panic!("a second writer got the run"),
    };
    let pid = std::process::id().to_string();
    let resumed = message(Evolution::resume(Othello::start(), &dir, None));
    assert!(
        resumed.contains("in use by another evoboard process") && resumed.contains(&pid),
        "{resumed}"
    );
    let fresh = message(Evolution::create(
        Othello::start(),
        EvolveConfig { seed: 99, ..config },
        &dir,
    ));
    assert!(fresh.contains("in use"), "{fresh}");
    // Once the holder is gone (here dropped; a killed process releases it the same way),
    // the run resumes.
    drop(running);
    let mut resumed = Evolution::resume(Othello::start(), &dir, None).unwrap();
    resumed.run(&Quiet).unwrap();
    assert_eq!(resumed.state().generation, 4);
    drop(resumed);
    std::fs::remove_dir_all(dir).unwrap();
}

/// `start_from`: every learner's generation 0 is the champion's network (each founder, or
/// CMA-ES's first mean), and the run learns on from it; a champion of another network or
/// game is refused by name before the run directory is touched.
#[test]
fn a_run_can_start_from_a_champion_of_its_own_network() {
    use evoboard::champion::Champion;
    let source = temp_dir("start-source");
    let paper = EvolveConfig {
        generations: 1,
        ..small(Preset::PAPER)
    };
    run(&paper, &source, 2);
    let path = source.join("champion.evo");
    let champion = Champion::load_for(&path, &Othello::start()).unwrap();
    let from = |preset: Preset| EvolveConfig {
        start_from: Some(path.display().to_string()),
        td_games: if preset == Preset::TD { 20 } else { 0 },
        population: if preset == Preset::TD { 1 } else { 6 },
        ..small(preset)
    };
    for preset in [Preset::PAPER, Preset::MODERN, Preset::TD, Preset::CMAES] {
        let dir = temp_dir(&format!("start-{preset}"));
        let evolution = Evolution::create(Othello::start(), from(preset), &dir).unwrap();
        let state = evolution.state();
        match &state.learner_state.read::<SepCma>().ok() {
            Some(cma) => {
                assert_eq!(cma.mean_genes(), champion.genes);
                assert!(state.population.iter().all(|i| i.genes != champion.genes));
            }
            None => assert!(
                state.population.iter().all(|i| i.genes == champion.genes),
                "{preset}"
            ),
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
    // The run goes on from there, and the same settings make the same run.
    let config = from(Preset::MODERN);
    let (one, two) = (temp_dir("start-run1"), temp_dir("start-run2"));
    assert_eq!(run(&config, &one, 1), run(&config, &two, 2));
    let random_start = run(&small(Preset::MODERN), &two.with_extension("random"), 2);
    assert_ne!(
        run(&config, &two.with_extension("again"), 2).0,
        random_start.0
    );
    // Another network (8 hidden units, not 9) or another game's champion is refused.
    let other = temp_dir("start-other");
    let wider = EvolveConfig {
        hidden: vec![9],
        ..from(Preset::MODERN)
    };
    let error = Evolution::create(Othello::start(), wider, &other)
        .err()
        .unwrap()
        .to_string();
    assert!(
        error.contains("start_from") && error.contains("its network is mlp 64-8-1"),
        "{error}"
    );
    let kalah = Evolution::create(Kalah::game(6, 4, false), from(Preset::MODERN), &other)
        .err()
        .unwrap()
        .to_string();
    assert!(kalah.contains("champion.evo"), "{kalah}");
    assert!(!other.exists());
    for dir in [
        source,
        one,
        two.clone(),
        two.with_extension("random"),
        two.with_extension("again"),
    ] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}
