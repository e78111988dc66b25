//! The frame timeline, drawn for a scripted run: a snapshot, and the tooltip of a hovered
//! frame showing that frame's numbers.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use timestep_lab::live::{FrameSample, History, LiveLoop, LiveSettings, VirtualStopwatch};
use timestep_lab::timestep::{Nanos, Strategy};
use timestep_lab::ui::{TIMELINE_WINDOW, TimelinePane, timeline_ui};

/// One 60 Hz display frame.
const FRAME_60HZ: Nanos = 16_666_667;
/// The scripted hitch.
const HITCH: Nanos = 70_000_000;
/// The default step (50 Hz).
const DT: Nanos = 20_000_000;

/// The panes' histories and which one is detailed.
struct TimelineState {
    /// Strategy and frames of each pane.
    panes: Vec<(Strategy, History)>,
    /// The detailed pane.
    focus: usize,
    /// The step passed to the timeline.
    dt: Nanos,
}

/// Frames of a 60 Hz loop under `strategy` with at most 2 steps per frame: 40 frames, one
/// 70 ms hitch, 12 more; every number is exact.
fn scripted_history(strategy: Strategy) -> History {
    let settings = LiveSettings {
        strategy,
        max_steps: 2,
        ..LiveSettings::default()
    };
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings");
    live.frame();
    let frames = std::iter::repeat_n(FRAME_60HZ, 40)
        .chain([HITCH])
        .chain(std::iter::repeat_n(FRAME_60HZ, 12));
    for frame in frames {
        live.stopwatch_mut().advance(frame);
        live.frame();
    }
    live.history().clone()
}

/// Fixed, semi-fixed and accumulator (detailed) over the scripted run.
fn scripted_state() -> TimelineState {
    TimelineState {
        panes: [Strategy::Fixed, Strategy::SemiFixed, Strategy::Accumulator]
            .into_iter()
            .map(|strategy| (strategy, scripted_history(strategy)))
            .collect(),
        focus: 2,
        dt: DT,
    }
}

/// The timeline alone in a harness of `size` made by `builder`.
fn build(
    builder: egui_kittest::HarnessBuilder<TimelineState>,
    size: egui::Vec2,
    state: TimelineState,
) -> Harness<'static, TimelineState> {
    builder.with_size(size).build_ui_state(
        |ui, state: &mut TimelineState| {
            let panes: Vec<TimelinePane<'_>> = state
                .panes
                .iter()
                .map(|(strategy, history)| TimelinePane {
                    strategy: *strategy,
                    history,
                })
                .collect();
            timeline_ui(ui, &panes, state.focus, state.dt);
        },
        state,
    )
}

/// Snapshot tolerance: text antialiasing may differ in a few pixels between lavapipe
/// versions.
fn snapshot_options() -> egui_kittest::SnapshotOptions {
    egui_kittest::SnapshotOptions::new()
        .threshold(2.0)
        .max_failed_pixels(100)
}

/// Compares the scripted timeline drawn `width` points wide with snapshot `name`.
fn assert_snapshot(name: &str, width: f32) {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let mut harness = build(
        Harness::builder().wgpu(),
        egui::vec2(width, 124.0),
        scripted_state(),
    );
    harness.run();
    harness.snapshot_options(name, &snapshot_options());
}

#[test]
fn timeline_snapshot() {
    assert_snapshot("timeline", 720.0);
}

#[test]
fn timeline_snapshot_narrow() {
    assert_snapshot("timeline_narrow", 320.0);
}

/// Where the scripted hitch frame lies along the strip, 0 to 1: the axis runs from the `T`
/// of the frame before the window to the newest `T`.
fn hitch_fraction(history: &History) -> f64 {
    let in_window = history.recent(TIMELINE_WINDOW).count();
    let samples: Vec<&FrameSample> = history.iter().collect();
    let first = samples.len() - in_window - 1;
    let start = samples[first].presented_time as f64;
    let end = samples[samples.len() - 1].presented_time as f64;
    let hitch = samples
        .iter()
        .position(|s| s.real_frame == HITCH)
        .expect("the hitch frame");
    let middle = (samples[hitch - 1].presented_time + samples[hitch].presented_time) as f64 / 2.0;
    (middle - start) / (end - start)
}

/// Moves the pointer over the middle of the scripted hitch frame and lets the tooltip open.
fn hover_the_hitch(harness: &mut Harness<'static, TimelineState>) {
    let fraction = hitch_fraction(&harness.state().panes[2].1);
    let strip = harness.get_by_label("frame timeline").rect();
    let x = strip.left() + (fraction as f32) * strip.width();
    harness.hover_at(egui::pos2(x, strip.top() + 8.0));
    harness.run();
}

