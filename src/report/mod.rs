//! Reports for people: plots of a run's statistics.

pub mod plot;
