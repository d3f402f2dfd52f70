//! N-tuple networks and the learning hooks: published sizes, symmetry, incremental
//! evaluation, gradient steps, and champion files of every family.

use std::path::Path;

use rand::RngExt;

use evoboard::arena::{AgentSpec, History, random_opening};
use evoboard::champion::Champion;
use evoboard::eval::Evaluator;
use evoboard::eval::neural::{NeuralEvaluator, NeuralInput};
use evoboard::eval::othello_tuples::symmetries;
use evoboard::games::othello::Othello;
use evoboard::games::{Game, MoveList, Notation, Player};
use evoboard::nn::ntuple::{IndexCache, MAX_CELLS, TupleError};
use evoboard::nn::{Architecture, Mlp, Network, Topology, TupleSpec, nguyen_widrow};
use evoboard::rng::{GameRng, rng_for};
use evoboard::search::{plain_negamax, search};

/// A network of the named set with random weights, small enough that values do not
/// saturate at ±1.
fn othello_network(set: &str, rng: &mut GameRng) -> Network {
    let start = Othello::start();
    let architecture = Architecture::NTuple(start.tuple_set(set).expect("a known set"));
    let genes = (0..architecture.genes())
        .map(|_| rng.random_range(-0.02..0.02f32))
        .collect();
    start.network(&architecture, genes)
}

/// Positions from random play, finished ones excluded.
fn positions(count: usize, rng: &mut GameRng) -> Vec<Othello> {
    (0..count)
        .filter_map(|k| random_opening(&Othello::start(), 4 + (k % 50) as u32, rng))
        .collect()
}

/// `game` with every square moved by `map`.
fn transformed(game: &Othello, map: &[u8]) -> Othello {
    let image = |bits: u64| {
        (0..64)
            .filter(|&s| bits >> s & 1 == 1)
            .fold(0u64, |acc, s| acc | 1 << map[s])
    };
    Othello::from_discs(
        image(game.discs(Player::First)),
        image(game.discs(Player::Second)),
        game.to_move(),
    )
    .expect("disjoint")
}

#[test]
fn tuple_sets_have_their_published_sizes() {
    let start = Othello::start();
    let genes = |set: &str| start.tuple_set(set).expect("known").genes();
    // Jaśkowski (2014): all straight 2-tuples, 288 weights; Jaśkowski & Szubert (2016):
    // all straight 3- and 4-tuples, 648 and 1,701; with the 2×2 squares, 2,511.
    assert_eq!(genes("straight2"), 288);
    assert_eq!(genes("straight3"), 648);
    assert_eq!(genes("straight4"), 1701);
    assert_eq!(genes("squares2"), 810);
    assert_eq!(genes("straight4-squares2"), 2511);
    // Buro's Logistello patterns: 3^4 + … + 3^8 + 3 · 3^8 + 3^10 · 2 + 3^9.
    assert_eq!(genes("logistello"), 167_265);
    // Disc counts 0–64 and move counts 0–33 of both sides.
    assert_eq!(
        genes("logistello+discs+mobility"),
        167_265 + 2 * 65 + 2 * 34
    );
    assert_eq!(genes("straight2+mobility"), 288 + 2 * 34);
    // The wipe-out threat: 0–3 discs left, or four or more.
    assert_eq!(
        genes("logistello+discs+mobility+wipeout"),
        167_265 + 2 * 65 + 2 * 34 + 5
    );
    for bad in [
        "nonsense",
        "straight2+",
        "straight2+stability",
        "straight2+discs+discs",
        "straight2+wipeout+wipeout",
    ] {
        assert!(start.tuple_set(bad).is_none(), "{bad}");
    }
}

#[test]
fn values_are_invariant_under_the_board_symmetries() {
    let mut rng = rng_for(11, &[]);
    for set in ["logistello", "straight2", "squares2+discs+mobility"] {
        let evaluator = NeuralEvaluator::new(othello_network(set, &mut rng));
        for game in positions(60, &mut rng) {
            let value = evaluator.evaluate(&game, game.to_move());
            for map in symmetries() {
                let image = evaluator.evaluate(&transformed(&game, &map), game.to_move());
                assert!((value - image).abs() < 1e-5, "{set}: {value} vs {image}");
            }
        }
    }
}

#[test]
fn an_ntuple_evaluator_is_exactly_antisymmetric() {
    let mut rng = rng_for(12, &[]);
    let evaluator = NeuralEvaluator::new(othello_network("straight3", &mut rng));
    for game in positions(100, &mut rng) {
        let mine = evaluator.evaluate(&game, Player::First);
        assert_eq!(mine, -evaluator.evaluate(&game, Player::Second));
    }
}

