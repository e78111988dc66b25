//! Writing a frame to a PNG file, every write error reported.

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::Path;

use anyhow::Context as _;
use image::ImageEncoder as _;
use image::codecs::png::PngEncoder;

/// Writes `image` to `path` as a PNG. Unlike `image::save`, which drops the error of its
/// final flush, a write that fails at any point (a full disk) is an error naming the path
/// and the system's reason; and a regular file is synced, so a disk that only reports
/// being full when the data reaches it is caught too.
pub fn write_png(image: &image::RgbaImage, path: &Path) -> anyhow::Result<()> {
    let context = || format!("cannot write {}", path.display());
    let file = File::create(path).with_context(context)?;
    let mut writer = BufWriter::new(file);
    PngEncoder::new(&mut writer)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            image::ExtendedColorType::Rgba8,
        )
        .with_context(context)?;
    writer.flush().with_context(context)?;
    let file = writer
        .into_inner()
        .map_err(|error| error.into_error())
        .with_context(context)?;
    if file.metadata().with_context(context)?.is_file() {
        file.sync_all().with_context(context)?;
    }
    Ok(())
}
