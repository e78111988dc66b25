//! The frame timeline, drawn for a scripted run: snapshots (FIFO, and a mailbox screen that
//! drops frames), the tooltip of a hovered frame showing that frame's numbers and what the
//! modeled screen did with it, and the screen row's label naming the model.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use timestep_lab::display::DisplaySpec;
use timestep_lab::live::{
    DisplayTimesBy, FrameSample, History, LiveLoop, LiveRequest, LiveSettings, OnScreen,
    PresentModeId, RefreshMark, ScreenFacts, VirtualStopwatch,
};
use timestep_lab::ring::Ring;
use timestep_lab::timestep::{Nanos, Strategy};
use timestep_lab::ui::{TIMELINE_WINDOW, TimelinePane, TimelineScreen, timeline_ui};

/// One 60 Hz display frame.
const FRAME_60HZ: Nanos = 16_666_667;
/// The scripted hitch.
const HITCH: Nanos = 70_000_000;
/// The default step (50 Hz).
const DT: Nanos = 20_000_000;
/// Height of a harness holding a timeline of three panes.
const HEIGHT: f32 = 140.0;

/// The panes' histories and which one is detailed.
struct TimelineState {
    /// Strategy and frames of each pane.
    panes: Vec<(Strategy, History)>,
    /// The detailed pane.
    focus: usize,
    /// The step passed to the timeline.
    dt: Nanos,
    /// The modeled screen's refreshes (the same for every pane: they are fed the same
    /// frames).
    refreshes: Ring<RefreshMark>,
    /// The display model behind them.
    screen_model: DisplaySpec,
}

/// One pane's live run: its history, and the modeled screen's refreshes and model.
struct Run {
    /// The pane's frames.
    history: History,
    /// The screen's refreshes.
    refreshes: Ring<RefreshMark>,
    /// The screen's model.
    model: DisplaySpec,
}

/// A live loop under `strategy` with at most 2 steps per frame, on the screen `facts`
/// describe (FIFO at 60 Hz when `None`), fed `frames` after a first one at time zero.
fn live_run(
    strategy: Strategy,
    facts: Option<ScreenFacts>,
    frames: impl IntoIterator<Item = Nanos>,
) -> Run {
    let settings = LiveSettings {
        strategy,
        max_steps: 2,
        ..LiveSettings::default()
    };
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings");
    if let Some(facts) = facts {
        live.request(LiveRequest::Screen(facts))
            .expect("the loop takes it");
    }
    live.frame();
    for frame in frames {
        live.stopwatch_mut().advance(frame);
        live.frame();
    }
    let snapshot = live.snapshot();
    Run {
        history: live.history().clone(),
        refreshes: snapshot.refreshes.clone(),
        model: snapshot.readouts.screen.model,
    }
}

/// Frames of a 60 Hz loop under `strategy` on a 60 Hz FIFO screen: 40 frames, one 70 ms
/// hitch, 12 more; every number is exact.
fn scripted_run(strategy: Strategy) -> Run {
    let frames = std::iter::repeat_n(FRAME_60HZ, 40)
        .chain([HITCH])
        .chain(std::iter::repeat_n(FRAME_60HZ, 12));
    live_run(strategy, None, frames)
}

/// The state of `runs`, detailing run `focus`, with its screen.
fn state_of(runs: Vec<(Strategy, Run)>, focus: usize) -> TimelineState {
    let (refreshes, screen_model) = runs
        .get(focus)
        .map(|(_, run)| (run.refreshes.clone(), run.model))
        .unwrap_or_else(|| (Ring::new(1), DisplaySpec::Cpu));
    TimelineState {
        panes: runs
            .into_iter()
            .map(|(strategy, run)| (strategy, run.history))
            .collect(),
        focus,
        dt: DT,
        refreshes,
        screen_model,
    }
}

/// Fixed, semi-fixed and accumulator (detailed) over the scripted run.
fn scripted_state() -> TimelineState {
    let runs = [Strategy::Fixed, Strategy::SemiFixed, Strategy::Accumulator]
        .into_iter()
        .map(|strategy| (strategy, scripted_run(strategy)))
        .collect();
    state_of(runs, 2)
}

