//! The experiment plans shipped under `experiments/`: each must resolve for its game (every
//! variant's settings valid, every measure possible), so a plan in the table of the docs
//! cannot fail at its first line.

use evoboard::experiments::plan::{PlanFile, plan_files};
use evoboard::games::GameName;
use evoboard::with_game;

#[test]
fn every_shipped_plan_resolves_for_its_game() {
    let mut plans = 0;
    for path in plan_files(std::path::Path::new("experiments")).unwrap() {
        let text = std::fs::read_to_string(&path).unwrap();
        let plan = PlanFile::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let game: GameName = plan
            .game
            .parse()
            .unwrap_or_else(|_| panic!("{}: unknown game", path.display()));
        let resolved = with_game!(game, |start| plan
            .resolve(&start)
            .map(|plan| plan.variants.len()));
        let variants = resolved.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(variants > 0, "{}", path.display());
        plans += 1;
    }
    assert!(plans >= 10, "only {plans} plans found");
}
