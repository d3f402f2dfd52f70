//! The paper's panel of opponents (seed 004's evaluation): negamax players each built from
//! one feature of the game's heuristic, then the whole heuristic, the game's reference
//! evaluators, and a random player. `panel` plays them all; `evolve` can benchmark each
//! generation against them.

use crate::eval::NamedEvaluators;

/// The panel's specs at `depth`: each feature alone, the heuristic, the game's extra
/// reference evaluators, then `random` as the floor.
pub fn panel_opponents<G: NamedEvaluators>(depth: u32) -> Vec<String> {
    let features = G::panel_features().into_iter();
    let evaluators = features
        .chain(["heuristic"])
        .chain(G::panel_extras().iter().copied());
    evaluators
        .map(|name| search_spec(depth, name))
        .chain(["random".to_string()])
        .collect()
}

/// A `depth`-ply search over evaluator `name`, in the short form where specs have one
/// (`heuristic:D`, `wpc:D`), so the rows read as people write the specs.
pub(crate) fn search_spec(depth: u32, name: &str) -> String {
    match name {
        "heuristic" | "wpc" => format!("{name}:{depth}"),
        _ => format!("minimax:{depth}:{name}"),
    }
}
