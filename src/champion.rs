//! Champions: the trained networks evolution runs save to play. `evolve` writes them and
//! `champion:PATH` agent specs load them, so this module sits below both, above the
//! search whose depth bound a stored depth must keep.

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::eval::neural::{NeuralEvaluator, NeuralInput};
use crate::games::othello::Othello;
use crate::nn::{Architecture, Topology, check_weights};
use crate::persist::{self, FileKind, PersistError};
use crate::search::MAX_DEPTH;
use crate::search::endgame::EndgameOrdering;

/// A trained network saved to play: its architecture and chromosome, the search depth it
/// was trained at, and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Champion {
    pub architecture: Architecture,
    pub genes: Vec<f32>,
    /// Search depth used in training; `champion:PATH` plays at this depth.
    pub depth: u32,
    pub preset: String,
    pub seed: u64,
    /// Generation (1-based) that produced it.
    pub generation: u32,
    pub fitness: f64,
    /// Its benchmark win rate when it was chosen, if a benchmark was played.
    pub benchmark_win_rate: Option<f64>,
    /// Its win rate in the final re-evaluation of the run's best candidates, on openings
    /// not used in training or in the per-generation benchmark, if one was played.
    pub test_win_rate: Option<f64>,
}

/// A champion as format 1 stored it (before network families): always an MLP.
#[derive(Deserialize)]
struct ChampionV1 {
    topology: Topology,
    genes: Vec<f32>,
    depth: u32,
    preset: String,
    seed: u64,
    generation: u32,
    fitness: f64,
    benchmark_win_rate: Option<f64>,
}

impl From<ChampionV1> for Champion {
    fn from(old: ChampionV1) -> Champion {
        Champion {
            architecture: Architecture::Mlp(old.topology),
            genes: old.genes,
            depth: old.depth,
            preset: old.preset,
            seed: old.seed,
            generation: old.generation,
            fitness: old.fitness,
            benchmark_win_rate: old.benchmark_win_rate,
            test_win_rate: None,
        }
    }
}

/// The shipped Othello champion's file (`populations/othello/champion.evo`), built into
/// the library so that every front end orders the endgame solver by it, from any
/// directory: a trained network orders far better than the heuristic (FFO #40–#49: 1.5 G
/// nodes against 2.4 G; docs/measurements.md).
static SHIPPED_OTHELLO: &[u8] = include_bytes!("../populations/othello/champion.evo");

/// What every front end orders the Othello endgame solver by unless told otherwise.
pub const ENDGAME_ORDERING_DEFAULT: &str = "shipped";

/// The ordering of the Othello endgame solver's moves that `choice` names, alike in every
/// front end: `shipped` (the shipped champion, built in), `heuristic`, or the path of an
/// Othello champion's file.
pub fn endgame_ordering(choice: &str) -> Result<EndgameOrdering, PersistError> {
    let game = Othello::start();
    let champion = match choice {
        "heuristic" => return Ok(EndgameOrdering::heuristic()),
        "shipped" => Champion::read_for(
            Path::new("the shipped Othello champion built into evoboard"),
            SHIPPED_OTHELLO,
            &game,
        )?,
        path => Champion::load_for(Path::new(path), &game)?,
    };
    Ok(EndgameOrdering::network(Arc::new(
        champion.evaluator(&game),
    )))
}

impl Champion {
    /// Writes the champion of `game` to `path` atomically.
    pub fn save(&self, path: &Path, game: &str) -> Result<(), PersistError> {
        persist::save(path, FileKind::Champion, game, self)
    }

    /// Reads the champion at `path` for `game`'s positions (of this format or format 1):
    /// the one path by which every command reads a network, so that a file reaches play
    /// only after every check of [`Champion::check`].
    pub fn load_for<G: NeuralInput>(path: &Path, game: &G) -> Result<Champion, PersistError> {
        Champion::read_for(path, &persist::read(path)?, game)
    }

    /// [`Champion::load_for`] of a file's `bytes` already in memory (a champion built into
    /// a program), `origin` naming them in errors.
    pub fn read_for<G: NeuralInput>(
        origin: &Path,
        bytes: &[u8],
        game: &G,
    ) -> Result<Champion, PersistError> {
        let champion = Champion::decode_bytes(origin, bytes, game.name())?;
        champion
            .check(game)
            .map_err(|reason| PersistError::Unplayable {
                path: origin.to_path_buf(),
                reason,
            })?;
        Ok(champion)
    }

    /// The generation that made the champion of `game` at `path`, for reports drawn
    /// without the game's rules at hand (the network itself is not handed out unchecked).
    pub fn generation_of(path: &Path, game: &str) -> Result<u32, PersistError> {
        Ok(Champion::decode(path, game)?.generation)
    }

    /// The generation that made the champion of `game` at `path` and its final test win
    /// rate, if one was played: what a run's plots and the web page mark, read without the
    /// game's rules at hand (the network itself is not handed out unchecked).
    pub fn tested_of(path: &Path, game: &str) -> Result<(u32, Option<f64>), PersistError> {
        let champion = Champion::decode(path, game)?;
        Ok((champion.generation, champion.test_win_rate))
    }

    /// The file's champion, of this format or format 1, before any check of its network.
    fn decode(path: &Path, game: &str) -> Result<Champion, PersistError> {
        Champion::decode_bytes(path, &persist::read(path)?, game)
    }

