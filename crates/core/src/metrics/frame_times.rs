//! Frame-time statistics, one definition each, for the bench's trace block, its per-strategy
//! columns and the live readouts: average fps, nearest-rank percentiles, the "1% low" and
//! "0.1% low", hitches and the worst frame.
//!
//! - **Average fps** is frames over their total time (CapFrameX's `Average`, the harmonic
//!   mean of the per-frame rates), not the mean of per-frame fps.
//! - **Percentiles** are nearest-rank ([`crate::stats::percentile`]): P99 is a frame time
//!   that occurred, with at least 99% of the frames at or below it.
//! - **x% low** is CapFrameX's "x% low average": the slowest `nearest_rank(n, x)` frames
//!   (x% of them, rounded up, at least one) as a rate, their count over their total time.
//!   The other common reading, the 99th-percentile frame time as a rate (CapFrameX's "P1"),
//!   is blind to anything in the slowest 1%: 99 frames of 10 ms and one of 1 s have a P1 of
//!   100 fps and a 1% low of 1 fps.
//! - **Hitches** are frames longer than [`HITCH_FACTOR`] times the upper median
//!   ([`crate::stats::upper_median`]), the timeline's definition; with a median of zero there are none.
//!
//! All of it is exact integer nanoseconds until a rate is taken, and a rate of zero time is
//! `None`, never infinite.
//!
//! The statistics read their frames through [`AscendingFrames`]: by rank, shortest first. A
//! sorted slice ([`SortedFrames`]) reads exactly; a [`crate::metrics::FrameHistogram`]
//! (a whole live session in fixed memory) reads within its bucket width. Either way the
//! ranks, the lows and the hitch rule are the ones above, computed by the same code.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::stats::nearest_rank;
use crate::timestep::Nanos;

/// A frame is a hitch when it is longer than this many times the median frame. Twice: a
/// frame the median's length again late is a frame visibly missed at any steady rate.
pub const HITCH_FACTOR: u64 = 2;

/// The fraction of frames the "1% low" covers.
pub const ONE_PERCENT: f64 = 0.01;

/// The fraction of frames the "0.1% low" covers.
pub const POINT_ONE_PERCENT: f64 = 0.001;

/// The fraction of frames at or below the tail percentile [`FrameTail`] keeps.
pub const TAIL_QUANTILE: f64 = 0.99;

/// A number of frames and their total time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameSum {
    /// Frames counted.
    pub frames: u64,
    /// Their total time, ns (saturating, which no real trace reaches).
    pub time: Nanos,
}

impl FrameSum {
    /// Frames per second over the total time; `None` when no time passed.
    pub fn fps(&self) -> Option<f64> {
        (self.time > 0).then(|| self.frames as f64 * 1e9 / self.time as f64)
    }

    /// Mean frame time, ms; `None` for no frames.
    pub fn mean_ms(&self) -> Option<f64> {
        (self.frames > 0).then(|| self.time as f64 / self.frames as f64 / 1e6)
    }

    /// The count and total of `frames`.
    pub fn of(frames: &[Nanos]) -> Self {
        Self {
            frames: frames.len() as u64,
            time: frames
                .iter()
                .fold(0, |sum: Nanos, &f| sum.saturating_add(f)),
        }
    }
}

/// The statistics of a set of frame times.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// All frames: their count and total time (average fps).
    pub all: FrameSum,
    /// Nearest-rank 50th percentile frame time, ns.
    pub p50: Nanos,
    /// Nearest-rank 90th percentile frame time, ns.
    pub p90: Nanos,
    /// Nearest-rank 95th percentile frame time, ns.
    pub p95: Nanos,
    /// Nearest-rank 99th percentile frame time, ns.
    pub p99: Nanos,
    /// Nearest-rank 99.9th percentile frame time, ns.
    pub p99_9: Nanos,
    /// The longest frame, ns.
    pub max: Nanos,
    /// The slowest 1% of the frames (at least one): the "1% low".
    pub slowest_1_percent: FrameSum,
    /// The slowest 0.1% of the frames (at least one): the "0.1% low".
    pub slowest_0_1_percent: FrameSum,
    /// Frames longer than this are hitches: [`HITCH_FACTOR`] times the upper median, ns;
    /// `None` when the median is zero.
    pub hitch_threshold: Option<Nanos>,
    /// The hitches: their count and total time.
    pub hitches: FrameSum,
}

