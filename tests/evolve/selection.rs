//! Selection and mutation: ranking and roulette, momentum and self-adaptive mutation
//! (bounded or not), and the population's diversity.

use evoboard::evolve::mutation::{Lineage, Stepped, momentum, self_adaptive};
use evoboard::evolve::population::{Individual, diversity};
use evoboard::evolve::selection::{ranking, roulette};
use evoboard::rng::rng_for;

#[test]
fn ranking_breaks_ties_by_index_and_roulette_follows_fitness() {
    assert_eq!(ranking(&[3.0, 9.0, 3.0, 9.0, 0.0]), vec![1, 3, 0, 2, 4]);
    let mut rng = rng_for(1, &[]);
    let fitness = [0.0, 30.0, 0.0, 10.0];
    let mut counts = [0usize; 4];
    for _ in 0..4000 {
        counts[roulette(&fitness, &mut rng)] += 1;
    }
    assert_eq!(counts[0] + counts[2], 0, "zero fitness is never picked");
    let share = counts[1] as f64 / 4000.0;
    assert!((share - 0.75).abs() < 0.03, "{counts:?}");
    // All-zero fitness: uniform.
    let mut counts = [0usize; 4];
    for _ in 0..4000 {
        counts[roulette(&[0.0; 4], &mut rng)] += 1;
    }
    assert!(
        counts.iter().all(|&c| (800..1200).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn momentum_mutation_moves_each_gene_by_r_p_times_its_last_change() {
    let parent = Lineage {
        genes: vec![1.0, -2.0, 0.5, 3.0],
        previous: vec![0.0, -1.0, 0.5, 5.0],
    };
    let p = 0.05;
    let child = momentum(&parent, p, &mut rng_for(2, &[]));
    assert_eq!(child.previous, parent.genes, "X(n−1) becomes the old X(n)");
    for i in 0..4 {
        let change = parent.genes[i] - parent.previous[i];
        let moved = child.genes[i] - parent.genes[i];
        // moved = r·p·change with r in [0, 1): same sign as change, at most p·|change|.
        assert!(moved * change >= 0.0, "gene {i}");
        assert!(moved.abs() <= (p as f32) * change.abs() + 1e-7, "gene {i}");
    }
    assert_eq!(
        child.genes[2], 0.5,
        "no change when X(n) = X(n−1) for that gene"
    );
}

#[test]
fn self_adaptive_mutation_changes_every_gene_and_keeps_steps_positive() {
    let parent = Stepped {
        genes: vec![0.0; 500],
        sigmas: vec![0.05; 500],
    };
    let child = self_adaptive(&parent, None, &mut rng_for(3, &[]));
    assert!(child.sigmas.iter().all(|&s| s > 0.0 && s != 0.05));
    assert!(child.genes.iter().all(|&g| g != 0.0));
    let mean_step = child.genes.iter().map(|g| g.abs()).sum::<f32>() / 500.0;
    // E|N(0, σ)| = σ·√(2/π) ≈ 0.04 for σ ≈ 0.05.
    assert!((0.02..0.06).contains(&mean_step), "{mean_step}");
}

#[test]
fn diversity_is_the_mean_pairwise_distance() {
    let ind = Individual::plain;
    let population = [
        ind(vec![0.0, 0.0]),
        ind(vec![3.0, 4.0]),
        ind(vec![0.0, 0.0]),
    ];
    // Distances 5, 0, 5.
    assert!((diversity(&population) - 10.0 / 3.0).abs() < 1e-9);
    assert_eq!(diversity(&population[..1]), 0.0);
}

#[test]
fn bounded_self_adaptive_steps_never_pass_the_bound_however_long_they_drift() {
    let mut rng = rng_for(5, &[]);
    let mut lineage = Stepped {
        genes: vec![0.0; 200],
        sigmas: vec![0.01; 200],
    };
    let mut unbounded = lineage.clone();
    for _ in 0..300 {
        lineage = self_adaptive(&lineage, Some(0.05), &mut rng);
        unbounded = self_adaptive(&unbounded, None, &mut rng);
    }
    assert!(lineage.sigmas.iter().all(|&s| s > 0.0 && s <= 0.05));
    assert!(
        lineage.sigmas.contains(&0.05),
        "the drift reaches the bound"
    );
    // Unbounded, a log-normal random walk of 300 steps wanders far past it.
    assert!(unbounded.sigmas.iter().any(|&s| s > 0.05));
}
