//! Separable CMA-ES (Ros & Hansen 2008; for n-tuple networks Jaśkowski & Szubert 2016): a
//! Gaussian search distribution whose mean, step size and per-weight scales adapt to the
//! ranking of each generation's samples, so steps stay bounded by design.

use super::api::{Founders, GameDefaults, Kind, Learner, LearnerState, PopulationLearner};
use crate::evolve::checkpoint::EvolutionState;
use crate::evolve::cmaes::SepCma;
use crate::evolve::config::EvolveConfig;
use crate::evolve::population::Individual;
use crate::nn::{Architecture, nguyen_widrow};
use crate::rng::GameRng;

pub struct Cmaes;

/// The first distribution's step.
const INITIAL_SIGMA: f32 = 0.1;

impl Learner for Cmaes {
    fn name(&self) -> &'static str {
        "cmaes"
    }

    fn about(&self) -> &'static str {
        "separable CMA-ES"
    }

    fn kind(&self) -> Kind<'_> {
        Kind::Population(self)
    }

    /// The first step of the distribution and the share of a step its mean takes.
    fn parameters(&self) -> &'static [&'static str] {
        &["initial_sigma", "mean_rate"]
    }

    /// 20 samples a generation from a distribution of initial step 0.1, ranked by the league.
    fn defaults(&self, config: EvolveConfig, _game: GameDefaults) -> EvolveConfig {
        EvolveConfig {
            initial_sigma: INITIAL_SIGMA,
            ..config
        }
    }

    /// The distribution's four vectors of f64; while it updates, the steps of the better
    /// half of the samples and their mean, in f64 too.
    fn state_bytes(&self, config: &EvolveConfig, genes: usize) -> (usize, usize) {
        let vector = genes.saturating_mul(std::mem::size_of::<f64>());
        (
            4 * vector,
            (config.population / 2 + 1).saturating_mul(vector),
        )
    }

    /// The first distribution is centred on the run's first network, or on a
    /// Nguyen-Widrow MLP, or on zero for an n-tuple network, with step `initial_sigma`;
    /// generation 0 is drawn from it.
    fn founders(
        &self,
        config: &EvolveConfig,
        architecture: &Architecture,
        first: Option<&[f32]>,
        rng: &mut GameRng,
    ) -> Founders {
        let mean = match (first, architecture) {
            (Some(first), _) => first.to_vec(),
            (None, Architecture::Mlp(topology)) => nguyen_widrow(topology, rng),
            (None, Architecture::NTuple(spec)) => vec![0.0; spec.genes()],
        };
        founders_around(mean, config, rng)
    }

    fn check_state(&self, state: &EvolutionState) -> Result<(), String> {
        match state.learner_state.read::<SepCma>() {
            Ok(cma) if cma.fits(state.architecture.genes()) => Ok(()),
            _ => Err("its CMA-ES state does not fit the run".to_string()),
        }
    }

    fn offered_label(&self, _config: &EvolveConfig) -> &'static str {
        "each generation's mean network"
    }
}

impl PopulationLearner for Cmaes {
    /// The distribution moves to the ranking of its samples, and the generation offers its
    /// new mean (the strategy's estimate, less noisy than any one sample's fitness).
    fn offered(&self, state: &mut EvolutionState, ranked: &[usize]) -> Vec<f32> {
        let samples: Vec<&[f32]> = state
            .population
            .iter()
            .map(|i| i.genes.as_slice())
            .collect();
        let mut cma = distribution(state);
        cma.update(&samples, ranked, state.config.mean_rate);
        state.learner_state = LearnerState::of(&cma);
        cma.mean_genes()
    }

    /// Fresh samples of the moved distribution.
    fn next_generation(
        &self,
        state: &mut EvolutionState,
        _fitness: &[f64],
        _ranked: &[usize],
    ) -> Vec<Individual> {
        let cma = distribution(state);
        samples(&cma, state.population.len(), &mut state.rng)
    }
}

/// Generation 0 of a CMA-ES learner: `config.population` samples of a first distribution
/// centred on `mean` with step `initial_sigma`.
pub(super) fn founders_around(
    mean: Vec<f32>,
    config: &EvolveConfig,
    rng: &mut GameRng,
) -> Founders {
    let cma = SepCma::new(
        mean.into_iter().map(f64::from).collect(),
        f64::from(config.initial_sigma),
    );
    Founders {
        population: samples(&cma, config.population, rng),
        state: LearnerState::of(&cma),
    }
}

/// The search distribution of a CMA-ES learner's state (checked when it was read).
fn distribution(state: &EvolutionState) -> SepCma {
    state
        .learner_state
        .read()
        .expect("a CMA-ES run's distribution was checked")
}

fn samples(cma: &SepCma, count: usize, rng: &mut GameRng) -> Vec<Individual> {
    cma.sample(count, rng)
        .into_iter()
        .map(Individual::plain)
        .collect()
}
