//! Evolution and learning, in one test binary: selection and mutation, the league and
//! sparring games, CMA-ES, limits and refused settings, whole runs (determinism across
//! thread counts, the gate, divergence, run locks), resume and checkpoints, TD learning
//! and teachers.

mod cmaes;
mod common;
mod league;
mod limits;
mod resume;
mod runs;
mod selection;
mod td;
mod teachers;
