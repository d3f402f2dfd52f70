//! The runs under a directory (the web page's `--runs`): listing them, reading one's
//! settings and statistics, and the one gate every file path from a request passes, so
//! nothing outside the directory is ever read (no `..`, no absolute path, no symbolic link
//! leading out). The files found are read through the bounded reader: regular files
//! only, up to a size limit.

use std::path::{Component, Path, PathBuf};

use serde::Serialize;

use crate::evolve::checkpoint::{RunInfo, read_run_info};
use crate::evolve::stats::{StatsRow, read_stats_csv};
use crate::learn::distill::run::{read_fit_stats, read_record};
use crate::report::plot::{ChampionTest, Shown, champion_notes};

/// Deepest a run may sit below the runs directory (`populations/study/othello`).
const MAX_DEPTH: usize = 3;

/// Why a run or file was not given.
#[derive(Debug, thiserror::Error)]
pub enum RunsError {
    /// A name that is not a plain relative path, or not one of a file.
    #[error("{0}")]
    BadName(String),
    /// Nothing by that name inside the runs directory.
    #[error("{0}")]
    NotFound(String),
}

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
    /// What the fitness is (league points, the score against sparring partners), when the
    /// run's settings say.
    pub fitness_label: Option<&'static str>,
    /// Why the fitness or the diversity is not drawn, when it is not.
    pub fitness_absent: Option<&'static str>,
    pub diversity_absent: Option<&'static str>,
    /// The generation whose network became the champion, once the run has one.
    pub champion_generation: Option<u32>,
    /// The champion's final test, once the run has played it.
    pub champion_test: Option<ChampionTest>,
    /// For a distillation fit (a directory with `distill.json`), whose `stats.csv` has a
    /// row per epoch instead of generations: its losses, epoch by epoch (empty when they
    /// cannot be read, with `problem` saying why).
    pub losses: Option<Vec<LossPoint>>,
}

/// A fit's epoch: the mean squared errors on its training positions (none for epoch 0,
/// the start) and on its validation positions.
#[derive(Debug, Serialize)]
pub struct LossPoint {
    pub epoch: u32,
    pub train_loss: Option<f64>,
    pub validation_loss: f64,
}

/// Why a lone TD network's fitness is not drawn.
pub const NO_FITNESS: &str = "No fitness: this run's one network learns by TD without \
    sparring partners, so nothing scores it (stats.csv holds 0.5 every generation).";

