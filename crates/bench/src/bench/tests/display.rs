//! The bench on a display: FIFO, mailbox, VRR and the filters that fix vsync jitter.

use super::*;
use crate::display::Refresh;
use crate::metrics::ScreenFrame;
use crate::scene::ShownScene;
use crate::timestep::FrameReport;

fn with_filter(mut settings: BenchSettings, filter: &str) -> BenchSettings {
    settings.filter = FilterSpec::parse(filter).unwrap();
    settings
}

/// Runs a strategy and collects every frame as it reached the screen.
fn screen(
    frames: &[Nanos],
    strategy: Strategy,
    settings: &BenchSettings,
) -> (BenchResult, Vec<ScreenFrame>) {
    let mut shown = Vec::new();
    let result = run_strategy_on(frames, None, strategy, settings, &mut shown);
    (result, shown)
}

/// Collects every frame as it reached the screen.
impl FrameObserver for Vec<ScreenFrame> {
    fn screen(&mut self, screen: &ScreenFrame) {
        self.push(*screen);
    }
}

#[test]
fn steady_60_on_fifo_60_shows_every_frame_once_at_consecutive_refreshes() {
    let trace = frames_60hz(10);
    let refresh = Refresh::new(60.0).unwrap();
    let (result, shown) = screen(&trace, Strategy::Interpolated, &on("fifo:60"));
    // Every frame but the last is presented (its present lies past the trace's end).
    assert_eq!(result.display.presented, trace.len() as u64 - 1);
    assert_eq!(result.display.shown, result.display.presented);
    assert_eq!((result.display.dropped, result.display.repeated), (0, 0));
    assert_eq!(result.display.blocked, 0);
    // Frame i is presented when frame i + 1 starts, at refresh i + 2, and shown there.
    for (i, frame) in shown.iter().enumerate() {
        assert_eq!(frame.frame, i as u64);
        assert_eq!(frame.display_time, refresh.at(i as u64 + 2));
    }
    assert!(
        result.metrics.display_judder_ms < 1e-6,
        "{}",
        result.metrics.display_judder_ms
    );
    let accumulator = run_strategy(&trace, Strategy::Accumulator, &on("fifo:60"));
    assert!(
        accumulator.metrics.display_judder_ms > 1.0,
        "{}",
        accumulator.metrics.display_judder_ms
    );
}

#[test]
fn snapping_removes_the_vsync_wobble_at_the_screen() {
    let trace = wobble(600);
    for strategy in [Strategy::Interpolated, Strategy::Variable] {
        let plain = run_strategy(&trace, strategy, &on("fifo:60"));
        let snapped = run_strategy(&trace, strategy, &with_filter(on("fifo:60"), "snap"));
        assert!(
            plain.metrics.display_judder_ms > 1.0,
            "{strategy}: {}",
            plain.metrics.display_judder_ms
        );
        assert!(
            snapped.metrics.display_judder_ms < 1e-6,
            "{strategy}: {}",
            snapped.metrics.display_judder_ms
        );
        // On the CPU's clock the wobble is invisible either way: `T` is the sum of the
        // frame times the strategy was fed, wobbly or snapped. Only the screen tells.
        assert!(plain.metrics.judder_ms < 1e-6 || strategy == Strategy::Variable);
        assert!(snapped.metrics.judder_ms < 1e-6);
        for result in [&plain, &snapped] {
            assert_eq!(result.display.shown, 599);
            assert_eq!(result.wall_time, trace.iter().sum::<Nanos>());
        }
    }
    // The total simulated time is the total real time: exactly without a filter; with snap,
    // less the residual the filter still holds. These CPU frames are 333 ns a pair short of
    // two refreshes, so the snapped frames run 100 us ahead after 10 s; the residual stays
    // within the tolerance (2.08 ms), beyond which a frame is left unsnapped to pay it.
    let total = trace.iter().sum::<Nanos>();
    let variable = run_strategy(&trace, Strategy::Variable, &on("fifo:60"));
    assert_eq!((variable.metrics.sim_time_s * 1e9).round() as Nanos, total);
    let mut filters = FilterSpec::Snap { tolerance: None }.build(Some(16_666_667));
    let fed: Nanos = trace.iter().map(|&frame| filters.apply(frame)).sum();
    assert_eq!(fed as i64 + filters.held(), total as i64);
    assert!(filters.held().abs() < 2_083_333, "{}", filters.held());
    let snapped = run_strategy(
        &trace,
        Strategy::Variable,
        &with_filter(on("fifo:60"), "snap"),
    );
    assert_eq!((snapped.metrics.sim_time_s * 1e9).round() as Nanos, fed);
}