#[test]
fn hovering_a_frame_shows_its_numbers() {
    let mut harness = build(
        Harness::builder(),
        egui::vec2(720.0, 124.0),
        scripted_state(),
    );
    harness.run();
    assert!(
        harness.query_by_label("real frame").is_none(),
        "no tooltip before hovering"
    );
    hover_the_hitch(&mut harness);
    // The 70 ms hitch, fed whole. 40 frames at 60 Hz left 6.67 ms in the accumulator, so
    // 76.67 ms are owed: 3 whole steps, 2 taken (the cap), one dropped.
    harness.get_by_label("real frame");
    assert_eq!(
        harness.get_all_by_label("70.00 ms").count(),
        2,
        "real frame and fed"
    );
    harness.get_by_label("76.67 ms");
    harness.get_by_label("20.00 ms (not on the axis: T excludes it)");
    harness.get_by_label("yes: more than 2× the median 16.67 ms");
    // Each pane's steps this frame: fixed 1, semi-fixed capped at 2, accumulator 2.
    harness.get_by_label("steps, fixed");
    harness.get_by_label("1 step");
    assert_eq!(harness.get_all_by_label("2 steps").count(), 2);
}

#[test]
fn timeline_snapshot_hover() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let mut harness = build(
        Harness::builder().wgpu(),
        egui::vec2(720.0, 400.0),
        scripted_state(),
    );
    harness.run();
    hover_the_hitch(&mut harness);
    harness.snapshot_options("timeline_hover", &snapshot_options());
}

#[test]
fn an_empty_timeline_says_so() {
    let state = TimelineState {
        panes: vec![(Strategy::Interpolated, History::default())],
        focus: 5,
        dt: DT,
    };
    let mut harness = build(Harness::builder(), egui::vec2(400.0, 124.0), state);
    harness.run();
    harness.get_by_label("frame timeline");
}

/// Six panes of a loop running at 20 000 frames per second (the whole history in the
/// window), after a 5 s frame with no frame-time guard: tens of thousands of steps.
fn extreme_state() -> TimelineState {
    let panes = Strategy::ALL
        .into_iter()
        .map(|strategy| {
            let settings = LiveSettings {
                strategy,
                max_frame_time_ms: 0.0,
                ..LiveSettings::default()
            };
            let mut live =
                LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings");
            live.frame();
            live.stopwatch_mut().advance(5_000_000_000);
            live.frame();
            for _ in 0..9000 {
                live.stopwatch_mut().advance(50_000);
                live.frame();
            }
            (strategy, live.history().clone())
        })
        .collect();
    TimelineState {
        panes,
        focus: 99,
        dt: DT,
    }
}

#[test]
fn sub_point_frames_keep_painting_bounded() {
    let mut harness = build(
        Harness::builder(),
        egui::vec2(1600.0, 200.0),
        extreme_state(),
    );
    harness.run();
    // A few shapes per point of width at most (about 6 300 here), however many frames and
    // steps there are: one shape per frame and step would be over 60 000.
    let shapes = harness.output().shapes.len();
    assert!(shapes < 10 * 1600, "{shapes} shapes");
    // The focus is clamped to the last pane; a hovered frame has a tooltip.
    let strip = harness.get_by_label("frame timeline").rect();
    harness.hover_at(strip.center());
    harness.run();
    harness.get_by_label("steps, extrapolated");
    assert_eq!(
        harness.get_all_by_label("0.05 ms").count(),
        2,
        "real frame and fed"
    );
}

#[test]
fn a_huge_frame_in_the_window_is_drawn_to_scale() {
    // The 5 s frame is the newest: the strip spans it, and dt 0 must not break the steps.
    let panes = Strategy::ALL
        .into_iter()
        .map(|strategy| {
            let settings = LiveSettings {
                strategy,
                max_frame_time_ms: 0.0,
                ..LiveSettings::default()
            };
            let mut live =
                LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings");
            live.frame();
            for frame in [FRAME_60HZ, FRAME_60HZ, 5_000_000_000] {
                live.stopwatch_mut().advance(frame);
                live.frame();
            }
            (strategy, live.history().clone())
        })
        .collect();
    let mut harness = build(
        Harness::builder(),
        egui::vec2(300.0, 200.0),
        TimelineState {
            panes,
            focus: 3,
            dt: 0,
        },
    );
    harness.run();
    // The 5 s frame takes all but 33 ms of the 5.03 s axis: 90% of the way along is in it.
    let strip = harness.get_by_label("frame timeline").rect();
    harness.hover_at(egui::pos2(
        strip.left() + 0.9 * strip.width(),
        strip.center().y,
    ));
    harness.run();
    assert_eq!(
        harness.get_all_by_label("5000.00 ms").count(),
        2,
        "real frame and fed"
    );
    // Steps: 250 for semi-fixed and the three accumulator panes, 1 for fixed and variable.
    assert_eq!(harness.get_all_by_label("250 steps").count(), 4);
    assert_eq!(harness.get_all_by_label("1 step").count(), 2);
}
