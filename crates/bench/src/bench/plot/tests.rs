//! The plot: every chart has something drawn in it, the PNG decodes to the requested size,
//! and a long trace keeps the same bounded series.

use super::*;
use crate::bench::{BenchSettings, run_observed};

/// The pixel of `rgb` at column `x`, row `y`, in an image `width` wide.
fn pixel(rgb: &[u8], width: u32, x: i32, y: i32) -> [u8; 3] {
    let at = (y as usize * width as usize + x as usize) * 3;
    [rgb[at], rgb[at + 1], rgb[at + 2]]
}

/// Pixels of exactly `color` inside `rect`.
fn count(rgb: &[u8], width: u32, rect: &PixelRect, color: [u8; 3]) -> usize {
    let (columns, rows) = rect;
    rows.clone()
        .flat_map(|y| columns.clone().map(move |x| (x, y)))
        .filter(|&(x, y)| pixel(rgb, width, x, y) == color)
        .count()
}

/// The colours the charts use.
fn rgb_of(color: plotters::style::RGBColor) -> [u8; 3] {
    [color.0, color.1, color.2]
}

/// The recorder after every strategy ran over `frames` on `display`.
fn recorded(frames: &[Nanos], display: &str, size: (u32, u32)) -> PlotRecorder {
    let settings = BenchSettings {
        display: DisplaySpec::parse(display).unwrap(),
        ..BenchSettings::default()
    };
    let mut recorder = PlotRecorder::new(frames, settings.display, size).unwrap();
    run_observed(frames, None, &Strategy::ALL, &settings, &mut recorder);
    recorder
}

#[test]
fn every_chart_has_its_lines_and_bars() {
    let frames = crate::trace::generate("jitter:60:3:5", 5.0)
        .unwrap()
        .frame_times_ns;
    let size = (1200, 900);
    let recorder = recorded(&frames, "fifo:60", size);
    let (rgb, areas) = recorder.draw_rgb("a test").unwrap();
    assert_eq!(rgb.len(), 1200 * 900 * 3);
    let (cpu, screen, trace) = (
        rgb_of(draw::CPU_COLOR),
        rgb_of(draw::SCREEN_COLOR),
        rgb_of(draw::TRACE_COLOR),
    );
    assert!(count(&rgb, size.0, &areas.trace.plot, trace) > 100);
    assert_eq!(areas.strategies.len(), Strategy::ALL.len());
    for (strategy, area) in Strategy::ALL.iter().zip(&areas.strategies) {
        // T - S in blue, and the animation error in orange (every strategy's frames reach
        // a 60 Hz FIFO with some error under jitter).
        assert!(
            count(&rgb, size.0, &area.plot, cpu) > 100,
            "{strategy}: T - S"
        );
        assert!(
            count(&rgb, size.0, &area.plot, screen) > 50,
            "{strategy}: error"
        );
    }
    assert_eq!(areas.summary.len(), 2);
    for area in &areas.summary {
        assert!(count(&rgb, size.0, &area.plot, cpu) > 100, "CPU clock bars");
        assert!(count(&rgb, size.0, &area.plot, screen) > 100, "screen bars");
    }
    // The charts do not overlap and lie inside the image.
    let mut all = vec![areas.trace.panel.clone()];
    all.extend(areas.strategies.iter().map(|area| area.panel.clone()));
    all.extend(areas.summary.iter().map(|area| area.panel.clone()));
    for (i, a) in all.iter().enumerate() {
        assert!(a.0.start >= 0 && a.0.end <= 1200 && a.1.start >= 0 && a.1.end <= 900);
        for b in &all[i + 1..] {
            let apart = a.0.end <= b.0.start
                || b.0.end <= a.0.start
                || a.1.end <= b.1.start
                || b.1.end <= a.1.start;
            assert!(apart, "{a:?} and {b:?} overlap");
        }
    }
}

#[test]
fn the_cpu_display_draws_no_screen_bars() {
    let recorder = recorded(
        &crate::trace::generate("steady:60", 1.0)
            .unwrap()
            .frame_times_ns,
        "cpu",
        (960, 720),
    );
    let (rgb, areas) = recorder.draw_rgb("cpu").unwrap();
    for area in &areas.summary {
        assert_eq!(count(&rgb, 960, &area.panel, rgb_of(draw::SCREEN_COLOR)), 0);
    }
}

