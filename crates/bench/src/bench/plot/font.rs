//! The plot's font: a TrueType file read at run time and handed to plotters' pure-Rust
//! text renderer (ab_glyph). Nothing is built against the system's font libraries, and no
//! font ships in the repository.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use plotters::style::{FontStyle, register_font};

use super::PlotError;

/// Where Debian and Ubuntu's `fonts-dejavu-core` puts DejaVu Sans, the plot's default font.
pub const DEFAULT_FONT_PATH: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/// The Debian package that installs [`DEFAULT_FONT_PATH`].
pub const FONT_PACKAGE: &str = "fonts-dejavu-core";

/// The environment variable that names another font file (the command line reads it).
pub const FONT_ENV: &str = "TIMESTEP_LAB_FONT";

/// The family name the charts ask plotters for.
pub const FAMILY: &str = "sans-serif";

/// The font file registered, once per process.
static REGISTERED: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Reads the font at `path` and makes it the plot's font. Only the first font loaded in a
/// process is used: plotters keeps registered fonts for the whole process, so the file is
/// read once and its bytes live as long as the process.
pub fn load_font(path: &Path) -> Result<(), PlotError> {
    let mut registered = REGISTERED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if registered.is_some() {
        return Ok(());
    }
    let bytes = std::fs::read(path).map_err(|error| PlotError::FontMissing {
        path: path.to_owned(),
        error,
    })?;
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    register_font(FAMILY, FontStyle::Normal, bytes).map_err(|_| PlotError::FontInvalid {
        path: path.to_owned(),
    })?;
    *registered = Some(path.to_owned());
    Ok(())
}
