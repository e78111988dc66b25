//! The renderer draws a known state where the camera math says it should, matches a
//! committed snapshot, lays several panes side by side, and survives degenerate sizes.
//!
//! Every test skips (with a note) on a machine without a GPU adapter; set
//! `TIMESTEP_LAB_REQUIRE_GPU=1` to make that a failure. `UPDATE_SNAPSHOTS=1` rewrites the
//! reference image.

mod common;

use common::{compare_images, gpu_or_skip};
use glam::{Vec2, Vec3};
use image::{Rgba, RgbaImage};
use timestep_lab::app::{grid_viewports, render_grid};
use timestep_lab::live::{LiveLoop, LiveSettings, VirtualStopwatch};
use timestep_lab::render::{
    BACKGROUND, GpuContext, MASS_COLOR, PlacedView, Renderer, SceneParts, Viewport,
    clip_from_world, render_scene_parts_png, render_scene_png,
};
use timestep_lab::scene::{SceneConfig, ShownScene};
use timestep_lab::sim::Simulation;
use timestep_lab::timestep::{Strategy, TimestepConfig};
use timestep_lab::view::{PaneView, Trail};

/// One 60 Hz display frame, nanoseconds.
const FRAME_NS: u64 = 16_666_667;

/// Per-channel difference a pixel may have from the snapshot without counting as changed:
/// rasterizers differ in the last bits of MSAA coverage and shading.
const SNAPSHOT_CHANNEL_TOLERANCE: u8 = 24;
/// Share of pixels allowed to differ by more than the tolerance.
const SNAPSHOT_MAX_BAD_FRACTION: f64 = 0.01;

/// A simulation run for `frames` 60 Hz frames, with the trail of shown sphere positions.
fn run(strategy: Strategy, frames: usize) -> (Simulation, ShownScene, Trail) {
    let mut sim = Simulation::new(strategy, TimestepConfig::default(), SceneConfig::new());
    let mut trail = Trail::default();
    let mut shown = None;
    for _ in 0..frames {
        let (_, frame) = sim.frame(FRAME_NS);
        trail.push((frame.sphere_position.as_vec3(), frame.real_time));
        shown = Some(frame);
    }
    (sim, shown.expect("at least one frame"), trail)
}

/// Where a world point lands in a viewport, in target pixels (y down).
fn project(view: &PaneView, viewport: Viewport, point: Vec3) -> Vec2 {
    let ndc = clip_from_world(view, viewport.width / viewport.height).project_point3(point);
    Vec2::new(
        viewport.x + (ndc.x * 0.5 + 0.5) * viewport.width,
        viewport.y + (0.5 - ndc.y * 0.5) * viewport.height,
    )
}

fn pixel(image: &RgbaImage, at: Vec2) -> Rgba<u8> {
    *image.get_pixel(at.x as u32, at.y as u32)
}

/// The background as it lands in an sRGB target.
fn background_srgb() -> [u8; 3] {
    let encode = |linear: f64| {
        let srgb = if linear <= 0.003_130_8 {
            linear * 12.92
        } else {
            1.055 * linear.powf(1.0 / 2.4) - 0.055
        };
        (srgb * 255.0).round() as u8
    };
    [
        encode(BACKGROUND.r),
        encode(BACKGROUND.g),
        encode(BACKGROUND.b),
    ]
}

fn is_background(pixel: Rgba<u8>) -> bool {
    let background = background_srgb();
    (0..3).all(|c| pixel.0[c].abs_diff(background[c]) <= 3)
}

/// The sphere's orange: red over green over blue, red well above the background.
fn is_sphere_colored(pixel: Rgba<u8>) -> bool {
    let [r, g, b, _] = pixel.0;
    r > g && g > b && r >= background_srgb()[0] + 60
}

fn assert_sphere_colored(pixel: Rgba<u8>, what: &str) {
    assert!(
        is_sphere_colored(pixel),
        "{what}: expected the sphere's orange (r > g > b, r well above the background), got {:?}",
        pixel.0
    );
}

/// Fails the test if wgpu reported any error (the handler only prints them).
fn assert_no_gpu_errors(ctx: &GpuContext) {
    assert_eq!(
        ctx.uncaptured_error_count(),
        0,
        "wgpu reported errors (see stderr)"
    );
}

