//! Kalah and Oware on the shared sowing engine: published perft, seed conservation, and a
//! hand-made position for every rule.

use evoboard::eval::Evaluator;
use evoboard::games::mancala::{Kalah, Mancala, OnBoard, Oware, Rules};
use evoboard::games::perft;
use evoboard::rng::rng_for;
use evoboard::search::{plain_negamax, search};
use evoboard::{Game, MoveList, Notation, Outcome, Player};
use rand::RngExt;

/// Oware/Abapa perft from the start, depths 1–10 (the Aalina engine's test data).
const OWARE_PERFT: [u64; 10] = [
    6, 36, 190, 1014, 5219, 27332, 139157, 711414, 3592872, 18137964,
];

#[test]
fn oware_perft_matches_published_counts() {
    let start = Oware::game();
    let deepest = if cfg!(debug_assertions) { 7 } else { 10 };
    for depth in 1..=deepest {
        assert_eq!(
            perft(&start, depth),
            OWARE_PERFT[depth as usize - 1],
            "depth {depth}"
        );
    }
}

/// Kalah(6,4) perft from the start, an extra turn counting as one ply. Recorded with this
/// engine and pinned; depth 2 checks by hand: 5 ordinary moves × 6 replies, plus pit 3
/// (last seed in the store) × 5 follow-ups = 35.
const KALAH_PERFT: [u64; 8] = [6, 35, 185, 942, 4690, 23233, 114430, 563055];

#[test]
fn kalah_perft_is_pinned() {
    let start = Kalah::game(6, 4, false);
    for depth in 1..=8 {
        assert_eq!(
            perft(&start, depth),
            KALAH_PERFT[depth as usize - 1],
            "depth {depth}"
        );
    }
}

/// Random playouts from each start; every position must hold the starting seeds, and its
/// position string must read back to the same position.
fn random_games<R: Rules>(start: &Mancala<R>, games: u64) -> usize {
    let total = start.board().total();
    let mut moves = MoveList::new();
    let mut finished = 0;
    for seed in 0..games {
        let mut rng = rng_for(seed, &[]);
        let mut game = start.clone();
        for _ in 0..1000 {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            assert_eq!(game.board().total(), total, "seeds appeared or vanished");
            let text = game.to_position_string();
            let reread: Mancala<R> = Mancala::from_position_string(&text).unwrap();
            assert_eq!(reread.to_position_string(), text);
        }
        if let Some(outcome) = game.outcome() {
            finished += 1;
            let [a, b] = game.score();
            assert_eq!((a + b) as u32, total, "a finished game banks every seed");
            assert_eq!(outcome, Outcome::from_score([a, b]));
        }
    }
    finished
}

#[test]
fn seeds_are_conserved_over_thousands_of_random_games() {
    assert_eq!(random_games(&Kalah::game(6, 4, false), 1500), 1500);
    assert_eq!(random_games(&Kalah::game(6, 6, true), 500), 500);
    assert_eq!(random_games(&Kalah::game(4, 3, false), 500), 500);
    assert_eq!(random_games(&Oware::game(), 2000), 2000);
}

/// Store difference: enough to compare pruned and unpruned search.
struct StoreDifference;

impl<R: Rules> Evaluator<Mancala<R>> for StoreDifference {
    fn evaluate(&self, game: &Mancala<R>, perspective: Player) -> f32 {
        let [a, b] = game.score();
        let diff = (a - b) as f32;
        if perspective == Player::First {
            diff
        } else {
            -diff
        }
    }
}

