//! The runs under `--runs`: listing them, reading one's statistics for the charts, and the
//! one gate every file path from a request passes, so nothing outside the directory is
//! ever read (no `..`, no absolute path, no symbolic link leading out). The files found
//! are read through the bounded reader: regular files only, up to a size limit.

use std::path::{Component, Path, PathBuf};

use serde::Serialize;

use super::api::ApiError;
use crate::evolve::checkpoint::MAX_RUN_JSON_BYTES;
use crate::evolve::config::EvolveConfig;
use crate::evolve::stats::read_stats_csv;
use crate::persist::read_limited;
use crate::report::plot::Shown;

/// Deepest a run may sit below the runs directory (`populations/study/othello`).
const MAX_DEPTH: usize = 3;

/// The directory of runs, resolved once at start.
#[derive(Clone, Debug)]
pub struct RunsDir {
    root: PathBuf,
    /// The directory as `--runs` gave it, for messages.
    given: PathBuf,
}

/// One run in the list.
#[derive(Debug, Serialize)]
pub struct RunEntry {
    pub name: String,
    pub game: Option<String>,
    pub champion: bool,
}

/// One run's statistics, read afresh on every request (evolve replaces the file
/// atomically, so a read sees the old or the new file, never half of one).
#[derive(Debug, Serialize)]
pub struct RunView {
    pub name: String,
    pub game: Option<String>,
    /// The spec that plays this run's champion, when it has one.
    pub champion: Option<String>,
    pub rows: Vec<StatsRow>,
    /// Why the statistics could not be read (a run that has not finished a generation).
    pub problem: Option<String>,
    /// Whether its fitness and diversity mean something (not for a lone network learning
    /// by self-play), so the page draws them.
    pub shows_fitness: bool,
    pub shows_diversity: bool,
}

/// One generation of `stats.csv`, as the charts draw it.
#[derive(Debug, Serialize)]
pub struct StatsRow {
    pub generation: u32,
    pub fitness_max: f64,
    pub fitness_mean: f64,
    pub fitness_min: f64,
    pub win_rate: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub diversity: f64,
    pub seconds: String,
}

impl RunsDir {
    /// The runs directory `root`, which need not exist yet (the list is then empty).
    pub fn new(root: &Path) -> RunsDir {
        RunsDir {
            root: root.canonicalize().unwrap_or_else(|_| root.to_path_buf()),
            given: root.to_path_buf(),
        }
    }

    /// The file or directory `relative` names inside the runs directory. Refused: empty
    /// names, absolute paths, `.` and `..`, and anything whose real location (after
    /// following links) lies outside.
    pub fn resolve(&self, relative: &str) -> Result<PathBuf, ApiError> {
        let path = plain(relative)?;
        self.inside(&self.root.join(path))
            .ok_or_else(|| ApiError::not_found(format!("no run or file '{relative}'")))
    }

    /// A file named in an agent spec (a champion, a weights file): a relative path taken
    /// from the runs directory, or from the server's working directory when it leads
    /// inside the runs directory, so that `populations/othello/champion.evo` (as the
    /// command line names it) and `othello/champion.evo` are the same file.
    pub fn spec_file(&self, relative: &Path) -> Result<PathBuf, ApiError> {
        let text = relative.to_str().ok_or_else(|| {
            ApiError::bad_request("name files by paths inside the runs directory")
        })?;
        let path = plain(text)?;
        self.inside(&self.root.join(path))
            .or_else(|| self.inside(path))
            .ok_or_else(|| {
                ApiError::not_found(format!(
                    "no file '{text}' inside the runs directory '{}' (paths are taken from \
                     it, or from the server's working directory when they lead into it)",
                    self.given.display()
                ))
            })
    }

    /// Where `path` really is (after following links), if that is inside the runs
    /// directory.
    fn inside(&self, path: &Path) -> Option<PathBuf> {
        let real = path.canonicalize().ok()?;
        real.starts_with(&self.root).then_some(real)
    }

    /// `dir`'s file `name`, if it is really a regular file inside the runs directory.
    fn file_in(&self, dir: &Path, name: &str) -> Option<PathBuf> {
        self.inside(&dir.join(name)).filter(|path| path.is_file())
    }

    /// Every run (a directory with a `stats.csv`), by name.
    pub fn list(&self) -> Vec<RunEntry> {
        let mut runs = Vec::new();
        self.collect(&self.root, 0, &mut runs);
        runs.sort_by(|a, b| a.name.cmp(&b.name));
        runs
    }

