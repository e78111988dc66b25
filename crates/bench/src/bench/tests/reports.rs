//! The per-frame reports: the CSV holds exactly the loop's frames, with the engine's own
//! numbers, and waits for the screen without holding the run.

use super::*;
use crate::metrics::ScreenFrame;

/// What the loop said about each frame, as an independent second observer of the run.
#[derive(Default)]
struct Seen {
    /// The strategy running.
    strategy: Option<Strategy>,
    /// Per frame: the row the CSV should hold, without its screen columns.
    frames: Vec<FrameRow>,
    /// Per frame shown: its strategy and how it reached the screen.
    screen: Vec<(Strategy, ScreenFrame)>,
}

impl FrameObserver for Seen {
    fn start(&mut self, strategy: Strategy) {
        self.strategy = Some(strategy);
    }

    fn frame(&mut self, frame: &BenchFrame<'_>) {
        self.frames.push(FrameRow::of(frame));
    }

    fn screen(&mut self, screen: &ScreenFrame) {
        let strategy = self.strategy.expect("a run started");
        self.screen.push((strategy, *screen));
    }
}

/// Runs `strategies` over `frames` with the CSV and [`Seen`] watching; returns the CSV's
/// rows read back with the csv crate, what was seen, and the results.
fn csv_run(
    frames: &[Nanos],
    strategies: &[Strategy],
    settings: &BenchSettings,
) -> (Vec<FrameRow>, Seen, Vec<BenchResult>) {
    let mut observers = (FrameCsv::new(Vec::new()), Seen::default());
    let results = run_observed(frames, None, strategies, settings, &mut observers);
    let (csv, seen) = observers;
    let bytes = csv.close().expect("written to memory");
    let rows = csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<Result<Vec<FrameRow>, _>>()
        .expect("the CSV reads back");
    (rows, seen, results)
}

#[test]
fn the_csv_has_a_row_per_frame_and_strategy_with_the_engines_numbers() {
    let trace = crate::trace::generate("jitter:60:3:7", 2.0)
        .unwrap()
        .frame_times_ns;
    for display in ["cpu", "fifo:60", "mailbox:60", "vrr:48-144"] {
        let (rows, seen, results) = csv_run(&trace, &Strategy::ALL, &on(display));
        assert_eq!(rows.len(), trace.len() * Strategy::ALL.len(), "{display}");
        // The rows are the frames the loop ran, in its order, with its numbers: every
        // column but the screen's is exactly what the engine reported.
        assert_eq!(rows.len(), seen.frames.len());
        for (row, frame) in rows.iter().zip(&seen.frames) {
            let without_screen = FrameRow {
                display_ns: None,
                animation_error_ns: None,
                ..row.clone()
            };
            assert_eq!(&without_screen, frame, "{display}");
        }
        for (strategy, rows) in Strategy::ALL.iter().zip(rows.chunks(trace.len())) {
            assert!(rows.iter().all(|row| row.strategy == strategy.id()));
            assert!(rows.iter().map(|row| row.frame).eq(0..trace.len() as u64));
        }
        // A row has a display time exactly when its frame reached the screen, and the
        // screen's numbers.
        let shown: Vec<&FrameRow> = rows.iter().filter(|r| r.display_ns.is_some()).collect();
        assert_eq!(shown.len(), seen.screen.len(), "{display}");
        for (row, (strategy, screen)) in shown.iter().zip(&seen.screen) {
            assert_eq!(
                (row.strategy.as_str(), row.frame),
                (strategy.id(), screen.frame)
            );
            assert_eq!(row.display_ns, Some(screen.display_time));
            assert_eq!(
                row.animation_error_ns.map(|ns| ns as f64),
                screen.animation_error
            );
        }
        let shown_in_results: u64 = results.iter().map(|r| r.display.shown).sum();
        assert_eq!(shown.len() as u64, shown_in_results, "{display}");
        if display == "cpu" {
            assert!(
                rows.iter()
                    .all(|row| row.display_ns == Some(row.presented_ns))
            );
        }
    }
}

#[test]
fn steady_60_interpolated_rows_lag_exactly_one_step() {
    let settings = BenchSettings::default();
    let dt = settings.timestep.dt_ns();
    let (rows, _, _) = csv_run(&frames_60hz(10), &[Strategy::Interpolated], &settings);
    assert_eq!(rows.len(), 600);
    // Before the first step there is nothing to draw but the start (S = 0).
    assert_eq!((rows[0].steps, rows[0].shown_ns), (0, 0));
    for row in &rows[1..] {
        assert_eq!(row.presented_ns - row.shown_ns, dt, "frame {}", row.frame);
    }
    // T adds up the frame times, exactly.
    let mut presented = 0;
    for row in &rows {
        presented += row.frame_time_ns;
        assert_eq!(row.presented_ns, presented);
    }
}

#[test]
fn frames_a_mailbox_replaced_have_no_display_time() {
    let trace = crate::trace::generate("jitter:60:4:1", 1.0)
        .unwrap()
        .frame_times_ns;
    let (rows, _, results) = csv_run(&trace, &[Strategy::Interpolated], &on("mailbox:60"));
    let dropped = results[0].display.dropped;
    assert!(dropped > 0, "the jitter makes the mailbox replace frames");
    let unshown = rows.iter().filter(|row| row.display_ns.is_none()).count() as u64;
    // The replaced frames, and the last one, whose present lies past the trace's end.
    assert_eq!(unshown, dropped + 1);
    assert!(rows.last().is_some_and(|row| row.display_ns.is_none()));
    assert!(
        rows.iter()
            .filter(|row| row.display_ns.is_none())
            .all(|row| row.animation_error_ns.is_none())
    );
}

/// A writer that fails after `room` bytes, like a full disk.
#[derive(Debug)]
struct FullAfter {
    room: usize,
}

impl std::io::Write for FullAfter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.room == 0 {
            return Err(std::io::Error::from(std::io::ErrorKind::StorageFull));
        }
        let written = bytes.len().min(self.room);
        self.room -= written;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_write_error_is_kept_for_the_end_and_the_run_goes_on() {
    let trace = frames_60hz(10);
    let mut csv = FrameCsv::new(FullAfter { room: 4096 });
    let result = run_strategy_on(&trace, None, Strategy::Accumulator, &on("cpu"), &mut csv);
    assert_eq!(result.metrics.frames, 600);
    let error = csv.close().expect_err("the disk filled up");
    assert!(
        matches!(error.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::StorageFull),
        "{error}"
    );
}