impl FrameStats {
    /// The statistics of `frame_times`, in any order, copied into `scratch` (cleared first;
    /// once it has grown to the largest set it holds, this does not allocate). `None` for no
    /// frames.
    pub fn from_frame_times(
        frame_times: impl IntoIterator<Item = Nanos>,
        scratch: &mut Vec<Nanos>,
    ) -> Option<Self> {
        scratch.clear();
        scratch.extend(frame_times);
        Self::from_frame_times_in_place(scratch)
    }

    /// The statistics of `frame_times`, in any order, sorting them in place. `None` for no
    /// frames.
    pub fn from_frame_times_in_place(frame_times: &mut [Nanos]) -> Option<Self> {
        frame_times.sort_unstable();
        Self::from_ascending(&SortedFrames::new(frame_times))
    }

    /// The statistics of frames read by rank. `None` for no frames.
    pub fn from_ascending(frames: &impl AscendingFrames) -> Option<Self> {
        let all = frames.all();
        let count = usize::try_from(all.frames).ok().filter(|&n| n > 0)?;
        let at = |q: f64| frames.at_rank(nearest_rank(count, q) as u64);
        let slowest = |q: f64| frames.longest(nearest_rank(count, q) as u64);
        // The upper median: the middle frame, the upper of the two middle ones for an even
        // count (rank n / 2 + 1), as `crate::stats::upper_median` picks it.
        let median = frames.at_rank(all.frames / 2 + 1);
        let hitch_threshold = (median > 0).then(|| median.saturating_mul(HITCH_FACTOR));
        Some(Self {
            all,
            p50: at(0.50),
            p90: at(0.90),
            p95: at(0.95),
            p99: at(0.99),
            p99_9: at(0.999),
            max: frames.at_rank(all.frames),
            slowest_1_percent: slowest(ONE_PERCENT),
            slowest_0_1_percent: slowest(POINT_ONE_PERCENT),
            hitch_threshold,
            hitches: hitch_threshold
                .map_or_else(FrameSum::default, |threshold| frames.longer_than(threshold)),
        })
    }

    /// The statistics of frame times that can be gone through more than once, the same
    /// each time (each call of `frames` starts a pass from the first), in memory that does
    /// not grow with their number: the same values as [`Self::from_frame_times_in_place`],
    /// exactly, without holding the frames. Each order statistic is found by narrowing a
    /// range of values pass by pass: equal frames take two passes, frame times that span up
    /// to a minute at most five, any at most six. `None` for no frames.
    pub fn from_passes<I: Iterator<Item = Nanos>>(frames: impl Fn() -> I) -> Option<Self> {
        Self::from_passes_in(frames, SELECT_BUCKET_BITS)
    }

    /// [`Self::from_passes`] with `2^bucket_bits` buckets a pass (fewer in the tests, to make
    /// the narrowing take many passes).
    fn from_passes_in<I: Iterator<Item = Nanos>>(
        frames: impl Fn() -> I,
        bucket_bits: u32,
    ) -> Option<Self> {
        let mut all = FrameSum::default();
        let (mut min, mut max) = (Nanos::MAX, 0);
        for frame in frames() {
            all.frames += 1;
            all.time = all.time.saturating_add(frame);
            min = min.min(frame);
            max = max.max(frame);
        }
        let n = usize::try_from(all.frames).ok().filter(|&n| n > 0)?;
        let slowest_1 = nearest_rank(n, ONE_PERCENT);
        let slowest_0_1 = nearest_rank(n, POINT_ONE_PERCENT);
        // Ranks from 1, the shortest frame first: the upper median is the frame at index
        // n / 2 of the sorted frames; the slowest k frames start at rank n - k + 1.
        let ranks = [
            n / 2 + 1,
            nearest_rank(n, 0.50),
            nearest_rank(n, 0.90),
            nearest_rank(n, 0.95),
            nearest_rank(n, 0.99),
            nearest_rank(n, 0.999),
            n - slowest_1 + 1,
            n - slowest_0_1 + 1,
        ]
        .map(|rank| rank as u64);
        let [
            median,
            p50,
            p90,
            p95,
            p99,
            p99_9,
            slowest_1_from,
            slowest_0_1_from,
        ] = select_ranks(&frames, (min, max), ranks, bucket_bits);
        let hitch_threshold = (median > 0).then(|| median.saturating_mul(HITCH_FACTOR));
        // Everything above each threshold, in one more pass. Without a hitch threshold the
        // last one counts nothing (no frame is longer than the longest).
        let [above_1, above_0_1, above_hitch] = sums_above(
            frames(),
            [
                slowest_1_from,
                slowest_0_1_from,
                hitch_threshold.unwrap_or(max),
            ],
        );
        // The slowest k frames: all those longer than the k-th longest, and as many equal
        // to it as make up k.
        let slowest = |k: usize, from: Nanos, above: FrameSum| {
            let k = k as u64;
            FrameSum {
                frames: k,
                time: above
                    .time
                    .saturating_add((k - above.frames).saturating_mul(from)),
            }
        };
        Some(Self {
            all,
            p50,
            p90,
            p95,
            p99,
            p99_9,
            max,
            slowest_1_percent: slowest(slowest_1, slowest_1_from, above_1),
            slowest_0_1_percent: slowest(slowest_0_1, slowest_0_1_from, above_0_1),
            hitch_threshold,
            hitches: above_hitch,
        })
    }

