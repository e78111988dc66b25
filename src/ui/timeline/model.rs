//! The timeline's pure model: the focus pane's frames in the window, placed on the axis in
//! integer nanoseconds, with their hitches and shades; the modeled screen's refreshes in
//! the window, mapped from the stopwatch onto the axis; where each step ends; and where a
//! pane's newest state lies when it is off the axis. No egui here, so all of it is tested
//! headless.
//!
//! # From the stopwatch to the axis
//!
//! The axis is simulated time, but refreshes happen on the loop's stopwatch. Frame `i`
//! starts at `wall_i` on the stopwatch, and the time it simulates, `(T_{i-1}, T_i]`, is the
//! real time `(wall_{i-1}, wall_i]` that fed it. So each sample of the window, with the one
//! before the first frame, is a knot `(wall_i, T_i)`, and a stopwatch time between two
//! knots maps linearly between their `T`s ([`TimelineModel::axis_time`]). A frame's image,
//! presented at the end of the frame and shown at a later refresh, therefore lies right of
//! its box. A paused frame (its `T` does not move) squeezes its stopwatch time into a point,
//! dropped time (off the axis) squeezes it into less, a time scale stretches it. Stopwatch
//! times before the first knot or after the last lie outside the window: they clamp to the
//! axis' ends, and the refresh row keeps only the refreshes between the knots.

use std::ops::RangeInclusive;

