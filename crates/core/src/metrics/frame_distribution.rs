//! The shape of a set of frame times, for plots: a histogram of equal bins and the
//! percentile curve (frame time against the share of frames at or below it). Both read the
//! frames through [`AscendingFrames`], in one pass, whatever their number.

use super::frame_times::AscendingFrames;
use crate::timestep::Nanos;

/// A frame-time histogram: equal bins from `from`, each `width` wide.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameBins {
    /// Where the first bin starts, ns.
    pub from: Nanos,
    /// The width of every bin, ns: 1, 2 or 5 times a power of ten.
    pub width: Nanos,
    /// Frames in each bin, the first from `from` to `from + width` (exclusive).
    pub frames: Vec<u64>,
}

impl FrameBins {
    /// About `max_bins` equal bins of a 1-2-5 width over the frames, from the shortest to
    /// the longest. Frames spread over less than a tenth of the longest are binned over a
    /// tenth of it, centred on them, so that a steady rate reads as one narrow bar rather
    /// than a plot-wide block. No bins for no frames.
    pub fn of(frames: &impl AscendingFrames, max_bins: usize) -> Self {
        let count = frames.all().frames;
        if count == 0 {
            return Self::default();
        }
        let (shortest, longest) = (frames.at_rank(1), frames.at_rank(count));
        let span = (longest - shortest).max(longest / 10).max(1);
        let width = round_up_1_2_5(span.div_ceil(max_bins.max(1) as u64));
        let low = (shortest / 2 + longest / 2)
            .saturating_sub(span / 2)
            .min(shortest);
        let from = low - low % width;
        let high = low.saturating_add(span).max(longest);
        let bins = usize::try_from((high - from) / width + 1).unwrap_or(usize::MAX);
        let mut binned = vec![0; bins];
        frames.for_each_run(|frame, frames| {
            let bin = ((frame.saturating_sub(from)) / width) as usize;
            binned[bin.min(bins - 1)] += frames;
            true
        });
        Self {
            from,
            width,
            frames: binned,
        }
    }
}

/// The smallest of 1, 2 or 5 times a power of ten that is at least `value` (at least 1).
fn round_up_1_2_5(value: u64) -> u64 {
    let mut decade = 1u64;
    loop {
        for step in [1, 2, 5] {
            let candidate = decade.saturating_mul(step);
            if candidate >= value || candidate == u64::MAX {
                return candidate;
            }
        }
        decade = decade.saturating_mul(10);
    }
}

/// The percentile curve: points (percent of the frames, frame time), ascending, a step for
/// each run of equal frame times from the share of frames below it to the share at or
/// below it; thinned to about one run per `step_percent` (the shortest and the longest
/// frame always kept).
pub fn percentile_curve(frames: &impl AscendingFrames, step_percent: f64) -> Vec<(f64, Nanos)> {
    let count = frames.all().frames;
    let mut points = Vec::new();
    if count == 0 {
        return points;
    }
    let percent = |frames: u64| frames as f64 * 100.0 / count as f64;
    let mut below = 0u64;
    let mut next = 0.0;
    frames.for_each_run(|frame, frames| {
        let at_or_below = below + frames;
        if percent(at_or_below) >= next || at_or_below == count {
            points.push((percent(below), frame));
            points.push((percent(at_or_below), frame));
            next = percent(at_or_below) + step_percent;
        }
        below = at_or_below;
        true
    });
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{FrameHistogram, SortedFrames};

    const MS: Nanos = 1_000_000;

    #[test]
    fn widths_step_one_two_five() {
        let widths: Vec<u64> = [0, 1, 2, 3, 6, 11, 21, 51, 99_000]
            .into_iter()
            .map(round_up_1_2_5)
            .collect();
        assert_eq!(widths, [1, 1, 2, 5, 10, 20, 50, 100, 100_000]);
        assert_eq!(round_up_1_2_5(u64::MAX), u64::MAX);
    }

    #[test]
    fn bins_cover_the_frames_from_the_shortest_to_the_longest() {
        // 10, 10, 12, 20 ms in at most 10 bins: a span of 10 ms, 1 ms bins from 10 ms.
        let frames = [10 * MS, 10 * MS, 12 * MS, 20 * MS];
        let bins = FrameBins::of(&SortedFrames::new(&frames), 10);
        assert_eq!((bins.from, bins.width), (10 * MS, MS));
        assert_eq!(bins.frames, [2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(bins.frames.iter().sum::<u64>(), 4);
        // Equal frames: bins over a tenth of their length (1.666666 ms from 15.833333 ms),
        // 0.05 ms wide, the frames in the middle one.
        let steady = [16_666_667; 60];
        let bins = FrameBins::of(&SortedFrames::new(&steady), 40);
        assert_eq!((bins.from, bins.width), (15_800_000, 50_000));
        assert_eq!(bins.frames.len(), 34);
        assert_eq!(bins.frames[17], 60);
        assert_eq!(bins.frames.iter().sum::<u64>(), 60);
        assert_eq!(
            FrameBins::of(&SortedFrames::new(&[]), 40),
            FrameBins::default()
        );
    }

    #[test]
    fn the_histogram_bins_like_the_sorted_frames_it_holds() {
        let frames: Vec<Nanos> = (0..500u64).map(|i| 16 * MS + (i % 7) * MS / 2).collect();
        let mut sorted = frames.clone();
        sorted.sort_unstable();
        let mut histogram = FrameHistogram::new();
        frames.iter().for_each(|&frame| histogram.record(frame));
        assert_eq!(
            FrameBins::of(&histogram, 30),
            FrameBins::of(&SortedFrames::new(&sorted), 30)
        );
        assert_eq!(
            percentile_curve(&histogram, 1.0),
            percentile_curve(&SortedFrames::new(&sorted), 1.0)
        );
    }

    #[test]
    fn the_curve_rises_to_the_longest_frame_at_100_percent() {
        let mut frames = vec![10 * MS; 99];
        frames.push(1000 * MS);
        let curve = percentile_curve(&SortedFrames::new(&frames), 0.5);
        assert_eq!(
            curve,
            [
                (0.0, 10 * MS),
                (99.0, 10 * MS),
                (99.0, 1000 * MS),
                (100.0, 1000 * MS)
            ]
        );
        // Thinned: 1000 distinct frames at a 10% step keep a step about every 10%, and the
        // last.
        let distinct: Vec<Nanos> = (1..=1000).map(|i| i * MS).collect();
        let curve = percentile_curve(&SortedFrames::new(&distinct), 10.0);
        assert_eq!(curve.len(), 2 * 11);
        assert_eq!(curve.first(), Some(&(0.0, MS)));
        assert_eq!(curve.last(), Some(&(100.0, 1000 * MS)));
        assert!(
            curve
                .windows(2)
                .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1)
        );
    }
}
