//! `evoboard benchmark`: a series of games between two agents, with win rate, 95% interval,
//! margins, game lengths and think times; `--protocol league` measures an Othello
//! evaluator the way the CEC 2006 Othello League did. Also the table, JSON and progress
//! helpers that `panel` shares.

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, FromArgMatches, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::common::{GameName, SeriesArgs, configure_threads};
use crate::error::{BadInput, CliResult};
use evoboard::arena::reports::benchmark_report;
use evoboard::arena::{
    AgentSpec, Forfeits, LEAGUE_GAMES, LEAGUE_OPPONENT, SeriesConfig, SeriesStats, SprtResult,
    WinRecord, league_agents, league_series, play_series, play_sprt,
};
use evoboard::eval::NamedEvaluators;
use evoboard::statistics::{Sprt, Verdict};

/// Play a series of games between two agents and report win rate and timings.
#[derive(Debug, Args)]
pub struct BenchmarkArgs {
    // Must stay the first field: the fields after it take their values out of the matches.
    #[command(flatten)]
    typed: Typed,
    /// The agent measured: random, first, heuristic:D, wpc:D, minimax:D:EVAL or
    /// champion:PATH[:D], each optionally with ~SECONDS (at most that long a move) or,
    /// in Othello, ~SECONDS/game (a game clock, with the endgame solvers), and @EPS.
    #[arg(long)]
    player: String,
    /// Its opponent.
    #[arg(long, default_value = "heuristic:2")]
    opponent: String,
    /// How the series is set up and scored.
    #[arg(long, value_enum, default_value_t = Protocol::Standard)]
    protocol: Protocol,
    #[command(flatten)]
    series: SeriesArgs,
    /// Stop as soon as a sequential test decides: H0 "the player is ELO0 stronger"
    /// against H1 "ELO1 stronger", error rates ALPHA and BETA (default 0.05), over game
    /// pairs; --games is then the most played (default 20000).
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    sprt: Option<Sprt>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// The most games a sequential test plays when --games is not given.
const SPRT_GAMES: u32 = 20_000;

/// The ways `benchmark` can measure a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Protocol {
    /// The player as given against --opponent, from random openings.
    Standard,
    /// The Othello League measure (Lucas & Runarsson, CEC 2006): the player's evaluator at
    /// 1 ply with ε = 0.1 against wpc:1@0.1, 1000 games (or --games) from the start
    /// position, scored (wins + draws/2) / games.
    League,
}

/// Which of the flags the user typed: clap's defaults hide that, and the league protocol
/// refuses some flags and gives others different defaults. It reads the matches before
/// the other fields of [`BenchmarkArgs`] take their values out.
#[derive(Clone, Copy, Debug, Default)]
struct Typed {
    opponent: bool,
    games: bool,
    openings: bool,
}

