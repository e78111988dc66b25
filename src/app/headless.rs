//! The headless commands: `render` (one frame to PNG) and `bench-render` (CPU cost per
//! frame, by stage). Both draw through the window's own renderer and panel.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use serde::Serialize;

use super::compose::{FrameComposer, UiFrame};
use super::png::write_png;
use super::ui_pass::{UiPass, snapshot_panes};
use crate::bench::Progress;
use crate::display::Refresh;
use crate::live::{
    LiveLoop, LiveRequest, LiveSettings, Panes, PresentModeId, ScreenFacts, Stopwatch,
    VirtualStopwatch,
};
use crate::options::{BenchRenderOptions, FramePart, RenderOptions};
use crate::render::{
    DEFAULT_SAMPLE_COUNT, DrawQuality, ErrorScope, GpuContext, Offscreen, PANEL_THROUGH_SRGB,
    SceneParts, adapter_summary, catch_errors,
};
use crate::stats::mean_median;
use crate::timestep::{Nanos, Strategy};
use crate::ui::{DisplayStatus, PanelState, ShellStatus};

/// Frames drawn before measuring, so pipelines, caches and egui's font atlas are warm.
const WARM_UP_FRAMES: u32 = 30;

/// The colour format headless frames are drawn in.
const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// One display frame at 60 Hz, the rate headless loops are fed.
const FRAME_60HZ: Nanos = 16_666_667;

/// Runs `render`: the loop headless at the display rate until `--time`, then one frame to
/// `--out` as the window draws it without its panel and timeline: the scene, or with
/// `--compare` the grid of panes with their labels. Returns what to print. A run past a
/// second shows its progress on stderr if that is a terminal.
pub fn run_render(options: &RenderOptions) -> anyhow::Result<String> {
    let settings = options.settings;
    // Frames end exactly on the display's refresh grid, which the screen model shares.
    let refresh = Refresh::new(options.display_hz).map_err(|error| anyhow::anyhow!(error))?;
    let until = (options.time_s * 1e9).round() as Nanos;
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings)?;
    // Only new settings can be refused.
    let _ = live.request(LiveRequest::Screen(ScreenFacts {
        present_mode: Some(PresentModeId::Fifo),
        monitor_hz: Some(options.display_hz),
    }));
    live.frame();
    // An hour at 1000 Hz is 3.6 million frames: a terminal shows how far the loop is once
    // it has taken a second, as a long bench run does.
    let mut progress =
        Progress::on_stderr(refresh.first_at_or_after(until), 1).labelled("simulating");
    let mut refreshes = 0;
    while live.stopwatch().now() < until {
        refreshes += 1;
        let next = refresh.at(refreshes);
        let now = live.stopwatch().now();
        live.stopwatch_mut().advance(next.saturating_sub(now));
        live.frame();
        progress.advance_to(refreshes);
    }
    // Cleared before the GPU is opened: its drivers may write to stderr.
    progress.clear();
    let gpu = GpuContext::headless(options.backend)?;
    let (width, height) = options.size;
    let scope = ErrorScope::push(&gpu.device);
    let image = render_grid(&gpu, &live, (width, height));
    // The GPU's error first: it is the cause of a failed readback.
    scope
        .pop()
        .with_context(|| format!("drawing the {width}x{height} frame failed on the GPU"))?;
    write_png(&image?, &options.out)?;
    let strategies: Vec<&str> = settings.pane_strategies().iter().map(|s| s.id()).collect();
    Ok(format!(
        "{}: {}x{} {} at {:.3} s on {}\n",
        crate::text::escape_path(&options.out),
        width,
        height,
        strategies.join(","),
        options.time_s,
        crate::text::escape(&adapter_summary(&gpu.adapter.get_info()))
    ))
}

