//! The lab draws egui's triangles with its own pipeline (`render::UiPainter`) over
//! egui-wgpu's textures: the panel must come out as egui-wgpu's own renderer draws it.
//!
//! Skips (with a note) on a machine without a GPU adapter; `TIMESTEP_LAB_REQUIRE_GPU=1`
//! makes that a failure.

mod common;

use common::{compare_images, gpu_or_skip};
use timestep_lab::app::{FrameComposer, UiFrame, UiPass};
use timestep_lab::live::{LiveLoop, LiveSettings, VirtualStopwatch};
use timestep_lab::render::{
    BACKGROUND, Backdrop, GpuContext, Offscreen, adapter_summary, begin_color_pass,
};
use timestep_lab::ui::{DisplayStatus, PanelState, ShellStatus};

const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
const WIDTH: u32 = 1280;
const HEIGHT: u32 = 720;

/// egui's output for the lab's panel and timeline after half a second of frames, egui
/// filling the panels' backgrounds or leaving them to the lab (`fills_panels`).
struct PanelFrame {
    primitives: Vec<egui::ClippedPrimitive>,
    /// The texture changes of both of egui's passes (the font atlas).
    textures: egui::TexturesDelta,
    pixels_per_point: f32,
    /// What the lab paints when egui does not.
    backdrop: Option<Backdrop>,
}

fn panel_frame(fills_panels: bool) -> PanelFrame {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
        .expect("the default settings are valid");
    for _ in 0..30 {
        live.stopwatch_mut().advance(16_666_667);
        live.frame();
    }
    let snapshot = live.snapshot();
    let egui_ctx = egui::Context::default();
    let mut panel = PanelState {
        fills_panels,
        ..PanelState::default()
    };
    let shell = ShellStatus {
        display: DisplayStatus {
            adapter: "test adapter".into(),
            ..DisplayStatus::default()
        },
        ..ShellStatus::default()
    };
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(WIDTH as f32, HEIGHT as f32),
        )),
        ..egui::RawInput::default()
    };
    let run = |panel: &mut PanelState| {
        UiPass::run(
            &egui_ctx,
            input(),
            panel,
            &snapshot,
            &shell,
            (WIDTH, HEIGHT),
        )
    };
    let mut textures = run(&mut panel).textures;
    let pass = run(&mut panel);
    textures.append(pass.textures);
    PanelFrame {
        primitives: pass.primitives,
        textures,
        pixels_per_point: pass.pixels_per_point,
        backdrop: pass.backdrop,
    }
}

/// The ways the panel is drawn on an sRGB texture that `gpu`'s adapter offers: through
/// its own format (egui decodes to linear; GL, and surfaces that cannot be viewed
/// otherwise), and through its non-sRGB twin (egui blends encoded colour), which needs
/// `VIEW_FORMATS`; where the adapter lacks it, says what was left out.
fn ui_formats(gpu: &GpuContext) -> Vec<wgpu::TextureFormat> {
    let (_, twin) = gpu.frame_formats(FORMAT);
    if twin == FORMAT {
        eprintln!(
            "left out: the panel through the non-sRGB twin (this adapter, {}, cannot view a \
             texture in another format)",
            adapter_summary(&gpu.adapter.get_info())
        );
        vec![FORMAT]
    } else {
        vec![FORMAT, twin]
    }
}

/// The frame drawn by egui-wgpu's own renderer (dithering off: it adds noise) through a
/// view of `ui_format`, over the scene's clear colour.
fn egui_wgpu_image(
    gpu: &GpuContext,
    frame: &PanelFrame,
    ui_format: wgpu::TextureFormat,
) -> image::RgbaImage {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let (primitives, textures, pixels_per_point) =
        (&frame.primitives, &frame.textures, frame.pixels_per_point);
    let offscreen = Offscreen::new(device, WIDTH, HEIGHT, (FORMAT, ui_format));
    let target = offscreen.target();
    let mut renderer = egui_wgpu::Renderer::new(
        device,
        ui_format,
        egui_wgpu::RendererOptions {
            dithering: false,
            ..egui_wgpu::RendererOptions::default()
        },
    );
    for (id, deltas) in &textures.set {
        for delta in deltas {
            renderer.update_texture(device, queue, *id, delta);
        }
    }
    let screen = egui_wgpu::ScreenDescriptor {
        size_in_pixels: [WIDTH, HEIGHT],
        pixels_per_point,
    };
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    let extra = renderer.update_buffers(device, queue, &mut encoder, primitives, &screen);
    // The clear colour is linear: clear through the sRGB view, as the scene pass does.
    drop(begin_color_pass(
        &mut encoder,
        "clear",
        target.scene,
        wgpu::LoadOp::Clear(BACKGROUND),
    ));
    let pass = begin_color_pass(
        &mut encoder,
        "egui-wgpu reference",
        target.ui,
        wgpu::LoadOp::Load,
    );
    renderer.render(&mut pass.forget_lifetime(), primitives, &screen);
    queue.submit(extra.into_iter().chain([encoder.finish()]));
    offscreen
        .read_rgba(device, queue)
        .expect("reading the reference back")
}

