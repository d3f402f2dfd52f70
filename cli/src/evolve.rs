//! `evoboard evolve`: run (or resume) a learning run and write the run directory. Each
//! generation learns (TD learning by default, or evolution: see --preset; an evolving
//! preset's league of P·(P−1) games grows as P², which --league-sample K bounds), benchmarks
//! its best network, and writes a checkpoint; --resume continues exactly.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::common::{GameName, MAX_THREADS, configure_threads, recorded_game, with_game};
use crate::error::{BadInput, CliResult};
use crate::plot::default_plot_dir;
use crate::setting_flags::{SettingFlags, config_error, in_flag_terms};
use evoboard::eval::NamedEvaluators;
use evoboard::evolve::checkpoint::{EvolutionState, RunDir};
use evoboard::evolve::config::EvolveConfig;
use evoboard::evolve::settings;
use evoboard::evolve::{Evolution, EvolveError, Observer, benchmark_specs};

use crate::stop::{as_started, interrupted, stop_on_ctrl_c};
use evoboard::farm;
use evoboard::report::plot::{Shown, plot_run};

/// Train a neural network to judge a game's positions, and keep the best one as the champion.
///
/// Each generation learns from games (temporal-difference learning by default, or evolution:
/// see --preset) and then plays its best network against a benchmark opponent; the network
/// that wins most becomes the run's champion (`champion.evo` in --out). A checkpoint after
/// every generation lets --resume continue the run exactly.
#[derive(Debug, Args)]
pub struct EvolveArgs {
    /// The run's settings, one flag each (the library's schema of settings).
    #[command(flatten)]
    settings: SettingFlags,
    /// Run directory [default: populations/GAME-PRESET-seedSEED].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Where the fitness, benchmark and diversity plots are redrawn as the run goes
    /// [default: for --out populations/RUN, plots/RUN beside populations/; otherwise
    /// OUT/plots inside the run].
    #[arg(long)]
    plots: Option<PathBuf>,
    /// Do not draw plots while evolving (`evoboard plot` draws them later).
    #[arg(long, conflicts_with = "plots")]
    no_plots: bool,
    /// Continue the run in --out from its latest checkpoint.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Print the run's settings as run.json would hold them, resolved from the flags and
    /// the preset's defaults for the game (with --resume, the run's own with the changes
    /// asked for), and run nothing.
    #[arg(long)]
    print_config: bool,
    /// Worker threads (0 = one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=MAX_THREADS))]
    threads: u16,
}

/// Starts the run of `config` in `out`, or resumes the run there with the settings it
/// may change ([`EvolveArgs::config`]).
fn open_run<G: NamedEvaluators>(
    start: G,
    args: &EvolveArgs,
    config: EvolveConfig,
    out: &std::path::Path,
) -> Result<Evolution<G>, EvolveError> {
    if !args.resume {
        return Evolution::create(start, config, out);
    }
    Evolution::resume_as(start, out, &config)
}

/// The command that continues the run in `out`, written the way this process was started.
fn how_to_resume(out: &Path) -> String {
    as_started(&resume_args(out))
}

/// The arguments that continue the run in `out`.
fn resume_args(out: &Path) -> String {
    format!("evolve --out {} --resume", out.display())
}

/// "1 generation", "N generations".
fn generations(count: u32) -> String {
    match count {
        1 => "1 generation".to_string(),
        n => format!("{n} generations"),
    }
}

impl EvolveArgs {
    /// The settings of the run: a new run's resolved from the flags over the preset's
    /// defaults for the game; a resumed run's own, with the changes the flags may make.
    fn config<G: NamedEvaluators>(&self, start: &G) -> CliResult<EvolveConfig> {
        let given = &self.settings.given;
        match (&self.out, self.resume) {
            (Some(out), true) => {
                let stored = RunDir { dir: out.clone() }.read_info()?.config;
                settings::resumed(&stored, given).map_err(|error| config_error(&error).into())
            }
            _ => settings::resolve(start, given).map_err(in_flag_terms),
        }
    }
}

/// Evolves (or resumes) a run of the built-in game `game` (with --resume, by default
/// the run's own).
pub fn run_named(game: Option<GameName>, args: &EvolveArgs) -> CliResult {
    configure_threads(usize::from(args.threads))?;
    if !farm::is_leader() {
        let (game, state) = from_leader();
        let game = game
            .parse::<GameName>()
            .map_err(|_| BadInput(format!("the leader sent an unknown game '{game}'")))?;
        return with_game!(game, |start| follow(start, state));
    }
    let game = match (game, &args.out) {
        (Some(game), _) => game,
        // --resume without --game (clap requires --out with --resume): run.json says.
        (None, Some(out)) => recorded_game(&RunDir { dir: out.clone() })?,
        (None, None) => unreachable!("clap requires --game or --resume with --out"),
    };
    with_game!(game, |start| evolve(start, args))
}

