//! The long-run soak: 24 simulated hours of a 144 Hz trace through every strategy, as `bench`
//! runs it (a generated trace, made as it runs), twice.
//!
//! Per strategy, on every frame: real time is exactly accounted for (`T + dropped` is the
//! frame times fed), simulated time is exactly the steps taken, and the two ledgers agree
//! (`S_latest + accumulator = T + fixed's lead`; for the accumulator family, `steps * dt +
//! accumulator + dropped = frame times`). Over the whole run: memory stays bounded (the peak
//! resident set after a day is within a few MiB of the peak after an hour; keeping 8 bytes a
//! frame would add 95 MiB), and the second day gives exactly the results and state hashes of
//! the first.
//!
//! Ignored by `cargo test` (about a minute in release, far longer in debug). Run it with
//!
//! ```sh
//! cargo test --release --no-default-features --test soak -- --ignored --nocapture
//! ```

use timestep_lab_bench::bench::{
    BenchFrame, BenchResult, BenchSettings, FrameObserver, run_observed,
};
use timestep_lab_bench::trace::{FrameSource, GeneratedTrace};
use timestep_lab_core::metrics::FrameStats;
use timestep_lab_core::timestep::{Nanos, Strategy};

/// 144 Hz with 2 ms of seeded noise: every strategy sees uneven frames (semi-fixed's
/// remainder steps, the accumulator's 0, 1 and 2 steps, variable's uneven steps), still
/// 144 frames a second on average.
const SPEC: &str = "jitter:144:2:24";

/// A simulated day, s.
const DAY_S: f64 = 86_400.0;

/// How much the peak resident set may grow from an hour's run to a day's, KiB. A day has
/// 24 times the frames of an hour: at 8 bytes a frame (the frame times held in memory) the
/// peak would grow by 95 MiB; the 99th-percentile tail a run keeps grows by under 1 MiB.
const PEAK_GROWTH_LIMIT_KIB: u64 = 16 * 1024;

/// Checks the time accounting of every frame of a run.
#[derive(Debug, Default)]
struct Ledger {
    /// The step size, ns.
    dt: Nanos,
    /// The strategy running.
    strategy: Option<Strategy>,
    /// Frames seen in this run.
    frames: u64,
    /// The frame times given to the engine so far, ns.
    fed: u128,
    /// Time the guards dropped so far, ns.
    dropped: u128,
    /// Simulated time the steps advanced, ns.
    stepped: u128,
    /// Steps taken.
    steps: u64,
    /// `fixed`'s lead: what its `dt` steps simulated beyond the frame time they were given.
    fixed_lead: i128,
    /// The accumulator after the last frame, ns.
    accumulator: Nanos,
}

impl FrameObserver for Ledger {
    fn start(&mut self, strategy: Strategy) {
        *self = Self {
            dt: self.dt,
            strategy: Some(strategy),
            ..Self::default()
        };
    }

    fn frame(&mut self, frame: &BenchFrame<'_>) {
        let report = frame.report;
        let strategy = report.strategy;
        assert_eq!(Some(strategy), self.strategy);
        assert_eq!(frame.index, self.frames, "{strategy}: frames in order");
        // No load, filter or modeled display: the engine gets the trace's frame as it is.
        assert_eq!(report.frame_time, frame.frame_time, "{strategy}");
        self.frames += 1;
        self.fed += u128::from(report.frame_time);
        self.dropped += u128::from(report.dropped);
        self.stepped += u128::from(report.steps.total());
        self.steps += report.steps.len();
        if strategy == Strategy::Fixed && report.used > 0 {
            self.fixed_lead += i128::from(self.dt) - i128::from(report.used);
        }
        self.accumulator = report.accumulator;
        let at = frame.index;
        // Real time: what is shown plus what was dropped is exactly what was fed.
        assert_eq!(
            u128::from(report.presented_time) + self.dropped,
            self.fed,
            "{strategy}, frame {at}: T + dropped"
        );
        // Simulated time: exactly the steps taken.
        assert_eq!(
            u128::from(report.latest_time),
            self.stepped,
            "{strategy}, frame {at}: S"
        );
        // The two agree: the latest state and the time carried are the time shown, plus
        // what `fixed` simulated beyond it.
        assert_eq!(
            i128::from(report.latest_time) + i128::from(report.accumulator),
            i128::from(report.presented_time) + self.fixed_lead,
            "{strategy}, frame {at}: S + accumulator = T + lead"
        );
        if strategy.carries_accumulator() {
            assert!(report.accumulator < self.dt, "{strategy}, frame {at}");
            assert_eq!(
                u128::from(self.steps) * u128::from(self.dt)
                    + u128::from(report.accumulator)
                    + self.dropped,
                self.fed,
                "{strategy}, frame {at}: steps * dt + accumulator + dropped"
            );
        }
    }

