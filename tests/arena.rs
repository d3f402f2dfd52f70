//! Agents, specs, openings, series determinism and statistics.

use evoboard::arena::spec::AgentKind;
use evoboard::arena::stats::wilson_interval;
use evoboard::arena::{
    AgentSpec, GameRecord, SeriesConfig, SeriesStats, play_game, play_series, random_openings,
};
use evoboard::rng::rng_for;
use evoboard::{Game, Notation, Othello};

fn build(spec: &str) -> Box<dyn evoboard::arena::Agent<Othello>> {
    spec.parse::<AgentSpec>()
        .unwrap()
        .build(&Othello::start())
        .unwrap()
}

#[test]
fn specs_parse_into_the_documented_kinds() {
    let minimax = |depth, evaluator: &str| AgentKind::Minimax {
        depth,
        evaluator: evaluator.to_string(),
    };
    let cases = [
        ("random", AgentKind::Random, None),
        ("first", AgentKind::First, None),
        ("heuristic:3", minimax(3, "heuristic"), None),
        ("wpc:1@0.1", minimax(1, "wpc"), Some(0.1)),
        ("minimax:2:mobility", minimax(2, "mobility"), None),
        ("random@0", AgentKind::Random, Some(0.0)),
    ];
    for (text, kind, epsilon) in cases {
        let spec: AgentSpec = text.parse().unwrap();
        assert_eq!(spec.kind, kind, "{text}");
        assert_eq!(spec.epsilon, epsilon, "{text}");
        assert_eq!(spec.to_string(), text);
        assert!(spec.build(&Othello::start()).is_ok(), "{text}");
    }
    for bad in [
        "",
        "human",
        "heuristic",
        "heuristic:0",
        "heuristic:-1",
        "heuristic:x",
        "wpc:99",
        "minimax:2",
        "minimax:2:",
        "random@",
        "random@1.5",
        "random@-0.1",
        "first:1",
    ] {
        assert!(bad.parse::<AgentSpec>().is_err(), "accepted {bad:?}");
    }
    let unknown_eval: AgentSpec = "minimax:2:nonsense".parse().unwrap();
    assert!(unknown_eval.build(&Othello::start()).is_err());
}

#[test]
fn deep_searches_need_a_time_limit_and_keep_to_it() {
    // Beyond 12 plies a fixed-depth search can take hours a move: refused, with advice.
    for deep in [
        "heuristic:13",
        "wpc:30",
        "minimax:20:mobility",
        "champion:x.evo:30",
    ] {
        let error = deep.parse::<AgentSpec>().unwrap_err().to_string();
        assert!(error.contains("add a time limit (~SECONDS"), "{error}");
    }
    for bad in [
        "heuristic:30~",
        "heuristic:30~0",
        "heuristic:30~-1",
        "heuristic:4~soon",
        "random~5",
        "first~1@0.1",
    ] {
        assert!(bad.parse::<AgentSpec>().is_err(), "accepted {bad:?}");
    }
    // A `~` inside a file path is part of the path.
    let tilde: AgentSpec = "champion:/runs/a~b/champion.evo".parse().unwrap();
    assert_eq!(tilde.move_time, None);
    let timed: AgentSpec = "heuristic:30~0.05@0.1".parse().unwrap();
    assert_eq!(timed.move_time, Some(0.05));
    assert_eq!(timed.epsilon, Some(0.1));
    assert_eq!(timed.to_string(), "heuristic:30~0.05@0.1");
    // A 30-ply search at most 0.05 s a move: a whole game from the start in seconds.
    let clock = std::time::Instant::now();
    let records = play_series(
        &Othello::start(),
        build("heuristic:30~0.05").as_ref(),
        build("random").as_ref(),
        SeriesConfig {
            games: 2,
            opening_plies: 0,
            seed: 3,
        },
        &|| {},
    )
    .unwrap();
    assert!(
        clock.elapsed().as_secs_f64() < 20.0,
        "{:?}",
        clock.elapsed()
    );
    // The timed searcher is the first seat in game 0, the second in game 1.
    let seats = [evoboard::Player::First, evoboard::Player::Second];
    for (record, seat) in records.iter().zip(seats) {
        assert_eq!(
            record.outcome.sign_for(seat),
            1,
            "a deep search loses to random"
        );
    }
    let name = build("heuristic:30~0.05").name();
    assert_eq!(name, "heuristic:30~0.05");
}

#[test]
fn openings_are_distinct_unfinished_and_reproducible() {
    let start = Othello::start();
    let a = random_openings(&start, 50, 6, 11).unwrap();
    let b = random_openings(&start, 50, 6, 11).unwrap();
    let c = random_openings(&start, 50, 6, 12).unwrap();
    let text = |v: &[Othello]| v.iter().map(|g| g.to_position_string()).collect::<Vec<_>>();
    assert_eq!(text(&a), text(&b));
    assert_ne!(text(&a), text(&c));
    let unique: std::collections::HashSet<_> = text(&a).into_iter().collect();
    assert_eq!(unique.len(), 50);
    for game in &a {
        assert!(game.outcome().is_none());
        // Six placements from the start: 4 + 6 discs.
        assert_eq!(game.to_position_string()[..64].matches('-').count(), 54);
    }
    // Only four distinct positions exist one ply deep.
    assert_eq!(random_openings(&start, 4, 1, 1).unwrap().len(), 4);
    let error = random_openings(&start, 5, 1, 1).unwrap_err();
    assert_eq!((error.found, error.wanted), (4, 5));
}

