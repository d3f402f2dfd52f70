//! Congklak and Congkak: relay sowing, shooting, passes, burnt holes, rounds and the
//! simultaneous opening, checked on hand-made positions, random games and the search.

use evoboard::arena::{Agent, AgentSpec, History, play_game};
use evoboard::eval::NamedEvaluators;
use evoboard::games::joint::is_joint;
use evoboard::games::mancala::congklak::MAX_RELAYS;
use evoboard::games::mancala::{Congkak, Congklak, Mancala, OnBoard};
use evoboard::games::{JointDecision, perft};
use evoboard::rng::rng_for;
use evoboard::search::{Pruning, plain_negamax, search, search_pruned};
use evoboard::{Describe, Game, MoveList, Notation, Outcome, Player};
use rand::RngExt;

fn congklak(position: &str) -> Mancala<Congklak> {
    Mancala::from_position_string(position).expect("valid Congklak position")
}

fn congkak(position: &str) -> Congkak {
    Congkak::from_position_string(position).expect("valid Congkak position")
}

/// Plays `moves` (in the game's notation) and returns the position string reached.
fn after<G: Notation>(game: &G, moves: &[&str]) -> G {
    let mut game = game.clone();
    for text in moves {
        let mv = game.parse_move(text).expect("well-formed move");
        game = game.play(mv).expect("legal move");
    }
    game
}

#[test]
fn congklak_relay_chain_lifts_the_landing_hole_and_sows_on() {
    // Hole 6 (1 seed) drops into hole 7 (1 → 2): relay from hole 7, one seed to the store,
    // the last to North's empty hole 1, which ends the turn.
    let game = after(&congklak("0,0,0,0,0,1,1 0,0,0,0,0,0,1 0 0 S"), &["6"]);
    assert_eq!(
        game.to_position_string(),
        "0,0,0,0,0,0,0 1,0,0,0,0,0,1 1 0 N"
    );
    assert!(!game.last_move().extra_turn);
}

#[test]
fn congklak_shooting_takes_the_facing_hole() {
    let game = after(&congklak("0,0,1,0,0,0,0 1,0,0,5,0,0,0 0 0 S"), &["3"]);
    assert_eq!(
        game.to_position_string(),
        "0,0,0,0,0,0,0 1,0,0,0,0,0,0 6 0 N"
    );
    assert!(game.last_move().captured);
}

#[test]
fn congklak_lone_shot_banks_or_stays_by_variant() {
    let banked = after(&congklak("0,0,1,0,0,0,0 1,0,0,0,0,0,0 0 0 S"), &["3"]);
    assert_eq!(
        banked.to_position_string(),
        "0,0,0,0,0,0,0 1,0,0,0,0,0,0 1 0 N"
    );
    let stays = after(
        &congklak("0,0,1,0,0,0,0 1,0,0,0,0,0,0 0 0 S lone-seed-stays"),
        &["3"],
    );
    assert_eq!(
        stays.to_position_string(),
        "0,0,0,1,0,0,0 1,0,0,0,0,0,0 0 0 N lone-seed-stays"
    );
}

#[test]
fn congklak_relay_ending_in_own_store_gives_another_turn() {
    // Hole 5 drops into hole 6 (1 → 2); the relay puts one seed in hole 7, the last in
    // the store.
    let game = after(&congklak("0,0,0,0,1,1,0 1,1,1,1,1,1,1 0 0 S"), &["5"]);
    assert_eq!(
        game.to_position_string(),
        "0,0,0,0,0,0,1 1,1,1,1,1,1,1 1 0 S"
    );
    assert!(game.last_move().extra_turn);
}