impl FromArgMatches for Typed {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Typed, clap::Error> {
        let typed = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
        Ok(Typed {
            opponent: typed("opponent"),
            games: typed("games"),
            openings: typed("openings"),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Typed::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for Typed {
    fn augment_args(command: clap::Command) -> clap::Command {
        command
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        command
    }
}

/// A benchmark resolved from its flags: the agents as they play, and the series.
struct Plan {
    player: AgentSpec,
    opponent: AgentSpec,
    config: SeriesConfig,
    protocol: Protocol,
    sprt: Option<Sprt>,
}

impl Plan {
    /// The benchmark `args` ask for in the game called `game`.
    fn from_args(args: &BenchmarkArgs, game: &str) -> CliResult<Plan> {
        let player = args.player.parse::<AgentSpec>()?;
        match args.protocol {
            Protocol::Standard => Ok(Plan {
                player,
                opponent: args.opponent.parse()?,
                config: SeriesConfig {
                    games: match (args.sprt, args.typed.games) {
                        (Some(_), false) => SPRT_GAMES as usize,
                        _ => args.series.games as usize,
                    },
                    opening_plies: args.series.openings,
                    seed: args.series.seed,
                },
                protocol: Protocol::Standard,
                sprt: args.sprt,
            }),
            Protocol::League => Plan::league(args, game, &player),
        }
    }

    /// The League's fixed setup; the flags it fixes are refused rather than ignored.
    fn league(args: &BenchmarkArgs, game: &str, player: &AgentSpec) -> CliResult<Plan> {
        let refuse = |message: &str| Err(BadInput(format!("--protocol league: {message}")).into());
        if args.sprt.is_some() {
            return refuse("the League measure is a fixed number of games; drop --sprt");
        }
        if game != GameName::Othello.as_str() {
            return refuse("the Othello League measure is defined for --game othello only");
        }
        if args.typed.opponent {
            return refuse(&format!(
                "the opponent is fixed ({LEAGUE_OPPONENT}); drop --opponent"
            ));
        }
        if args.typed.openings {
            return refuse(
                "every game starts from the start position (the ε = 0.1 moves give the \
                 variety); drop --openings",
            );
        }
        let games = if args.typed.games {
            args.series.games as usize
        } else {
            LEAGUE_GAMES
        };
        let (player, opponent) = league_agents(player)?;
        Ok(Plan {
            player,
            opponent,
            config: league_series(games, args.series.seed),
            protocol: Protocol::League,
            sprt: None,
        })
    }
}

pub fn run<G: NamedEvaluators>(start: G, args: &BenchmarkArgs) -> CliResult {
    let plan = Plan::from_args(args, start.name())?;
    configure_threads(usize::from(args.series.threads))?;
    run_series(start, &plan, args.json)
}

fn run_series<G: NamedEvaluators>(start: G, plan: &Plan, json: bool) -> CliResult {
    let player = plan.player.build(&start)?;
    let opponent = plan.opponent.build(&start)?;
    let progress = games_progress(plan.config.games as u64)?;
    progress.set_prefix(format!("{} vs {}", plan.player, plan.opponent));
    let (records, sprt) = match plan.sprt {
        Some(test) => {
            let (result, records) = play_sprt(
                &start,
                player.as_ref(),
                opponent.as_ref(),
                test,
                plan.config,
                &|| progress.inc(1),
            )?;
            (records, Some(result))
        }
        None => {
            let records = play_series(
                &start,
                player.as_ref(),
                opponent.as_ref(),
                plan.config,
                &|| progress.inc(1),
            )?;
            (records, None)
        }
    };
    progress.finish_and_clear();
    let mut forfeits = Forfeits::default();
    forfeits.add(&records, "");
    if let Some(warning) = forfeits.warning() {
        eprintln!("warning: {warning}");
    }
    let stats = SeriesStats::from_records(&records);
    if json {
        let mut report = benchmark_report(
            start.name(),
            &plan.player.to_string(),
            &plan.opponent.to_string(),
            plan.protocol == Protocol::League,
            plan.config,
            &stats,
            forfeits.forfeited,
        );
        if let Some(sprt) = &sprt {
            report["sprt"] = json!(sprt);
        }
        println!("{report}");
    } else {
        let summaries: Vec<(&str, String)> = [("player", &player), ("opponent", &opponent)]
            .into_iter()
            .filter_map(|(who, agent)| Some((who, agent.summary()?)))
            .collect();
        print_table(start.name(), plan, &stats, &summaries);
        if let Some(sprt) = &sprt {
            print_sprt(sprt);
        }
    }
    Ok(())
}

/// The test's verdict, its ratio against the bounds, the pair counts and the Elo
/// estimate.
fn print_sprt(result: &SprtResult) {
    let test = &result.test;
    let pairs = result.pentanomial.pairs();
    let verdict = match result.verdict {
        Some(Verdict::H1) => format!(
            "H1 (+{} Elo) accepted over H0 (+{} Elo)",
            test.elo1, test.elo0
        ),
        Some(Verdict::H0) => format!(
            "H0 (+{} Elo) accepted over H1 (+{} Elo)",
            test.elo0, test.elo1
        ),
        None => "no verdict within the games allowed (raise --games)".to_string(),
    };
    println!(
        "SPRT (alpha {}, beta {}): {verdict} after {pairs} pairs; LLR {:.2} (bounds {:.2}, {:.2})",
        test.alpha, test.beta, result.llr, result.lower_bound, result.upper_bound
    );
    let [p0, p1, p2, p3, p4] = result.pentanomial.counts;
    let elo = &result.elo;
    println!(
        "pairs scoring 0, ½, 1, 1½, 2: {p0}, {p1}, {p2}, {p3}, {p4}; \
         Elo {:+.1} (95% {:+.1} to {:+.1})",
        elo.elo, elo.ci_low, elo.ci_high
    );
}

/// `summaries`: what each agent that keeps an account of its moves says of them.
fn print_table(game: &str, plan: &Plan, stats: &SeriesStats, summaries: &[(&str, String)]) {
    let setup = match plan.protocol {
        Protocol::Standard => format!("{} random opening plies", plan.config.opening_plies),
        Protocol::League => "league protocol: all from the start position".to_string(),
    };
    println!(
        "{game}: {} vs {}, {} games ({setup}, seed {})",
        plan.player, plan.opponent, stats.record.games, plan.config.seed
    );
    println!(
        "{:<8} {} {:>8} {:>8}",
        "",
        RecordColumns::header(),
        "margin",
        "length"
    );
    println!(
        "{:<8} {} {:>+8.2} {:>8.1}",
        "player",
        RecordColumns(&stats.record),
        stats.mean_margin,
        stats.mean_length
    );
    let (low, high) = stats.record.score_interval();
    let label = match plan.protocol {
        Protocol::League => "league score",
        _ => "score",
    };
    println!(
        "{label} (wins + draws/2) / games: {:.3} (95% {low:.3} – {high:.3})",
        stats.record.score()
    );
    if plan.protocol != Protocol::League {
        let openings = stats.openings_won;
        println!(
            "openings won by the player with both colours: {}, with one: {}, with neither: {}",
            openings.both, openings.one, openings.neither
        );
    }
    if stats.wiped_out > 0 {
        println!(
            "games the player lost with nothing left (wiped out): {} of {} losses",
            stats.wiped_out, stats.record.losses
        );
    }
    for (who, spec, times) in [
        ("player", &plan.player, &stats.player_time),
        ("opponent", &plan.opponent, &stats.opponent_time),
    ] {
        println!(
            "{who:<8} {spec}: {} moves, {:.3} ms/move (sd {:.3}, max {:.3}), at most {:.2} s \
             in one game",
            times.moves, times.mean_ms, times.sd_ms, times.max_ms, times.max_game_s
        );
    }
    for (who, summary) in summaries {
        println!("{who:<8} {summary}");
    }
}

/// A progress bar (on stderr) over `games` games; its prefix says who is playing.
pub(super) fn games_progress(games: u64) -> CliResult<ProgressBar> {
    Ok(ProgressBar::new(games).with_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games, ETA {eta}")?
            .progress_chars("=> "),
    ))
}

/// A [`WinRecord`] as table columns (wins, draws, losses, win rate, 95% interval), so
/// every table prints records alike.
pub(super) struct RecordColumns<'a>(pub &'a WinRecord);

impl RecordColumns<'_> {
    /// The headings of the columns, aligned with them.
    pub fn header() -> String {
        format!(
            "{:>5} {:>5} {:>6} {:>9} {:>18}",
            "wins", "draws", "losses", "win rate", "95% interval"
        )
    }
}

impl std::fmt::Display for RecordColumns<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let record = self.0;
        write!(
            f,
            "{:>5} {:>5} {:>6} {:>8.1}% {:>7.1}% – {:>6.1}%",
            record.wins,
            record.draws,
            record.losses,
            100.0 * record.win_rate,
            100.0 * record.ci_low,
            100.0 * record.ci_high
        )
    }
}
