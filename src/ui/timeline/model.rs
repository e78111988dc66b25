//! The timeline's pure model: the focus pane's frames in the window, placed on the axis in
//! integer nanoseconds, with their hitches and shades. The modeled screen's refreshes,
//! mapped from the stopwatch onto the axis, are in `refreshes.rs`; where each step ends and
//! where a pane's newest state lies when it is off the axis, in `steps.rs`. No egui in any
//! of the three, so all of it is tested headless (`tests/`).

use crate::live::{FrameSample, History, OnScreen, RefreshKind, RefreshMark};
use crate::stats::upper_median;
use crate::timestep::{Nanos, ms_from_ns, shifted};

use super::{TIMELINE_MIN_FRAMES, TIMELINE_WINDOW};

// A frame is a hitch when its real frame time is more than this many times the median,
// as in the bench's trace statistics.
pub(super) use crate::metrics::HITCH_FACTOR;

/// One render frame on the axis.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct TimelineFrame {
    /// `T_{i-1}`: where the frame starts on the axis.
    pub(super) start: Nanos,
    /// `wall_{i-1}`: when the frame before started on the stopwatch, the stopwatch time
    /// that maps to `start`.
    pub(super) start_wall: Nanos,
    /// Simulated time of the latest state before the frame's steps: where they start.
    pub(super) steps_from: Nanos,
    /// The focus pane's sample; its `presented_time` (`T_i`) is where the frame ends.
    pub(super) sample: FrameSample,
    /// Whether its real frame time is more than [`HITCH_FACTOR`] times the window's median.
    pub(super) hitch: bool,
    /// Which of the two alternating shades its box takes; stable as the window slides.
    pub(super) shade: bool,
}

impl TimelineFrame {
    /// `T_i`: where the frame ends on the axis.
    pub(super) fn end(&self) -> Nanos {
        self.sample.presented_time
    }

    /// `T_i - S_i`: how far the shown state is behind the time it is shown at (negative
    /// when ahead).
    pub(super) fn latency_ms(&self) -> f64 {
        (i128::from(self.sample.presented_time) - i128::from(self.sample.shown_time)) as f64 / 1e6
    }

    /// What the screen did with the frame's image, for the tooltip: as the platform
    /// measured it (`measured`), or as the model says.
    pub(super) fn screen_text(&self, measured: bool) -> String {
        match (self.sample.screen, measured) {
            (OnScreen::Shown { at, .. }, _) => format!(
                "on screen {:.2} ms after it started ({})",
                ms_from_ns(at.saturating_sub(self.sample.wall)),
                if measured { "measured" } else { "modeled" }
            ),
            (OnScreen::Dropped, false) => {
                "dropped: replaced before a refresh showed it (modeled)".to_owned()
            }
            (OnScreen::Dropped, true) => "discarded: never shown (measured)".to_owned(),
            (OnScreen::Pending, false) => "not on screen yet".to_owned(),
            (OnScreen::Pending, true) => "not on screen yet, or not answered yet".to_owned(),
        }
    }

    /// Whether the modeled screen never showed the frame's image.
    pub(super) fn dropped_image(&self) -> bool {
        self.sample.screen == OnScreen::Dropped
    }
}

/// The focus pane's frames in the window, on the axis; rebuilt in place every frame.
#[derive(Clone, Debug, Default)]
pub(super) struct TimelineModel {
    /// The frames, oldest first.
    pub(super) frames: Vec<TimelineFrame>,
    /// The modeled screen's refreshes in the window, oldest first (see
    /// [`Self::place_refreshes`]).
    pub(super) refreshes: Vec<TimelineRefresh>,
    /// Where the measured screen's new images reached it in the window, on the axis, in
    /// order (see [`Self::place_measured`]).
    pub(super) measured: Vec<Nanos>,
    /// Axis time at the left edge of the strip.
    pub(super) axis_start: Nanos,
    /// Axis time at the right edge of the strip (greater than `axis_start`).
    pub(super) axis_end: Nanos,
    /// Median real frame time of the window's frames (0 when there are none).
    pub(super) median_frame: Nanos,
    /// Reused buffer for the median.
    scratch: Vec<Nanos>,
    /// Wall time and shade of the newest frame last time, so shades do not flicker as the
    /// window slides by one frame.
    shade_anchor: Option<(Nanos, bool)>,
}

impl TimelineModel {
    /// Forgets every frame.
    pub(super) fn clear(&mut self) {
        self.frames.clear();
        self.refreshes.clear();
        self.measured.clear();
        self.median_frame = 0;
        (self.axis_start, self.axis_end) = (0, TIMELINE_WINDOW);
    }

