//! Selective search by Multi-ProbCut: the calibration fits lines a search can use, the
//! same whatever the thread count; a band no value can leave changes nothing; a real one
//! cuts nodes; and a calibration file is read only if it is sound and made for the
//! champion beside it.

use std::path::PathBuf;

use evoboard::arena::{AgentSpec, SpecError};
use evoboard::eval::NamedEvaluators;
use evoboard::persist::sha256_hex;
use evoboard::search::probcut::calibration::{FORMAT, MIN_SAMPLES, STAGE_WIDTH};
use evoboard::search::probcut::{
    Calibration, CalibrationError, Fit, MIN_DEPTH, ProbCut, calibrate, calibration_path,
    sample_positions, shallow_depth,
};
use evoboard::search::search_pruned;
use evoboard::{Game, Notation, Othello};

/// Positions of the heuristic's own games and their calibration to depth 5 (cheap).
fn heuristic_calibration(threads: usize) -> (Vec<Othello>, Vec<Fit>) {
    let evaluator = Othello::evaluator("heuristic").unwrap();
    let (positions, games) = sample_positions(&Othello::start(), evaluator.as_ref(), 400, 5);
    assert_eq!(positions.len(), 400);
    assert!(
        games >= 400 / 16,
        "{games} games give at most 16 positions each"
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let fits = pool.install(|| calibrate(&positions, 5, evaluator.as_ref(), &|| {}));
    (positions, fits)
}

fn calibration_of(fits: Vec<Fit>) -> Calibration {
    Calibration {
        format: FORMAT,
        game: "othello".into(),
        champion_sha256: String::new(),
        positions: 400,
        games: 0,
        seed: 5,
        deepest: 5,
        stage_width: STAGE_WIDTH,
        fits,
    }
}

#[test]
fn the_shallow_depth_is_about_half_with_the_same_parity() {
    for deep in 2..=30 {
        let shallow = shallow_depth(deep);
        assert_eq!(shallow % 2, deep % 2, "{deep} → {shallow}");
        assert!(
            shallow <= deep / 2 && shallow + 2 > deep / 2,
            "{deep} → {shallow}"
        );
    }
    assert_eq!(
        (3..=10).map(shallow_depth).collect::<Vec<_>>(),
        [1, 2, 1, 2, 3, 4, 3, 4]
    );
}

#[test]
fn the_calibration_fits_rising_lines_whatever_the_thread_count() {
    let (_, one) = heuristic_calibration(1);
    let (_, two) = heuristic_calibration(2);
    assert_eq!(one, two);
    // Every stage group with enough positions has a line for each deep depth.
    assert!(one.len() >= 3 * (5 - MIN_DEPTH as usize + 1), "{one:?}");
    for fit in &one {
        assert!(fit.samples as usize >= MIN_SAMPLES);
        assert_eq!(fit.shallow, shallow_depth(fit.deep));
        assert!(fit.slope > 0.0 && fit.sigma > 0.0, "{fit:?}");
    }
    // In the middle game, where the heuristic means the same thing at every depth, a
    // deeper search's value follows a shallower one's closely: slopes near one.
    for fit in one.iter().filter(|fit| (2..=4).contains(&fit.stage)) {
        assert!(fit.slope > 0.7 && fit.slope < 1.4, "{fit:?}");
    }
    calibration_of(one).check().unwrap();
}

#[test]
fn a_band_no_value_can_leave_changes_nothing_and_a_real_one_cuts_nodes() {
    let (positions, fits) = heuristic_calibration(2);
    let evaluator = Othello::evaluator("heuristic").unwrap();
    let calibration = calibration_of(fits.clone());
    let wide = calibration_of(
        fits.into_iter()
            .map(|fit| Fit {
                sigma: 90_000.0,
                ..fit
            })
            .collect(),
    );
    let tight = ProbCut::new(&calibration, 90.0);
    let never = ProbCut::new(&wide, 99.9);
    let (mut full_nodes, mut cut_nodes, mut same_moves) = (0, 0, 0);
    let searched: Vec<&Othello> = positions
        .iter()
        .filter(|game| game.stage() > 20)
        .step_by(8)
        .collect();
    for game in &searched {
        let full = search_pruned(*game, 5, evaluator.as_ref(), None, None);
        let unchanged = search_pruned(*game, 5, evaluator.as_ref(), None, Some(&never));
        assert_eq!(full, unchanged, "{}", game.to_position_string());
        let selective = search_pruned(*game, 5, evaluator.as_ref(), None, Some(&tight));
        full_nodes += full.nodes;
        cut_nodes += selective.nodes;
        same_moves += usize::from(selective.best == full.best);
    }
    assert!(
        (cut_nodes as f64) < 0.9 * full_nodes as f64,
        "{cut_nodes} nodes selective, {full_nodes} full width"
    );
    // Cuts at 90% confidence mostly keep the full-width choice.
    assert!(
        same_moves * 10 >= searched.len() * 7,
        "{same_moves} of {} moves the same",
        searched.len()
    );
}

/// A copy of the shipped Othello champion in a fresh directory, with a calibration of
/// `fits` beside it for its bytes.
fn calibrated_champion(name: &str, fits: Vec<Fit>) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evoboard-probcut-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let champion = dir.join("champion.evo");
    std::fs::copy("populations/othello/champion.evo", &champion).unwrap();
    let calibration = Calibration {
        champion_sha256: sha256_hex(&std::fs::read(&champion).unwrap()),
        ..calibration_of(fits)
    };
    calibration.save(&calibration_path(&champion)).unwrap();
    champion
}

