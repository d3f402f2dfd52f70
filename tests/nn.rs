//! The MLP: chromosome layout (the Othello ENN paper's Fig. 3), forward passes, Nguyen-Widrow init.

use evoboard::nn::{Mlp, Topology, TopologyError, nguyen_widrow, sigmoid};
use evoboard::rng::rng_for;
use rand::RngExt;

fn othello_topology() -> Topology {
    Topology::new(&[64, 42, 1]).unwrap()
}

#[test]
fn othello_topology_sizes() {
    let t = othello_topology();
    assert_eq!(t.weight_count(), 64 * 42 + 42);
    assert_eq!(t.threshold_count(), 43);
    assert_eq!(t.genes(), 2773);
    assert_eq!(t.multiply_adds(), 2730);
    assert_eq!(t.weight_offset(0), 0);
    assert_eq!(t.weight_offset(1), 64 * 42);
    assert_eq!(t.threshold_offset(0), 2730);
    assert_eq!(t.threshold_offset(1), 2772);
    assert_eq!(t.to_string(), "64-42-1");
}

#[test]
fn invalid_topologies_are_refused() {
    assert_eq!(Topology::new(&[64]), Err(TopologyError::TooFewLayers));
    assert_eq!(
        Topology::new(&[64, 0, 1]),
        Err(TopologyError::BadWidth(1, 0))
    );
    assert_eq!(
        Topology::new(&[64, 300, 1]),
        Err(TopologyError::BadWidth(1, 300))
    );
    assert_eq!(
        Topology::new(&[64, 42, 2]),
        Err(TopologyError::NotScalar(2))
    );
}

/// A 2-2-1 network computed by hand from the documented layout:
/// v = [v00 v01 | v10 v11] (unit by unit), w = [w0 w1], thresholds [θ0 θ1 | θout].
#[test]
fn layout_matches_the_documented_order() {
    let t = Topology::new(&[2, 2, 1]).unwrap();
    let genes = vec![0.5, -1.0, 2.0, 0.25, 1.5, -0.5, 0.1, -0.2, 0.3];
    let mlp = Mlp::new(t, genes);
    let (x0, x1) = (1.0f32, -1.0f32);
    let h0 = sigmoid(0.5 * x0 - 1.0 * x1 - 0.1);
    let h1 = sigmoid(2.0 * x0 + 0.25 * x1 + 0.2);
    let out = sigmoid(1.5 * h0 - 0.5 * h1 - 0.3);
    assert!((mlp.forward(&[x0, x1]) - out).abs() < 1e-6);
    assert!((mlp.forward_signed([0].into_iter(), [1].into_iter()) - out).abs() < 1e-6);
}

#[test]
fn deeper_networks_follow_the_same_layout() {
    // 1-1-1-1: weights a, b, c then thresholds t1, t2, t3.
    let t = Topology::new(&[1, 1, 1, 1]).unwrap();
    let mlp = Mlp::new(t, vec![2.0, -3.0, 0.5, 0.1, 0.2, 0.3]);
    let h1 = sigmoid(2.0 * 0.7 - 0.1);
    let h2 = sigmoid(-3.0 * h1 - 0.2);
    let out = sigmoid(0.5 * h2 - 0.3);
    assert!((mlp.forward(&[0.7]) - out).abs() < 1e-6);
}

#[test]
fn signed_sparse_forward_equals_dense_forward() {
    let mut rng = rng_for(3, &[]);
    for layers in [vec![64, 42, 1], vec![64, 16, 8, 1], vec![64, 1]] {
        let t = Topology::new(&layers).unwrap();
        for _ in 0..50 {
            let genes: Vec<f32> = (0..t.genes())
                .map(|_| rng.random_range(-1.0..1.0))
                .collect();
            let mlp = Mlp::new(t.clone(), genes);
            let input: Vec<f32> = (0..64)
                .map(|_| [-1.0, 0.0, 1.0][rng.random_range(0..3)])
                .collect();
            let plus = (0..64).filter(|&i| input[i] > 0.0);
            let minus = (0..64).filter(|&i| input[i] < 0.0);
            let dense = mlp.forward(&input);
            let sparse = mlp.forward_signed(plus, minus);
            assert!((dense - sparse).abs() < 1e-5, "{dense} vs {sparse}");
            assert!(dense > 0.0 && dense < 1.0);
        }
    }
}

#[test]
fn nguyen_widrow_follows_the_paper() {
    let t = othello_topology();
    let beta = 0.7 * 42f64.powf(1.0 / 64.0);
    for seed in 0..20 {
        let genes = nguyen_widrow(&t, &mut rng_for(seed, &[]));
        assert_eq!(genes.len(), t.genes());
        // Every hidden unit's incoming weight vector has norm β.
        for unit in genes[..64 * 42].chunks(64) {
            let norm = unit
                .iter()
                .map(|w| f64::from(*w).powi(2))
                .sum::<f64>()
                .sqrt();
            assert!((norm - beta).abs() < 1e-4, "norm {norm}, β {beta}");
        }
        // Output weights: uniform in [−0.2, 0.2], not rescaled.
        let output = &genes[64 * 42..64 * 42 + 42];
        assert!(output.iter().all(|w| w.abs() <= 0.2));
        // Hidden thresholds in [−β, β]; the output threshold in [−0.2, 0.2].
        let thresholds = &genes[t.threshold_offset(0)..];
        assert!(thresholds[..42].iter().all(|&x| f64::from(x).abs() <= beta));
        assert!(thresholds[42].abs() <= 0.2);
        // They really spread over the range rather than collapsing near zero.
        assert!(
            thresholds[..42]
                .iter()
                .any(|&x| f64::from(x).abs() > beta / 2.0)
        );
    }
    let a = nguyen_widrow(&t, &mut rng_for(1, &[]));
    let b = nguyen_widrow(&t, &mut rng_for(1, &[]));
    let c = nguyen_widrow(&t, &mut rng_for(2, &[]));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn fast_exp_and_sigmoid_are_accurate() {
    let mut x = -87.0f32;
    while x <= 87.0 {
        let exact = f64::from(x).exp();
        let got = f64::from(evoboard::nn::fast_exp(x));
        // f32 rounding of x·log₂e alone costs up to ~|x|·6e-8 relative.
        let tolerance = if x.abs() <= 10.0 { 1e-6 } else { 1e-5 };
        assert!(
            ((got - exact) / exact).abs() < tolerance,
            "exp({x}) = {got}, exact {exact}"
        );
        let exact_sigmoid = 1.0 / (1.0 + (-f64::from(x)).exp());
        assert!(
            (f64::from(sigmoid(x)) - exact_sigmoid).abs() < 1e-6,
            "sigmoid({x})"
        );
        x += 0.0137;
    }
    assert_eq!(sigmoid(0.0), 0.5);
    assert!(sigmoid(1000.0) <= 1.0 && sigmoid(-1000.0) >= 0.0);
}
