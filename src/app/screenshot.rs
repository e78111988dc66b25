//! The last frame as a PNG (`--screenshot`, a page's `screenshot=1`): drawn into an
//! offscreen texture of the window's size and formats (`Active::draw_offscreen`), read
//! back from the GPU and encoded as every PNG the lab writes. Natively it is written to the
//! file at once (the readback waits for the GPU); on a page, where nothing may wait for the
//! GPU, the readback answers later as the user event `Wake::Shot`, and the image is shown
//! on the page and offered as a download.

use super::active::{Active, Picture};
#[cfg(target_arch = "wasm32")]
use {super::wake::Wake, winit::event_loop::EventLoopProxy};

/// Draws `picture` offscreen, reads it back and writes it to `path` as a PNG.
#[cfg(not(target_arch = "wasm32"))]
pub fn write(
    active: &mut Active,
    pending_textures: &mut egui::TexturesDelta,
    picture: &Picture<'_>,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let offscreen = active.draw_offscreen(pending_textures, picture);
    let image = offscreen
        .read_rgba(&active.gpu.device, &active.gpu.queue)
        .context("reading the screenshot back from the GPU")?;
    super::png::write_png(&image, path)
}

/// Draws `picture` offscreen and starts reading it back: `wake` is sent the image (or why
/// there is none) as [`Wake::Shot`] when the browser has answered.
#[cfg(target_arch = "wasm32")]
pub fn begin(
    active: &mut Active,
    pending_textures: &mut egui::TexturesDelta,
    picture: &Picture<'_>,
    wake: EventLoopProxy<Wake>,
) -> anyhow::Result<()> {
    let offscreen = active.draw_offscreen(pending_textures, picture);
    offscreen.read_rgba_then(&active.gpu.device, &active.gpu.queue, move |image| {
        let image = image.map_err(|error| match error {
            // The browser does not say why; docs/web.md says where it happens.
            crate::render::ReadbackError::Map(_) => {
                "reading the screenshot back: the browser refused to map the readback buffer \
                 (its mapAsync failed); WebGL2 (backend=gl) reads the frame back too"
                    .to_owned()
            }
            error => format!("reading the screenshot back: {error}"),
        });
        // The loop is gone only when the page is: nothing is left to tell.
        let _ = wake.send_event(Wake::Shot(image));
    })?;
    Ok(())
}

/// Shows `image` on the page as the screenshot named `name` (the download's name),
/// encoded as a PNG.
#[cfg(target_arch = "wasm32")]
pub fn show(image: &image::RgbaImage, name: &str) -> Result<(), String> {
    let mut png = Vec::new();
    crate::png_file::write_png(
        &mut png,
        image.dimensions(),
        crate::png_file::Channels::Rgba,
        image.as_raw(),
    )
    .map_err(|error| format!("encoding the screenshot: {error}"))?;
    super::page::show_png(&png, name)
}
