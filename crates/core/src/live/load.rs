//! The artificial load: per-step and per-frame costs, random jitter and periodic hitches,
//! spent on the loop's own thread so that they lengthen the next frame, as real work would.

use super::settings::LoadSettings;
use super::stopwatch::Stopwatch;
use crate::rng::Rng;
use crate::run::{FROZEN_LOAD, freezes};
use crate::timestep::{Nanos, ns_from_ms};

/// Most real time the load busy-waits in one frame. Beyond it the cost is not waited but
/// added to the next frame's time, so the loop sees exactly the frame times a frozen game
/// would see while the window still handles input at least four times a second (and closes
/// within one 250 ms frame at maximum load).
pub const MAX_BUSY_WAIT_PER_FRAME: Nanos = 250_000_000;

/// Seed of the jitter generator: fixed, so a scripted run of the live loop is reproducible.
const JITTER_SEED: u64 = 0x7469_6d65_7374_6570;

/// Spends the artificial load and carries what it could not spend.
#[derive(Clone, Debug)]
pub struct LoadModel {
    /// The costs.
    settings: LoadSettings,
    /// The costs in nanoseconds, converted once (a frame asks for them every time).
    costs: LoadCosts,
    /// Jitter source.
    rng: Rng,
    /// Real time at which the next hitch lands; `None` until the first frame.
    next_hitch_at: Option<Nanos>,
    /// Cost owed but not busy-waited, added to the next frame's time.
    debt: Nanos,
    /// Whether the last frame's carried cost exceeded [`FROZEN_LOAD`] (a frozen loop) and
    /// was capped.
    frozen: bool,
}

/// A [`LoadSettings`]' fixed costs in nanoseconds.
#[derive(Clone, Copy, Debug)]
struct LoadCosts {
    /// One physics step.
    step: Nanos,
    /// Every frame's render cost.
    render: Nanos,
    /// A hitch.
    hitch: Nanos,
    /// Time between hitches (at least 1 ns).
    hitch_every: Nanos,
}

impl LoadCosts {
    fn of(settings: &LoadSettings) -> Self {
        Self {
            step: ns_from_ms(settings.step_cost_ms),
            render: ns_from_ms(settings.render_cost_ms),
            hitch: ns_from_ms(settings.hitch_ms),
            hitch_every: ns_from_ms(settings.hitch_every_s * 1000.0).max(1),
        }
    }
}

/// What the load did in one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadSpent {
    /// Cost of the frame's steps.
    pub step_work: Nanos,
    /// Every cost of the frame: steps, render, jitter, hitch.
    pub total: Nanos,
    /// Part of `total` busy-waited now.
    pub waited: Nanos,
    /// Whether a hitch landed on this frame.
    pub hitch: bool,
}

impl LoadModel {
    /// A load model with these costs.
    pub fn new(settings: LoadSettings) -> Self {
        Self {
            costs: LoadCosts::of(&settings),
            settings,
            rng: Rng::new(JITTER_SEED),
            next_hitch_at: None,
            debt: 0,
            frozen: false,
        }
    }

    /// Changes the costs from the next frame on.
    pub fn set_settings(&mut self, settings: LoadSettings) {
        if settings.hitch_every_s != self.settings.hitch_every_s {
            self.next_hitch_at = None;
        }
        self.costs = LoadCosts::of(&settings);
        self.settings = settings;
    }

    /// Takes the cost carried from the last frame, to add to this frame's time.
    pub fn take_debt(&mut self) -> Nanos {
        std::mem::take(&mut self.debt)
    }

    /// Whether the last frame's carried cost exceeded the frozen limit.
    pub fn frozen(&self) -> bool {
        self.frozen
    }

    /// Forgets the frozen state and any carried cost (after a reset).
    pub fn reset(&mut self) {
        self.debt = 0;
        self.frozen = false;
        self.next_hitch_at = None;
    }

    /// What `steps` physics steps cost.
    pub fn step_work(&self, steps: u64) -> Nanos {
        steps.saturating_mul(self.costs.step)
    }

