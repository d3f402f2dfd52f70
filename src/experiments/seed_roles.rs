//! The roles of the project's measuring seeds: the ledger `experiments/seeds.toml`, compiled
//! in, declares per game the seeds held out for one final measure of a claim and those used
//! for validation. A plan may train on a held-out seed nowhere and measure on one only in
//! its `[held_out]` table ([`check_plan_seeds`]); the single-shot commands (`benchmark`,
//! `panel`) stay free.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

/// The ledger's file name, beside the plans in `experiments/`.
pub const LEDGER_FILE: &str = "seeds.toml";

/// The ledger's text.
const LEDGER: &str = include_str!("../../experiments/seeds.toml");

/// One game's seeds by role.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSeeds {
    /// Reserved for a final measure, after every choice is made.
    pub held_out: Vec<u64>,
    /// What evaluations compare and choose on.
    pub validation: Vec<u64>,
}

/// The ledger, per game (by the game's name).
pub fn ledger() -> &'static BTreeMap<String, GameSeeds> {
    static PARSED: OnceLock<BTreeMap<String, GameSeeds>> = OnceLock::new();
    PARSED.get_or_init(|| {
        toml::from_str(LEDGER).expect("experiments/seeds.toml is a valid ledger (a test reads it)")
    })
}

/// The seeds held out for `game`.
pub fn held_out(game: &str) -> &'static [u64] {
    ledger()
        .get(game)
        .map_or(&[], |seeds| seeds.held_out.as_slice())
}

/// Refuses a plan of `game` whose runs train on a held-out seed (`run_seeds`) or whose
/// evaluation, which compares variants and chooses runs, measures on one
/// (`evaluation_seeds`): such a seed would no longer be held out.
pub fn check_plan_seeds(
    game: &str,
    run_seeds: &[u64],
    evaluation_seeds: &[u64],
) -> Result<(), String> {
    let reserved = held_out(game);
    let refuse = |what: &str, seed: u64, role: &str| {
        Err(format!(
            "{what}: seed {seed} is held out for {game} (experiments/seeds.toml): {role}; \
             only the plan's [held_out] measures may play it"
        ))
    };
    if let Some(&seed) = run_seeds.iter().find(|seed| reserved.contains(seed)) {
        return refuse("seeds", seed, "no run may train on it");
    }
    if let Some(&seed) = evaluation_seeds.iter().find(|seed| reserved.contains(seed)) {
        return refuse("evaluation", seed, "variants may not be compared on it");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ledger_names_every_game_and_keeps_roles_apart() {
        for game in crate::games::GameName::ALL {
            let seeds = &ledger()[game.as_str()];
            assert!(!seeds.held_out.is_empty(), "{game}");
            assert!(
                seeds.held_out.iter().all(|s| !seeds.validation.contains(s)),
                "{game}: a seed has two roles"
            );
        }
        // Retired as held out: variants were compared on them.
        assert!(!held_out("othello").contains(&777) && !held_out("othello").contains(&9001));
    }

    #[test]
    fn a_plan_may_not_train_or_compare_on_a_held_out_seed() {
        let reserved = held_out("othello")[0];
        assert_eq!(check_plan_seeds("othello", &[1, 2], &[777]), Ok(()));
        let training = check_plan_seeds("othello", &[1, reserved], &[777]).unwrap_err();
        assert!(
            training.starts_with(&format!("seeds: seed {reserved} is held out for othello")),
            "{training}"
        );
        let comparing = check_plan_seeds("othello", &[1], &[reserved]).unwrap_err();
        assert!(
            comparing.contains("variants may not be compared on it"),
            "{comparing}"
        );
    }
}
