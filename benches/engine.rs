//! Criterion micro-benchmarks of the hot paths: one MLP evaluation (dense and the sparse
//! ±1 Othello pass), Othello move generation, and a fixed-depth search.
//! Run with `cargo bench`; `evoboard bench` measures whole workloads (perft, generations).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use evoboard::Othello;
use evoboard::arena::random_openings;
use evoboard::eval::NamedEvaluators;
use evoboard::eval::neural::{NeuralEvaluator, NeuralInput};
use evoboard::games::{Player, perft};
use evoboard::nn::{Mlp, Topology, nguyen_widrow};
use evoboard::rng::rng_for;
use evoboard::search::search;

fn positions() -> Vec<Othello> {
    random_openings(&Othello::start(), 64, 20, 99).expect("20-ply openings exist")
}

fn mlp_forward(c: &mut Criterion) {
    let topology = Topology::new(&[64, 42, 1]).unwrap();
    let mlp = Mlp::new(
        topology.clone(),
        nguyen_widrow(&topology, &mut rng_for(1, &[])),
    );
    let positions = positions();
    let dense: Vec<Vec<f32>> = positions
        .iter()
        .map(|p| {
            let mut input = vec![0.0; 64];
            p.encode(Player::First, &mut input);
            input
        })
        .collect();
    let mut group = c.benchmark_group("mlp 64-42-1");
    group.bench_function("dense forward", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % dense.len();
            black_box(mlp.forward(black_box(&dense[i])))
        })
    });
    group.bench_function("sparse signed forward (othello)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % positions.len();
            black_box(positions[i].network_output(&mlp, Player::First))
        })
    });
    group.finish();
}

fn othello(c: &mut Criterion) {
    let start = Othello::start();
    // The published count: a wrong move generator fails here instead of being timed.
    assert_eq!(perft(&start, 6), 8200, "Othello perft(6)");
    c.bench_function("othello perft(6)", |b| {
        b.iter(|| perft(black_box(&start), 6))
    });
    let positions = positions();
    let heuristic = Othello::evaluator("heuristic").unwrap();
    c.bench_function("othello heuristic evaluation", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % positions.len();
            black_box(heuristic.evaluate(&positions[i], Player::First))
        })
    });
    let topology = Topology::new(&[64, 42, 1]).unwrap();
    let network = NeuralEvaluator::new(Mlp::new(
        topology.clone(),
        nguyen_widrow(&topology, &mut rng_for(2, &[])),
    ));
    c.bench_function("othello alpha-beta depth 4, neural", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % positions.len();
            black_box(search(&positions[i], 4, &network).nodes)
        })
    });
}

criterion_group!(benches, mlp_forward, othello);
criterion_main!(benches);