fn a_fit() -> Fit {
    Fit {
        stage: 3,
        deep: 4,
        shallow: 2,
        slope: 1.05,
        intercept: 0.01,
        sigma: 0.1,
        samples: 100,
    }
}

fn spec_error(spec: &str) -> String {
    let spec: AgentSpec = spec.parse().unwrap();
    match spec.build(&Othello::start()) {
        Ok(_) => panic!("{spec} was built"),
        Err(error) => evoboard::errors::chain(&error),
    }
}

#[test]
fn a_calibrated_champion_searches_selectively_and_a_bad_calibration_is_refused() {
    let champion = calibrated_champion("good", vec![a_fit()]);
    let spec = format!("champion:{}:4%95", champion.display());
    let parsed: AgentSpec = spec.parse().unwrap();
    assert_eq!(parsed.selectivity, Some(95.0));
    let agent = parsed.searcher(&Othello::start()).unwrap().unwrap();
    let probcut = agent.probcut.expect("the spec asks for selective search");
    assert_eq!(probcut.confidence(), 95.0);
    assert!(probcut.cut(35, 4).is_some() && probcut.cut(45, 4).is_none());

    // Another champion's calibration: the hash differs.
    let other = calibrated_champion("other", vec![a_fit()]);
    let mut bytes = std::fs::read(&other).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&other, bytes).unwrap();
    let calibration = Calibration::load_for(&other);
    assert!(
        matches!(calibration, Err(CalibrationError::OtherChampion { .. })),
        "{calibration:?}"
    );

    // Numbers a search cannot use, each named.
    for (fit, says) in [
        (
            Fit {
                slope: -1.0,
                ..a_fit()
            },
            "slope -1 is not in (0, 1000)",
        ),
        (
            Fit {
                sigma: 0.0,
                ..a_fit()
            },
            "sigma 0 is not positive",
        ),
        (
            Fit {
                shallow: 3,
                ..a_fit()
            },
            "shallow depth 3, not 2",
        ),
        (
            Fit {
                stage: 100_000,
                ..a_fit()
            },
            "stage group above 255",
        ),
    ] {
        let champion = calibrated_champion("bad", vec![fit]);
        let error = spec_error(&format!("champion:{}%95", champion.display()));
        assert!(error.contains(says), "{error}");
    }

    // No calibration at all, a file that is not JSON, and a twice-given fit.
    let bare = calibrated_champion("bare", vec![]);
    std::fs::remove_file(calibration_path(&bare)).unwrap();
    let error = spec_error(&format!("champion:{}%95", bare.display()));
    assert!(
        error.contains("cannot read the selective search's calibration"),
        "{error}"
    );
    std::fs::write(calibration_path(&bare), "{\"format\": 1").unwrap();
    let error = spec_error(&format!("champion:{}%95", bare.display()));
    assert!(
        error.contains("is not a selective search's calibration"),
        "{error}"
    );
    // A link in the calibration's place is not followed, wherever it leads.
    let linked = calibrated_champion("linked", vec![]);
    std::fs::remove_file(calibration_path(&linked)).unwrap();
    std::os::unix::fs::symlink(calibration_path(&champion), calibration_path(&linked)).unwrap();
    let error = spec_error(&format!("champion:{}%95", linked.display()));
    assert!(error.contains("a symbolic link"), "{error}");
    let twice = calibrated_champion("twice", vec![a_fit(), a_fit()]);
    let error = spec_error(&format!("champion:{}%95", twice.display()));
    assert!(error.contains("given twice"), "{error}");
}

#[test]
fn only_a_champion_takes_a_confidence_and_only_a_sensible_one() {
    let refused = |spec: &str| match spec.parse::<AgentSpec>() {
        Err(SpecError::Malformed { reason, .. }) => reason,
        other => panic!("{spec}: {other:?}"),
    };
    assert!(refused("heuristic:4%95").contains("needs a calibrated champion"));
    assert!(refused("champion:x.evo%50").contains("from 60 to 99.9"));
    assert!(refused("champion:x.evo%100").contains("from 60 to 99.9"));
    // The suffix sits before the time limit and the random-move rate.
    let spec: AgentSpec = "champion:x.evo:30%87~0.5@0.1".parse().unwrap();
    assert_eq!(
        (spec.selectivity, spec.move_time, spec.epsilon),
        (Some(87.0), Some(0.5), Some(0.1))
    );
    // A path of its own with % in it stays a path.
    let spec: AgentSpec = "champion:dir%a/x.evo".parse().unwrap();
    assert_eq!(spec.selectivity, None);
}