    /// Average frames per second; `None` when the frames took no time.
    pub fn average_fps(&self) -> Option<f64> {
        self.all.fps()
    }

    /// The "1% low": the slowest 1% of the frames as a rate; `None` when they took no time.
    pub fn one_percent_low_fps(&self) -> Option<f64> {
        self.slowest_1_percent.fps()
    }

    /// The "0.1% low": the slowest 0.1% of the frames as a rate; `None` when they took no
    /// time.
    pub fn point_one_percent_low_fps(&self) -> Option<f64> {
        self.slowest_0_1_percent.fps()
    }

    /// The share of the total time spent in hitches, percent; `None` when no time passed.
    pub fn hitch_time_percent(&self) -> Option<f64> {
        (self.all.time > 0).then(|| self.hitches.time as f64 * 100.0 / self.all.time as f64)
    }
}

/// A set of frame times as the statistics read it: by rank, shortest first.
pub trait AscendingFrames {
    /// All the frames: their count and total time.
    fn all(&self) -> FrameSum;

    /// The frame of `rank`, counted from the shortest (1) to the longest (`all().frames`);
    /// 0 outside that range.
    fn at_rank(&self, rank: u64) -> Nanos;

    /// The `count` longest frames (all of them when there are fewer).
    fn longest(&self, count: u64) -> FrameSum;

    /// The frames longer than `threshold`.
    fn longer_than(&self, threshold: Nanos) -> FrameSum;

    /// Runs of frames in ascending order, each as a frame time and how many frames it
    /// stands for, until `each` returns `false` (for plots: a histogram, a curve).
    fn for_each_run(&self, each: impl FnMut(Nanos, u64) -> bool);
}

/// Frame times sorted in ascending order: read exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SortedFrames<'a> {
    /// The frame times, ascending.
    sorted: &'a [Nanos],
}

impl<'a> SortedFrames<'a> {
    /// Frame times already in ascending order (checked in debug builds).
    pub fn new(sorted: &'a [Nanos]) -> Self {
        debug_assert!(sorted.is_sorted(), "frame times out of order");
        Self { sorted }
    }

    /// The frame times, ascending.
    pub fn as_slice(&self) -> &'a [Nanos] {
        self.sorted
    }
}

impl AscendingFrames for SortedFrames<'_> {
    fn all(&self) -> FrameSum {
        FrameSum::of(self.sorted)
    }

    fn at_rank(&self, rank: u64) -> Nanos {
        usize::try_from(rank)
            .ok()
            .and_then(|rank| rank.checked_sub(1))
            .and_then(|index| self.sorted.get(index))
            .copied()
            .unwrap_or(0)
    }

    fn longest(&self, count: u64) -> FrameSum {
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        FrameSum::of(&self.sorted[self.sorted.len().saturating_sub(count)..])
    }

    fn longer_than(&self, threshold: Nanos) -> FrameSum {
        FrameSum::of(&self.sorted[self.sorted.partition_point(|&frame| frame <= threshold)..])
    }

    fn for_each_run(&self, mut each: impl FnMut(Nanos, u64) -> bool) {
        for run in self.sorted.chunk_by(|a, b| a == b) {
            if !each(run[0], run.len() as u64) {
                return;
            }
        }
    }
}

