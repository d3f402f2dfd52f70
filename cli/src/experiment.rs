//! `evoboard experiment PLAN`: every variant of a plan over its seeds, each run an
//! ordinary run directory, every champion measured, and the results summarised with
//! intervals and tests against the baseline (`experiments::plan`, `runner`, `results`).

use std::path::PathBuf;

use clap::Args;

use crate::stop::{as_started, stop_on_ctrl_c, unless_interrupted};

use crate::common::{GameName, configure_threads, with_game};
use crate::error::{BadInput, CliError, CliResult};
use evoboard::eval::NamedEvaluators;
use evoboard::evolve::checkpoint::EvolutionState;
use evoboard::experiments::figures::plot_experiment;
use evoboard::experiments::held_out::measure_held_out;
use evoboard::experiments::plan::{Plan, PlanFile};
use evoboard::experiments::ratings::rate_champions;
use evoboard::experiments::rebuild::ensure_champion;
use evoboard::experiments::results::write_results;
use evoboard::experiments::reuse::Sources;
use evoboard::experiments::runner::{
    ExperimentDir, ExperimentObserver, RunLabel, RunMeasures, disk_bound, open, run_all,
};
use evoboard::experiments::verify::{choose, finished_runs, verify_run};
use evoboard::farm;
use evoboard::learn::distill::FitRow;

/// Largest plan file read.
const MAX_PLAN_BYTES: u64 = 1 << 20;

#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// The plan (TOML): game, seeds, base settings, variants, the measures to take of
    /// every champion and the held-out ones of the run they choose.
    plan: PathBuf,
    /// The experiment's directory (default: `experiments/results/PLAN-NAME`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Finish an interrupted experiment: runs resume from their checkpoints and measured
    /// champions are not measured again. A finished run's champion that is absent (the
    /// repository keeps few) and needed is played again from its run.json and must hash as
    /// its evaluation recorded.
    #[arg(long)]
    resume: bool,
    /// Worker threads (0 = all cores); results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: u16,
    /// Runs that go on at once (on each process, under MPI), sharing the threads: more
    /// than 1 helps runs that use the threads poorly alone (a TD run, a small population).
    /// Memory adds up: each run is checked against its own bound. Results do not depend
    /// on it.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// Another experiment's directory whose finished runs of the same settings are copied
    /// in instead of run again (with their measures if it measured alike; a run of a
    /// smaller budget goes on from its last checkpoint). Repeatable; searched in order.
    #[arg(long, value_name = "DIR")]
    reuse: Vec<PathBuf>,
    /// Check that the finished experiment in the directory reproduces: play some of its
    /// runs again (chosen by --verify-seed among those whose champion's SHA-256 is
    /// recorded) from their run.json in a temporary directory, and compare each champion's
    /// hash with the recorded one. Prints a line per run; fails on a mismatch or on a
    /// finished run without a recorded hash. The directory is only read.
    #[arg(long, conflicts_with_all = ["resume", "reuse"])]
    verify: bool,
    /// Runs that --verify plays again.
    #[arg(long, default_value_t = 2, requires = "verify", value_parser = clap::value_parser!(u16).range(1..))]
    runs: u16,
    /// The seed that chooses the runs --verify plays again.
    #[arg(long, default_value_t = 1, requires = "verify")]
    verify_seed: u64,
    /// Put back the champion of a finished run that the repository does not keep
    /// (VARIANT:SEED, repeatable): the run is played again from its run.json, and its
    /// champion is written to its run directory once it hashes as its evaluation recorded.
    #[arg(long, value_name = "VARIANT:SEED", value_parser = parse_run,
          conflicts_with_all = ["resume", "reuse", "verify"])]
    rebuild: Vec<(String, u64)>,
}

/// A run named as `VARIANT:SEED`.
fn parse_run(text: &str) -> Result<(String, u64), String> {
    let (variant, seed) = text
        .rsplit_once(':')
        .ok_or_else(|| format!("'{text}' is not VARIANT:SEED"))?;
    let seed = seed
        .parse()
        .map_err(|_| format!("'{seed}' in '{text}' is not a seed (a whole number)"))?;
    if variant.is_empty() {
        return Err(format!("'{text}' names no variant before its ':'"));
    }
    Ok((variant.to_string(), seed))
}

