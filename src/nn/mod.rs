//! Multi-layer perceptrons whose weights live in one flat chromosome, so that evolution can
//! treat a network as a vector of genes (seed 004 §2.2 and Fig. 3).

mod init;
mod mlp;

pub use init::nguyen_widrow;
pub use mlp::{MAX_WIDTH, Mlp, Topology, TopologyError, fast_exp, sigmoid};
