//! A sixth game added from outside the library: Connect Four, through evoboard's public
//! API alone. `game.rs` has its rules (`Game`, `Notation`, `Describe`, `Perft`) and
//! `eval.rs` how evaluators read it (`NeuralInput`, `NamedEvaluators`); with those,
//! `evoboard`'s commands serve it unchanged:
//!
//! ```sh
//! cargo run --release -p evoboard-cli --example connect_four -- evolve --out runs/c4
//! cargo run --release -p evoboard-cli --example connect_four -- benchmark --player champion:runs/c4/champion.evo
//! cargo run --release -p evoboard-cli --example connect_four -- play --first human --second heuristic:4
//! ```

mod eval;
mod game;
#[cfg(test)]
mod tests;

fn main() -> std::process::ExitCode {
    evoboard_cli::run_game(game::ConnectFour::new())
}
