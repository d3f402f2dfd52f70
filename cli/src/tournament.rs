//! `evoboard tournament`: a round robin with Gifford et al.'s (2008) statistics per agent and
//! the pairwise results, as a table, JSON or CSV.

use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::ProgressBar;

use crate::common::{SeriesArgs, check_output_path, configure_threads, write_output};
use crate::error::{BadInput, CliError, CliResult};
use crate::stop::stop_on_ctrl_c;
use evoboard::arena::AgentSpec;
use evoboard::arena::GameRecord;
use evoboard::arena::journal::{JOURNAL_FORMAT, Journal, JournalHeader, KeptGames};
use evoboard::arena::reports::tournament_report;
use evoboard::arena::tables::{summary_columns, tournament_csv};
use evoboard::arena::tournament::{
    AgentSummary, KeptTournamentError, TournamentConfig, TournamentResult, check_kept, round_robin,
    round_robin_kept,
};
use evoboard::eval::NamedEvaluators;
use evoboard::farm;
use evoboard::statistics::{Ratings, rate};

/// Round robin between agents, with Gifford et al.'s statistics and the pairwise matrix.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// Two or more agent specs, comma-separated (e.g. random,heuristic:2,minimax:4:h1+h2).
    #[arg(long, value_delimiter = ',', required = true)]
    agents: Vec<String>,
    #[command(flatten)]
    series: SeriesArgs,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
    /// Summarise think times over each agent's first N moves of every game (the Congklak
    /// minimax report's Table 6.4 timed the first five) instead of over all moves.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    timed_moves: Option<u64>,
    /// Also write the per-agent statistics as CSV.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Rate the agents on the Elo scale (Bradley–Terry with draws and first-move
    /// advantage), this agent at 0 (default: the first of --agents).
    #[arg(long, value_name = "ANCHOR", num_args = 0..=1, default_missing_value = "")]
    ratings: Option<String>,
    /// Keep every finished game in FILE (one JSON line each) and, when FILE holds games of
    /// this same tournament, play only the ones it lacks: a long tournament that is
    /// stopped (Ctrl-C, a lost session) goes on with the same command and ends as it
    /// would have unstopped.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Bootstrap resamples behind the ratings' 95% intervals.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(0..=evoboard::statistics::MAX_BOOTSTRAP as i64))]
    bootstrap: u32,
}

pub fn run<G: NamedEvaluators>(start: G, args: &TournamentArgs) -> CliResult {
    if args.agents.len() < 2 {
        return Err(BadInput("a tournament needs at least two --agents".into()).into());
    }
    if let Some(path) = &args.csv {
        check_output_path(path, "the CSV table")?;
    }
    configure_threads(usize::from(args.series.threads))?;
    play(start, args)
}

fn play<G: NamedEvaluators>(start: G, args: &TournamentArgs) -> CliResult {
    let agents = args
        .agents
        .iter()
        .map(|text| Ok((text.clone(), text.parse::<AgentSpec>()?.build(&start)?)))
        .collect::<CliResult<Vec<_>>>()?;
    let config = TournamentConfig {
        games_per_pair: args.series.games as usize,
        opening_plies: args.series.openings,
        seed: args.series.seed,
        timed_moves: args.timed_moves.map(|n| n as usize),
    };
    let anchor = match args.ratings.as_deref() {
        Some("") => Some(args.agents[0].clone()),
        Some(name) if args.agents.iter().any(|a| a == name) => Some(name.to_string()),
        Some(name) => {
            return Err(BadInput(format!(
                "--ratings {name}: the anchor must be one of --agents ({})",
                args.agents.join(", ")
            ))
            .into());
        }
        None => None,
    };
    let pairs = agents.len() * (agents.len() - 1) / 2;
    let progress = ProgressBar::new(pairs as u64 * u64::from(args.series.games));
    let result = match &args.journal {
        None => round_robin(&start, &agents, config, &|| progress.inc(1))?,
        Some(path) => {
            let header = JournalHeader {
                format: JOURNAL_FORMAT,
                game: start.name().to_string(),
                agents: args.agents.clone(),
                games_per_pair: config.games_per_pair,
                opening_plies: config.opening_plies,
                seed: config.seed,
            };
            let (mut journal, kept) = open_journal(path, &header)?;
            let kept = check_kept(&start, &agents, config, kept)?;
            if !kept.is_empty() {
                eprintln!("{}: {} games kept, going on", path.display(), kept.len());
                progress.inc(kept.len() as u64);
            }
            stop_on_ctrl_c()?;
            let at_once = rayon::current_num_threads() * farm::process_count();
            let played = round_robin_kept(
                &start,
                &agents,
                config,
                kept,
                journal.as_mut(),
                at_once,
                &|| progress.inc(1),
            );
            match played {
                Err(KeptTournamentError::Stopped { kept }) => {
                    progress.finish_and_clear();
                    return Err(CliError::Interrupted(format!(
                        "interrupted with {kept} games kept in {}: run the same command to go on",
                        path.display()
                    )));
                }
                played => played?,
            }
        }
    };
    progress.finish_and_clear();
    if let Some(warning) = result.forfeits.warning() {
        eprintln!("warning: {warning}");
    }
    if let Some(path) = &args.csv {
        write_output(path, tournament_csv(&result.agents).as_bytes())?;
    }
    let ratings = match &anchor {
        Some(anchor) => Some(rate(
            &args.agents,
            &result.pair_games,
            anchor,
            args.bootstrap as usize,
            args.series.seed,
        )?),
        None => None,
    };
    if args.json {
        let report = tournament_report(start.name(), &config, &result, ratings.as_ref());
        println!("{report}");
    } else {
        print_tables(start.name(), args, &result);
        if let Some(ratings) = &ratings {
            print_ratings(ratings);
        }
    }
    Ok(())
}

