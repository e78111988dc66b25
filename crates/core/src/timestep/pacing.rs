//! `display-time`'s drawn clock: the state drawn for a frame is the one at its predicted
//! display time less a steady latency, so the motion on screen advances as the display
//! times do, not as the CPU's frame starts do.
//!
//! With `T` the frame's real time on the strategy's clock and `δ` its predicted time from
//! start to screen, the state drawn is at `S = T + δ - L`. When `L` is steady, `S` advances
//! exactly as the predicted display time `T + δ` does, so a correct forecast leaves no
//! animation error however the frame starts wobble. `L` aims at `dt + δ_max`, with `δ_max`
//! the longest recent delay (the second longest of the last [`PACING_FRAMES`] predicted,
//! so that one mispredicted frame does not raise the latency of the next second; the
//! longest while there are fewer than three): one step, so
//! the state is an interpolation between simulated states as `interpolated`'s is, plus the
//! longest delay, so a shorter delay moves the drawn time back into the step before
//! instead of past the latest state. For the first [`PACING_FRAMES`] predicted frames `L`
//! is its aim (the delays are still being learnt, and drifting for seconds from a first
//! wrong guess would cost more than following it); after that it moves toward its aim by
//! at most the frame time over [`SLEW_DIVISOR`] a frame (the drawn clock runs that much slow or fast: spread thin,
//! a change costs less animation error than at once), except where the kept states run
//! out: a drawn time past the latest state raises `L` at once to its aim, or more if that
//! is still past it (the frame shows the latest state), and one before the oldest kept
//! state (two steps back) lowers it just enough. Before the first step there is only one
//! state to show and `L` stays.

use super::Nanos;

/// Frames whose predicted delay the aim of `L` covers: about a second at 60 Hz.
pub const PACING_FRAMES: usize = 64;

/// `L` moves toward its aim by at most the frame time divided by this a frame: 0.5%, so
/// catching up never shows as a change of speed.
pub const SLEW_DIVISOR: u64 = 200;

/// The second largest of `values` (the largest when it occurs twice or more).
fn second_largest(values: &[Nanos]) -> Nanos {
    let (mut first, mut second) = (0, 0);
    for &value in values {
        if value > first {
            second = first;
            first = value;
        } else if value > second {
            second = value;
        }
    }
    second
}

/// The drawn clock's state (see the module doc).
#[derive(Clone, Copy, Debug)]
pub struct Pacing {
    /// The last predicted delays, ns (0 where none has been seen: it never raises the
    /// maximum).
    delays: [Nanos; PACING_FRAMES],
    /// Where the next delay is written.
    next: usize,
    /// How many of `delays` were predicted (at most [`PACING_FRAMES`]).
    predicted: usize,
    /// The last frame's predicted delay, ns (a paused frame keeps it).
    delay: Nanos,
    /// `L`, ns; `None` before the first frame.
    behind: Option<Nanos>,
}

impl Default for Pacing {
    fn default() -> Self {
        Self {
            delays: [0; PACING_FRAMES],
            next: 0,
            predicted: 0,
            delay: 0,
            behind: None,
        }
    }
}

/// What one frame's drawn clock gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paced {
    /// `S`: the simulated time to draw.
    pub time: Nanos,
    /// `δ`: the predicted delay used.
    pub delay: Nanos,
    /// `L`: how far behind the predicted display time the drawn state is.
    pub behind: Nanos,
}

