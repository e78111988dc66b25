//! Where the timeline's step ticks go: each step's simulated end time within a frame, and
//! where a pane's newest state lies when it is off the axis.

use std::ops::RangeInclusive;

use crate::timestep::{Nanos, ms_from_ns, secs_from_ns};

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

/// A duration for a note: milliseconds below a second, else seconds.
pub(super) fn duration_text(ns: Nanos) -> String {
    if ns < 1_000_000_000 {
        format!("{:.0} ms", ms_from_ns(ns))
    } else {
        format!("{:.2} s", secs_from_ns(ns))
    }
}
