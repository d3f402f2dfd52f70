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
use evoboard::eval::NamedEvaluators;
use evoboard::evolve::checkpoint::{EvolutionState, RunDir};
use evoboard::evolve::config::{
    DEFAULT_PRESET, EvolveConfig, MAX_SPARRING_GAMES, MAX_TD_BATCH, MAX_TD_GAMES, NetworkChoice,
    Preset,
};
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
    /// Algorithm: `paper` (the Othello ENN paper as written), `modern` (self-adaptive ES + hall
    /// of fame), `td` (temporal-difference learning of an n-tuple network), `ctdl` (a population of
    /// TD learners under league selection), `cmaes` (separable CMA-ES) or `cocmaes`
    /// (coevolutionary CMA-ES with Jaśkowski & Szubert 2016's settings) [default: td].
    #[arg(long)]
    preset: Option<Preset>,
    /// Network family: `mlp` (hidden layers from --hidden) or `ntuple:SET` (Othello sets:
    /// logistello, straight2, straight3, straight4, squares2, straight4-squares2, each
    /// optionally with +discs, +mobility and/or +wipeout global features; Kalah, Oware and
    /// Congklak sets: singles, pairs, triples, quads, all-pairs, all-pairs-triples,
    /// all-triples, with +stores, +store-counts, +rows, +moves, +threats, +turn)
    /// [default: td and ctdl: ntuple:logistello+discs+mobility+wipeout for Othello,
    /// ntuple:triples+stores for Kalah, Oware and Congklak, mlp for Congkak; cocmaes:
    /// ntuple:straight4-squares2 for Othello, else as td; other presets: mlp].
    #[arg(long)]
    network: Option<NetworkChoice>,
    /// Individuals per generation [default: td 1, ctdl 6, cocmaes 400, others 20]. League cost grows as
    /// P²: P·(P−1) games per generation (380 for 20); use --league-sample K for large
    /// populations.
    #[arg(long)]
    population: Option<usize>,
    /// Generation budget [default: 50]; with --resume it may be raised to continue a run.
    #[arg(long)]
    generations: Option<u32>,
    /// Search depth of the networks and of the benchmark opponent [default: cocmaes 1,
    /// others 2].
    #[arg(long)]
    depth: Option<u32>,
    /// Run seed: the same seed gives the same run, whatever --threads [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Hidden layer sizes, comma-separated [default: ⌊2/3 × inputs⌋: 42 for Othello, 9 for
    /// Kalah and Oware].
    #[arg(long, value_delimiter = ',')]
    hidden: Option<Vec<usize>>,
    /// Best individuals cloned unchanged (paper preset) [default: 1].
    #[arg(long)]
    elitism: Option<usize>,
    /// Chance p that an offspring mutates, also the paper's step factor (paper) [default: 0.05].
    #[arg(long)]
    mutation_probability: Option<f64>,
    /// Initial self-adaptive mutation step σ (modern), or CMA-ES's initial step [default:
    /// cmaes 0.1, cocmaes 1, others 0.01].
    #[arg(long)]
    initial_sigma: Option<f32>,
    /// CMA-ES (cmaes, cocmaes): the share of its selected step the mean takes each
    /// generation. Below 1 the mean averages the steps of several generations, so that
    /// when noisy fitness ranks the samples it does not wander off a good network, while
    /// the samples keep their step [default: 1, the whole step].
    #[arg(long, value_name = "C")]
    mean_rate: Option<f64>,
    /// Past champions every individual also plays, both colours [default: modern 4,
    /// others 0].
    #[arg(long)]
    hall_of_fame: Option<usize>,
    /// Each individual plays K seeded opponents with both colours instead of everyone
    /// (at most 2·K·P games instead of P·(P−1)).
    #[arg(long, value_name = "K")]
    league_sample: Option<usize>,
    /// Random plies from the start that make each league opening [default: 4].
    #[arg(long, value_name = "PLIES")]
    league_openings: Option<u32>,
    /// Random plies that make each benchmark opening [default: 6].
    #[arg(long, value_name = "PLIES")]
    bench_openings: Option<u32>,
    /// Benchmark games per generation against each benchmark opponent, 0 for none
    /// [default: 100].
    #[arg(long)]
    bench_games: Option<usize>,
    /// Benchmark opponents, comma-separated agent specs, or `panel` for the paper's whole
    /// panel at --depth; the first decides the gate and the champion [default:
    /// heuristic:DEPTH].
    #[arg(long, value_delimiter = ',', value_name = "SPEC,...")]
    bench_opponents: Option<Vec<String>>,
    /// Benchmark win rate that ends the run [default: td 1, ctdl 1, cocmaes 1, others
    /// 0.75]: those presets play their whole budget.
    #[arg(long)]
    gate: Option<f64>,
    /// Run directory [default: populations/GAME-PRESET-seedSEED].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Keep only the newest K checkpoints, or `all` (each is about 0.45 MB for 20 64-42-1
    /// networks, 5 MB for the default n-tuple network); --resume may change it [default: 2].
    #[arg(long, value_name = "K|all")]
    keep_checkpoints: Option<KeepCheckpoints>,
    /// Where the fitness, benchmark and diversity plots are redrawn as the run goes
    /// [default: for --out populations/RUN, plots/RUN beside populations/; otherwise
    /// OUT/plots inside the run].
    #[arg(long)]
    plots: Option<PathBuf>,
    /// Do not draw plots while evolving (`evoboard plot` draws them later).
    #[arg(long, conflicts_with = "plots")]
    no_plots: bool,
    /// Keep every K-th generation's benchmarked network in OUT/snapshots/, for
    /// `evoboard ratings --run OUT` to rate the run's progress on the Elo scale (kept in
    /// run.json; --resume may change it).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    snapshots: Option<u32>,
    /// TD learning games per individual and generation [default: td 50000, ctdl 10000,
    /// others 0].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_TD_GAMES as i64))]
    td_games: Option<u32>,
    /// TD step size α [default: 0.002].
    #[arg(long)]
    learning_rate: Option<f32>,
    /// Let α decay geometrically from --learning-rate to this over --decay-generations.
    #[arg(long, value_name = "A")]
    learning_rate_end: Option<f32>,
    /// Generations over which α decays to --learning-rate-end [default: the budget the run
    /// starts with].
    #[arg(long, value_name = "N", requires = "learning_rate_end")]
    decay_generations: Option<u32>,
    /// Probability ε of a random move by the learner in TD games [default: 0.1].
    #[arg(long)]
    exploration: Option<f64>,
    /// TD learns from the learner's random moves too: the position before one learns the
    /// value after it (the values of play that keeps exploring, like the Othello League's)
    /// [default: off, random moves teach nothing].
    #[arg(long)]
    learn_exploring: bool,
    /// TD learns each position's symmetric images too (Othello: its seven rotations and
    /// reflections, with the same target), for networks that do not share weights between
    /// symmetric squares, such as the MLP [default: off].
    #[arg(long)]
    learn_symmetries: bool,
    /// λ of TD(λ): each position learns a blend of the targets down the rest of its game
    /// instead of the value one move later [default: 0, TD(0)].
    #[arg(long)]
    lambda: Option<f32>,
    /// TD games played at once against the same weights: larger batches use two or more
    /// threads better but learn from weights a few more games old, so the run differs
    /// (the number of threads never changes it) [default: 16].
    #[arg(long, value_name = "GAMES", value_parser = clap::value_parser!(u32).range(1..=MAX_TD_BATCH as i64))]
    td_batch: Option<u32>,
    /// Random plies that make each TD game's opening [default: td and ctdl: 10 for Kalah,
    /// Oware and Congklak, 0 for Othello and Congkak; other presets: 0].
    #[arg(long, value_name = "PLIES")]
    td_openings: Option<u32>,
    /// Sparring partners, comma-separated agent specs (e.g. heuristic:1@0.1): opponents in
    /// TD games (see --sparring-share) and in fitness games (see --sparring-games).
    #[arg(long, value_delimiter = ',', value_name = "SPEC,...")]
    sparring: Option<Vec<String>>,
    /// Fitness games each individual plays against each sparring partner per generation,
    /// colours alternating, on openings the whole population shares [default: 0].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_SPARRING_GAMES as i64))]
    sparring_games: Option<u32>,
    /// What teaches the TD learners' positions their targets instead of the learner's own
    /// value one move later: a champion file, whose network every position learns (kept in
    /// run.json: the file must stay in place for --resume); `exact:SEEDS` (Kalah), the
    /// exact result of every position with at most SEEDS (2-22) seeds on the board, from
    /// an endgame database built when the run starts; or `search:DEPTH` (1-8), the value
    /// the learner's own alpha-beta search of DEPTH plies finds.
    #[arg(long, value_name = "PATH|exact:SEEDS|search:DEPTH")]
    teacher: Option<String>,
    /// Plies a --teacher champion file searches for each position's target: the student
    /// learns the value its alpha-beta search finds, what the teacher makes of a position
    /// as a player looking ahead [default: 0, its static value].
    #[arg(long, value_name = "PLIES")]
    teacher_depth: Option<u32>,
    /// With a --teacher champion file: each learning position's moves also learn the
    /// teacher's order of them, the student's softmax of their values at this temperature
    /// moved towards the teacher's (what a searching player compares) [default: 0, values
    /// only]
    #[arg(long, value_name = "T")]
    teacher_ranking: Option<f32>,
    /// A champion file of the run's game and network whose network generation 0 starts
    /// from instead of a random one (every learner: TD's network, each founder of the
    /// evolving presets, CMA-ES's first mean): to go on learning from a champion by
    /// another method. Kept in run.json; needed until the first checkpoint.
    #[arg(long, value_name = "PATH")]
    start_from: Option<String>,
    /// Probability with which the run's networks play a random move in every game that
    /// scores them: fitness, benchmark and final selection, not TD's learning games
    /// (with --depth 1, --league-openings 0, --bench-openings 0 and wpc:1@0.1 as sparring
    /// partner and benchmark, 0.1 makes them the Othello League's games) [default: 0].
    #[arg(long, value_name = "EPS")]
    play_epsilon: Option<f64>,
    /// Play every individual's sparring game k of a generation with the same random
    /// moves (its own under --play-epsilon, and the partner's): individuals that would
    /// move alike play the same game, so fitness tells apart small differences between
    /// them (common random numbers; needs --sparring-games).
    #[arg(long)]
    common_random_moves: bool,
    /// Plies the learner searches to choose its moves in TD games: 2 makes it meet the
    /// positions its own depth-2 play reaches [default: 1, the greedy one-ply choice].
    #[arg(long, value_name = "PLIES")]
    td_depth: Option<u32>,
    /// Modern preset: let self-adapted steps grow without the bound (5 × --initial-sigma),
    /// as runs made before the bound did.
    #[arg(long)]
    unbounded_steps: bool,
    /// Evolving presets: individuals do not play each other; fitness comes from the
    /// sparring partners (and the hall of fame) alone.
    #[arg(long)]
    no_league: bool,
    /// Share of TD games played against a sparring partner [default: 0.5 with --sparring].
    #[arg(long)]
    sparring_share: Option<f64>,
    /// Best benchmarked networks kept as candidates for the final selection [default: td 5,
    /// ctdl 5, others 1].
    #[arg(long)]
    candidates: Option<usize>,
    /// Games each candidate plays, on openings of its own, in the final selection of the
    /// champion; 0 for none [default: td 400, ctdl 400, others 0].
    #[arg(long)]
    selection_games: Option<usize>,
    /// Continue the run in --out from its latest checkpoint.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Worker threads (0 = one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=MAX_THREADS))]
    threads: u16,
}