#[test]
fn known_state_draws_sphere_spring_and_background_where_expected() {
    let Some(ctx) = gpu_or_skip() else { return };
    let (sim, shown, trail) = run(Strategy::Interpolated, 30);
    let view = PaneView::new(&shown, sim.scene().config(), sim.scene().exploded(), &trail);
    let (width, height) = (320, 240);
    let viewport = Viewport::full(width, height);
    let image = render_scene_png(&ctx, &[PlacedView { viewport, view }], width, height).unwrap();

    let centre = project(&view, viewport, view.sphere_center);
    assert!(centre.x > 0.0 && centre.x < 320.0 && centre.y > 0.0 && centre.y < 240.0);
    assert_sphere_colored(pixel(&image, centre), "sphere centre");

    let corner = image.get_pixel(0, 0);
    assert!(
        is_background(*corner),
        "corner {:?} is not the background {:?}",
        corner.0,
        background_srgb()
    );

    // The coil: along the projected spring axis, most rows have something drawn within a
    // few pixels of it.
    let top = project(&view, viewport, view.spring_anchor);
    let bottom = project(&view, viewport, view.spring_mass);
    let samples = 40;
    let covered = (0..samples)
        .filter(|&i| {
            let at = top.lerp(bottom, (i as f32 + 0.5) / samples as f32);
            (-4..=4).any(|dx| {
                let x = (at.x as i32 + dx).clamp(0, width as i32 - 1) as u32;
                let y = (at.y as u32).min(height - 1);
                !is_background(*image.get_pixel(x, y))
            })
        })
        .count();
    assert!(
        covered >= samples * 3 / 4,
        "only {covered} of {samples} points along the spring axis show the coil"
    );
    assert_no_gpu_errors(&ctx);
}

#[test]
fn a_narrow_pane_keeps_the_horizontal_framing_and_a_wide_one_the_vertical() {
    let (sim, shown, trail) = run(Strategy::Interpolated, 30);
    let view = PaneView::new(&shown, sim.scene().config(), false, &trail);
    let framed = clip_from_world(&view, 4.0 / 3.0);
    // A point near the left edge and one near the top of the framed view.
    let left = framed.inverse().project_point3(Vec3::new(-0.9, 0.0, 0.5));
    let top = framed.inverse().project_point3(Vec3::new(0.0, 0.9, 0.5));
    let portrait = clip_from_world(&view, 0.7);
    let ndc = portrait.project_point3(left);
    assert!(
        (ndc.x + 0.9).abs() < 1e-3,
        "cut at the side of a portrait pane: {ndc}"
    );
    let ndc = portrait.project_point3(top);
    assert!(
        ndc.y < 0.9 * 0.7 / (4.0 / 3.0) + 1e-3,
        "the portrait pane shows more above: {ndc}"
    );
    let widescreen = clip_from_world(&view, 16.0 / 9.0);
    let ndc = widescreen.project_point3(top);
    assert!(
        (ndc.y - 0.9).abs() < 1e-3,
        "a wide pane keeps the vertical field: {ndc}"
    );
}

#[test]
fn known_state_matches_snapshot() {
    let Some(ctx) = gpu_or_skip() else { return };
    let (sim, shown, trail) = run(Strategy::Interpolated, 30);
    let view = PaneView::new(&shown, sim.scene().config(), sim.scene().exploded(), &trail);
    let image = render_scene_png(
        &ctx,
        &[PlacedView {
            viewport: Viewport::full(320, 240),
            view,
        }],
        320,
        240,
    )
    .unwrap();

    assert_matches_snapshot(&image, "render_known_state");
    assert_no_gpu_errors(&ctx);
}

/// Compares `image` with `tests/snapshots/NAME.png` within the snapshot tolerance, or
/// writes it there under `UPDATE_SNAPSHOTS=1`. A missing reference fails.
fn assert_matches_snapshot(image: &RgbaImage, name: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/snapshots/{name}.png"));
    if std::env::var("UPDATE_SNAPSHOTS").as_deref() == Ok("1") {
        image.save(&path).expect("writing the reference image");
        eprintln!("note: wrote the reference image {}", path.display());
        return;
    }
    if !path.exists() {
        panic!(
            "the reference image {} is missing; UPDATE_SNAPSHOTS=1 cargo test writes it",
            path.display()
        );
    }
    let expected = image::open(&path)
        .expect("reading the reference image")
        .to_rgba8();
    if let Err(message) = compare_images(
        image,
        &expected,
        SNAPSHOT_CHANNEL_TOLERANCE,
        SNAPSHOT_MAX_BAD_FRACTION,
    ) {
        let actual_path = std::env::temp_dir().join(format!("{name}.actual.png"));
        image.save(&actual_path).expect("writing the actual image");
        panic!(
            "render differs from {}: {message}; actual image at {} (UPDATE_SNAPSHOTS=1 to accept)",
            path.display(),
            actual_path.display()
        );
    }
}

