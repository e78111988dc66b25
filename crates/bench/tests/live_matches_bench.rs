//! Bench and the live loop measure the same thing by construction (both advance each pane
//! with `PaneRun::frame`): fed the same frames, every pane's metrics equal the bench's, bit
//! for bit. Architecture invariant: bench == live (ARCHITECTURE.md).

use timestep_lab_bench::bench::{BenchSettings, run_strategy};
use timestep_lab_core::display::DisplaySpec;
use timestep_lab_core::live::{
    LiveFrame, LiveLoop, LiveRequest, LiveSettings, Panes, PresentModeId, ScreenFacts,
    VirtualStopwatch,
};
use timestep_lab_core::timestep::{EnginePreset, Nanos, Strategy};

const MS: Nanos = 1_000_000;
/// One 60 Hz display period, rounded to the nanosecond.
const FRAME_60HZ: Nanos = 16_666_667;

/// The bench on the screen the live loop models when the window says nothing: FIFO at
/// 60 Hz with two images in flight, each frame presented when the next one starts.
fn bench_on_the_assumed_screen() -> BenchSettings {
    BenchSettings {
        display: DisplaySpec::parse("fifo:60:2").expect("a valid display"),
        ..BenchSettings::default()
    }
}

fn live(settings: LiveSettings) -> LiveLoop<VirtualStopwatch> {
    LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings")
}

/// Runs one frame after `render` of real time passes (rendering / waiting for the display).
fn frame_after(lab: &mut LiveLoop<VirtualStopwatch>, render: Nanos) -> LiveFrame {
    lab.stopwatch_mut().advance(render);
    lab.frame()
}

/// A loop comparing `strategies` side by side.
fn comparing(strategies: &[Strategy]) -> LiveLoop<VirtualStopwatch> {
    live(LiveSettings {
        compare: true,
        panes: Panes::new(strategies).expect("2 to 6 panes"),
        ..LiveSettings::default()
    })
}

/// A scripted, uneven sequence of frame times: jitter, a 300 ms hitch the 250 ms guard
/// clamps, and a run of short frames.
fn scripted_frames() -> Vec<Nanos> {
    let mut frames = vec![0];
    for i in 0..900u64 {
        let frame = match i {
            300 => 300 * MS,
            500..=540 => 4 * MS + (i % 3) * MS,
            _ => FRAME_60HZ + (i * 7919 % 11) * MS / 4,
        };
        frames.push(frame);
    }
    frames
}

#[test]
fn without_load_the_live_loop_measures_what_bench_measures() {
    for strategy in Strategy::CHOICES {
        let mut lab = live(LiveSettings {
            strategy,
            ..LiveSettings::default()
        });
        let mut frames = Vec::new();
        lab.frame(); // The first frame has no previous one: zero time.
        frames.push(0);
        for i in 0..600u64 {
            let frame = FRAME_60HZ + (i % 5) * MS / 3;
            frames.push(frame);
            frame_after(&mut lab, frame);
        }
        let bench = run_strategy(&frames, strategy, &bench_on_the_assumed_screen());
        assert_eq!(lab.run_metrics(), bench.metrics, "{strategy}");
        assert!(!lab.spiralling());
    }
}

#[test]
fn every_pane_is_fed_the_same_frames_and_measures_what_bench_measures() {
    let panes_sets: [&[Strategy]; 4] = [
        &Strategy::ALL,
        &[
            Strategy::Preset(EnginePreset::Godot),
            Strategy::Accumulator,
            Strategy::Preset(EnginePreset::Matterjs),
            Strategy::Preset(EnginePreset::UnrealAsync),
            Strategy::Preset(EnginePreset::Glaiel),
            Strategy::Hermite,
        ],
        &[
            Strategy::Fixed,
            Strategy::Accumulator,
            Strategy::Interpolated,
        ],
        &[Strategy::Extrapolated, Strategy::Variable],
    ];
    let frames = scripted_frames();
    // These frames come faster than 60 Hz at times: on a FIFO screen the bench would block
    // them. An immediate screen never blocks, in the window as in the bench.
    let bench_settings = BenchSettings {
        display: DisplaySpec::parse("immediate:144").expect("a valid display"),
        ..BenchSettings::default()
    };
    for strategies in panes_sets {
        let mut lab = comparing(strategies);
        lab.request(LiveRequest::Screen(ScreenFacts {
            present_mode: Some(PresentModeId::Immediate),
            monitor_hz: Some(144.0),
        }))
        .expect("the loop takes it");
        lab.frame();
        for &frame in &frames[1..] {
            frame_after(&mut lab, frame);
        }
        assert_eq!(lab.panes().len(), strategies.len());
        for (pane, &strategy) in lab.panes().iter().zip(strategies) {
            assert_eq!(pane.strategy(), strategy);
            let fed: Vec<Nanos> = pane.history().iter().map(|s| s.fed).collect();
            assert_eq!(
                fed, frames,
                "{strategy}: the frame times its engine received"
            );
            let bench = run_strategy(&frames, strategy, &bench_settings);
            assert_eq!(pane.run_metrics(), bench.metrics, "{strategy}");
        }
    }
}
