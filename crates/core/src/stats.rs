//! Order statistics, one definition each, for every place that summarises a set of values:
//! the bench, the live readouts, the timeline, the spiral detector, the trace readers and
//! `bench-render`.
//!
//! Two medians, named for what they are:
//! - [`upper_median`] picks a sample: the middle one, the upper of the two middle ones for an
//!   even count. Integer time stays exact and a threshold derived from it (a hitch is twice
//!   the median) is always a time that actually occurred.
//! - [`mean_median`] averages the two middle samples of an even count: the textbook median,
//!   for reporting measured timings (`bench-render`).
//!
//! [`percentile`] is the nearest-rank percentile (no interpolation): the smallest sample
//! with at least the fraction `q` of the samples at or below it. Its rank,
//! [`nearest_rank`], also counts "the slowest 1%" of a set: `nearest_rank(n, 0.01)` samples,
//! rounded up, at least one.

use std::time::Duration;

/// The middle value of `values`, the upper of the two middle ones for an even count,
/// reordering them in place (linear time); `None` when empty. Callers pass comparable
/// values (no NaN: it would compare equal to everything).
pub fn upper_median<T: Copy + PartialOrd>(values: &mut [T]) -> Option<T> {
    if values.is_empty() {
        return None;
    }
    let middle = values.len() / 2;
    let (_, value, _) = values.select_nth_unstable_by(middle, |a, b| {
        a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal)
    });
    Some(*value)
}

/// The median of `samples`: the middle one, the mean of the two middle ones for an even
/// count; `None` when empty. `samples` is reordered in place.
pub fn mean_median(samples: &mut [Duration]) -> Option<Duration> {
    let upper = upper_median(samples)?;
    if samples.len().is_multiple_of(2) {
        // After the selection, everything before the middle is at most `upper`: the lower
        // middle sample is their maximum.
        let lower = samples[..samples.len() / 2].iter().max().copied()?;
        Some((lower + upper) / 2)
    } else {
        Some(upper)
    }
}

/// The nearest-rank percentile `q` (0 to 1) of `sorted` (ascending); `T::default()` when
/// empty.
pub fn percentile<T: Copy + Default>(sorted: &[T], q: f64) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    sorted[nearest_rank(sorted.len(), q) - 1]
}

/// [`percentile`] of `values` in any order, reordering them in place: linear time, where
/// sorting them first costs `n log n`. `None` when empty.
pub fn select_percentile<T: Copy + Ord>(values: &mut [T], q: f64) -> Option<T> {
    if values.is_empty() {
        return None;
    }
    let index = nearest_rank(values.len(), q) - 1;
    Some(*values.select_nth_unstable(index).1)
}

/// The nearest rank of the fraction `q` (0 to 1) of `len` samples: `ceil(q * len)`, at
/// least 1 and at most `len` (0 when `len` is 0). Ranks count from 1.
pub fn nearest_rank(len: usize, q: f64) -> usize {
    ((q * len as f64).ceil() as usize).clamp(1.min(len), len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selected_percentile_is_the_sorted_ones() {
        let values: Vec<u64> = (0..257u64).map(|i| i * 7919 % 1000).collect();
        let mut sorted = values.clone();
        sorted.sort_unstable();
        for q in [0.0, 0.01, 0.5, 0.9, 0.99, 0.999, 1.0] {
            let mut shuffled = values.clone();
            assert_eq!(
                select_percentile(&mut shuffled, q),
                Some(percentile(&sorted, q)),
                "q {q}"
            );
        }
        assert_eq!(select_percentile::<u64>(&mut [], 0.5), None);
    }

    #[test]
    fn the_upper_median_is_a_sample() {
        assert_eq!(upper_median(&mut [3u64, 1, 2]), Some(2));
        assert_eq!(upper_median(&mut [4u64, 1, 2, 3]), Some(3));
        assert_eq!(upper_median::<u64>(&mut []), None);
        assert_eq!(upper_median(&mut [2.5, 0.5, 1.0]), Some(1.0));
    }

    #[test]
    fn the_mean_median_averages_the_middle_pair() {
        let ms = Duration::from_millis;
        assert_eq!(mean_median(&mut [ms(3), ms(1), ms(2)]), Some(ms(2)));
        assert_eq!(
            mean_median(&mut [ms(4), ms(1), ms(2), ms(3)]),
            Some(Duration::from_micros(2500))
        );
        assert_eq!(mean_median(&mut []), None);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let sorted: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&sorted, 0.50), 50);
        assert_eq!(percentile(&sorted, 0.99), 99);
        assert_eq!(percentile(&sorted, 1.0), 100);
        assert_eq!(percentile(&sorted, 0.0), 1);
        assert_eq!(percentile::<u64>(&[], 0.5), 0);
    }

    #[test]
    fn nearest_ranks_round_up_and_stay_in_range() {
        assert_eq!(nearest_rank(100, 0.99), 99);
        assert_eq!(nearest_rank(101, 0.99), 100); // 99.99 rounds up
        assert_eq!(nearest_rank(1, 0.001), 1); // at least one
        assert_eq!(nearest_rank(250, 0.01), 3); // 2.5 rounds up
        assert_eq!(nearest_rank(5, 2.0), 5); // at most len
        assert_eq!(nearest_rank(0, 0.5), 0);
    }

    /// The fractions the frame statistics use, in thousandths: their float ranks equal the
    /// exact integer ones, `ceil(n * per_mille / 1000)`, for every count up to two million
    /// frames (over nine hours at 60 fps). A fraction whose float is above its decimal
    /// value could round a whole product up by one; these do not.
    #[test]
    fn float_ranks_are_exact_for_the_fractions_used() {
        for per_mille in [1u64, 10, 500, 900, 950, 990, 999] {
            let q = per_mille as f64 / 1000.0;
            for n in 1..=2_000_000u64 {
                let exact = (n * per_mille).div_ceil(1000).max(1);
                assert_eq!(nearest_rank(n as usize, q) as u64, exact, "{q} of {n}");
            }
        }
    }
}