/// The frame the lab's composer draws (no panes: the scene's clear colour) for `frame`,
/// the panel through a view of `ui_format`.
fn composer_image(
    gpu: &GpuContext,
    frame: PanelFrame,
    ui_format: wgpu::TextureFormat,
) -> image::RgbaImage {
    let target = Offscreen::new(&gpu.device, WIDTH, HEIGHT, (FORMAT, ui_format));
    let mut composer = FrameComposer::new(&gpu.device, (FORMAT, ui_format), (WIDTH, HEIGHT), 1);
    composer.render(
        &gpu.device,
        &gpu.queue,
        target.target(),
        (WIDTH, HEIGHT),
        &[],
        Some(UiFrame {
            primitives: &frame.primitives,
            textures: frame.textures,
            pixels_per_point: frame.pixels_per_point,
            backdrop: frame.backdrop,
        }),
    );
    target
        .read_rgba(&gpu.device, &gpu.queue)
        .expect("reading the frame back")
}

/// egui-wgpu's picture of the panel through a view of `ui_format`, egui filling its
/// backgrounds, checked to show one.
fn reference(gpu: &GpuContext, ui_format: wgpu::TextureFormat) -> image::RgbaImage {
    let mut frame = panel_frame(true);
    assert!(frame.backdrop.is_none(), "egui fills the panels itself");
    let reference = egui_wgpu_image(gpu, &frame, ui_format);
    // Applied to egui-wgpu's renderer; egui checks that no change is dropped unseen.
    frame.textures.clear();
    // The comparison means something only if the panel drew: most of its column differs
    // from the scene's clear colour.
    let background = reference.get_pixel(WIDTH - 1, 0).0;
    let panel_pixels = (0..HEIGHT)
        .flat_map(|y| (0..300).map(move |x| (x, y)))
        .filter(|&(x, y)| reference.get_pixel(x, y).0 != background)
        .count();
    assert!(
        panel_pixels > (300 * HEIGHT / 2) as usize,
        "the reference drew no panel: {panel_pixels} pixels"
    );
    reference
}

#[test]
fn the_panel_comes_out_as_egui_wgpu_draws_it() {
    let Some(gpu) = gpu_or_skip() else { return };
    for ui_format in ui_formats(&gpu) {
        let reference = reference(&gpu, ui_format);
        let ours = composer_image(&gpu, panel_frame(true), ui_format);
        // The same arithmetic and blending: at most one step of rounding in any channel.
        if let Err(problem) = compare_images(&ours, &reference, 1, 0.0) {
            panic!("through {ui_format:?} the panel differs from egui-wgpu's: {problem}");
        }
    }
}

/// The window leaves the panels' backgrounds to the lab's flat fill: the picture is the
/// one egui would have painted (the scroll area's fade included). Where a panel's edge
/// falls inside a pixel (at fractional scale factors), egui's feathering blends over a
/// column the flat fill leaves to the scene: one column may differ.
#[test]
fn the_panels_backdrop_painted_by_the_lab_looks_as_egui_paints_it() {
    let Some(gpu) = gpu_or_skip() else { return };
    for ui_format in ui_formats(&gpu) {
        let reference = reference(&gpu, ui_format);
        let frame = panel_frame(false);
        let backdrop = frame
            .backdrop
            .expect("the panel leaves its fill to the lab");
        assert_eq!(backdrop.color, egui::Visuals::dark().panel_fill);
        let ours = composer_image(&gpu, frame, ui_format);
        // One column of 720 pixels is 0.08% of the frame.
        if let Err(problem) = compare_images(&ours, &reference, 1, 0.001) {
            panic!("through {ui_format:?} the lab's backdrop differs from egui's fill: {problem}");
        }
    }
}

/// Blending sRGB-encoded colour is what egui is designed for, and not the same picture as
/// blending linear colour: the two ways differ (so the tests above tell them apart).
#[test]
fn the_two_ways_of_drawing_the_panel_differ() {
    let Some(gpu) = gpu_or_skip() else { return };
    let formats = ui_formats(&gpu);
    let [linear, encoded] = formats.as_slice() else {
        return;
    };
    let (linear, encoded) = (reference(&gpu, *linear), reference(&gpu, *encoded));
    assert!(compare_images(&linear, &encoded, 1, 0.001).is_err());
}