/// Every position of `games` random games, in the order they were played.
fn games_in_order(games: usize, rng: &mut GameRng) -> Vec<Othello> {
    let mut played = Vec::new();
    let mut moves = MoveList::new();
    for _ in 0..games {
        let mut game = Othello::start();
        while game.outcome().is_none() {
            played.push(game);
            game.legal_moves(&mut moves);
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
    }
    played
}

#[test]
fn incremental_child_values_equal_full_evaluations() {
    let mut rng = rng_for(13, &[]);
    let network = othello_network("logistello", &mut rng);
    let evaluator = NeuralEvaluator::new(network.clone());
    let mut moves = MoveList::new();
    // One cache through whole games (boards a move or two apart, passes included) and on
    // through unrelated positions (boards far apart).
    let mut cache = IndexCache::default();
    let mut sequence = games_in_order(3, &mut rng);
    sequence.extend(positions(80, &mut rng));
    for game in sequence {
        game.legal_moves(&mut moves);
        let children: Vec<Othello> = moves
            .iter()
            .map(|&mv| game.play(mv).expect("legal"))
            .collect();
        let mover = game.to_move();
        let scores = game.scores_after(&network, &children, mover, &mut cache);
        for (child, score) in children.iter().zip(scores) {
            let expected = match child.outcome() {
                Some(outcome) => network.result_score(outcome.sign_for(mover)),
                None => evaluator.evaluate(child, mover),
            };
            assert_eq!(score, expected, "{}", child.to_position_string());
        }
    }
}

#[test]
fn a_positions_children_valued_at_once_get_exactly_their_own_values() {
    let mut rng = rng_for(19, &[]);
    // Global features too (move counts, the wipe-out threat), and both families.
    let networks = [
        othello_network("logistello+discs+mobility+wipeout", &mut rng),
        {
            let topology = Topology::new(&[64, 8, 1]).expect("a valid topology");
            Network::Mlp(Mlp::new(
                topology.clone(),
                nguyen_widrow(&topology, &mut rng),
            ))
        },
    ];
    let mut moves = MoveList::new();
    // Whole games reach passes and finished children; the positions, varied middles.
    let mut sequence = games_in_order(2, &mut rng);
    sequence.extend(positions(60, &mut rng));
    for network in networks {
        let evaluator = NeuralEvaluator::new(network);
        for game in &sequence {
            game.legal_moves(&mut moves);
            let children: Vec<Othello> = moves
                .iter()
                .map(|&mv| game.play(mv).expect("legal"))
                .collect();
            // The mover's view (move ordering) and each child's own (the last ply).
            let views: [Vec<Player>; 2] = [
                children.iter().map(|_| game.to_move()).collect(),
                children.iter().map(Othello::to_move).collect(),
            ];
            for perspectives in views {
                let values = evaluator.evaluate_children(game, &children, &perspectives);
                for ((child, &perspective), value) in children.iter().zip(&perspectives).zip(values)
                {
                    assert_eq!(value, evaluator.evaluate(child, perspective));
                }
            }
            // A one-ply search values the children at once: the value is the plain
            // negamax's, and the move the first of the best.
            let found = search(game, 1, &evaluator);
            assert_eq!(found.value, plain_negamax(game, 1, &evaluator));
            let first_best = moves.iter().copied().find(|&mv| {
                let child = game.play(mv).expect("legal");
                let for_child = plain_negamax(&child, 0, &evaluator);
                let for_mover = if child.to_move() == game.to_move() {
                    for_child
                } else {
                    -for_child
                };
                for_mover == found.value
            });
            assert_eq!(found.best, first_best, "{}", game.to_position_string());
            assert_eq!(found.nodes, 1 + moves.len() as u64);
        }
    }
}

#[test]
fn a_game_indexed_through_the_cache_is_indexed_exactly() {
    let mut rng = rng_for(17, &[]);
    // One cache, its networks taking turns: a board indexed for one network's placements
    // is never moved on for the other's.
    let networks = ["logistello", "straight3", "logistello"].map(|set| {
        let Network::NTuple(ntuple) = othello_network(set, &mut rng) else {
            unreachable!("an n-tuple set")
        };
        ntuple
    });
    let mut cache = IndexCache::default();
    for (k, game) in games_in_order(3, &mut rng).into_iter().enumerate() {
        let ntuple = &networks[k / 7 % networks.len()];
        for perspective in Player::BOTH {
            let mut cells = [0u8; MAX_CELLS];
            game.read_cells(perspective, &mut cells);
            let fresh = ntuple.index_board(&cells);
            let cached = cache.index(ntuple, perspective.index(), &cells);
            assert_eq!(cached.indices(), fresh.indices());
        }
    }
}

#[test]
fn cells_are_read_from_the_perspective_given() {
    let mut rng = rng_for(14, &[]);
    for game in positions(50, &mut rng) {
        for perspective in Player::BOTH {
            let mut cells = [9u8; MAX_CELLS];
            game.read_cells(perspective, &mut cells);
            let (own, opp) = (game.discs(perspective), game.discs(perspective.opponent()));
            for (square, &cell) in cells.iter().enumerate() {
                let expected = (own >> square & 1) as u8 + 2 * (opp >> square & 1) as u8;
                assert_eq!(cell, expected, "square {square}");
            }
        }
    }
}

#[test]
fn a_learning_step_moves_the_value_towards_its_target() {
    let mut rng = rng_for(15, &[]);
    for game in positions(20, &mut rng) {
        let mut network = othello_network("straight4", &mut rng);
        let before = game.value_for_mover(&network);
        let target = if before > 0.0 { -1.0 } else { 1.0 };
        let returned = game.learn(&mut network, target, 0.001, &mut IndexCache::default());
        assert_eq!(returned, before);
        let after = game.value_for_mover(&network);
        assert!((after - target).abs() < (before - target).abs());
    }
}

#[test]
fn learning_a_game_in_order_through_one_cache_changes_nothing() {
    let mut rng = rng_for(18, &[]);
    let mut warm = othello_network("logistello+discs+mobility", &mut rng);
    let mut cold = warm.clone();
    let mut cache = IndexCache::default();
    for (k, game) in games_in_order(2, &mut rng).iter().enumerate() {
        let target = if k % 3 == 0 { 1.0 } else { -0.5 };
        let through_cache = game.learn(&mut warm, target, 0.01, &mut cache);
        let afresh = game.learn(&mut cold, target, 0.01, &mut IndexCache::default());
        assert_eq!(through_cache, afresh);
    }
    assert_eq!(warm.genes(), cold.genes());
}

#[test]
fn the_mlp_gradient_matches_finite_differences() {
    let topology = Topology::new(&[6, 5, 3, 1]).unwrap();
    let genes = nguyen_widrow(&topology, &mut rng_for(16, &[]));
    let input = [0.5, -1.0, 0.0, 0.25, 1.0, -0.5];
    let base = Mlp::new(topology.clone(), genes.clone());
    let step = 1e-3f32;
    let mut stepped = base.clone();
    stepped.add_gradient(&input, |_| step);
    for g in 0..topology.genes() {
        let h = 1e-2f32;
        let mut plus = genes.clone();
        plus[g] += h;
        let mut minus = genes.clone();
        minus[g] -= h;
        let numeric = (Mlp::new(topology.clone(), plus).forward(&input)
            - Mlp::new(topology.clone(), minus).forward(&input))
            / (2.0 * h);
        let analytic = (stepped.genes()[g] - genes[g]) / step;
        assert!(
            (numeric - analytic).abs() < 2e-3,
            "gene {g}: {numeric} vs {analytic}"
        );
    }
    // The fast first-layer copy follows the chromosome.
    let rebuilt = Mlp::new(topology, stepped.genes().to_vec());
    assert_eq!(rebuilt.forward(&input), stepped.forward(&input));
}

#[test]
fn tuple_specs_that_do_not_fit_the_board_are_refused() {
    let spec = |tuples: Vec<Vec<u8>>| TupleSpec {
        name: "test".into(),
        states: 3,
        tuples,
        features: Vec::new(),
    };
    let offered = [("discs", 65)];
    assert_eq!(
        spec(vec![]).check(64, 3, 8, &offered),
        Err(TupleError::Empty)
    );
    assert_eq!(
        spec(vec![vec![0, 64]]).check(64, 3, 8, &offered),
        Err(TupleError::BadCell(0, 64, 64))
    );
    assert_eq!(
        spec(vec![vec![1, 2, 1]]).check(64, 3, 8, &offered),
        Err(TupleError::RepeatedCell(0, 1))
    );
    assert_eq!(
        spec(vec![(0..11).collect()]).check(64, 3, 8, &offered),
        Err(TupleError::BadLength(0, 11))
    );
    assert_eq!(
        spec(vec![vec![0]]).check(64, 4, 8, &offered),
        Err(TupleError::States {
            found: 3,
            expected: 4
        })
    );
    assert_eq!(
        spec(vec![vec![0, 1]; 200]).check(64, 3, 8, &offered),
        Err(TupleError::TooManyPlacements)
    );
    let nine_features = TupleSpec {
        features: vec![
            evoboard::nn::ntuple::GlobalFeature {
                name: "discs".into(),
                size: 65,
            };
            9
        ],
        ..spec(vec![vec![0, 1]])
    };
    assert_eq!(
        nine_features.check(64, 3, 8, &offered),
        Err(TupleError::TooManyFeatures(9))
    );
    assert_eq!(
        spec(vec![vec![0, 1], vec![2, 10, 18]]).check(64, 3, 8, &offered),
        Ok(())
    );
    let with_feature = |name: &str, size: u16| TupleSpec {
        features: vec![evoboard::nn::ntuple::GlobalFeature {
            name: name.into(),
            size,
        }],
        ..spec(vec![vec![0, 1]])
    };
    assert_eq!(with_feature("discs", 65).check(64, 3, 8, &offered), Ok(()));
    assert_eq!(
        with_feature("discs", 66).check(64, 3, 8, &offered),
        Err(TupleError::UnknownFeature("discs".into(), 66))
    );
    assert_eq!(
        with_feature("stability", 65).check(64, 3, 8, &offered),
        Err(TupleError::UnknownFeature("stability".into(), 65))
    );
}

#[test]
fn champions_of_either_family_round_trip_and_play() {
    let dir = std::env::temp_dir().join(format!("evoboard-ntuple-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("champion.evo");
    let mut rng = rng_for(17, &[]);
    let network = othello_network("straight3", &mut rng);
    let champion = Champion {
        architecture: network.architecture(),
        genes: network.genes().to_vec(),
        depth: 1,
        preset: "td".into(),
        seed: 17,
        generation: 3,
        fitness: 0.0,
        benchmark_win_rate: None,
        test_win_rate: Some(0.5),
    };
    champion.save(&path, "othello").unwrap();
    assert_eq!(
        Champion::load_for(&path, &Othello::start()).unwrap(),
        champion
    );
    let spec: AgentSpec = format!("champion:{}", path.display()).parse().unwrap();
    let start = Othello::start();
    let agent = spec.build(&start).unwrap();
    let mv = agent.choose(&start, History::at(&start), &mut rng).unwrap();
    assert!(start.play(mv).is_ok());
    // The same file is no Kalah player.
    let kalah = evoboard::games::mancala::Kalah::game(6, 4, false);
    assert!(spec.build(&kalah).is_err());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn champions_written_before_network_families_still_load_and_play() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/champion-format1-congklak.evo");
    let champion = Champion::load_for(&path, &evoboard::games::mancala::Congklak::game())
        .expect("a format-1 champion loads");
    assert_eq!(champion.architecture.family(), "mlp");
    assert_eq!(champion.genes.len(), champion.architecture.genes());
    let spec: AgentSpec = format!("champion:{}", path.display()).parse().unwrap();
    let start = evoboard::games::mancala::Congklak::game();
    let mv = spec
        .build(&start)
        .unwrap()
        .choose(&start, History::at(&start), &mut rng_for(1, &[]))
        .unwrap();
    assert!(start.play(mv).is_ok());
}

#[test]
fn the_wipeout_feature_is_the_fewest_discs_one_move_leaves_the_opponent() {
    let feature = |game: &Othello| {
        let spec = game.tuple_set("straight2+wipeout").unwrap();
        let network = game.network(&Architecture::NTuple(spec.clone()), vec![0.0; spec.genes()]);
        let Network::NTuple(ntuple) = network else {
            unreachable!()
        };
        game.read_board(&ntuple, game.to_move()).1[0]
    };
    // From the start, each of black's moves flips one of white's two discs.
    assert_eq!(feature(&Othello::start()), 1);
    // Black's f4 takes both white discs between c4 and f4.
    let wipe = Othello::from_position_string(&format!("{}XOO{} X", "-".repeat(26), "-".repeat(35)))
        .unwrap();
    assert_eq!(feature(&wipe), 0);
    // Against brute force on positions from random play: play every move and count.
    let mut rng = rng_for(11, &[]);
    let mut moves = MoveList::new();
    for game in positions(400, &mut rng) {
        let mover = game.to_move();
        game.legal_moves(&mut moves);
        let fewest = moves
            .iter()
            .filter_map(|&mv| {
                let mut child = game;
                child.play_unchecked(mv);
                let left = child.discs(mover.opponent()).count_ones();
                (child.discs(mover) != game.discs(mover)).then_some(left)
            })
            .min()
            .map_or(4, |left| left.min(4)) as u16;
        assert_eq!(feature(&game), fewest, "{}", game.to_position_string());
    }
}

#[test]
fn mancala_boards_are_read_as_capped_seed_counts_from_the_mover_side() {
    use evoboard::games::mancala::Kalah;
    let game = Kalah::game(6, 4, false);
    let position = Notation::from_position_string("20,0,1,2,3,4 5,6,7,8,9,0 3 1 N")
        .map(|g: evoboard::games::mancala::Mancala<Kalah>| g)
        .unwrap();
    let mut cells = [99u8; MAX_CELLS];
    position.read_cells(Player::Second, &mut cells);
    assert_eq!(&cells[..12], &[5, 6, 7, 8, 9, 0, 15, 0, 1, 2, 3, 4]);
    // Store difference 1 − 3 (shifted by 63), rows 35 and 30.
    let read = position.global_features(Player::Second, &[0, 1, 2]);
    assert_eq!(read.as_slice(), &[61, 35, 30]);
    // Sizes: 12 singles of 16, 10 + 6 pairs of 256, 8 triples of 4096, the store feature.
    let spec = game.tuple_set("triples+stores").unwrap();
    assert_eq!(spec.genes(), 12 * 16 + 16 * 256 + 8 * 4096 + 127);
    assert!(game.check_architecture(&Architecture::NTuple(spec)).is_ok());
    // The sets over pits anywhere on the board: 66 pairs and 220 triples of 12 pits.
    let sizes = |name: &str| {
        let spec = game.tuple_set(name).unwrap();
        (1..=3)
            .map(|len| spec.tuples.iter().filter(|t| t.len() == len).count())
            .collect::<Vec<_>>()
    };
    assert_eq!(sizes("all-pairs"), [12, 66, 0]);
    assert_eq!(sizes("all-pairs-triples"), [12, 66, 8]);
    assert_eq!(sizes("all-triples+stores"), [12, 66, 220]);
    let all = game.tuple_set("all-triples").unwrap();
    let mut distinct: Vec<Vec<u8>> = all.tuples.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), all.tuples.len());
    assert!(all.tuples.iter().all(|t| t.windows(2).all(|w| w[0] < w[1])));
    assert!(all.tuples.contains(&vec![0, 6, 11]));
    assert!(game.check_architecture(&Architecture::NTuple(all)).is_ok());
    assert!(game.tuple_set("logistello").is_none());
    // What the mover's moves do this turn: at the start, the third pit's four seeds end in
    // the store (another turn) and no move banks more than one seed.
    // The opponent, were it to move, could do the same; the whole turn banks two: the
    // third pit's seed, then one more past the store.
    let effects = |position: &evoboard::games::mancala::Mancala<Kalah>, player| {
        position.global_features(player, &[5, 6, 7, 8, 9]).to_vec()
    };
    assert_eq!(effects(&game, Player::First), [1, 1, 1, 1, 2]);
    // The side not to move is read as having no moves this turn.
    assert_eq!(effects(&game, Player::Second), [0, 0, 0, 0, 0]);
    // The first pit's seed lands in the empty second pit and captures the five facing it;
    // the last pit's seed ends in the store. North, were it to move, banks one seed at
    // most, and one of its moves (its last pit's) gives another turn. South's whole turn
    // banks seven: the last pit's seed, then the capture.
    let capture = Notation::from_position_string("1,0,1,1,1,1 1,1,1,1,5,1 0 0 S")
        .map(|g: evoboard::games::mancala::Mancala<Kalah>| g)
        .unwrap();
    assert_eq!(effects(&capture, Player::First), [6, 1, 1, 1, 7]);
    // The whole turn alone, and before the moves' effects, gives the same.
    assert_eq!(capture.global_features(Player::First, &[9]).to_vec(), [7]);
    assert_eq!(
        capture.global_features(Player::First, &[9, 5]).to_vec(),
        [7, 6]
    );
    let spec = game.tuple_set("all-pairs-triples+stores+moves").unwrap();
    assert_eq!(spec.features.len(), 3);
    let spec = game
        .tuple_set("all-pairs-triples+stores+moves+threats+turn")
        .unwrap();
    assert_eq!(spec.features.len(), 6);
    assert!(game.check_architecture(&Architecture::NTuple(spec)).is_ok());
    // An Othello set does not fit a Kalah board.
    let othello_set = Othello::start().tuple_set("straight2").unwrap();
    assert!(
        game.check_architecture(&Architecture::NTuple(othello_set))
            .is_err()
    );
}
