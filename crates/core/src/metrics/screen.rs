//! Smoothness at the screen: the frames a display showed, judged by their display times.
//!
//! For a shown frame `i` with `j` the previous shown one, the animation error is
//! `(S_i - S_j) - (D_i - D_j)`: PresentMon's `MsAnimationError` (simulated time elapsed minus
//! display time elapsed). Display judder is its RMS over the run, display latency the mean
//! of `D_i - S_i`. A frame's display outcome arrives after the frame ran (at its present,
//! or later for a mailbox), so each frame waits in a short queue until it is settled.
//!
//! Where PresentMon gives a frame no animation error, so does the lab (its
//! `AnimationErrorTracker` and `DisplayFrameQueue`): the first shown frame of a timeline;
//! a frame never shown; and a shown frame whose display time, or whose CPU start, is no
//! later than the previous shown frame's (no display change, or no simulation step, in
//! PresentMon's terms), which restarts the timeline there. A capture's first row only
//! anchors its timeline ([`ScreenRecorder::anchor`]), so the first frame after it has an
//! error.

use super::Smoothness;
use crate::display::{DisplayEvent, FORECAST_TOLERANCE};
use crate::timestep::Nanos;

/// Frames that can wait for their display outcome: presented ones not yet settled plus the
/// one being built. A display model settles a frame at its present or, for a mailbox, at
/// the next present, so two are ever open; the platform's presentation feedback answers a
/// few frames late, and is forgotten after [`crate::feedback::IN_FLIGHT`] presents, so as
/// many may wait. A frame older than the last this many recorded is never shown: whoever
/// waits for frames' outcomes can wait for this many.
pub const PENDING_CAPACITY: usize = crate::feedback::IN_FLIGHT;

/// A frame that ran and waits to be shown or dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct PendingFrame {
    /// Its sequence number on the display.
    frame: u64,
    /// `S_i`: simulated time of the drawn state.
    shown_time: Nanos,
    /// Whether smoothness metrics count it.
    judged: bool,
    /// `C_i`: when the frame started on the display's clock.
    wall: Nanos,
    /// `T_i + held_i - C_i`: the frame's time on the strategy's clock (what its frame times
    /// add up to before a filter held any back) less its CPU start on the display's clock.
    /// Added to a display time, it puts `D_i` on the strategy's clock, as `T_i` is: time
    /// the strategy was never fed (paused, scaled, dropped by the guards, or before a
    /// reset) does not count, and a frame's display delay does.
    base: i128,
    /// How far the strategy's clock moved (a resync) between the previous frame and this
    /// one, ns.
    rebase: i64,
    /// When it was predicted to reach the screen, on the display's clock.
    predicted: Option<Nanos>,
}

/// How the forecast of display times ([`crate::display::Forecast`], what `display-time`
/// draws to) did over the shown frames that had one: a frame's error is when it reached
/// the screen less when it was predicted to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ForecastErrors {
    /// Shown frames with a forecast.
    pub frames: u64,
    /// Of them, shown earlier than forecast (by more than [`FORECAST_TOLERANCE`]).
    pub early: u64,
    /// Of them, shown later than forecast (by more than [`FORECAST_TOLERANCE`]).
    pub late: u64,
    /// The errors' magnitudes added up, ns.
    pub abs_sum: u64,
    /// The largest error's magnitude, ns.
    pub worst: Nanos,
}

impl ForecastErrors {
    /// Mean magnitude of the error, ms (0 without frames).
    pub fn mean_abs_ms(&self) -> f64 {
        if self.frames == 0 {
            0.0
        } else {
            self.abs_sum as f64 / self.frames as f64 / 1e6
        }
    }

    /// Counts a frame shown at `at`, predicted for `predicted`.
    fn count(&mut self, at: Nanos, predicted: Nanos) {
        let error = at.abs_diff(predicted);
        self.frames += 1;
        self.early += u64::from(at.saturating_add(FORECAST_TOLERANCE) < predicted);
        self.late += u64::from(at > predicted.saturating_add(FORECAST_TOLERANCE));
        self.abs_sum = self.abs_sum.saturating_add(error);
        self.worst = self.worst.max(error);
    }
}

/// Buckets of the refresh-unit histograms: 0 to 6 refreshes, and 7 or more.
pub const REFRESH_BUCKETS: usize = 8;

/// Shown frames counted in whole refreshes of the display (Android's Swappy reports its
/// histograms so): how long each took from its start to the screen, and how far apart
/// shown frames were.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RefreshHistograms {
    /// The refresh, ns: the display's period (VRR: its fastest).
    pub unit: Nanos,
    /// Shown frames by display latency, frame start (`C_i`) to the screen, in refreshes
    /// rounded up: bucket `n` counts latencies over `n - 1` and up to `n` refreshes (the
    /// last bucket, all longer).
    pub latency: [u64; REFRESH_BUCKETS],
    /// Shown frames by the gap from the previous shown frame, in refreshes to the nearest
    /// (1: every refresh a new image; 2: one repeat between), the last bucket all longer.
    pub gaps: [u64; REFRESH_BUCKETS],
}