pub fn run(args: &ExperimentArgs) -> CliResult {
    configure_threads(usize::from(args.threads))?;
    let bytes = evoboard::persist::read_limited(&args.plan, MAX_PLAN_BYTES).map_err(|error| {
        BadInput(format!(
            "cannot read the plan {}: {error}",
            args.plan.display()
        ))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        BadInput(format!(
            "the plan {} is not UTF-8 text",
            args.plan.display()
        ))
    })?;
    let plan = PlanFile::parse(&text)
        .map_err(|error| BadInput(format!("plan {}: {error}", args.plan.display())))?;
    let game = plan.game.parse::<GameName>().map_err(|_| {
        BadInput(format!(
            "plan {}: game: unknown game '{}' (othello, kalah, oware, congklak or congkak)",
            args.plan.display(),
            plan.game.escape_debug()
        ))
    })?;
    let out = args.out.clone().unwrap_or_else(|| {
        let name = args.plan.file_stem().unwrap_or_default();
        PathBuf::from("experiments/results").join(name)
    });
    with_game!(game, |start| experiment(start, args, plan, &text, &out))
}

fn experiment<G: NamedEvaluators>(
    start: G,
    args: &ExperimentArgs,
    plan: PlanFile,
    text: &str,
    out: &std::path::Path,
) -> CliResult {
    let plan = plan
        .resolve(&start)
        .map_err(|error| BadInput(format!("plan {}: {error}", args.plan.display())))?;
    if args.verify {
        return verify(&start, args, &plan, text, out);
    }
    if !args.rebuild.is_empty() {
        return rebuild(&start, args, &plan, text, out);
    }
    let disk = disk_bound(&start, &plan)?;
    if !args.resume {
        check_disk(out, disk)?;
    }
    // The leader opens the directory and tells the others whether it could: a process
    // that looked for itself could see the leader's plan.toml, half made.
    let experiment = if farm::is_leader() {
        let opened = Sources::open(&plan, &args.reuse).and_then(|sources| {
            let experiment = open::<G>(out, &plan, text, args.resume)?;
            take_over(&plan, &experiment, &sources)?;
            Ok(experiment)
        });
        farm::publish(&opened.as_ref().map(|_| ()).map_err(ToString::to_string));
        opened?
    } else {
        farm::receive::<Result<(), String>>().map_err(BadInput)?;
        ExperimentDir {
            dir: out.to_path_buf(),
        }
    };
    if farm::is_leader() {
        say_what_runs(args, &plan, out, disk);
    }
    stop_on_ctrl_c()?;
    let progress = RunsProgress;
    let runs = run_all(
        &start,
        &plan,
        &experiment,
        &progress,
        usize::from(args.jobs),
    );
    if !farm::is_leader() {
        // The leader has every run's outcome too, and reports it.
        return Ok(());
    }
    let runs = unless_interrupted(runs, || {
        as_started(&format!(
            "experiment {} --out {} --resume",
            args.plan.display(),
            out.display()
        ))
    })?;
    // The other processes are done: what is left is the leader's, on its own threads.
    farm::alone(|| conclude(&start, &plan, &experiment, runs))
}

/// The experiment in `out`, opened with the plan it was started with, and its finished
/// runs: what `option` (`--verify`, `--rebuild`) works on, on one process.
fn finished_alone<G: NamedEvaluators>(
    option: &str,
    plan: &Plan,
    text: &str,
    out: &std::path::Path,
) -> Result<(ExperimentDir, Vec<RunMeasures>), CliError> {
    if farm::process_count() > 1 {
        return Err(BadInput(format!("{option} runs on one process, not under mpirun")).into());
    }
    let experiment = open::<G>(out, plan, text, true)?;
    let finished = finished_runs(plan, &experiment)?;
    Ok((experiment, finished))
}