#[test]
fn six_pane_grid_draws_each_sphere_in_its_own_viewport_and_labels_it() {
    let Some(ctx) = gpu_or_skip() else { return };
    let settings = LiveSettings {
        compare: true,
        ..LiveSettings::default()
    };
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings).unwrap();
    live.frame();
    for _ in 0..75 {
        live.stopwatch_mut().advance(FRAME_NS);
        live.frame();
    }
    let (width, height) = (960, 540);
    let image = render_grid(&ctx, &live, (width, height)).unwrap();
    assert_eq!(image.dimensions(), (width, height));
    let viewports = grid_viewports(6, Viewport::full(width, height));
    assert_eq!(live.panes().len(), viewports.len());
    for (pane, viewport) in live.panes().iter().zip(&viewports) {
        let what = pane.strategy().id();
        let view = pane.pane_view().unwrap();
        let centre = project(&view, *viewport, view.sphere_center);
        assert!(
            centre.x > viewport.x
                && centre.x < viewport.x + viewport.width
                && centre.y > viewport.y
                && centre.y < viewport.y + viewport.height,
            "{what}: sphere at {centre} is outside its viewport {viewport:?}"
        );
        assert_sphere_colored(pixel(&image, centre), what);
        // The label: light text on a dark box in the pane's top left corner.
        let (x0, y0) = (viewport.x as u32 + 8, viewport.y as u32 + 8);
        let (mut light, mut dark) = (0, 0);
        for y in y0..y0 + 40 {
            for x in x0..x0 + 150 {
                let [r, g, b, _] = image.get_pixel(x, y).0;
                let level = (u16::from(r) + u16::from(g) + u16::from(b)) / 3;
                light += usize::from(level > 170);
                dark += usize::from(level < 55);
            }
        }
        assert!(
            light > 150 && dark > 1500,
            "{what}: no label in the top left corner ({light} light, {dark} dark pixels)"
        );
        // Outside the label, the pane's top right corner is the plain background.
        let corner = Vec2::new(viewport.x + viewport.width - 4.0, viewport.y + 4.0);
        assert!(
            is_background(pixel(&image, corner)),
            "{what}: {:?}",
            pixel(&image, corner).0
        );
    }
    assert_matches_snapshot(&image, "render_grid");
    assert_no_gpu_errors(&ctx);
}

/// What `bench-render --without` measures is the frame without that part: the renderer
/// leaves out exactly what it is told to.
#[test]
fn the_renderer_leaves_out_the_parts_it_is_told_to() {
    let Some(ctx) = gpu_or_skip() else { return };
    let (sim, shown, trail) = run(Strategy::Fixed, 75);
    let view = PaneView::new(&shown, sim.scene().config(), false, &trail);
    let viewport = Viewport::full(320, 240);
    let draw = |parts: SceneParts| {
        render_scene_parts_png(&ctx, &[PlacedView { viewport, view }], (320, 240), parts).unwrap()
    };
    let centre = project(&view, viewport, view.sphere_center);
    assert_sphere_colored(pixel(&draw(SceneParts::ALL), centre), "everything");
    // The trail's newest dot sits inside the sphere: leave both out.
    let without_sphere = draw(SceneParts {
        sphere: false,
        trail: false,
        ..SceneParts::ALL
    });
    assert!(
        !is_sphere_colored(pixel(&without_sphere, centre)),
        "the sphere is drawn without it: {:?}",
        pixel(&without_sphere, centre).0
    );
    let nothing = draw(SceneParts {
        grid: false,
        sphere: false,
        ghost: false,
        trail: false,
        props: false,
        coil: false,
    });
    assert!(nothing.pixels().all(|&pixel| is_background(pixel)));
    assert_no_gpu_errors(&ctx);
}

#[test]
fn two_panes_each_draw_their_own_sphere_in_their_own_half() {
    let Some(ctx) = gpu_or_skip() else { return };
    let (sim_a, shown_a, trail_a) = run(Strategy::Interpolated, 30);
    let (sim_b, shown_b, trail_b) = run(Strategy::Fixed, 75);
    let view_a = PaneView::new(&shown_a, sim_a.scene().config(), false, &trail_a);
    let view_b = PaneView::new(&shown_b, sim_b.scene().config(), false, &trail_b);
    let left = Viewport {
        x: 0.0,
        y: 0.0,
        width: 240.0,
        height: 240.0,
    };
    let right = Viewport { x: 240.0, ..left };
    let panes = [
        PlacedView {
            viewport: left,
            view: view_a,
        },
        PlacedView {
            viewport: right,
            view: view_b,
        },
    ];
    let image = render_scene_png(&ctx, &panes, 480, 240).unwrap();

    let centre_a = project(&view_a, left, view_a.sphere_center);
    let centre_b = project(&view_b, right, view_b.sphere_center);
    assert!(centre_a.x < 240.0, "left sphere at {centre_a}");
    assert!(centre_b.x >= 240.0, "right sphere at {centre_b}");
    assert_sphere_colored(pixel(&image, centre_a), "left pane's sphere");
    assert_sphere_colored(pixel(&image, centre_b), "right pane's sphere");
    // Each pane is cleared and drawn on its own: both top corners show the background.
    assert!(is_background(*image.get_pixel(0, 0)));
    assert!(is_background(*image.get_pixel(479, 0)));
    assert_no_gpu_errors(&ctx);
}

