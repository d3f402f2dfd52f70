//! Plots render on a machine with no system fonts, decode as images of the documented size,
//! and actually show something.

mod common;

use std::path::PathBuf;

use evoboard::report::plot::{PlotError, SIZE, Shown, draw_run, read_stats};

/// A fresh, existing temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A synthetic stats.csv: 30 generations, the benchmark skipped in generation 3.
fn synthetic_stats() -> String {
    let mut text = String::from(
        "generation,fitness_max,fitness_mean,fitness_min,bench_games,bench_wins,bench_draws,bench_losses,bench_win_rate,bench_ci_low,bench_ci_high,diversity,seconds\n",
    );
    for g in 1..=30u32 {
        let x = f64::from(g);
        let rate = (x / 40.0).min(0.9);
        let bench = if g == 3 {
            "0,,,,,,,".to_string()
        } else {
            format!(
                "100,{},0,{},{rate:.4},{:.4},{:.4},",
                (rate * 100.0) as u32,
                100 - (rate * 100.0) as u32,
                rate * 0.8,
                (rate * 1.2).min(1.0)
            )
        };
        text.push_str(&format!(
            "{g},{:.3},{:.3},{:.3},{bench}{:.6},0.5\n",
            60.0 + x,
            50.0 + x / 2.0,
            30.0 + x / 3.0,
            8.0 - x / 10.0
        ));
    }
    text
}