/// The journal at `path` and the games it kept, opened by the process that writes (the
/// leader of an MPI job), which passes the games to the others.
fn open_journal<G: NamedEvaluators>(
    path: &Path,
    header: &JournalHeader,
) -> CliResult<(Option<Journal>, KeptGames<G>)> {
    type Shared<G> = Result<Vec<(([usize; 2], usize), GameRecord<G>)>, String>;
    if !farm::is_leader() {
        let shared: Shared<G> = farm::receive();
        return Ok((None, shared.map_err(BadInput)?.into_iter().collect()));
    }
    let opened = Journal::open::<G>(path, header);
    if farm::process_count() > 1 {
        let shared: Shared<G> = match &opened {
            Ok((_, kept)) => Ok(kept
                .iter()
                .map(|(key, record)| (*key, record.clone()))
                .collect()),
            Err(error) => Err(error.to_string()),
        };
        farm::publish(&shared);
    }
    let (journal, kept) = opened?;
    Ok((Some(journal), kept))
}

fn print_ratings(ratings: &Ratings) {
    let intervals = if ratings.bootstrap_samples == 0 {
        String::new()
    } else {
        format!(
            "; 95% intervals from {} bootstrap resamples",
            ratings.bootstrap_samples
        )
    };
    println!(
        "\nratings (Bradley–Terry, Elo scale, {} = 0{intervals}):",
        ratings.anchor
    );
    let width = ratings
        .players
        .iter()
        .map(|p| p.player.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    println!(
        "{:<width$} {:>6} {:>16} {:>7}",
        "agent", "elo", "95% interval", "games"
    );
    for p in &ratings.players {
        let interval = format!("{:.0} to {:.0}", p.ci_low, p.ci_high);
        println!(
            "{:<width$} {:>6.0} {:>16} {:>7}",
            p.player, p.elo, interval, p.games
        );
    }
    println!(
        "moving first is worth {:+.0} Elo; equal players would draw {:.1}% of their games",
        ratings.first_move_elo,
        100.0 * ratings.equal_draw_rate
    );
}

fn print_tables(game: &str, args: &TournamentArgs, result: &TournamentResult) {
    println!(
        "{game}: round robin of {} agents, {} games per pair ({} random opening plies, seed {})",
        result.agents.len(),
        args.series.games,
        args.series.openings,
        args.series.seed
    );
    print!("{:<24} {:>6}", "agent", "games");
    for (_, heading, _) in summary_columns(&AgentSummary::default()) {
        print!(" {heading:>7}");
    }
    println!();
    for s in &result.agents {
        print!("{:<24} {:>6}", s.agent, s.games);
        for (_, _, value) in summary_columns(s) {
            print!(" {value:>7.2}");
        }
        println!();
    }
    match args.timed_moves {
        Some(n) => println!("\nthink time per move over each agent's first {n} moves (ms):"),
        None => println!("\nthink time per move (ms):"),
    }
    println!(
        "{:<24} {:>8} {:>9} {:>9} {:>9} {:>9}",
        "agent", "N", "min", "max", "mean", "sd"
    );
    for s in &result.agents {
        let t = &s.move_time;
        println!(
            "{:<24} {:>8} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
            s.agent, t.moves, t.min_ms, t.max_ms, t.mean_ms, t.sd_ms
        );
    }
    println!("\nrow agent's wins/draws/losses against the column agent:");
    print!("{:<24}", "");
    for (k, _) in result.agents.iter().enumerate() {
        print!(" {:>11}", format!("#{}", k + 1));
    }
    println!();
    for (k, (s, row)) in result.agents.iter().zip(&result.matrix).enumerate() {
        print!("{:<24}", format!("#{} {}", k + 1, s.agent));
        for cell in row {
            let text = cell.as_ref().map_or("-".to_string(), |r| {
                format!("{}/{}/{}", r.wins, r.draws, r.losses)
            });
            print!(" {text:>11}");
        }
        println!();
    }
}
