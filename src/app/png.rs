//! Writing a frame to a PNG file, every write error reported.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use anyhow::Context as _;

use crate::png_file::{self, Channels};

/// Writes `image` to `path` as a PNG, encoded as every PNG the lab writes
/// ([`png_file::write_png`]). A write that fails at any point (a full disk) is an error
/// naming the path and the system's reason; and a regular file is synced, so a disk that
/// only reports being full when the data reaches it is caught too.
pub fn write_png(image: &image::RgbaImage, path: &Path) -> anyhow::Result<()> {
    let context = || format!("cannot write {}", path.display());
    let file = File::create(path).with_context(context)?;
    let mut writer = BufWriter::new(file);
    png_file::write_png(
        &mut writer,
        image.dimensions(),
        Channels::Rgba,
        image.as_raw(),
    )
    .with_context(context)?;
    let file = writer
        .into_inner()
        .map_err(|error| error.into_error())
        .with_context(context)?;
    if file.metadata().with_context(context)?.is_file() {
        file.sync_all().with_context(context)?;
    }
    Ok(())
}
