//! The network families a board evaluator can be: multi-layer perceptrons (the Othello
//! ENN paper §2.2 and Fig. 3) and n-tuple networks. Every family keeps its weights in one flat chromosome,
//! so that learners treat a network as a vector of genes.

mod backprop;
mod init;
mod mlp;
pub mod network;
pub mod ntuple;

pub use init::nguyen_widrow;
pub use mlp::{MAX_WIDTH, Mlp, Topology, TopologyError, fast_exp, sigmoid};
pub use network::{Architecture, MAX_WEIGHT, Network, check_weights, usable_weight};
pub use ntuple::{NTuple, TupleError, TupleSpec};