    /// [`Champion::decode`] of the file's bytes.
    fn decode_bytes(path: &Path, bytes: &[u8], game: &str) -> Result<Champion, PersistError> {
        let (version, payload) = persist::open(path, bytes, FileKind::Champion, game)?;
        if version == 1 {
            Ok(persist::decode_payload::<ChampionV1>(path, payload)?.into())
        } else {
            persist::decode_payload(path, payload)
        }
    }

    /// Why this champion cannot play `game`, if it cannot: a depth the search refuses, an
    /// architecture that cannot read the game's positions (checked before the chromosome's
    /// length, which a malformed architecture cannot even compute), a chromosome that does
    /// not fit it, or a weight no player can use. Files and checkpoints are both checked
    /// here.
    pub fn check<G: NeuralInput>(&self, game: &G) -> Result<(), String> {
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(format!("search depth {} is out of range", self.depth));
        }
        game.check_architecture(&self.architecture)?;
        if self.genes.len() != self.architecture.genes() {
            return Err(format!(
                "{} genes for a {} network, which needs {}",
                self.genes.len(),
                self.architecture,
                self.architecture.genes()
            ));
        }
        check_weights(&self.genes)
    }

    /// The champion whose network's weights are the weighted sum of `parts`' (each a
    /// champion and its weight), searching `depth` plies, described as `preset`. An n-tuple
    /// network's value is tanh of a sum of its weights, so the blend values every position
    /// at tanh of the weighted sum of the parts' sums: one network that plays as their
    /// weighted ensemble, at one network's cost. An MLP is not linear in its weights, and
    /// averaging two is no ensemble, so only n-tuple networks of one architecture blend.
    pub fn blend(
        parts: &[(&Champion, f32)],
        depth: u32,
        preset: String,
    ) -> Result<Champion, String> {
        let Some(((first, _), _)) = parts.split_first() else {
            return Err("a blend needs at least one champion".into());
        };
        if !matches!(first.architecture, Architecture::NTuple(_)) {
            return Err(format!(
                "{} is an MLP, which is not linear in its weights: only n-tuple networks blend",
                first.architecture
            ));
        }
        if let Some((other, _)) = parts
            .iter()
            .find(|(c, _)| c.architecture != first.architecture)
        {
            return Err(format!(
                "the champions' networks differ ({} and {}): only networks of one architecture blend",
                first.architecture, other.architecture
            ));
        }
        if let Some((_, weight)) = parts.iter().find(|(_, w)| !w.is_finite()) {
            return Err(format!("weight {weight} is not a finite number"));
        }
        let mut genes = vec![0.0f32; first.genes.len()];
        for (champion, weight) in parts {
            for (sum, gene) in genes.iter_mut().zip(&champion.genes) {
                *sum += weight * gene;
            }
        }
        check_weights(&genes)?;
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(format!("search depth {depth} is out of range"));
        }
        Ok(Champion {
            architecture: first.architecture.clone(),
            genes,
            depth,
            preset,
            seed: 0,
            generation: 0,
            fitness: 0.0,
            benchmark_win_rate: None,
            test_win_rate: None,
        })
    }

    /// The champion's network as an evaluator for `game`'s positions.
    pub fn evaluator<G: NeuralInput>(&self, game: &G) -> NeuralEvaluator {
        NeuralEvaluator::new(game.network(&self.architecture, self.genes.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::{Topology, TupleSpec};

    #[test]
    fn endgame_orderings_are_named_alike_everywhere() {
        let shipped = format!("{:?}", endgame_ordering(ENDGAME_ORDERING_DEFAULT).unwrap());
        assert!(shipped.contains("depth: 1"), "{shipped}");
        let heuristic = format!("{:?}", endgame_ordering("heuristic").unwrap());
        assert!(heuristic.contains("depth: 3"), "{heuristic}");
        let missing = endgame_ordering("no/such/champion.evo").unwrap_err();
        assert!(
            missing.to_string().contains("no/such/champion.evo"),
            "{missing}"
        );
    }

    fn champion(architecture: Architecture, genes: Vec<f32>) -> Champion {
        Champion {
            architecture,
            genes,
            depth: 2,
            preset: "td".into(),
            seed: 1,
            generation: 1,
            fitness: 0.0,
            benchmark_win_rate: None,
            test_win_rate: None,
        }
    }

    #[test]
    fn a_blend_s_weights_are_the_weighted_sum_of_its_parts() {
        let tuples = Architecture::NTuple(TupleSpec {
            name: "pairs".into(),
            states: 3,
            tuples: vec![vec![0, 1], vec![2, 3]],
            features: Vec::new(),
        });
        let size = tuples.genes();
        let a = champion(tuples.clone(), (0..size).map(|i| i as f32 * 1e-3).collect());
        let b = champion(tuples.clone(), vec![0.5; size]);
        let blend = Champion::blend(&[(&a, 0.25), (&b, -2.0)], 3, "blend".into()).unwrap();
        assert_eq!(blend.depth, 3);
        for i in [0, 1, size / 2, size - 1] {
            assert_eq!(blend.genes[i], 0.25 * a.genes[i] - 2.0 * b.genes[i]);
        }
        let mlp = champion(
            Architecture::Mlp(Topology::new(&[64, 4, 1]).unwrap()),
            vec![0.0; 265],
        );
        assert!(
            Champion::blend(&[(&mlp, 1.0)], 2, String::new())
                .unwrap_err()
                .contains("MLP")
        );
        assert!(Champion::blend(&[(&a, f32::NAN)], 2, String::new()).is_err());
        assert!(
            Champion::blend(&[(&a, 1.0)], 0, String::new())
                .unwrap_err()
                .contains("depth 0")
        );
    }
}
