//! Statistics for comparing players and methods: summaries over seeds with Student-t
//! intervals, paired and Welch's tests (`summary`) and Holm's adjustment of many tests'
//! p-values (`holm`), Bradley–Terry ratings on the Elo scale
//! (`rating`), and sequential tests for A/B matches (`sprt`). It knows nothing of games:
//! callers hand it numbers and game counts.

pub mod distributions;
pub mod holm;
pub mod rating;
pub mod sprt;
pub mod summary;

pub use holm::holm;
pub use rating::{
    MAX_BOOTSTRAP, PairGames, PlayerRating, RatingError, Ratings, check_bootstrap, rate,
};
pub use sprt::{EloEstimate, Pentanomial, Sprt, SprtError, Verdict};
pub use summary::{Comparison, Summary, Test};
