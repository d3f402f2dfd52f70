//! The CSV files keep their exact bytes: `stats.csv` (fixed decimals, empty benchmark
//! cells, named opponents) reads back what it wrote, and the tournament table quotes
//! agent specs, numbers never.

mod common;

use std::collections::HashMap;

use evoboard::arena::WinRecord;
use evoboard::arena::tables::tournament_csv;
use evoboard::arena::tournament::AgentSummary;
use evoboard::evolve::stats::{GenerationStats, csv_text, read_stats_csv};

#[test]
fn stats_csv_is_pinned_and_reads_back() {
    let history = [
        GenerationStats {
            generation: 1,
            fitness_max: 12.0,
            fitness_mean: 9.125,
            fitness_min: 3.0,
            benchmark: Some(WinRecord::new(1, 0, 3)),
            others: vec![],
            diversity: 3.9645491,
        },
        GenerationStats {
            generation: 2,
            fitness_max: 18.0,
            fitness_mean: 12.75,
            fitness_min: 9.0,
            benchmark: None,
            others: vec![],
            diversity: 2.0,
        },
    ];
    let seconds = HashMap::from([(1, "0.125".to_string())]);
    let named = ["heuristic:1".to_string(), "random".to_string()];
    let text = csv_text(&history, &seconds, &named);
    assert_eq!(
        text,
        "generation,fitness_max,fitness_mean,fitness_min,bench_games,bench_wins,bench_draws,\
         bench_losses,bench_win_rate,bench_ci_low,bench_ci_high,win_rate:heuristic:1,\
         win_rate:random,diversity,seconds\n\
         1,12.000,9.125,3.000,4,1,0,3,0.2500,0.0456,0.6994,0.2500,,3.964549,0.125\n\
         2,18.000,12.750,9.000,0,,,,,,,,,2.000000,\n"
    );
    let dir = common::temp_dir("csv-tables");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("stats.csv");
    std::fs::write(&path, &text).unwrap();
    let rows: Vec<_> = read_stats_csv(&path)
        .unwrap()
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows[0].win_rate.unwrap(), 0.25);
    assert_eq!(
        rows[0].opponents,
        [
            ("heuristic:1".to_string(), Some(0.25)),
            ("random".to_string(), None)
        ]
    );
    assert_eq!(
        (rows[0].seconds.as_str(), rows[1].seconds.as_str()),
        ("0.125", "")
    );
    assert_eq!(rows[1].bench_games, 0);
    assert!(rows[1].bench_wins.is_none());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn tournament_csv_quotes_agents_only() {
    let agent = AgentSummary {
        agent: "champion:a,\"b\".evo".to_string(),
        games: 2,
        wins: 1,
        losses: 1,
        win_rate: 0.5,
        avg_margin: -1.0 / 3.0,
        ..AgentSummary::default()
    };
    assert_eq!(
        tournament_csv(&[agent]),
        "agent,games,wins,draws,losses,win_pct,win_pct_first,win_pct_second,avg_stones,\
         avg_margin,avg_win_margin,avg_loss_margin,avg_captures,avg_extra_turns,avg_moves\n\
         \"champion:a,\"\"b\"\".evo\",2,1,0,1,50.000,0.000,0.000,0.000,-0.333,0.000,0.000,\
         0.000,0.000,0.000\n"
    );
}
