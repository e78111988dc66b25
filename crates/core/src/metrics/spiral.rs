//! Detecting the spiral of death: the loop's owed time keeps growing because the steps it
//! owes take longer than the time they simulate.

use crate::timestep::Nanos;

/// Frames in each of the three windows compared. Long enough that one hitch cannot fake a
/// trend (a median ignores it), short enough to report a spiral within a second at 60 fps.
pub const SPIRAL_WINDOW_FRAMES: usize = 16;
/// Step work at or above this share of the frame time means the loop cannot catch up.
const SATURATED_SHARE: f64 = 0.9;
/// Consecutive frames whose step work exceeded the frame time, each owing at least 10% more
/// than the one before, that count as a spiral at once. A runaway loop grows geometrically
/// (a step costing 2 dt doubles every frame), so its frames soon last seconds: waiting for
/// three full windows would report it only after the app had frozen.
pub const SPIRAL_RISING_FRAMES: u32 = 3;

/// Watches owed time and step work, frame by frame, without allocating.
///
/// It reports a spiral when the owed time keeps growing while stepping takes (nearly) the
/// whole frame: either each of the last [`SPIRAL_RISING_FRAMES`] frames owed at least 10%
/// more than the one before while its step work exceeded its frame time (a runaway), or,
/// over the last three windows of [`SPIRAL_WINDOW_FRAMES`] frames, the median owed time
/// grew from each window to the next by more than one step and at least 10% while step
/// work took at least 90% of the frame time (a slow climb; medians ignore single hitches).
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
    /// Consecutive saturated frames that each owed at least 10% more than the one before.
    rising: u32,
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
            rising: 0,
        }
    }

    /// Forgets every frame (after a reset or a change of step).
    pub fn reset(&mut self, dt: Nanos) {
        *self = Self::new(dt);
    }

    /// Records a frame: the time it had to simulate, the time its steps took to compute,
    /// and the frame's time.
    pub fn record(&mut self, owed: Nanos, work: Nanos, frame_time: Nanos) {
        let share = if frame_time > 0 {
            work as f64 / frame_time as f64
        } else {
            0.0
        };
        let previous = self.owed[(self.next + self.owed.len() - 1) % self.owed.len()];
        let rose = self.len > 0 && owed > 0 && owed >= previous.saturating_add(previous / 10);
        self.rising = if rose && share >= 1.0 {
            self.rising.saturating_add(1)
        } else {
            0
        };
        self.owed[self.next] = owed;
        self.work_share[self.next] = share;
        self.next = (self.next + 1) % self.owed.len();
        self.len = (self.len + 1).min(self.owed.len());
    }

    /// Whether the loop is spiralling now.
    pub fn spiralling(&self) -> bool {
        if self.rising >= SPIRAL_RISING_FRAMES {
            return true;
        }
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
        crate::stats::upper_median(&mut values).unwrap_or(0)
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
    fn a_fast_runaway_is_reported_after_a_few_frames() {
        let mut detector = SpiralDetector::new(20 * MS);
        let mut owed = 20 * MS;
        for frame in 0..=SPIRAL_RISING_FRAMES {
            assert!(!detector.spiralling(), "not before frame {frame}");
            detector.record(owed, owed, owed);
            owed += owed / 4;
        }
        assert!(detector.spiralling());
        // One frame that stops growing ends the fast path (the windows are not full yet).
        detector.record(owed / 2, owed / 2, owed / 2);
        assert!(!detector.spiralling());
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