/// Buckets a pass of [`select_ranks`] counts into, as a power of two: 65,536 counts of 8
/// bytes, 512 kB per range being narrowed. A range of frame times up to a minute (36 bits)
/// narrows to one value in three passes.
const SELECT_BUCKET_BITS: u32 = 16;

/// The values of the given ranks (1 = the smallest) among the frames in `min..=max`,
/// without holding the frames: each rank's range of possible values is cut into at most
/// `2^bucket_bits` buckets of a power-of-two width, a pass counts the frames in each, and
/// the range becomes the bucket that holds the rank, until every range is one value. Ranks
/// whose ranges are the same share a pass's counts.
fn select_ranks<I: Iterator<Item = Nanos>, const N: usize>(
    frames: impl Fn() -> I,
    (min, max): (Nanos, Nanos),
    ranks: [u64; N],
    bucket_bits: u32,
) -> [Nanos; N] {
    /// The values one rank can still have.
    #[derive(Clone, Copy, PartialEq, Eq)]
    struct Range {
        /// The smallest possible value.
        low: Nanos,
        /// The largest possible value.
        high: Nanos,
        /// Frames shorter than `low`.
        below: u64,
    }
    let mut ranges = [Range {
        low: min,
        high: max,
        below: 0,
    }; N];
    loop {
        // The distinct ranges still wider than one value, each with its bucket width (as a
        // shift) and its counts.
        let mut open: Vec<(Range, u32, Vec<u64>)> = Vec::new();
        for range in ranges {
            if range.low < range.high && !open.iter().any(|(other, ..)| *other == range) {
                let span_bits = u64::BITS - (range.high - range.low).leading_zeros();
                let shift = span_bits.saturating_sub(bucket_bits);
                let buckets = ((range.high - range.low) >> shift) as usize + 1;
                open.push((range, shift, vec![0; buckets]));
            }
        }
        if open.is_empty() {
            return ranges.map(|range| range.low);
        }
        for frame in frames() {
            for (range, shift, counts) in &mut open {
                if (range.low..=range.high).contains(&frame) {
                    counts[((frame - range.low) >> *shift) as usize] += 1;
                }
            }
        }
        for (range, rank) in ranges.iter_mut().zip(ranks) {
            let Some((_, shift, counts)) = open.iter().find(|(other, ..)| other == range) else {
                continue;
            };
            let mut below = range.below;
            for (bucket, &count) in counts.iter().enumerate() {
                if below + count >= rank {
                    let low = range.low + ((bucket as u64) << shift);
                    let high = low.saturating_add((1 << shift) - 1).min(range.high);
                    *range = Range { low, high, below };
                    break;
                }
                below += count;
            }
        }
    }
}

/// Per threshold, the frames longer than it: their count and total time, in one pass.
fn sums_above<const N: usize>(
    frames: impl Iterator<Item = Nanos>,
    thresholds: [Nanos; N],
) -> [FrameSum; N] {
    let mut sums = [FrameSum::default(); N];
    for frame in frames {
        for (sum, &threshold) in sums.iter_mut().zip(&thresholds) {
            if frame > threshold {
                sum.frames += 1;
                sum.time = sum.time.saturating_add(frame);
            }
        }
    }
    sums
}

/// The slow tail of a run of at most `max_frames` frames, fed one frame at a time: enough
/// for the exact nearest-rank 99th percentile ([`TAIL_QUANTILE`]) and the longest frame of
/// every prefix, in memory for 1% of `max_frames` (a 518,400-frame trace keeps 5,185
/// frames, 41 kB). Recording does not allocate.
#[derive(Clone, Debug)]
pub struct FrameTail {
    /// The longest frames so far, at most `keep`, the shortest of them on top.
    longest: BinaryHeap<Reverse<Nanos>>,
    /// How many to keep: the rank from the top of the percentile in `max_frames` frames,
    /// which no shorter run exceeds.
    keep: usize,
    /// The most frames the tail is exact for.
    max_frames: u64,
    /// Frames recorded.
    frames: u64,
}

impl FrameTail {
    /// An empty tail for a run of at most `max_frames` frames.
    pub fn new(max_frames: usize) -> Self {
        let keep = Self::rank_from_top(max_frames);
        Self {
            longest: BinaryHeap::with_capacity(keep),
            keep,
            max_frames: max_frames as u64,
            frames: 0,
        }
    }