/// Evolves (or resumes) a run of the game that starts at `start`.
pub fn run<G: NamedEvaluators>(start: G, args: &EvolveArgs) -> CliResult {
    configure_threads(usize::from(args.threads))?;
    if !farm::is_leader() {
        // The same program as the leader's, so the same game.
        let (_, state) = from_leader();
        return follow(start, state);
    }
    evolve(start, args)
}

/// On a process of an MPI job other than the leader: the game and the state of the run
/// that the leader opened (or resumed) and sent.
fn from_leader() -> (String, EvolutionState) {
    farm::receive()
}

fn evolve<G: NamedEvaluators>(start: G, args: &EvolveArgs) -> CliResult {
    let game = start.name();
    let config = args.config(&start)?;
    if args.print_config {
        let text = serde_json::to_string_pretty(&config).map_err(|e| BadInput(e.to_string()))?;
        println!("{text}");
        return Ok(());
    }
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "populations/{}-{}-seed{}",
            start.name(),
            config.preset,
            config.seed
        ))
    });
    let plots =
        (!args.no_plots).then(|| args.plots.clone().unwrap_or_else(|| default_plot_dir(&out)));
    // The plots directory is made (or found unwritable) before the run starts, and removed
    // again if the run cannot start after all.
    let new_plot_dir = plots.clone().filter(|dir| !dir.exists());
    let new_out = !out.exists();
    if !args.resume {
        RunDir { dir: out.clone() }.check_new()?;
    }
    if let Some(dir) = &plots {
        std::fs::create_dir_all(dir).map_err(|error| {
            BadInput(format!(
                "cannot write plots to {}: {error} (choose another --plots, or --no-plots)",
                dir.display()
            ))
        })?;
        // Drawings a killed run left half-written.
        evoboard::persist::remove_stale_temp_files(dir);
    }
    let started = open_run(start, args, config, &out).map_err(in_flag_terms);
    if started.is_err() {
        // Only what this attempt made, and only if empty: a directory it did not make, or
        // one that holds files, stays.
        if let Some(dir) = &new_plot_dir {
            let _ = std::fs::remove_dir(dir);
        }
        if new_out {
            let _ = std::fs::remove_dir(&out);
        }
    }
    let mut evolution = started?;
    farm::publish(&(game, evolution.state()));
    stop_on_ctrl_c()?;
    let state = evolution.state();
    if state.is_complete() {
        println!(
            "the run in {} is already complete ({} after {}); raise --generations to continue it",
            out.display(),
            if state.gate_reached {
                "gate reached"
            } else {
                "budget spent"
            },
            generations(state.generation)
        );
        return Ok(());
    }
    println!(
        "evolving {} in {}: preset {}, population {}, {} network, depth {}, seed {}, from generation {} of {}",
        game,
        out.display(),
        state.config.preset,
        state.config.population,
        state.architecture,
        state.config.depth,
        state.config.seed,
        state.generation + 1,
        state.config.generations
    );
    match &plots {
        Some(dir) => println!("plots redrawn in {} as the run goes", dir.display()),
        None => println!(
            "no plots (evoboard plot --run {} draws them)",
            out.display()
        ),
    }
    let opponent = benchmark_specs::<G>(&state.config).remove(0);
    let progress = GenerationProgress::new(out.clone(), plots.clone(), opponent);
    match evolution.run(&progress) {
        // Under MPI, any process may have been asked to stop: they stop together.
        Err(EvolveError::Interrupted(_)) => return Err(interrupted(&how_to_resume(&out))),
        other => other?,
    }
    if let Some(dir) = &plots
        && evolution.state().generation > 0
    {
        match plot_run(&out, dir) {
            Ok(_) => println!("plots in {}", dir.display()),
            Err(error) => eprintln!("warning: {error}"),
        }
    }
    let state = evolution.state();
    match state.final_champion() {
        Some(champion) => println!(
            "{} after {}; champion (generation {}{}{}) in {}",
            if state.gate_reached {
                "gate reached"
            } else {
                "budget spent"
            },
            generations(state.generation),
            champion.generation,
            champion
                .benchmark_win_rate
                .map_or(String::new(), |r| format!(
                    ", benchmark win rate {:.1}%",
                    100.0 * r
                )),
            champion.test_win_rate.map_or(String::new(), |r| format!(
                ", {:.1}% in the final test",
                100.0 * r
            )),
            out.join("champion.evo").display()
        ),
        None => println!("nothing to do: the run is already complete"),
    }
    Ok(())
}

/// A process of an MPI job other than the leader: plays the leader's run along with it,
/// silently and without files.
fn follow<G: NamedEvaluators>(start: G, state: EvolutionState) -> CliResult {
    struct Quiet;
    impl Observer for Quiet {}
    if state.is_complete() {
        return Ok(());
    }
    match Evolution::follow(start, state)?.run(&Quiet) {
        // The leader says how to continue.
        Err(EvolveError::Interrupted(_)) => Ok(()),
        other => Ok(other?),
    }
}

