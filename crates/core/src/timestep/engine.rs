//! The engine: turns each frame's time into a step plan under the chosen strategy, or hands
//! it to an engine preset's own rule.

use super::preset::{EnginePreset, PresetLoop, PresetView};
use super::rules::{accumulate, equal_substeps};
use super::{Nanos, Strategy, TimestepConfig};

/// The steps one frame takes: `count` steps of `size`, then one step of `tail` if it is
/// not zero. Every strategy's steps fit this shape, so a plan never allocates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepPlan {
    /// Number of steps of `size`.
    pub count: u64,
    /// Size of each of the `count` steps.
    pub size: Nanos,
    /// A last, shorter step (`semi-fixed`'s remainder); 0 = none.
    pub tail: Nanos,
}

impl StepPlan {
    /// No steps.
    pub const NONE: StepPlan = StepPlan {
        count: 0,
        size: 0,
        tail: 0,
    };

    /// `count` steps of `size`.
    pub fn uniform(count: u64, size: Nanos) -> Self {
        Self {
            count,
            size,
            tail: 0,
        }
    }

    /// One step of `size`, or none if `size` is zero.
    pub fn single(size: Nanos) -> Self {
        Self::uniform(u64::from(size > 0), size)
    }

    /// Number of steps.
    pub fn len(&self) -> u64 {
        self.count + u64::from(self.tail > 0)
    }

    /// Whether the plan takes no step.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Simulated time the plan advances.
    pub fn total(&self) -> Nanos {
        self.count
            .saturating_mul(self.size)
            .saturating_add(self.tail)
    }

    /// Size of the step before the last, if there are two or more.
    pub fn second_last(&self) -> Option<Nanos> {
        match (self.count, self.tail > 0) {
            (0, _) | (1, false) => None,
            _ => Some(self.size),
        }
    }

    /// Size of the last step, if any.
    pub fn last(&self) -> Option<Nanos> {
        if self.tail > 0 {
            Some(self.tail)
        } else if self.count > 0 {
            Some(self.size)
        } else {
            None
        }
    }

    /// The step sizes, in order.
    pub fn iter(&self) -> impl Iterator<Item = Nanos> + use<> {
        let (size, tail) = (self.size, self.tail);
        (0..self.count)
            .map(move |_| size)
            .chain((tail > 0).then_some(tail))
    }
}

/// Which state the renderer draws this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drawn {
    /// The latest simulated state.
    Latest,
    /// `lerp(previous, current, t)` (slerp for rotations), `t` in `[0, 1]`.
    Blend(f64),
    /// A copy of the latest state advanced by one throw-away step of this length.
    Extrapolate(Nanos),
    /// The latest state moved along its velocity for this long: `S_N + τ·v_N` (rotations
    /// turned by their angular velocity).
    Velocity(Nanos),
    /// The cubic Hermite curve from the previous to the current state, through their
    /// velocities, at `t` in `[0, 1]`.
    Hermite(f64),
    /// `lerp(older, previous, t)`: between the states two and one steps back.
    BlendOlder(f64),
    /// The state as it was before this frame's steps.
    FrameStart,
}

/// What one frame did, for the scene, the renderer and the metrics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameReport {
    /// The strategy that ran this frame.
    pub strategy: Strategy,
    /// The frame time given to the engine.
    pub frame_time: Nanos,
    /// The frame time used, after the `max_frame_time` clamp (a preset's own clamp).
    pub used: Nanos,
    /// Time this frame had to simulate: the carried accumulator plus `used`.
    pub owed: Nanos,
    /// The steps to take, in order.
    pub steps: StepPlan,
    /// `accumulator / dt` after stepping (accumulator strategies; a preset's own fraction
    /// of a step; 0 for the others).
    pub alpha: f64,
    /// Which state to draw.
    pub drawn: Drawn,
    /// Simulated time of the latest state.
    pub latest_time: Nanos,
    /// Simulated time of the state drawn (`S_i` in the design).
    pub shown_time: Nanos,
    /// Real time at which this frame is shown: the sum of used frame times minus dropped
    /// time (`T_i` in the design).
    pub presented_time: Nanos,
    /// Time dropped this frame by the guards (a preset's clamps, caps and resyncs).
    pub dropped: Nanos,
    /// Real time carried to the next frame.
    pub accumulator: Nanos,
}

