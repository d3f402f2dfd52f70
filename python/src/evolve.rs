//! `evolve`: a whole run of the library's `Evolution` (created or resumed) from Python,
//! the GIL released while Rust works, a callback after each generation, and Ctrl-C
//! stopping the run cleanly at the end of the generation under way.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyModule};
use serde_json::{Value, json};

use evoboard::evolve::checkpoint::{EvolutionState, RunDir};
use evoboard::evolve::config::{DEFAULT_PRESET, EvolveConfig, Preset};
use evoboard::evolve::settings::set_named;
use evoboard::evolve::{Evolution, EvolveError, Observer};
use evoboard::interrupt;

use crate::errors::{Sorted, bad, bad_input};
use crate::json::to_python;
use crate::position::Member;
use crate::state::{PyGame, game_name};
use crate::with_position;

/// The settings `evolve` takes by keyword, named like the command line's flags (with `_`
/// for `-`), and the `run.json` field each sets when the names differ.
const RENAMED: [(&str, &str); 4] = [
    ("league_openings", "league_opening_plies"),
    ("bench_openings", "bench_opening_plies"),
    ("lambda_", "td_lambda"),
    ("td_openings", "td_opening_plies"),
];

/// The settings of a new run: the preset's defaults for the game, the keyword settings
/// set by name as plans set them ([`set_named`]), with the command line's names for four
/// of them and its two switches, and what they imply as the flags imply it.
fn new_config<G: Member>(
    py: Python<'_>,
    start: &G,
    preset: Preset,
    generations: Option<u32>,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<EvolveConfig> {
    let dumps = PyModule::import(py, "json")?.getattr("dumps")?;
    let mut named: Vec<(String, Value)> = Vec::new();
    for (key, value) in settings.into_iter().flat_map(|settings| settings.iter()) {
        let key: String = key.extract()?;
        let text: String = dumps.call1((&value,))?.extract()?;
        let value: Value = serde_json::from_str(&text).map_err(bad_input)?;
        let field = RENAMED
            .iter()
            .find(|(flag, _)| *flag == key)
            .map_or(key.as_str(), |(_, field)| field);
        match field {
            "no_league" => named.push(("league".into(), json!(!value.as_bool().unwrap_or(false)))),
            "unbounded_steps" if value.as_bool() == Some(true) => {
                named.push(("sigma_bound".into(), Value::Null));
            }
            "unbounded_steps" => {}
            "preset" | "generations" | "game" => {
                return Err(bad(format!(
                    "{key} is a parameter of evolve, not a setting"
                )));
            }
            field => named.push((field.to_string(), value)),
        }
    }
    if let Some(generations) = generations {
        named.push(("generations".into(), json!(generations)));
    }
    let defaults = EvolveConfig::for_game(preset, start);
    let mut config = set_named(
        &defaults,
        named.iter().map(|(k, v)| (k.as_str(), v.clone())),
    )
    .map_err(bad)?;
    config.imply(|name| named.iter().any(|(given, _)| given == name));
    Ok(config)
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

/// Creates (or with `resume`, continues) the run in `out` and plays it to its end.
fn run<G: Member>(
    py: Python<'_>,
    start: &G,
    out: &Path,
    config: Option<EvolveConfig>,
    generations: Option<u32>,
    observer: &PyObserver,
) -> PyResult<Value> {
    let mut evolution = py
        .detach(|| match config {
            Some(config) => Evolution::create(start.clone(), config, out),
            None => Evolution::resume(start.clone(), out, generations),
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
    generations: Option<u32>,
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
    let preset = match preset {
        Some(text) => Some(text.parse::<Preset>().map_err(bad)?),
        None => None,
    };
    if resume && (preset.is_some() || settings.is_some_and(|s| !s.is_empty())) {
        return Err(bad(
            "with resume the run keeps its own settings (see its run.json); only generations may differ",
        ));
    }
    let observer = PyObserver {
        callback: on_generation,
        raised: Mutex::new(None),
    };
    let report = with_position!(&game.start, |start| {
        let config = match resume {
            false => Some(new_config(
                py,
                start,
                preset.unwrap_or(DEFAULT_PRESET),
                generations,
                settings,
            )?),
            true => None,
        };
        run(py, start, &out, config, generations, &observer)?
    });
    if let Some(dir) = plots {
        py.detach(|| evoboard::report::plot::plot_run(&out, &dir))
            .map_err(Sorted::into_py)?;
    }
    to_python(py, &report)
}
