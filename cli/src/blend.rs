//! `evoboard blend`: one champion from several n-tuple champions of one architecture, its
//! weights their weighted sum (see [`Champion::blend`]): a generalist from specialists,
//! played at one network's cost.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::common::{GameName, check_output_path, game_parser, with_game};
use crate::error::{BadInput, CliResult};
use evoboard::champion::Champion;
use evoboard::eval::NamedEvaluators;

/// Most champions one blend sums.
const MAX_PARTS: usize = 16;

/// Blend n-tuple champions: a champion whose weights are the parts' weighted sum.
#[derive(Debug, Args)]
pub struct BlendArgs {
    /// Game the champions play.
    #[arg(long, value_parser = game_parser(), default_value = "othello")]
    game: GameName,
    /// A part: a champion file and its weight, PATH:WEIGHT (e.g.
    /// populations/othello/champion.evo:0.5); give --from once per part.
    #[arg(long = "from", value_name = "PATH:WEIGHT", required = true)]
    parts: Vec<String>,
    /// The search depth `champion:PATH` plays the blend at [default: the first part's].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(evoboard::search::MAX_DEPTH)))]
    depth: Option<u32>,
    /// The blend's file.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &BlendArgs) -> CliResult {
    with_game!(args.game, |start| blend(start, args))
}

fn blend<G: NamedEvaluators>(start: G, args: &BlendArgs) -> CliResult {
    if args.parts.len() > MAX_PARTS {
        return Err(BadInput(format!(
            "{} parts: a blend sums at most {MAX_PARTS}",
            args.parts.len()
        ))
        .into());
    }
    check_output_path(&args.out, "the blend")?;
    let parts = args
        .parts
        .iter()
        .map(|text| {
            let (path, weight) = parse_part(text)?;
            Ok((Champion::load_for(Path::new(path), &start)?, weight, path))
        })
        .collect::<CliResult<Vec<_>>>()?;
    let described = parts
        .iter()
        .map(|(_, weight, path)| format!("{path}*{weight}"))
        .collect::<Vec<_>>()
        .join(" + ");
    let depth = args.depth.unwrap_or(parts[0].0.depth);
    let weighted: Vec<(&Champion, f32)> = parts.iter().map(|(c, w, _)| (c, *w)).collect();
    let blended = Champion::blend(&weighted, depth, format!("blend: {described}"))
        .map_err(|reason| BadInput(format!("cannot blend: {reason}")))?;
    blended.save(&args.out, start.name())?;
    println!(
        "{}: {} ({}), plays at depth {depth}",
        args.out.display(),
        described,
        blended.architecture
    );
    Ok(())
}

/// `PATH:WEIGHT`, split at the last colon (a path may hold colons).
fn parse_part(text: &str) -> Result<(&str, f32), BadInput> {
    let bad = || {
        BadInput(format!(
            "--from {text}: expected PATH:WEIGHT, a champion file and a finite number"
        ))
    };
    let (path, weight) = text.rsplit_once(':').ok_or_else(bad)?;
    let weight: f32 = weight.parse().map_err(|_| bad())?;
    if path.is_empty() || !weight.is_finite() {
        return Err(bad());
    }
    Ok((path, weight))
}
