//! A distillation fit as a run: the positions sampled, the student fitted epoch by epoch,
//! and the epoch with the lowest validation loss kept as the champion, in a directory of
//! its own that the `distill` command and experiment plans both write:
//! - `distill.json`: the game and the settings ([`FitRecord`]), written once the positions
//!   are sampled; a resume or a plan checks them;
//! - `stats.csv`: a row per epoch (row 0 is the start's validation loss), [`FitRow`];
//! - `champion.evo`: the best epoch's network so far;
//! - `fit-state.evo`: where the fit stands after its last epoch (the student's weights,
//!   Adam's state, the rows), so that a stopped fit resumes exactly: the positions are
//!   sampled again from the same seed, and the epochs go on as if never stopped.
//!
//! The fit stops between epochs when [`crate::interrupt`] asks.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::champion::Champion;
use crate::csv_rows::{Fixed, column_names, csv_text};
use crate::eval::neural::NeuralInput;
use crate::learn::distill::error::DistillError;
use crate::learn::distill::fit::{Adam, Labelled, fit_epoch, loss, sample};
use crate::learn::distill::settings::{DistillSettings, SettingError};
use crate::learn::teacher::NetworkTeacher;
use crate::nn::{Architecture, Mlp, Network, Topology, nguyen_widrow};
use crate::persist::{self, DirLock, FileKind, PersistError};
use crate::rng::rng_for;

/// The preset name a distilled champion carries.
pub const DISTILL_PRESET: &str = "distill";

/// Largest `distill.json` or `stats.csv` read back.
const MAX_TEXT_BYTES: u64 = 1 << 24;

/// A fit's directory and where each of its files lives.
#[derive(Clone, Debug)]
pub struct FitDir {
    pub dir: PathBuf,
}

impl FitDir {
    pub fn record(&self) -> PathBuf {
        self.dir.join("distill.json")
    }
    pub fn stats(&self) -> PathBuf {
        self.dir.join("stats.csv")
    }
    pub fn champion(&self) -> PathBuf {
        self.dir.join("champion.evo")
    }
    pub fn state(&self) -> PathBuf {
        self.dir.join("fit-state.evo")
    }

    /// Whether a fit was begun here (its record written, or a champion left by an earlier
    /// build that kept no record).
    pub fn holds_fit(&self) -> bool {
        self.record().exists() || self.champion().exists()
    }
}

/// What `distill.json` holds: the game and the fit's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitRecord {
    pub game: String,
    pub settings: DistillSettings,
}

/// Reads the record of the fit in `dir`.
pub fn read_record(dir: &Path) -> Result<FitRecord, DistillError> {
    let file = FitDir {
        dir: dir.to_path_buf(),
    }
    .record();
    let no_fit = |reason: String| DistillError::NoFit {
        dir: dir.display().to_string(),
        reason,
    };
    let bytes = persist::read_limited(&file, MAX_TEXT_BYTES)
        .map_err(|error| no_fit(format!("cannot read {}: {error}", file.display())))?;
    serde_json::from_slice(&bytes)
        .map_err(|error| no_fit(format!("{} is damaged: {error}", file.display())))
}

/// A row of `stats.csv`: the epoch (0: the start, before any), its step, the mean squared
/// error over the training positions as the epoch saw them and over the validation
/// positions after it, and the seconds since the fit began (empty when a resumed fit's
/// earlier `stats.csv` did not say).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitRow {
    pub epoch: u32,
    pub learning_rate: Step,
    pub train_loss: Option<Fixed<6>>,
    pub validation_loss: Fixed<6>,
    pub seconds: Option<Fixed<1>>,
}

/// A step size, written as its shortest decimal text (`0.001`, `0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step(pub f32);

impl Serialize for Step {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Step {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        f32::deserialize(deserializer).map(Step)
    }
}

/// Reads a fit's `stats.csv`.
pub fn read_fit_stats(path: &Path) -> Result<Vec<FitRow>, DistillError> {
    let damaged = |reason: String| DistillError::Stats {
        path: path.display().to_string(),
        reason,
    };
    let bytes = persist::read_limited(path, MAX_TEXT_BYTES).map_err(|e| damaged(e.to_string()))?;
    csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<Result<Vec<FitRow>, _>>()
        .map_err(|error| damaged(format!("a row is damaged ({error})")))
}

/// Where a fit stands after an epoch: all the next epoch needs but the positions, which
/// are sampled again from the seed. It holds no times, so that a fit resumed ends with
/// the state of one never stopped; the seconds are `stats.csv`'s alone.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct FitState {
    epochs_done: u32,
    genes: Vec<f32>,
    adam: Adam,
    /// The epoch kept as the champion so far (the first of the lowest validation
    /// losses), and its loss.
    best_epoch: u32,
    best_loss: f64,
    rows: Vec<StateRow>,
}

