//! `evolve`: a whole run of the library's `Evolution` (created or resumed) from Python,
//! the GIL released while Rust works, a callback after each generation, and Ctrl-C
//! stopping the run cleanly at the end of the generation under way.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyModule};
use serde_json::{Value, json};

use evoboard::evolve::checkpoint::{EvolutionState, RunDir};
use evoboard::evolve::config::EvolveConfig;
use evoboard::evolve::schema::{self, ConfigError};
use evoboard::evolve::settings::{self as resolving};
use evoboard::evolve::{Evolution, EvolveError, Observer};
use evoboard::interrupt;

use crate::errors::{Sorted, bad, bad_input};
use crate::json::to_python;
use crate::position::Member;
use crate::state::{PyGame, game_name};
use crate::with_position;

/// The keyword settings of a call, as JSON values under the keys the caller wrote (a
/// `run.json` name, or `evolve`'s flag with `_` for `-`: [`schema::find`]), with
/// `generations` when given.
fn given_settings(
    py: Python<'_>,
    generations: Option<u64>,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, Value)>> {
    let dumps = PyModule::import(py, "json")?.getattr("dumps")?;
    let mut given: Vec<(String, Value)> = Vec::new();
    for (key, value) in settings.into_iter().flat_map(|settings| settings.iter()) {
        let key: String = key.extract()?;
        let text: String = dumps.call1((&value,))?.extract()?;
        given.push((key, serde_json::from_str(&text).map_err(bad_input)?));
    }
    if let Some(generations) = generations {
        given.push(("generations".into(), json!(generations)));
    }
    Ok(given)
}

/// The settings of the run: a new run's resolved from the keyword settings over the
/// preset's defaults for the game ([`resolving::resolve`], as the command line and plans
/// resolve theirs); a resumed run's own, with the changes a resume may make.
fn run_config<G: Member>(
    start: &G,
    out: &Path,
    preset: Option<&str>,
    given: &mut Vec<(String, Value)>,
    resume: bool,
) -> PyResult<EvolveConfig> {
    if resume {
        if preset.is_some() {
            return Err(bad(
                "with resume the run keeps its own preset (see its run.json)",
            ));
        }
        let stored = RunDir {
            dir: out.to_path_buf(),
        }
        .read_info()
        .map_err(Sorted::into_py)?
        .config;
        return resolving::resumed(&stored, given).map_err(|error| config_error(&error));
    }
    if let Some(preset) = preset {
        given.insert(0, ("preset".into(), json!(preset)));
    }
    resolving::resolve(start, given).map_err(in_python_terms)
}

/// A settings error as a `ValueError`, each setting named by its keyword (`td_games=`).
fn config_error(error: &ConfigError) -> PyErr {
    bad(format!(
        "invalid evolution setting: {}",
        error.spelled(schema::as_keyword)
    ))
}

/// Reports each generation to Python and asks the run to stop when the callback raises or
/// a signal (Ctrl-C) arrives.
struct PyObserver {
    callback: Option<Py<PyAny>>,
    /// What stopped the run: the callback's exception or KeyboardInterrupt.
    raised: Mutex<Option<PyErr>>,
}

/// The generation's row as `stats.csv` names its columns.
fn generation_row(state: &EvolutionState, seconds: f64) -> Value {
    let Some(row) = state.history.last() else {
        return Value::Null;
    };
    let bench = row.benchmark.as_ref();
    json!({
        "generation": row.generation,
        "generations": state.config.generations,
        "fitness_max": row.fitness_max,
        "fitness_mean": row.fitness_mean,
        "fitness_min": row.fitness_min,
        "bench_games": bench.map_or(0, |b| b.games),
        "bench_wins": bench.map(|b| b.wins),
        "bench_draws": bench.map(|b| b.draws),
        "bench_losses": bench.map(|b| b.losses),
        "bench_win_rate": bench.map(|b| b.win_rate),
        "bench_ci_low": bench.map(|b| b.ci_low),
        "bench_ci_high": bench.map(|b| b.ci_high),
        "diversity": row.diversity,
        "seconds": seconds,
    })
}

impl Observer for PyObserver {
    fn generation_done(&self, state: &EvolutionState, seconds: f64) {
        Python::attach(|py| {
            let outcome = (|| -> PyResult<()> {
                if let Some(callback) = &self.callback {
                    callback.call1(py, (to_python(py, &generation_row(state, seconds))?,))?;
                }
                py.check_signals()
            })();
            if let Err(error) = outcome {
                self.raised
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(error);
                interrupt::request();
            }
        });
    }
}