/// Progress bar over a generation's games, one summary line per generation, and plots
/// redrawn as the run goes (at most every [`PLOT_INTERVAL`], and once more at the end).
struct GenerationProgress {
    bar: ProgressBar,
    /// The benchmark opponent the summary line reports.
    opponent: String,
    run_dir: PathBuf,
    plots: Option<PathBuf>,
    last_plot: Mutex<Option<Instant>>,
}

/// Shortest time between two redraws of the plots during a run: drawing six images takes
/// a fraction of a second, as long as a whole generation of a small run.
const PLOT_INTERVAL: Duration = Duration::from_secs(10);

impl GenerationProgress {
    fn new(run_dir: PathBuf, plots: Option<PathBuf>, opponent: String) -> GenerationProgress {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template("gen {prefix} [{bar:30}] {pos}/{len} games, ETA {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        GenerationProgress {
            bar,
            opponent,
            run_dir,
            plots,
            last_plot: Mutex::new(None),
        }
    }

    /// Redraws the plots if the last drawing is old enough; a failure is reported, not fatal.
    fn maybe_plot(&self) {
        let Some(dir) = &self.plots else {
            return;
        };
        let mut last = self.last_plot.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < PLOT_INTERVAL) {
            return;
        }
        if let Err(error) = plot_run(&self.run_dir, dir) {
            eprintln!("warning: {error}");
        }
        *last = Some(Instant::now());
    }
}

impl Observer for GenerationProgress {
    fn generation_started(&self, generation: u32, games: usize) {
        self.bar
            .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        self.bar.reset();
        self.bar.set_length(games as u64);
        self.bar.set_prefix(generation.to_string());
    }

    fn game_done(&self) {
        self.bar.inc(1);
    }

    fn generation_done(&self, state: &EvolutionState, seconds: f64) {
        self.bar.finish_and_clear();
        let Some(row) = state.history.last() else {
            return;
        };
        let bench = row
            .benchmark
            .as_ref()
            .map_or("no benchmark".to_string(), |b| {
                format!(
                    "vs {} {}/{}/{} ({:.1}%, 95% {:.1}–{:.1}%)",
                    self.opponent,
                    b.wins,
                    b.draws,
                    b.losses,
                    100.0 * b.win_rate,
                    100.0 * b.ci_low,
                    100.0 * b.ci_high
                )
            });
        let fitness = if state.config.evolves() {
            format!(
                "fitness max {:.0} mean {:.1} min {:.0}",
                row.fitness_max, row.fitness_mean, row.fitness_min
            )
        } else if state.config.sparring.is_empty() {
            format!("{} self-play games", state.config.td_games)
        } else {
            format!("score vs sparring {:.3}", row.fitness_mean)
        };
        let diversity = if Shown::for_config(&state.config).diversity {
            format!(" | diversity {:.3}", row.diversity)
        } else {
            String::new()
        };
        println!(
            "gen {:>4}/{}: {fitness} | {bench}{diversity} | {seconds:.2} s",
            row.generation, state.config.generations
        );
        self.maybe_plot();
    }

    fn selection_started(&self, candidates: usize, games: usize) {
        println!(
            "choosing the champion: {candidates} candidates, {games} games each on fresh openings"
        );
        self.bar
            .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        self.bar.reset();
        self.bar.set_length((candidates * games) as u64);
        self.bar.set_prefix("selection");
    }
}

#[cfg(test)]
mod tests {
    use super::resume_args;
    use crate::stop::command_line;
    use std::path::Path;

    #[test]
    fn the_resume_hint_repeats_how_the_program_was_started() {
        let out = Path::new("populations/run");
        let hint = |program: &str, by_cargo: bool| {
            command_line(Path::new(program), by_cargo, &resume_args(out))
        };
        let resume = "evolve --out populations/run --resume";
        // Found on the PATH, or given by a path: as the user typed it.
        assert_eq!(hint("evoboard", false), format!("evoboard {resume}"));
        assert_eq!(
            hint("./target/release/evoboard", false),
            format!("./target/release/evoboard {resume}")
        );
        assert_eq!(
            hint("/usr/local/bin/evoboard", true),
            format!("/usr/local/bin/evoboard {resume}")
        );
        // Started by `cargo run`, from the profile's directory of the target directory.
        assert_eq!(
            hint("/home/me/evoboard/target/release/evoboard", true),
            format!("cargo run --release -- {resume}")
        );
        assert_eq!(
            hint("/home/me/evoboard/target/debug/evoboard", true),
            format!("cargo run -- {resume}")
        );
        assert_eq!(
            hint("target/x86_64-unknown-linux-gnu/profiling/evoboard", true),
            format!("cargo run --profile profiling -- {resume}")
        );
        // An example's program over `run_game`.
        assert_eq!(
            hint(
                "/home/me/evoboard/target/release/examples/connect_four",
                true
            ),
            format!("cargo run --release --example connect_four -- {resume}")
        );
        assert_eq!(
            hint(
                "/home/me/evoboard/target/release/examples/connect_four",
                false
            ),
            format!("/home/me/evoboard/target/release/examples/connect_four {resume}")
        );
    }
}