#[test]
fn the_png_decodes_to_the_requested_size_and_the_drawn_pixels() {
    let frames = crate::trace::generate("hitch:60:100:1", 3.0)
        .unwrap()
        .frame_times_ns;
    let size = (1000, 760);
    let recorder = recorded(&frames, "mailbox:60", size);
    let mut png_bytes = Vec::new();
    recorder.write_png("png", &mut png_bytes).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut decoded = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut decoded).unwrap();
    assert_eq!((info.width, info.height), size);
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Rgb, png::BitDepth::Eight)
    );
    let (rgb, _) = recorder.draw_rgb("png").unwrap();
    assert_eq!(&decoded[..info.buffer_size()], rgb.as_slice());
}

#[test]
fn a_long_trace_keeps_a_bounded_series() {
    // Two hours at 144 Hz: a million frames.
    let frames = vec![6_944_444; 1_036_800];
    let width = 1600;
    let mut recorder = PlotRecorder::new(&frames, DisplaySpec::Cpu, (width, 1200)).unwrap();
    let settings = BenchSettings::default();
    run_observed(
        &frames,
        None,
        &[Strategy::Accumulator],
        &settings,
        &mut recorder,
    );
    assert!(recorder.trace.columns() <= width as usize);
    let run = &recorder.runs[0];
    assert!(run.lag.columns() <= width as usize);
    assert!(run.animation_error.columns() <= width as usize);
    assert!(run.lag.points().count() <= 4 * width as usize);
}

#[test]
fn a_long_downsampled_series_stays_inside_its_chart() {
    // Ten minutes of jittery 144 Hz: about 100 frames a pixel column, so each column's
    // line turns back on itself (thick plotters lines spiked off the chart there).
    let frames = crate::trace::generate("jitter:144:2:9", 600.0)
        .unwrap()
        .frame_times_ns;
    let size = (1000, 760);
    let settings = BenchSettings {
        display: DisplaySpec::parse("fifo:144").unwrap(),
        ..BenchSettings::default()
    };
    let mut recorder = PlotRecorder::new(&frames, settings.display, size).unwrap();
    let strategies = [Strategy::Accumulator, Strategy::Interpolated];
    run_observed(&frames, None, &strategies, &settings, &mut recorder);
    let (rgb, areas) = recorder.draw_rgb("long").unwrap();
    for area in &areas.strategies {
        for color in [draw::CPU_COLOR, draw::SCREEN_COLOR] {
            let in_panel = count(&rgb, size.0, &area.panel, rgb_of(color));
            let in_plot = count(&rgb, size.0, &area.plot, rgb_of(color));
            assert!(in_plot > 300, "{color:?}: {in_plot} pixels");
            assert_eq!(in_panel, in_plot, "{color:?} outside the data: {area:?}");
        }
    }
}

#[test]
fn sizes_out_of_range_are_refused() {
    for size in [(959, 720), (960, 719), (8193, 1000), (1000, 8193)] {
        assert!(matches!(
            PlotRecorder::new(&[], DisplaySpec::Cpu, size),
            Err(PlotError::Size(..))
        ));
    }
}

#[test]
fn no_frames_still_draw() {
    let recorder = recorded(&[], "cpu", (960, 720));
    assert!(recorder.draw_rgb("empty").is_ok());
}

#[test]
fn a_missing_font_names_the_file_and_the_variable() {
    let error = load_font(std::path::Path::new("/nowhere/font.ttf")).expect_err("no such file");
    assert!(matches!(error, PlotError::FontMissing { .. }), "{error:?}");
    let text = error.to_string();
    assert!(text.contains("/nowhere/font.ttf"), "{text}");
    assert!(text.contains(FONT_ENV), "{text}");
}

#[test]
fn the_embedded_font_draws_the_title_with_no_system_font() {
    // Nothing registers a font first: drawing takes the embedded one.
    let recorder = recorded(&[], "cpu", (960, 720));
    let (rgb, areas) = recorder.draw_rgb("a title in the embedded font").unwrap();
    // The title and the key lie above the trace's chart, and their text is the only dark
    // grey there (the key's swatches are blue and orange).
    let text = (0..areas.trace.panel.1.start)
        .flat_map(|y| (0..960).map(move |x| (x, y)))
        .filter(|&(x, y)| pixel(&rgb, 960, x, y).iter().all(|&c| c < 128))
        .count();
    assert!(text > 500, "{text} pixels of text above the charts");
    assert!(EMBEDDED_FONT.len() > 100_000, "a whole TrueType file");
}
