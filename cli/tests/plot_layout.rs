//! What the plots show, checked on their figures rather than their pixels: axes zoom to
//! the data, the gate is a line only when in view, collapsing diversity gets a log axis,
//! and titles and legends say what the numbers are out of and who played whom.

mod common;

use evoboard::evolve::config::{EvolveConfig, Preset};
use evoboard::evolve::league::{credited_games, fixed_mean_fitness, league_games};
use evoboard::evolve::stats::StatsRow;
use evoboard::evolve::{benchmark_specs, gating_benchmark};
use evoboard::games::othello::Othello;
use evoboard::report::plot::{
    ChampionTest, Figure, GatePosition, Mark, RunNotes, Shape, Shown, YAxis, diversity_axis,
    draw_annotated, figures, gate_position, percent_range, run_notes,
};

/// Generation `generation` with win rate `rate` (interval ±5 points, 100 games) and
/// `diversity`; fitness rises slowly.
fn row(generation: u32, rate: f64, diversity: f64) -> StatsRow {
    let x = f64::from(generation);
    StatsRow {
        generation,
        fitness_max: 80.0 + x,
        fitness_mean: 57.0,
        fitness_min: 30.0 + x,
        bench_games: 100,
        win_rate: Some(rate),
        ci_low: Some((rate - 0.05).max(0.0)),
        ci_high: Some((rate + 0.05).min(1.0)),
        diversity,
        ..StatsRow::default()
    }
}

/// `n` generations at win rate `rate` and constant diversity 2.
fn steady(n: u32, rate: f64) -> Vec<StatsRow> {
    (1..=n).map(|g| row(g, rate, 2.0)).collect()
}

const EVERYTHING: Shown = Shown {
    fitness: Some("league points"),
    gate: Some(0.75),
    diversity: true,
};

/// The figure called `name`.
fn figure(rows: &[StatsRow], notes: &RunNotes, name: &str) -> Figure {
    figures(rows, &EVERYTHING, notes)
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no {name} figure"))
}

/// The mark labelled `label`, if any.
fn labelled<'a>(figure: &'a Figure, label: &str) -> Option<&'a Mark> {
    figure
        .marks
        .iter()
        .find(|m| m.label.as_deref() == Some(label))
}

#[test]
fn the_win_rate_axis_zooms_to_the_data_in_whole_percents() {
    assert_eq!(percent_range([0.46, 0.61].into_iter()), 45.0..65.0);
    assert_eq!(percent_range([0.0, 0.07].into_iter()), 0.0..10.0);
    // Near 100% the axis keeps its 10 points by growing downwards.
    assert_eq!(percent_range([0.99, 1.0].into_iter()), 90.0..100.0);
    assert_eq!(percent_range(std::iter::empty()), 0.0..100.0);
    let low = figure(&steady(30, 0.02), &RunNotes::default(), "benchmark");
    assert_eq!(low.y_axis, YAxis::Percent(0.0..10.0));
    let high = figure(&steady(30, 0.7), &RunNotes::default(), "benchmark");
    assert_eq!(high.y_axis, YAxis::Percent(60.0..80.0));
}

#[test]
fn a_gate_outside_the_data_is_a_note_and_inside_a_labelled_line() {
    assert_eq!(gate_position(&(0.0..10.0), 0.75), GatePosition::Above);
    assert_eq!(gate_position(&(80.0..100.0), 0.75), GatePosition::Below);
    assert_eq!(gate_position(&(60.0..80.0), 0.75), GatePosition::InView);
    let out = figure(&steady(30, 0.02), &RunNotes::default(), "benchmark");
    assert!(labelled(&out, "gate 75%").is_none());
    assert_eq!(out.notes, ["gate 75%: above the plotted range"]);
    let inside = figure(&steady(30, 0.7), &RunNotes::default(), "benchmark");
    assert!(inside.notes.is_empty());
    let gate = labelled(&inside, "gate 75%").expect("a gate line");
    assert!(matches!(gate.shape, Shape::Level { value, .. } if value == 75.0));
}

#[test]
fn collapsing_diversity_gets_a_log_axis_with_zero_on_its_floor() {
    // The paper preset's run: 7.95 at first, thousandths from generation 40, then 0.
    let collapse: Vec<StatsRow> = (1..=300)
        .map(|g| {
            let diversity = match g {
                1..=39 => 7.95 - 0.2 * f64::from(g),
                40..=203 => 0.003,
                _ => 0.0,
            };
            row(g, 0.02, diversity)
        })
        .collect();
    let values: Vec<f64> = collapse.iter().map(|r| r.diversity).collect();
    assert_eq!(diversity_axis(&values), YAxis::Log(-3..1));
    let log = figure(&collapse, &RunNotes::default(), "diversity");
    assert!(log.title.contains("log scale"), "{}", log.title);
    let Some(Mark {
        shape: Shape::Line { points, .. },
        ..
    }) = labelled(&log, "0: all individuals identical")
    else {
        panic!("no line for the identical population");
    };
    assert_eq!(points.len(), 97);
    assert!(points.iter().all(|&(g, y)| g >= 204 && y == -3.0));
    // A diversity that wanders within two decades stays linear.
    assert!(matches!(
        diversity_axis(&[1.2, 55.9, 0.0]),
        YAxis::Linear(_)
    ));
    let linear = figure(&steady(30, 0.5), &RunNotes::default(), "diversity");
    assert!(matches!(linear.y_axis, YAxis::Linear(_)));
    assert!(!linear.title.contains("log"));
}