/// Draws `live`'s panes as the window does with its side panel and timeline hidden: its
/// one scene, or the grid of scenes with each pane's label. Returns the image.
pub fn render_grid<S: Stopwatch>(
    gpu: &GpuContext,
    live: &LiveLoop<S>,
    (width, height): (u32, u32),
) -> anyhow::Result<image::RgbaImage> {
    let formats = gpu.frame_formats(HEADLESS_FORMAT);
    let offscreen = Offscreen::new(&gpu.device, width, height, formats);
    let samples = gpu.sample_count(HEADLESS_FORMAT, DEFAULT_SAMPLE_COUNT);
    let mut composer = FrameComposer::new(&gpu.device, formats, (width, height), samples);
    let mut panel = PanelState {
        visible: false,
        timeline: false,
        ..PanelState::default()
    };
    let shell = ShellStatus::default();
    let snapshot = live.snapshot();
    let egui_ctx = egui::Context::default();
    // egui sizes some areas on a first pass; draw the second, with the texture changes
    // (the font atlas) of both.
    let mut run = || {
        UiPass::run(
            &egui_ctx,
            screen_input(width, height, 0.0),
            &mut panel,
            &snapshot,
            &shell,
            (width, height),
        )
    };
    let mut textures = run().textures;
    let pass = run();
    textures.append(pass.textures);
    let panes = snapshot_panes(&snapshot, &pass.viewports);
    composer.render(
        &gpu.device,
        &gpu.queue,
        offscreen.target(),
        (width, height),
        &panes,
        Some(UiFrame {
            primitives: &pass.primitives,
            textures,
            pixels_per_point: pass.pixels_per_point,
            backdrop: pass.backdrop,
        }),
    );
    offscreen
        .read_rgba(&gpu.device, &gpu.queue)
        .context("reading the frame back from the GPU")
}

/// egui's input for a `width` × `height` target at one pixel per point, at `time` seconds.
fn screen_input(width: u32, height: u32, time: f64) -> egui::RawInput {
    let screen =
        egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width as f32, height as f32));
    egui::RawInput {
        screen_rect: Some(screen),
        time: Some(time),
        ..egui::RawInput::default()
    }
}

/// The JSON `bench-render --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRenderReport {
    /// Frames measured.
    pub frames: u32,
    /// Target width, pixels.
    pub width: u32,
    /// Target height, pixels.
    pub height: u32,
    /// Scene panes per frame.
    pub panes: u32,
    /// MSAA samples of the scene.
    pub msaa: u32,
    /// Whether the panel's shapes had feathered edges.
    pub feathering: bool,
    /// Whether the panel was drawn through the sRGB target itself: the adapter cannot view
    /// a texture in another format (GL).
    pub panel_through_srgb: bool,
    /// The adapter, in words.
    pub adapter: String,
    /// Parts of the frame left out (`--without`).
    pub without: Vec<&'static str>,
    /// Median CPU time of the app's own work per frame (engine + UI + encode and submit),
    /// ms: everything but waiting for the GPU (on lavapipe, the rasterizer threads).
    pub main_thread_ms_median: f64,
    /// Median engine time per frame (every pane's loop), microseconds.
    pub engine_us_median: f64,
    /// Median UI time per frame (readouts, panel, tessellation), ms.
    pub ui_ms_median: f64,
    /// Median time to encode and submit the frame, ms.
    pub encode_submit_ms_median: f64,
    /// Median time waiting for the GPU to finish the frame, ms.
    pub wait_ms_median: f64,
    /// Median whole time of a frame that only clears the target (encode, submit, wait), ms.
    pub clear_only_ms_median: f64,
    /// Median whole time of a full frame (main thread + wait), ms.
    pub frame_ms_median: f64,
    /// The full frame's median over the clear-only frame's: the frame in floors.
    pub frame_over_floor: f64,
}

