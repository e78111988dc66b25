//! The one frame driver: how a frame of the lab runs, for the window and the bench alike.
//!
//! A frame loop, whatever feeds it, does the same things in the same order. The frame run
//! last is presented as the next one starts: the display model says what the screen did up
//! to it, and every pane settles those frames ([`FrameDriver::present`]). Then the new
//! frame: its measured time passes through the frame-time filters, the display model
//! places it on its clock and forecasts when it reaches the screen, and every pane's
//! [`PaneRun`] takes the same filtered time: the strategy's steps, the scene, the metrics
//! ([`FrameDriver::frame`]).
//!
//! What differs is only where time comes from. The live loop reads a stopwatch and
//! presents when the window did; the bench derives each frame's time from a trace and its
//! load model, and presents when the frame's work ends, a full queue holding it there.
//! Both are thin callers of this one type, so the bench and the window cannot differ in
//! how a frame runs (`live_matches_bench` in the live loop's tests checks the result).
//!
//! The display side is a [`FrameScreen`]: the bench's [`Presentation`], or the live
//! loop's screen, which wraps one and adds what the window measures. The panes are
//! [`DrivenPane`]s: the bench's watches its frames for an observer, the live loop's keeps
//! the trail and the history the window draws.

use crate::display::{DisplayEvent, DisplaySpec, Presentation};
use crate::input::InputEvent;
use crate::metrics::{DisplayTiming, ScreenFrame, TruthMemo};
use crate::run::PaneRun;
use crate::sim::FrameWall;
use crate::timestep::{FrameFilters, FrameReport, Nanos};

/// The display side of a frame loop.
pub trait FrameScreen {
    /// The frame run last is presented at `at`: what the screen did up to it goes to
    /// `on_event`, in order, for the panes to settle. Returns when the present returns
    /// (later than `at` when a full queue blocks it).
    fn present(&mut self, at: Nanos, on_event: impl FnMut(&DisplayEvent)) -> Nanos;

    /// A frame starts at `start`, `interval` after the one before it: its number on the
    /// display and its predicted display time, or `None` where the frame has no place on a
    /// display's clock (the `cpu` display: it is shown when its frame time says).
    fn frame_starts(&mut self, start: Nanos, interval: Nanos) -> Option<(u64, Option<Nanos>)>;

    /// The first pane's frame was shown at once, on the `cpu` display's clock.
    fn shown_now(&mut self, screen: &ScreenFrame);
}

impl FrameScreen for Presentation {
    fn present(&mut self, at: Nanos, mut on_event: impl FnMut(&DisplayEvent)) -> Nanos {
        Presentation::present(self, at, |event| on_event(&event))
    }

    fn frame_starts(&mut self, start: Nanos, interval: Nanos) -> Option<(u64, Option<Nanos>)> {
        // The `cpu` display places nothing: what it would forecast nobody reads.
        (self.display().spec() != DisplaySpec::Cpu)
            .then(|| Presentation::frame_starts(self, start, interval))
    }

    fn shown_now(&mut self, screen: &ScreenFrame) {
        self.record(screen.frame, Some(screen.display_time));
    }
}

/// One pane as the driver runs it: a [`PaneRun`] and what its owner does with each frame.
pub trait DrivenPane {
    /// The run the frames go to.
    fn run_mut(&mut self) -> &mut PaneRun;

    /// The pane's run has just taken `frame`. An owner that draws more strategies from the
    /// run's steps ([`crate::run::FollowerRun`]: the bench's strategies that step alike) draws
    /// them now, asking `truths` where the spring truly is.
    fn ran(&mut self, frame: PaneFrame<'_>, truths: &mut TruthMemo);

    /// The pane's run has just taken a display event for an earlier frame; `screen` is the
    /// frame it showed, measured, if any.
    fn settled(&mut self, event: &DisplayEvent, screen: Option<ScreenFrame>);
}

/// What a frame is, for every pane of a loop.
#[derive(Clone, Copy, Debug)]
pub struct FrameInput<'a> {
    /// When the frame started, on the display's clock (`C_i`; the live loop's stopwatch).
    pub start: Nanos,
    /// The real time since the previous frame started: the frame time measured.
    pub interval: Nanos,
    /// The frame time to pass through the filters to the strategies; `None` for a paused
    /// frame that delivers no time (it neither reaches the filters, which would pay out
    /// what they hold, nor joins the live loop's history).
    pub time: Option<Nanos>,
    /// The person's inputs received since the previous frame, in order.
    pub events: &'a [InputEvent],
}

