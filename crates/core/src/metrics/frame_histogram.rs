//! Every frame of a session in fixed memory: a log-linear histogram of frame times whose
//! buckets keep their count and their exact total, read by [`FrameStats`] like a sorted set.
//!
//! Each power of two of nanoseconds is split into [`HISTOGRAM_SUB_BUCKETS`] equal buckets
//! (below that many nanoseconds every value has its own), so a bucket is never wider than
//! [`HISTOGRAM_RELATIVE_WIDTH`] of the frame times in it (1/1024, under 0.1%). What the
//! histogram reads:
//!
//! - exactly: the number of frames, their total time (so the average fps), the longest and
//!   the shortest frame;
//! - within a bucket's width (under 0.1%): a frame of a given rank (a percentile, the
//!   median) reads as the mean of its bucket; the slowest 1% and 0.1% take whole buckets
//!   exactly and a bucket's share of the rest at its mean (the longest frame always exact);
//!   the hitch threshold follows the median, and frames in the bucket that holds the
//!   threshold count as hitches when their mean is above it.
//!
//! A bucket holding only equal frames reads them exactly, so frames of a few distinct
//! lengths (a steady rate, a virtual clock) have exactly the statistics of the sorted set.
//!
//! [`FrameStats`]: super::FrameStats

use std::fmt;

use super::frame_times::{AscendingFrames, FrameSum};
use crate::timestep::Nanos;

/// Bits of a frame time kept below its leading one: each power of two is split into
/// 2^10 buckets, the finest split whose error (under 0.1%) stays below the two decimals
/// of a millisecond readout at game frame rates (16.67 ms ± 0.016 ms).
const SUB_BUCKET_BITS: u32 = 10;

/// Buckets per power of two of nanoseconds.
pub const HISTOGRAM_SUB_BUCKETS: u64 = 1 << SUB_BUCKET_BITS;

/// Buckets in all: one per value below [`HISTOGRAM_SUB_BUCKETS`] ns, then
/// [`HISTOGRAM_SUB_BUCKETS`] for each power of two up to 2^64 ns.
pub const HISTOGRAM_BUCKETS: usize =
    ((u64::BITS - SUB_BUCKET_BITS + 1) as usize) << SUB_BUCKET_BITS;

/// The widest a bucket is, as a fraction of the frame times in it: 1/1024.
pub const HISTOGRAM_RELATIVE_WIDTH: f64 = 1.0 / HISTOGRAM_SUB_BUCKETS as f64;

/// Words of the map of buckets in use: a bit per bucket.
const OCCUPIED_WORDS: usize = HISTOGRAM_BUCKETS.div_ceil(u64::BITS as usize);

/// Memory a histogram holds, whatever the number of frames: a count and a total per
/// bucket, and a bit per bucket saying whether it holds frames (887 KiB).
pub const HISTOGRAM_BYTES: usize =
    HISTOGRAM_BUCKETS * 2 * size_of::<u64>() + OCCUPIED_WORDS * size_of::<u64>();

/// Frame times of any number of frames, in [`HISTOGRAM_BYTES`] allocated once.
#[derive(Clone)]
pub struct FrameHistogram {
    /// Frames in each bucket.
    counts: Box<[u64]>,
    /// Their total time, ns (saturating).
    totals: Box<[Nanos]>,
    /// A bit per bucket, set where it holds frames: the buckets in use are read without
    /// visiting the empty ones between them (a session's first frame, near 0, and its
    /// usual frames, near 16 ms, are some 15 000 buckets apart).
    occupied_map: Box<[u64]>,
    /// All frames and their total time.
    all: FrameSum,
    /// The shortest frame (meaningless without frames).
    min: Nanos,
    /// The longest frame (0 without frames).
    max: Nanos,
    /// The lowest and highest bucket holding frames (meaningless without frames).
    occupied: (usize, usize),
}

impl Default for FrameHistogram {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for FrameHistogram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameHistogram")
            .field("all", &self.all)
            .field("min", &self.min)
            .field("max", &self.max)
            .field("occupied", &self.occupied)
            .finish_non_exhaustive()
    }
}

