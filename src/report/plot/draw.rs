//! Drawing figures into files: each figure as PNG and SVG, written through a temporary
//! file renamed into place, with the embedded font registered once.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::evolve::stats::StatsRow;

use super::render::render;
use super::{Figure, PlotError, RunNotes, SIZE, Shown, figures};

/// Draws `fitness`, `benchmark` and `diversity` (PNG and SVG) into `out`, each titled
/// and captioned with `caption` (game, preset, seed …), from the statistics alone; `gate`
/// is marked on the benchmark plot. Files are written atomically. Returns the paths
/// written.
pub fn draw_run(
    rows: &[StatsRow],
    caption: &str,
    shown: &Shown,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    draw_annotated(rows, caption, shown, &RunNotes::default(), out)
}

/// [`draw_run`] with what the run's settings tell about its numbers.
pub fn draw_annotated(
    rows: &[StatsRow],
    caption: &str,
    shown: &Shown,
    notes: &RunNotes,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    draw_figures(&figures(rows, shown, notes), caption, out)
}

/// Draws each of `figures` (PNG and SVG) into `out`, captioned with `caption`; files are
/// written atomically. Returns the paths written.
pub fn draw_figures(
    figures: &[Figure],
    caption: &str,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    register_font();
    std::fs::create_dir_all(out).map_err(|e| PlotError::Draw {
        path: out.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut written = Vec::new();
    for figure in figures {
        for extension in ["png", "svg"] {
            written.push(write_figure(figure, caption, out, extension)?);
        }
    }
    Ok(written)
}

/// Writes `figure` as `out/NAME.extension` through a temporary file renamed into place.
fn write_figure(
    figure: &Figure,
    caption: &str,
    out: &Path,
    extension: &str,
) -> Result<PathBuf, PlotError> {
    let name = &figure.name;
    let path = out.join(format!("{name}.{extension}"));
    // The bitmap backend picks its encoder from the extension: keep it on the temp.
    let temp = out.join(format!(".{name}.tmp-{}.{extension}", std::process::id()));
    let result = if extension == "png" {
        render(
            BitMapBackend::new(&temp, SIZE).into_drawing_area(),
            figure,
            caption,
        )
    } else {
        render(
            SVGBackend::new(&temp, SIZE).into_drawing_area(),
            figure,
            caption,
        )
    };
    let result = result.and_then(|()| std::fs::rename(&temp, &path).map_err(|e| e.to_string()));
    if let Err(reason) = result {
        let _ = std::fs::remove_file(&temp);
        return Err(PlotError::Draw { path, reason });
    }
    Ok(path)
}

/// Makes "sans-serif" resolve to the embedded DejaVu Sans.
pub(super) fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .unwrap_or_else(|_| panic!("the embedded DejaVu Sans font is valid"));
    });
}