    fn collect(&self, dir: &Path, depth: usize, runs: &mut Vec<RunEntry>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            // Links are not followed: a run reached only through one is not listed.
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if !is_dir {
                continue;
            }
            if self.file_in(&path, "stats.csv").is_some()
                && let Ok(name) = path.strip_prefix(&self.root)
            {
                let name = name.to_string_lossy().into_owned();
                runs.push(RunEntry {
                    game: self.run_game(&path),
                    champion: self.file_in(&path, "champion.evo").is_some(),
                    name,
                });
            } else if depth + 1 < MAX_DEPTH {
                self.collect(&path, depth + 1, runs);
            }
        }
    }

    /// Run `name`'s statistics.
    pub fn run(&self, name: &str) -> Result<RunView, ApiError> {
        let dir = self.resolve(name)?;
        let stats = self
            .file_in(&dir, "stats.csv")
            .ok_or_else(|| ApiError::not_found(format!("'{name}' is not a run")))?;
        let (rows, problem) = match read_rows(&stats) {
            Ok(rows) => (rows, None),
            Err(problem) => (Vec::new(), Some(problem)),
        };
        let champion = self
            .file_in(&dir, "champion.evo")
            .map(|_| format!("champion:{name}/champion.evo"));
        // A run whose settings cannot be read shows every series.
        let shown = self
            .run_json(&dir)
            .and_then(|json| {
                serde_json::from_value::<EvolveConfig>(json.get("config")?.clone()).ok()
            })
            .map(|config| Shown::for_config(&config));
        Ok(RunView {
            name: name.to_string(),
            game: self.run_game(&dir),
            champion,
            rows,
            problem,
            shows_fitness: shown.as_ref().is_none_or(|s| s.fitness.is_some()),
            shows_diversity: shown.as_ref().is_none_or(|s| s.diversity),
        })
    }

    /// The game a run plays, from its `run.json`.
    fn run_game(&self, dir: &Path) -> Option<String> {
        let json = self.run_json(dir)?;
        json.get("game")?.as_str().map(str::to_string)
    }

    /// A run's `run.json`, if it has a readable one.
    fn run_json(&self, dir: &Path) -> Option<serde_json::Value> {
        let bytes = read_limited(&self.file_in(dir, "run.json")?, MAX_RUN_JSON_BYTES).ok()?;
        serde_json::from_slice(&bytes).ok()
    }
}

/// `relative` as a path, if it is one the gate considers: not empty, not absolute, no `.`
/// or `..`.
fn plain(relative: &str) -> Result<&Path, ApiError> {
    let path = Path::new(relative);
    let plain = !relative.is_empty()
        && !relative.contains('\0')
        && path
            .components()
            .all(|component| matches!(component, Component::Normal(_)));
    if plain {
        Ok(path)
    } else {
        Err(ApiError::bad_request(format!(
            "'{relative}': name a path relative to the runs directory, inside it"
        )))
    }
}

fn read_rows(path: &Path) -> Result<Vec<StatsRow>, String> {
    let records = read_stats_csv(path).map_err(|e| e.to_string())?;
    records
        .into_iter()
        .map(|record| {
            let record = record.map_err(|e| e.to_string())?;
            let head = record.head;
            Ok(StatsRow {
                generation: head.generation,
                fitness_max: head.fitness_max.0,
                fitness_mean: head.fitness_mean.0,
                fitness_min: head.fitness_min.0,
                win_rate: head.bench_win_rate.map(|x| x.0),
                ci_low: head.bench_ci_low.map(|x| x.0),
                ci_high: head.bench_ci_high.map(|x| x.0),
                diversity: record.tail.diversity.0,
                seconds: record.tail.seconds,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs() -> (PathBuf, RunsDir) {
        let dir = std::env::temp_dir().join(format!("evoboard-runs-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("inside/run")).unwrap();
        std::fs::write(dir.join("inside/run/stats.csv"), "generation\n").unwrap();
        let runs = RunsDir::new(&dir.join("inside"));
        (dir, runs)
    }

    #[test]
    fn resolve_refuses_every_way_out() {
        let (dir, runs) = runs();
        std::fs::write(dir.join("secret"), "x").unwrap();
        for name in ["", "../secret", "run/../../secret", "/etc/passwd", "./run"] {
            assert!(runs.resolve(name).is_err(), "{name}");
        }
        #[cfg(unix)]
        {
            let _ = std::fs::remove_file(dir.join("inside/out"));
            std::os::unix::fs::symlink(dir.join("secret"), dir.join("inside/out")).unwrap();
            assert!(runs.resolve("out").is_err(), "a link leading out");
        }
        assert!(runs.resolve("run/stats.csv").is_ok());
        assert_eq!(runs.list().len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