#[test]
fn every_plot_renders_as_png_and_svg() {
    let dir = temp_dir("render");
    let csv = dir.join("stats.csv");
    std::fs::write(&csv, synthetic_stats()).unwrap();
    let rows = read_stats(&csv).unwrap();
    assert_eq!(rows.len(), 30);
    assert!(rows[2].benchmark().is_none() && rows[3].benchmark().is_some());
    let out = dir.join("plots");
    let shown = Shown {
        fitness: Some("league points"),
        gate: Some(0.75),
        diversity: true,
    };
    let written = draw_run(&rows, "othello · test preset · seed 7", &shown, &out).unwrap();
    assert_eq!(written.len(), 6);
    for name in ["fitness", "benchmark", "diversity"] {
        let png = image::open(out.join(format!("{name}.png")))
            .expect("a decodable PNG")
            .to_rgb8();
        assert_eq!(png.dimensions(), SIZE, "{name}");
        let pixels = png.pixels().count();
        let white = png.pixels().filter(|p| p.0 == [255, 255, 255]).count();
        let ink = pixels - white;
        assert!(
            ink * 50 > pixels,
            "{name}.png is nearly blank ({ink} of {pixels} pixels)"
        );
        let colours: std::collections::HashSet<[u8; 3]> = png.pixels().map(|p| p.0).collect();
        assert!(
            colours.len() > 20,
            "{name}.png has only {} colours",
            colours.len()
        );
        let svg = std::fs::read_to_string(out.join(format!("{name}.svg"))).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{name}.svg"
        );
        assert!(
            svg.contains("seed 7") && svg.contains("generation"),
            "{name}.svg lacks its labels"
        );
    }
    let benchmark_svg = std::fs::read_to_string(out.join("benchmark.svg")).unwrap();
    assert!(benchmark_svg.contains("gate 75%") && benchmark_svg.contains("95% interval"));
    // Nothing but the six plots is left behind (temporary files are renamed into place).
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 6);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_stats_files_are_errors() {
    let dir = temp_dir("bad");
    let csv = dir.join("stats.csv");
    assert!(matches!(read_stats(&csv), Err(PlotError::Read { .. })));
    let header = synthetic_stats().lines().next().unwrap().to_string();
    std::fs::write(&csv, format!("{header}\n")).unwrap();
    assert!(matches!(read_stats(&csv), Err(PlotError::Empty { .. })));
    std::fs::write(&csv, format!("{header}\n1,x,2,3,0,,,,,,,1.0,0.1\n")).unwrap();
    assert!(matches!(read_stats(&csv), Err(PlotError::Read { .. })));
    std::fs::write(&csv, "generation,fitness_max\n1,2\n").unwrap();
    assert!(matches!(read_stats(&csv), Err(PlotError::Read { .. })));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A tiny modern-preset Othello run (4 networks of 64-4-1, 2 generations at depth 1, 4
/// benchmark games) into `run`, with `extra` flags; it must succeed.
fn evolve_tiny(run: &std::path::Path, extra: &[&str]) {
    let mut args = vec![
        "evolve",
        "--preset",
        "modern",
        "--game",
        "othello",
        "--population",
        "4",
        "--generations",
        "2",
        "--depth",
        "1",
        "--bench-games",
        "4",
        "--hidden",
        "4",
        "--out",
        run.to_str().unwrap(),
    ];
    args.extend(extra);
    let output = common::evoboard(&args);
    assert!(output.status.success(), "{output:?}");
}

#[test]
fn evolve_draws_plots_and_the_plot_command_redraws_them() {
    let dir = temp_dir("evolve");
    let run = dir.join("run");
    let plots = dir.join("plots");
    let evoboard = common::evoboard;
    evolve_tiny(&run, &["--plots", plots.to_str().unwrap()]);
    assert!(plots.join("benchmark.png").exists() && plots.join("fitness.svg").exists());
    let again = dir.join("again");
    let output = evoboard(&[
        "plot",
        "--run",
        run.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 6);
    let missing = evoboard(&["plot", "--run", dir.join("nothing").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn plots_go_inside_the_run_unless_it_lives_in_populations() {
    let dir = temp_dir("default-plots");
    let run = dir.join("run");
    evolve_tiny(&run, &[]);
    assert!(run.join("plots").join("benchmark.png").exists());
    // A run kept in populations/ draws into the plots/ directory beside it.
    let shipped = dir.join("populations").join("shipped");
    std::fs::create_dir_all(shipped.parent().unwrap()).unwrap();
    evolve_tiny(&shipped, &[]);
    let beside = dir.join("plots").join("shipped");
    assert!(beside.join("benchmark.png").exists());
    assert!(!shipped.join("plots").exists());
    // `plot` follows the same rule, and the run names its plots in its first lines.
    std::fs::remove_dir_all(&beside).unwrap();
    let output = common::evoboard(&["plot", "--run", shipped.to_str().unwrap()]);
    assert!(output.status.success(), "{output:?}");
    assert!(beside.join("fitness.png").exists());
    let resumed = common::evoboard(&[
        "evolve",
        "--game",
        "othello",
        "--resume",
        "--generations",
        "3",
        "--out",
        run.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    let expected = format!("plots redrawn in {}", run.join("plots").display());
    assert!(
        stdout
            .lines()
            .take(3)
            .any(|line| line.starts_with(&expected)),
        "{stdout}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn evolve_benchmarks_every_panel_opponent_and_plots_a_line_for_each() {
    let dir = temp_dir("panel-bench");
    let run = dir.join("run");
    evolve_tiny(&run, &["--bench-opponents", "panel,wpc:1", "--no-plots"]);
    let csv = std::fs::read_to_string(run.join("stats.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let named: Vec<&str> = header
        .iter()
        .filter_map(|h| h.strip_prefix("win_rate:"))
        .collect();
    // The paper's heuristic first (it gates), then the panel; wpc:1 is not repeated.
    assert_eq!(
        named,
        [
            "heuristic:1",
            "minimax:1:greedy",
            "minimax:1:forfeit",
            "minimax:1:mobility",
            "minimax:1:stability",
            "minimax:1:frontier",
            "minimax:1:corner",
            "minimax:1:parity",
            "wpc:1",
            "random"
        ]
    );
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), header.len(), "{line}");
        let column = |name: &str| fields[header.iter().position(|h| *h == name).unwrap()];
        assert_eq!(column("bench_win_rate"), column("win_rate:heuristic:1"));
    }
    let rows = read_stats(&run.join("stats.csv")).unwrap();
    assert!(rows.iter().all(|r| r.opponents.len() == 10));
    let plots = dir.join("plots");
    let output = common::evoboard(&[
        "plot",
        "--run",
        run.to_str().unwrap(),
        "--out",
        plots.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(plots.join("benchmark.png").exists());
    std::fs::remove_dir_all(dir).unwrap();
}
