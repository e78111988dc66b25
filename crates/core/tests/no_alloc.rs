//! The per-frame engine path (engine, scene, metrics, spiral detection) never touches the
//! heap: a counting allocator watches this thread while frames run.

// A global allocator is the one way to observe allocations; it only counts and forwards.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use timestep_lab_core::live::{
    LiveLoop, LiveRequest, LiveSettings, Present, RampRequest, RampSettings, VirtualStopwatch,
};
use timestep_lab_core::metrics::{
    FrameStats, FrameTail, MetricsRecorder, SpiralDetector, TruthMemo,
};
use timestep_lab_core::scene::{CameraDriver, SceneConfig};
use timestep_lab_core::sim::Simulation;
use timestep_lab_core::timestep::{
    AverageFilter, FrameClock, FrameFilters, SnapFilter, Strategy, TimestepConfig,
};

struct CountingAllocator;

thread_local! {
    static WATCHING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: forwards every call unchanged to the system allocator.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if WATCHING.with(Cell::get) {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if WATCHING.with(Cell::get) {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn allocations_during(f: impl FnOnce()) -> u64 {
    ALLOCATIONS.with(|n| n.set(0));
    WATCHING.with(|w| w.set(true));
    f();
    WATCHING.with(|w| w.set(false));
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn frames_do_not_allocate() {
    for strategy in Strategy::CHOICES {
        for driver in CameraDriver::ALL {
            let mut scene = SceneConfig::new();
            scene.camera.driver = driver;
            let mut sim = Simulation::new(strategy, TimestepConfig::default(), scene);
            let mut recorder = MetricsRecorder::default();
            let mut truths = TruthMemo::default();
            let mut spiral = SpiralDetector::new(sim.engine().config().dt_ns());
            let mut clock = FrameClock::default();
            let mut filters = FrameFilters {
                snap: Some(SnapFilter::new(None, Some(200_000))),
                average: Some(AverageFilter::new(4).unwrap()),
            };
            let count = allocations_during(|| {
                for i in 0..2_000u64 {
                    if i % 97 == 0 {
                        sim.kick();
                    }
                    let real = 16_666_667 + (i % 7) * 1_000_000;
                    let frame = filters.apply(clock.tick(real));
                    let (report, shown) = sim.frame(frame);
                    recorder.record(&report, shown.spring_x_m, sim.scene(), None, &mut truths);
                    spiral.record(report.owed, 0, report.used);
                    std::hint::black_box((spiral.spiralling(), recorder.metrics(sim.scene())));
                }
            });
            assert_eq!(
                count, 0,
                "{strategy} with camera {driver} allocated {count} times"
            );
        }
    }
}

/// The frame-time statistics of a sliding window, as a live readout would take them every
/// frame: once the scratch buffer has grown to the window, no frame allocates. Nor does
/// feeding a run's frames to its tail.
#[test]
fn frame_statistics_reuse_their_scratch() {
    let frames: Vec<u64> = (0..2_000u64)
        .map(|i| 16_666_667 + (i % 7) * 1_000_000)
        .collect();
    let mut scratch = Vec::new();
    std::hint::black_box(FrameStats::from_frame_times(
        frames[..120].iter().copied(),
        &mut scratch,
    ));
    let mut tail = FrameTail::new(frames.len());
    let count = allocations_during(|| {
        for end in 120..frames.len() {
            let window = frames[end - 120..end].iter().copied();
            std::hint::black_box(FrameStats::from_frame_times(window, &mut scratch));
            tail.record(frames[end]);
        }
    });
    assert_eq!(count, 0, "frame statistics allocated {count} times");
}

#[test]
fn the_counter_sees_allocations() {
    let count = allocations_during(|| {
        std::hint::black_box(vec![1u8; 64]);
    });
    assert_eq!(count, 1);
}

/// A live loop under `settings` that has run long enough to fill its history rings once, so
/// that steady state is measured.
fn warmed_up(settings: LiveSettings) -> LiveLoop<VirtualStopwatch> {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings");
    for _ in 0..10_000 {
        live.stopwatch_mut().advance(16_666_667);
        live.frame();
    }
    live
}

#[test]
fn live_loop_frames_do_not_allocate() {
    for strategy in Strategy::CHOICES {
        let mut settings = LiveSettings {
            strategy,
            ..LiveSettings::default()
        };
        settings.load.step_cost_ms = 2.0;
        settings.load.jitter_ms = 1.0;
        settings.load.hitch_ms = 40.0;
        settings.load.hitch_every_s = 0.5;
        let mut live = warmed_up(settings);
        let count = allocations_during(|| {
            for i in 0..2_000u64 {
                if i % 97 == 0 {
                    live.request(LiveRequest::Kick).expect("the loop takes it");
                }
                live.stopwatch_mut().advance(16_666_667);
                let frame = live.frame();
                live.record_present(0);
                std::hint::black_box((frame, live.window_stats(), live.pane_view().is_some()));
            }
        });
        assert_eq!(
            count, 0,
            "{strategy}: the live loop allocated {count} times"
        );
    }
}

#[test]
fn comparison_frames_do_not_allocate() {
    let mut settings = LiveSettings {
        compare: true,
        focus: 3,
        ..LiveSettings::default()
    };
    settings.load.step_cost_ms = 2.0;
    settings.load.jitter_ms = 1.0;
    let mut live = warmed_up(settings);
    // Pausing and single-stepping are part of comparing; resume after each step.
    let count = allocations_during(|| {
        for i in 0..2_000u64 {
            if i % 97 == 0 {
                live.request(LiveRequest::Kick).expect("the loop takes it");
            }
            if i % 500 == 0 {
                live.request(LiveRequest::SingleStep)
                    .expect("the loop takes it");
            } else if i % 500 == 1 {
                live.request(LiveRequest::Resume)
                    .expect("the loop takes it");
            }
            live.stopwatch_mut().advance(16_666_667);
            std::hint::black_box(live.frame());
            for pane in 0..live.panes().len() {
                std::hint::black_box(live.pane_stats(pane));
            }
            std::hint::black_box(live.panes().iter().filter_map(|l| l.pane_view()).count());
        }
    });
    assert_eq!(count, 0, "six panes allocated {count} times");
}

/// A load ramp allocates its window and points when it starts, and nothing after: not
/// while the load rises, not when the panes break, not when it ends and puts the load back.
#[test]
fn ramp_frames_do_not_allocate() {
    let settings = LiveSettings {
        compare: true,
        max_frame_time_ms: 0.0,
        max_steps: 2,
        ..LiveSettings::default()
    };
    let mut live = warmed_up(settings);
    live.request_ramp(RampRequest::Start(RampSettings {
        max_step_cost_ms: 30.0,
        duration_s: 5.0,
    }))
    .expect("a valid ramp");
    let count = allocations_during(|| {
        for _ in 0..1_000u64 {
            live.stopwatch_mut().advance(16_666_667);
            std::hint::black_box(live.frame());
        }
    });
    let ramp = live.ramp().expect("a ramp");
    assert!(!ramp.running(), "the ramp ended within the frames counted");
    assert!(ramp.onsets().iter().any(Option::is_some), "panes broke");
    assert_eq!(count, 0, "the ramp allocated {count} times");
}

/// Presentation feedback on: presents numbered, feedback matched and scored, the measured
/// period and VRR test read, a surface recreated now and then, without the heap.
#[test]
fn frames_with_presentation_feedback_do_not_allocate() {
    use timestep_lab_core::feedback::{ClockMap, FeedbackEvent, FeedbackSource, PresentFeedback};
    let mut live = warmed_up(LiveSettings::default());
    live.feedback(FeedbackEvent::Watching(
        FeedbackSource::WaylandPresentation,
        ClockMap::new(0, 0),
    ));
    let mut waiting = [None; 4];
    let count = allocations_during(|| {
        for i in 0..2_000u64 {
            live.stopwatch_mut().advance(16_666_667);
            std::hint::black_box(live.frame());
            if i % 700 == 0 {
                live.presented(Present {
                    began: live.now(),
                    new_surface: true,
                    acquire_wait: None,
                });
            }
            let present = live.record_present(0);
            // Answered three frames later, shown a refresh after the present.
            let slot = (i % 4) as usize;
            if let Some((generation, present)) = waiting[slot].take() {
                live.feedback(FeedbackEvent::Answer(PresentFeedback::shown(
                    present,
                    Some(generation),
                    i128::from(live.now()),
                    Some(16_666_667),
                    Some(i),
                )));
            }
            waiting[slot] = present;
            let measured = live.screen().measured().expect("measured");
            std::hint::black_box((measured.period(), measured.variable(), measured.score()));
        }
    });
    assert_eq!(count, 0, "feedback allocated {count} times");
    let counts = live.screen().measured().unwrap().counts();
    assert!(counts.shown > 1_900, "{counts:?}");
}
