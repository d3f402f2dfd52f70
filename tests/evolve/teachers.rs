//! Teachers: a teacher network (static or searching), exact late values, search teachers,
//! and the teacher settings refused.

use evoboard::Othello;
use evoboard::evolve::Evolution;
use evoboard::evolve::config::{EvolveConfig, Preset};
use evoboard::games::mancala::Kalah;
use evoboard::rng::rng_for;

use crate::common::{random_straight3, temp_dir};

#[test]
fn a_learner_with_a_teacher_takes_on_the_teachers_values() {
    use evoboard::eval::neural::NeuralInput;
    use evoboard::learn::td::{GameSetup, Opponent, TdSettings, train};
    let start = Othello::start();
    let architecture = evoboard::nn::Architecture::NTuple(start.tuple_set("straight2").unwrap());
    let mut rng = rng_for(4, &[]);
    let teacher_genes: Vec<f32> = (0..architecture.genes())
        .map(|_| rand::RngExt::random_range(&mut rng, -0.03..0.03f32))
        .collect();
    let teacher = start.network(&architecture, teacher_genes);
    // Held-out positions: random openings of 10 to 30 plies from their own seed.
    let positions: Vec<Othello> = (0..200)
        .filter_map(|i| {
            let plies = 10 + (i % 21) as u32;
            evoboard::arena::random_opening(&start, plies, &mut rng_for(99, &[i]))
        })
        .collect();
    let error = |student: &evoboard::nn::Network| {
        positions
            .iter()
            .map(|p| (p.value_for_mover(student) - p.value_for_mover(&teacher)).powi(2))
            .sum::<f32>()
            / positions.len() as f32
    };
    let mut student = start.network(&architecture, vec![0.0; architecture.genes()]);
    let before = error(&student);
    let setup = |k: usize| GameSetup {
        start,
        opponent: Opponent::SelfPlay,
        rng: rng_for(5, &[k as u64]),
    };
    // 256 placements read a straight2 position, so one step moves its score by 256·α·error:
    // α must stay well below 2/256.
    let settings = TdSettings {
        learning_rate: 0.002,
        exploration: 0.3,
        learn_exploring: false,
        batch: 16,
        symmetries: false,
        play_depth: 1,
        ranking: 0.0,
        lambda: 0.0,
    };
    let teaching = evoboard::learn::teacher::NetworkTeacher::new(teacher.clone(), 0, 0);
    train(&mut student, 2000, &setup, settings, Some(&teaching)).expect("no partner to forfeit");
    let after = error(&student);
    assert!(after < before / 10.0, "error {before} → {after}");
    // A teacher needs learning games to teach in.
    let no_games = EvolveConfig {
        teacher: Some("teacher.evo".to_string()),
        ..EvolveConfig::new(Preset::MODERN)
    };
    assert!(no_games.validate().is_err());
}

/// Every position of `games` random Kalah games from `start`, from seeds of `stream`.
fn random_kalah_positions(
    start: &evoboard::games::mancala::Mancala<Kalah>,
    games: u64,
    stream: u64,
) -> Vec<evoboard::games::mancala::Mancala<Kalah>> {
    use evoboard::Game;
    let mut positions = Vec::new();
    for seed in 0..games {
        let mut rng = rng_for(stream, &[seed]);
        let mut game = start.clone();
        let mut moves = evoboard::MoveList::new();
        while game.outcome().is_none() {
            positions.push(game.clone());
            game.legal_moves(&mut moves);
            game.play_unchecked(moves[rand::RngExt::random_range(&mut rng, 0..moves.len())]);
        }
    }
    positions
}