#[test]
fn mailbox_drops_what_144_hz_renders_beyond_60_hz_and_never_blocks() {
    let trace = crate::trace::generate("steady:144", 10.0)
        .unwrap()
        .frame_times_ns;
    let result = run_strategy(&trace, Strategy::Interpolated, &on("mailbox:60"));
    let seconds = result.wall_time as f64 / 1e9;
    assert_eq!(
        result.wall_time,
        trace.iter().sum::<Nanos>(),
        "never blocks"
    );
    assert_eq!(result.display.blocked, 0);
    let dropped_per_s = result.display.dropped as f64 / seconds;
    assert!((dropped_per_s - 84.0).abs() < 0.5, "{dropped_per_s}");
    assert!((result.display.shown_fps() - 60.0).abs() < 0.1);
}

#[test]
fn a_full_fifo_queue_slows_a_144_hz_loop_to_60_frames_per_second() {
    let trace = crate::trace::generate("steady:144", 10.0)
        .unwrap()
        .frame_times_ns;
    let result = run_strategy(&trace, Strategy::Interpolated, &on("fifo:60:2"));
    let cpu_fps = trace.len() as f64 / (result.wall_time as f64 / 1e9);
    assert!((cpu_fps - 60.0).abs() < 0.2, "{cpu_fps}");
    assert!(result.display.blocked > 0);
    assert_eq!(result.display.dropped, 0);
    // The blocking reaches the strategy: it measures 60 Hz frames, not 144 Hz ones.
    assert!((result.metrics.steps_per_frame_mean - 50.0 / 60.0).abs() < 0.01);
}

#[test]
fn vrr_shows_100_hz_frames_10_ms_apart_and_repeats_below_its_range() {
    let trace = crate::trace::generate("steady:100", 5.0)
        .unwrap()
        .frame_times_ns;
    let (result, shown) = screen(&trace, Strategy::Interpolated, &on("vrr:48-144"));
    assert_eq!(result.display.shown, trace.len() as u64 - 1);
    assert_eq!(result.display.repeated, 0);
    assert!(
        shown
            .windows(2)
            .all(|pair| pair[1].display_time - pair[0].display_time == 10_000_000)
    );
    let trace = crate::trace::generate("steady:30", 5.0)
        .unwrap()
        .frame_times_ns;
    let result = run_strategy(&trace, Strategy::Interpolated, &on("vrr:48-144"));
    assert_eq!(result.display.shown, trace.len() as u64 - 1);
    // Each 33.3 ms gap is longer than the panel holds an image at 48 Hz: one repeat each.
    assert_eq!(result.display.repeated, trace.len() as u64 - 2);
    assert!(result.refresh_grid);
}

#[test]
fn gpu_cost_delays_the_screen_but_not_the_cpu() {
    let trace = frames_60hz(5);
    let mut settings = on("mailbox:240");
    let without = run_strategy(&trace, Strategy::Interpolated, &settings);
    settings.gpu_cost = 8 * MS;
    let with = run_strategy(&trace, Strategy::Interpolated, &settings);
    assert_eq!(with.wall_time, without.wall_time);
    assert_eq!(with.metrics.latency_ms, without.metrics.latency_ms);
    let added = with.metrics.display_latency_ms - without.metrics.display_latency_ms;
    assert!((6.0..=12.5).contains(&added), "{added}");
}

#[test]
fn a_hitch_shows_at_the_screen_and_dropped_time_is_off_the_clock() {
    // Frame 59's work takes 400 ms: frame 58 stays on screen all that time, then frame 60
    // jumps. The CPU-side judder of `variable` sees nothing (its simulated time follows the
    // measured frames exactly); the screen sees the stall and the jump.
    let mut trace = frames_60hz(2);
    trace[60] = 400 * MS;
    let clamped = run_strategy(&trace, Strategy::Variable, &on("immediate:60"));
    assert_eq!(clamped.dropped, 150 * MS);
    assert!(clamped.metrics.judder_ms < 1e-6);
    assert!(clamped.metrics.display_judder_ms > 40.0);
    // The 150 ms the clamp dropped are not on the strategy's clock, at the screen as on
    // the CPU: the clamped run judders at the screen exactly as much as the unclamped one.
    let mut unclamped = on("immediate:60");
    unclamped.timestep.max_frame_time = None;
    let unclamped = run_strategy(&trace, Strategy::Variable, &unclamped);
    assert_eq!(unclamped.dropped, 0);
    let difference = clamped.metrics.display_judder_ms - unclamped.metrics.display_judder_ms;
    assert!(difference.abs() < 1e-9, "{difference}");
}