#[test]
fn the_fitness_title_says_what_the_points_are_out_of() {
    let paper = EvolveConfig::new(Preset::PAPER);
    let notes = run_notes(&paper);
    assert_eq!(notes.fitness_games, Some(38..=38));
    assert_eq!(notes.fixed_mean, Some(57.0));
    assert_eq!(notes.hall_filling, None);
    let fitness = figure(&steady(30, 0.5), &notes, "fitness");
    assert_eq!(
        fitness.title,
        "Fitness per generation: points out of 114 (38 games × 3)"
    );
    // The mean the league fixes is marked as such.
    assert!(labelled(&fitness, "mean (fixed by the league: 57 less draws)").is_some());
    assert!(labelled(&fitness, "mean").is_none());
    let sampled = EvolveConfig {
        league_sample: Some(5),
        ..paper
    };
    assert_eq!(credited_games(&sampled, 0), 10..=38);
    assert_eq!(fixed_mean_fitness(&sampled), None);
    let title = figure(&steady(30, 0.5), &run_notes(&sampled), "fitness").title;
    assert!(title.ends_with("points out of 3 × 10–38 games"), "{title}");
}

#[test]
fn the_generations_of_a_filling_hall_of_fame_are_shaded() {
    let modern = EvolveConfig::new(Preset::MODERN);
    let notes = run_notes(&modern);
    assert_eq!(notes.fitness_games, Some(46..=46));
    assert_eq!(notes.fixed_mean, None);
    assert_eq!(notes.hall_filling, Some(4));
    let fitness = figure(&steady(30, 0.5), &notes, "fitness");
    assert!(fitness.title.contains("out of 138 (46 games × 3)"));
    let span = labelled(
        &fitness,
        "hall of fame filling (generations 1–4: fewer games)",
    )
    .expect("a shaded span");
    assert!(matches!(span.shape, Shape::Span { from: 1, to: 4, .. }));
    assert!(labelled(&fitness, "mean").is_some());
    // Per individual, a full league's games count twice: once for each side.
    let population = modern.population;
    assert_eq!(
        population * credited_games(&modern, 4).start(),
        league_games(&modern, 7, 4, 0) + population * (population - 1)
    );
}

#[test]
fn the_benchmark_title_names_the_network_the_opponent_and_the_games() {
    let paper = EvolveConfig {
        depth: 3,
        ..EvolveConfig::new(Preset::PAPER)
    };
    let title = figure(&steady(30, 0.5), &run_notes(&paper), "benchmark").title;
    assert_eq!(
        title,
        "Each generation's best network vs heuristic:3 (100 games a point)"
    );
    let td = EvolveConfig::for_game(Preset::TD, &Othello::start());
    let title = figure(&steady(30, 0.5), &run_notes(&td), "benchmark").title;
    assert!(title.starts_with("The network after each generation vs heuristic:2"));
    let cmaes = EvolveConfig::new(Preset::CMAES);
    let title = figure(&steady(30, 0.5), &run_notes(&cmaes), "benchmark").title;
    assert!(
        title.starts_with("Each generation's mean network"),
        "{title}"
    );
    // Several opponents are named by the statistics' columns, one line each.
    let mut rows = steady(30, 0.5);
    for r in &mut rows {
        r.opponents = vec![
            ("heuristic:2".into(), Some(0.5)),
            ("random".into(), Some(0.9)),
        ];
    }
    let several = figure(&rows, &run_notes(&paper), "benchmark");
    assert!(several.title.contains("vs 2 benchmark opponents"));
    assert!(labelled(&several, "random").is_some());
    assert!(labelled(&several, "95% interval vs heuristic:2").is_some());
}

#[test]
fn the_gating_opponent_is_the_first_benchmark_spec() {
    for opponents in [
        vec![],
        vec!["panel"],
        vec!["wpc:1", "panel"],
        vec!["random"],
    ] {
        let config = EvolveConfig {
            bench_opponents: opponents.iter().map(|s| s.to_string()).collect(),
            ..EvolveConfig::new(Preset::MODERN)
        };
        assert_eq!(
            gating_benchmark(&config),
            benchmark_specs::<Othello>(&config)[0],
            "{opponents:?}"
        );
    }
}