    /// Recomputes the frames of the last [`TIMELINE_WINDOW`] of `history`, and forgets the
    /// refreshes ([`Self::place_refreshes`] places them on the new frames).
    pub(super) fn rebuild(&mut self, history: &History) {
        self.clear();
        self.frames.extend(
            window_frames(history).map(|(before, sample)| TimelineFrame {
                // A resync moved `T` between the two: `before` ends on the moved clock.
                start: shifted(before.presented_time, sample.rebase).min(sample.presented_time),
                start_wall: before.wall.min(sample.wall),
                steps_from: before.latest_time,
                sample: *sample,
                hitch: false,
                shade: false,
            }),
        );
        let (Some(first), Some(last)) = (self.frames.first(), self.frames.last()) else {
            self.shade_anchor = None;
            return;
        };
        (self.axis_start, self.axis_end) = (first.start, last.end());
        if self.axis_end <= self.axis_start {
            // Paused for the whole window: show the last window of simulated time.
            self.axis_start = self.axis_end.saturating_sub(TIMELINE_WINDOW);
            self.axis_end = self.axis_start + TIMELINE_WINDOW;
        }

        self.scratch.clear();
        self.scratch
            .extend(self.frames.iter().map(|f| f.sample.real_frame));
        self.median_frame = upper_median(&mut self.scratch).unwrap_or(0);
        let threshold = self.median_frame.saturating_mul(HITCH_FACTOR);
        let anchor = self.shade_anchor.and_then(|(wall, shade)| {
            let index = self.frames.partition_point(|f| f.sample.wall < wall);
            (self.frames.get(index)?.sample.wall == wall).then_some((index, shade))
        });
        let (anchor_index, anchor_shade) = anchor.unwrap_or((0, false));
        for (index, frame) in self.frames.iter_mut().enumerate() {
            frame.hitch = self.median_frame > 0 && frame.sample.real_frame > threshold;
            frame.shade = anchor_shade ^ ((index + anchor_index) % 2 == 1);
        }
        self.shade_anchor = self.frames.last().map(|f| (f.sample.wall, f.shade));
    }

    /// The frame at axis time `t`: the one whose interval contains it, else (before the
    /// first, after the last, or among zero-width paused frames) the one ending nearest.
    pub(super) fn frame_near(&self, t: f64) -> Option<usize> {
        let last = self.frames.len().checked_sub(1)?;
        let after = self.frames.partition_point(|f| (f.end() as f64) < t);
        if after <= last && (self.frames[after].start as f64) < t {
            return Some(after);
        }
        let distance = |index: usize| (self.frames[index].end() as f64 - t).abs();
        let candidates = [after.saturating_sub(1), after.min(last)];
        candidates
            .into_iter()
            .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
    }
}

/// Longest frame the timeline reaches back past [`TIMELINE_WINDOW`] for, to show
/// [`TIMELINE_MIN_FRAMES`]: four windows (2 s), far beyond a slow renderer's frames.
const MAX_REACHED_FRAME: Nanos = 4 * TIMELINE_WINDOW;

/// The samples of the last [`TIMELINE_WINDOW`] (at least [`TIMELINE_MIN_FRAMES`] of them,
/// reaching back no further than a frame longer than [`MAX_REACHED_FRAME`]) of
/// `history`, each with the sample before it
/// (whose `presented_time` and `latest_time` are where this frame's interval and steps
/// start), oldest first. When the history keeps no sample before the window, its oldest
/// sample only bounds the next one.
pub(super) fn window_frames(
    history: &History,
) -> impl Iterator<Item = (&FrameSample, &FrameSample)> + '_ {
    let recent = history.recent(TIMELINE_WINDOW).count();
    // Reaching back for the fewest frames stops at a frame far longer than the window (a
    // frozen frame, a breakpoint): one such frame would stretch the axis to its length for
    // as many frames as it takes to leave the last few.
    let reachable = history
        .iter()
        .rev()
        .skip(recent)
        .take(TIMELINE_MIN_FRAMES.saturating_sub(recent))
        .take_while(|sample| sample.fed <= MAX_REACHED_FRAME)
        .count();
    // A resync moved `T` (the axis) at its frame: the frames before it are on another
    // clock, so the window starts there.
    let since_rebase = history
        .iter()
        .rev()
        .take(recent + reachable)
        .position(|sample| sample.rebase != 0)
        .map_or(usize::MAX, |back| back + 1);
    let count = (recent + reachable).min(since_rebase);
    // `iter_from` starts at the oldest sample wanted directly; skipping through the whole
    // history instead cost a step per kept frame (8192 of them), per pane, per frame.
    let mut samples = history.iter_from(history.len().saturating_sub(count + 1));
    let first = samples.next();
    samples.scan(first, |previous, sample| {
        let before = previous.replace(sample)?;
        Some((before, sample))
    })
}

/// One refresh of the modeled screen in the window, on the axis.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct TimelineRefresh {
    /// Where the refresh starts on the axis.
    pub(super) start: Nanos,
    /// Where the next refresh starts on the axis (the axis' end when it lies past the
    /// window or has not happened yet): how long this refresh's image stays.
    pub(super) end: Nanos,
    /// The refresh as the screen recorded it.
    pub(super) mark: RefreshMark,
}

impl TimelineRefresh {
    /// Which of the two alternating shades the refresh takes: the parity of the sequence
    /// number of the frame on screen after it, so the refreshes of one image share a shade.
    pub(super) fn shade(&self) -> bool {
        self.mark.frame % 2 == 1
    }

    /// Whether the refresh showed the image already on screen again.
    pub(super) fn repeat(&self) -> bool {
        matches!(self.mark.kind, RefreshKind::Repeat(_))
    }

    /// Whether the refresh showed parts of more than one image.
    pub(super) fn torn(&self) -> bool {
        self.mark.kind == RefreshKind::Torn
    }
}