/// A `triples+stores` network for Kalah(4,3) learnt from zero weights in `games` self-play
/// games from the start (game k drawn from `(seed, k)`; α = 0.002, ε = `exploration`),
/// taught by `teacher` if any.
fn kalah_learner(
    games: usize,
    seed: u64,
    exploration: f64,
    teacher: Option<
        &dyn evoboard::learn::teacher::Teacher<evoboard::games::mancala::Mancala<Kalah>>,
    >,
) -> evoboard::nn::Network {
    use evoboard::eval::neural::NeuralInput;
    use evoboard::learn::td::{GameSetup, Opponent, TdSettings, train};
    let start = Kalah::game(4, 3, false);
    let architecture =
        evoboard::nn::Architecture::NTuple(start.tuple_set("triples+stores").unwrap());
    let mut network = start.network(&architecture, vec![0.0; architecture.genes()]);
    let setup = |k: usize| GameSetup {
        start: start.clone(),
        opponent: Opponent::SelfPlay,
        rng: rng_for(seed, &[k as u64]),
    };
    let settings = TdSettings {
        learning_rate: 0.002,
        exploration,
        learn_exploring: false,
        batch: 16,
        symmetries: false,
        play_depth: 1,
        ranking: 0.0,
        lambda: 0.0,
    };
    train(&mut network, games, &setup, settings, teacher).expect("no partner to forfeit");
    network
}

#[test]
fn a_learner_taught_exact_late_values_learns_the_results_of_perfect_play() {
    use evoboard::eval::neural::NeuralInput;
    use evoboard::learn::teacher::ExactLateTeacher;
    let start = Kalah::game(4, 3, false);
    let teacher = ExactLateTeacher::for_game(&start, 10).unwrap();
    let architecture =
        evoboard::nn::Architecture::NTuple(start.tuple_set("triples+stores").unwrap());
    // The exact teacher does not look at the learner.
    let unused = start.network(&architecture, vec![0.0; architecture.genes()]);
    // Held-out late positions, from random games of their own seeds, with their results.
    let late: Vec<_> = random_kalah_positions(&start, 300, 77)
        .into_iter()
        .filter_map(|p| {
            teacher
                .value_for_mover(&p, &unused)
                .map(|result| (p, result))
        })
        .collect();
    assert!(late.len() > 500, "{} late positions", late.len());
    let error = |student: &evoboard::nn::Network| {
        late.iter()
            .map(|(p, result)| (p.value_for_mover(student) - result).powi(2))
            .sum::<f32>()
            / late.len() as f32
    };
    let learnt = |teacher: Option<&dyn evoboard::learn::teacher::Teacher<_>>| {
        error(&kalah_learner(3000, 5, 0.3, teacher))
    };
    let untaught = learnt(None);
    let taught = learnt(Some(teacher.as_ref()));
    let untrained = error(&unused);
    assert!(
        taught < untrained * 0.7 && taught < untaught * 0.8,
        "error untrained {untrained}, self-taught {untaught}, taught {taught}"
    );
}

#[test]
fn a_one_ply_search_teaches_what_td_learns_alone_and_a_deeper_one_teaches_more() {
    use evoboard::learn::teacher::SearchTeacher;
    let learnt = |teacher: Option<&dyn evoboard::learn::teacher::Teacher<_>>| {
        kalah_learner(500, 6, 0.2, teacher).genes().to_vec()
    };
    let alone = learnt(None);
    // TD(0)'s target is the value of the best move: a one-ply search's value.
    let one_ply = learnt(Some(&SearchTeacher { depth: 1 }));
    let largest_gap = alone
        .iter()
        .zip(&one_ply)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(largest_gap < 1e-4, "weights differ by {largest_gap}");
    assert!(alone.iter().any(|&w| w != 0.0));
    // Three plies see further: other targets, other weights.
    let three_ply = learnt(Some(&SearchTeacher { depth: 3 }));
    let moved = alone
        .iter()
        .zip(&three_ply)
        .filter(|(a, b)| (*a - *b).abs() > 1e-3)
        .count();
    assert!(moved > 10, "{moved} weights moved");
}