impl FrameHistogram {
    /// An empty histogram.
    pub fn new() -> Self {
        Self {
            counts: vec![0; HISTOGRAM_BUCKETS].into_boxed_slice(),
            totals: vec![0; HISTOGRAM_BUCKETS].into_boxed_slice(),
            occupied_map: vec![0; OCCUPIED_WORDS].into_boxed_slice(),
            all: FrameSum::default(),
            min: 0,
            max: 0,
            occupied: (0, 0),
        }
    }

    /// Adds one frame time. Never allocates.
    pub fn record(&mut self, frame: Nanos) {
        let bucket = bucket_of(frame);
        self.counts[bucket] += 1;
        self.totals[bucket] = self.totals[bucket].saturating_add(frame);
        self.occupied_map[bucket / WORD_BITS] |= 1 << (bucket % WORD_BITS);
        if self.all.frames == 0 {
            self.min = frame;
            self.max = frame;
            self.occupied = (bucket, bucket);
        } else {
            self.min = self.min.min(frame);
            self.max = self.max.max(frame);
            self.occupied = (self.occupied.0.min(bucket), self.occupied.1.max(bucket));
        }
        self.all.frames += 1;
        self.all.time = self.all.time.saturating_add(frame);
    }

    /// Forgets every frame (clearing only the buckets in use).
    pub fn clear(&mut self) {
        if self.all.frames > 0 {
            let (low, high) = self.occupied;
            self.counts[low..=high].fill(0);
            self.totals[low..=high].fill(0);
            self.occupied_map[low / WORD_BITS..=high / WORD_BITS].fill(0);
        }
        self.all = FrameSum::default();
        self.min = 0;
        self.max = 0;
        self.occupied = (0, 0);
    }

    /// Frames recorded.
    pub fn frames(&self) -> u64 {
        self.all.frames
    }

    /// Buckets allocated: [`HISTOGRAM_BUCKETS`], however many frames were recorded.
    pub fn buckets(&self) -> usize {
        self.counts.len()
    }

    /// The memory held, bytes: [`HISTOGRAM_BYTES`], however many frames were recorded.
    pub fn memory_bytes(&self) -> usize {
        (self.counts.len() + self.totals.len() + self.occupied_map.len()) * size_of::<u64>()
    }

    /// The buckets in use, lowest first: index, count, total.
    fn occupied_buckets(&self) -> impl DoubleEndedIterator<Item = (usize, u64, Nanos)> + '_ {
        let words = if self.all.frames == 0 {
            0..0
        } else {
            self.occupied.0 / WORD_BITS..self.occupied.1 / WORD_BITS + 1
        };
        words
            .flat_map(|word| SetBits {
                bits: self.occupied_map[word],
                first: word * WORD_BITS,
            })
            .map(|bucket| (bucket, self.counts[bucket], self.totals[bucket]))
    }

    /// What a bucket's frames read as: their mean, within the frames recorded.
    fn mean(&self, count: u64, total: Nanos) -> Nanos {
        let mean = (u128::from(total) + u128::from(count / 2)) / u128::from(count);
        Nanos::try_from(mean)
            .unwrap_or(Nanos::MAX)
            .clamp(self.min, self.max)
    }

    /// `taken` of a bucket's `count` frames (`0 < taken < count`), from its longest: the
    /// longest frame of all exactly when the bucket is the highest, the rest at the mean.
    fn part(&self, bucket: usize, count: u64, total: Nanos, taken: u64) -> Nanos {
        let share = |frames: u64, of: u64, total: Nanos| {
            let part =
                (u128::from(total) * u128::from(frames) + u128::from(of / 2)) / u128::from(of);
            Nanos::try_from(part).unwrap_or(Nanos::MAX)
        };
        if bucket == self.occupied.1 {
            self.max
                .saturating_add(share(taken - 1, count - 1, total.saturating_sub(self.max)))
        } else {
            share(taken, count, total)
        }
    }
}

/// Bits in a word of the map of buckets in use.
const WORD_BITS: usize = u64::BITS as usize;