/// The bench loop as it was before displays existed: the closed-loop load model alone.
fn cpu_reference(frames: &[Nanos], strategy: Strategy, settings: &BenchSettings) -> Metrics {
    let mut sim = Simulation::new(strategy, settings.timestep, settings.scene);
    let mut recorder = crate::metrics::MetricsRecorder::default();
    let mut truths = TruthMemo::default();
    let mut previous_steps = 0;
    for &trace_frame in frames {
        let frame = trace_frame
            + ns_from_ms(settings.load.render_cost_ms)
            + previous_steps * settings.step_cost();
        let (report, shown): (FrameReport, ShownScene) = sim.frame(frame);
        recorder.record(&report, shown.spring_x_m, sim.scene(), None, &mut truths);
        previous_steps = report.steps.len();
    }
    recorder.metrics(sim.scene())
}

#[test]
fn the_cpu_display_leaves_the_cpu_side_results_unchanged() {
    let trace = crate::trace::generate("jitter:144:2:5", 5.0)
        .unwrap()
        .frame_times_ns;
    let mut settings = BenchSettings::default().with_costs_ms(3.0, 1.0).unwrap();
    settings.display = DisplaySpec::Cpu;
    for strategy in Strategy::ALL {
        let result = run_strategy(&trace, strategy, &settings);
        let reference = cpu_reference(&trace, strategy, &settings);
        assert_eq!(result.metrics, reference, "{strategy}");
        assert_eq!(result.metrics.display_judder_ms, reference.judder_ms);
        assert_eq!(result.metrics.display_latency_ms, reference.latency_ms);
        assert_eq!(result.display.shown, trace.len() as u64);
    }
}

#[test]
fn a_presentmon_capture_gives_its_own_animation_error_at_the_screen() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/traces/presentmon2-display.csv");
    let trace = crate::trace::load(&path, &crate::trace::LoadOptions::default()).unwrap();
    let display = trace.display_times();
    assert!(display.is_some_and(|display| display.anchor.is_some()));
    let mut shown = Vec::new();
    let result = run_strategy_on(
        &trace.frame_times_ns,
        display,
        Strategy::Variable,
        &on("trace"),
        &mut shown,
    );
    // The file's own columns, for Game.exe's rows; its first row has no frame time (it
    // anchors the timeline), so frame i is row i + 1.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (error_column, until_column) = (column("MsAnimationError"), column("MsUntilDisplayed"));
    let rows: Vec<Vec<&str>> = lines
        .map(|line| line.split(',').collect::<Vec<_>>())
        .filter(|fields| fields[0] == "Game.exe")
        .skip(1)
        .collect();
    assert_eq!(rows.len(), trace.len());
    let never_shown = rows.iter().filter(|r| r[until_column] == "NA").count() as u64;
    assert_eq!(result.display.dropped, never_shown);
    assert_eq!(result.display.shown, rows.len() as u64 - never_shown);
    // Every frame that has a previous shown frame in the run has the file's error.
    let mut compared = 0;
    for frame in &shown {
        let Some(error) = frame.animation_error else {
            continue;
        };
        let file: f64 = rows[frame.frame as usize][error_column].parse().unwrap();
        assert!(
            (error / 1e6 - file).abs() < 3e-4,
            "frame {}: {} ms against the file's {file} ms",
            frame.frame,
            error / 1e6
        );
        compared += 1;
    }
    // Every shown frame has one: the first is measured from the anchoring first row.
    assert_eq!(compared, result.display.shown);
    let errors: Vec<f64> = rows
        .iter()
        .filter(|row| row[error_column] != "NA")
        .map(|row| row[error_column].parse().unwrap())
        .collect();
    assert_eq!(errors.len() as u64, compared);
    let rms = (errors.iter().map(|e| e * e).sum::<f64>() / errors.len() as f64).sqrt();
    let judder = result.metrics.display_judder_ms;
    assert!((judder - rms).abs() < 1e-4, "{judder} ms against {rms} ms");
}