#[test]
fn long_runs_draw_pale_generations_beneath_bold_running_means() {
    let long = figure(&steady(400, 0.5), &RunNotes::default(), "fitness");
    let best = labelled(&long, "best").expect("a best line");
    let Shape::Line { points, stroke } = &best.shape else {
        panic!("best is a line");
    };
    assert_eq!(points.len(), 400 - 24);
    assert!(stroke.width > 2);
    assert!(long.marks.iter().any(|m| m.label.is_none()));
    let short = figure(&steady(50, 0.5), &RunNotes::default(), "fitness");
    assert!(short.marks.iter().all(|m| m.label.is_some()));
}

#[test]
fn a_lone_series_has_no_legend() {
    let dir = common::temp_dir("plot-layout-legend");
    let shown = Shown {
        fitness: None,
        gate: None,
        diversity: true,
    };
    draw_annotated(&steady(30, 0.5), "run", &shown, &RunNotes::default(), &dir).unwrap();
    let svg = |name: &str| std::fs::read_to_string(dir.join(format!("{name}.svg"))).unwrap();
    assert!(!svg("diversity").contains("\ndiversity\n"));
    assert!(svg("benchmark").contains("\nwin rate\n"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_champion_is_marked_on_the_benchmark_plot() {
    let rows: Vec<StatsRow> = (1..=6)
        .map(|g| row(g, 0.5 + 0.01 * f64::from(g), 2.0))
        .collect();
    let notes = RunNotes {
        champion: Some(4),
        ..RunNotes::default()
    };
    let benchmark = figure(&rows, &notes, "benchmark");
    let dot = labelled(&benchmark, "champion (generation 4)").expect("a champion mark");
    let Shape::Point { at, .. } = dot.shape else {
        panic!("{:?}", dot.shape);
    };
    assert_eq!(at.0, 4);
    assert!((at.1 - 54.0).abs() < 1e-9, "{at:?}");
    // A champion from a generation without a benchmark point is named, not drawn.
    let mut sparse = rows.clone();
    sparse[3].win_rate = None;
    let benchmark = figure(&sparse, &notes, "benchmark");
    assert!(labelled(&benchmark, "champion (generation 4)").is_none());
    assert!(
        benchmark
            .notes
            .contains(&"champion (generation 4): not benchmarked".to_string()),
        "{:?}",
        benchmark.notes
    );
    // Without a champion (a run still going), nothing is marked.
    let plain = figure(&rows, &RunNotes::default(), "benchmark");
    assert!(
        plain
            .marks
            .iter()
            .all(|m| !matches!(m.shape, Shape::Point { .. }))
    );
}

#[test]
fn the_champions_final_test_is_marked_with_its_interval() {
    let rows: Vec<StatsRow> = (1..=6)
        .map(|g| row(g, 0.5 + 0.01 * f64::from(g), 2.0))
        .collect();
    // 60% of 400 fresh games: outside every benchmark interval, so the axis grows to it.
    let test = ChampionTest::new(4, 0.6, 400);
    assert!(test.ci_low < 0.6 && 0.6 < test.ci_high, "{test:?}");
    let notes = RunNotes {
        champion: Some(4),
        champion_test: Some(test),
        ..RunNotes::default()
    };
    let benchmark = figure(&rows, &notes, "benchmark");
    let label = "champion's final test: 60% of 400 fresh games (95% interval)";
    let bar = labelled(&benchmark, label).expect("a final test mark");
    let Shape::Interval { at, low, high, .. } = bar.shape else {
        panic!("{:?}", bar.shape);
    };
    assert_eq!(at, 4);
    assert!((low - 100.0 * test.ci_low).abs() < 1e-9 && (high - 100.0 * test.ci_high).abs() < 1e-9);
    let YAxis::Percent(range) = &benchmark.y_axis else {
        panic!("{:?}", benchmark.y_axis);
    };
    assert!(range.contains(&low) && range.end >= high, "{range:?}");
    // Its win rate is a dot of its own, and the champion's benchmark dot stays on top.
    let dots: Vec<(u32, f64)> = benchmark
        .marks
        .iter()
        .filter_map(|m| match m.shape {
            Shape::Point { at, .. } => Some(at),
            _ => None,
        })
        .collect();
    assert_eq!(dots.len(), 2, "{dots:?}");
    assert_eq!(dots[0].0, 4);
    assert!((dots[0].1 - 60.0).abs() < 1e-9, "{dots:?}");
    assert!(
        (dots[1].1 - 54.0).abs() < 1e-9,
        "the champion's benchmark: {dots:?}"
    );
    // A run without a final test marks only its champion.
    let untested = RunNotes {
        champion: Some(4),
        ..RunNotes::default()
    };
    let benchmark = figure(&rows, &untested, "benchmark");
    assert!(
        benchmark
            .marks
            .iter()
            .all(|m| !matches!(m.shape, Shape::Interval { .. }))
    );
}