#[test]
fn congklak_player_without_seeds_passes_and_game_ends_when_holes_are_empty() {
    let game = congklak("0,0,0,0,0,0,0 0,0,0,0,0,0,1 5 5 S");
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert_eq!(game.format_move(moves[0]), "pass");
    let game = after(&game, &["pass", "7"]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(game.score(), [5, 6]);
    assert!(
        congklak("1,0,0,0,0,0,0 0,0,0,0,0,0,1 5 5 S")
            .parse_move("pass")
            .and_then(|mv| congklak("1,0,0,0,0,0,0 0,0,0,0,0,0,1 5 5 S").play(mv))
            .is_err(),
        "passing is only legal without seeds"
    );
}

#[test]
fn congkak_skips_burnt_holes_and_relays_across_the_board() {
    // Hole 6 (2 seeds): burnt hole 7 skipped, a seed to the store, the last to North's
    // hole 1 (7 → 8); the relay sows North's holes 2–5, skips North's burnt holes and store,
    // and ends in South's empty hole 4, which shoots North's hole 4.
    let game = after(&congkak("0,0,0,0,0,2,x 7,7,7,7,7,x,x 10 20 S r2"), &["6"]);
    assert_eq!(
        game.to_position_string(),
        "1,1,1,0,0,0,x 0,8,8,0,8,x,x 20 20 N r2"
    );
    assert!(game.last_move().captured);
}

#[test]
fn congkak_round_end_refills_reclaims_and_the_loser_starts() {
    // South's last seed skips burnt hole 7 into the store; South's row is empty, so the
    // round ends: North banks 3 (13), South refills all 7 holes (reclaiming hole 7) from
    // 85, North fills one hole and the rest burn; North lost, so North starts round 3.
    let game = after(&congkak("0,0,0,0,0,1,x 3,x,x,x,x,x,x 84 10 S r2"), &["6"]);
    assert_eq!(
        game.to_position_string(),
        "7,7,7,7,7,7,7 7,x,x,x,x,x,x 36 6 N r3"
    );
    assert!(game.outcome().is_none());
}

#[test]
fn congkak_match_ends_when_a_player_cannot_fill_a_hole_or_at_the_round_cap() {
    let short = after(&congkak("0,0,0,0,0,1,x 3,x,x,x,x,x,x 84 3 S r2"), &["6"]);
    assert_eq!(short.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(short.score(), [85, 6]);
    let capped = after(&congkak("0,0,0,0,0,1,x 3,x,x,x,x,x,x 40 40 S r3/3"), &["6"]);
    assert_eq!(capped.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(capped.score(), [41, 43]);
    let going_on = after(&congkak("0,0,0,0,0,1,x 3,x,x,x,x,x,x 40 40 S r3"), &["6"]);
    assert_eq!(going_on.outcome(), None);
    assert_eq!(going_on.round(), 4);
}

#[test]
fn congkak_opening_sows_both_hands_in_lockstep_and_the_last_to_stop_moves_first() {
    // South sows 1 seed from hole 6 into hole 7 (2 → 3) and relays; North sows 3 from
    // hole 7. North stops at step 3 in South's empty hole 2, South at step 4 in North's
    // empty hole 2, so South moves first.
    let start = congkak("0,0,0,0,0,1,2 0,0,0,0,0,0,3 0 0 * r1");
    assert!(is_joint(&start));
    let game = after(&start, &["6/7"]);
    assert!(!is_joint(&game));
    assert_eq!(
        game.to_position_string(),
        "1,1,0,0,0,0,0 1,1,0,0,0,0,0 1 1 S r1"
    );
}

#[test]
fn congkak_opening_store_landing_picks_again_while_the_other_hand_waits() {
    let start = congkak("2,0,0,0,0,0,1 0,0,0,0,0,0,4 0 0 * r1");
    let waiting = after(&start, &["7/7"]);
    // Step 1: both reach their stores; South must pick again, North's 3 seeds wait.
    assert_eq!(
        waiting.to_position_string(),
        "2,0,0,0,0,0,0 0,0,0,0,0,0,0 1 1 S r1 hands=pick;sow@N8:3:0;1"
    );
    assert_eq!(waiting.to_move(), Player::First);
    assert_eq!(
        Congkak::from_position_string(&waiting.to_position_string()).unwrap(),
        waiting
    );
    // South sows hole 1 and shoots its empty hole 3 (a lone seed) at step 3; North's hand
    // stops at step 4 in South's hole 3. North's row is empty: the round ends, nobody can
    // refill, and South wins 6–1.
    let end = after(&waiting, &["1"]);
    assert_eq!(end.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(end.score(), [6, 1]);
}

#[test]
fn congkak_says_when_a_waiting_hand_has_sown_on() {
    let start = congkak("2,0,0,0,0,0,1 3,0,0,0,0,0,4 0 0 * r1");
    let waiting = after(&start, &["7/7"]);
    assert!(
        waiting
            .board_lines()
            .iter()
            .any(|l| l.contains("North's hand waits with 3 seeds"))
    );
    assert!(
        waiting.move_notes(&start).is_empty(),
        "no hand has stopped yet"
    );
    // South's move lets North's hand sow on: its last line disappears from the board, and
    // the move says why.
    let moved = after(&waiting, &["1"]);
    assert!(moved.outcome().is_none(), "{}", moved.to_position_string());
    assert!(!moved.board_lines().iter().any(|l| l.contains("waits")));
    assert_eq!(
        moved.move_notes(&waiting),
        ["North's waiting hand sowed on alongside and stopped"]
    );
}

#[test]
fn congkak_opening_is_one_joint_move_chosen_unseen() {
    let start = Congkak::start();
    assert!(is_joint(&start));
    assert_eq!(perft(&start, 1), 49);
    let north_view = start.seen_by(Player::Second);
    assert_eq!(north_view.to_move(), Player::Second);
    let south_pick = start.parse_move("3/1").unwrap();
    let north_pick = start.parse_move("6/5").unwrap();
    assert_eq!(
        start.format_move(start.merge(south_pick, north_pick)),
        "3/5"
    );
    assert!(
        start.parse_move("3").is_err(),
        "a lone hole is not a joint move"
    );
    // A searching agent's part cannot depend on the other's choice: both choose from the
    // same position, and each gets the same answer whichever view is asked first.
    let agent: Box<dyn Agent<Congkak>> = "minimax:3:stores"
        .parse::<AgentSpec>()
        .unwrap()
        .build(&start)
        .unwrap();
    let mut rng = rng_for(1, &[]);
    let mut choose = |view: &Congkak| agent.choose(view, History::at(view), &mut rng).unwrap();
    let south = choose(&start.seen_by(Player::First));
    let north = choose(&north_view);
    let again = choose(&start.seen_by(Player::First));
    assert_eq!(south, again);
    assert!(start.play(start.merge(south, north)).is_ok());
}

/// Random playouts: seeds are conserved at every position, position strings read back
/// exactly and the positions read play on exactly like the originals (no hidden state),
/// rounds stay within the cap, and every game ends within `max_plies`.
fn random_games<G: Notation>(start: &G, games: u64, max_plies: usize, total: impl Fn(&G) -> u32) {
    let seeds = total(start);
    let mut moves = MoveList::new();
    for seed in 0..games {
        let mut rng = rng_for(seed, &[]);
        let mut game = start.clone();
        let mut plies = 0;
        loop {
            assert_eq!(total(&game), seeds, "seed conservation, game {seed}");
            let text = game.to_position_string();
            let read = G::from_position_string(&text).expect("position string reads back");
            assert_eq!(read.to_position_string(), text);
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                assert!(game.outcome().is_some());
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let mut from_text = read;
            from_text.play_unchecked(mv);
            game.play_unchecked(mv);
            assert_eq!(
                from_text.to_position_string(),
                game.to_position_string(),
                "a position read from its string plays on alike, game {seed}"
            );
            plies += 1;
            assert!(plies <= max_plies, "game {seed} did not end");
        }
    }
}

#[test]
fn congklak_random_games_conserve_seeds_and_end() {
    random_games(&Congklak::game(), 2000, 2000, |g| g.board().total());
}

#[test]
fn congkak_random_games_conserve_seeds_and_end_within_the_round_cap() {
    random_games(&Congkak::start(), 2000, 20_000, |g| {
        assert!(g.round() <= g.round_cap());
        g.total_seeds()
    });
}

#[test]
fn relays_stay_far_below_their_guard() {
    // The guard is a safety net: in random play no turn comes near it.
    let mut most = 0;
    let mut moves = MoveList::new();
    for seed in 0..300 {
        let mut rng = rng_for(seed, &[]);
        let mut game = Congklak::game();
        loop {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            most = most.max(game.last_move().relays);
        }
    }
    assert!(most > 0, "relays happen");
    assert!(most < MAX_RELAYS / 4, "most relays in a turn: {most}");
}

/// Alpha-beta must return plain negamax's value (for the first move and as a whole).
fn search_agrees<G: Game + NamedEvaluators>(start: &G, depth: u32, plies: &[usize]) {
    let evaluator = G::evaluator("heuristic").unwrap();
    let mut moves = MoveList::new();
    for (seed, &n) in plies.iter().enumerate() {
        let mut rng = rng_for(seed as u64, &[]);
        let mut game = start.clone();
        for _ in 0..n {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        let fast = search(&game, depth, evaluator.as_ref()).value;
        let slow = plain_negamax(&game, depth, evaluator.as_ref());
        assert!(
            (fast - slow).abs() < 1e-3,
            "{}: {fast} vs {slow}",
            game.to_position_string()
        );
    }
}

#[test]
fn alpha_beta_equals_plain_negamax() {
    search_agrees(&Congklak::game(), 4, &[0, 3, 8, 15, 25]);
    search_agrees(&Congkak::start(), 3, &[0, 1, 4, 10, 40]);
}

/// Games `minimax:3:stores` wins out of 10 against `random`, colours alternating.
fn minimax_wins_against_random<G: NamedEvaluators>(start: &G) -> usize {
    let build = |spec: &str| spec.parse::<AgentSpec>().unwrap().build(start).unwrap();
    let (minimax, random) = (build("minimax:3:stores"), build("random"));
    let mut rng = rng_for(7, &[]);
    (0..10)
        .filter(|&i| {
            let (side, agents) = if i % 2 == 0 {
                (Player::First, [minimax.as_ref(), random.as_ref()])
            } else {
                (Player::Second, [random.as_ref(), minimax.as_ref()])
            };
            play_game(start, agents, &mut rng).outcome == Outcome::Win(side)
        })
        .count()
}

#[test]
fn searching_players_beat_random_ones() {
    assert!(minimax_wins_against_random(&Congklak::game()) >= 9);
    assert!(minimax_wins_against_random(&Congkak::start()) >= 9);
}

#[test]
fn forward_pruning_keeps_the_full_search_when_wide_and_cuts_nodes_when_narrow() {
    let start = Congklak::game();
    let evaluator = Mancala::<Congklak>::evaluator("stores").unwrap();
    let ranker = Mancala::<Congklak>::evaluator("heuristic").unwrap();
    let game = after(&start, &["3", "1"]);
    let full = search(&game, 5, evaluator.as_ref());
    let pruning = |width| {
        search_pruned(
            &game,
            5,
            evaluator.as_ref(),
            Some(Pruning {
                ranker: ranker.as_ref(),
                width,
            }),
            None,
        )
    };
    assert_eq!(
        pruning(7).value,
        full.value,
        "keeping every move changes nothing"
    );
    let narrow = pruning(2);
    assert!(
        narrow.nodes < full.nodes / 2,
        "{} vs {}",
        narrow.nodes,
        full.nodes
    );
}

/// perft from the starts, recorded with this engine and pinned (an extra turn, a pass and
/// a joint move count one ply each). Depth 1 checks by hand: 7 holes, and 7 × 7 joint
/// choices; Congklak depth 2: hole 1 (7 seeds, the last in the store) lets South move
/// again from the 6 holes left, and each of the 6 other moves leaves North 5 playable holes.
#[test]
fn perft_is_pinned() {
    let congklak = [7, 36, 230, 1406, 8293, 48263];
    for (depth, &count) in (1..).zip(&congklak) {
        assert_eq!(
            perft(&Congklak::game(), depth),
            count,
            "Congklak depth {depth}"
        );
    }
    let congkak = [49, 511, 4117, 29728];
    for (depth, &count) in (1..).zip(&congkak) {
        assert_eq!(
            perft(&Congkak::start(), depth),
            count,
            "Congkak depth {depth}"
        );
    }
}

#[test]
fn a_joint_decision_inside_the_tree_is_valued_by_the_searching_player() {
    // North picks again mid-opening; South's hand lands in its store two steps on, so a
    // pick of North's hole 6 (2 seeds, the last in North's store) makes both pick at once.
    // The search for North must value such a joint child as North's own maximin — the
    // child searched as North sees it — never as South's maximin negated (which would
    // credit North with seeing South's choice).
    let game = congkak("1,1,1,1,1,0,0 1,1,1,1,1,2,0 0 0 N r1 hands=sow@S6:2:0;pick;3");
    assert_eq!(game.to_move(), Player::Second);
    let joint = after(&game, &["6"]);
    assert!(is_joint(&joint), "{}", joint.to_position_string());
    let evaluator = Congkak::evaluator("stores").unwrap();
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    for depth in 2..=4 {
        let best_child = moves
            .iter()
            .map(|&mv| {
                let mut child = game.clone();
                child.play_unchecked(mv);
                let child = child.seen_by(Player::Second);
                let value = search(&child, depth - 1, evaluator.as_ref()).value;
                if child.to_move() == Player::Second {
                    value
                } else {
                    -value
                }
            })
            .fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(
            search(&game, depth, evaluator.as_ref()).value,
            best_child,
            "depth {depth}"
        );
        assert_eq!(
            plain_negamax(&game, depth, evaluator.as_ref()),
            best_child,
            "depth {depth}"
        );
        let joint_for_north = search(
            &joint.seen_by(Player::Second),
            depth - 1,
            evaluator.as_ref(),
        );
        let joint_for_south = search(&joint, depth - 1, evaluator.as_ref());
        // Both maximins are guarantees, so together they cannot exceed the game's total.
        assert!(
            joint_for_north.value + joint_for_south.value <= 1e-3,
            "depth {depth}"
        );
    }
}

#[test]
fn congkak_opening_hands_stopping_together_run_the_race_again() {
    // Both relay through their hole 7 and stop in the other's empty hole 1 at step 3: nobody
    // finished last, so both choose again at once.
    let game = after(&congkak("0,0,0,0,0,1,1 0,0,0,0,0,1,1 0 0 * r1"), &["6/6"]);
    assert!(is_joint(&game));
    assert_eq!(
        game.to_position_string(),
        "1,0,0,0,0,0,0 1,0,0,0,0,0,0 1 1 * r1"
    );
}

#[test]
fn congkak_opening_reports_the_choosers_relays_and_captures() {
    // South's hole 5 drops into hole 6 (1 → 2); the relay ends in South's store, so South
    // picks again: one relay, reported even though the hand has not stopped.
    let game = after(
        &congkak("1,0,0,0,1,1,0 7,7,7,7,7,7,7 0 0 S r1 hands=pick;done@5;5"),
        &["5"],
    );
    assert_eq!(game.to_move(), Player::First);
    assert_eq!(game.last_move().relays, 1);
    assert!(!game.last_move().captured);
}