/// The buckets a word of the map says are in use, from either end.
struct SetBits {
    /// The word's bits not handed out yet.
    bits: u64,
    /// The bucket of its lowest bit.
    first: usize,
}

impl Iterator for SetBits {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        (self.bits != 0).then(|| {
            let bit = self.bits.trailing_zeros() as usize;
            self.bits &= self.bits - 1;
            self.first + bit
        })
    }
}

impl DoubleEndedIterator for SetBits {
    fn next_back(&mut self) -> Option<usize> {
        (self.bits != 0).then(|| {
            let bit = WORD_BITS - 1 - self.bits.leading_zeros() as usize;
            self.bits &= !(1 << bit);
            self.first + bit
        })
    }
}

impl AscendingFrames for FrameHistogram {
    fn all(&self) -> FrameSum {
        self.all
    }

    fn at_rank(&self, rank: u64) -> Nanos {
        let frames = self.all.frames;
        if rank == 0 || rank > frames {
            return 0;
        }
        if rank == frames {
            return self.max;
        }
        if rank == 1 {
            return self.min;
        }
        // Counting from the nearer end.
        let found = if rank <= frames / 2 {
            let mut below = 0;
            self.occupied_buckets().find(|&(_, count, _)| {
                below += count;
                below >= rank
            })
        } else {
            let from_top = frames - rank + 1;
            let mut above = 0;
            self.occupied_buckets().rev().find(|&(_, count, _)| {
                above += count;
                above >= from_top
            })
        };
        found.map_or(0, |(_, count, total)| self.mean(count, total))
    }

    fn longest(&self, count: u64) -> FrameSum {
        let wanted = count.min(self.all.frames);
        let mut taken = FrameSum::default();
        for (bucket, frames, total) in self.occupied_buckets().rev() {
            if taken.frames == wanted {
                break;
            }
            let left = wanted - taken.frames;
            let time = if frames <= left {
                total
            } else {
                self.part(bucket, frames, total, left)
            };
            taken.frames += frames.min(left);
            taken.time = taken.time.saturating_add(time);
        }
        taken
    }

    fn longer_than(&self, threshold: Nanos) -> FrameSum {
        let mut longer = FrameSum::default();
        for (bucket, frames, total) in self.occupied_buckets().rev() {
            let (low, high) = bucket_range(bucket);
            if high <= threshold {
                break;
            }
            if low > threshold || self.mean(frames, total) > threshold {
                longer.frames += frames;
                longer.time = longer.time.saturating_add(total);
            } else if bucket == self.occupied.1 && self.max > threshold {
                // The longest frame is known exactly.
                longer.frames += 1;
                longer.time = longer.time.saturating_add(self.max);
            }
            if low <= threshold {
                break;
            }
        }
        longer
    }

    fn for_each_run(&self, mut each: impl FnMut(Nanos, u64) -> bool) {
        for (_, count, total) in self.occupied_buckets() {
            if !each(self.mean(count, total), count) {
                return;
            }
        }
    }
}

/// The bucket of `frame`: the value itself below [`HISTOGRAM_SUB_BUCKETS`] ns; above, the
/// power of two and the top [`SUB_BUCKET_BITS`] bits below its leading one.
fn bucket_of(frame: Nanos) -> usize {
    if frame < HISTOGRAM_SUB_BUCKETS {
        return frame as usize;
    }
    let power = Nanos::BITS - 1 - frame.leading_zeros();
    let shift = power - SUB_BUCKET_BITS;
    let group = (shift + 1) as usize;
    (group << SUB_BUCKET_BITS) + ((frame >> shift) - HISTOGRAM_SUB_BUCKETS) as usize
}