/// `--verify`: plays `args.runs` of the experiment's finished runs again and compares each
/// champion's hash with the recorded one, a line per run.
fn verify<G: NamedEvaluators>(
    start: &G,
    args: &ExperimentArgs,
    plan: &Plan,
    text: &str,
    out: &std::path::Path,
) -> CliResult {
    let (experiment, finished) = finished_alone::<G>("--verify", plan, text, out)?;
    let (hashed, unhashed): (Vec<&RunMeasures>, Vec<&RunMeasures>) = finished
        .iter()
        .partition(|run| run.champion_sha256.is_some());
    if finished.is_empty() {
        return Err(BadInput(format!("no finished run to verify in {}", out.display())).into());
    }
    let chosen = choose(usize::from(args.runs), hashed.len(), args.verify_seed);
    println!(
        "verifying {} of the {} runs of {} recorded by hash (chosen by seed {}): each played \
         again in a temporary directory",
        chosen.len(),
        hashed.len(),
        out.display(),
        args.verify_seed
    );
    stop_on_ctrl_c()?;
    let mut failed = Vec::new();
    for (index, &k) in chosen.iter().enumerate() {
        let measured = hashed[k];
        let run = RunLabel {
            index,
            total: chosen.len(),
            variant: &measured.variant,
            seed: measured.seed,
        };
        let verified = verify_run(start, plan, &experiment, measured, run, &RunsProgress)?;
        let verdict = if verified.matches() {
            "match"
        } else {
            "MISMATCH"
        };
        println!(
            "{} seed {}: recorded {}, rebuilt {}, {verdict}, {:.1} s",
            verified.variant, verified.seed, verified.recorded, verified.rebuilt, verified.seconds
        );
        if !verified.matches() {
            failed.push(format!("{} seed {}", verified.variant, verified.seed));
        }
    }
    for run in &unhashed {
        println!("{} seed {}: no recorded hash", run.variant, run.seed);
    }
    let mut problems = Vec::new();
    if !failed.is_empty() {
        problems.push(format!(
            "{} played again did not hash as recorded ({})",
            runs(failed.len()),
            failed.join(", ")
        ));
    }
    if !unhashed.is_empty() {
        problems.push(format!(
            "{} without a recorded hash (resume the experiment to record them)",
            runs(unhashed.len())
        ));
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(CliError::Failure(
        format!("{}: {}", out.display(), problems.join("; ")).into(),
    ))
}

/// `--rebuild`: each named finished run whose champion is absent is played again, and its
/// champion put back once it hashes as recorded; one already there is left as it is.
fn rebuild<G: NamedEvaluators>(
    start: &G,
    args: &ExperimentArgs,
    plan: &Plan,
    text: &str,
    out: &std::path::Path,
) -> CliResult {
    let (experiment, finished) = finished_alone::<G>("--rebuild", plan, text, out)?;
    let named: Vec<&RunMeasures> = args
        .rebuild
        .iter()
        .map(|(variant, seed)| {
            finished
                .iter()
                .find(|run| run.variant == *variant && run.seed == *seed)
                .ok_or_else(|| {
                    BadInput(format!(
                        "{} has no finished run of variant '{}' with seed {seed} (--rebuild \
                         takes VARIANT:SEED of a run the experiment finished)",
                        out.display(),
                        variant.escape_debug()
                    ))
                })
        })
        .collect::<Result<_, _>>()?;
    stop_on_ctrl_c()?;
    for (index, measured) in named.iter().enumerate() {
        let run_dir = experiment.run_dir(&measured.variant, measured.seed);
        let champion = run_dir.join("champion.evo");
        if !champion.exists() {
            let run = RunLabel {
                index,
                total: named.len(),
                variant: &measured.variant,
                seed: measured.seed,
            };
            let recorded = measured.champion_sha256.as_deref();
            ensure_champion(start, &run_dir, recorded, run, &RunsProgress)?;
        }
        println!("{}", champion.display());
    }
    Ok(())
}

/// `count` runs, in words.
fn runs(count: usize) -> String {
    match count {
        1 => "1 run".to_string(),
        _ => format!("{count} runs"),
    }
}

/// Copies in the runs `sources` finished with the plan's settings, and says how many.
fn take_over(
    plan: &Plan,
    experiment: &ExperimentDir,
    sources: &Sources,
) -> Result<(), evoboard::experiments::ExperimentError> {
    if sources.is_empty() {
        return Ok(());
    }
    let reused = sources.reuse_runs(plan, experiment)?;
    eprintln!(
        "reused {} runs from other experiments, {} of them with their measures",
        reused.runs, reused.measured
    );
    Ok(())
}

fn say_what_runs(args: &ExperimentArgs, plan: &Plan, out: &std::path::Path, disk: u64) {
    println!(
        "experiment {} in {}: {} variants × {} seeds of {} (at most {} on disk)",
        args.plan.display(),
        out.display(),
        plan.variants.len(),
        plan.seeds.len(),
        plan.game,
        in_megabytes(disk)
    );
}

/// `bytes` for people, in MB or GB.
fn in_megabytes(bytes: u64) -> String {
    let megabytes = bytes as f64 / 1e6;
    if megabytes >= 1000.0 {
        format!("{:.1} GB", megabytes / 1000.0)
    } else {
        format!("{megabytes:.0} MB")
    }
}

/// Refuses a new experiment whose runs would not fit on the disk that holds `out` (the
/// nearest directory that exists), rather than failing hours later with runs half
/// written.
fn check_disk(out: &std::path::Path, needed: u64) -> CliResult {
    let Some(free) = out
        .ancestors()
        .find(|dir| dir.is_dir())
        .and_then(free_bytes)
    else {
        return Ok(());
    };
    if needed > free {
        return Err(BadInput(format!(
            "the plan's runs may take up to {} on disk, and {} has {} free: fewer seeds or \
             variants, fewer kept checkpoints (keep_checkpoints), or another --out",
            in_megabytes(needed),
            out.display(),
            in_megabytes(free)
        ))
        .into());
    }
    Ok(())
}

/// The bytes free to this user on the file system of `dir`.
#[cfg(unix)]
fn free_bytes(dir: &std::path::Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: `statvfs` fills the struct it is given for a NUL-terminated path.
    let stats = unsafe {
        let mut stats: libc::statvfs = std::mem::zeroed();
        if libc::statvfs(path.as_ptr(), &mut stats) != 0 {
            return None;
        }
        stats
    };
    // The fields are u64 here, narrower on other platforms.
    #[allow(clippy::useless_conversion)]
    let (blocks, size) = (u64::from(stats.f_bavail), u64::from(stats.f_frsize));
    Some(blocks.saturating_mul(size))
}

#[cfg(not(unix))]
fn free_bytes(_: &std::path::Path) -> Option<u64> {
    None
}

/// The leader's part once every run is measured: the round robin, the held-out measures,
/// the results files, the plots and the summary printed.
fn conclude<G: NamedEvaluators>(
    start: &G,
    plan: &Plan,
    experiment: &ExperimentDir,
    mut runs: Vec<RunMeasures>,
) -> CliResult {
    if let Some(measure) = &plan.evaluation.round_robin {
        eprintln!("round robin of the champions (round-robin.json)");
        rate_champions(start, plan, measure, experiment, &mut runs, &RunsProgress)?;
    }
    let held_out = measure_held_out(start, plan, experiment, &runs, &RunsProgress)?;
    let (summaries, curves) = write_results(plan, experiment, &runs, held_out.as_ref())?;
    let plots = plot_experiment(plan, &summaries, &curves, &experiment.dir)?;
    print!(
        "{}",
        evoboard::experiments::results::summary_markdown(plan, &summaries, held_out.as_ref())
    );
    println!(
        "results in {} (results.csv, learning.csv, summary.csv, summary.md, {} plots)",
        experiment.dir.display(),
        plots.len()
    );
    Ok(())
}

/// One line per run started, per generation (or a fit's epoch) and per champion measured,
/// on stderr, each naming its run (several may go on at once).
struct RunsProgress;

impl ExperimentObserver for RunsProgress {
    fn run_started(&self, run: RunLabel, done: u32) {
        let from = if done > 0 {
            format!(" (resumed after generation {done})")
        } else {
            String::new()
        };
        eprintln!("{}: started{from}", name(run));
    }

    fn generation_done(&self, run: RunLabel, state: &EvolutionState, seconds: f64) {
        let rate = state
            .history
            .last()
            .and_then(|h| h.benchmark.as_ref())
            .map(|b| format!(", benchmark {:.1}%", 100.0 * b.win_rate))
            .unwrap_or_default();
        eprintln!(
            "{}: generation {}/{}{rate}, {seconds:.1} s",
            name(run),
            state.generation,
            state.config.generations
        );
    }

    fn epoch_done(&self, run: RunLabel, row: &FitRow, epochs: u32, seconds: f64) {
        eprintln!(
            "{}: epoch {}/{epochs}, validation loss {:.5}, {seconds:.1} s",
            name(run),
            row.epoch,
            row.validation_loss.0
        );
    }

    fn measuring(&self, run: RunLabel) {
        eprintln!("{}: measuring the champion", name(run));
    }

    fn rebuilding(&self, run: RunLabel, recorded: &str) {
        eprintln!(
            "{}: champion absent, playing the run again (it must hash as the recorded {recorded})",
            name(run)
        );
    }
}

/// How progress names a run: `run 3/15 (lambda, seed 1)`.
fn name(run: RunLabel) -> String {
    format!(
        "run {}/{} ({}, seed {})",
        run.index + 1,
        run.total,
        run.variant,
        run.seed
    )
}