fn check_search_equivalence<R: Rules>(start: &Mancala<R>) {
    let mut moves = MoveList::new();
    for seed in 0..120 {
        let mut rng = rng_for(seed, &[7]);
        let mut game = start.clone();
        for _ in 0..rng.random_range(0..40) {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        for depth in 1..=4 {
            assert_eq!(
                search(&game, depth, &StoreDifference).value,
                plain_negamax(&game, depth, &StoreDifference),
                "{} depth {depth}",
                game.to_position_string()
            );
        }
    }
}

#[test]
fn alpha_beta_equals_plain_negamax_with_extra_turns_and_captures() {
    check_search_equivalence(&Kalah::game(6, 4, false));
    check_search_equivalence(&Oware::game());
}

#[test]
fn malformed_positions_and_moves_are_errors() {
    for bad in [
        "",
        "4,4,4 4,4 0 0 S",
        "4,4,4 4,4,4 0 0 X",
        "4,4,x 4,4,4 0 0 S",
        "4,4,4 4,4,4 0 S",
        "4,4,4 4,4,4 0 0 S sideways",
        "200,200,4 4,4,4 0 0 S",
        "1,1,1,1,1,1,1,1,1,1,1 1,1,1,1,1,1,1,1,1,1,1 0 0 S",
    ] {
        assert!(
            Mancala::<Kalah>::from_position_string(bad).is_err(),
            "accepted {bad:?}"
        );
    }
    assert!(
        Mancala::<Oware>::from_position_string("4,4,4,4,4,4 4,4,4,4,4,4 0 0 S empty-capture")
            .is_err()
    );
    let game = Kalah::game(6, 4, false);
    for bad in ["0", "7", "x", "", "-1"] {
        assert!(game.parse_move(bad).is_err(), "accepted move {bad:?}");
    }
    let empty_first_pit = kalah("0,4,4,4,4,4 4,4,4,4,4,4 0 0 S");
    assert!(
        empty_first_pit
            .play(empty_first_pit.parse_move("1").unwrap())
            .is_err()
    );
}

fn kalah(text: &str) -> Mancala<Kalah> {
    Mancala::from_position_string(text).expect("valid Kalah position")
}

fn oware(text: &str) -> Mancala<Oware> {
    Mancala::from_position_string(text).expect("valid Oware position")
}

fn play<R: Rules>(game: &Mancala<R>, pit: &str) -> Mancala<R> {
    game.play(game.parse_move(pit).unwrap()).unwrap()
}

fn legal<R: Rules>(game: &Mancala<R>) -> Vec<String> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves.iter().map(|&m| game.format_move(m)).collect()
}

#[test]
fn kalah_last_seed_in_own_store_gives_another_turn() {
    let after = play(&Kalah::game(6, 4, false), "3");
    assert_eq!(after.to_position_string(), "4,4,0,5,5,5 4,4,4,4,4,4 1 0 S");
    assert_eq!(after.to_move(), Player::First);
}

#[test]
fn kalah_capture_takes_own_seed_and_the_opposite_pit() {
    let after = play(&kalah("1,0,0,0,0,3 1,0,0,0,5,0 0 0 S"), "1");
    assert_eq!(after.to_position_string(), "0,0,0,0,0,3 1,0,0,0,0,0 6 0 N");
}

#[test]
fn kalah_capture_is_refused_when_the_opposite_pit_is_empty_unless_empty_capture() {
    let standard = play(&kalah("1,0,0,0,0,3 1,0,0,0,0,5 0 0 S"), "1");
    assert_eq!(
        standard.to_position_string(),
        "0,1,0,0,0,3 1,0,0,0,0,5 0 0 N"
    );
    let variant = play(&kalah("1,0,0,0,0,3 1,0,0,0,0,5 0 0 S empty-capture"), "1");
    assert_eq!(
        variant.to_position_string(),
        "0,0,0,0,0,3 1,0,0,0,0,5 1 0 N empty-capture"
    );
}

#[test]
fn kalah_ends_when_a_row_empties_and_each_side_banks_its_own() {
    let after = play(&kalah("0,0,0,0,0,1 2,0,0,0,0,3 10 20 S"), "6");
    assert_eq!(
        after.to_position_string(),
        "0,0,0,0,0,0 0,0,0,0,0,0 11 25 S"
    );
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::Second)));
    assert!(legal(&after).is_empty());
}

#[test]
fn kalah_thirteen_seeds_pass_their_own_pit_again() {
    // 13 seeds from South's first pit: 5 pits, the store, North's 6 pits, then the origin,
    // which was emptied and so makes a capture with North's 6th pit.
    let after = play(&kalah("13,0,0,0,0,0 1,0,0,0,0,0 0 0 S"), "1");
    assert_eq!(after.to_position_string(), "0,1,1,1,1,1 2,1,1,1,1,0 3 0 N");
}