/// A 144 Hz loop on a 60 Hz mailbox screen: most frames are replaced before a refresh
/// shows them. Accumulator (detailed) and interpolated.
fn mailbox_state() -> TimelineState {
    let mailbox = ScreenFacts {
        present_mode: Some(PresentModeId::Mailbox),
        monitor_hz: Some(60.0),
    };
    let runs = [Strategy::Accumulator, Strategy::Interpolated]
        .into_iter()
        .map(|strategy| {
            let frames = std::iter::repeat_n(1_000_000_000 / 144, 100);
            (strategy, live_run(strategy, Some(mailbox), frames))
        })
        .collect();
    state_of(runs, 0)
}

/// A state of `panes` without a screen: no refreshes.
fn unscreened_state(panes: Vec<(Strategy, History)>, focus: usize, dt: Nanos) -> TimelineState {
    TimelineState {
        panes,
        focus,
        dt,
        refreshes: Ring::new(1),
        screen_model: DisplaySpec::Cpu,
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
            let screen = TimelineScreen {
                refreshes: &state.refreshes,
                model: state.screen_model,
                measured: None,
                display_times: DisplayTimesBy::Model,
            };
            timeline_ui(ui, &panes, screen, state.focus, state.dt);
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

/// Compares the timeline of `state` drawn `width` points wide with snapshot `name`.
fn assert_snapshot(name: &str, width: f32, state: TimelineState) {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let mut harness = build(Harness::builder().wgpu(), egui::vec2(width, HEIGHT), state);
    harness.run();
    harness.snapshot_options(name, &snapshot_options());
}

#[test]
fn timeline_snapshot() {
    assert_snapshot("timeline", 720.0, scripted_state());
}

#[test]
fn timeline_snapshot_narrow() {
    assert_snapshot("timeline_narrow", 320.0, scripted_state());
}

#[test]
fn timeline_snapshot_mailbox() {
    assert_snapshot("timeline_mailbox", 720.0, mailbox_state());
}

/// Where the middle of the first frame `pick` chooses lies along the strip, 0 to 1: the
/// axis runs from the `T` of the frame before the window to the newest `T`.
fn frame_fraction(history: &History, pick: impl Fn(&FrameSample) -> bool) -> f64 {
    let in_window = history.recent(TIMELINE_WINDOW).count();
    let samples: Vec<&FrameSample> = history.iter().collect();
    let first = samples.len() - in_window - 1;
    let start = samples[first].presented_time as f64;
    let end = samples[samples.len() - 1].presented_time as f64;
    let picked = first
        + 1
        + samples[first + 1..]
            .iter()
            .position(|s| pick(s))
            .expect("the frame picked, in the window");
    let middle = (samples[picked - 1].presented_time + samples[picked].presented_time) as f64 / 2.0;
    (middle - start) / (end - start)
}

/// Moves the pointer over the middle of the first frame `pick` chooses in pane `pane` and
/// lets the tooltip open.
fn hover_frame(
    harness: &mut Harness<'static, TimelineState>,
    pane: usize,
    pick: impl Fn(&FrameSample) -> bool,
) {
    let fraction = frame_fraction(&harness.state().panes[pane].1, pick);
    let strip = harness.get_by_label("frame timeline").rect();
    let x = strip.left() + (fraction as f32) * strip.width();
    harness.hover_at(egui::pos2(x, strip.top() + 8.0));
    harness.run();
}

/// Moves the pointer over the middle of the scripted hitch frame and lets the tooltip open.
fn hover_the_hitch(harness: &mut Harness<'static, TimelineState>) {
    hover_frame(harness, 2, |s| s.real_frame == HITCH);
}

#[test]
fn hovering_a_frame_shows_its_numbers() {
    let mut harness = build(
        Harness::builder(),
        egui::vec2(720.0, HEIGHT),
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
    // FIFO shows it at the first refresh after its present (the next frame's start, off
    // the 60 Hz grid after the hitch).
    let hitch = harness.state().panes[2]
        .1
        .iter()
        .find(|s| s.real_frame == HITCH)
        .copied()
        .expect("the hitch frame");
    let OnScreen::Shown { at, .. } = hitch.screen else {
        panic!("the hitch frame is on screen: {:?}", hitch.screen);
    };
    assert!(at >= hitch.wall + FRAME_60HZ, "shown at {at}");
    harness.get_by_label(&format!(
        "on screen {:.2} ms after it started (modeled)",
        (at - hitch.wall) as f64 / 1e6
    ));
}

#[test]
fn the_screen_row_names_its_model() {
    let mut harness = build(
        Harness::builder(),
        egui::vec2(720.0, HEIGHT),
        scripted_state(),
    );
    harness.run();
    let label = harness.get_by_label("screen (modeled: fifo:60:2)").rect();
    assert!(
        harness
            .query_by_label_contains("a white mark on the row")
            .is_none(),
        "no help before hovering"
    );
    harness.hover_at(label.center());
    harness.run();
    harness.get_by_label_contains("a white mark on the row");
}

#[test]
fn hovering_a_dropped_frame_says_the_screen_dropped_it() {
    let mut harness = build(
        Harness::builder(),
        egui::vec2(720.0, HEIGHT),
        mailbox_state(),
    );
    harness.run();
    harness.get_by_label("screen (modeled: mailbox:60)");
    hover_frame(&mut harness, 0, |s| s.screen == OnScreen::Dropped);
    harness.get_by_label("dropped: replaced before a refresh showed it (modeled)");
}

#[test]
fn timeline_snapshot_hover() {
    if common::gpu_or_skip().is_none() {
        return;
    }
    let mut harness = build(
        Harness::builder().wgpu(),
        egui::vec2(720.0, 420.0),
        scripted_state(),
    );
    harness.run();
    hover_the_hitch(&mut harness);
    harness.snapshot_options("timeline_hover", &snapshot_options());
}

#[test]
fn an_empty_timeline_says_so() {
    let state = unscreened_state(vec![(Strategy::Interpolated, History::default())], 5, DT);
    let mut harness = build(Harness::builder(), egui::vec2(400.0, 124.0), state);
    harness.run();
    harness.get_by_label("frame timeline");
}

/// Six panes of a loop running at 20 000 frames per second (the whole history in the
/// window), after a 5 s frame with no frame-time guard: tens of thousands of steps. The
/// screen is `immediate` at 1000 Hz: every refresh is torn, and every frame tears in, so
/// the refresh row holds thousands of marks too.
fn extreme_state() -> TimelineState {
    let immediate = ScreenFacts {
        present_mode: Some(PresentModeId::Immediate),
        monitor_hz: Some(1000.0),
    };
    let runs = Strategy::CLASSIC
        .into_iter()
        .map(|strategy| {
            let settings = LiveSettings {
                strategy,
                max_frame_time_ms: 0.0,
                ..LiveSettings::default()
            };
            let mut live =
                LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings");
            live.request(LiveRequest::Screen(immediate))
                .expect("the loop takes it");
            live.frame();
            live.stopwatch_mut().advance(5_000_000_000);
            live.frame();
            for _ in 0..9000 {
                live.stopwatch_mut().advance(50_000);
                live.frame();
            }
            let snapshot = live.snapshot();
            let run = Run {
                history: live.history().clone(),
                refreshes: snapshot.refreshes.clone(),
                model: snapshot.readouts.screen.model,
            };
            (strategy, run)
        })
        .collect();
    // The focus is past the last pane: the timeline clamps it, the screen is the same.
    let mut state = state_of(runs, Strategy::CLASSIC.len() - 1);
    state.focus = 99;
    state
}

#[test]
fn sub_point_frames_keep_painting_bounded() {
    let mut harness = build(
        Harness::builder(),
        egui::vec2(1600.0, 200.0),
        extreme_state(),
    );
    harness.run();
    let refreshes = &harness.state().refreshes;
    assert!(refreshes.len() > 8000, "{} refresh marks", refreshes.len());
    harness.get_by_label("screen (modeled: immediate:1000)");
    // A few shapes per point of width at most (about 6 300 here), however many frames,
    // steps and refreshes there are: one shape per frame and step would be over 60 000.
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
    let panes = Strategy::CLASSIC
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
        unscreened_state(panes, 3, 0),
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

#[test]
fn a_pane_row_names_its_strategy_in_full_when_hovered() {
    let panes = vec![
        (Strategy::VelocityExtrapolated, History::default()),
        (Strategy::Accumulator, History::default()),
    ];
    let mut harness = build(
        Harness::builder(),
        egui::vec2(720.0, HEIGHT),
        unscreened_state(panes, 1, DT),
    );
    harness.run();
    // The column shows "velocity-ex…"; the label and its tooltip hold the whole id.
    let label = harness.get_by_label("velocity-extrapolated").rect();
    let full = format!(
        "velocity-extrapolated: {}",
        Strategy::VelocityExtrapolated.name()
    );
    assert!(
        harness.query_by_label(&full).is_none(),
        "no tooltip before hovering"
    );
    harness.hover_at(label.center());
    harness.run();
    harness.get_by_label(&full);
}