    fn finish(&mut self, result: &BenchResult) {
        let strategy = result.strategy;
        assert!(!result.frozen && !result.spiral, "{strategy}");
        assert_eq!(result.metrics.frames, self.frames, "{strategy}");
        assert_eq!(result.metrics.steps, self.steps, "{strategy}");
        assert_eq!(u128::from(result.wall_time), self.fed, "{strategy}");
        assert_eq!(u128::from(result.dropped), self.dropped, "{strategy}");
    }
}

/// What one soak run gives: the trace's statistics and each strategy's result.
type Outcome = (Option<FrameStats>, Vec<BenchResult>);

/// Runs every strategy over `duration_s` of the trace as `bench` does, checking the ledgers.
fn soak(duration_s: f64) -> Outcome {
    let trace = GeneratedTrace::new(SPEC, duration_s).expect("a valid spec");
    let settings = BenchSettings::default();
    let mut ledger = Ledger {
        dt: settings.timestep.dt_ns(),
        ..Ledger::default()
    };
    let results = run_observed(&trace, None, &Strategy::ALL, &settings, &mut ledger);
    assert_eq!(results.len(), Strategy::ALL.len());
    for result in &results {
        assert_eq!(result.metrics.frames, trace.frame_count());
        assert_eq!(result.wall_time, trace.total_ns());
    }
    let stats = FrameStats::from_passes(|| trace.frame_times());
    (stats, results)
}

/// The process's peak resident set so far, KiB (`VmHWM`); `None` where `/proc` does not say.
fn peak_resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[ignore = "24 simulated hours through every strategy, twice: about a minute in release"]
fn a_day_at_144_hz_keeps_exact_time_bounded_memory_and_the_same_state() {
    let started = std::time::Instant::now();
    // An hour first: every buffer a run keeps reaches its working size.
    soak(DAY_S / 24.0);
    let after_hour = peak_resident_kib();

    let first = soak(DAY_S);
    let after_day = peak_resident_kib();
    let second = soak(DAY_S);
    let after_two_days = peak_resident_kib();

    let frames = first.1[0].metrics.frames;
    // A day at exactly 144 Hz is 12,441,600 frames; the noise makes them a little longer.
    assert_eq!(frames, 12_440_084);
    for result in &first.1 {
        eprintln!(
            "{:>12}: {} frames, {} steps, state {:016x}",
            result.strategy.id(),
            result.metrics.frames,
            result.metrics.steps,
            result.metrics.state_hash
        );
    }
    assert_eq!(first, second, "the same day twice gives the same results");
    if let (Some(hour), Some(day), Some(two_days)) = (after_hour, after_day, after_two_days) {
        eprintln!(
            "peak resident set: {hour} KiB after an hour, {day} KiB after a day, {two_days} \
             KiB after the second day; {:.1} s",
            started.elapsed().as_secs_f64()
        );
        assert!(
            two_days.saturating_sub(hour) <= PEAK_GROWTH_LIMIT_KIB,
            "memory grew with the run: {hour} KiB after an hour, {day} KiB after a day, \
             {two_days} KiB after two"
        );
    } else {
        eprintln!("no /proc/self/status here: memory not measured");
    }
}
