//! The run's files as each generation leaves them: the checkpoint, `stats.csv`,
//! `champion.evo` and `run.json`, each written atomically, none in a process that only
//! follows the leader's run.

use crate::eval::NamedEvaluators;
use crate::persist::write_atomic;

use super::checkpoint::RunInfo;
use super::{Evolution, EvolveError, RunFiles, stats};

impl<G: NamedEvaluators> Evolution<G> {
    /// Writes the checkpoint, then `stats.csv` and `champion.evo` (each atomically; a
    /// resume rebuilds the later two from the checkpoint, so a crash between them is safe).
    pub(super) fn save(&self) -> Result<(), EvolveError> {
        let Some(RunFiles { run, .. }) = &self.files else {
            return Ok(());
        };
        run.save_state(&self.state, self.start.name())?;
        run.remove_old_checkpoints(self.state.generation, self.state.config.keep_checkpoints);
        self.write_results()
    }

    /// `stats.csv` and `champion.evo` from the state.
    pub(super) fn write_results(&self) -> Result<(), EvolveError> {
        let Some(RunFiles { run, .. }) = &self.files else {
            return Ok(());
        };
        let game = self.start.name();
        // With several opponents every one gets a win-rate column, the first included, so
        // the file names them all.
        let named: Vec<String> = match self.opponents.len() {
            1 => Vec::new(),
            _ => self
                .opponents
                .iter()
                .map(|(spec, _)| spec.clone())
                .collect(),
        };
        let csv = stats::csv_text(&self.state.history, &self.seconds, &named);
        write_atomic(&run.stats_csv(), csv.as_bytes()).map_err(|error| EvolveError::Write {
            path: run.stats_csv().display().to_string(),
            error,
        })?;
        if let Some(champion) = self.state.final_champion() {
            champion.save(&run.champion(), game)?;
        }
        Ok(())
    }

    /// `run.json`: the game, the version and the run's settings (budget included).
    pub(super) fn write_run_json(&self) -> Result<(), EvolveError> {
        let Some(RunFiles { run, .. }) = &self.files else {
            return Ok(());
        };
        let info = RunInfo {
            game: self.start.name().to_string(),
            evoboard_version: env!("CARGO_PKG_VERSION").to_string(),
            architecture: self.state.architecture.clone(),
            config: self.state.config.clone(),
        };
        let json = serde_json::to_string_pretty(&info).expect("plain data serialises") + "\n";
        write_atomic(&run.run_json(), json.as_bytes()).map_err(|error| EvolveError::Write {
            path: run.run_json().display().to_string(),
            error,
        })
    }
}
