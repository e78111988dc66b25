//! The plot's font: Ubuntu Light, embedded in the binary from the `epaint_default_fonts`
//! crate (egui's own text font, so the plot's text reads like the window's panel), drawn by
//! plotters' pure-Rust text renderer (ab_glyph). The plot needs no system font, nothing is
//! built against the system's font libraries, and no font file is kept in the repository.
//! `TIMESTEP_LAB_FONT` may name another TrueType or OpenType file, for text the embedded
//! font has no glyphs for.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use plotters::style::FontStyle;
#[cfg(not(target_arch = "wasm32"))]
use plotters::style::register_font;

use super::PlotError;

/// The plot's font unless [`FONT_ENV`] names another: Ubuntu Light (a TrueType file).
pub const EMBEDDED_FONT: &[u8] = epaint_default_fonts::UBUNTU_LIGHT;

/// The environment variable that names another font file (the command line reads it).
pub const FONT_ENV: &str = "TIMESTEP_LAB_FONT";

/// The family name the charts ask plotters for.
pub const FAMILY: &str = "sans-serif";

/// On the web plotters has no fonts to register: its text is drawn by the browser's canvas
/// (the lab writes no plot file on a page). Registering is then taken as done.
#[cfg(target_arch = "wasm32")]
fn register_font(_: &str, _: FontStyle, _: &'static [u8]) -> Result<(), ()> {
    Ok(())
}

/// The font registered in this process, if any.
#[derive(Debug, PartialEq)]
enum Registered {
    /// None yet.
    Nothing,
    /// [`EMBEDDED_FONT`].
    Embedded,
    /// The file at this path.
    File(PathBuf),
}

/// The font registered: plotters keeps registered fonts for the whole process.
static REGISTERED: Mutex<Registered> = Mutex::new(Registered::Nothing);

/// Makes the TrueType or OpenType file at `path` the plot's font instead of the embedded
/// one, from the next plot drawn on. The file is read once (loading it again does nothing)
/// and its bytes live as long as the process, as plotters needs; a file that cannot be
/// read or is not a font is an error naming it, and the font stays as it was.
pub fn load_font(path: &Path) -> Result<(), PlotError> {
    let mut registered = REGISTERED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if matches!(&*registered, Registered::File(loaded) if loaded == path) {
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
    *registered = Registered::File(path.to_owned());
    Ok(())
}

/// Registers [`EMBEDDED_FONT`] unless a font already is.
pub(crate) fn ensure_font() -> Result<(), PlotError> {
    let mut registered = REGISTERED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if *registered == Registered::Nothing {
        register_font(FAMILY, FontStyle::Normal, EMBEDDED_FONT)
            .map_err(|_| PlotError::Draw("the embedded font is not a font".to_owned()))?;
        *registered = Registered::Embedded;
    }
    Ok(())
}
