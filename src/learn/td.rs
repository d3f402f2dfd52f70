//! Temporal-difference learning, TD(λ) (TD(0) by default), of a position value for the side
//! to move, for any game and any differentiable network (Sutton 1988; for Othello n-tuple
//! networks, Lucas 2008 and Szubert, Jaśkowski & Krawiec 2009).
//!
//! A learning game is played by the network itself (self-play) or by the network against a
//! sparring partner. The network chooses by a 1-ply search: each legal move is worth the
//! value of the position it leads to for the mover (exact for a finished game), and with
//! probability ε it plays a uniformly random move instead, to see positions greedy play
//! would not reach. After each move from a position s to s′, V(s) moves towards the value
//! s′ has for s's mover — V(s′), negated when the side to move changed, or the final result
//! (+1, 0, −1) when s′ ends the game:
//!
//!   w ← w + α · (target − V(s)) · ∂V(s)/∂w.
//!
//! At a simultaneous decision (Congkak's opening) a random joint move is played and
//! nothing is learned. Positions left by a random (exploring) move of the network are not
//! updated, so what is learned is the value of greedy play (Sutton & Barto's tic-tac-toe
//! rule, also used by Szubert et al.). A sparring partner's moves, random or not, are the
//! environment: the position before each is updated.
//!
//! With λ > 0 each target is the λ-return instead, a blend of the one-move targets down
//! the rest of the game (`blend_lambda_returns`): results reach early positions in
//! fewer games, at the price of noisier targets.

use rand::RngExt;

use crate::arena::{Agent, Forfeit, History};
use crate::eval::neural::{NetworkView, NeuralInput};
use crate::games::joint::is_joint;
use crate::games::{Game, MoveList, Player};
use crate::learn::ordered::in_order;
use crate::learn::ranking::ranking_updates;
use crate::learn::teacher::Teacher;
use crate::learn::updates::Updates;
use crate::nn::Network;
use crate::nn::ntuple::IndexCache;
use crate::rng::GameRng;
use crate::search::search;

/// How a network learns from its games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TdSettings {
    /// Step size α.
    pub learning_rate: f32,
    /// Probability ε that the network plays a random move.
    pub exploration: f64,
    /// Whether the position before a random move learns the value after it (on-policy:
    /// the values of play that keeps exploring, as in the Othello League's games, where
    /// both sides play 10% random moves) or learns nothing (the values of greedy play).
    pub learn_exploring: bool,
    /// λ of TD(λ): how far each position's target reaches down the game (0: one move, the
    /// TD(0) target; towards 1: the game's result).
    pub lambda: f32,
    /// Games [`train`] plays at once against the same weights: enough to keep every thread
    /// busy, few enough that the weights a game sees are at most a few games old. The
    /// batch, not the number of threads, decides the result; the threads wait for each
    /// other once a batch, so larger batches scale better.
    pub batch: usize,
    /// Whether each position's symmetric images (see
    /// [`NeuralInput::symmetric_images`]) learn its target too: a network that does not
    /// share weights between symmetric squares, such as an MLP over the board, then sees
    /// eight positions for each one played.
    pub symmetries: bool,
    /// Plies the learner searches to choose its moves (1: the greedy one-ply choice). A
    /// network played at depth 2 meets the positions its 2-ply search leads to, not those
    /// of one-ply play: learning (a teacher's values above all) on those positions
    /// teaches it where it plays.
    pub play_depth: u32,
    /// With a teacher: the temperature at which each learning position's moves also learn
    /// the teacher's order of them (see [`crate::learn::ranking`]); 0 for none.
    pub ranking: f32,
}

/// The value for `mover` of the position `child` reached by one of its moves: exact when
/// the game is over (+1 win, 0 draw, −1 loss), else the network's.
pub fn value_after<G: NeuralInput>(network: &Network, child: &G, mover: Player) -> f32 {
    network.squash(child.score_after(network, mover))
}

/// The move a 1-ply search with `network` picks and its value for the mover: the position
/// with the best score for the mover (the first in generation order on ties). `cache`
/// keeps the boards of the game's earlier moves (see [`IndexCache`]).
pub fn greedy_move<G: NeuralInput>(
    network: &Network,
    game: &G,
    cache: &mut IndexCache,
) -> (G::Move, f32) {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let children: Vec<G> = moves.iter().map(|&mv| game.after(mv)).collect();
    let scores = game.scores_after(network, &children, game.to_move(), cache);
    let mut best = (moves[0], f32::NEG_INFINITY);
    for (&mv, &score) in moves.iter().zip(&scores) {
        if score > best.1 {
            best = (mv, score);
        }
    }
    (best.0, network.squash(best.1))
}

/// Who plays a learning game against the network: itself, or a sparring partner that
/// takes one side.
pub enum Opponent<'a, G: Game> {
    SelfPlay,
    Partner {
        agent: &'a dyn Agent<G>,
        /// The side the partner plays.
        side: Player,
    },
}

