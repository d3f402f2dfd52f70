//! `evoboard distill`: an MLP fitted offline to a champion's values (`learn::distill`),
//! epoch by epoch, the epoch with the lowest validation loss kept as the champion.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use crate::common::{GameName, configure_threads, game_parser, with_game, write_output};
use crate::error::{BadInput, CliResult};
use crate::stop::{interrupted, stop_on_ctrl_c};
use evoboard::champion::Champion;
use evoboard::eval::NamedEvaluators;
use evoboard::learn::distill::{
    Adam, EpochStats, FitSettings, Labelled, SampleSettings, fit_epoch, loss, sample,
};
use evoboard::learn::teacher::NetworkTeacher;
use evoboard::nn::{Architecture, Mlp, Network, Topology, nguyen_widrow};
use evoboard::rng::rng_for;

/// Fit an MLP to a champion's values offline: positions from the teacher's own games,
/// minibatches and Adam over many epochs (distillation without TD's one step a position).
#[derive(Debug, Args)]
pub struct DistillArgs {
    /// Game of the teacher and the student.
    #[arg(long, value_parser = game_parser())]
    game: GameName,
    /// The champion file whose values the student learns.
    #[arg(long)]
    teacher: PathBuf,
    /// Plies the teacher searches for each position's value (0: its static value).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=4))]
    teacher_depth: u32,
    /// Hidden units of the student (one hidden layer, sigmoid, as the Othello ENN
    /// paper's 64-42-1).
    #[arg(long, default_value_t = 42, value_parser = clap::value_parser!(u16).range(1..=128))]
    hidden: u16,
    /// A champion MLP of the same shape to start from, instead of Nguyen-Widrow weights.
    #[arg(long)]
    start_from: Option<PathBuf>,
    /// Training positions.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u32).range(1..=20_000_000))]
    positions: u32,
    /// Validation positions (other games), which choose the epoch kept.
    #[arg(long, default_value_t = 50_000, value_parser = clap::value_parser!(u32).range(1..=2_000_000))]
    validation_positions: u32,
    /// A champion file whose network plays the sampling games instead of the teacher's
    /// (e.g. the student's own start, so that it learns on the positions it reaches).
    #[arg(long)]
    sample_with: Option<PathBuf>,
    /// Random plies that open each sampling game.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=400))]
    opening_plies: u32,
    /// Probability that the teacher plays a random move in its sampling games.
    #[arg(long, default_value_t = 0.1, value_parser = probability)]
    exploration: f64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    minibatch: u32,
    /// Adam's step size in the first epoch.
    #[arg(long, default_value_t = 0.001, value_parser = step_size)]
    learning_rate: f32,
    /// Adam's step size in the last epoch (geometric in between).
    #[arg(long, default_value_t = 0.0001, value_parser = step_size)]
    learning_rate_end: f32,
    /// Fit the leaves of each sampled position's 2-ply search as one group, its mean
    /// error taken out: the student learns what tells apart the positions a depth-2 player
    /// compares, not their level. --positions and --validation-positions then count leaves.
    #[arg(long)]
    search_leaves: bool,
    /// Show each position in a symmetric image drawn afresh each epoch.
    #[arg(long)]
    symmetries: bool,
    /// Seed of the sampling games, the starting weights and the epochs' orders.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: u16,
    /// Directory for champion.evo and stats.csv (created; must hold no champion yet).
    #[arg(long)]
    out: PathBuf,
}

fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("{text:?} is not a probability from 0 to 1")),
    }
}

fn step_size(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(rate) if rate > 0.0 && rate <= 1.0 => Ok(rate),
        _ => Err(format!("{text:?} is not a step size above 0 and at most 1")),
    }
}

pub fn run(args: &DistillArgs) -> CliResult {
    configure_threads(usize::from(args.threads))?;
    with_game!(args.game, |start| distill(start, args))
}