    /// Records one frame time.
    pub fn record(&mut self, frame: Nanos) {
        debug_assert!(
            self.frames < self.max_frames,
            "more frames than the tail is for"
        );
        self.frames += 1;
        if self.longest.len() < self.keep {
            self.longest.push(Reverse(frame));
        } else if let Some(mut shortest) = self.longest.peek_mut()
            && frame > shortest.0
        {
            // Replaces the shortest kept frame; most frames are shorter and cost one
            // comparison.
            *shortest = Reverse(frame);
        }
    }

    /// The nearest-rank 99th percentile of the frames recorded, ns; `None` before any.
    pub fn p99(&self) -> Option<Nanos> {
        let from_top = Self::rank_from_top(usize::try_from(self.frames).ok()?);
        // `from_top` is at most `keep` (0 before any frame), and the tail holds
        // `min(frames, keep)` frames.
        let index = self.longest.len().checked_sub(from_top.max(1))?;
        if index == 0 {
            // A run of the frames the tail is sized for: the percentile is the shortest frame
            // kept, on top of the heap. No copy of a tail that may be megabytes long.
            return self.longest.peek().map(|frame| frame.0);
        }
        let mut longest: Vec<Nanos> = self.longest.iter().map(|frame| frame.0).collect();
        Some(*longest.select_nth_unstable(index).1)
    }

    /// The longest frame recorded, ns; `None` before any.
    pub fn max(&self) -> Option<Nanos> {
        self.longest.iter().map(|frame| frame.0).max()
    }