/// Starts the run in `out`, or resumes it (with `--keep-checkpoints` applied).
fn open_run<G: NamedEvaluators>(
    start: G,
    args: &EvolveArgs,
    config: EvolveConfig,
    out: &std::path::Path,
) -> CliResult<Evolution<G>> {
    if !args.resume {
        return Ok(Evolution::create(start, config, out)?);
    }
    args.check_resume(
        &RunDir {
            dir: out.to_path_buf(),
        }
        .read_info()?
        .config,
    )?;
    let mut evolution = Evolution::resume(start, out, args.generations)?;
    if args.keep_checkpoints.is_some() || args.snapshots.is_some() {
        let config = &evolution.state().config;
        let keep = match args.keep_checkpoints {
            Some(KeepCheckpoints(keep)) => keep,
            None => config.keep_checkpoints,
        };
        let snapshots = args.snapshots.or(config.snapshots);
        evolution.set_keeping(keep, snapshots)?;
    }
    Ok(evolution)
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

/// `--keep-checkpoints`: a count of at least 1, or `all` (`None`).
#[derive(Clone, Copy, Debug)]
struct KeepCheckpoints(Option<u32>);

impl std::str::FromStr for KeepCheckpoints {
    type Err = String;
    fn from_str(text: &str) -> Result<KeepCheckpoints, String> {
        match text {
            "all" => Ok(KeepCheckpoints(None)),
            _ => match text.parse::<u32>() {
                Ok(k) if k >= 1 => Ok(KeepCheckpoints(Some(k))),
                _ => Err(format!(
                    "'{text}' is not a number of checkpoints (1 or more) or `all`"
                )),
            },
        }
    }
}

impl EvolveArgs {
    /// The settings of a new run: the preset's defaults with the given flags applied.
    fn config<G: NamedEvaluators>(&self, start: &G) -> EvolveConfig {
        let mut config = EvolveConfig::for_game(self.preset.unwrap_or(DEFAULT_PRESET), start);
        self.apply(&mut config);
        config.imply(|name| match name {
            "sparring" => self.sparring.is_some(),
            "sparring_share" => self.sparring_share.is_some(),
            "decay_generations" => self.decay_generations.is_some(),
            _ => false,
        });
        config
    }

    /// Overwrites the settings named by flags (all but the preset and --generations).
    fn apply(&self, config: &mut EvolveConfig) {
        macro_rules! set {
            ($($flag:ident => $field:ident),*) => {
                $( if let Some(value) = &self.$flag { config.$field = value.clone(); } )*
            };
        }
        set!(
            population => population,
            depth => depth,
            seed => seed,
            hidden => hidden,
            elitism => elitism,
            mutation_probability => mutation_probability,
            initial_sigma => initial_sigma,
            mean_rate => mean_rate,
            hall_of_fame => hall_of_fame,
            league_openings => league_opening_plies,
            bench_games => bench_games,
            bench_opponents => bench_opponents,
            bench_openings => bench_opening_plies,
            gate => gate,
            network => network,
            learning_rate => learning_rate,
            exploration => exploration,
            lambda => td_lambda,
            td_openings => td_opening_plies,
            sparring => sparring,
            sparring_share => sparring_share,
            play_epsilon => play_epsilon,
            td_depth => td_play_depth,
            teacher_depth => teacher_depth,
            teacher_ranking => teacher_ranking,
            candidates => candidates,
            selection_games => selection_games
        );
        if self.learn_exploring {
            config.learn_exploring = true;
        }
        if self.learn_symmetries {
            config.learn_symmetries = true;
        }
        if self.common_random_moves {
            config.common_random_moves = true;
        }
        if let Some(games) = self.td_games {
            config.td_games = games as usize;
        }
        if let Some(games) = self.td_batch {
            config.td_batch = games as usize;
        }
        if self.learning_rate_end.is_some() {
            config.learning_rate_end = self.learning_rate_end;
        }
        if let Some(generations) = self.decay_generations {
            config.decay_generations = generations;
        }
        if let Some(games) = self.sparring_games {
            config.sparring_games = games as usize;
        }
        if self.no_league {
            config.league = false;
        }
        if self.teacher.is_some() {
            config.teacher = self.teacher.clone();
        }
        if self.start_from.is_some() {
            config.start_from = self.start_from.clone();
        }
        if self.unbounded_steps {
            config.sigma_bound = None;
        }
        if let Some(budget) = self.generations {
            config.generations = budget;
        }
        if self.league_sample.is_some() {
            config.league_sample = self.league_sample;
        }
        if let Some(KeepCheckpoints(keep)) = self.keep_checkpoints {
            config.keep_checkpoints = keep;
        }
        if self.snapshots.is_some() {
            config.snapshots = self.snapshots;
        }
    }

    /// On --resume the run keeps its settings: flags may repeat them but not change them.
    fn check_resume(&self, stored: &EvolveConfig) -> Result<(), BadInput> {
        let mut wanted = stored.clone();
        self.apply(&mut wanted);
        wanted.generations = stored.generations;
        wanted.keep_checkpoints = stored.keep_checkpoints;
        wanted.snapshots = stored.snapshots;
        let preset_changed = self.preset.is_some_and(|p| p != stored.preset);
        if preset_changed || wanted != *stored {
            return Err(BadInput(
                "with --resume the run keeps its own settings (see its run.json); only \
                 --generations, --keep-checkpoints, --threads and --out may differ"
                    .to_string(),
            ));
        }
        Ok(())
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
    let config = args.config(&start);
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
    let started = open_run(start, args, config, &out);
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