#[test]
fn a_teacher_network_searching_one_ply_teaches_the_value_of_the_best_move() {
    use evoboard::eval::neural::NeuralInput;
    use evoboard::games::{Game, MoveList, Notation};
    use evoboard::learn::teacher::{NetworkTeacher, Teacher};
    let network = random_straight3(21);
    let learner = random_straight3(22);
    let static_teacher = NetworkTeacher::new(network.clone(), 0, 0);
    let searching = NetworkTeacher::new(network.clone(), 0, 1);
    let start = Othello::start();
    let mut checked = 0;
    for i in 0..60u64 {
        let plies = 5 + (i % 45) as u32;
        let Some(position) = evoboard::arena::random_opening(&start, plies, &mut rng_for(31, &[i]))
        else {
            continue;
        };
        let static_value = static_teacher.value_for_mover(&position, &learner).unwrap();
        assert_eq!(static_value, position.value_for_mover(&network));
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let children: Vec<Othello> = moves.iter().map(|&mv| position.play(mv).unwrap()).collect();
        // Only where every move hands the turn over and leaves the game running, so that
        // each child's value for its mover is the negated value for ours.
        let plain = children
            .iter()
            .all(|child| child.outcome().is_none() && child.to_move() != position.to_move());
        if !plain {
            continue;
        }
        let best = children
            .iter()
            .map(|child| -child.value_for_mover(&network))
            .fold(f32::MIN, f32::max);
        let taught = searching.value_for_mover(&position, &learner).unwrap();
        assert!(
            (taught - best).abs() < 1e-5,
            "taught {taught}, best move {best}"
        );
        checked += 1;
    }
    assert!(checked > 40, "{checked} positions checked");
}

#[test]
fn a_teacher_depth_needs_a_teacher_file_and_a_depth_in_range() {
    let refusal = |teacher: Option<&str>, depth: u32| {
        EvolveConfig {
            teacher: teacher.map(str::to_string),
            teacher_depth: depth,
            td_games: 10,
            ..EvolveConfig::new(Preset::TD)
        }
        .validate()
        .err()
        .map(|error| error.to_string())
    };
    assert_eq!(refusal(Some("teacher.evo"), 0), None);
    assert_eq!(refusal(Some("teacher.evo"), 8), None);
    assert!(
        refusal(Some("teacher.evo"), 9)
            .unwrap()
            .contains("teacher_depth takes a whole number from 0 to 8, not 9")
    );
    for teacher in [None, Some("search:2")] {
        let error = refusal(teacher, 2).unwrap();
        assert!(
            error.contains("teacher_depth needs a teacher champion file"),
            "{error}"
        );
    }
}

#[test]
fn a_teacher_ranking_needs_a_teacher_file_and_a_temperature_in_range() {
    let refusal = |teacher: Option<&str>, temperature: f32| {
        EvolveConfig {
            teacher: teacher.map(str::to_string),
            teacher_ranking: temperature,
            td_games: 10,
            ..EvolveConfig::new(Preset::TD)
        }
        .validate()
        .err()
        .map(|error| error.to_string())
    };
    assert_eq!(refusal(Some("teacher.evo"), 0.1), None);
    assert_eq!(refusal(Some("teacher.evo"), 1.0), None);
    for temperature in [-0.1, 1.5, f32::NAN] {
        let error = refusal(Some("teacher.evo"), temperature).unwrap();
        assert!(
            error.contains("teacher_ranking takes a number from 0 to 1"),
            "{error}"
        );
    }
    for teacher in [None, Some("search:2"), Some("exact:10")] {
        let error = refusal(teacher, 0.1).unwrap();
        assert!(
            error.contains("teacher_ranking needs a teacher champion file"),
            "{error}"
        );
    }
}

#[test]
fn exact_teachers_are_named_right_and_offered_where_a_database_exists() {
    let message = |teacher: &str, othello: bool| {
        let config = EvolveConfig {
            teacher: Some(teacher.to_string()),
            generations: 1,
            td_games: 10,
            ..EvolveConfig::new(Preset::TD)
        };
        let dir = temp_dir("exact-teacher");
        let error = if othello {
            Evolution::create(Othello::start(), config, &dir).err()
        } else {
            Evolution::create(Kalah::game(4, 3, false), config, &dir).err()
        };
        let _ = std::fs::remove_dir_all(&dir);
        error.expect("the teacher was refused").to_string()
    };
    assert!(message("exact:12", true).contains("only Kalah"));
    for seeds in ["many", "40", "1", ""] {
        let error = message(&format!("exact:{seeds}"), false);
        assert!(
            error.contains("exact:SEEDS takes a whole number from 2 to 22"),
            "{error}"
        );
        assert!(error.contains(&format!("'{seeds}'")), "{error}");
    }
    for depth in ["deep", "0", "9"] {
        let error = message(&format!("search:{depth}"), true);
        assert!(
            error.contains("search:DEPTH takes a whole number from 1 to 8"),
            "{error}"
        );
        assert!(error.contains(&format!("'{depth}'")), "{error}");
    }
}