impl RefreshHistograms {
    /// Counts a frame that started at `wall` and reached the screen at `at`, `gap` after
    /// the previous shown frame (`None` for the first).
    fn count(&mut self, wall: Nanos, at: Nanos, gap: Option<Nanos>) {
        let last = REFRESH_BUCKETS as u64 - 1;
        let latency = at.saturating_sub(wall).div_ceil(self.unit).min(last);
        self.latency[latency as usize] += 1;
        if let Some(gap) = gap {
            let gap = gap.saturating_add(self.unit / 2) / self.unit;
            self.gaps[gap.min(last) as usize] += 1;
        }
    }
}

/// Where a frame sits on the display's clock, for [`ScreenRecorder::frame`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DisplayTiming {
    /// Its sequence number on the display.
    pub frame: u64,
    /// `C_i`: when the frame started on the display's clock.
    pub wall: Nanos,
    /// Time the frame filters held back after this frame (negative: paid out early).
    pub held: i64,
    /// When the frame is predicted to reach the screen, on the display's clock
    /// ([`crate::display::Forecast`]); `None` when nothing predicts it.
    pub predicted: Option<Nanos>,
}

impl DisplayTiming {
    /// The predicted time from the frame's start to the screen.
    pub fn predicted_delay(&self) -> Option<Nanos> {
        self.predicted.map(|at| at.saturating_sub(self.wall))
    }
}

/// One frame as it reached the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenFrame {
    /// Its sequence number on the display.
    pub frame: u64,
    /// `D_i` on the strategy's clock (the display time less the offset).
    pub display_time: Nanos,
    /// `S_i`.
    pub shown_time: Nanos,
    /// `(S_i - S_j) - (D_i - D_j)`, ns; `None` for the first judged shown frame.
    pub animation_error: Option<f64>,
}

/// Display latency and judder over the shown frames, without allocating.
#[derive(Clone, Copy, Debug)]
pub struct ScreenRecorder {
    /// Frames waiting for their outcome, oldest at `head`.
    pending: [PendingFrame; PENDING_CAPACITY],
    /// Index of the oldest pending frame.
    head: usize,
    /// Pending frames.
    len: usize,
    /// Latency and judder sums over shown frames.
    smoothness: Smoothness,
    /// Clock shift to attach to the next frame recorded (see [`Self::rebase`]).
    next_rebase: i64,
    /// Clock shifts of frames forgotten unshown, for the next shown frame to apply.
    carried_rebase: i64,
    /// The previous shown frame on the display's clock: when it reached the screen and when
    /// it started (`C`), for PresentMon's rules on which frames have an animation error.
    previous_shown: Option<(Nanos, Nanos)>,
    /// Whether the run started from a shown frame ([`Self::anchor`]).
    anchored: bool,
    /// Shown frames in whole refreshes, when the display has refreshes
    /// ([`Self::count_refreshes`]).
    refreshes: Option<RefreshHistograms>,
    /// How the display-time forecast did.
    forecast: ForecastErrors,
}

impl Default for ScreenRecorder {
    fn default() -> Self {
        Self {
            pending: [PendingFrame::default(); PENDING_CAPACITY],
            head: 0,
            len: 0,
            smoothness: Smoothness::default(),
            next_rebase: 0,
            carried_rebase: 0,
            previous_shown: None,
            anchored: false,
            refreshes: None,
            forecast: ForecastErrors::default(),
        }
    }
}

impl ScreenRecorder {
    /// A frame ran: remembers what it drew until the display settles it. `timing` places
    /// the frame on the display's clock.
    pub fn frame(
        &mut self,
        timing: DisplayTiming,
        presented_time: Nanos,
        shown_time: Nanos,
        judged: bool,
    ) {
        if self.len == PENDING_CAPACITY {
            self.forget();
        }
        let base = i128::from(presented_time) + i128::from(timing.held) - i128::from(timing.wall);
        self.pending[(self.head + self.len) % PENDING_CAPACITY] = PendingFrame {
            frame: timing.frame,
            shown_time,
            judged,
            wall: timing.wall,
            base,
            rebase: std::mem::take(&mut self.next_rebase),
            predicted: timing.predicted,
        };
        self.len += 1;
    }

    /// Takes a display event: a shown frame is measured and returned; a dropped one is
    /// forgotten. Frames older than the event's that were never settled are forgotten too.
    pub fn settle(&mut self, event: &DisplayEvent) -> Option<ScreenFrame> {
        let (frame, at) = match *event {
            DisplayEvent::Shown { frame, at } => (frame, Some(at)),
            DisplayEvent::Dropped { frame } => (frame, None),
            DisplayEvent::Repeated { .. } | DisplayEvent::Torn { .. } => return None,
        };
        while self.len > 0 && self.pending[self.head].frame < frame {
            self.forget();
        }
        if self.len == 0 || self.pending[self.head].frame != frame {
            return None;
        }
        let Some(at) = at else {
            self.forget();
            return None;
        };
        let pending = self.pop();
        if let Some(predicted) = pending.predicted {
            self.forecast.count(at, predicted);
        }
        let display_time = (i128::from(at) + pending.base).clamp(0, i128::from(Nanos::MAX));
        // PresentMon's rule: no display change or no step since the previous shown frame
        // gives no animation error, and the timeline goes on from this frame.
        let previous = self.previous_shown.replace((at, pending.wall));
        if let Some(refreshes) = &mut self.refreshes {
            let gap = previous.map(|(previous_at, _)| at.saturating_sub(previous_at));
            refreshes.count(pending.wall, at, gap);
        }
        let restart = previous.is_some_and(|(previous_at, previous_wall)| {
            at <= previous_at || pending.wall <= previous_wall
        });
        Some(self.shown(pending.frame, display_time as Nanos, pending, restart))
    }