/// What one pane's run did with a frame.
#[derive(Clone, Copy, Debug)]
pub struct PaneFrame<'a> {
    /// The frame.
    pub input: &'a FrameInput<'a>,
    /// Where it sits on the display's clock; `None` on the `cpu` display.
    pub timing: Option<DisplayTiming>,
    /// Whether the smoothness metrics judged it (a step happened in an earlier frame).
    pub judged: bool,
    /// What the engine did (what to draw for it: [`PaneRun::shown`]).
    pub report: &'a FrameReport,
    /// The frame at the screen, when it is known now (the `cpu` display).
    pub screen: Option<ScreenFrame>,
}

/// Runs frames of a set of panes (see the module doc). It holds the frame-time filters,
/// which sit between the measured frame time and every strategy.
#[derive(Clone, Debug, Default)]
pub struct FrameDriver {
    /// The filters every pane's frame time passes through.
    filters: FrameFilters,
}

impl FrameDriver {
    /// A driver whose frame times pass through `filters`.
    pub fn new(filters: FrameFilters) -> Self {
        Self { filters }
    }

    /// New filters from the next frame on (what the old ones held is let go).
    pub fn set_filters(&mut self, filters: FrameFilters) {
        self.filters = filters;
    }

    /// Time the filters hold back (negative: paid out early).
    pub fn held(&self) -> i64 {
        self.filters.held()
    }

    /// The frame run last is presented at `at` on `screen`: every pane settles what the
    /// screen did. Returns when the present returns (see [`FrameScreen::present`]).
    pub fn present<P: DrivenPane>(
        &mut self,
        screen: &mut impl FrameScreen,
        panes: &mut [P],
        at: Nanos,
    ) -> Nanos {
        screen.present(at, |event| settle(panes, event))
    }

    /// Runs one frame on every pane: the filters, the frame's place on `screen`, then each
    /// pane's run with the same filtered time, inputs and `step_work` (what a number of
    /// steps costs, for the spiral detector). `truths` answers where the spring truly is,
    /// for these panes and any others run frame by frame beside them (see [`TruthMemo`]).
    /// Returns the filtered frame time.
    pub fn frame<P: DrivenPane>(
        &mut self,
        screen: &mut impl FrameScreen,
        panes: &mut [P],
        input: FrameInput<'_>,
        step_work: impl Fn(u64) -> Nanos,
        truths: &mut TruthMemo,
    ) -> Nanos {
        let fed = input.time.map_or(0, |time| self.filters.apply(time));
        let held = self.filters.held();
        let timing = screen
            .frame_starts(input.start, input.interval)
            .map(|(frame, predicted)| DisplayTiming {
                frame,
                wall: input.start,
                held,
                predicted,
            });
        let wall = FrameWall {
            now: input.start,
            real_frame: input.interval,
        };
        for (index, pane) in panes.iter_mut().enumerate() {
            let run = pane.run_mut();
            let judged = run.judging();
            let (report, at_screen) =
                run.advance(fed, input.events, wall, &step_work, timing, truths);
            if index == 0
                && let Some(at_screen) = &at_screen
            {
                screen.shown_now(at_screen);
            }
            let frame = PaneFrame {
                input: &input,
                timing,
                judged,
                report: &report,
                screen: at_screen,
            };
            pane.ran(frame, truths);
        }
        fed
    }
}

/// Gives a display event for an earlier frame to every pane.
pub fn settle<P: DrivenPane>(panes: &mut [P], event: &DisplayEvent) {
    for pane in panes {
        let screen = pane.run_mut().settle(event);
        pane.settled(event, screen);
    }
}