/// A row of `stats.csv` as the state keeps it (exact numbers; the file rounds them).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct StateRow {
    epoch: u32,
    learning_rate: f32,
    train_loss: Option<f64>,
    validation_loss: f64,
}

impl StateRow {
    /// The row of `stats.csv`, `seconds` into the fit.
    fn as_csv(&self, seconds: Option<f64>) -> FitRow {
        FitRow {
            epoch: self.epoch,
            learning_rate: Step(self.learning_rate),
            train_loss: self.train_loss.map(Fixed),
            validation_loss: Fixed(self.validation_loss),
            seconds: seconds.map(Fixed),
        }
    }
}

/// What a fit reports as it goes.
pub trait FitObserver {
    /// The positions were sampled (`train` and `validation` of them) in `seconds`;
    /// `epochs_done` epochs were done before (a resumed fit).
    fn sampled(&self, _train: usize, _validation: usize, _seconds: f64, _epochs_done: u32) {}
    /// An epoch ended (`row`), of `epochs`; it took `seconds`.
    fn epoch_done(&self, _row: &FitRow, _epochs: u32, _seconds: f64) {}
}

/// An observer that reports nothing.
pub struct Quiet;

impl FitObserver for Quiet {}

/// Whether a fit is begun or continued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Begin {
    /// A new fit: the directory must hold none.
    New,
    /// The fit the directory holds, which must have the settings given.
    Resume,
    /// The fit the directory holds if there is one (it must have the settings given), else
    /// a new one: how a plan finishes its runs.
    NewOrResume,
}

/// How a fit ended.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOutcome {
    pub champion: PathBuf,
    /// The epoch kept as the champion, and its validation loss.
    pub best_epoch: u32,
    pub best_loss: f64,
}

/// The networks a fit reads from its settings' files: the teacher (and the network that
/// plays the sampling games), and the student's first weights.
struct Sources {
    teacher: NetworkTeacher,
    player: Network,
    topology: Topology,
    first_genes: Vec<f32>,
}

impl Sources {
    /// Loads and checks every file `settings` name, for the game `start` begins.
    fn load<G: NeuralInput>(
        start: &G,
        settings: &DistillSettings,
    ) -> Result<Sources, DistillError> {
        let champion = |setting: &'static str, path: &Path| {
            Champion::load_for(path, start).map_err(|error| DistillError::File { setting, error })
        };
        let teacher = champion("teacher", &settings.teacher)?;
        let teacher_network = start.network(&teacher.architecture, teacher.genes);
        let player = match &settings.sample_with {
            None => teacher_network.clone(),
            Some(path) => {
                let sampler = champion("sample_with", path)?;
                start.network(&sampler.architecture, sampler.genes)
            }
        };
        let topology = Topology::new(&[start.input_len(), usize::from(settings.hidden), 1])
            .map_err(|error| SettingError::new("hidden", error.to_string()))?;
        let first_genes = match &settings.start_from {
            None => nguyen_widrow(&topology, &mut rng_for(settings.seed, &[u64::MAX])),
            Some(path) => {
                let from = champion("start_from", path)?;
                match &from.architecture {
                    Architecture::Mlp(found) if *found == topology => from.genes,
                    other => {
                        return Err(SettingError::new(
                            "start_from",
                            format!(
                                "{}: its network is {other}, not the student's {}",
                                path.display(),
                                Architecture::Mlp(topology.clone())
                            ),
                        )
                        .into());
                    }
                }
            }
        };
        Ok(Sources {
            teacher: NetworkTeacher::new(teacher_network, 0, settings.teacher_depth),
            player,
            topology,
            first_genes,
        })
    }
}

/// The epochs the fit in `dir` has done (0 when it has none, or no state yet).
pub fn epochs_done<G: NeuralInput>(start: &G, dir: &Path) -> Result<u32, DistillError> {
    let files = FitDir {
        dir: dir.to_path_buf(),
    };
    Ok(read_state(start, &files)?.map_or(0, |state| state.epochs_done))
}

/// Refuses settings whose files cannot be read as the fit needs them (a teacher that is
/// not a champion of the game, a start of another shape): what a plan checks before any
/// run starts.
pub fn check_files<G: NeuralInput>(
    start: &G,
    settings: &DistillSettings,
) -> Result<(), DistillError> {
    Sources::load(start, settings).map(drop)
}