/// Why a lone network's diversity is not drawn.
pub const NO_DIVERSITY: &str = "No diversity: this run keeps one network, not a population \
    (stats.csv holds 0 every generation).";

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
    pub fn resolve(&self, relative: &str) -> Result<PathBuf, RunsError> {
        let path = plain(relative)?;
        self.inside(&self.root.join(path))
            .ok_or_else(|| RunsError::NotFound(format!("no run or file '{relative}'")))
    }

    /// A file named in an agent spec (a champion, a weights file): a relative path taken
    /// from the runs directory, or from the server's working directory when it leads
    /// inside the runs directory, so that `populations/othello/champion.evo` (as the
    /// command line names it) and `othello/champion.evo` are the same file.
    pub fn spec_file(&self, relative: &Path) -> Result<PathBuf, RunsError> {
        let text = relative.to_str().ok_or_else(|| {
            RunsError::BadName("name files by paths inside the runs directory".to_string())
        })?;
        let path = plain(text)?;
        self.inside(&self.root.join(path))
            .or_else(|| self.inside(path))
            .ok_or_else(|| {
                RunsError::NotFound(format!(
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
                    game: self.game_of(&path),
                    champion: self.file_in(&path, "champion.evo").is_some(),
                    name,
                });
            } else if depth + 1 < MAX_DEPTH {
                self.collect(&path, depth + 1, runs);
            }
        }
    }

    /// Run `name`'s statistics.
    pub fn run(&self, name: &str) -> Result<RunView, RunsError> {
        let dir = self.resolve(name)?;
        let stats = self
            .file_in(&dir, "stats.csv")
            .ok_or_else(|| RunsError::NotFound(format!("'{name}' is not a run")))?;
        if self.file_in(&dir, "distill.json").is_some() {
            return Ok(self.fit(name, &dir, &stats));
        }
        let (rows, problem) = match read_rows(&stats) {
            Ok(rows) => (rows, None),
            Err(problem) => (Vec::new(), Some(problem)),
        };
        let champion_file = self.file_in(&dir, "champion.evo");
        let champion = champion_file
            .as_ref()
            .map(|_| format!("champion:{name}/champion.evo"));
        let info = self.run_info(&dir);
        // A run whose settings cannot be read shows every series.
        let shown = info.as_ref().map(|info| Shown::for_config(&info.config));
        let notes = info
            .as_ref()
            .map(|info| champion_notes(champion_file.as_deref(), &info.game, &info.config));
        let shows_fitness = shown.as_ref().is_none_or(|s| s.fitness.is_some());
        let shows_diversity = shown.as_ref().is_none_or(|s| s.diversity);
        Ok(RunView {
            name: name.to_string(),
            game: info.map(|info| info.game),
            champion,
            rows,
            problem,
            shows_fitness,
            shows_diversity,
            fitness_label: shown.as_ref().and_then(|s| s.fitness),
            fitness_absent: (!shows_fitness).then_some(NO_FITNESS),
            diversity_absent: (!shows_diversity).then_some(NO_DIVERSITY),
            champion_generation: notes.as_ref().and_then(|n| n.champion),
            champion_test: notes.and_then(|n| n.champion_test),
            losses: None,
        })
    }

    /// The view of the distillation fit in `dir`: its losses, no generations.
    fn fit(&self, name: &str, dir: &Path, stats: &Path) -> RunView {
        let (losses, problem) = match read_fit_stats(stats) {
            Ok(rows) => {
                let losses = rows
                    .iter()
                    .map(|row| LossPoint {
                        epoch: row.epoch,
                        train_loss: row.train_loss.map(|loss| loss.0),
                        validation_loss: row.validation_loss.0,
                    })
                    .collect();
                (losses, None)
            }
            Err(error) => (Vec::new(), Some(error.to_string())),
        };
        let champion = self
            .file_in(dir, "champion.evo")
            .map(|_| format!("champion:{name}/champion.evo"));
        RunView {
            name: name.to_string(),
            game: self.game_of(dir),
            champion,
            rows: Vec::new(),
            problem,
            shows_fitness: false,
            shows_diversity: false,
            fitness_label: None,
            fitness_absent: None,
            diversity_absent: None,
            champion_generation: None,
            champion_test: None,
            losses: Some(losses),
        }
    }

    /// The game of the run or fit in `dir`, if its settings are readable inside the runs
    /// directory.
    fn game_of(&self, dir: &Path) -> Option<String> {
        match self.file_in(dir, "distill.json") {
            Some(_) => read_record(dir).ok().map(|record| record.game),
            None => self.run_info(dir).map(|info| info.game),
        }
    }

    /// A run's settings, if it has a readable `run.json` inside the runs directory.
    fn run_info(&self, dir: &Path) -> Option<RunInfo> {
        read_run_info(&self.file_in(dir, "run.json")?).ok()
    }
}

/// `relative` as a path, if it is one the gate considers: not empty, not absolute, no `.`
/// or `..`.
fn plain(relative: &str) -> Result<&Path, RunsError> {
    let path = Path::new(relative);
    let plain = !relative.is_empty()
        && !relative.contains('\0')
        && path
            .components()
            .all(|component| matches!(component, Component::Normal(_)));
    if plain {
        Ok(path)
    } else {
        Err(RunsError::BadName(format!(
            "'{relative}': name a path relative to the runs directory, inside it"
        )))
    }
}

/// Every row of the `stats.csv` at `path`, or why one cannot be read.
fn read_rows(path: &Path) -> Result<Vec<StatsRow>, String> {
    let records = read_stats_csv(path).map_err(|e| e.to_string())?;
    records
        .into_iter()
        .map(|record| record.map_err(|e| e.to_string()))
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