/// Turns frame times into steps for one strategy at a time, in integer nanoseconds.
///
/// The ledger `latest_time + accumulator == presented_time + lead` holds exactly after
/// every frame, across strategy switches; `lead` is the time simulated beyond the real
/// time given: `fixed`'s (it ignores real time by design) and an engine preset's whose
/// rule snaps, smooths or filters frame times (Godot's clock deficit, Glaiel's snapping,
/// Matter.js's smoothing), and 0 otherwise. Real time is accounted for too:
/// `presented_time + dropped == frame times + rebased`, where `rebased` is the net shift
/// [`Engine::resync`] applied.
#[derive(Clone, Debug)]
pub struct Engine {
    /// Step size and guards (a preset carries its own).
    config: TimestepConfig,
    /// The strategy used by the next frame.
    strategy: Strategy,
    /// The engine preset's rule and state, while the strategy is a preset.
    preset: Option<PresetLoop>,
    /// Real time carried from another strategy, given to a preset with its first frame.
    handed_to_preset: Nanos,
    /// The preset's fraction of a step after its last frame.
    preset_fraction: f64,
    /// Real time received but not simulated yet.
    accumulator: Nanos,
    /// Simulated time of the latest state.
    latest_time: Nanos,
    /// Size of the most recent step; 0 before the first.
    last_step: Nanos,
    /// Size of the step before it; 0 before the second.
    step_before_last: Nanos,
    /// Real time shown so far (`T`): used frame time minus dropped time.
    presented_time: Nanos,
    /// Total time dropped by the guards.
    dropped: Nanos,
    /// Net time simulated beyond the real time received (see the ledger).
    lead: i64,
    /// Net shift of `presented_time` by [`Engine::resync`]s.
    rebased: i64,
    /// Frames advanced.
    frames: u64,
    /// Steps taken.
    steps: u64,
}

impl Engine {
    /// A new engine at time zero.
    pub fn new(strategy: Strategy, config: TimestepConfig) -> Self {
        Self {
            config,
            strategy,
            preset: strategy.preset().map(PresetLoop::new),
            handed_to_preset: 0,
            preset_fraction: 0.0,
            accumulator: 0,
            latest_time: 0,
            last_step: 0,
            step_before_last: 0,
            presented_time: 0,
            dropped: 0,
            lead: 0,
            rebased: 0,
            frames: 0,
            steps: 0,
        }
    }

