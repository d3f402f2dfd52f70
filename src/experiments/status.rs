//! How far each plan under `experiments/` has been run, read from its results directory
//! (`experiments/results/PLAN/`, laid out by the runner) rather than written by hand, and
//! why a plan is not finished, from the notes `experiments/status.toml` keeps: a plan run
//! in part must say why there, so that no half-run plan goes unexplained. `evoboard plans`
//! prints the table the docs show.
//!
//! ```toml
//! [othello-league-refine]
//! why = "paused after 3 of its 15 runs: the noise of 200 games a sample outweighed the selection"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::experiments::plan::{PlanFile, plan_files};
use crate::experiments::runner::ExperimentDir;

/// The notes' file name, beside the plans.
pub const NOTES_FILE: &str = "status.toml";

/// Where the plans' results are, under the plans' directory (`experiment`'s default).
pub const RESULTS_DIR: &str = "results";

/// Largest plan or notes file read.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// A plan's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every run measured, the summaries written and the held-out measures (if the plan
    /// has a `[held_out]` table) taken.
    Done,
    /// Some of it run or measured, not all.
    Paused,
    /// Nothing of it in its results directory.
    NotRun,
}

impl Status {
    /// The word the table shows.
    pub fn label(self) -> &'static str {
        match self {
            Status::Done => "done",
            Status::Paused => "paused",
            Status::NotRun => "not run",
        }
    }
}

/// What a plan's results directory holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Runs the plan asks for (variants × seeds).
    pub runs: usize,
    /// Runs begun (their `run.json`) or measured.
    pub started: usize,
    /// Runs whose champion is measured (their `evaluations/VARIANT-seed-S.json`).
    pub measured: usize,
    /// `results.csv` and `summary.md` are written.
    pub summarised: bool,
    /// `None` for a plan without a `[held_out]` table; else whether `held-out.json` is there.
    pub held_out: Option<bool>,
    /// The directory exists and holds anything at all (the runner's `plan.toml` first).
    pub opened: bool,
}

impl Progress {
    /// What the files say of the plan.
    pub fn status(&self) -> Status {
        if self.measured == self.runs && self.summarised && self.held_out != Some(false) {
            Status::Done
        } else if self.opened {
            Status::Paused
        } else {
            Status::NotRun
        }
    }

    /// What is missing, in a few words, for a plan not done.
    fn missing(&self) -> String {
        let mut parts = vec![format!("{} of {} runs measured", self.measured, self.runs)];
        if self.started > self.measured {
            parts.push(format!("{} more begun", self.started - self.measured));
        }
        if self.measured == self.runs && !self.summarised {
            parts.push("summaries not written".to_string());
        }
        if self.held_out == Some(false) {
            parts.push("held-out measures not taken".to_string());
        }
        parts.join(", ")
    }
}

/// One plan's row of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanStatus {
    /// The plan's file name (`othello-league.toml`).
    pub file: String,
    pub game: String,
    pub variants: usize,
    pub seeds: usize,
    pub progress: Progress,
    /// The reason `status.toml` gives, if any.
    pub why: Option<String>,
}

impl PlanStatus {
    pub fn status(&self) -> Status {
        self.progress.status()
    }

    /// The table's last column: why the plan is where it is, and what of it is missing.
    pub fn notes(&self) -> String {
        let why = self.why.as_deref().unwrap_or("");
        match self.status() {
            Status::Done if self.progress.held_out == Some(true) => {
                "its `[held_out]` measures taken".to_string()
            }
            Status::Done => String::new(),
            Status::Paused => format!("{}; {why}", self.progress.missing()),
            Status::NotRun => why.to_string(),
        }
    }
}