#[test]
fn oware_twelve_seeds_skip_their_own_pit() {
    let after = play(&oware("12,0,0,0,0,0 1,1,1,1,1,1 0 0 S"), "1");
    assert_eq!(after.to_position_string(), "0,2,1,1,1,1 2,2,2,2,2,2 0 0 N");
}

#[test]
fn oware_capture_chains_back_while_pits_hold_two_or_three() {
    let all_ripe = play(&oware("1,0,0,0,0,3 1,2,1,2,0,0 14 24 S"), "6");
    assert_eq!(
        all_ripe.to_position_string(),
        "1,0,0,0,0,0 0,0,0,2,0,0 21 24 N"
    );
    // The chain stops at the first pit that does not hold 2 or 3 (4 here), even though the
    // pit before it does.
    let broken = play(&oware("1,0,0,0,0,3 1,3,1,2,0,0 13 24 S"), "6");
    assert_eq!(
        broken.to_position_string(),
        "1,0,0,0,0,0 2,4,0,2,0,0 15 24 N"
    );
}

#[test]
fn oware_grand_slam_is_played_but_captures_nothing() {
    let after = play(&oware("1,0,0,0,0,2 1,1,0,0,0,0 20 23 S"), "6");
    assert_eq!(
        after.to_position_string(),
        "1,0,0,0,0,0 2,2,0,0,0,0 20 23 N"
    );
}

#[test]
fn oware_players_must_feed_an_empty_opponent() {
    let game = oware("0,0,0,5,1,0 0,0,0,0,0,0 20 22 S");
    assert_eq!(legal(&game), ["4"]);
    assert!(game.play(game.parse_move("5").unwrap()).is_err());
}

#[test]
fn oware_ends_when_the_opponent_cannot_be_fed_and_the_mover_banks_the_rest() {
    let game = oware("1,1,0,0,0,0 0,0,0,0,0,0 23 23 S");
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(game.score(), [25, 23]);
}

#[test]
fn oware_ends_at_the_first_repetition_with_seeds_to_their_owners() {
    // Two lone seeds chase each other round the board. No capture is possible (each would
    // take all the opponent's seeds, a grand slam), so sooner or later a position repeats.
    let mut game = oware("0,0,0,0,0,1 0,0,0,0,0,1 23 23 S");
    let mut seen = vec![game.to_position_string()];
    loop {
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let fresh = oware(&game.to_position_string()); // the same position, no history
        game.play_unchecked(moves[0]);
        let reached = play(&fresh, &fresh.format_move(moves[0]));
        if game.outcome().is_some() {
            assert!(
                seen.contains(&reached.to_position_string()),
                "ended without repeating"
            );
            break;
        }
        assert!(
            !seen.contains(&game.to_position_string()),
            "a repetition was missed"
        );
        seen.push(game.to_position_string());
        assert!(seen.len() < 500, "no repetition found");
    }
    // The seeds left went to the owners of their rows: nothing is on the board.
    assert_eq!(game.score()[0] + game.score()[1], 48);
    assert!(game.board().row_total(Player::First) + game.board().row_total(Player::Second) == 0);
}

/// The final store margin of the first player under perfect play, by brute force.
fn brute_force<R: Rules>(game: &Mancala<R>) -> i32 {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        let [a, b] = game.score();
        return a - b;
    }
    let values = moves.iter().map(|&mv| {
        let mut child = game.clone();
        child.play_unchecked(mv);
        brute_force(&child)
    });
    match game.to_move() {
        Player::First => values.max().unwrap(),
        Player::Second => values.min().unwrap(),
    }
}

/// The solver's value and best move of `game`, checked against brute force: the move
/// must reach the value.
fn solved_by_brute_force(game: &Mancala<Kalah>, table_bytes: usize, threads: usize) -> usize {
    use evoboard::search::solve::solve;
    let solution = solve(game, table_bytes, threads, |_| ()).unwrap();
    let value = brute_force(game);
    let what = game.to_position_string();
    assert_eq!(solution.first_player_margin, value, "{what}");
    let best = solution.best_pit.expect("the game is not over");
    let child = game
        .play(evoboard::games::mancala::Pit(best as u8))
        .unwrap();
    assert_eq!(brute_force(&child), value, "{what}: best pit {best}");
    solution.table_entries
}

