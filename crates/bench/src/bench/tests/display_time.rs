//! `display-time` in the bench: drawing at the predicted display time, what it gains where
//! the forecast is right and what a wrong forecast costs.

use super::*;

#[test]
fn steady_frames_on_fifo_show_no_animation_error() {
    let trace = frames_60hz(10);
    let result = run_strategy(&trace, Strategy::DisplayTime, &on("fifo:60"));
    assert_eq!(result.metrics.display_judder_ms, 0.0);
    let forecast = result.metrics.forecast.expect("forecast on a display");
    assert_eq!((forecast.early, forecast.late), (0, 0));
    assert_eq!(forecast.frames, result.display.shown);
}

#[test]
fn the_vsync_wobble_vanishes_at_the_display_time_for_a_little_latency() {
    let trace = wobble(600);
    let paced = run_strategy(&trace, Strategy::DisplayTime, &on("fifo:60"));
    let interpolated = run_strategy(&trace, Strategy::Interpolated, &on("fifo:60"));
    assert!(
        paced.metrics.display_judder_ms < 0.05,
        "{}",
        paced.metrics.display_judder_ms
    );
    assert!(
        (interpolated.metrics.display_judder_ms - 1.667).abs() < 0.01,
        "{}",
        interpolated.metrics.display_judder_ms
    );
    // The price: the state drawn is older by the wobble's half (the longest delay, not
    // the mean), 0.83 ms.
    let extra = paced.metrics.display_latency_ms - interpolated.metrics.display_latency_ms;
    assert!((0.8..0.9).contains(&extra), "{extra}");
    // On the CPU's clock it is the one that looks uneven: `T` wobbles, its drawn time not.
    assert!(paced.metrics.judder_ms > 1.6 && interpolated.metrics.judder_ms < 1e-6);
    let forecast = paced.metrics.forecast.expect("a forecast");
    assert_eq!(
        (forecast.early, forecast.late),
        (0, 0),
        "every refresh foreseen"
    );
}

#[test]
fn a_wrong_forecast_is_counted_and_the_forecast_falls_back() {
    // 60 fps with 1 ms of jitter on a 60 Hz mailbox: every frame's present is a coin toss
    // between two refreshes, and the forecast (the shortest recent work) often loses; it
    // scores worse than a constant delay and falls back to one, so it costs no more than
    // the frames it was trusted for.
    let frames = crate::trace::generate("jitter:60:1", 20.0)
        .unwrap()
        .frame_times_ns;
    let paced = run_strategy(&frames, Strategy::DisplayTime, &on("mailbox:60"));
    let interpolated = run_strategy(&frames, Strategy::Interpolated, &on("mailbox:60"));
    let forecast = paced.metrics.forecast.expect("a forecast");
    assert!(forecast.late + forecast.early > 0, "{forecast:?}");
    let (paced, interpolated) = (
        paced.metrics.display_judder_ms,
        interpolated.metrics.display_judder_ms,
    );
    // Not quite at most: the model is right for the first frames, so it is trusted, and
    // the refresh it misses before it is judged costs what no forecast made then could
    // avoid (3.38 against 3.35 ms; 4.96 before the fallback existed).
    assert!(paced <= interpolated * 1.02, "{paced} vs {interpolated}");
}

/// Animating to the forecast display time never judders more than not forecasting
/// (`interpolated`, whose steady delay is the trivial forecast) where the frames are noise:
/// the forecast falls back to a steady delay once the model scores no better. Before, the
/// issue's two cases gave 3.06 against 2.94 ms and 0.28 against 0.12 ms (the second a
/// start where the queue fills and the drawn clock trailed the rising delays). Where the
/// screen can be foreseen (the vsync wobble, steady frames) it stays at 0.
#[test]
fn the_forecast_never_judders_more_than_not_forecasting() {
    for (spec, display) in [
        ("jitter:75:2:5", "vrr:48-144"),
        ("jitter:144:3:11", "fifo:60"),
        ("jitter:120:2:1", "vrr:48-144"),
        ("jitter:60:4:1", "fifo:60"),
        ("jitter:100:5:3", "fifo:60"),
        ("jitter:144:3:2", "fifo:144"),
        ("hitch:60:50:1", "fifo:60"),
        ("hitch:144:30:0.5", "vrr:48-144"),
        ("ramp:30:144", "vrr:48-144"),
    ] {
        let frames = crate::trace::generate(spec, 10.0).unwrap().frame_times_ns;
        let judder = |strategy| {
            run_strategy(&frames, strategy, &on(display))
                .metrics
                .display_judder_ms
        };
        let (paced, interpolated) = (
            judder(Strategy::DisplayTime),
            judder(Strategy::Interpolated),
        );
        assert!(
            paced <= interpolated + 1e-9,
            "{spec} on {display}: display-time {paced} ms, interpolated {interpolated} ms"
        );
    }
    for (frames, display) in [
        (wobble(600), "fifo:60"),
        (frames_60hz(10), "fifo:60"),
        (
            crate::trace::generate("steady:144", 10.0)
                .unwrap()
                .frame_times_ns,
            "vrr:48-144",
        ),
    ] {
        let paced = run_strategy(&frames, Strategy::DisplayTime, &on(display));
        assert!(
            paced.metrics.display_judder_ms < 0.001,
            "{display}: {paced:?}"
        );
    }
}

#[test]
fn on_the_cpu_display_it_is_interpolated_and_the_bench_says_so() {
    let trace: Vec<Nanos> = (0..900u64)
        .map(|i| 9_000_000 + (i * 7919 % 23) * 500_000)
        .collect();
    let settings = BenchSettings::default();
    let paced = run_strategy(&trace, Strategy::DisplayTime, &settings);
    let interpolated = run_strategy(&trace, Strategy::Interpolated, &settings);
    assert_eq!(paced.metrics, interpolated.metrics);
    let note = crate::bench::runner::display_time_note(&[Strategy::DisplayTime], DisplaySpec::Cpu)
        .expect("a note on the cpu display");
    assert!(
        note.contains("--display cpu") && note.contains("interpolated"),
        "{note}"
    );
    for display in ["fifo:60", "trace"] {
        let spec = DisplaySpec::parse(display).unwrap();
        assert_eq!(
            crate::bench::runner::display_time_note(&[Strategy::DisplayTime], spec),
            None
        );
    }
    for quiet in [&[Strategy::Interpolated][..], &Strategy::ALL] {
        assert_eq!(
            crate::bench::runner::display_time_note(quiet, DisplaySpec::Cpu),
            None
        );
    }
}