#[test]
fn exploded_spring_turns_alarm_red() {
    let Some(ctx) = gpu_or_skip() else { return };
    let (sim, shown, trail) = run(Strategy::Interpolated, 30);
    let calm = PaneView::new(&shown, sim.scene().config(), false, &trail);
    let exploded = PaneView {
        spring_exploded: true,
        ..calm
    };
    let viewport = Viewport::full(320, 240);
    for (view, red) in [(calm, false), (exploded, true)] {
        let image = render_scene_png(&ctx, &[PlacedView { viewport, view }], 320, 240).unwrap();
        let [r, g, b, _] = pixel(&image, project(&view, viewport, view.spring_mass)).0;
        let is_red = u16::from(r) > 2 * u16::from(g.max(b)) && r > 120;
        assert_eq!(is_red, red, "mass pixel {:?} (exploded: {red})", [r, g, b]);
        if !red {
            // The calm mass is blue, like MASS_COLOR.
            assert!(
                MASS_COLOR[2] > MASS_COLOR[0] && b > r,
                "calm mass pixel {:?}",
                [r, g, b]
            );
        }
    }
    assert_no_gpu_errors(&ctx);
}

#[test]
fn empty_viewports_and_tiny_targets_do_not_panic() {
    let Some(ctx) = gpu_or_skip() else { return };
    let (sim, shown, trail) = run(Strategy::Accumulator, 10);
    let view = PaneView::new(&shown, sim.scene().config(), sim.scene().exploded(), &trail);
    let empty = Viewport {
        x: 10.0,
        y: 10.0,
        width: 0.0,
        height: 0.0,
    };
    let outside = Viewport {
        x: 50.0,
        y: 50.0,
        width: 100.0,
        height: 100.0,
    };

    let image = render_scene_png(
        &ctx,
        &[PlacedView {
            viewport: empty,
            view,
        }],
        16,
        16,
    )
    .unwrap();
    assert!(image.pixels().all(|p| is_background(*p)));

    // A 1 × 1 target; a zero-sized request, clamped to 1 × 1; a pane reaching past the
    // target, cut.
    let cases = [
        (Viewport::full(1, 1), (1, 1), (1, 1)),
        (outside, (0, 0), (1, 1)),
        (outside, (64, 64), (64, 64)),
    ];
    for (viewport, (width, height), expected) in cases {
        let image =
            render_scene_png(&ctx, &[PlacedView { viewport, view }], width, height).unwrap();
        assert_eq!(image.dimensions(), expected);
    }

    // No panes at all.
    let mut renderer = Renderer::new(&ctx.device, wgpu::TextureFormat::Rgba8UnormSrgb, 1);
    renderer.prepare(&ctx.device, &ctx.queue, &[]);
    assert_no_gpu_errors(&ctx);
}

#[test]
#[ignore = "writes /tmp/render_big.png and /tmp/render_panes.png for a person to look at"]
fn render_big_image_for_inspection() {
    let Some(ctx) = gpu_or_skip() else { return };
    let (sim, shown, trail) = run(Strategy::Interpolated, 30);
    let view = PaneView::new(&shown, sim.scene().config(), sim.scene().exploded(), &trail);
    let image = render_scene_png(
        &ctx,
        &[PlacedView {
            viewport: Viewport::full(1280, 720),
            view,
        }],
        1280,
        720,
    )
    .unwrap();
    image.save("/tmp/render_big.png").unwrap();

    // Six strategies side by side, 3 × 2, as the comparison view will show them.
    let runs: Vec<_> = Strategy::CLASSIC
        .iter()
        .map(|&strategy| run(strategy, 30))
        .collect();
    let (width, height) = (1280.0, 720.0);
    let panes: Vec<PlacedView> = runs
        .iter()
        .enumerate()
        .map(|(i, (sim, shown, trail))| PlacedView {
            viewport: Viewport {
                x: (i % 3) as f32 * width / 3.0,
                y: (i / 3) as f32 * height / 2.0,
                width: width / 3.0,
                height: height / 2.0,
            },
            view: PaneView::new(shown, sim.scene().config(), sim.scene().exploded(), trail),
        })
        .collect();
    let image = render_scene_png(&ctx, &panes, 1280, 720).unwrap();
    image.save("/tmp/render_panes.png").unwrap();
    assert_no_gpu_errors(&ctx);
}
