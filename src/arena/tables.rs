//! Gifford et al.'s per-agent statistics as the columns of tables: the headings a printed
//! table shows, the names a CSV file gives them, and a round robin's CSV table.

use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

use crate::arena::tournament::AgentSummary;
use crate::csv_rows::{Fixed, column_names, csv_text};

/// Gifford et al.'s per-agent statistics: (CSV name, table heading, value), in column order.
pub fn summary_columns(s: &AgentSummary) -> [(&'static str, &'static str, f64); 10] {
    [
        ("win_pct", "win%", 100.0 * s.win_rate),
        ("win_pct_first", "1st%", 100.0 * s.win_rate_first),
        ("win_pct_second", "2nd%", 100.0 * s.win_rate_second),
        ("avg_stones", "stones", s.avg_stones),
        ("avg_margin", "margin", s.avg_margin),
        ("avg_win_margin", "win-m", s.avg_win_margin),
        ("avg_loss_margin", "loss-m", s.avg_loss_margin),
        ("avg_captures", "capt", s.avg_captures),
        ("avg_extra_turns", "again", s.avg_extra_turns),
        ("avg_moves", "moves", s.avg_moves),
    ]
}

/// An agent's statistics as CSV columns, named and ordered by [`summary_columns`], with
/// three decimals: the end of every row of the tournament's and Gifford's tables.
pub struct SummaryColumns<'a>(pub &'a AgentSummary);

impl Serialize for SummaryColumns<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let columns = summary_columns(self.0);
        let mut row = serializer.serialize_struct("SummaryColumns", columns.len())?;
        for (name, _, value) in columns {
            row.serialize_field(name, &Fixed::<3>(value))?;
        }
        row.end()
    }
}

/// The start of a row of the round robin's CSV table: the agent and its games.
#[derive(Serialize)]
struct TournamentRow<'a> {
    agent: &'a str,
    games: usize,
    wins: usize,
    draws: usize,
    losses: usize,
}

/// A row of the round robin's CSV table.
fn tournament_row(s: &AgentSummary) -> (TournamentRow<'_>, SummaryColumns<'_>) {
    let head = TournamentRow {
        agent: &s.agent,
        games: s.games,
        wins: s.wins,
        draws: s.draws,
        losses: s.losses,
    };
    (head, SummaryColumns(s))
}

/// The round robin's per-agent statistics as CSV, one row per agent. Agent specs are
/// quoted (they may hold commas: champion paths), numbers are not.
pub fn tournament_csv(agents: &[AgentSummary]) -> String {
    let header = column_names(&tournament_row(&AgentSummary::default()));
    let rows = agents.iter().map(tournament_row);
    csv_text(&header, rows, csv::QuoteStyle::NonNumeric)
}