impl Pacing {
    /// The simulated time to draw for a frame `frame_time` long (0: paused) that ends at
    /// real time `presented` on the strategy's clock and is predicted to reach the screen
    /// `delay` after its start (`None`: no prediction, drawn as if the screen showed it at
    /// once), for a strategy of step `dt` whose kept states span `oldest..=latest`.
    pub fn frame(
        &mut self,
        frame_time: Nanos,
        delay: Option<Nanos>,
        presented: Nanos,
        dt: Nanos,
        oldest: Nanos,
        latest: Nanos,
    ) -> Paced {
        if frame_time > 0 {
            self.delay = delay.unwrap_or(0);
            if delay.is_some() {
                self.delays[self.next] = self.delay;
                self.next = (self.next + 1) % PACING_FRAMES;
                self.predicted = (self.predicted + 1).min(PACING_FRAMES);
            }
        }
        // While the delays are being learnt, the longest: one or two delays cannot tell an
        // outlier from the rule, and delays still rising (a queue filling at the start) are
        // each the longest so far, which the second longest would trail by a frame.
        let longest = if self.predicted < PACING_FRAMES {
            // Only the first `predicted` are written yet (the rest are 0).
            self.delays[..self.predicted]
                .iter()
                .copied()
                .max()
                .unwrap_or(0)
        } else {
            second_largest(&self.delays)
        };
        let aim = dt.saturating_add(longest);
        let slew = frame_time / SLEW_DIVISOR;
        let behind = match self.behind {
            // Until a window of delays is seen the aim is still a guess: follow it at once
            // rather than drift for seconds from a first wrong one.
            _ if self.predicted < PACING_FRAMES => aim,
            None => aim,
            Some(behind) if behind < aim => behind.saturating_add(slew).min(aim),
            Some(behind) => behind.saturating_sub(slew).max(aim),
        };
        let display = i128::from(presented) + i128::from(self.delay);
        let (oldest, latest) = (i128::from(oldest), i128::from(latest));
        let wanted = display - i128::from(behind);
        let time = wanted.clamp(oldest, latest);
        // Where the states run out, `L` changes at once: past the latest state it rises to
        // its aim (a delay beyond even that, one mispredicted frame, shows the latest state
        // and is forgotten), before the oldest it falls just enough. Before anything was
        // simulated there is only one state, and it stays.
        let behind = if oldest == latest || wanted == time {
            behind
        } else if wanted > latest {
            behind.max(aim)
        } else {
            Nanos::try_from((display - oldest).max(0)).unwrap_or(0)
        };
        let time = (display - i128::from(behind)).clamp(oldest, latest);
        self.behind = Some(behind);
        Paced {
            time: Nanos::try_from(time).unwrap_or(0),
            delay: self.delay,
            behind,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timestep::{Engine, Strategy, TimestepConfig, View};

    const MS: Nanos = 1_000_000;
    const DT: Nanos = 20 * MS;

    #[test]
    fn a_steady_delay_draws_one_step_behind_the_display_time() {
        let mut pacing = Pacing::default();
        let mut presented = 0;
        for i in 0..200u64 {
            presented += 16 * MS;
            let latest = presented - presented % DT;
            let paced = pacing.frame(16 * MS, Some(30 * MS), presented, DT, 0, latest);
            assert_eq!(paced.behind, DT + 30 * MS, "frame {i}");
            assert_eq!(
                paced.time,
                presented.saturating_sub(DT).min(latest),
                "frame {i}"
            );
        }
    }

    #[test]
    fn a_wobbling_start_draws_at_the_display_times() {
        // Starts wobble 15 / 18.333 ms about a 16.667 ms display: each frame reaches the
        // screen a whole refresh after the one before, 18.333 or 16.667 ms after its start.
        let (short, long, refresh) = (15 * MS, 18_333_333, 16_666_667);
        let mut engine = Engine::new(Strategy::DisplayTime, TimestepConfig::default());
        let mut shown = Vec::new();
        let mut start = 0;
        for i in 0..400u64 {
            let frame = if i % 2 == 0 { short } else { long };
            start += frame;
            let display = refresh * (i + 2);
            let report = engine.advance_to_display(frame, Some(display - start));
            shown.push((report.shown_time, display));
        }
        let steps: Vec<i64> = shown
            .windows(2)
            .skip(2)
            .map(|w| (w[1].0 - w[0].0) as i64 - (w[1].1 - w[0].1) as i64)
            .collect();
        assert!(steps.iter().all(|&e| e.abs() <= 1), "{steps:?}");
        // Interpolation at `T` shows the wobble: 1.67 ms a frame.
        let mut interpolated = Engine::new(Strategy::Interpolated, TimestepConfig::default());
        let t_steps: Vec<Nanos> = (0..4)
            .map(|i| {
                let frame = if i % 2 == 0 { short } else { long };
                interpolated.advance(frame).shown_time
            })
            .collect();
        assert_ne!(t_steps[3] - t_steps[2], t_steps[2] - t_steps[1]);
    }

    #[test]
    fn without_a_display_it_draws_what_interpolated_draws() {
        let config = TimestepConfig::default();
        let mut paced = Engine::new(Strategy::DisplayTime, config);
        let mut plain = Engine::new(Strategy::Interpolated, config);
        for i in 0..500u64 {
            let frame = 9 * MS + (i * 7919 % 23) * MS / 2;
            let (a, b) = (paced.advance(frame), plain.advance(frame));
            assert_eq!(a.shown_time, b.shown_time, "frame {i}");
            assert_eq!(a.drawn, b.drawn, "frame {i}");
            assert_eq!(a.animation_time, a.presented_time);
            assert!(matches!(a.drawn, View::Blend(_) | View::Latest));
        }
    }

    #[test]
    fn the_drawn_time_stays_within_the_kept_states_and_one_outlier_is_forgotten() {
        let mut pacing = Pacing::default();
        let mut presented = 0;
        let mut behind = Vec::new();
        for i in 0..600u64 {
            presented += 16 * MS;
            let latest = presented - presented % DT;
            let oldest = latest.saturating_sub(2 * DT);
            // One forecast 50 ms too long at frame 100, and the delay halves at frame 200.
            let delay = match i {
                100 => 80 * MS,
                200.. => 15 * MS,
                _ => 30 * MS,
            };
            let paced = pacing.frame(16 * MS, Some(delay), presented, DT, oldest, latest);
            assert!((oldest..=latest).contains(&paced.time), "frame {i}");
            behind.push(paced.behind);
        }
        // The outlier showed the latest state for its frame only.
        assert_eq!(behind[99], DT + 30 * MS);
        assert_eq!(
            behind[101],
            DT + 30 * MS,
            "one long forecast does not raise the aim"
        );
        // A shorter delay is reached by slewing, once the longer ones left the window: 0.5%
        // of the frame a frame at most.
        assert_eq!(behind[261], DT + 30 * MS);
        for w in behind[261..500].windows(2) {
            assert!(w[0] - w[1] <= 16 * MS / SLEW_DIVISOR, "{w:?}");
        }
        assert_eq!(*behind.last().unwrap(), DT + 15 * MS);
    }
}