/// What a learning game takes from one move.
enum Learn {
    No,
    Towards(f32),
    Evaluate,
}

/// A learning game played with fixed weights: the positions to update, each with its
/// target, in the order they arose.
pub struct Trajectory<G> {
    pub updates: Vec<(G, f32)>,
    /// The learner's result against a partner: +1, 0 or −1 (`None` in self-play).
    pub result: Option<i32>,
}

/// Plays one game from `start` with `network` fixed and returns what it would learn, or
/// the sparring partner's forfeit (a game it gave up teaches nothing true).
pub fn play_trajectory<G: NeuralInput>(
    network: &Network,
    start: &G,
    opponent: &Opponent<'_, G>,
    settings: TdSettings,
    rng: &mut GameRng,
) -> Result<Trajectory<G>, Forfeit> {
    // What each move teaches, in order: `None` for a move that teaches nothing.
    let mut steps = Vec::new();
    let mut game = start.clone();
    let mut moves = Vec::new();
    let mut cache = IndexCache::default();
    while let Some(step) = next_move(
        network,
        (start, &mut game, &mut moves),
        opponent,
        settings,
        rng,
        &mut cache,
    )? {
        steps.push(step);
    }
    if settings.lambda > 0.0 {
        blend_lambda_returns(&mut steps, settings.lambda);
    }
    let updates = steps.into_iter().flatten().collect();
    let result = match opponent {
        Opponent::SelfPlay => None,
        Opponent::Partner { side, .. } => game
            .outcome()
            .map(|outcome| outcome.sign_for(side.opponent())),
    };
    Ok(Trajectory { updates, result })
}

/// Turns each step's one-move target into its λ-return, from the game's end backwards:
/// G(s) = (1 − λ) · target(s) + λ · G(s′), where s′ is the next updated position (its return
/// negated when the side to move changed). The blend reaches only over moves that were
/// themselves learned from: a move that teaches nothing (an exploring move, a joint move)
/// cuts it, and the position before keeps its one-move target (Watkins's cut; Sutton &
/// Barto, *Reinforcement Learning*, 1998, §7.6). The weights stay fixed while a game is
/// played, so these are the offline λ-returns of the game.
fn blend_lambda_returns<G: Game>(steps: &mut [Option<(G, f32)>], lambda: f32) {
    // The side to move and the return of the next position learned from, if no move that
    // teaches nothing came between.
    let mut later: Option<(Player, f32)> = None;
    for step in steps.iter_mut().rev() {
        later = step.as_mut().map(|(position, target)| {
            if let Some((next_mover, next_return)) = later {
                let sign = if next_mover == position.to_move() {
                    1.0
                } else {
                    -1.0
                };
                *target = (1.0 - lambda) * *target + lambda * sign * next_return;
            }
            (position.to_move(), *target)
        });
    }
}

/// Plays the next move of a learning game in `game`, reached from `start` by `played`
/// (to which the move is added), and says what it teaches: `None` once the game is over,
/// else the position before the move with its target, if it has one; or the partner's
/// forfeit.
fn next_move<G: NeuralInput>(
    network: &Network,
    (start, game, played): (&G, &mut G, &mut Vec<G::Move>),
    opponent: &Opponent<'_, G>,
    settings: TdSettings,
    rng: &mut GameRng,
    cache: &mut IndexCache,
) -> Result<Option<Option<(G, f32)>>, Forfeit> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        return Ok(None);
    }
    let mover = game.to_move();
    // What is learned from the move: nothing, or the value of its position for the mover
    // (already known after a greedy choice).
    let (mv, learn) = match opponent {
        // Both choose unseen (Congkak's opening): a random joint move, not learned from.
        _ if is_joint(game) => (moves[rng.random_range(0..moves.len())], Learn::No),
        Opponent::Partner { agent, side } if *side == mover => {
            let history = History {
                start,
                moves: played,
                spent: None,
            };
            (agent.choose(game, history, rng)?, Learn::Evaluate)
        }
        _ if rng.random_bool(settings.exploration) => {
            let learn = if settings.learn_exploring {
                Learn::Evaluate
            } else {
                Learn::No
            };
            (moves[rng.random_range(0..moves.len())], learn)
        }
        _ if settings.play_depth > 1 => {
            let chosen = search(game, settings.play_depth, &NetworkView(network)).best;
            (chosen.expect("a position with moves"), Learn::Evaluate)
        }
        _ => {
            let (mv, value) = greedy_move(network, game, cache);
            (mv, Learn::Towards(value))
        }
    };
    let before = game.clone();
    game.play_unchecked(mv);
    played.push(mv);
    let target = match learn {
        Learn::No => return Ok(Some(None)),
        Learn::Towards(value) => value,
        Learn::Evaluate => value_after(network, game, mover),
    };
    Ok(Some(Some((before, target))))
}

/// One learning game of a block: where it starts, whom it is against, and its generator.
pub struct GameSetup<'a, G: Game> {
    pub start: G,
    pub opponent: Opponent<'a, G>,
    pub rng: GameRng,
}

