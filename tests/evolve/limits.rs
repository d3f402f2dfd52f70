//! Limits: population caps, the memory bound, and settings refused before a run starts.

use evoboard::Othello;
use evoboard::evolve::Evolution;
use evoboard::evolve::config::{EvolveConfig, NetworkChoice, Preset};
use evoboard::games::mancala::Kalah;

use crate::common::{small, temp_dir};

#[test]
fn populations_are_capped_and_must_fit_in_memory_before_anything_is_allocated() {
    let huge = EvolveConfig {
        population: 10_000_000,
        ..EvolveConfig::new(Preset::MODERN)
    };
    assert!(huge.validate().is_err());
    let dir = temp_dir("huge");
    assert!(Evolution::create(Othello::start(), huge, &dir).is_err());
    // Within the cap but not within memory: 9,000 networks of 167,265 weights.
    let wide = EvolveConfig {
        population: 9_000,
        network: NetworkChoice::NTuple("logistello".to_string()),
        ..EvolveConfig::new(Preset::CMAES)
    };
    assert!(wide.validate().is_ok());
    let bytes = 4 * 167_265 + 65_536;
    assert!(wide.check_memory(167_265, bytes, 0, 2).is_err());
    assert!(Evolution::create(Othello::start(), wide.clone(), &dir).is_err());
    assert!(
        !dir.exists(),
        "nothing is written for a run that cannot start"
    );
    let few = EvolveConfig {
        population: 20,
        ..wide
    };
    assert!(few.check_memory(167_265, bytes, 0, 2).is_ok());
    // The league's list of games counts too: 10,000 small TD learners in a full league
    // (10⁸ games) passed a check of the chromosomes alone, then aborted allocating it.
    let league = EvolveConfig {
        population: 10_000,
        td_games: 1,
        ..EvolveConfig::for_game(Preset::CTDL, &Kalah::game(6, 4, false))
    };
    assert!(league.validate().is_ok());
    let error = Evolution::create(Kalah::game(6, 4, false), league, &dir)
        .err()
        .expect("the run does not fit in memory")
        .to_string();
    assert!(
        error.contains("MB") && error.contains("league_sample"),
        "{error}"
    );
    assert!(!dir.exists());
}

/// A run's memory bound grows with everything it holds, and every part of it counts.
#[test]
fn the_memory_bound_counts_every_copy_of_the_population_and_the_league() {
    let config = EvolveConfig {
        population: 100,
        ..EvolveConfig::new(Preset::MODERN)
    };
    let bound = |c: &EvolveConfig| c.memory_bound(2_773, 20_000, 0, 2);
    let bigger = |change: fn(&mut EvolveConfig)| {
        let mut changed = config.clone();
        change(&mut changed);
        bound(&changed) > bound(&config)
    };
    assert!(bigger(|c| c.population = 200));
    assert!(bigger(|c| c.hall_of_fame += 10));
    assert!(bigger(|c| c.candidates += 10));
    assert!(bigger(|c| c.bench_games = 100_000));
    assert!(bigger(|c| {
        c.sparring = vec!["random".to_string()];
        c.sparring_games = 1_000;
    }));
    // A sampled league lists fewer games than the full one.
    assert!(!bigger(|c| c.league_sample = Some(2)));
    // Each individual counts five times over: in the population, as a player, in the next
    // population, in the checkpoint's encoding and in its copy (each of the four
    // chromosome stores holding genes and mutation steps).
    let doubled = EvolveConfig {
        population: 200,
        ..config.clone()
    };
    assert!(bound(&doubled) - bound(&config) >= 100 * (8 * 2_773 * 4 + 20_000));
    assert!(config.memory_bound(2_773, 20_000, 0, 8) > bound(&config));
    assert!(config.memory_bound(2_773, 20_000, 1 << 20, 2) > bound(&config));
}

#[test]
fn the_td_presets_need_learning_games() {
    for preset in [Preset::TD, Preset::CTDL] {
        let config = EvolveConfig {
            td_games: 0,
            ..EvolveConfig::for_game(preset, &Othello::start())
        };
        let error = config.validate().unwrap_err().to_string();
        assert!(error.contains("td_games must be at least 1"), "{error}");
        let dir = temp_dir("no-td-games");
        assert!(Evolution::create(Othello::start(), config, &dir).is_err());
        assert!(!dir.exists());
    }
    // The evolving presets learn by evolution alone by default.
    assert!(small(Preset::MODERN).validate().is_ok());
}

#[test]
fn fitness_needs_the_league_or_sparring_games() {
    let alone = EvolveConfig {
        league: false,
        ..EvolveConfig::new(Preset::CMAES)
    };
    assert!(alone.validate().is_err());
    let no_partners = EvolveConfig {
        sparring_games: 4,
        ..EvolveConfig::new(Preset::CMAES)
    };
    assert!(no_partners.validate().is_err());
}
