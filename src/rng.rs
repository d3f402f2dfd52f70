//! Reproducible randomness. One portable, named generator (PCG-64, whose output is fixed by
//! its specification, unlike `StdRng`) and a seed-derivation function, so that every game of
//! an experiment gets its own stream from (run seed, indices) whatever thread plays it.

use rand::SeedableRng;

/// The generator used everywhere a result must be reproducible.
pub type GameRng = rand_pcg::Pcg64;

/// Mixes a base seed with a path of indices (SplitMix64 finaliser per step) into a new seed.
/// Different paths give unrelated streams; the same path always gives the same one.
pub fn derive_seed(base: u64, path: &[u64]) -> u64 {
    path.iter()
        .fold(mix(base), |acc, &part| mix(acc ^ mix(part)))
}

/// A generator for the stream named by (`base`, `path`).
pub fn rng_for(base: u64, path: &[u64]) -> GameRng {
    GameRng::seed_from_u64(derive_seed(base, path))
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