/// `error` as a Python error, worded for the caller of `evolve`: the library's messages that
/// name the command line's flags (`--resume`, `--out`) name the keyword arguments instead.
fn in_python_terms(error: EvolveError) -> PyErr {
    let worded = match &error {
        EvolveError::Config(error) => return config_error(error),
        EvolveError::RunExists(dir) => format!(
            "{dir} already holds a run: continue it with resume=True, or choose another out"
        ),
        EvolveError::NotEmpty(dir) => format!(
            "{dir} is not an empty directory and holds no run: out must be a new or empty \
             directory (or a run to continue with resume=True)"
        ),
        EvolveError::Locked { dir, holder } => format!(
            "{dir} is in use by another evoboard process (pid {holder}): wait for it to end, \
             or choose another out"
        ),
        _ => return error.into_py(),
    };
    // All three are the caller's input (`is_bad_input`), as the command line's exit code 2.
    bad(worded)
}

/// Creates (or with `resume`, continues) the run of `config` in `out` and plays it to its
/// end.
fn run<G: Member>(
    py: Python<'_>,
    start: &G,
    out: &Path,
    config: EvolveConfig,
    resume: bool,
    observer: &PyObserver,
) -> PyResult<Value> {
    let mut evolution = py
        .detach(|| match resume {
            false => Evolution::create(start.clone(), config, out),
            true => Evolution::resume_as(start.clone(), out, &config),
        })
        .map_err(in_python_terms)?;
    // A request left over from an earlier run would stop this one before it starts.
    interrupt::flag().store(false, std::sync::atomic::Ordering::SeqCst);
    let result = py.detach(|| evolution.run(observer));
    interrupt::flag().store(false, std::sync::atomic::Ordering::SeqCst);
    if let Some(raised) = observer
        .raised
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
    {
        return Err(raised);
    }
    match result {
        Err(EvolveError::Interrupted(_)) => {
            return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(()));
        }
        other => other.map_err(Sorted::into_py)?,
    }
    let state = evolution.state();
    let champion = state.final_champion().map(|_| out.join("champion.evo"));
    Ok(json!({
        "run": out,
        "champion": champion,
        "generation": state.generation,
        "gate_reached": state.gate_reached,
    }))
}

/// Runs (or resumes) an evolution; see `evoboard.evolve` for the documentation.
#[pyfunction]
#[pyo3(signature = (game = None, *, out, preset = None, generations = None, resume = false, on_generation = None, plots = None, **settings))]
#[allow(clippy::too_many_arguments)]
pub fn evolve<'py>(
    py: Python<'py>,
    game: Option<&Bound<'py, PyAny>>,
    out: PathBuf,
    preset: Option<&str>,
    generations: Option<u64>,
    resume: bool,
    on_generation: Option<Py<PyAny>>,
    plots: Option<PathBuf>,
    settings: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let game = match game {
        Some(game) => PyGame::from_arg(game)?,
        None if resume => {
            let info = RunDir { dir: out.clone() }
                .read_info()
                .map_err(Sorted::into_py)?;
            PyGame::from_arg(
                &game_name(&info.game)?
                    .as_str()
                    .into_pyobject(py)?
                    .into_any(),
            )?
        }
        None => {
            return Err(bad(
                "evolve needs a game (or resume=True with the run's out)",
            ));
        }
    };
    let mut given = given_settings(py, generations, settings)?;
    let observer = PyObserver {
        callback: on_generation,
        raised: Mutex::new(None),
    };
    let report = with_position!(&game.start, |start| {
        let config = run_config(start, &out, preset, &mut given, resume)?;
        run(py, start, &out, config, resume, &observer)?
    });
    if let Some(dir) = plots {
        py.detach(|| evoboard::report::plot::plot_run(&out, &dir))
            .map_err(Sorted::into_py)?;
    }
    to_python(py, &report)
}

/// The schema of `evolve`'s settings (see `evoboard.settings`): one dict a setting.
#[pyfunction]
pub fn settings(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    let rows: Vec<Value> = schema::SETTINGS
        .iter()
        .map(|setting| {
            let (min, max) = match setting.kind {
                schema::Kind::Whole { min, max } | schema::Kind::Wholes { min, max, .. } => {
                    (json!(min), json!(max))
                }
                schema::Kind::Real { min, max, .. } => (json!(min), json!(max)),
                _ => (Value::Null, Value::Null),
            };
            json!({
                "name": setting.name,
                "keyword": setting.keyword(),
                "flag": schema::as_flag(setting),
                "kind": setting.kind.name(),
                "min": min,
                "max": max,
                "accepts": setting.accepts(),
                "optional": setting.optional,
                "resumable": setting.resumable,
                "doc": setting.doc,
            })
        })
        .collect();
    to_python(py, &Value::Array(rows))
}
