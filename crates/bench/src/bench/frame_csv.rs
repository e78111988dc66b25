//! `bench --csv`: one row per frame and strategy, streamed to the file as the frames run.
//!
//! A frame's row waits until its display outcome is known (at once on the `cpu` display, a
//! present or two later on a modeled one), at most [`PENDING_CAPACITY`] rows: a frame older
//! than that is never shown. Memory does not grow with the trace.

use std::collections::VecDeque;
use std::io::Write;

use serde::{Deserialize, Serialize};

use super::{BenchFrame, BenchResult, FrameObserver};
use crate::metrics::{PENDING_CAPACITY, ScreenFrame};
use crate::timestep::{Nanos, Strategy};

/// One row of the CSV: a frame of one strategy's run. Times are integer nanoseconds, exact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameRow {
    /// The frame's index in the trace, from 0.
    pub frame: u64,
    /// The strategy's id.
    pub strategy: String,
    /// The frame time the loop measured (the trace's, the load model's and time blocked
    /// presenting, before the filters), ns.
    pub frame_time_ns: Nanos,
    /// Physics steps the frame took.
    pub steps: u64,
    /// `accumulator / dt` after the steps (the accumulator strategies; 0 for the others).
    pub alpha: f64,
    /// `T`: the real time the frame is shown at on the strategy's clock, ns.
    pub presented_ns: Nanos,
    /// `S`: the simulated time of the drawn state, ns.
    pub shown_ns: Nanos,
    /// `D`: when the frame reached the screen on the strategy's clock, ns; empty when it
    /// never did (dropped, or the last frame on a modeled display).
    pub display_ns: Option<Nanos>,
    /// `(S_i - S_j) - (D_i - D_j)` with `j` the previous shown frame, ns (PresentMon's
    /// `MsAnimationError`); empty when not shown or not judged (before the first step, or
    /// the first judged shown frame), and where PresentMon gives none: a display time or
    /// CPU start no later than the previous shown frame's.
    pub animation_error_ns: Option<i64>,
    /// The drawn spring displacement, metres.
    pub spring_shown_m: f64,
    /// Where the spring truly is at `T` (the exact solution), metres.
    pub spring_true_m: f64,
}

impl FrameRow {
    /// The row of a frame that just ran, its display outcome not known yet.
    pub fn of(frame: &BenchFrame<'_>) -> Self {
        let report = frame.report;
        FrameRow {
            frame: frame.index,
            strategy: report.strategy.id().to_owned(),
            frame_time_ns: frame.frame_time,
            steps: report.steps.len(),
            alpha: report.alpha,
            presented_ns: report.presented_time,
            shown_ns: report.shown_time,
            display_ns: None,
            animation_error_ns: None,
            spring_shown_m: frame.drawn_spring_m(),
            spring_true_m: frame.scene.true_spring(report.presented_time).x,
        }
    }
}

/// Writes a [`FrameRow`] per frame as a bench run goes (an observer of the run).
///
/// A write error stops the writing and is kept for [`Self::close`]; the run itself goes
/// on.
#[derive(Debug)]
pub struct FrameCsv<W: Write> {
    /// The CSV writer (it buffers).
    writer: csv::Writer<W>,
    /// Rows whose frame has run but whose display outcome is not known yet, oldest first.
    pending: VecDeque<FrameRow>,
    /// The first write error.
    error: Option<csv::Error>,
}

impl<W: Write> FrameCsv<W> {
    /// A CSV writer onto `out`; the header is written with the first row.
    pub fn new(out: W) -> Self {
        Self {
            writer: csv::Writer::from_writer(out),
            pending: VecDeque::with_capacity(PENDING_CAPACITY + 1),
            error: None,
        }
    }