#[test]
fn the_solver_agrees_with_brute_force_on_small_boards() {
    use evoboard::search::solve::{BUCKET_BYTES, MAX_SOLVER_PITS, SolveError, solve};
    for (pits, seeds) in [(2, 1), (3, 1), (3, 2), (4, 1), (2, 3)] {
        for empty_capture in [false, true] {
            solved_by_brute_force(&Kalah::game(pits, seeds, empty_capture), 1 << 24, 1);
        }
    }
    // A table of one bucket forgets almost everything, and the value stays exact, on one
    // thread and on two racing for that bucket.
    for empty_capture in [false, true] {
        for threads in [1, 2] {
            let game = Kalah::game(3, 3, empty_capture);
            let filled = solved_by_brute_force(&game, BUCKET_BYTES, threads);
            assert!(filled <= BUCKET_BYTES / 8 * threads, "{filled} entries");
        }
    }
    // A wider board is refused, not solved with keys that collide; so is a board of more
    // positions than a key names.
    assert!(matches!(
        solve(
            &Kalah::game(MAX_SOLVER_PITS + 1, 1, false),
            1 << 20,
            1,
            |_| ()
        ),
        Err(SolveError::TooManyPits(9))
    ));
    assert!(matches!(
        solve(&Kalah::game(8, 15, false), 1 << 20, 1, |_| ()),
        Err(SolveError::TooManyPositions {
            pits: 8,
            seeds: 240
        })
    ));
    // Mid-game positions, with stores already filled and either side to move; the last on
    // a board of seven pits.
    for text in [
        "2,0,3,1 1,2,0,2 2 1 N",
        "0,3,1,2 2,2,0,1 1 2 S",
        "1,1,2,0 0,3,1,1 3 2 N empty-capture",
        "0,0,1,0,2,0,1 1,0,0,1,0,1,0 21 23 N",
    ] {
        for threads in [1, 2] {
            solved_by_brute_force(&kalah(text), 1 << 24, threads);
        }
    }
}

/// Boards too large for brute force but searched near the root by both threads at once:
/// two threads give the value and best move of one, which leads to a position of that
/// value.
#[test]
fn two_solver_threads_agree_with_one() {
    use evoboard::search::solve::solve;
    for (pits, seeds) in [(4, 3), (3, 5), (5, 3), (4, 4)] {
        for empty_capture in [false, true] {
            let game = Kalah::game(pits, seeds, empty_capture);
            let [one, two] = [1, 2].map(|threads| solve(&game, 1 << 24, threads, |_| ()).unwrap());
            let what = format!("kalah({pits},{seeds}) empty-capture {empty_capture}");
            assert_eq!(
                (one.first_player_margin, one.best_pit),
                (two.first_player_margin, two.best_pit),
                "{what}"
            );
            let child = game
                .play(evoboard::games::mancala::Pit(one.best_pit.unwrap() as u8))
                .unwrap();
            let through = solve(&child, 1 << 24, 1, |_| ()).unwrap();
            assert_eq!(
                through.first_player_margin, one.first_player_margin,
                "{what}"
            );
        }
    }
}

