//! Detecting the spiral of death: the loop's owed time keeps growing because the steps it
//! owes take longer than the time they simulate.

use crate::timestep::Nanos;

/// Frames in each of the three windows compared. Long enough that one hitch cannot fake a
/// trend (a median ignores it), short enough to report a spiral within a second at 60 fps.
pub const SPIRAL_WINDOW_FRAMES: usize = 16;
/// Step work at or above this share of the frame time means the loop cannot catch up.
const SATURATED_SHARE: f64 = 0.9;

/// Watches owed time and step work, frame by frame, without allocating.
///
/// It reports a spiral when, over the last three windows of [`SPIRAL_WINDOW_FRAMES`]
/// frames, the median owed time grew from each window to the next by more than one step
/// and at least 10%, and step work in the last window took at least 90% of the frame time.
/// Growth alone is not enough (a trace can slow down by itself); saturation alone is not
/// enough (a guard keeps a saturated loop from growing: it settles, slower than real time).
#[derive(Clone, Debug)]
pub struct SpiralDetector {
    /// The step; growth must exceed it.
    dt: Nanos,
    /// Owed time of recent frames, a ring.
    owed: [Nanos; 3 * SPIRAL_WINDOW_FRAMES],
    /// Step work as a share of frame time, a ring aligned with `owed`.
    work_share: [f64; 3 * SPIRAL_WINDOW_FRAMES],
    /// Valid entries.
    len: usize,
    /// Next slot to write.
    next: usize,
}

impl SpiralDetector {
    /// A detector for steps of `dt`.
    pub fn new(dt: Nanos) -> Self {
        Self {
            dt,
            owed: [0; 3 * SPIRAL_WINDOW_FRAMES],
            work_share: [0.0; 3 * SPIRAL_WINDOW_FRAMES],
            len: 0,
            next: 0,
        }
    }

    /// Forgets every frame (after a reset or a change of step).
    pub fn reset(&mut self, dt: Nanos) {
        *self = Self::new(dt);
    }

    /// Records a frame: the time it had to simulate, the time its steps took to compute,
    /// and the frame's time.
    pub fn record(&mut self, owed: Nanos, work: Nanos, frame_time: Nanos) {
        self.owed[self.next] = owed;
        self.work_share[self.next] = if frame_time > 0 {
            work as f64 / frame_time as f64
        } else {
            0.0
        };
        self.next = (self.next + 1) % self.owed.len();
        self.len = (self.len + 1).min(self.owed.len());
    }

    /// Whether the loop is spiralling now.
    pub fn spiralling(&self) -> bool {
        if self.len < self.owed.len() {
            return false;
        }
        let medians = [0, 1, 2].map(|window| self.window_median(window));
        let grows = |from: Nanos, to: Nanos| to > from.saturating_add(self.dt.max(from / 10));
        let mut shares = [0.0; SPIRAL_WINDOW_FRAMES];
        for (i, share) in shares.iter_mut().enumerate() {
            *share = self.work_share[self.slot(2, i)];
        }
        shares.sort_unstable_by(f64::total_cmp);
        let saturated = shares[SPIRAL_WINDOW_FRAMES / 2] >= SATURATED_SHARE;
        saturated && grows(medians[0], medians[1]) && grows(medians[1], medians[2])
    }

    /// Ring slot of frame `i` of window `window` (0 = oldest).
    fn slot(&self, window: usize, i: usize) -> usize {
        (self.next + window * SPIRAL_WINDOW_FRAMES + i) % self.owed.len()
    }

    /// Median owed time of one window.
    fn window_median(&self, window: usize) -> Nanos {
        let mut values = [0; SPIRAL_WINDOW_FRAMES];
        for (i, value) in values.iter_mut().enumerate() {
            *value = self.owed[self.slot(window, i)];
        }
        values.sort_unstable();
        values[SPIRAL_WINDOW_FRAMES / 2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Nanos = 1_000_000;

    #[test]
    fn geometric_growth_under_full_load_is_a_spiral() {
        let mut detector = SpiralDetector::new(20 * MS);
        let mut owed = 20.0 * 1e6;
        for _ in 0..48 {
            detector.record(owed as Nanos, (owed * 1.1) as Nanos, owed as Nanos);
            owed *= 1.05;
        }
        assert!(detector.spiralling());
    }

    #[test]
    fn settled_load_is_not_a_spiral_even_when_saturated() {
        let mut detector = SpiralDetector::new(20 * MS);
        for i in 0..200 {
            let owed = 250 * MS + (i % 3) * MS;
            detector.record(owed, 260 * MS, 250 * MS);
            assert!(!detector.spiralling());
        }
    }

    #[test]
    fn growth_without_load_is_not_a_spiral() {
        let mut detector = SpiralDetector::new(20 * MS);
        for i in 0..48u64 {
            detector.record(10 * MS * (i + 1), MS, 10 * MS * (i + 1));
        }
        assert!(!detector.spiralling());
    }

    #[test]
    fn a_single_hitch_is_not_a_trend() {
        let mut detector = SpiralDetector::new(20 * MS);
        for i in 0..48 {
            let owed = if i == 40 { 400 * MS } else { 30 * MS };
            detector.record(owed, owed, owed);
        }
        assert!(!detector.spiralling());
    }
}