/// Fits a student to `settings`' teacher in `dir` for the game `start` begins, begun or
/// continued as `begin` says, and returns the champion kept. A finished fit returns at
/// once. Nothing is written before the positions are sampled, so settings that cannot be
/// fitted leave no directory behind.
pub fn run_fit<G: NeuralInput>(
    start: &G,
    settings: &DistillSettings,
    dir: &Path,
    begin: Begin,
    observer: &dyn FitObserver,
) -> Result<FitOutcome, DistillError> {
    let files = FitDir {
        dir: dir.to_path_buf(),
    };
    let existing = files.holds_fit();
    let mut lock = None;
    let mut state = None;
    match (begin, existing) {
        (Begin::New, true) => return Err(DistillError::Exists(dir.display().to_string())),
        (Begin::Resume, false) => {
            return Err(DistillError::NoFit {
                dir: dir.display().to_string(),
                reason: "no distill.json there".to_string(),
            });
        }
        (Begin::Resume | Begin::NewOrResume, true) => {
            lock = Some(DirLock::acquire(dir)?);
            check_record(start, settings, dir)?;
            state = read_state(start, &files)?;
        }
        (Begin::New | Begin::NewOrResume, false) => {}
    }
    if let Some(done) = state.as_ref().filter(|s| s.epochs_done >= settings.epochs) {
        return Ok(outcome(&files, done));
    }
    let sources = Sources::load(start, settings)?;
    let began = Instant::now();
    let set = |validation: bool, stream: u64| {
        let settings_of_set = settings.sample_settings(validation);
        sample(
            start,
            &sources.player,
            &sources.teacher,
            settings_of_set,
            settings.seed,
            stream,
        )
        .map_err(|reason| SettingError::new("opening_plies", reason))
    };
    let (train, validation) = (set(false, 0)?, set(true, 1)?);
    let epochs_done = state.as_ref().map_or(0, |s| s.epochs_done);
    observer.sampled(
        train.len(),
        validation.len(),
        began.elapsed().as_secs_f64(),
        epochs_done,
    );
    if lock.is_none() {
        lock = Some(DirLock::acquire(dir)?);
        if files.holds_fit() {
            return Err(DistillError::Exists(dir.display().to_string()));
        }
        write_record(start, settings, &files)?;
    }
    let mut student = Mlp::new(sources.topology.clone(), sources.first_genes.clone());
    let (state, seconds) = match state {
        Some(state) => {
            student.set_genes(&state.genes);
            let seconds = seconds_so_far(&files, &state);
            (state, seconds)
        }
        None => (
            FitState {
                epochs_done: 0,
                genes: Vec::new(),
                adam: Adam::new(student.genes().len()),
                best_epoch: 0,
                best_loss: f64::INFINITY,
                rows: vec![StateRow {
                    epoch: 0,
                    learning_rate: 0.0,
                    train_loss: None,
                    validation_loss: loss(&student, &validation),
                }],
            },
            vec![Some(began.elapsed().as_secs_f64())],
        ),
    };
    let sets = Sets { train, validation };
    let fitted = Fitted {
        student,
        state,
        seconds,
    };
    let outcome = fit_epochs(start, settings, &files, &sets, fitted, observer);
    drop(lock);
    outcome
}

/// A fit's positions.
struct Sets<G> {
    train: Labelled<G>,
    validation: Labelled<G>,
}

/// The student as the epochs leave it: its network, its state, and the seconds of each
/// row of `stats.csv`.
struct Fitted {
    student: Mlp,
    state: FitState,
    seconds: Vec<Option<f64>>,
}

/// The seconds `stats.csv` gives each row of `state` (none for a row it lacks): what a
/// resumed fit's file keeps of the times before.
fn seconds_so_far(files: &FitDir, state: &FitState) -> Vec<Option<f64>> {
    let written = read_fit_stats(&files.stats()).unwrap_or_default();
    state
        .rows
        .iter()
        .map(|row| {
            written
                .iter()
                .find(|w| w.epoch == row.epoch)
                .and_then(|w| w.seconds.map(|s| s.0))
        })
        .collect()
}