    /// Writes what is left and flushes; returns the writer, or the first error.
    pub fn close(mut self) -> Result<W, csv::Error> {
        self.flush_pending();
        if let Some(error) = self.error {
            return Err(error);
        }
        self.writer.flush()?;
        self.writer
            .into_inner()
            .map_err(|error| csv::Error::from(error.into_error()))
    }

    /// Writes one row, unless an earlier write failed.
    fn write(&mut self, row: &FrameRow) {
        if self.error.is_none()
            && let Err(error) = self.writer.serialize(row)
        {
            self.error = Some(error);
        }
    }

    /// Writes the oldest waiting row as never shown.
    fn write_oldest_unshown(&mut self) {
        if let Some(row) = self.pending.pop_front() {
            self.write(&row);
        }
    }

    /// Writes every waiting row as never shown (the run is over).
    fn flush_pending(&mut self) {
        while !self.pending.is_empty() {
            self.write_oldest_unshown();
        }
    }
}

impl<W: Write> FrameObserver for FrameCsv<W> {
    fn start(&mut self, _strategy: Strategy) {
        self.flush_pending();
    }

    fn frame(&mut self, frame: &BenchFrame<'_>) {
        self.pending.push_back(FrameRow::of(frame));
        if self.pending.len() > PENDING_CAPACITY {
            self.write_oldest_unshown();
        }
    }

    fn screen(&mut self, screen: &ScreenFrame) {
        // Frames are shown in the order they ran: the older ones waiting never will be.
        while self
            .pending
            .front()
            .is_some_and(|row| row.frame < screen.frame)
        {
            self.write_oldest_unshown();
        }
        if self
            .pending
            .front()
            .is_some_and(|row| row.frame == screen.frame)
            && let Some(mut row) = self.pending.pop_front()
        {
            row.display_ns = Some(screen.display_time);
            // The error is a difference of integer nanoseconds, exact in an f64.
            row.animation_error_ns = screen.animation_error.map(|error| error.round() as i64);
            self.write(&row);
        }
    }

    fn finish(&mut self, _result: &BenchResult) {
        self.flush_pending();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{BenchSettings, run_strategy_on};
    use crate::display::DisplaySpec;

    /// The CSV, checked after every frame for how many rows it holds back.
    struct Bounded {
        /// The CSV, writing nowhere.
        csv: FrameCsv<std::io::Sink>,
        /// The most rows it held at once.
        most_pending: usize,
    }

    impl FrameObserver for Bounded {
        fn start(&mut self, strategy: Strategy) {
            self.csv.start(strategy);
        }

        fn frame(&mut self, frame: &BenchFrame<'_>) {
            self.csv.frame(frame);
            self.most_pending = self.most_pending.max(self.csv.pending.len());
        }

        fn screen(&mut self, screen: &ScreenFrame) {
            self.csv.screen(screen);
        }

        fn finish(&mut self, result: &BenchResult) {
            self.csv.finish(result);
            assert!(self.csv.pending.is_empty(), "every row written at the end");
        }
    }

    #[test]
    fn rows_waiting_for_the_screen_stay_few_however_long_the_run() {
        let trace = crate::trace::generate("jitter:60:6:3", 60.0)
            .unwrap()
            .frame_times_ns;
        for display in [
            "cpu",
            "fifo:60:3",
            "mailbox:60",
            "immediate:60",
            "vrr:48-144",
        ] {
            let settings = BenchSettings {
                display: DisplaySpec::parse(display).unwrap(),
                ..BenchSettings::default()
            };
            let mut bounded = Bounded {
                csv: FrameCsv::new(std::io::sink()),
                most_pending: 0,
            };
            run_strategy_on(&trace, None, Strategy::Accumulator, &settings, &mut bounded);
            assert!(
                bounded.most_pending <= PENDING_CAPACITY,
                "{display}: {}",
                bounded.most_pending
            );
            if display == "cpu" {
                // Only the frame that just ran, until it reaches the screen right after.
                assert_eq!(bounded.most_pending, 1);
            }
        }
    }
}
