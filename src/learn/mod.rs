//! Gradient-based learners of network weights, generic over game and network family.

pub mod distill;
pub mod ordered;
pub mod ranking;
pub mod td;
pub mod teacher;
pub mod updates;
