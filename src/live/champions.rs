//! The champion networks the games play, loaded once per file and shared: a thousand games
//! against one champion hold one copy of its network, not a thousand.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::SystemTime;

use crate::arena::spec::LoadedChampion;
use crate::arena::{AgentSpec, SpecError};
use crate::eval::NamedEvaluators;
use crate::eval::neural::NeuralEvaluator;

/// The champions loaded so far, each kept while a game plays it.
#[derive(Default)]
pub struct Champions {
    loaded: Mutex<HashMap<Key, Shared>>,
}

/// One file as it was when loaded (a file rewritten since is loaded again), for one game.
#[derive(Debug, Hash, PartialEq, Eq)]
struct Key {
    path: PathBuf,
    modified: SystemTime,
    len: u64,
    game: &'static str,
}

/// A loaded champion, held weakly: it goes when the last game playing it goes.
struct Shared {
    network: Weak<NeuralEvaluator>,
    depth: u32,
}

impl Champions {
    /// The champion at `path` (a real path, already checked to lie inside the runs
    /// directory) for the game of `start`, which `spec` names: the copy already loaded if
    /// the file has not changed since, else the file read afresh.
    pub fn get<G: NamedEvaluators>(
        &self,
        spec: &AgentSpec,
        path: &Path,
        start: &G,
    ) -> Result<LoadedChampion, SpecError> {
        let key = std::fs::metadata(path).ok().and_then(|metadata| {
            Some(Key {
                path: path.to_path_buf(),
                modified: metadata.modified().ok()?,
                len: metadata.len(),
                game: start.name(),
            })
        });
        // Loading under the lock: a second game asking for the same file waits for this
        // load instead of reading the file again.
        let mut loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(shared) = key.as_ref().and_then(|key| loaded.get(key))
            && let Some(network) = shared.network.upgrade()
        {
            return Ok(LoadedChampion {
                network,
                depth: shared.depth,
            });
        }
        let champion = spec.load_champion(path, start)?;
        loaded.retain(|_, shared| shared.network.strong_count() > 0);
        if let Some(key) = key {
            let shared = Shared {
                network: Arc::downgrade(&champion.network),
                depth: champion.depth,
            };
            loaded.insert(key, shared);
        }
        Ok(champion)
    }
}
