//! Move ordering: searching the most promising moves first makes alpha-beta cut sooner.

use crate::eval::Evaluator;
use crate::games::{Game, MoveList, Player};

/// Sorts `moves` best first by the static value of the position each one leads to, as seen
/// by the side making the move. Stable, so equal moves keep generation order.
pub fn order_by_static_value<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    moves: &mut MoveList<G::Move>,
    evaluator: &E,
) {
    let children: MoveList<G> = moves.iter().map(|&mv| game.after(mv)).collect();
    let movers: MoveList<Player> = moves.iter().map(|_| game.to_move()).collect();
    let values = evaluator.evaluate_children(game, &children, &movers);
    let mut keyed: MoveList<(f32, G::Move)> =
        values.into_iter().zip(moves.iter().copied()).collect();
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
    moves.clear();
    moves.extend(keyed.into_iter().map(|(_, mv)| mv));
}
