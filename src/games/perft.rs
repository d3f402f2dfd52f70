//! perft: counts the leaves of the game tree to a fixed depth. The standard correctness
//! check for a move generator, because published counts exist for Othello and Oware.

use super::{Game, MoveList};

/// Number of leaf positions `depth` plies below `game`. A forced pass and an extra turn
/// each count as one ply; a finished game counts as one leaf however much depth remains.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        // Bulk counting: the leaves one ply down are the legal moves (or the finished game).
        return game.count_moves().max(1) as u64;
    }
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        return 1;
    }
    moves
        .iter()
        .map(|&mv| {
            let child = game.after(mv);
            perft(&child, depth - 1)
        })
        .sum()
}

/// [`perft`] with a game's own fast path, where it has one: Othello walks its move masks
/// directly instead of filling move lists and copying positions. Both count alike (tested).
pub trait Perft: Game {
    fn perft_fast(&self, depth: u32) -> u64 {
        perft(self, depth)
    }
}

impl<R: super::mancala::Rules> Perft for super::mancala::Mancala<R> {}
impl Perft for super::mancala::Congkak {}