/// Why the plans' status cannot be told: a file or directory given is missing or wrong.
#[derive(Debug, thiserror::Error)]
pub enum StatusError {
    #[error("cannot read {path}: {error}")]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("cannot list the plans in {path}: {error}")]
    List {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

/// One plan's entry in `status.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Note {
    /// Why the plan is paused or not run, in a line.
    why: String,
}

/// The status of every plan in `experiments` (a directory of plans, with their results
/// under `results/` and the notes in `status.toml`), in file order. A plan run in part
/// without a reason in the notes, a note on a plan that is done (stale), or a note naming
/// no plan is an error naming the plan.
pub fn plan_statuses(experiments: &Path) -> Result<Vec<PlanStatus>, StatusError> {
    let notes_path = experiments.join(NOTES_FILE);
    let mut notes = read_notes(&notes_path)?;
    let invalid = |message: String| StatusError::Invalid {
        path: notes_path.clone(),
        message,
    };
    let files = plan_files(experiments).map_err(|error| StatusError::List {
        path: experiments.to_path_buf(),
        error,
    })?;
    let mut statuses = Vec::new();
    for path in files {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let plan = read_plan(&path)?;
        let results = ExperimentDir {
            dir: experiments.join(RESULTS_DIR).join(&name),
        };
        let status = PlanStatus {
            file: format!("{name}.toml"),
            game: plan.game.clone(),
            variants: plan.variant_names().len(),
            seeds: plan.seeds.len(),
            progress: progress(&plan, &results),
            why: notes.remove(&name).map(|note| note.why),
        };
        match (status.status(), &status.why) {
            (Status::Paused, None) => {
                return Err(invalid(format!(
                    "{name} is run in part ({}) and no reason is given: add [{name}] with \
                     why = \"...\"",
                    status.progress.missing()
                )));
            }
            (Status::Done, Some(_)) => {
                return Err(invalid(format!(
                    "[{name}] gives a reason why the plan is not finished, but it is done: \
                     remove it"
                )));
            }
            _ => {}
        }
        statuses.push(status);
    }
    if let Some(name) = notes.keys().next() {
        return Err(invalid(format!(
            "[{name}] names no plan in {}",
            experiments.display()
        )));
    }
    Ok(statuses)
}

/// The plans' status as a Markdown table: plan, game, variants × seeds, status, and why
/// (or what is missing).
pub fn status_table(statuses: &[PlanStatus]) -> String {
    let mut table = String::from(
        "| plan | game | variants × seeds | status | why / notes |\n| --- | --- | --- | --- | --- |\n",
    );
    for plan in statuses {
        table.push_str(&format!(
            "| `{}` | {} | {} × {} | {} | {} |\n",
            plan.file,
            plan.game,
            plan.variants,
            plan.seeds,
            plan.status().label(),
            plan.notes().replace('|', "\\|"),
        ));
    }
    table
}

/// What `results` holds of `plan`'s runs.
fn progress(plan: &PlanFile, results: &ExperimentDir) -> Progress {
    let mut progress = Progress {
        runs: 0,
        started: 0,
        measured: 0,
        summarised: ["results.csv", "summary.md"]
            .iter()
            .all(|file| results.dir.join(file).is_file()),
        held_out: plan
            .held_out
            .as_ref()
            .map(|_| results.held_out_file().is_file()),
        opened: std::fs::read_dir(&results.dir).is_ok_and(|mut entries| entries.next().is_some()),
    };
    for variant in plan.variant_names() {
        for &seed in &plan.seeds {
            progress.runs += 1;
            let measured = results.evaluation_file(&variant, seed).is_file();
            let begun = results.run_dir(&variant, seed).join("run.json").is_file();
            progress.measured += usize::from(measured);
            progress.started += usize::from(measured || begun);
        }
    }
    progress
}

/// A plan file, parsed (not resolved: its settings are the runner's to check).
fn read_plan(path: &Path) -> Result<PlanFile, StatusError> {
    let text = read_text(path)?;
    PlanFile::parse(&text).map_err(|error| StatusError::Invalid {
        path: path.to_path_buf(),
        message: error.to_string(),
    })
}

/// The notes, by plan name; none when the file is absent.
fn read_notes(path: &Path) -> Result<BTreeMap<String, Note>, StatusError> {
    if !path.exists() {
        return Ok(BTreeMap::new());
    }
    let text = read_text(path)?;
    toml::from_str(&text).map_err(|error: toml::de::Error| StatusError::Invalid {
        path: path.to_path_buf(),
        message: error.message().trim_end().to_string(),
    })
}

/// A file's text, read within the bound.
fn read_text(path: &Path) -> Result<String, StatusError> {
    let bytes =
        crate::persist::read_limited(path, MAX_FILE_BYTES).map_err(|error| StatusError::Read {
            path: path.to_path_buf(),
            error,
        })?;
    String::from_utf8(bytes).map_err(|_| StatusError::Invalid {
        path: path.to_path_buf(),
        message: "not UTF-8 text".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = "game = \"kalah\"\nseeds = [1, 2]\n[variants.a]\n[variants.b]\n\
                        td_lambda = 0.5\n";

    /// A directory of plans with `plan.toml` as `p.toml` and the given notes.
    fn experiments(name: &str, plan: &str, notes: Option<&str>) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("evoboard-status-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("p.toml"), plan).unwrap();
        std::fs::write(dir.join("seeds.toml"), "[kalah]\n").unwrap();
        if let Some(notes) = notes {
            std::fs::write(dir.join(NOTES_FILE), notes).unwrap();
        }
        dir
    }

    fn touch(path: PathBuf) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "{}").unwrap();
    }

    fn results(dir: &Path) -> ExperimentDir {
        ExperimentDir {
            dir: dir.join(RESULTS_DIR).join("p"),
        }
    }

    #[test]
    fn a_plan_without_results_is_not_run_and_may_say_why() {
        let dir = experiments("none", PLAN, Some("[p]\nwhy = \"a test fixture\"\n"));
        let statuses = plan_statuses(&dir).unwrap();
        assert_eq!(
            statuses.len(),
            1,
            "the seed ledger and the notes are no plans"
        );
        assert_eq!(statuses[0].status(), Status::NotRun);
        assert_eq!(
            status_table(&statuses).lines().nth(2).unwrap(),
            "| `p.toml` | kalah | 2 × 2 | not run | a test fixture |"
        );
    }

    #[test]
    fn a_plan_measured_in_part_needs_a_reason() {
        let dir = experiments("part", PLAN, None);
        let results = results(&dir);
        touch(results.evaluation_file("a", 1));
        touch(results.run_dir("a", 2).join("run.json"));
        let error = plan_statuses(&dir).unwrap_err().to_string();
        assert!(
            error.contains("p is run in part (1 of 4 runs measured, 1 more begun)"),
            "{error}"
        );
        std::fs::write(dir.join(NOTES_FILE), "[p]\nwhy = \"stopped | for now\"\n").unwrap();
        let statuses = plan_statuses(&dir).unwrap();
        assert_eq!(statuses[0].status(), Status::Paused);
        assert!(
            status_table(&statuses)
                .contains("| paused | 1 of 4 runs measured, 1 more begun; stopped \\| for now |"),
            "{}",
            status_table(&statuses)
        );
    }

    #[test]
    fn a_plan_is_done_once_every_run_is_measured_summarised_and_held_out() {
        let held_out = format!("{PLAN}[held_out]\nchoose_by = \"league\"\n");
        let dir = experiments("done", &held_out, None);
        let results = results(&dir);
        for variant in ["a", "b"] {
            for seed in [1, 2] {
                touch(results.evaluation_file(variant, seed));
            }
        }
        touch(results.dir.join("results.csv"));
        touch(results.dir.join("summary.md"));
        let error = plan_statuses(&dir).unwrap_err().to_string();
        assert!(error.contains("held-out measures not taken"), "{error}");
        touch(results.held_out_file());
        let statuses = plan_statuses(&dir).unwrap();
        assert_eq!(statuses[0].status(), Status::Done);
        assert_eq!(statuses[0].notes(), "its `[held_out]` measures taken");
        std::fs::write(dir.join(NOTES_FILE), "[p]\nwhy = \"old\"\n").unwrap();
        let stale = plan_statuses(&dir).unwrap_err().to_string();
        assert!(stale.contains("it is done: remove it"), "{stale}");
    }

    #[test]
    fn a_note_must_name_a_plan() {
        let dir = experiments("unknown", PLAN, Some("[q]\nwhy = \"typo\"\n"));
        let error = plan_statuses(&dir).unwrap_err();
        assert!(error.to_string().contains("[q] names no plan"), "{error}");
        std::fs::write(dir.join(NOTES_FILE), "[p]\nreason = \"x\"\n").unwrap();
        let unknown_key = plan_statuses(&dir).unwrap_err().to_string();
        assert!(
            unknown_key.contains("unknown field `reason`"),
            "{unknown_key}"
        );
    }
}