#[test]
fn kalah_features_follow_gifford_et_al() {
    use evoboard::eval::NamedEvaluators;
    // 30 seeds: the winning threshold is 16.
    let game = kalah("1,2,3,4,5,6 0,0,0,0,0,1 5 3 S");
    let value = |name: &str, side: Player| {
        Mancala::<Kalah>::evaluator(name)
            .unwrap()
            .evaluate(&game, side)
    };
    assert_eq!(value("h1", Player::First), 2.0);
    assert_eq!(value("h1", Player::Second), -2.0);
    assert_eq!(value("stores", Player::First), 2.0);
    assert_eq!(value("h2", Player::First), 5.0 - 16.0);
    assert_eq!(value("h3", Player::First), 16.0 - 3.0);
    assert_eq!(
        value("h4", Player::First),
        5.0 + 6.0,
        "the third nearest the store"
    );
    assert_eq!(
        value("h5", Player::First),
        1.0 + 2.0,
        "the third farthest from it"
    );
    assert_eq!(value("h6", Player::First), 3.0 + 4.0);
    assert_eq!(value("h4", Player::Second), 1.0);
    assert_eq!(value("h1+h4", Player::First), 13.0);
    let default = 2.0 + 0.25 * -11.0 + 0.25 * 13.0 + 0.1 * 11.0 + 0.05 * 7.0;
    assert!((value("heuristic", Player::First) - default).abs() < 1e-5);
    assert!(Mancala::<Kalah>::evaluator("h7").is_err());
    assert!(Mancala::<Kalah>::evaluator("wpc").is_err());
}

#[test]
fn oware_features_are_differences_for_the_evaluated_side() {
    use evoboard::eval::NamedEvaluators;
    let game = oware("1,2,12,0,0,0 2,1,0,0,3,0 10 17 S");
    let value = |name: &str, side: Player| {
        Mancala::<Oware>::evaluator(name)
            .unwrap()
            .evaluate(&game, side)
    };
    for side in Player::BOTH {
        let sign = if side == Player::First { 1.0 } else { -1.0 };
        assert_eq!(value("captured", side), sign * -7.0);
        assert_eq!(value("mobility", side), 0.0);
        assert_eq!(value("vulnerable", side), 0.0);
        assert_eq!(value("accumulation", side), sign * 1.0);
    }
    // Feeding counts in mobility: with North empty, South may only play pits that reach it.
    let feeding = oware("1,2,12,0,0,0 0,0,0,0,0,0 10 23 S");
    let mobility = Mancala::<Oware>::evaluator("mobility").unwrap();
    assert_eq!(mobility.evaluate(&feeding, Player::First), 1.0);
}

#[test]
fn tournament_statistics_add_up() {
    use evoboard::arena::AgentSpec;
    use evoboard::arena::tournament::{TournamentConfig, TournamentResult, round_robin};
    let start = Kalah::game(6, 4, false);
    let agents: Vec<_> = ["random", "first", "heuristic:2"]
        .iter()
        .map(|s| {
            (
                s.to_string(),
                s.parse::<AgentSpec>().unwrap().build(&start).unwrap(),
            )
        })
        .collect();
    let config = TournamentConfig {
        games_per_pair: 10,
        opening_plies: 2,
        seed: 3,
        timed_moves: None,
    };
    let result = round_robin(&start, &agents, config, &|| {}).unwrap();
    for (i, agent) in result.agents.iter().enumerate() {
        assert_eq!(agent.games, 20);
        assert_eq!(agent.wins + agent.draws + agent.losses, 20);
        assert!((agent.win_rate - agent.wins as f64 / 20.0).abs() < 1e-9);
        assert!(
            (agent.win_rate - (agent.win_rate_first + agent.win_rate_second) / 2.0).abs() < 1e-9
        );
        for j in 0..3 {
            match (&result.matrix[i][j], &result.matrix[j][i]) {
                (Some(a), Some(b)) => {
                    assert_eq!((a.wins, a.draws, a.losses), (b.losses, b.draws, b.wins))
                }
                (None, None) => assert_eq!(i, j),
                _ => panic!("matrix not symmetric"),
            }
        }
    }
    assert!(
        result.agents[2].win_rate > result.agents[0].win_rate,
        "search beats random"
    );
    assert!(result.agents[2].avg_extra_turns > 0.0 && result.agents[2].avg_captures >= 0.0);
    // Everything but the think times (wall-clock) is reproducible.
    let without_times = |mut result: TournamentResult| {
        for agent in &mut result.agents {
            assert_eq!(agent.move_time.moves as f64, agent.avg_moves * 20.0);
            agent.move_time = Default::default();
        }
        result
    };
    assert_eq!(
        without_times(round_robin(&start, &agents, config, &|| {}).unwrap()),
        without_times(result),
        "reproducible"
    );
}