    /// The percentile's rank counted from the longest frame (1 is the longest) among
    /// `frames`; 0 for none.
    fn rank_from_top(frames: usize) -> usize {
        (frames + 1)
            .saturating_sub(nearest_rank(frames, TAIL_QUANTILE))
            .min(frames)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const MS: Nanos = 1_000_000;

    /// The statistics of `frames`, checked to be the same from a sorted copy and from
    /// passes over them.
    fn stats(frames: &[Nanos]) -> FrameStats {
        let sorted =
            FrameStats::from_frame_times(frames.iter().copied(), &mut Vec::new()).expect("frames");
        let passes = FrameStats::from_passes(|| frames.iter().copied());
        assert_eq!(passes, Some(sorted), "from passes over {frames:?}");
        sorted
    }

    #[test]
    fn no_frames_have_no_statistics() {
        assert_eq!(FrameStats::from_frame_times([], &mut Vec::new()), None);
        assert_eq!(FrameStats::from_passes(std::iter::empty), None);
        assert_eq!(FrameStats::from_frame_times_in_place(&mut []), None);
    }

    #[test]
    fn one_frame_is_every_statistic() {
        let s = stats(&[16 * MS]);
        for p in [s.p50, s.p90, s.p95, s.p99, s.p99_9, s.max] {
            assert_eq!(p, 16 * MS);
        }
        // 1 frame in 16 ms: 1000 / 16 = 62.5 fps, and it is its own slowest 1% and 0.1%.
        assert_eq!(s.average_fps(), Some(62.5));
        assert_eq!(s.one_percent_low_fps(), Some(62.5));
        assert_eq!(s.point_one_percent_low_fps(), Some(62.5));
        // Twice the median is 32 ms: the frame is not a hitch.
        assert_eq!(s.hitch_threshold, Some(32 * MS));
        assert_eq!(s.hitches, FrameSum::default());
        assert_eq!(s.hitch_time_percent(), Some(0.0));
    }

    #[test]
    fn equal_frames_have_equal_statistics() {
        let s = stats(&[10 * MS; 100]);
        for p in [s.p50, s.p90, s.p95, s.p99, s.p99_9, s.max] {
            assert_eq!(p, 10 * MS);
        }
        // 100 frames in 1 s; the slowest 1% is one 10 ms frame, as is the slowest 0.1%.
        assert_eq!(s.average_fps(), Some(100.0));
        assert_eq!(s.one_percent_low_fps(), Some(100.0));
        assert_eq!(s.point_one_percent_low_fps(), Some(100.0));
        assert_eq!(s.hitches.frames, 0);
    }

    #[test]
    fn one_huge_hitch_shows_in_the_lows_and_the_top_percentile_only() {
        let mut frames = vec![10 * MS; 99];
        frames.insert(40, 1000 * MS);
        let s = stats(&frames);
        // Sorted: 99 frames of 10 ms, then the 1 s one. Ranks: P50 50th, P90 90th, P95
        // 95th, P99 99th (all 10 ms), P99.9 ceil(99.9) = 100th, the hitch.
        assert_eq!([s.p50, s.p90, s.p95, s.p99], [10 * MS; 4]);
        assert_eq!(s.p99_9, 1000 * MS);
        assert_eq!(s.max, 1000 * MS);
        // 100 frames in 99 * 10 + 1000 = 1990 ms: 100 / 1.99 = 50.2512562814070351... fps.
        assert_eq!(s.all.time, 1990 * MS);
        assert_eq!(s.average_fps(), Some(50.251_256_281_407_04));
        // The slowest 1% is ceil(1) = 1 frame, the 1 s one: 1 fps; the same for 0.1%.
        assert_eq!(s.one_percent_low_fps(), Some(1.0));
        assert_eq!(s.point_one_percent_low_fps(), Some(1.0));
        // Median 10 ms, threshold 20 ms: one hitch, 1000 of the 1990 ms,
        // 100000 / 1990 = 50.2512562814070351... percent.
        assert_eq!(s.hitch_threshold, Some(20 * MS));
        assert_eq!(
            s.hitches,
            FrameSum {
                frames: 1,
                time: 1000 * MS
            }
        );
        assert_eq!(s.hitch_time_percent(), Some(50.251_256_281_407_04));
    }

    #[test]
    fn percentiles_and_lows_of_a_thousand_distinct_frames() {
        // 1, 2, ..., 1000 ms, shuffled by a stride coprime with 1000.
        let frames: Vec<Nanos> = (0..1000u64).map(|i| (i * 337 % 1000 + 1) * MS).collect();
        let s = stats(&frames);
        // Nearest ranks 500, 900, 950, 990, 999 of 1000 are those values in ms.
        assert_eq!(
            [s.p50, s.p90, s.p95, s.p99, s.p99_9, s.max],
            [500 * MS, 900 * MS, 950 * MS, 990 * MS, 999 * MS, 1000 * MS]
        );
        // 1000 frames in 1000 * 1001 / 2 = 500500 ms: 1000 / 500.5 s = 1.998001998... fps.
        assert_eq!(s.all.time, 500_500 * MS);
        assert_eq!(s.average_fps(), Some(1.998_001_998_001_998));
        // Slowest 1%: the 10 frames 991..=1000 ms, 9955 ms: 10 / 9.955 = 1.00452034153...
        assert_eq!(
            s.slowest_1_percent,
            FrameSum {
                frames: 10,
                time: 9955 * MS
            }
        );
        assert_eq!(s.one_percent_low_fps(), Some(1.004_520_341_536_916_1));
        // Slowest 0.1%: the 1000 ms frame alone.
        assert_eq!(s.point_one_percent_low_fps(), Some(1.0));
        // The upper median of 1000 frames is the 501st, 501 ms: nothing exceeds 1002 ms.
        assert_eq!(s.hitch_threshold, Some(1002 * MS));
        assert_eq!(s.hitches.frames, 0);
    }

    #[test]
    fn hitches_are_frames_over_twice_the_upper_median() {
        // Sorted 10, 10, 20, 30, 70 ms: median 20 ms, threshold 40 ms. 30 is not a hitch,
        // 70 is.
        let s = stats(&[30 * MS, 10 * MS, 70 * MS, 20 * MS, 10 * MS]);
        assert_eq!(s.hitch_threshold, Some(40 * MS));
        assert_eq!(
            s.hitches,
            FrameSum {
                frames: 1,
                time: 70 * MS
            }
        );
        // 70 of 140 ms.
        assert_eq!(s.hitch_time_percent(), Some(50.0));
        // Exactly twice the median is not a hitch.
        assert_eq!(stats(&[10 * MS, 10 * MS, 20 * MS]).hitches.frames, 0);
        // An even count takes the upper middle frame: of 10, 10, 30, 70 ms that is 30 ms
        // (P50, nearest-rank, is the 2nd: 10 ms), so the threshold is 60 ms.
        let even = stats(&[10 * MS, 70 * MS, 30 * MS, 10 * MS]);
        assert_eq!(even.p50, 10 * MS);
        assert_eq!(even.hitch_threshold, Some(60 * MS));
        assert_eq!(even.hitches.frames, 1);
    }

    #[test]
    fn zero_length_frames_have_no_rates() {
        let s = stats(&[0, 0, 0]);
        assert_eq!(s.max, 0);
        assert_eq!(s.average_fps(), None);
        assert_eq!(s.one_percent_low_fps(), None);
        assert_eq!(s.point_one_percent_low_fps(), None);
        assert_eq!(s.hitch_time_percent(), None);
        // A zero median makes no threshold: nothing is "twice nothing".
        assert_eq!(s.hitch_threshold, None);
        assert_eq!(s.hitches.frames, 0);
        // Zero-length frames among others: 3 frames in 10 ms are 300 fps, and the slowest
        // 1% (one frame) is 100 fps. The median is 0, so still no hitches.
        let mixed = stats(&[0, 10 * MS, 0]);
        assert_eq!(mixed.average_fps(), Some(300.0));
        assert_eq!(mixed.one_percent_low_fps(), Some(100.0));
        assert_eq!(mixed.hitches.frames, 0);
        assert_eq!(mixed.hitch_time_percent(), Some(0.0));
    }

    #[test]
    fn statistics_in_place_equal_statistics_from_a_copy() {
        let frames = [5 * MS, MS, 9 * MS, 3 * MS];
        let mut in_place = frames;
        assert_eq!(
            FrameStats::from_frame_times_in_place(&mut in_place),
            Some(stats(&frames))
        );
        assert_eq!(in_place, [MS, 3 * MS, 5 * MS, 9 * MS], "sorted");
    }

    #[test]
    fn the_tail_of_a_run_is_empty_before_its_first_frame() {
        let tail = FrameTail::new(100);
        assert_eq!(tail.p99(), None);
        assert_eq!(tail.max(), None);
        assert_eq!(FrameTail::new(0).p99(), None);
    }

    #[test]
    fn the_tail_keeps_one_percent_of_its_frames() {
        // 518400 frames: P99 is rank 513216, the 5185th from the top.
        assert_eq!(FrameTail::new(518_400).keep, 5185);
        assert_eq!(FrameTail::new(100).keep, 2);
        assert_eq!(FrameTail::new(1).keep, 1);
    }

    #[test]
    fn passes_find_ranks_across_the_whole_range_of_frame_times() {
        // The extremes of u64 and a spread that needs every pass of the narrowing.
        let frames = [
            0,
            Nanos::MAX,
            1 << 40,
            (1 << 40) + 1,
            3,
            Nanos::MAX - 1,
            1 << 20,
        ];
        for bits in [1, 4, SELECT_BUCKET_BITS] {
            let sorted = {
                let mut copy = frames;
                copy.sort_unstable();
                copy
            };
            let ranks: [u64; 7] = std::array::from_fn(|i| i as u64 + 1);
            assert_eq!(
                select_ranks(|| frames.iter().copied(), (0, Nanos::MAX), ranks, bits),
                sorted,
                "{bits} bits"
            );
        }
    }

    proptest! {
        /// Passes over the frames give exactly the statistics of the sorted frames, however
        /// few buckets a pass has (so however many passes it takes).
        #[test]
        fn statistics_from_passes_equal_statistics_from_the_sorted_frames(
            frames in proptest::collection::vec(
                prop_oneof![0u64..50, 16_000_000u64..17_000_000, 0u64..(1 << 45)],
                0..700,
            ),
            bucket_bits in 1u32..=SELECT_BUCKET_BITS,
        ) {
            let sorted = FrameStats::from_frame_times(frames.iter().copied(), &mut Vec::new());
            let passes = FrameStats::from_passes_in(|| frames.iter().copied(), bucket_bits);
            prop_assert_eq!(passes, sorted);
        }
    }

    proptest! {
        /// The tail's P99 and max equal those of the whole sorted set, for a run of any
        /// length up to the tail's size (a run that froze stops early).
        #[test]
        fn the_tail_is_exact_for_every_run_it_is_sized_for(
            frames in proptest::collection::vec(0u64..50, 1..700),
            extra in 0usize..300,
        ) {
            let mut tail = FrameTail::new(frames.len() + extra);
            for &frame in &frames {
                tail.record(frame);
            }
            let s = stats(&frames);
            prop_assert_eq!(tail.p99(), Some(s.p99));
            prop_assert_eq!(tail.max(), Some(s.max));
        }
    }
}
