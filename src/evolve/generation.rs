//! The generation loop: each generation learns, plays its fitness games, benchmarks the
//! network the learner offers, keeps the champion and the candidates, and breeds the next
//! population; a run ends by testing the candidates afresh and selecting its champion.

use std::sync::Arc;
use std::time::Instant;

use crate::arena::WinRecord;
use crate::champion::Champion;
use crate::eval::NamedEvaluators;
use crate::eval::neural::NeuralEvaluator;
use crate::farm;
use crate::interrupt;

use super::benchmark::{benchmark, openings_series};
use super::learner::Kind;
use super::population::diversity;
use super::stats::GenerationStats;
use super::{
    BENCH_STREAM, Evolution, EvolveError, Observer, TEST_STREAM, league, learning, selection,
};

impl<G: NamedEvaluators> Evolution<G> {
    /// Plays generations until the gate is reached or the budget is spent, saving a
    /// checkpoint, `stats.csv` and `champion.evo` after each. Stops with
    /// [`EvolveError::Interrupted`] before a generation or the final selection once a stop
    /// is asked for ([`crate::interrupt`]; under MPI, on any process).
    pub fn run(&mut self, observer: &dyn Observer) -> Result<(), EvolveError> {
        while !self.state.generations_done() {
            self.check_interrupt()?;
            let clock = Instant::now();
            self.step(observer)?;
            // Checked before the generation is saved, so the last checkpoint stays usable.
            self.state
                .check_weights()
                .and_then(|()| self.state.config.preset.learner().check_state(&self.state))
                .map_err(|reason| EvolveError::Unusable {
                    generation: self.state.generation,
                    reason,
                })?;
            if !farm::all_agree(&self.state) {
                return Err(EvolveError::Diverged(self.state.generation));
            }
            let seconds = clock.elapsed().as_secs_f64();
            self.seconds
                .insert(self.state.generation, format!("{seconds:.3}"));
            self.save()?;
            observer.generation_done(&self.state, seconds);
        }
        if self.state.selected.is_none()
            && self.state.generation > 0
            && self.state.config.selection_games > 0
        {
            self.check_interrupt()?;
            self.select_champion(observer)?;
            self.save()?;
        }
        Ok(())
    }

    /// Fails with [`EvolveError::Interrupted`] if a stop was asked for, on any process.
    fn check_interrupt(&self) -> Result<(), EvolveError> {
        if farm::any_process(interrupt::requested()) {
            return Err(EvolveError::Interrupted(self.state.generation));
        }
        Ok(())
    }

    /// The end of a run: every candidate plays `selection_games` against the benchmark
    /// opponent on openings of their own (used neither in learning nor in the
    /// per-generation benchmark), and the best becomes the champion, so that the champion
    /// is not merely the luckiest of many noisy benchmarks (a later candidate wins ties).
    fn select_champion(&mut self, observer: &dyn Observer) -> Result<(), EvolveError> {
        let config = self.state.config.clone();
        observer.selection_started(self.state.candidates.len(), config.selection_games);
        let mut best: Option<Champion> = None;
        for candidate in &self.state.candidates {
            let network = Arc::new(candidate.evaluator(&self.start));
            let series = openings_series(&config, config.selection_games, TEST_STREAM);
            let stats = benchmark(
                &self.start,
                &config,
                network,
                self.opponents[0].1.as_ref(),
                series,
                observer,
            )?;
            let tested = Champion {
                test_win_rate: Some(stats.record.win_rate),
                ..candidate.clone()
            };
            if best.as_ref().is_none_or(|b| {
                (b.test_win_rate, b.generation) < (tested.test_win_rate, tested.generation)
            }) {
                best = Some(tested);
            }
        }
        self.state.selected = best;
        Ok(())
    }