fn distill<G: NamedEvaluators>(start: G, args: &DistillArgs) -> CliResult {
    let champion_path = args.out.join("champion.evo");
    if champion_path.exists() {
        return Err(BadInput(format!(
            "{} already holds a champion: choose another --out",
            args.out.display()
        ))
        .into());
    }
    let teacher_champion = Champion::load_for(&args.teacher, &start)?;
    let teacher_network = start.network(&teacher_champion.architecture, teacher_champion.genes);
    let teacher = NetworkTeacher::new(teacher_network.clone(), 0, args.teacher_depth);
    let topology = Topology::new(&[start.input_len(), usize::from(args.hidden), 1])
        .map_err(|error| BadInput(format!("--hidden: {error}")))?;
    let mut student = Mlp::new(
        topology.clone(),
        start_genes(&start, &topology, args.start_from.as_deref(), args.seed)?,
    );
    stop_on_ctrl_c()?;

    let player = match &args.sample_with {
        None => teacher_network.clone(),
        Some(path) => {
            let champion = Champion::load_for(path, &start)?;
            start.network(&champion.architecture, champion.genes)
        }
    };
    let began = Instant::now();
    let (train, validation) = labelled_sets(&start, &player, &teacher, args)?;
    eprintln!(
        "sampled {} training and {} validation positions in {:.1} s",
        train.len(),
        validation.len(),
        began.elapsed().as_secs_f64()
    );

    std::fs::create_dir_all(&args.out)
        .map_err(|error| BadInput(format!("cannot create {}: {error}", args.out.display())))?;
    let fit = FitSettings {
        epochs: args.epochs as usize,
        minibatch: args.minibatch as usize,
        learning_rate: args.learning_rate,
        learning_rate_end: args.learning_rate_end,
        symmetries: args.symmetries,
    };
    let mut adam = Adam::new(student.genes().len());
    let mut rows = vec![
        "epoch,learning_rate,train_loss,validation_loss,seconds".to_string(),
        format!(
            "0,0,,{:.6},{:.1}",
            loss(&student, &validation),
            began.elapsed().as_secs_f64()
        ),
    ];
    let mut best = f64::INFINITY;
    for epoch in 0..fit.epochs {
        if evoboard::interrupt::requested() {
            return Err(interrupted(
                "evoboard distill with a new --out (the champion so far is kept)",
            ));
        }
        let epoch_began = Instant::now();
        let train_loss = fit_epoch(&mut student, &mut adam, &train, fit, args.seed, epoch);
        let stats = EpochStats {
            epoch: epoch + 1,
            learning_rate: fit.learning_rate_at(epoch),
            train_loss,
            validation_loss: loss(&student, &validation),
        };
        eprintln!(
            "epoch {}/{}: step {:.5}, training loss {:.5}, validation loss {:.5}, {:.1} s",
            stats.epoch,
            fit.epochs,
            stats.learning_rate,
            stats.train_loss,
            stats.validation_loss,
            epoch_began.elapsed().as_secs_f64()
        );
        rows.push(format!(
            "{},{},{:.6},{:.6},{:.1}",
            stats.epoch,
            stats.learning_rate,
            stats.train_loss,
            stats.validation_loss,
            began.elapsed().as_secs_f64()
        ));
        write_output(
            &args.out.join("stats.csv"),
            (rows.join("\n") + "\n").as_bytes(),
        )?;
        if stats.validation_loss < best {
            best = stats.validation_loss;
            let champion = Champion {
                architecture: Architecture::Mlp(topology.clone()),
                genes: student.genes().to_vec(),
                depth: 1,
                preset: "distill".to_string(),
                seed: args.seed,
                generation: stats.epoch as u32,
                fitness: -stats.validation_loss,
                benchmark_win_rate: None,
                test_win_rate: None,
            };
            champion.save(&champion_path, start.name())?;
        }
    }
    println!(
        "champion: {} (validation loss {best:.5})",
        champion_path.display()
    );
    Ok(())
}

/// The training and validation positions (two streams of the run's seed), labelled.
fn labelled_sets<G: NamedEvaluators>(
    start: &G,
    player: &Network,
    teacher: &NetworkTeacher,
    args: &DistillArgs,
) -> CliResult<(Labelled<G>, Labelled<G>)> {
    let set = |positions: u32, stream: u64| {
        let settings = SampleSettings {
            positions: positions as usize,
            opening_plies: args.opening_plies,
            exploration: args.exploration,
            leaves: args.search_leaves,
        };
        sample(start, player, teacher, settings, args.seed, stream)
            .map_err(|reason| BadInput(format!("--opening-plies: {reason}")))
    };
    Ok((set(args.positions, 0)?, set(args.validation_positions, 1)?))
}

/// The student's first weights: a champion MLP's of the same shape, or Nguyen-Widrow's.
fn start_genes<G: NamedEvaluators>(
    start: &G,
    topology: &Topology,
    from: Option<&Path>,
    seed: u64,
) -> CliResult<Vec<f32>> {
    let Some(path) = from else {
        return Ok(nguyen_widrow(topology, &mut rng_for(seed, &[u64::MAX])));
    };
    let champion = Champion::load_for(path, start)?;
    match &champion.architecture {
        Architecture::Mlp(found) if found == topology => Ok(champion.genes),
        other => Err(BadInput(format!(
            "--start-from {}: its network is {other}, not the student's {}",
            path.display(),
            Architecture::Mlp(topology.clone())
        ))
        .into()),
    }
}