/// Runs `bench-render`. Returns what to print. Any GPU error (out of memory at a large
/// size, say) fails the run: frames that were not drawn have no cost worth reporting.
pub fn run_bench_render(options: &BenchRenderOptions) -> anyhow::Result<String> {
    let gpu = GpuContext::headless(options.backend)?;
    let (width, height) = options.size;
    let formats = gpu.frame_formats(HEADLESS_FORMAT);
    let quality = DrawQuality::for_gpu(&gpu, formats, options.msaa);
    let (offscreen, mut composer) = catch_errors(&gpu.device, || {
        let offscreen = Offscreen::new(&gpu.device, width, height, formats);
        let composer = FrameComposer::new(&gpu.device, formats, (width, height), quality.msaa);
        (offscreen, composer)
    })
    .with_context(|| {
        format!(
            "creating the {width}x{height} render targets ({}x MSAA) failed on the GPU",
            quality.msaa
        )
    })?;
    let panes = options.panes as usize;
    let settings = if panes > 1 {
        LiveSettings {
            compare: true,
            panes: Panes::new(&Strategy::ALL[..panes])?,
            ..LiveSettings::default()
        }
    } else {
        LiveSettings::default()
    };
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings)?;
    let without = options.without;
    composer.leave_out(
        SceneParts {
            grid: !without.contains(FramePart::Grid),
            sphere: !without.contains(FramePart::Sphere),
            ghost: !without.contains(FramePart::Ghost),
            trail: !without.contains(FramePart::Trail),
            props: !without.contains(FramePart::Props),
            coil: !without.contains(FramePart::Coil),
        },
        !without.contains(FramePart::Ui),
    );
    let mut panel = PanelState {
        visible: !without.contains(FramePart::Panel),
        timeline: !without.contains(FramePart::Timeline),
        fills_panels: false,
        ..PanelState::default()
    };
    let shell = ShellStatus {
        display: DisplayStatus {
            adapter: adapter_summary(&gpu.adapter.get_info()),
            drawing: (quality.describe(), quality.why()),
            ..DisplayStatus::default()
        },
        ..ShellStatus::default()
    };
    let egui_ctx = egui::Context::default();
    quality.apply_to(&egui_ctx);

    let total = WARM_UP_FRAMES + options.frames;
    let mut engine = Vec::with_capacity(total as usize);
    let mut ui = Vec::with_capacity(total as usize);
    let mut encode = Vec::with_capacity(total as usize);
    let mut wait = Vec::with_capacity(total as usize);
    for frame in 0..total {
        let scope = ErrorScope::push(&gpu.device);
        let start = Instant::now();
        if frame > 0 {
            live.stopwatch_mut().advance(FRAME_60HZ);
        }
        live.frame();
        let engine_done = Instant::now();
        let snapshot = live.snapshot();
        let pass = UiPass::run(
            &egui_ctx,
            screen_input(width, height, f64::from(frame) / 60.0),
            &mut panel,
            &snapshot,
            &shell,
            (width, height),
        );
        let ui_done = Instant::now();
        let panes = snapshot_panes(&snapshot, &pass.viewports);
        let encode_time = composer.render(
            &gpu.device,
            &gpu.queue,
            offscreen.target(),
            (width, height),
            &panes,
            Some(UiFrame {
                primitives: &pass.primitives,
                textures: pass.textures,
                pixels_per_point: pass.pixels_per_point,
                backdrop: pass.backdrop,
            }),
        );
        let wait_start = Instant::now();
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .context("waiting for the GPU")?;
        let wait_time = wait_start.elapsed();
        scope
            .pop()
            .with_context(|| frame_failed("frame", frame, total))?;
        if frame >= WARM_UP_FRAMES {
            engine.push(engine_done - start);
            ui.push(ui_done - engine_done);
            encode.push(encode_time);
            wait.push(wait_time);
        }
    }
    let mut clear_only = Vec::with_capacity(options.frames as usize);
    for frame in 0..total {
        let scope = ErrorScope::push(&gpu.device);
        let start = Instant::now();
        composer.render_clear_only(&gpu.device, &gpu.queue, offscreen.view());
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .context("waiting for the GPU")?;
        let elapsed = start.elapsed();
        scope
            .pop()
            .with_context(|| frame_failed("clear-only frame", frame, total))?;
        if frame >= WARM_UP_FRAMES {
            clear_only.push(elapsed);
        }
    }
    // Every frame ran inside a scope; an error from elsewhere was printed when it happened.
    let uncaught = gpu.uncaptured_error_count();
    if uncaught > 0 {
        anyhow::bail!("the GPU reported {uncaught} error(s) during the run (printed above)");
    }
    let main_thread: Vec<Duration> = (0..engine.len())
        .map(|i| engine[i] + ui[i] + encode[i])
        .collect();
    let whole: Vec<Duration> = (0..engine.len())
        .map(|i| main_thread[i] + wait[i])
        .collect();
    let report = BenchRenderReport {
        frames: options.frames,
        width,
        height,
        panes: options.panes,
        msaa: quality.msaa,
        feathering: quality.feathering,
        panel_through_srgb: quality.panel_through_srgb,
        adapter: adapter_summary(&gpu.adapter.get_info()),
        without: without.iter().map(FramePart::id).collect(),
        main_thread_ms_median: median_ms(&main_thread),
        engine_us_median: median_ms(&engine) * 1000.0,
        ui_ms_median: median_ms(&ui),
        encode_submit_ms_median: median_ms(&encode),
        wait_ms_median: median_ms(&wait),
        clear_only_ms_median: median_ms(&clear_only),
        frame_ms_median: median_ms(&whole),
        frame_over_floor: 0.0,
    };
    let report = BenchRenderReport {
        frame_over_floor: over(report.frame_ms_median, report.clear_only_ms_median),
        ..report
    };
    Ok(if options.json {
        let mut json = serde_json::to_string(&report).context("encoding the report")?;
        json.push('\n');
        json
    } else {
        bench_render_table(&report)
    })
}