use crate::display::DisplaySpec;
use crate::live::{FrameSample, History, OnScreen, RefreshKind, RefreshMark};
use crate::ring::Ring;
use crate::stats::upper_median;
use crate::timestep::{Nanos, ms_from_ns, secs_from_ns, shifted};

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

    /// What the modeled screen did with the frame's image, for the tooltip.
    pub(super) fn screen_text(&self) -> String {
        match self.sample.screen {
            OnScreen::Shown { at, .. } => format!(
                "on screen {:.2} ms after it started (modeled)",
                ms_from_ns(at.saturating_sub(self.sample.wall))
            ),
            OnScreen::Dropped => {
                "dropped: replaced before a refresh showed it (modeled)".to_owned()
            }
            OnScreen::Pending => "not on screen yet".to_owned(),
        }
    }

    /// Whether the modeled screen never showed the frame's image.
    pub(super) fn dropped_image(&self) -> bool {
        self.sample.screen == OnScreen::Dropped
    }
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
        self.mark.kind == RefreshKind::Repeat
    }

    /// Whether the refresh showed parts of more than one image.
    pub(super) fn torn(&self) -> bool {
        self.mark.kind == RefreshKind::Torn
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

    /// The stopwatch times the window covers: from the start of the frame before the first
    /// to the start of the newest; `None` without frames.
    pub(super) fn wall_range(&self) -> Option<RangeInclusive<Nanos>> {
        let (first, last) = (self.frames.first()?, self.frames.last()?);
        Some(first.start_wall..=last.sample.wall)
    }

    /// Where stopwatch time `wall` lies on the axis: linear between the knots
    /// `(wall_i, T_i)` of the frames around it (the module's doc says why), clamped to the
    /// axis' ends outside the window. Without frames, the axis' start.
    pub(super) fn axis_time(&self, wall: Nanos) -> Nanos {
        let (Some(first), Some(last)) = (self.frames.first(), self.frames.last()) else {
            return self.axis_start;
        };
        let t = if wall <= first.start_wall {
            first.start
        } else if wall >= last.sample.wall {
            last.end()
        } else {
            // The first frame ending at or after `wall`: it starts before `wall`, since the
            // one before it (or the first knot) ends before.
            let frame = &self.frames[self.frames.partition_point(|f| f.sample.wall < wall)];
            let (wall_span, t_span) = (
                frame.sample.wall - frame.start_wall,
                frame.end() - frame.start,
            );
            let into = u128::from(wall - frame.start_wall) * u128::from(t_span)
                / u128::from(wall_span.max(1));
            frame.start + Nanos::try_from(into).unwrap_or(t_span).min(t_span)
        };
        t.clamp(self.axis_start, self.axis_end)
    }

    /// Where the frame's image first reached the screen on the axis, if it did within the
    /// window.
    pub(super) fn shown_at(&self, frame: &TimelineFrame) -> Option<Nanos> {
        let OnScreen::Shown { at, .. } = frame.sample.screen else {
            return None;
        };
        self.wall_range()?.contains(&at).then(|| self.axis_time(at))
    }

    /// Places the refreshes of `marks` (oldest first, on the stopwatch) that happened within
    /// the window's stopwatch times on the axis. Each lasts until the next mark, in the
    /// window or not. Costs the marks since the window's start, not all of them.
    pub(super) fn place_refreshes(&mut self, marks: &Ring<RefreshMark>) {
        self.refreshes.clear();
        let Some(walls) = self.wall_range() else {
            return;
        };
        let since_start = marks
            .iter()
            .rev()
            .take_while(|mark| mark.at >= *walls.start())
            .count();
        let mut marks = marks.iter_from(marks.len() - since_start).peekable();
        while let Some(mark) = marks.next() {
            if mark.at > *walls.end() {
                break;
            }
            let start = self.axis_time(mark.at);
            let end = marks
                .peek()
                .map_or(self.axis_end, |next| self.axis_time(next.at))
                .max(start);
            self.refreshes.push(TimelineRefresh {
                start,
                end,
                mark: *mark,
            });
        }
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

/// Simulated end times, in order, of the `steps` steps a frame took from `from` to
/// `latest`, keeping those within `range`. Every step but the last is a whole `dt`; the
/// last ends exactly at `latest` (variable: the only step; semi-fixed: the remainder).
/// With `stride` above 1 only every `stride`-th whole step is kept: painting asks for that
/// when several would share a point. If `dt` does not fit the frame (zero, or changed
/// since), the frame's time is split evenly instead.
pub(super) fn step_ends(
    from: Nanos,
    latest: Nanos,
    steps: u32,
    dt: Nanos,
    range: RangeInclusive<Nanos>,
    stride: u64,
) -> impl Iterator<Item = Nanos> + use<> {
    let (low, high) = (*range.start(), *range.end());
    let whole = u64::from(steps).saturating_sub(1);
    let covered = latest.saturating_sub(from);
    let step = if dt == 0 || whole.saturating_mul(dt) > covered {
        covered / u64::from(steps.max(1))
    } else {
        dt
    };
    // Whole step k (1-based) ends at from + k * step.
    let (first, last) = if step == 0 {
        (1, 0)
    } else {
        let first = low.saturating_sub(from).div_ceil(step).max(1);
        let last = if high >= from {
            (high - from) / step
        } else {
            0
        };
        (first, last.min(whole))
    };
    let stride = usize::try_from(stride.max(1)).unwrap_or(usize::MAX);
    let last_step = (steps > 0 && range.contains(&latest)).then_some(latest);
    (first..=last)
        .step_by(stride)
        .map(move |k| from.saturating_add(k.saturating_mul(step)).min(latest))
        .chain(last_step)
}

/// Where a pane's newest simulated time lies when it is off the axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PaneOffset {
    /// Ahead of the axis end (`fixed` at a display rate above the step rate) by this much.
    Ahead(Nanos),
    /// Behind the axis start; behind the axis end by this much.
    Behind(Nanos),
}

impl PaneOffset {
    /// Where `newest_latest` lies against the axis `[start, end]`, if off it.
    pub(super) fn of(newest_latest: Nanos, start: Nanos, end: Nanos) -> Option<Self> {
        if newest_latest > end {
            Some(Self::Ahead(newest_latest - end))
        } else if newest_latest < start {
            Some(Self::Behind(end - newest_latest))
        } else {
            None
        }
    }

    /// The note at the row's right, e.g. `ahead +1.23 s`.
    pub(super) fn note(self) -> String {
        match self {
            Self::Ahead(by) => format!("ahead +{}", duration_text(by)),
            Self::Behind(by) => format!("behind {}", duration_text(by)),
        }
    }
}

/// The screen row's full label, naming the display model behind it, e.g.
/// `screen (modeled: fifo:60:2)`.
pub(super) fn screen_label(model: DisplaySpec) -> String {
    format!("screen (modeled: {model})")
}

/// A duration for a note: milliseconds below a second, else seconds.
pub(super) fn duration_text(ns: Nanos) -> String {
    if ns < 1_000_000_000 {
        format!("{:.0} ms", ms_from_ns(ns))
    } else {
        format!("{:.2} s", secs_from_ns(ns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::{
        LiveLoop, LiveSettings, PresentModeId, ScreenFacts, Stopwatch, VirtualStopwatch,
    };
    use crate::timestep::Strategy;

    const MS: Nanos = 1_000_000;
    /// One 60 Hz display frame.
    const FRAME_60HZ: Nanos = 16_666_667;
    /// The default step (50 Hz).
    const DT: Nanos = 20 * MS;

    /// The history of a live loop under `settings` fed `frames` (after a first, empty
    /// frame at time zero).
    fn history(settings: LiveSettings, frames: impl IntoIterator<Item = Nanos>) -> History {
        let mut live =
            LiveLoop::new(VirtualStopwatch::default(), settings).expect("valid settings");
        live.frame();
        for frame in frames {
            live.stopwatch_mut().advance(frame);
            live.frame();
        }
        live.history().clone()
    }

    /// Default settings with `strategy`.
    fn with(strategy: Strategy) -> LiveSettings {
        LiveSettings {
            strategy,
            ..LiveSettings::default()
        }
    }

    fn model_of(history: &History) -> TimelineModel {
        let mut model = TimelineModel::default();
        model.rebuild(history);
        model
    }

    /// Every step end of the model's frames, in order.
    fn all_step_ends(model: &TimelineModel, dt: Nanos) -> Vec<Nanos> {
        model
            .frames
            .iter()
            .flat_map(|f| {
                step_ends(
                    f.steps_from,
                    f.sample.latest_time,
                    f.sample.steps,
                    dt,
                    0..=Nanos::MAX,
                    1,
                )
            })
            .collect()
    }

    #[test]
    fn a_frozen_frame_leaves_the_axis_once_it_is_out_of_the_window() {
        // 60 s frozen (no clamp), then running again.
        let settings = LiveSettings {
            max_frame_time_ms: 0.0,
            ..LiveSettings::default()
        };
        // A slow renderer (150 ms frames): the window holds 4 frames, and the fewest frames
        // shown (30) used to reach back to the frozen minute for 30 frames (4.5 s).
        let frames = std::iter::repeat_n(150 * MS, 60)
            .chain([60_000 * MS])
            .chain(std::iter::repeat_n(150 * MS, 5));
        let model = model_of(&history(settings, frames));
        // The five slow frames after it, and not the frozen one.
        assert_eq!(model.frames.len(), 5);
        assert!(model.frames.iter().all(|f| f.sample.fed < 60_000 * MS));
        // The axis spans those frames (0.75 s), not the frozen minute.
        assert_eq!(model.axis_end - model.axis_start, 750 * MS);
        // A slow renderer's frames (150 ms) are still reached back for.
        let slow = model_of(&history(with(Strategy::Accumulator), [150 * MS; 40]));
        assert_eq!(slow.frames.len(), TIMELINE_MIN_FRAMES);
    }

    #[test]
    fn accumulator_takes_0_1_2_steps_exactly_dt_apart() {
        // 60 Hz display with a missed vsync every tenth frame, 50 Hz steps.
        let frames = (1..=60).map(|i| {
            if i % 10 == 0 {
                2 * FRAME_60HZ
            } else {
                FRAME_60HZ
            }
        });
        let model = model_of(&history(with(Strategy::Accumulator), frames));
        let counts: Vec<u32> = model.frames.iter().map(|f| f.sample.steps).collect();
        for wanted in [0, 1, 2] {
            assert!(counts.contains(&wanted), "no {wanted} in {counts:?}");
        }
        let ends = all_step_ends(&model, DT);
        assert_eq!(
            ends.len() as u32,
            counts.iter().sum::<u32>(),
            "one end per step"
        );
        assert!(ends.windows(2).all(|w| w[1] - w[0] == DT), "{ends:?}");
        // The frames tile the axis: each starts where the one before ended.
        assert!(model.frames.windows(2).all(|w| w[1].start == w[0].end()));
        assert_eq!(model.axis_start, model.frames[0].start);
        assert_eq!(model.axis_end, model.frames[model.frames.len() - 1].end());
    }

    #[test]
    fn steady_60hz_accumulator_repeats_0_1_1_1_1_1() {
        let model = model_of(&history(with(Strategy::Accumulator), [FRAME_60HZ; 60]));
        let counts: Vec<u32> = model.frames.iter().map(|f| f.sample.steps).collect();
        // 6 frames of 16.67 ms owe exactly 5 steps of 20 ms.
        let pattern = [0, 1, 1, 1, 1, 1];
        assert!(
            counts.windows(6).any(|w| w == pattern),
            "{counts:?} lacks the 60/50 pattern"
        );
        assert!(counts.iter().all(|&c| c <= 1));
    }

    #[test]
    fn variable_takes_one_step_per_frame_ending_at_t() {
        let model = model_of(&history(with(Strategy::Variable), [FRAME_60HZ; 40]));
        assert!(!model.frames.is_empty());
        for frame in &model.frames {
            let ends = all_step_ends(
                &TimelineModel {
                    frames: vec![*frame],
                    ..TimelineModel::default()
                },
                DT,
            );
            assert_eq!(ends, [frame.end()], "{frame:?}");
        }
    }

    #[test]
    fn semi_fixed_ends_with_the_remainder() {
        let model = model_of(&history(
            with(Strategy::SemiFixed),
            [FRAME_60HZ, FRAME_60HZ, 50 * MS],
        ));
        let long = model.frames.last().expect("frames");
        assert_eq!(long.sample.steps, 3);
        let from = long.steps_from;
        let ends: Vec<Nanos> = step_ends(
            from,
            long.sample.latest_time,
            long.sample.steps,
            DT,
            0..=Nanos::MAX,
            1,
        )
        .collect();
        assert_eq!(ends, [from + DT, from + 2 * DT, from + 50 * MS]);
        // A 16.67 ms frame is one short step, the remainder alone.
        let short = &model.frames[model.frames.len() - 2];
        assert_eq!(short.sample.steps, 1);
        assert_eq!(short.sample.latest_time - short.steps_from, FRAME_60HZ);
    }

    #[test]
    fn hitches_are_frames_over_twice_the_median() {
        let mut frames = vec![FRAME_60HZ; 20];
        frames[5] = 2 * FRAME_60HZ; // exactly twice: not a hitch
        frames[12] = 50 * MS;
        let model = model_of(&history(with(Strategy::Interpolated), frames));
        assert_eq!(model.median_frame, FRAME_60HZ);
        let hitches: Vec<Nanos> = model
            .frames
            .iter()
            .filter(|f| f.hitch)
            .map(|f| f.sample.real_frame)
            .collect();
        assert_eq!(hitches, [50 * MS]);
    }

    #[test]
    fn dropped_time_is_off_the_axis() {
        let settings = LiveSettings {
            max_steps: 2,
            ..with(Strategy::Accumulator)
        };
        let model = model_of(&history(settings, [FRAME_60HZ, FRAME_60HZ, 100 * MS]));
        let frame = model.frames.last().expect("frames");
        // 100 ms + 13.33 ms carried owe 5 whole steps; 2 are taken, 3 dropped.
        assert_eq!(frame.sample.steps, 2);
        assert_eq!(frame.sample.dropped, 3 * DT);
        assert_eq!(
            frame.end() - frame.start,
            frame.sample.fed - frame.sample.dropped
        );
    }

    #[test]
    fn fixed_runs_ahead_of_the_axis() {
        let pane = history(with(Strategy::Fixed), [FRAME_60HZ; 60]);
        let model = model_of(&pane);
        let newest = pane.latest().expect("frames").latest_time;
        assert_eq!(newest, 60 * DT);
        let offset = PaneOffset::of(newest, model.axis_start, model.axis_end);
        assert_eq!(offset, Some(PaneOffset::Ahead(60 * DT - 60 * FRAME_60HZ)));
        assert_eq!(
            offset.map(PaneOffset::note).as_deref(),
            Some("ahead +200 ms")
        );
        assert_eq!(PaneOffset::Ahead(1_234_000_000).note(), "ahead +1.23 s");
        assert_eq!(
            PaneOffset::of(model.axis_end, model.axis_start, model.axis_end),
            None
        );
        assert_eq!(
            PaneOffset::of(0, model.axis_start, model.axis_end),
            Some(PaneOffset::Behind(model.axis_end))
        );
    }

    #[test]
    fn a_slow_loop_still_shows_the_minimum_of_frames() {
        // 5 fps in slow motion (a software rasterizer): 0.5 s holds 2-3 frames, too few
        // to show a pattern, so the timeline reaches back to the last 30.
        let settings = LiveSettings {
            time_scale: 0.1,
            ..with(Strategy::Accumulator)
        };
        let slow = history(settings, std::iter::repeat_n(200 * MS, 100));
        let model = model_of(&slow);
        assert_eq!(model.frames.len(), TIMELINE_MIN_FRAMES);
        assert_eq!(
            model.frames.last().map(|f| f.sample.wall),
            slow.latest().map(|s| s.wall)
        );
        // At 120 fps the window itself holds more: the frames that started in 0.5 s.
        let fast = history(
            with(Strategy::Accumulator),
            std::iter::repeat_n(FRAME_60HZ / 2, 200),
        );
        assert_eq!(model_of(&fast).frames.len(), 61);
    }

    #[test]
    fn empty_and_single_frame_histories_have_no_frames() {
        let mut model = model_of(&History::default());
        assert!(model.frames.is_empty());
        assert_eq!(model.frame_near(0.0), None);
        let mut single = History::default();
        single.push(FrameSample::default());
        model.rebuild(&single);
        assert!(model.frames.is_empty());
        assert!(model.axis_end > model.axis_start);
    }

    #[test]
    fn pausing_keeps_the_running_frames_on_the_axis_and_single_steps_append() {
        let mut live = LiveLoop::new(VirtualStopwatch::default(), with(Strategy::Interpolated))
            .expect("valid settings");
        live.frame();
        for _ in 0..40 {
            live.stopwatch_mut().advance(FRAME_60HZ);
            live.frame();
        }
        let running = model_of(live.history());
        live.set_paused(true);
        // Paused for longer than the window: the frames before the pause stay.
        for _ in 0..90 {
            live.stopwatch_mut().advance(FRAME_60HZ);
            live.frame();
        }
        let paused = model_of(live.history());
        assert_eq!(paused.frames.len(), running.frames.len());
        assert_eq!(
            (paused.axis_start, paused.axis_end),
            (running.axis_start, running.axis_end)
        );
        // A single step appends one frame of the single-step length at the right.
        live.single_step();
        live.stopwatch_mut().advance(FRAME_60HZ);
        live.frame();
        let stepped = model_of(live.history());
        let last = stepped.frames.last().expect("a frame");
        assert_eq!(last.sample.fed, crate::timestep::DEFAULT_SINGLE_STEP_FRAME);
        assert_eq!(last.start, running.axis_end);
    }

    #[test]
    fn frame_near_picks_the_frame_under_the_pointer() {
        let model = model_of(&history(with(Strategy::Accumulator), [10 * MS; 5]));
        // Frames (0,10], (10,20], ... (40,50] ms.
        assert_eq!(model.frames.len(), 5);
        assert_eq!(model.frame_near(15.0 * 1e6), Some(1));
        assert_eq!(model.frame_near(20.0 * 1e6), Some(1));
        assert_eq!(model.frame_near(20.0 * 1e6 + 1.0), Some(2));
        assert_eq!(model.frame_near(-5.0), Some(0));
        assert_eq!(model.frame_near(1e12), Some(4));
    }

    #[test]
    fn a_full_history_of_tiny_frames_stays_bounded() {
        let mut history = History::default();
        for i in 0..(crate::live::HISTORY_CAPACITY as Nanos + 100) {
            history.push(FrameSample {
                wall: i * 50_000,
                real_frame: 50_000,
                fed: 50_000,
                presented_time: i * 50_000,
                latest_time: (i * 50_000 / DT) * DT,
                steps: u32::from((i * 50_000) % DT < 50_000),
                ..FrameSample::default()
            });
        }
        let model = model_of(&history);
        // Every kept frame is in the window; the oldest only bounds the next.
        assert_eq!(model.frames.len(), crate::live::HISTORY_CAPACITY - 1);
        assert!(model.axis_end > model.axis_start);
        // Thinned to a stride, a frame of a million steps yields few ends.
        let ends = step_ends(0, 1_000_000 * DT, 1_000_000, DT, 0..=100 * DT, 10).count();
        assert_eq!(ends, 10);
    }

    #[test]
    fn step_ends_survive_a_zero_or_stale_dt() {
        let split: Vec<Nanos> = step_ends(100, 160, 3, 0, 0..=Nanos::MAX, 1).collect();
        assert_eq!(split, [120, 140, 160]);
        // dt grew since the frame: the frame's own time is split, never overrun.
        let stale: Vec<Nanos> = step_ends(0, 30, 3, 50, 0..=Nanos::MAX, 1).collect();
        assert_eq!(stale, [10, 20, 30]);
        assert_eq!(step_ends(0, 0, 0, DT, 0..=Nanos::MAX, 1).count(), 0);
        // Range limits keep only visible ends.
        let visible: Vec<Nanos> = step_ends(0, 100, 10, 10, 35..=62, 1).collect();
        assert_eq!(visible, [40, 50, 60]);
    }

    #[test]
    fn shades_alternate_and_stay_put_as_the_window_slides() {
        let mut live = LiveLoop::new(VirtualStopwatch::default(), with(Strategy::Accumulator))
            .expect("valid settings");
        live.frame();
        let mut model = TimelineModel::default();
        let mut previous: Vec<(Nanos, bool)> = Vec::new();
        for _ in 0..80 {
            live.stopwatch_mut().advance(FRAME_60HZ);
            live.frame();
            model.rebuild(live.history());
            assert!(model.frames.windows(2).all(|w| w[0].shade != w[1].shade));
            for frame in &model.frames {
                if let Some(&(_, shade)) = previous.iter().find(|(w, _)| *w == frame.sample.wall) {
                    assert_eq!(
                        frame.shade, shade,
                        "frame at {} changed shade",
                        frame.sample.wall
                    );
                }
            }
            previous = model
                .frames
                .iter()
                .map(|f| (f.sample.wall, f.shade))
                .collect();
        }
    }

    /// A history of hand-made samples: `(wall, T)` in ms, each with `screen`.
    fn knots(points: &[(Nanos, Nanos, OnScreen)]) -> History {
        let mut history = History::default();
        for (frame, &(wall, t, screen)) in points.iter().enumerate() {
            history.push(FrameSample {
                wall: wall * MS,
                presented_time: t * MS,
                frame: frame as u64,
                screen,
                ..FrameSample::default()
            });
        }
        history
    }

    /// Running 10 ms, paused 10 ms, then 30 ms of simulated time in 10 ms of real time (a
    /// time scale of 3), from stopwatch time 100 ms.
    fn uneven_knots() -> History {
        let shown = |at: Nanos| OnScreen::Shown {
            at: at * MS,
            display_time: 0,
        };
        knots(&[
            (100, 0, shown(104)),
            (110, 10, OnScreen::Dropped),
            (120, 10, shown(125)),
            (130, 40, OnScreen::Pending),
        ])
    }

    #[test]
    fn wall_times_map_linearly_between_the_frames_knots() {
        let model = model_of(&uneven_knots());
        assert_eq!(model.frames.len(), 3);
        assert_eq!(model.wall_range(), Some(100 * MS..=130 * MS));
        assert_eq!((model.axis_start, model.axis_end), (0, 40 * MS));
        // Each knot (wall_i, T_i) maps exactly, and linearly between them.
        for (wall, t) in [
            (100, 0),
            (104, 4),
            (110, 10),
            (115, 10),
            (120, 10),
            (125, 25),
        ] {
            assert_eq!(model.axis_time(wall * MS), t * MS, "wall {wall} ms");
        }
        assert_eq!(model.axis_time(130 * MS), 40 * MS);
        // Outside the window: clamped to the axis' ends.
        assert_eq!(model.axis_time(0), 0);
        assert_eq!(model.axis_time(500 * MS), 40 * MS);
        // The same stopwatch time on a steady loop is the same axis time.
        let steady = model_of(&history(with(Strategy::Accumulator), [10 * MS; 5]));
        assert_eq!(steady.axis_time(23 * MS), 23 * MS);
        // Without frames, the axis' start.
        assert_eq!(TimelineModel::default().axis_time(5), 0);
    }

    #[test]
    fn frames_shown_in_the_window_are_placed_where_they_reached_the_screen() {
        let model = model_of(&uneven_knots());
        let shown: Vec<Option<Nanos>> = model.frames.iter().map(|f| model.shown_at(f)).collect();
        // Frame 1 dropped, frame 2 shown at 125 ms (25 ms on the axis), frame 3 pending.
        assert_eq!(shown, [None, Some(25 * MS), None]);
        // Shown after the window's last knot: not on the strip.
        let late = knots(&[
            (0, 0, OnScreen::Pending),
            (
                10,
                10,
                OnScreen::Shown {
                    at: 30 * MS,
                    display_time: 0,
                },
            ),
        ]);
        let model = model_of(&late);
        assert_eq!(model.shown_at(&model.frames[0]), None);
    }

    #[test]
    fn the_refreshes_in_the_window_are_picked_and_last_until_the_next() {
        let mut model = model_of(&uneven_knots());
        let mut marks = Ring::new(64);
        for (k, at) in (90..140).step_by(7).enumerate() {
            marks.push(RefreshMark {
                at: at * MS,
                kind: if k % 2 == 0 {
                    RefreshKind::New
                } else {
                    RefreshKind::Repeat
                },
                frame: k as u64 / 2,
            });
        }
        model.place_refreshes(&marks);
        let placed: Vec<(Nanos, Nanos, Nanos)> = model
            .refreshes
            .iter()
            .map(|r| (r.mark.at / MS, r.start / MS, r.end / MS))
            .collect();
        // Marks at 90 and 97 ms are before the window, 132 and 139 ms after; the last one
        // in it lasts until the next mark, past the window: the axis' end.
        assert_eq!(
            placed,
            [(104, 4, 10), (111, 10, 10), (118, 10, 25), (125, 25, 40)]
        );
        // Shades follow the shown frame: a new image and its repeat share one.
        let shades: Vec<bool> = model.refreshes.iter().map(TimelineRefresh::shade).collect();
        assert_eq!(shades, [true, true, false, false]);
        assert!(model.refreshes[1].repeat() && !model.refreshes[1].torn());
        // No marks, or no frames: nothing placed.
        model.place_refreshes(&Ring::new(4));
        assert!(model.refreshes.is_empty());
        let mut empty = TimelineModel::default();
        empty.place_refreshes(&marks);
        assert!(empty.refreshes.is_empty());
        // A rebuild forgets them until they are placed again.
        model.place_refreshes(&marks);
        model.rebuild(&uneven_knots());
        assert!(model.refreshes.is_empty());
    }

    /// The model of a live loop on a virtual stopwatch, refreshes placed, after `frames`
    /// frames of `frame` each; `facts` says what screen the window has, if any.
    fn live_model(facts: Option<ScreenFacts>, frame: Nanos, frames: usize) -> TimelineModel {
        let mut live = LiveLoop::new(VirtualStopwatch::default(), with(Strategy::Accumulator))
            .expect("valid settings");
        if let Some(facts) = facts {
            live.set_screen(facts);
        }
        live.frame();
        for _ in 0..frames {
            live.stopwatch_mut().advance(frame);
            live.frame();
        }
        let mut model = model_of(live.history());
        model.place_refreshes(live.snapshot().refreshes);
        assert_eq!(live.stopwatch().now(), frame * frames as Nanos);
        model
    }

    #[test]
    fn fifo_shows_every_frame_at_its_own_new_refresh() {
        // FIFO at 60 Hz (the default screen) and a 60 Hz loop.
        let model = live_model(None, FRAME_60HZ, 60);
        assert!(model.refreshes.len() >= 25, "{}", model.refreshes.len());
        assert!(model.refreshes.windows(2).all(|w| w[0].end == w[1].start));
        let mut connected = 0;
        for frame in &model.frames {
            assert!(!frame.dropped_image());
            if let Some(t) = model.shown_at(frame) {
                let refresh = model
                    .refreshes
                    .iter()
                    .find(|r| r.mark.frame == frame.sample.frame && !r.repeat())
                    .expect("the refresh that first showed it");
                assert_eq!(refresh.start, t);
                // Shown after it started: right of the start of its box.
                assert!(t > frame.start, "{frame:?}");
                connected += 1;
            }
        }
        assert!(connected >= 25, "{connected} frames shown in the window");
    }

    #[test]
    fn mailbox_drops_frames_and_shows_a_new_one_every_refresh() {
        let mailbox = ScreenFacts {
            present_mode: Some(PresentModeId::Mailbox),
            monitor_hz: Some(60.0),
        };
        let model = live_model(Some(mailbox), 1_000_000_000 / 144, 144);
        let dropped = model.frames.iter().filter(|f| f.dropped_image()).count();
        // About 84 frames fall in the last half-second's 30 refreshes: over half dropped.
        assert!(dropped > model.frames.len() / 2, "{dropped} dropped");
        assert!(model.refreshes.iter().all(|r| !r.repeat() && !r.torn()));
        assert!(model.refreshes.len() >= 29, "{}", model.refreshes.len());
        assert!(
            model
                .refreshes
                .windows(2)
                .all(|w| w[0].mark.frame < w[1].mark.frame)
        );
        let dropped = model.frames.iter().find(|f| f.dropped_image());
        assert_eq!(
            dropped.map(TimelineFrame::screen_text).as_deref(),
            Some("dropped: replaced before a refresh showed it (modeled)")
        );
    }

    #[test]
    fn the_screen_label_names_the_model() {
        let fifo = DisplaySpec::parse("fifo:60:2").expect("a valid spec");
        assert_eq!(screen_label(fifo), "screen (modeled: fifo:60:2)");
        assert_eq!(
            screen_label(DisplaySpec::parse("mailbox:144").expect("a valid spec")),
            "screen (modeled: mailbox:144)"
        );
    }

    #[test]
    fn the_tooltip_says_what_the_screen_did() {
        let model = model_of(&uneven_knots());
        let texts: Vec<String> = model.frames.iter().map(|f| f.screen_text()).collect();
        assert_eq!(
            texts,
            [
                "dropped: replaced before a refresh showed it (modeled)",
                "on screen 5.00 ms after it started (modeled)",
                "not on screen yet",
            ]
        );
    }
}