    /// The run starts from a shown frame: the state at simulated time 0, from a frame that
    /// started at time 0 and reached the screen at `at` on the display's clock (a
    /// PresentMon capture's first row, which only anchors the capture's timeline). The
    /// first frame shown is measured from it, and judged once its scene has moved (see
    /// [`Self::anchored`]). Call it before the first frame.
    pub fn anchor(&mut self, at: Nanos) {
        self.smoothness.record(at, 0, false);
        self.previous_shown = Some((at, 0));
        self.anchored = true;
    }

    /// Whether the run started from a shown frame ([`Self::anchor`]).
    pub fn anchored(&self) -> bool {
        self.anchored
    }

    /// Counts the shown frames in whole refreshes of `unit` ns from now on (see
    /// [`RefreshHistograms`]); a `unit` of 0 counts nothing.
    pub fn count_refreshes(&mut self, unit: Nanos) {
        self.refreshes = (unit > 0).then_some(RefreshHistograms {
            unit,
            ..RefreshHistograms::default()
        });
    }

    /// The shown frames in whole refreshes, if counted.
    pub fn refreshes(&self) -> Option<RefreshHistograms> {
        self.refreshes
    }

    /// How the display-time forecast did; `None` when no shown frame had one.
    pub fn forecast(&self) -> Option<ForecastErrors> {
        (self.forecast.frames > 0).then_some(self.forecast)
    }

    /// Records a frame shown at `display_time` on the strategy's clock at once (the `cpu`
    /// display, where `D_i = T_i`).
    pub fn shown_now(
        &mut self,
        frame: u64,
        display_time: Nanos,
        shown_time: Nanos,
        judged: bool,
    ) -> ScreenFrame {
        let pending = PendingFrame {
            frame,
            shown_time,
            judged,
            wall: display_time,
            base: 0,
            rebase: std::mem::take(&mut self.next_rebase),
            predicted: None,
        };
        self.shown(frame, display_time, pending, false)
    }

    /// Forgets the frames waiting for an outcome (after a reset).
    pub fn clear_pending(&mut self) {
        self.len = 0;
    }

    /// The strategy's clock moves by `shift` ns before the next frame (a resync, see
    /// [`crate::timestep::Engine::resync`]): display times before and after it are compared
    /// on one clock.
    pub fn rebase(&mut self, shift: i64) {
        self.next_rebase = self.next_rebase.saturating_add(shift);
    }

    /// Latency and judder over the judged shown frames: `D_i - S_i` and the animation
    /// errors.
    pub fn smoothness(&self) -> &Smoothness {
        &self.smoothness
    }

    /// Takes over `smoothness` as its own latency and judder so far: those of frames each
    /// shown at its `T_i` (the `cpu` display), measured by their CPU clock, which for
    /// such frames is the screen's, and with every clock shift so far applied (none
    /// waits for the next frame).
    pub fn adopt(&mut self, smoothness: Smoothness) {
        self.smoothness = smoothness;
        self.next_rebase = 0;
    }

    /// Measures one shown frame; a `restart` has no animation error.
    fn shown(
        &mut self,
        frame: u64,
        display_time: Nanos,
        pending: PendingFrame,
        restart: bool,
    ) -> ScreenFrame {
        let shift = std::mem::take(&mut self.carried_rebase).saturating_add(pending.rebase);
        if shift != 0 {
            self.smoothness.rebase(shift);
        }
        let (t, s, judged) = (display_time, pending.shown_time, pending.judged);
        let animation_error = if restart {
            self.smoothness.record_restart(t, s, judged);
            None
        } else {
            self.smoothness.record(t, s, judged)
        };
        ScreenFrame {
            frame,
            display_time,
            shown_time: pending.shown_time,
            animation_error,
        }
    }

    /// Removes the oldest pending frame (there is one), never shown: its clock shift waits
    /// for the next shown frame.
    fn forget(&mut self) {
        let forgotten = self.pop();
        self.carried_rebase = self.carried_rebase.saturating_add(forgotten.rebase);
    }

    /// Removes and returns the oldest pending frame (there is one).
    fn pop(&mut self) -> PendingFrame {
        let oldest = self.pending[self.head];
        self.head = (self.head + 1) % PENDING_CAPACITY;
        self.len -= 1;
        oldest
    }
}
