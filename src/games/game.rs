//! [`Game`], the rules of a board game as search, perft and learning see them, and
//! [`position_key`], which mixes a position's words into the key a search reuses.

use std::fmt;

use super::{JointDecision, MoveList, Outcome, Player};

/// The rules of a two-player, perfect-information, deterministic board game: all that
/// search, perft and learning need.
///
/// Turn order is not assumed to alternate: a game may grant extra turns (Kalah, Congklak)
/// or force a pass (Othello). [`Game::legal_moves`] is empty exactly when the game is over;
/// a forced pass is a real move, so every search and perft treats it as one ply.
/// People's notation is [`Notation`](super::Notation), text for people is
/// [`Describe`](super::Describe), and simultaneous decisions are the opt-in
/// [`JointDecision`].
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// A move: a small `Copy` value.
    type Move: Copy + Eq + fmt::Debug + Send + Sync + 'static;

    /// The player whose turn it is.
    fn to_move(&self) -> Player;

    /// Clears `moves` and fills it with every legal move; empty only when the game is over.
    fn legal_moves(&self, moves: &mut MoveList<Self::Move>);

    /// Number of legal moves (a forced pass counts as one); 0 only when the game is over.
    /// Games override it when they can count faster than they can list.
    fn count_moves(&self) -> usize {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.len()
    }

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// Plays a move known to be legal. Behaviour for an illegal move is unspecified
    /// (but memory-safe): use [`Notation::play`](super::Notation::play) for untrusted input.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// The position a legal move leads to, this one left as it is: what a search, an
    /// ordering or a learner comparing moves looks at.
    fn after(&self, mv: Self::Move) -> Self {
        let mut child = self.clone();
        child.play_unchecked(mv);
        child
    }

    /// `None` while the game goes on, the result once it is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Points of the first and second player (discs, or seeds in store); once the game is
    /// over these are the final scores under the game's counting rule.
    fn score(&self) -> [i32; 2];

    /// The simultaneous decision this position is, if it is one (Congkak's opening): both
    /// players choose the next move at once, neither seeing the other's choice. Games that
    /// never have one keep the default; generic code meets them through
    /// [`joint`](super::joint)'s helpers.
    fn joint(&self) -> Option<&dyn JointDecision<Self>> {
        None
    }

    /// A 64-bit hash of everything that decides this position's future and its evaluation
    /// (equal positions, equal keys; [`position_key`] mixes the words), so that a search
    /// may reuse what it found when a position recurs by another move order. `None`, the
    /// default, where the future also depends on how the game got here (a repetition
    /// rule) or is a simultaneous decision: such positions are always searched afresh.
    fn position_key(&self) -> Option<u64> {
        None
    }

    /// How far the game has come, in the unit by which selective search (Multi-ProbCut)
    /// calibrates its cuts: the deep and shallow values of a search are
    /// related differently in the opening and near the end. Othello says its empty squares;
    /// a game that keeps the default is one stage throughout.
    fn stage(&self) -> u32 {
        0
    }
}

/// Mixes `words` into one well-spread 64-bit key for [`Game::position_key`]: every bit of
/// every word moves about half the key's bits, so keys of near-identical positions differ.
pub fn position_key(words: &[u64]) -> u64 {
    words.iter().fold(0x243F_6A88_85A3_08D3, |key, &word| {
        let mixed = (key ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mixed = (mixed ^ (mixed >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        mixed ^ (mixed >> 32)
    })
}
