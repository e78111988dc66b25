//! The metrics under each strategy, on frame sequences whose answers are known.

use super::*;
use crate::scene::{Integrator, SceneConfig};
use crate::sim::Simulation;
use crate::timestep::{Nanos, Strategy, TimestepConfig};

/// Frames of an exact 60 Hz display for `seconds`.
fn frames_60hz(seconds: u64) -> impl Iterator<Item = Nanos> {
    crate::timestep::steady_frames(60, seconds * 60).into_iter()
}

fn run(strategy: Strategy, scene: SceneConfig, frames: impl Iterator<Item = Nanos>) -> Metrics {
    let mut sim = Simulation::new(strategy, TimestepConfig::default(), scene);
    let mut recorder = MetricsRecorder::default();
    let mut truths = TruthMemo::default();
    for frame in frames {
        let (report, shown) = sim.frame(frame);
        recorder.record(&report, shown.spring_x_m, sim.scene(), None, &mut truths);
    }
    recorder.metrics(sim.scene())
}

#[test]
fn interpolated_motion_is_even_at_mismatched_rates() {
    let m = run(Strategy::Interpolated, SceneConfig::new(), frames_60hz(5));
    assert_eq!(m.judder_ms, 0.0);
    assert_eq!(m.latency_ms, 20.0, "exactly one dt behind");
}

#[test]
fn extrapolated_motion_is_even_with_no_latency() {
    let m = run(Strategy::Extrapolated, SceneConfig::new(), frames_60hz(5));
    assert_eq!(m.judder_ms, 0.0);
    assert_eq!(m.latency_ms, 0.0);
}

#[test]
fn accumulator_judders_at_mismatched_rates_but_not_at_matched_ones() {
    let m = run(Strategy::Accumulator, SceneConfig::new(), frames_60hz(5));
    // The lag cycles 16.7, 13.3, 10, 6.7, 3.3, 0 ms: the shown advance per frame is
    // 0 or 20 ms against 16.7 ms of real time.
    assert!(
        m.judder_ms > 5.0 && m.judder_ms < 10.0,
        "judder {}",
        m.judder_ms
    );
    assert!(
        (m.latency_ms - 8.333).abs() < 0.1,
        "latency {}",
        m.latency_ms
    );
    let matched = run(
        Strategy::Accumulator,
        SceneConfig::new(),
        std::iter::repeat_n(20_000_000, 300),
    );
    assert_eq!(matched.judder_ms, 0.0);
    assert_eq!(matched.latency_ms, 0.0);
}

#[test]
fn fixed_runs_ahead_when_frames_are_shorter_than_dt() {
    let m = run(Strategy::Fixed, SceneConfig::new(), frames_60hz(5));
    assert!((m.sim_time_s - 6.0).abs() < 1e-9, "300 frames of 20 ms");
    assert!(
        m.latency_ms < -400.0,
        "the picture is ahead of reality: {}",
        m.latency_ms
    );
    assert!(
        m.judder_ms > 3.0,
        "20 ms shown per 16.7 ms real: {}",
        m.judder_ms
    );
}

#[test]
fn variable_has_no_latency_but_more_error_at_low_frame_rates() {
    let slow = || std::iter::repeat_n(100_000_000u64, 50);
    let variable = run(Strategy::Variable, SceneConfig::new(), slow());
    let accumulator = run(Strategy::Accumulator, SceneConfig::new(), slow());
    assert_eq!(variable.latency_ms, 0.0);
    assert!(
        variable.position_error_max > 5.0 * accumulator.position_error_max,
        "{} vs {}",
        variable.position_error_max,
        accumulator.position_error_max
    );
}

#[test]
fn energy_drift_separates_the_integrators() {
    let drift = |integrator| {
        let mut scene = SceneConfig::new();
        scene.integrator = integrator;
        run(Strategy::Accumulator, scene, frames_60hz(5)).energy_drift
    };
    let explicit = drift(Integrator::ExplicitEuler);
    assert!(explicit > 1.0, "explicit Euler gains energy: {explicit}");
    assert!(drift(Integrator::SemiImplicitEuler).abs() < 0.1);
    assert!(drift(Integrator::Verlet).abs() < 0.01);
    let rk4 = drift(Integrator::Rk4);
    assert!(rk4 < 0.0 && rk4 > -0.01, "RK4 slowly loses energy: {rk4}");
}

#[test]
fn metrics_start_after_the_first_step() {
    let mut sim = Simulation::new(
        Strategy::Accumulator,
        TimestepConfig::default(),
        SceneConfig::new(),
    );
    let mut recorder = MetricsRecorder::default();
    let mut truths = TruthMemo::default();
    for frame in [5_000_000, 5_000_000, 5_000_000] {
        let (report, shown) = sim.frame(frame);
        recorder.record(&report, shown.spring_x_m, sim.scene(), None, &mut truths);
    }
    // No step yet: 15 ms behind would otherwise count as latency.
    assert_eq!(recorder.metrics(sim.scene()).latency_ms, 0.0);
    assert_eq!(recorder.metrics(sim.scene()).steps, 0);
}

