//! The Python package `evoboard`'s compiled part, `evoboard._evoboard`: the games, agents,
//! commands and evolution of the library, for the pure-Python modules of the package
//! (`python/evoboard/`) to re-export and build on.

mod agent;
mod commands;
mod errors;
mod evolve;
mod json;
mod position;
mod state;

use pyo3::prelude::*;

#[pymodule]
fn _evoboard(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<state::PyGame>()?;
    module.add_class::<state::PyState>()?;
    module.add_class::<agent::PyAgent>()?;
    module.add(
        "EvoboardError",
        module.py().get_type::<errors::EvoboardError>(),
    )?;
    module.add_function(wrap_pyfunction!(state::_game_at, module)?)?;
    module.add_function(wrap_pyfunction!(agent::agent, module)?)?;
    module.add_function(wrap_pyfunction!(agent::search_agent, module)?)?;
    module.add_function(wrap_pyfunction!(commands::benchmark, module)?)?;
    module.add_function(wrap_pyfunction!(commands::panel, module)?)?;
    module.add_function(wrap_pyfunction!(commands::tournament, module)?)?;
    module.add_function(wrap_pyfunction!(commands::perft, module)?)?;
    module.add_function(wrap_pyfunction!(commands::solve, module)?)?;
    module.add_function(wrap_pyfunction!(evolve::evolve, module)?)?;
    module.add_function(wrap_pyfunction!(evolve::settings, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