    /// Back to time zero, keeping the strategy and configuration.
    pub fn reset(&mut self) {
        *self = Self::new(self.strategy, self.config);
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Switches strategy before the next frame. No time is lost or invented: the
    /// accumulator is carried, strategies without one consume it next frame, and an engine
    /// preset (which starts from its own initial state) gets it with its first frame.
    pub fn set_strategy(&mut self, strategy: Strategy) {
        if strategy == self.strategy {
            return;
        }
        self.strategy = strategy;
        self.preset = strategy.preset().map(PresetLoop::new);
        self.preset_fraction = 0.0;
        if self.preset.is_some() {
            self.handed_to_preset += std::mem::take(&mut self.accumulator);
        } else {
            // Time handed to a preset that never ran is carried again.
            self.accumulator += std::mem::take(&mut self.handed_to_preset);
        }
    }

    /// Step size and guards.
    pub fn config(&self) -> &TimestepConfig {
        &self.config
    }

    /// Changes step size or guards before the next frame (an engine preset keeps its own).
    pub fn set_config(&mut self, config: TimestepConfig) {
        self.config = config;
    }

    /// The step the strategy takes: the configured `dt`, or an engine preset's own.
    pub fn dt(&self) -> Nanos {
        match self.strategy.preset() {
            Some(preset) => preset.dt(),
            None => self.config.dt_ns(),
        }
    }

    /// Real time received but not simulated yet.
    pub fn accumulator(&self) -> Nanos {
        self.accumulator + self.handed_to_preset
    }

    /// Simulated time of the latest state.
    pub fn latest_time(&self) -> Nanos {
        self.latest_time
    }

    /// Real time presented so far (dropped time excluded).
    pub fn presented_time(&self) -> Nanos {
        self.presented_time
    }

    /// Total time dropped by the guards.
    pub fn dropped(&self) -> Nanos {
        self.dropped
    }

    /// Net time simulated beyond the real time given (`fixed`'s and the presets' that snap,
    /// smooth or filter frame times).
    pub fn lead(&self) -> i64 {
        self.lead
    }

    /// Net shift of the presented time by [`Self::resync`]s since the start or the last
    /// reset: negative for time the simulation fell behind and never simulated, positive
    /// for time it ran ahead.
    pub fn rebased(&self) -> i64 {
        self.rebased
    }

    /// Brings real time back in line with the simulation after `fixed` (or a preset that
    /// ran ahead or behind) left it: `presented_time` moves by the lead, which becomes 0,
    /// so a strategy that follows real time starts from where the simulation is instead of
    /// inheriting the drift forever. The state, the accumulator and the simulated time do
    /// not change. Returns the shift of `presented_time`, ns (0 when there was no lead).
    /// Metrics that compare `T` across frames must shift the previous frame's `T` by it.
    pub fn resync(&mut self) -> i64 {
        let shift = self.lead;
        if shift == 0 {
            return 0;
        }
        // The ledger makes `presented_time + lead` the simulation's own clock, which is
        // never negative; the clamp only guards against saturation at 292 years.
        self.presented_time = super::shifted(self.presented_time, shift);
        self.lead = 0;
        self.rebased = self.rebased.saturating_add(shift);
        shift
    }

    /// Frames advanced since the start or the last reset.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Steps taken since the start or the last reset.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The engine preset's rule, while the strategy is one.
    #[cfg(test)]
    pub(crate) fn preset_loop(&self) -> Option<&PresetLoop> {
        self.preset.as_ref()
    }

    /// Advances one render frame of `frame_time` and says which steps to take and what to
    /// draw. A zero frame time (pause) takes no step under any strategy.
    pub fn advance(&mut self, frame_time: Nanos) -> FrameReport {
        let start_time = self.latest_time;
        let (used, owed, steps, dropped, preset_fraction) = match self.preset.as_mut() {
            Some(preset) => {
                let carried = self.accumulator;
                let given = self.handed_to_preset;
                if frame_time == 0 {
                    (0, carried, StepPlan::NONE, 0, None)
                } else {
                    self.handed_to_preset = 0;
                    let frame = preset.advance(frame_time.saturating_add(given));
                    self.accumulator = frame.accumulator;
                    let owed = carried.saturating_add(frame.used);
                    // A rule that throws its accumulator away (Glaiel's resync) can throw
                    // time another preset invented and handed over; only real time can be
                    // dropped, and what it threw beyond that was lead, which the ledger
                    // below takes out of the lead.
                    let dropped = frame
                        .dropped
                        .min(self.presented_time.saturating_add(frame_time));
                    (frame.used, owed, frame.steps, dropped, Some(frame.fraction))
                }
            }
            None => {
                let (used, owed, steps, dropped) = self.advance_strategy(frame_time);
                (used, owed, steps, dropped, None)
            }
        };

        self.latest_time = self.latest_time.saturating_add(steps.total());
        if let Some(last) = steps.last() {
            self.step_before_last = steps.second_last().unwrap_or(self.last_step);
            self.last_step = last;
        }
        self.steps += steps.len();
        self.frames += 1;
        self.presented_time = self
            .presented_time
            .saturating_add(frame_time)
            .saturating_sub(dropped);
        self.dropped = self.dropped.saturating_add(dropped);
        let (alpha, drawn, shown_time) = match self.strategy.preset() {
            Some(preset) => {
                // The preset's rule is the truth: whatever it simulated beyond (or short
                // of) the real time it kept, it leads (or trails) by.
                self.lead = signed_difference(
                    self.latest_time.saturating_add(self.accumulator()),
                    self.presented_time,
                );
                // A paused frame draws what the last one did.
                if let Some(fraction) = preset_fraction {
                    self.preset_fraction = fraction;
                }
                self.preset_drawn(preset, start_time)
            }
            None => self.drawn(self.config.dt_ns()),
        };
        FrameReport {
            strategy: self.strategy,
            frame_time,
            used,
            owed,
            steps,
            alpha,
            drawn,
            latest_time: self.latest_time,
            shown_time,
            presented_time: self.presented_time,
            dropped,
            accumulator: self.accumulator(),
        }
    }
    /// The lab's strategies: the frame time used, the time owed, the steps and the time
    /// dropped.
    fn advance_strategy(&mut self, frame_time: Nanos) -> (Nanos, Nanos, StepPlan, Nanos) {
        let dt = self.config.dt.get();
        let used = match self.config.max_frame_time {
            Some(max) => frame_time.min(max.get()),
            None => frame_time,
        };
        let mut dropped = frame_time - used;
        let max_steps = self
            .config
            .max_steps
            .map_or(u64::MAX, |n| u64::from(n.get()));

        let owed;
        let steps = match self.strategy {
            Strategy::Fixed => {
                // Ignores real time: the carried accumulator waits for a strategy that uses it.
                owed = used;
                if used > 0 {
                    self.lead = self
                        .lead
                        .saturating_add(signed(dt))
                        .saturating_sub(signed(used));
                    StepPlan::uniform(1, dt)
                } else {
                    StepPlan::NONE
                }
            }
            Strategy::Variable => {
                owed = self.accumulator.saturating_add(used);
                self.accumulator = 0;
                StepPlan::single(owed)
            }
            Strategy::SemiFixed => {
                owed = self.accumulator.saturating_add(used);
                self.accumulator = 0;
                let (whole, remainder) = (owed / dt, owed % dt);
                if whole >= max_steps {
                    dropped += owed - max_steps * dt;
                    StepPlan::uniform(max_steps, dt)
                } else if whole + u64::from(remainder > 0) > max_steps {
                    // The cap leaves no room for the remainder step: drop it.
                    dropped += remainder;
                    StepPlan::uniform(whole, dt)
                } else {
                    StepPlan {
                        count: whole,
                        size: dt,
                        tail: remainder,
                    }
                }
            }
            Strategy::Accumulator
            | Strategy::Interpolated
            | Strategy::Extrapolated
            | Strategy::VelocityExtrapolated
            | Strategy::Hermite => {
                owed = self.accumulator.saturating_add(used);
                // Drop the whole steps beyond the cap; the fraction stays so alpha stays smooth.
                let stepped = accumulate(owed, dt, max_steps);
                self.accumulator = stepped.carried;
                dropped += stepped.dropped;
                stepped.steps
            }
            Strategy::EqualSubsteps => {
                owed = self.accumulator.saturating_add(used);
                let stepped = equal_substeps(owed, dt, max_steps);
                self.accumulator = stepped.carried;
                dropped += stepped.dropped;
                stepped.steps
            }
            // A preset's frames go to its own rule (`advance`); nothing to do here.
            Strategy::Preset(_) => {
                owed = self.accumulator;
                dropped = 0;
                StepPlan::NONE
            }
        };
        (used, owed, steps, dropped)
    }

    /// Alpha, the state to draw and the simulated time it shows, after this frame's steps
    /// (the lab's strategies).
    fn drawn(&self, dt: Nanos) -> (f64, Drawn, Nanos) {
        let alpha = if self.strategy.carries_accumulator() {
            self.accumulator as f64 / dt as f64
        } else {
            0.0
        };
        match self.strategy {
            Strategy::Interpolated | Strategy::Hermite if self.last_step > 0 => {
                // The state shown is one dt behind real time. Normally the last step was dt
                // and the blend factor is alpha; right after a switch from a strategy with
                // other step sizes the target may fall before the previous state: clamp.
                let h = self.last_step;
                let into_step = (self.accumulator + h).saturating_sub(dt).min(h);
                let previous_time = self.latest_time - h;
                let t = into_step as f64 / h as f64;
                let drawn = if self.strategy == Strategy::Hermite {
                    Drawn::Hermite(t)
                } else {
                    Drawn::Blend(t)
                };
                (alpha, drawn, previous_time + into_step)
            }
            Strategy::Extrapolated if self.accumulator > 0 => (
                alpha,
                Drawn::Extrapolate(self.accumulator),
                self.latest_time + self.accumulator,
            ),
            Strategy::VelocityExtrapolated => (
                alpha,
                Drawn::Velocity(self.accumulator),
                self.latest_time + self.accumulator,
            ),
            _ => (alpha, Drawn::Latest, self.latest_time),
        }
    }

    /// Alpha, the state to draw and the simulated time it shows, after an engine preset's
    /// frame that started at simulated time `start_time`.
    fn preset_drawn(&self, preset: EnginePreset, start_time: Nanos) -> (f64, Drawn, Nanos) {
        let fraction = self.preset_fraction;
        let t = if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 1.0)
        };
        let into = |h: Nanos| ((h as f64 * t).round() as Nanos).min(h);
        let latest = self.latest_time;
        let (drawn, shown) = match preset.view() {
            PresetView::Latest => (Drawn::Latest, latest),
            PresetView::Interpolate if self.last_step > 0 => {
                let h = self.last_step;
                (Drawn::Blend(t), latest - h + into(h))
            }
            PresetView::Interpolate => (Drawn::Latest, latest),
            PresetView::Extrapolate => {
                (Drawn::Velocity(self.accumulator), latest + self.accumulator)
            }
            PresetView::TwoStepsBehind if self.step_before_last > 0 => {
                let h = self.step_before_last;
                (Drawn::BlendOlder(t), latest - self.last_step - h + into(h))
            }
            // Fewer than two steps: both states behind are the start.
            PresetView::TwoStepsBehind => (Drawn::BlendOlder(0.0), latest - self.last_step),
            PresetView::FrameStart => (Drawn::FrameStart, start_time),
        };
        (fraction, drawn, shown)
    }
}

/// `a - b` as a signed value, saturating.
fn signed_difference(a: Nanos, b: Nanos) -> i64 {
    let difference = i128::from(a) - i128::from(b);
    i64::try_from(difference).unwrap_or(if difference < 0 { i64::MIN } else { i64::MAX })
}

/// Nanoseconds as a signed value, saturating (only past 292 years).
fn signed(ns: Nanos) -> i64 {
    i64::try_from(ns).unwrap_or(i64::MAX)
}