#[test]
fn state_hash_is_stable_and_sensitive() {
    let a = run(Strategy::Accumulator, SceneConfig::new(), frames_60hz(1));
    let b = run(Strategy::Accumulator, SceneConfig::new(), frames_60hz(1));
    let c = run(Strategy::SemiFixed, SceneConfig::new(), frames_60hz(1));
    assert_eq!(a.state_hash, b.state_hash);
    assert_ne!(a.state_hash, c.state_hash);
}

/// The scene's sin, cos and exp come from the `libm` crate, not the platform's C library,
/// so a run hashes to the same value on every platform. Pinned: a change of this value is a
/// change of every recorded hash (say so in the commit), never a platform's doing.
#[test]
fn a_known_run_hashes_the_same_on_every_platform() {
    let hash = |strategy| {
        format!(
            "{:016x}",
            run(strategy, SceneConfig::new(), frames_60hz(2)).state_hash
        )
    };
    assert_eq!(
        (hash(Strategy::Accumulator), hash(Strategy::Variable)),
        ("30793b0ee5ac1e6a".to_owned(), "3d2be942dd4744a7".to_owned())
    );
}

#[test]
fn the_worst_frame_stands_beside_the_mean() {
    // Steady 60 Hz ends frame k at round(k * 1e9 / 60) ns. The accumulator shows the
    // latest 20 ms step: frame 7 ends at 116666667 ns and shows the step at 100 ms, as
    // frame 6 (at exactly 100 ms) did: 16.666667 ms behind, and the state stood still
    // while 16.666667 ms passed.
    let m = run(Strategy::Accumulator, SceneConfig::new(), frames_60hz(5));
    assert_eq!(m.latency_worst_ms, 16.666667);
    assert_eq!(m.judder_worst_ms, 16.666667);
    // Interpolation is exactly one dt behind at every frame and perfectly even.
    let m = run(Strategy::Interpolated, SceneConfig::new(), frames_60hz(5));
    assert_eq!((m.latency_worst_ms, m.judder_worst_ms), (20.0, 0.0));
    // `fixed` is furthest ahead at the last frame: 300 steps of 20 ms shown at 5 s.
    let m = run(Strategy::Fixed, SceneConfig::new(), frames_60hz(5));
    assert_eq!(m.latency_worst_ms, -1000.0);
    // On the cpu display the screen's worst frames are the CPU's.
    assert_eq!(m.display_latency_worst_ms, m.latency_worst_ms);
    assert_eq!(m.display_judder_worst_ms, m.judder_worst_ms);
}

#[test]
fn the_screen_measures_the_cpus_frames_and_then_its_own_as_a_screen_fed_every_frame_does() {
    // Frames shown at once (the `cpu` display), a clock shift among them and one right
    // before the first frame placed on a display's clock, then frames settled later: the
    // recorder keeps the screen's latency and judder as a screen recorder fed every frame
    // does, and reports each frame at the screen as it does.
    let mut sim = Simulation::new(
        Strategy::Accumulator,
        TimestepConfig::default(),
        SceneConfig::new(),
    );
    let mut recorder = MetricsRecorder::default();
    let mut screen = ScreenRecorder::default();
    let mut truths = TruthMemo::default();
    let mut started = false;
    for i in 0..60u64 {
        if i == 15 || i == 30 {
            recorder.rebase(-3_000_000);
            screen.rebase(-3_000_000);
        }
        let (report, shown) = sim.frame(7_000_000 + (i % 3) * 1_500_000);
        let (t, s) = (report.presented_time, report.shown_time);
        let display = (i >= 30).then_some(DisplayTiming {
            frame: i,
            wall: t,
            held: 0,
            predicted: None,
        });
        let at_screen =
            recorder.record(&report, shown.spring_x_m, sim.scene(), display, &mut truths);
        match display {
            None => {
                let expected = screen.shown_now(i, t, s, started);
                assert_eq!(
                    format!("{at_screen:?}"),
                    format!("{:?}", Some(expected)),
                    "frame {i}"
                );
            }
            Some(timing) => {
                assert!(at_screen.is_none());
                screen.frame(timing, t, s, started);
                let event = crate::display::DisplayEvent::Shown {
                    frame: i,
                    at: t + 4_000_000 + (i % 4) * 2_000_000,
                };
                let (got, expected) = (recorder.settle(&event), screen.settle(&event));
                assert!(expected.is_some());
                assert_eq!(format!("{got:?}"), format!("{expected:?}"), "frame {i}");
            }
        }
        started |= sim.scene().time() > 0;
    }
    let metrics = recorder.metrics(sim.scene());
    let own = screen.smoothness();
    assert_eq!(metrics.display_judged, (own.judged(), own.judder_terms()));
    for (got, expected) in [
        (metrics.display_latency_ms, own.latency_ms()),
        (metrics.display_latency_worst_ms, own.latency_worst_ms()),
        (metrics.display_judder_ms, own.judder_ms()),
        (metrics.display_judder_worst_ms, own.judder_worst_ms()),
    ] {
        assert_eq!(got.to_bits(), expected.to_bits());
    }
    assert_ne!(
        metrics.display_latency_ms, metrics.latency_ms,
        "the screen is its own"
    );
}