/// Runs the epochs left after `state`, each written out as it ends.
fn fit_epochs<G: NeuralInput>(
    start: &G,
    settings: &DistillSettings,
    files: &FitDir,
    sets: &Sets<G>,
    fitted: Fitted,
    observer: &dyn FitObserver,
) -> Result<FitOutcome, DistillError> {
    let Fitted {
        mut student,
        mut state,
        mut seconds,
    } = fitted;
    let fit = settings.fit_settings();
    // Seconds go on from where the rows stopped (a resumed fit sampled again meanwhile).
    let offset = seconds.iter().rev().find_map(|s| *s).unwrap_or(0.0);
    let began = Instant::now();
    for epoch in state.epochs_done as usize..fit.epochs {
        if crate::interrupt::requested() {
            return Err(DistillError::Interrupted(state.epochs_done));
        }
        let epoch_began = Instant::now();
        let train_loss = fit_epoch(
            &mut student,
            &mut state.adam,
            &sets.train,
            fit,
            settings.seed,
            epoch,
        );
        let row = StateRow {
            epoch: epoch as u32 + 1,
            learning_rate: fit.learning_rate_at(epoch),
            train_loss: Some(train_loss),
            validation_loss: loss(&student, &sets.validation),
        };
        if row.validation_loss < state.best_loss {
            state.best_loss = row.validation_loss;
            state.best_epoch = row.epoch;
            let champion = Champion {
                architecture: Architecture::Mlp(student.topology().clone()),
                genes: student.genes().to_vec(),
                depth: 1,
                preset: DISTILL_PRESET.to_string(),
                seed: settings.seed,
                generation: row.epoch,
                fitness: -row.validation_loss,
                benchmark_win_rate: None,
                test_win_rate: None,
            };
            champion.save(&files.champion(), start.name())?;
        }
        state.rows.push(row);
        seconds.push(Some(offset + began.elapsed().as_secs_f64()));
        state.epochs_done = row.epoch;
        state.genes = student.genes().to_vec();
        write_stats(files, &state.rows, &seconds)?;
        persist::save(&files.state(), FileKind::FitState, start.name(), &state)?;
        observer.epoch_done(
            &row.as_csv(seconds.last().copied().flatten()),
            settings.epochs,
            epoch_began.elapsed().as_secs_f64(),
        );
    }
    Ok(outcome(files, &state))
}

/// The champion of a fit as `state` leaves it.
fn outcome(files: &FitDir, state: &FitState) -> FitOutcome {
    FitOutcome {
        champion: files.champion(),
        best_epoch: state.best_epoch,
        best_loss: state.best_loss,
    }
}

/// Refuses to continue the fit in `dir` with settings other than its record's, or for
/// another game.
fn check_record<G: NeuralInput>(
    start: &G,
    settings: &DistillSettings,
    dir: &Path,
) -> Result<(), DistillError> {
    let record = read_record(dir)?;
    if record.game != start.name() {
        return Err(DistillError::Other {
            dir: dir.display().to_string(),
            differing: format!(
                "it is a fit of the game {}, not {}",
                record.game.escape_debug(),
                start.name()
            ),
        });
    }
    let differing = record.settings.differences(settings);
    if differing.is_empty() {
        return Ok(());
    }
    Err(DistillError::Other {
        dir: dir.display().to_string(),
        differing: differing.join("; "),
    })
}

/// The state the fit in `files` left, if it finished an epoch, checked against the game's
/// network of its record.
fn read_state<G: NeuralInput>(start: &G, files: &FitDir) -> Result<Option<FitState>, DistillError> {
    let path = files.state();
    if !path.exists() {
        return Ok(None);
    }
    let state: FitState = persist::load(&path, FileKind::FitState, start.name())?;
    let sound = state.rows.len() == state.epochs_done as usize + 1
        && state.adam.genes() == state.genes.len();
    if !sound {
        return Err(PersistError::Corrupt {
            path,
            reason: "its rows, epochs and weights disagree".to_string(),
        }
        .into());
    }
    Ok(Some(state))
}

fn write_record<G: NeuralInput>(
    start: &G,
    settings: &DistillSettings,
    files: &FitDir,
) -> Result<(), DistillError> {
    let record = FitRecord {
        game: start.name().to_string(),
        settings: settings.clone(),
    };
    let mut text = serde_json::to_string_pretty(&record).expect("plain data serialises");
    text.push('\n');
    write(&files.record(), text.as_bytes())
}

fn write_stats(
    files: &FitDir,
    rows: &[StateRow],
    seconds: &[Option<f64>],
) -> Result<(), DistillError> {
    let rows: Vec<FitRow> = rows
        .iter()
        .zip(seconds)
        .map(|(row, &seconds)| row.as_csv(seconds))
        .collect();
    let header = column_names(&rows[0]);
    let text = csv_text(&header, &rows, csv::QuoteStyle::Necessary);
    write(&files.stats(), text.as_bytes())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), DistillError> {
    persist::write_atomic(path, bytes).map_err(|error| {
        PersistError::Write {
            path: path.to_path_buf(),
            error,
        }
        .into()
    })
}