    /// What one frame's load costs, without spending it: `steps` physics steps plus the
    /// per-frame costs (render, jitter, and a hitch when one is due), for a frame whose
    /// load starts at real time `now`. Draws the jitter and moves the hitch schedule on, so
    /// each frame is asked once. The bench's closed loop adds this to the next frame's
    /// time; the live loop [spends](Self::spend) it. `waited` is 0.
    pub fn cost(&mut self, now: Nanos, steps: u64) -> LoadSpent {
        let step_work = self.step_work(steps);
        let settings = &self.settings;
        let jitter = if settings.jitter_ms > 0.0 {
            ns_from_ms(self.rng.normal(0.0, settings.jitter_ms).abs())
        } else {
            0
        };
        let period = self.costs.hitch_every;
        let next_hitch_at = *self.next_hitch_at.get_or_insert(now.saturating_add(period));
        let hitch = settings.hitch_ms > 0.0 && now >= next_hitch_at;
        if now >= next_hitch_at {
            // Skip missed periods instead of firing a burst of hitches after a pause.
            let missed = (now - next_hitch_at) / period + 1;
            self.next_hitch_at = Some(next_hitch_at.saturating_add(missed.saturating_mul(period)));
        }
        let total = step_work
            .saturating_add(self.costs.render)
            .saturating_add(jitter)
            .saturating_add(if hitch { self.costs.hitch } else { 0 });
        LoadSpent {
            step_work,
            total,
            waited: 0,
            hitch,
        }
    }

    /// Spends one frame's load ([`Self::cost`]) starting at real time `now`. Waits at most
    /// [`MAX_BUSY_WAIT_PER_FRAME`] and carries the rest.
    pub fn spend(&mut self, stopwatch: &mut impl Stopwatch, now: Nanos, steps: u64) -> LoadSpent {
        let spent = self.cost(now, steps);
        let waited = spent.total.min(MAX_BUSY_WAIT_PER_FRAME);
        if waited > 0 {
            stopwatch.busy_wait(waited);
        }
        let debt = spent.total - waited;
        self.frozen = freezes(debt);
        self.debt = debt.min(FROZEN_LOAD);
        LoadSpent { waited, ..spent }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::stopwatch::VirtualStopwatch;

    const MS: Nanos = 1_000_000;

    #[test]
    fn load_beyond_the_busy_wait_cap_is_carried_not_lost() {
        let mut load = LoadModel::new(LoadSettings {
            step_cost_ms: 100.0,
            ..LoadSettings::default()
        });
        let mut watch = VirtualStopwatch::default();
        let spent = load.spend(&mut watch, 0, 4);
        assert_eq!(spent.total, 400 * MS);
        assert_eq!(spent.waited, MAX_BUSY_WAIT_PER_FRAME);
        assert_eq!(watch.now(), MAX_BUSY_WAIT_PER_FRAME);
        assert_eq!(load.take_debt(), 150 * MS);
        assert_eq!(load.take_debt(), 0);
    }

    #[test]
    fn a_runaway_debt_is_capped_and_reported_frozen() {
        let mut load = LoadModel::new(LoadSettings {
            step_cost_ms: 1000.0,
            ..LoadSettings::default()
        });
        let mut watch = VirtualStopwatch::default();
        load.spend(&mut watch, 0, 100_000);
        assert!(load.frozen());
        assert_eq!(load.take_debt(), FROZEN_LOAD);
        load.reset();
        assert!(!load.frozen());
    }

    #[test]
    fn hitches_land_once_per_period() {
        let mut load = LoadModel::new(LoadSettings {
            hitch_ms: 50.0,
            hitch_every_s: 1.0,
            ..LoadSettings::default()
        });
        let mut watch = VirtualStopwatch::default();
        let mut hitches = 0;
        let mut now = 0;
        while now < 10_000 * MS {
            if load.spend(&mut watch, now, 0).hitch {
                hitches += 1;
            }
            now += 10 * MS;
        }
        // First at 1 s, then every second up to 9.99 s.
        assert_eq!(hitches, 9);
    }

    #[test]
    fn jitter_is_non_negative_and_near_its_scale() {
        let mut load = LoadModel::new(LoadSettings {
            jitter_ms: 2.0,
            ..LoadSettings::default()
        });
        let mut watch = VirtualStopwatch::default();
        let n = 10_000;
        let total: Nanos = (0..n).map(|_| load.spend(&mut watch, 0, 0).total).sum();
        // Mean of a half-normal is sd * sqrt(2 / pi) ≈ 1.596 ms.
        let mean_ms = total as f64 / n as f64 / 1e6;
        assert!((1.5..1.7).contains(&mean_ms), "mean {mean_ms} ms");
    }
}