    /// Plays one generation: learning games (TD presets), league (evolving presets),
    /// benchmark of the best, champion and candidates, next population.
    fn step(&mut self, observer: &dyn Observer) -> Result<(), EvolveError> {
        let state = &mut self.state;
        let config = state.config.clone();
        let generation = state.generation + 1;
        let start = &self.start;
        let league_games = if config.evolves() {
            league::league_games(
                &config,
                generation,
                state.hall_of_fame.len(),
                self.sparring.len(),
            )
        } else {
            0
        };
        observer.generation_started(
            generation,
            config.td_games * state.population.len()
                + league_games
                + config.bench_games * self.opponents.len(),
        );
        let learned = if config.td_games > 0 {
            learning::learn(
                start,
                &config,
                generation,
                &mut state.population,
                &learning::Tutors {
                    sparring: &self.sparring,
                    teacher: self.teacher.as_deref(),
                },
                &state.architecture,
                &|| observer.game_done(),
            )
            .map_err(|forfeit| EvolveError::Forfeited {
                during: format!("generation {generation}'s learning games"),
                reason: forfeit.reason,
            })?
        } else {
            Vec::new()
        };
        // The learner may change the state (CMA-ES moves its distribution) while networks
        // are still being built: they need only the layout.
        let architecture = state.architecture.clone();
        let network = |genes: &[f32]| {
            Arc::new(NeuralEvaluator::new(
                start.network(&architecture, genes.to_vec()),
            ))
        };
        let players: Vec<_> = state.population.iter().map(|i| network(&i.genes)).collect();
        let fitness = if config.evolves() {
            let hall: Vec<_> = state.hall_of_fame.iter().map(|g| network(g)).collect();
            league::play_league(
                start,
                &config,
                generation,
                &players,
                &hall,
                &self.sparring,
                &|| observer.game_done(),
            )?
        } else {
            learned
        };
        let ranked = selection::ranking(&fitness);
        let best = ranked[0];
        let kind = config.preset.learner().kind();
        let offered = match kind {
            Kind::Population(learner) => learner.offered(state, &ranked),
            Kind::Gradient => state.population[best].genes.clone(),
        };
        let offered_player = network(&offered);
        let mut records = Vec::new();
        if config.bench_games > 0 {
            let series = openings_series(&config, config.bench_games, BENCH_STREAM);
            for (_, opponent) in &self.opponents {
                let network = offered_player.clone();
                let stats =
                    benchmark(start, &config, network, opponent.as_ref(), series, observer)?;
                records.push(stats.record);
            }
        }
        let mut records = records.into_iter();
        let benchmark = records.next();
        let others: Vec<WinRecord> = records.collect();
        let win_rate = benchmark.as_ref().map(|b| b.win_rate);
        let candidate = Champion {
            architecture: state.architecture.clone(),
            genes: offered.clone(),
            depth: config.depth,
            preset: config.preset.to_string(),
            seed: config.seed,
            generation,
            fitness: fitness[best],
            benchmark_win_rate: win_rate,
            test_win_rate: None,
        };
        if let Some(files) = &self.files
            && config
                .snapshots
                .is_some_and(|every| generation.is_multiple_of(every))
        {
            candidate.save(&files.run.snapshot(generation), start.name())?;
        }
        // The champion is the best-benchmarked generation winner so far (a later one wins
        // ties, having evolved longer); without benchmarks, simply the latest winner. The
        // final selection may replace it by a better-tested candidate.
        let keep_old = matches!(
            (&state.champion, win_rate),
            (Some(Champion { benchmark_win_rate: Some(old), .. }), Some(new)) if *old > new
        );
        if !keep_old {
            state.champion = Some(candidate.clone());
        }
        keep_candidate(&mut state.candidates, candidate, config.candidates);
        state.selected = None;
        state.history.push(GenerationStats {
            generation,
            fitness_max: fitness[best],
            fitness_mean: fitness.iter().sum::<f64>() / fitness.len() as f64,
            fitness_min: fitness[ranked[ranked.len() - 1]],
            benchmark,
            others,
            diversity: diversity(&state.population),
        });
        state.gate_reached = state.last_benchmark_passes_gate();
        if config.hall_of_fame > 0 {
            state.hall_of_fame.push(offered);
            let excess = state.hall_of_fame.len().saturating_sub(config.hall_of_fame);
            state.hall_of_fame.drain(..excess);
        }
        if let Kind::Population(learner) = kind {
            state.population = learner.next_generation(state, &fitness, &ranked);
        }
        state.generation = generation;
        Ok(())
    }
}

/// Adds `candidate` to the best-first list `candidates` if it is among the `keep` best by
/// benchmark win rate (a later generation ranks first among equals).
fn keep_candidate(candidates: &mut Vec<Champion>, candidate: Champion, keep: usize) {
    let rate = |c: &Champion| c.benchmark_win_rate.unwrap_or(0.0);
    let position = candidates
        .iter()
        .position(|c| rate(&candidate) >= rate(c))
        .unwrap_or(candidates.len());
    candidates.insert(position, candidate);
    candidates.truncate(keep);
}
