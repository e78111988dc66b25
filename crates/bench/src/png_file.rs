//! Every PNG the lab writes is encoded here, one way: bench's plot, the window's screenshots
//! and the `render` command's images all go through [`write_png`], the `png` crate with its
//! default compression, 8 bits a channel.

use std::io::Write;

/// How an image's pixels are laid out: 8 bits a channel, row by row, the top row first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channels {
    /// Red, green, blue: 3 bytes a pixel.
    Rgb,
    /// Red, green, blue, alpha: 4 bytes a pixel.
    Rgba,
}

/// Why a PNG could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The pixels could not be encoded (they do not fill the size given).
    #[error("encoding the PNG failed: {0}")]
    Encode(String),
    /// Writing failed, for the reason the system gave.
    #[error(transparent)]
    Write(std::io::Error),
}

impl From<png::EncodingError> for PngError {
    /// An I/O error stays one, so its cause reaches the user as the system said it.
    fn from(error: png::EncodingError) -> Self {
        match error {
            png::EncodingError::IoError(error) => Self::Write(error),
            other => Self::Encode(other.to_string()),
        }
    }
}

/// Encodes the image `size` pixels wide and high whose `pixels` are laid out as `channels`
/// into `out` as a PNG, and flushes `out`.
pub fn write_png(
    out: impl Write,
    size: (u32, u32),
    channels: Channels,
    pixels: &[u8],
) -> Result<(), PngError> {
    let (width, height) = size;
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(match channels {
        Channels::Rgb => png::ColorType::Rgb,
        Channels::Rgba => png::ColorType::Rgba,
    });
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(pixels)?;
    // Writes the end of the image and flushes `out`: a full disk is an error here, not
    // lost when a buffer is dropped.
    writer.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes a PNG: its size, colour type and pixels.
    fn decode(bytes: &[u8]) -> ((u32, u32), png::ColorType, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut pixels).expect("a frame");
        pixels.truncate(info.buffer_size());
        ((info.width, info.height), info.color_type, pixels)
    }

    #[test]
    fn rgb_and_rgba_pixels_decode_as_written() {
        let rgb: Vec<u8> = (0..3 * 5 * 2).map(|i| (i * 7) as u8).collect();
        let mut bytes = Vec::new();
        write_png(&mut bytes, (5, 2), Channels::Rgb, &rgb).expect("encoded");
        assert_eq!(decode(&bytes), ((5, 2), png::ColorType::Rgb, rgb));

        let rgba: Vec<u8> = (0..4 * 3 * 4).map(|i| (i * 11) as u8).collect();
        let mut bytes = Vec::new();
        write_png(&mut bytes, (3, 4), Channels::Rgba, &rgba).expect("encoded");
        assert_eq!(decode(&bytes), ((3, 4), png::ColorType::Rgba, rgba));
    }

    #[test]
    fn pixels_that_do_not_fill_the_size_are_refused() {
        let error = write_png(Vec::new(), (4, 4), Channels::Rgba, &[0; 4 * 4 * 3])
            .expect_err("too few bytes");
        assert!(matches!(error, PngError::Encode(_)), "{error:?}");
    }

    // Linux only: /dev/full, a file every write to fails with "no space left".
    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_is_a_write_error() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let error = write_png(
            std::io::BufWriter::new(full),
            (2, 2),
            Channels::Rgb,
            &[0; 12],
        )
        .expect_err("no space");
        let PngError::Write(error) = error else {
            panic!("{error:?}");
        };
        assert_eq!(error.raw_os_error(), Some(28), "ENOSPC");
    }
}
