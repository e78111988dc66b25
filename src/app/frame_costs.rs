//! What the main thread spends a frame on, kept for the exit summary: the recent frames'
//! times, with their median and 99th percentile.

use std::time::Duration;

use crate::ring::Ring;
use crate::stats::{mean_median, percentile};

/// Frames kept (the most recent).
const KEPT: usize = 4096;

/// The last [`KEPT`] frames' times, ns.
#[derive(Clone, Debug)]
pub struct FrameCosts(Ring<u32>);

impl Default for FrameCosts {
    fn default() -> Self {
        Self(Ring::new(KEPT))
    }
}

/// The median and 99th percentile of the kept frames, ms, and how many there were.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostStats {
    /// The median, ms.
    pub median_ms: f64,
    /// The 99th percentile (nearest rank), ms.
    pub p99_ms: f64,
    /// Frames kept.
    pub frames: usize,
}

impl FrameCosts {
    /// Adds a frame that took `took` (4.29 s at most counts as 4.29 s).
    pub fn record(&mut self, took: Duration) {
        self.0
            .push(u32::try_from(took.as_nanos()).unwrap_or(u32::MAX));
    }

    /// The kept frames' median and 99th percentile, as the lab's other summaries take
    /// them (`crate::stats`); `None` before a frame.
    pub fn stats(&self) -> Option<CostStats> {
        let mut times: Vec<Duration> = self
            .0
            .iter()
            .map(|&ns| Duration::from_nanos(u64::from(ns)))
            .collect();
        let median = mean_median(&mut times)?;
        times.sort_unstable();
        let ms = |time: Duration| time.as_secs_f64() * 1e3;
        Some(CostStats {
            median_ms: ms(median),
            p99_ms: ms(percentile(&times, 0.99)),
            frames: times.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_frame_has_no_figures() {
        assert_eq!(FrameCosts::default().stats(), None);
    }

    #[test]
    fn the_median_and_the_99th_percentile_are_of_the_kept_frames() {
        let mut costs = FrameCosts::default();
        for us in 1..=101 {
            costs.record(Duration::from_micros(us));
        }
        let stats = costs.stats().expect("frames");
        assert_eq!(stats.frames, 101);
        assert_eq!(stats.median_ms, 0.051);
        assert_eq!(stats.p99_ms, 0.1);
    }

    #[test]
    fn only_the_most_recent_frames_are_kept() {
        let mut costs = FrameCosts::default();
        for _ in 0..KEPT {
            costs.record(Duration::from_secs(1));
        }
        for _ in 0..KEPT {
            costs.record(Duration::from_micros(1));
        }
        let stats = costs.stats().expect("frames");
        assert_eq!(stats.frames, KEPT);
        assert_eq!(stats.p99_ms, 0.001);
    }

    #[test]
    fn a_frame_past_what_a_u32_holds_counts_as_the_most_it_holds() {
        let mut costs = FrameCosts::default();
        costs.record(Duration::from_secs(10));
        assert_eq!(
            costs.stats().expect("a frame").median_ms,
            f64::from(u32::MAX) / 1e6
        );
    }
}