/// `value` over `floor`, or 0 when the floor is 0 (a clock too coarse to see it).
fn over(value: f64, floor: f64) -> f64 {
    if floor > 0.0 { value / floor } else { 0.0 }
}

/// Says which of `total` frames (warm-up included) the GPU failed, 1-based.
fn frame_failed(kind: &str, frame: u32, total: u32) -> String {
    format!(
        "{kind} {} of {total} ({WARM_UP_FRAMES} warm-up) failed on the GPU",
        frame + 1
    )
}

/// The report as a few aligned lines.
fn bench_render_table(r: &BenchRenderReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} frames, {}x{}, {} pane(s), {}x MSAA, {} panel edges{}, {}",
        r.frames,
        r.width,
        r.height,
        r.panes,
        r.msaa,
        if r.feathering { "smooth" } else { "plain" },
        if r.panel_through_srgb {
            format!(", {PANEL_THROUGH_SRGB}")
        } else {
            String::new()
        },
        r.adapter
    );
    if !r.without.is_empty() {
        let _ = writeln!(out, "without: {}", r.without.join(", "));
    }
    let _ = writeln!(out, "median per frame:");
    let _ = writeln!(out, "  engine            {:>9.1} us", r.engine_us_median);
    let _ = writeln!(out, "  ui                {:>9.3} ms", r.ui_ms_median);
    let _ = writeln!(
        out,
        "  encode + submit   {:>9.3} ms",
        r.encode_submit_ms_median
    );
    let _ = writeln!(
        out,
        "  main thread       {:>9.3} ms  (engine + ui + encode/submit)",
        r.main_thread_ms_median
    );
    let _ = writeln!(out, "  wait for GPU      {:>9.3} ms", r.wait_ms_median);
    let _ = writeln!(
        out,
        "  whole frame       {:>9.3} ms  ({:.1}x the clear-only frame)",
        r.frame_ms_median, r.frame_over_floor
    );
    let _ = writeln!(
        out,
        "  clear-only frame  {:>9.3} ms",
        r.clear_only_ms_median
    );
    out
}

/// Median of durations, in ms (0 when empty).
fn median_ms(samples: &[Duration]) -> f64 {
    mean_median(&mut samples.to_vec()).map_or(0.0, |median| median.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_odd_and_even_counts() {
        let ms = Duration::from_millis;
        assert_eq!(median_ms(&[ms(3), ms(1), ms(2)]), 2.0);
        assert_eq!(median_ms(&[ms(4), ms(1), ms(2), ms(3)]), 2.5);
        assert_eq!(median_ms(&[]), 0.0);
    }
}
