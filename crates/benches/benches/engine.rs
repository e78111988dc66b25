//! Cost of the core per frame: the engine alone, a whole simulated frame, and a bench run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use timestep_lab_bench::bench::{BenchSettings, run};
use timestep_lab_bench::trace::generate;
use timestep_lab_core::feedback::{ClockMap, FeedbackEvent, FeedbackSource, PresentFeedback};
use timestep_lab_core::live::{LiveLoop, LiveSettings, VirtualStopwatch};
use timestep_lab_core::metrics::{MetricsRecorder, TruthMemo};
use timestep_lab_core::scene::SceneConfig;
use timestep_lab_core::sim::Simulation;
use timestep_lab_core::timestep::{Engine, Strategy, TimestepConfig};

/// 60 Hz frame times, exact on average.
fn frames_60hz(count: u64) -> Vec<u64> {
    generate("steady:60", count as f64 / 60.0)
        .expect("a valid generator")
        .frame_times_ns
}

fn engine(c: &mut Criterion) {
    let frames = frames_60hz(600);
    c.bench_function("engine_advance_600_frames", |b| {
        b.iter(|| {
            let mut engine = Engine::new(Strategy::Interpolated, TimestepConfig::default());
            for &frame in &frames {
                black_box(engine.advance(black_box(frame)));
            }
        })
    });
    for strategy in [Strategy::Interpolated, Strategy::Extrapolated] {
        c.bench_function(&format!("simulation_frame_with_metrics_{strategy}"), |b| {
            let mut sim = Simulation::new(strategy, TimestepConfig::default(), SceneConfig::new());
            let mut recorder = MetricsRecorder::default();
            let mut truths = TruthMemo::default();
            let mut i = 0;
            b.iter(|| {
                let (report, shown) = sim.frame(frames[i % frames.len()]);
                recorder.record(&report, shown.spring_x_m, sim.scene(), None, &mut truths);
                i += 1;
                black_box(shown)
            })
        });
    }
    // Four 20 ms steps per frame: an 80 ms frame, the upper end of the target.
    c.bench_function("simulation_frame_with_metrics_4_steps", |b| {
        let mut sim = Simulation::new(
            Strategy::Interpolated,
            TimestepConfig::default(),
            SceneConfig::new(),
        );
        let mut recorder = MetricsRecorder::default();
        let mut truths = TruthMemo::default();
        b.iter(|| {
            let (report, shown) = sim.frame(black_box(80_000_000));
            recorder.record(&report, shown.spring_x_m, sim.scene(), None, &mut truths);
            black_box(shown)
        })
    });
    // The window's per-frame engine work: the live loop on a virtual clock (no load), with
    // the readouts the panel shows.
    c.bench_function("live_loop_frame_with_readouts", |b| {
        let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
            .expect("default settings are valid");
        b.iter(|| {
            live.stopwatch_mut().advance(16_666_667);
            black_box(live.frame());
            black_box(live.window_stats())
        })
    });
    // Comparison mode's engine work: six panes fed one 60 Hz frame (what `bench-render
    // --panes 6` reports as engine time, here with warm caches).
    c.bench_function("live_loop_frame_six_panes", |b| {
        let settings = LiveSettings {
            compare: true,
            ..LiveSettings::default()
        };
        let mut live =
            LiveLoop::new(VirtualStopwatch::default(), settings).expect("default panes are valid");
        b.iter(|| {
            live.stopwatch_mut().advance(16_666_667);
            black_box(live.frame())
        })
    });
    // The core's share of presentation feedback per frame: the present numbered, three
    // frames later its answer matched to its frame, scored against the model and folded
    // into the measured period and VRR test, and the readouts the panel shows of it.
    c.bench_function("live_loop_presentation_feedback_per_frame", |b| {
        let mut live = LiveLoop::new(VirtualStopwatch::default(), LiveSettings::default())
            .expect("default settings are valid");
        live.feedback(FeedbackEvent::Watching(
            FeedbackSource::WaylandPresentation,
            ClockMap::new(0, 0),
        ));
        live.frame();
        let mut waiting = [None; 4];
        let mut i = 0u64;
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                live.stopwatch_mut().advance(16_666_667);
                black_box(live.frame());
                let start = Instant::now();
                let present = live.record_present(0);
                let slot = (i % 4) as usize;
                if let Some((generation, present)) = waiting[slot].take() {
                    black_box(live.feedback(FeedbackEvent::Answer(PresentFeedback::shown(
                        present,
                        Some(generation),
                        i128::from(live.now()),
                        Some(16_666_667),
                        Some(i),
                    ))));
                }
                waiting[slot] = present;
                black_box(live.screen().measured().map(|m| m.readouts()));
                total += start.elapsed();
                i += 1;
            }
            total
        })
    });
    let trace = frames_60hz(600);
    c.bench_function("bench_all_strategies_10s_60hz", |b| {
        b.iter(|| black_box(run(&trace, None, &Strategy::ALL, &BenchSettings::default())))
    });
}

/// The live loop's frame right after the thread slept 10 ms, as the window's loop does while
/// it waits for the display (or `bench-render` while it waits for the GPU): what the frame
/// costs once the caches no longer hold its code and data.
fn after_sleep(c: &mut Criterion) {
    let mut group = c.benchmark_group("live_loop_frame_after_10ms_sleep");
    group.sample_size(10);
    for (name, compare) in [("one_pane", false), ("six_panes", true)] {
        group.bench_function(name, |b| {
            let settings = LiveSettings {
                compare,
                ..LiveSettings::default()
            };
            let mut live = LiveLoop::new(VirtualStopwatch::default(), settings)
                .expect("default settings are valid");
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    std::thread::sleep(Duration::from_millis(10));
                    let start = Instant::now();
                    live.stopwatch_mut().advance(16_666_667);
                    black_box(live.frame());
                    total += start.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, engine, after_sleep);
criterion_main!(benches);