#[test]
fn a_game_between_agents_is_legal_and_complete() {
    let random = build("random");
    let wpc = build("wpc:2");
    let mut rng = rng_for(5, &[]);
    let record: GameRecord<Othello> =
        play_game(&Othello::start(), [random.as_ref(), wpc.as_ref()], &mut rng);
    let mut game = Othello::start();
    for &mv in &record.moves {
        game = game.play(mv).expect("recorded move is legal");
    }
    assert_eq!(game.outcome(), Some(record.outcome));
    assert_eq!(game.score(), record.score);
    assert_eq!(record.score[0] + record.score[1], 64);
    let thinks = record.think_seconds[0].len() + record.think_seconds[1].len();
    assert_eq!(thinks, record.plies());
    // Replaying the move text through the parser gives the same game.
    let mut replay = Othello::start();
    for text in record.move_text().split(',') {
        replay = replay.play(replay.parse_move(text).unwrap()).unwrap();
    }
    assert_eq!(replay, game);
}

/// Plays a series of `games` between two specs from `plies`-ply openings.
fn play(
    player: &str,
    opponent: &str,
    games: usize,
    plies: u32,
    seed: u64,
) -> Vec<GameRecord<Othello>> {
    let config = SeriesConfig {
        games,
        opening_plies: plies,
        seed,
    };
    let (player, opponent) = (build(player), build(opponent));
    play_series(
        &Othello::start(),
        player.as_ref(),
        opponent.as_ref(),
        config,
        &|| {},
    )
    .unwrap()
}

fn series(threads: usize, seed: u64) -> (Vec<String>, SeriesStats) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let records = pool.install(|| play("heuristic:2@0.1", "random", 24, 4, seed));
    let moves = records.iter().map(GameRecord::move_text).collect();
    (moves, SeriesStats::from_records(&records))
}

#[test]
fn series_results_do_not_depend_on_thread_count() {
    let (moves1, stats1) = series(1, 9);
    let (moves2, stats2) = series(2, 9);
    assert_eq!(moves1, moves2);
    assert_eq!(
        (
            stats1.record.wins,
            stats1.record.draws,
            stats1.record.losses,
            stats1.mean_margin,
            stats1.mean_length
        ),
        (
            stats2.record.wins,
            stats2.record.draws,
            stats2.record.losses,
            stats2.mean_margin,
            stats2.mean_length
        )
    );
    let (moves3, _) = series(2, 10);
    assert_ne!(moves1, moves3, "another seed gives other games");
}

#[test]
fn series_alternate_colours_and_count_from_the_players_side() {
    // first vs first is deterministic, so both games of an opening are the same game with
    // the measured agent on opposite sides: it wins one exactly when it loses the other.
    let records = play("first", "first", 20, 4, 3);
    for pair in records.chunks(2) {
        assert_eq!(
            pair[0].start, pair[1].start,
            "same opening for both colours"
        );
        assert_eq!(
            pair[0].moves, pair[1].moves,
            "same agent on both sides plays the same game"
        );
    }
    let stats = SeriesStats::from_records(&records);
    assert_eq!(stats.record.wins, stats.record.losses);
    assert_eq!(stats.mean_margin, 0.0);
    assert_eq!(stats.record.games, 20);
}

#[test]
fn wilson_interval_matches_known_values() {
    // Reference values of the 95% Wilson score interval.
    let (lo, hi) = wilson_interval(95, 100);
    assert!(
        (lo - 0.8883).abs() < 5e-4 && (hi - 0.9785).abs() < 5e-4,
        "{lo} {hi}"
    );
    let (lo, hi) = wilson_interval(0, 10);
    assert!(lo == 0.0 && (hi - 0.2775).abs() < 5e-4, "{lo} {hi}");
    let (lo, hi) = wilson_interval(50, 100);
    assert!(
        (lo - 0.4038).abs() < 5e-4 && (hi - 0.5962).abs() < 5e-4,
        "{lo} {hi}"
    );
    assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
}

#[test]
fn heuristic_three_beats_random_at_least_95_of_100() {
    let records = play("heuristic:3", "random", 100, 6, 1);
    let stats = SeriesStats::from_records(&records);
    assert!(stats.record.wins >= 95, "{stats:?}");
    assert!(stats.mean_margin > 0.0);
    assert_eq!(
        stats.player_time.moves + stats.opponent_time.moves,
        records.iter().map(|r| r.plies()).sum::<usize>()
    );
}

#[test]
fn opening_errors_advise_fewer_plies_when_games_end_and_more_when_openings_repeat() {
    let too_long = evoboard::arena::random_openings(&Othello::start(), 5, 70, 1).unwrap_err();
    assert!(
        too_long.to_string().contains("use fewer opening plies"),
        "{too_long}"
    );
    let kalah = evoboard::games::mancala::Kalah::game(6, 4, false);
    let too_few = evoboard::arena::random_openings(&kalah, 200, 1, 1).unwrap_err();
    assert!(
        too_few.to_string().contains("use more opening plies"),
        "{too_few}"
    );
    assert_eq!(too_few.found, 6);
}