/// Plays learning games `0..games` (game k set up by `setup(k)`) and updates `network`:
/// each batch of [`TdSettings::batch`] games is played in parallel against the weights as they stand,
/// and the batch's updates are applied game by game, in order. The result depends on the
/// setups alone, never on the number of threads. Returns the learner's result of each game
/// (see [`Trajectory::result`]), or the first forfeit of a sparring partner, in game order
/// (the network then holds the games before it).
///
/// With several threads, the updates go to a second copy of the weights, game by game as
/// soon as a game and those before it are over, while the batch's later games are still
/// played against the first; the copies swap roles after each batch. Applying the updates,
/// which only one thread can do, then takes little time from the games (see
/// [`Updates`] for what is left of it).
///
/// With a `teacher`, each position it knows is moved towards the teacher's value of it
/// instead of the learner's own value one move later. A teacher network knows every
/// position (distillation on the positions the learner's own play reaches): a network that
/// learns slowly from results alone, such as an MLP over raw discs, can learn the
/// evaluation a faster learner found. Exact late values teach the endgame its true results,
/// from which TD carries them back to earlier positions.
pub fn train<'a, G: NeuralInput>(
    network: &mut Network,
    games: usize,
    setup: &(dyn Fn(usize) -> GameSetup<'a, G> + Sync),
    settings: TdSettings,
    teacher: Option<&dyn Teacher<G>>,
) -> Result<Vec<Option<i32>>, Forfeit> {
    let rate = settings.learning_rate;
    let mut results = Vec::with_capacity(games);
    // The weights each batch's updates go to while its games are played, with several
    // threads; one thread could not apply them while it plays, and applies them in place.
    let mut next = (rayon::current_num_threads() > 1).then(|| network.clone());
    let size = settings.batch.max(1);
    for batch in (0..games).step_by(size) {
        let count = size.min(games - batch);
        let frozen = &*network;
        let play = |j: usize| play_game(frozen, setup(batch + j), settings, teacher);
        match &mut next {
            None => {
                let played: Vec<_> = (0..count).map(play).collect();
                apply_in_order(played.into_iter(), network, rate, &mut results)?;
            }
            Some(next) => {
                let applied = in_order(count, &play, |played| {
                    next.copy_weights_from(frozen);
                    apply_in_order(played, next, rate, &mut results)
                });
                std::mem::swap(network, next);
                applied?;
            }
        }
    }
    Ok(results)
}

/// Plays the learning game `setup` against `network` and returns its updates, prepared
/// (see [`Updates`]), with its result (see [`Trajectory::result`]). With a `teacher`, the
/// targets are the teacher's values where it knows them (see [`train`]), and with
/// [`TdSettings::ranking`] each position's moves learn the teacher's order of them too.
fn play_game<G: NeuralInput>(
    network: &Network,
    setup: GameSetup<'_, G>,
    settings: TdSettings,
    teacher: Option<&dyn Teacher<G>>,
) -> Result<(Updates<G>, Option<i32>), Forfeit> {
    let GameSetup {
        start,
        opponent,
        mut rng,
    } = setup;
    let mut trajectory = play_trajectory(network, &start, &opponent, settings, &mut rng)?;
    let mut ranked = Vec::new();
    if let Some(teacher) = teacher {
        for (position, target) in &mut trajectory.updates {
            if let Some(value) = teacher.value_for_mover(position, network) {
                *target = value;
            }
            if settings.ranking > 0.0 {
                ranked.extend(ranking_updates(
                    network,
                    teacher,
                    position,
                    settings.ranking,
                ));
            }
        }
    }
    if settings.symmetries {
        trajectory.updates = with_images(trajectory.updates);
    }
    // The moves' updates follow the game's own, without images: they are many already.
    trajectory.updates.extend(ranked);
    Ok((
        Updates::prepare(network, trajectory.updates),
        trajectory.result,
    ))
}

/// Each position of `updates` followed by its symmetric images, all with its target.
fn with_images<G: NeuralInput>(updates: Vec<(G, f32)>) -> Vec<(G, f32)> {
    let mut all = Vec::with_capacity(updates.len() * 8);
    for (position, target) in updates {
        let images = position.symmetric_images();
        all.push((position, target));
        all.extend(images.into_iter().map(|image| (image, target)));
    }
    all
}

/// Applies the updates of each game of `played` to `network`, in order, and records the
/// games' results in `results`, up to the first game a partner forfeited.
fn apply_in_order<G: NeuralInput>(
    played: impl Iterator<Item = Result<(Updates<G>, Option<i32>), Forfeit>>,
    network: &mut Network,
    rate: f32,
    results: &mut Vec<Option<i32>>,
) -> Result<(), Forfeit> {
    for game in played {
        let (updates, result) = game?;
        updates.apply(network, rate);
        results.push(result);
    }
    Ok(())
}