/// The frame times bucket `bucket` holds, inclusive.
fn bucket_range(bucket: usize) -> (Nanos, Nanos) {
    let group = (bucket >> SUB_BUCKET_BITS) as u32;
    let sub = (bucket as u64) & (HISTOGRAM_SUB_BUCKETS - 1);
    if group == 0 {
        return (sub, sub);
    }
    let shift = group - 1;
    let low = (HISTOGRAM_SUB_BUCKETS + sub) << shift;
    (low, low + ((1 << shift) - 1))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::metrics::FrameStats;

    const MS: Nanos = 1_000_000;

    fn histogram(frames: &[Nanos]) -> FrameHistogram {
        let mut histogram = FrameHistogram::new();
        for &frame in frames {
            histogram.record(frame);
        }
        histogram
    }

    fn exact(frames: &[Nanos]) -> FrameStats {
        FrameStats::from_frame_times(frames.iter().copied(), &mut Vec::new()).expect("frames")
    }

    fn read(histogram: &FrameHistogram) -> FrameStats {
        FrameStats::from_ascending(histogram).expect("frames")
    }

    #[test]
    fn buckets_tile_every_frame_time_without_gaps() {
        assert_eq!(HISTOGRAM_BUCKETS, 56_320);
        assert_eq!(HISTOGRAM_BYTES, 908_160);
        assert_eq!(bucket_range(0), (0, 0));
        for bucket in 1..HISTOGRAM_BUCKETS {
            let (low, high) = bucket_range(bucket);
            assert_eq!(low, bucket_range(bucket - 1).1 + 1, "gap before {bucket}");
            assert_eq!((bucket_of(low), bucket_of(high)), (bucket, bucket));
            // Never wider than 1/1024 of its lowest frame time (1 ns below 1024 ns).
            assert!(
                high - low < (low >> SUB_BUCKET_BITS).max(1),
                "bucket {bucket}"
            );
        }
        assert_eq!(bucket_range(HISTOGRAM_BUCKETS - 1).1, Nanos::MAX);
        assert_eq!(bucket_of(1023), 1023);
        assert_eq!(
            bucket_range(bucket_of(16_666_667)),
            (16_662_528, 16_670_719)
        );
    }

    #[test]
    fn an_empty_histogram_has_no_statistics() {
        let empty = FrameHistogram::new();
        assert_eq!(FrameStats::from_ascending(&empty), None);
        assert_eq!(empty.at_rank(1), 0);
        assert_eq!(empty.longest(3), FrameSum::default());
        let mut cleared = histogram(&[5 * MS, 7 * MS]);
        cleared.clear();
        assert_eq!(FrameStats::from_ascending(&cleared), None);
        cleared.record(3 * MS);
        assert_eq!(read(&cleared), exact(&[3 * MS]));
    }

    #[test]
    fn frames_of_a_few_lengths_read_exactly() {
        // One frame; equal frames; one huge hitch among equal frames; a 60 Hz run with a
        // few doubled frames: every bucket holds equal frames only.
        let mut hitch = vec![10 * MS; 99];
        hitch.insert(40, 1000 * MS);
        let mut doubled = vec![16_666_667; 600];
        for i in [100, 250, 400] {
            doubled[i] = 33_333_334;
        }
        for frames in [vec![16 * MS], vec![10 * MS; 100], hitch, doubled] {
            assert_eq!(read(&histogram(&frames)), exact(&frames));
        }
    }

    #[test]
    fn the_longest_frame_and_the_total_are_exact_within_a_shared_bucket() {
        // 16.663 and 16.664 ms share the bucket 16.662528..=16.670719 ms: its mean reads
        // 16.663333 ms, but the longest frame and the slowest one (the 0.1% low of 3
        // frames) are exact.
        let frames = [16_663_000, 16_664_000, 16_663_000];
        let s = read(&histogram(&frames));
        assert_eq!(s.max, 16_664_000);
        assert_eq!(s.p99_9, 16_664_000);
        assert_eq!(s.all, exact(&frames).all);
        assert_eq!(s.slowest_0_1_percent.time, 16_664_000);
        // Rank 2 of 3 (P50): the bucket's mean, 49.99 ms / 3 rounded.
        assert_eq!(s.p50, 16_663_333);
    }

    #[test]
    fn recording_never_grows_the_histogram() {
        let mut histogram = FrameHistogram::new();
        for i in 0..1_000_000u64 {
            histogram.record(i * 7919 % 50_000_000 + 1);
        }
        histogram.record(Nanos::MAX);
        histogram.record(0);
        assert_eq!(histogram.buckets(), HISTOGRAM_BUCKETS);
        assert_eq!(histogram.frames(), 1_000_002);
        assert_eq!(histogram.at_rank(1_000_002), Nanos::MAX);
        assert_eq!(histogram.at_rank(1), 0);
    }

    #[test]
    fn the_buckets_in_use_are_found_from_either_end_across_empty_ones() {
        let scanned = |histogram: &FrameHistogram| -> Vec<(usize, u64, Nanos)> {
            (0..HISTOGRAM_BUCKETS)
                .filter(|&bucket| histogram.counts[bucket] > 0)
                .map(|bucket| (bucket, histogram.counts[bucket], histogram.totals[bucket]))
                .collect()
        };
        // Buckets at the ends of the map's words and far apart, one of them twice.
        let mut histogram = histogram(&[
            0,
            1,
            63,
            64,
            65,
            1023,
            1024,
            16_666_667,
            16_666_667,
            300 * MS,
            Nanos::MAX,
        ]);
        for round in 0..2 {
            let forward: Vec<_> = histogram.occupied_buckets().collect();
            let mut backward: Vec<_> = histogram.occupied_buckets().rev().collect();
            backward.reverse();
            assert_eq!(forward, scanned(&histogram), "round {round}");
            assert_eq!(backward, forward, "round {round}");
            histogram.clear();
            assert_eq!(histogram.occupied_buckets().count(), 0);
            histogram.record(127);
            histogram.record(5 * MS);
        }
    }

    /// Whether `read` is within `relative` of `exact`.
    fn near(read: Nanos, exact: Nanos, relative: f64) -> bool {
        (read as f64 - exact as f64).abs() <= exact as f64 * relative
    }

    proptest! {
        /// Against the sorted set: count, total and max exact; every percentile, the
        /// lows' times and the threshold within a bucket's width; hitches counted exactly
        /// outside the buckets next to the threshold.
        #[test]
        fn the_histogram_reads_within_a_bucket_of_the_sorted_set(
            spread in prop_oneof![Just(200_000_000u64), Just(100_000u64)],
            offsets in proptest::collection::vec(0u64..1_000_000, 1..3000),
        ) {
            // Frames anywhere up to 200 ms (few share a bucket), or crowded within 0.1 ms
            // of 16.6 ms (about twelve buckets, shared by many different frames).
            let base = if spread == 100_000 { 16_600_000 } else { 1 };
            let frames: Vec<Nanos> =
                offsets.iter().map(|offset| base + offset * spread / 1_000_000).collect();
            let s = read(&histogram(&frames));
            let e = exact(&frames);
            let width = HISTOGRAM_RELATIVE_WIDTH;
            prop_assert_eq!(s.all, e.all);
            prop_assert_eq!(s.max, e.max);
            for (read, exact) in [(s.p50, e.p50), (s.p90, e.p90), (s.p95, e.p95),
                                  (s.p99, e.p99), (s.p99_9, e.p99_9)] {
                prop_assert!(near(read, exact, width), "{} vs {}", read, exact);
            }
            for (read, exact) in [(s.slowest_1_percent, e.slowest_1_percent),
                                  (s.slowest_0_1_percent, e.slowest_0_1_percent)] {
                prop_assert_eq!(read.frames, exact.frames);
                prop_assert!(near(read.time, exact.time, width), "{:?} vs {:?}", read, exact);
            }
            let (threshold, exact_threshold) = (
                s.hitch_threshold.expect("a median"),
                e.hitch_threshold.expect("a median"),
            );
            prop_assert!(near(threshold, exact_threshold, width));
            let longer = |factor: f64| {
                frames.iter().filter(|&&f| f as f64 > exact_threshold as f64 * factor).count()
                    as u64
            };
            prop_assert!(
                (longer(1.0 + 3.0 * width)..=longer(1.0 - 3.0 * width)).contains(&s.hitches.frames),
                "{} hitches, exactly {}", s.hitches.frames, e.hitches.frames
            );
        }
    }
}
