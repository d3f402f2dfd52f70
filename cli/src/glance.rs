//! `evoboard glance`: the table of the project's headline claims, each measured once on
//! held-out seeds (`experiments::glance`); `--measure` plays the series not yet kept.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::common::{GameName, MAX_THREADS, configure_threads, with_game};
use crate::error::{BadInput, CliResult};
use evoboard::experiments::glance::{
    CLAIMS_FILE, Claims, MEASUREMENTS_FILE, measure, missing, read_measurements, table,
    write_measurements,
};

/// Print the "results at a glance" table: every headline claim of the claims file,
/// measured on the seed ledger's held-out seeds, its games pooled over the seeds. With
/// --measure, first play each claim's series not yet kept (a kept series is never played
/// again, and a claim changed after its measure is refused).
#[derive(Debug, Args)]
pub struct GlanceArgs {
    /// The claims.
    #[arg(long, default_value = CLAIMS_FILE)]
    claims: PathBuf,
    /// Where each series' result is kept.
    #[arg(long, default_value = MEASUREMENTS_FILE)]
    measurements: PathBuf,
    /// Play the series not yet measured (each one kept as soon as it ends).
    #[arg(long)]
    measure: bool,
    /// Only the claims marked `key` (the README's table).
    #[arg(long)]
    key: bool,
    /// Worker threads (0 = one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=MAX_THREADS))]
    threads: u16,
}

pub fn run(args: &GlanceArgs) -> CliResult {
    configure_threads(usize::from(args.threads))?;
    let claims = Claims::read(&args.claims).map_err(BadInput)?;
    let mut measurements = read_measurements(&args.measurements).map_err(BadInput)?;
    let todo = missing(&claims, &measurements).map_err(BadInput)?;
    if args.measure {
        for (k, (claim, seed)) in todo.iter().enumerate() {
            let game = claim.game.parse::<GameName>().map_err(|_| {
                BadInput(format!(
                    "claim {}: game: unknown game '{}'",
                    claim.id, claim.game
                ))
            })?;
            eprintln!(
                "series {}/{}: {} on seed {seed} ({} games)",
                k + 1,
                todo.len(),
                claim.id,
                claim.games
            );
            let started = Instant::now();
            let measured = with_game!(game, |start| measure(&start, claim, *seed))?;
            eprintln!(
                "  {} / {} / {} in {:.0} s",
                measured.wins,
                measured.draws,
                measured.losses,
                started.elapsed().as_secs_f64()
            );
            measurements.push(measured);
            write_measurements(&args.measurements, &measurements)?;
        }
    } else if !todo.is_empty() {
        eprintln!(
            "{} series not yet measured (evoboard glance --measure plays them)",
            todo.len()
        );
    }
    print!("{}", table(&claims, &measurements, args.key));
    Ok(())
}
