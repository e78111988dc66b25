//! The engine: runs the strategy's stepping rule on each frame's time, keeps the time
//! ledger, and says which state to draw.

use super::pacing::{Paced, Pacing};
#[cfg(test)]
use super::preset::EngineLoop;
use super::rules::Stepped;
use super::{Nanos, StepRule, Strategy, TimestepConfig};

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

    /// Whether `other` takes the same steps, in order, however each writes them (one step
    /// of 5 ms is `uniform(1, 5)` and a lone tail of 5): every step but the last is the
    /// first's size, so the count, the first and the last say them all.
    pub fn same_steps(&self, other: &StepPlan) -> bool {
        let first = |plan: &StepPlan| if plan.count > 0 { plan.size } else { plan.tail };
        self.len() == other.len() && first(self) == first(other) && self.last() == other.last()
    }

    /// The step sizes, in order.
    pub fn iter(&self) -> impl Iterator<Item = Nanos> + use<> {
        let (size, tail) = (self.size, self.tail);
        (0..self.count)
            .map(move |_| size)
            .chain((tail > 0).then_some(tail))
    }
}

/// What is drawn: which state, and where along it. A strategy's row of the strategy table
/// names the variant with `()` for the amounts ([`ViewKind`]); each frame's [`FrameReport`]
/// fills them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View<Fraction = f64, Ahead = Nanos> {
    /// The latest simulated state.
    Latest,
    /// `lerp(previous, current, t)` (slerp for rotations), `t` in `[0, 1]`.
    Blend(Fraction),
    /// A copy of the latest state advanced by one throw-away step of this length.
    Extrapolate(Ahead),
    /// The latest state moved along its velocity for this long: `S_N + τ·v_N` (rotations
    /// turned by their angular velocity).
    Velocity(Ahead),
    /// The cubic Hermite curve from the previous to the current state, through their
    /// velocities, at `t` in `[0, 1]`.
    Hermite(Fraction),
    /// `lerp(older, previous, t)`: between the states two and one steps back.
    BlendOlder(Fraction),
    /// The state as it was before this frame's steps.
    FrameStart,
    /// The state at the frame's predicted display time less a steady latency
    /// (`display-time`, `super::pacing`): a strategy's kind only; each frame's report
    /// draws it as a [`View::Blend`] or [`View::BlendOlder`] (or the latest state).
    AtDisplay,
}

/// Which state a strategy draws, without the amounts each frame fills in.
pub type ViewKind = View<(), ()>;

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
    pub drawn: View,
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
    /// Real time per-frame animation (the per-frame camera) shows: `T`, or for
    /// `display-time` its drawn clock one step on, `T + δ - L + dt` (see
    /// [`super::Pacing`]), so that everything drawn moves with the predicted display times.
    pub animation_time: Nanos,
}

/// Turns frame times into steps for one strategy at a time, in integer nanoseconds: runs the
/// strategy's [`StepRule`] and keeps the ledger.
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
    /// The strategy used by the next frame, and how it draws the steps.
    drawing: Drawing,
    /// The strategy's stepping rule, with the state of an engine's own loop.
    rule: StepRule,
    /// Real time carried from another strategy, given to a preset with its first frame.
    handed_to_preset: Nanos,
    /// The fraction of a step the rule reported after its last frame (`alpha`).
    fraction: f64,
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
    /// What the last frame's steps did.
    last_frame: FrameSteps,
}

/// What a frame's steps did, whatever is drawn of them: the part of a [`FrameReport`] every
/// strategy that steps alike shares.
#[derive(Clone, Copy, Debug, Default)]
struct FrameSteps {
    /// The frame time given to the engine.
    frame_time: Nanos,
    /// The frame time used.
    used: Nanos,
    /// Time the frame had to simulate.
    owed: Nanos,
    /// The steps taken.
    steps: StepPlan,
    /// Time dropped by the guards.
    dropped: Nanos,
    /// Simulated time of the latest state when the frame began.
    start: Nanos,
    /// Real time carried into the frame.
    carried: Nanos,
    /// Time the rule simulated beyond the frame (`fixed`'s lead).
    lead: i64,
}

/// How one strategy draws an engine's steps: the strategy, and `display-time`'s drawn
/// clock. An [`Engine`] keeps one for its own strategy; a strategy that steps as the
/// engine's does ([`Strategy::steps_as`]) can keep one beside it and draw the same steps
/// its own way ([`Engine::drawn`]), as it would have drawn them stepping alone.
#[derive(Clone, Copy, Debug)]
pub struct Drawing {
    /// The strategy.
    strategy: Strategy,
    /// What it draws (its row of the strategy table, read once).
    view: ViewKind,
    /// `display-time`'s drawn clock.
    pacing: Pacing,
}

impl Drawing {
    /// `strategy` drawing from time zero.
    pub fn new(strategy: Strategy) -> Self {
        Self {
            strategy,
            view: strategy.view(),
            pacing: Pacing::default(),
        }
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// `display-time`'s drawn clock for a frame (`None` for every other strategy).
    fn pace(&mut self, ledger: PacingLedger, display_delay: Option<Nanos>) -> Option<Paced> {
        (self.view == View::AtDisplay).then(|| {
            self.pacing.frame(
                ledger.frame_time,
                display_delay,
                ledger.presented,
                ledger.dt,
                ledger.oldest,
                ledger.latest,
            )
        })
    }
}

/// What the drawn clock reads of the ledger after a frame's steps.
#[derive(Clone, Copy)]
struct PacingLedger {
    /// The frame's time.
    frame_time: Nanos,
    /// `T` after the frame.
    presented: Nanos,
    /// The rule's step.
    dt: Nanos,
    /// Simulated time of the oldest kept state.
    oldest: Nanos,
    /// Simulated time of the latest state.
    latest: Nanos,
}

/// The state drawn after a frame and the simulated time it shows.
struct Shown {
    /// Which state, and where along it.
    view: View,
    /// Its simulated time (`S_i`).
    time: Nanos,
}

/// Where in a step the drawn state lies.
struct PointInStep {
    /// The blend factor, in `[0, 1]`.
    t: f64,
    /// The time from the step's start, ns.
    time: Nanos,
}

impl Engine {
    /// A new engine at time zero.
    pub fn new(strategy: Strategy, config: TimestepConfig) -> Self {
        Self {
            config,
            drawing: Drawing::new(strategy),
            rule: strategy.step_rule(&config),
            handed_to_preset: 0,
            fraction: 0.0,
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
            last_frame: FrameSteps::default(),
        }
    }

    /// Back to time zero, keeping the strategy and configuration.
    pub fn reset(&mut self) {
        *self = Self::new(self.strategy(), self.config);
    }

    /// The strategy.
    pub fn strategy(&self) -> Strategy {
        self.drawing.strategy
    }

    /// Switches strategy before the next frame. No time is lost or invented: the
    /// accumulator is carried, strategies without one consume it next frame, and an engine
    /// preset (which starts from its own initial state) gets it with its first frame.
    pub fn set_strategy(&mut self, strategy: Strategy) {
        if strategy == self.strategy() {
            return;
        }
        self.drawing = Drawing::new(strategy);
        self.rule = strategy.step_rule(&self.config);
        self.fraction = 0.0;
        if strategy.preset().is_some() {
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
        // A preset's rule does not read the configuration, and its loop keeps its state.
        if self.strategy().preset().is_none() {
            self.rule = self.strategy().step_rule(&config);
        }
    }

    /// The step the strategy takes: the configured `dt`, or an engine preset's own.
    pub fn dt(&self) -> Nanos {
        self.rule.dt()
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

    /// Whether this engine's ledger is `other`'s, to the bit: the time carried, handed
    /// over, simulated, presented, dropped and led by, the fraction of a step, the last two
    /// steps and the counts. (What the next frame does follows from the ledger, the rule and
    /// what is drawn.)
    pub fn ledger_eq(&self, other: &Engine) -> bool {
        self.accumulator == other.accumulator
            && self.handed_to_preset == other.handed_to_preset
            && self.fraction.to_bits() == other.fraction.to_bits()
            && self.latest_time == other.latest_time
            && self.last_step == other.last_step
            && self.step_before_last == other.step_before_last
            && self.presented_time == other.presented_time
            && self.dropped == other.dropped
            && self.lead == other.lead
            && self.rebased == other.rebased
            && self.frames == other.frames
            && self.steps == other.steps
    }

    /// The steps `rule` takes on the last frame from the ledger this engine had before it,
    /// if they are this engine's steps to the same ledger (however `rule`'s plan writes
    /// them); `None` where they part, and for an engine preset on either side (a preset
    /// keeps its ledger its own way).
    ///
    /// So an engine of this configuration whose ledger is this one's before a frame
    /// ([`Self::ledger_eq`]), running `rule`, keeps it equal while this answers `Some`,
    /// and reports the frame as this engine did, but for its strategy and the plan
    /// returned: the ledger after a frame follows from the ledger before it and what the
    /// rule did, and the report from the ledger and what is drawn. One rule call and a
    /// comparison, instead of running the other engine.
    pub fn steps_alike(&self, rule: &mut StepRule) -> Option<StepPlan> {
        if self.strategy().preset().is_some() || matches!(rule, StepRule::EngineLoop(_)) {
            return None;
        }
        let frame = &self.last_frame;
        let other = rule.step(frame.carried, frame.frame_time);
        let alike = other.used == frame.used
            && other.owed == frame.owed
            && other.dropped == frame.dropped
            && other.carried == self.accumulator
            && other.lead == frame.lead
            && other.fraction.to_bits() == self.fraction.to_bits()
            && other.steps.same_steps(&frame.steps);
        alike.then_some(other.steps)
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

    /// The engine's own loop, while the strategy runs one.
    #[cfg(test)]
    pub(crate) fn engine_loop(&self) -> Option<&EngineLoop> {
        match &self.rule {
            StepRule::EngineLoop(engine_loop) => Some(engine_loop),
            _ => None,
        }
    }

    /// Advances one render frame of `frame_time` and says which steps to take and what to
    /// draw. A zero frame time (pause) takes no step under any strategy. With no display
    /// time predicted, `display-time` draws as if the screen showed the frame at once.
    pub fn advance(&mut self, frame_time: Nanos) -> FrameReport {
        self.advance_to_display(frame_time, None)
    }

    /// [`Self::advance`] for a frame predicted to reach the screen `display_delay` after its
    /// start (what `display-time` animates to; every other strategy ignores it).
    pub fn advance_to_display(
        &mut self,
        frame_time: Nanos,
        display_delay: Option<Nanos>,
    ) -> FrameReport {
        let frame = self.step(frame_time);
        let paced = self
            .drawing
            .pace(self.pacing_ledger(frame_time), display_delay);
        self.report(&self.drawing, &frame, paced)
    }

    /// The last frame as `drawing`'s strategy draws it, for a strategy that steps as this
    /// engine's does ([`Strategy::steps_as`]): the report it would have made stepping
    /// alone, to the bit. `display_delay` as for [`Self::advance_to_display`].
    pub fn drawn(&self, drawing: &mut Drawing, display_delay: Option<Nanos>) -> FrameReport {
        debug_assert!(
            drawing.strategy.steps_as(self.strategy(), &self.config),
            "{:?} does not step as {:?}",
            drawing.strategy,
            self.strategy()
        );
        let frame = self.last_frame;
        let paced = drawing.pace(self.pacing_ledger(frame.frame_time), display_delay);
        self.report(drawing, &frame, paced)
    }

    /// Runs the rule on a frame and keeps the ledger.
    fn step(&mut self, frame_time: Nanos) -> FrameSteps {
        let start = self.latest_time;
        let carried = self.accumulator;
        let preset = self.strategy().preset().is_some();
        let stepped = if preset {
            self.step_preset(frame_time)
        } else {
            let stepped = self.rule.step(self.accumulator, frame_time);
            self.lead = self.lead.saturating_add(stepped.lead);
            stepped
        };
        self.accumulator = stepped.carried;
        self.fraction = stepped.fraction;

        let steps = stepped.steps;
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
            .saturating_sub(stepped.dropped);
        self.dropped = self.dropped.saturating_add(stepped.dropped);
        if preset {
            // The preset's rule is the truth: whatever it simulated beyond (or short of)
            // the real time it kept, it leads (or trails) by.
            self.lead = signed_difference(
                self.latest_time.saturating_add(self.accumulator()),
                self.presented_time,
            );
        }
        let frame = FrameSteps {
            frame_time,
            used: stepped.used,
            owed: stepped.owed,
            steps,
            dropped: stepped.dropped,
            start,
            carried,
            lead: stepped.lead,
        };
        self.last_frame = frame;
        frame
    }

    /// What the drawn clock reads of the ledger after a frame of `frame_time`.
    fn pacing_ledger(&self, frame_time: Nanos) -> PacingLedger {
        PacingLedger {
            frame_time,
            presented: self.presented_time,
            dt: self.rule.dt(),
            oldest: self
                .latest_time
                .saturating_sub(self.last_step)
                .saturating_sub(self.step_before_last),
            latest: self.latest_time,
        }
    }

    /// The report of `frame`, the last frame, as `strategy` draws it, `paced` by its drawn
    /// clock (`display-time`).
    fn report(&self, drawing: &Drawing, frame: &FrameSteps, paced: Option<Paced>) -> FrameReport {
        let strategy = drawing.strategy;
        let shown = self.shown(strategy, drawing.view, frame.start, paced);
        FrameReport {
            strategy,
            frame_time: frame.frame_time,
            used: frame.used,
            owed: frame.owed,
            steps: frame.steps,
            alpha: self.fraction,
            drawn: shown.view,
            latest_time: self.latest_time,
            shown_time: shown.time,
            presented_time: self.presented_time,
            dropped: frame.dropped,
            accumulator: self.accumulator(),
            animation_time: paced.map_or(self.presented_time, |paced| {
                (self.presented_time + paced.delay + self.rule.dt()).saturating_sub(paced.behind)
            }),
        }
    }

    /// An engine preset's frame: the time handed over from another strategy arrives with
    /// its first frame, and a paused frame does not reach its rule (it draws what the last
    /// one did).
    fn step_preset(&mut self, frame_time: Nanos) -> Stepped {
        if frame_time == 0 {
            return Stepped::paused(self.accumulator, self.fraction);
        }
        let given = std::mem::take(&mut self.handed_to_preset);
        let mut stepped = self
            .rule
            .step(self.accumulator, frame_time.saturating_add(given));
        // A rule that throws its accumulator away (Glaiel's resync) can throw time another
        // preset invented and handed over; only real time can be dropped, and what it threw
        // beyond that was lead, which the ledger takes out of the lead.
        stepped.dropped = stepped
            .dropped
            .min(self.presented_time.saturating_add(frame_time));
        stepped
    }

    /// The state `strategy` draws after this frame's steps (`kind`: what it draws) and the
    /// simulated time it shows, for a frame that started at simulated time `start_time`
    /// (`paced`: `display-time`'s drawn clock).
    fn shown(
        &self,
        strategy: Strategy,
        kind: ViewKind,
        start_time: Nanos,
        paced: Option<Paced>,
    ) -> Shown {
        let latest = self.latest_time;
        let (view, time) = match kind {
            View::Latest => (View::Latest, latest),
            View::Blend(()) | View::Hermite(()) if self.last_step > 0 => {
                let h = self.last_step;
                let point = self.point_in_step(strategy, h);
                let view = if kind == View::Hermite(()) {
                    View::Hermite(point.t)
                } else {
                    View::Blend(point.t)
                };
                (view, latest - h + point.time)
            }
            View::Blend(()) | View::Hermite(()) => (View::Latest, latest),
            View::Extrapolate(()) if self.accumulator > 0 => (
                View::Extrapolate(self.accumulator),
                latest + self.accumulator,
            ),
            View::Extrapolate(()) => (View::Latest, latest),
            View::Velocity(()) => (View::Velocity(self.accumulator), latest + self.accumulator),
            View::BlendOlder(()) if self.step_before_last > 0 => {
                let h = self.step_before_last;
                let point = self.point_in_step(strategy, h);
                (
                    View::BlendOlder(point.t),
                    latest - self.last_step - h + point.time,
                )
            }
            // Fewer than two steps: both states behind are the start.
            View::BlendOlder(()) => (View::BlendOlder(0.0), latest - self.last_step),
            View::FrameStart => (View::FrameStart, start_time),
            View::AtDisplay => return self.at_time(paced.map_or(latest, |paced| paced.time)),
        };
        Shown { view, time }
    }

    /// The kept state at simulated time `time` (clamped to the kept states): the latest, a
    /// blend along the last step, or one along the step before it.
    fn at_time(&self, time: Nanos) -> Shown {
        let latest = self.latest_time;
        let h = self.last_step;
        if h == 0 || time >= latest {
            return Shown {
                view: View::Latest,
                time: latest,
            };
        }
        let previous = latest - h;
        if time >= previous || self.step_before_last == 0 {
            let time = time.max(previous);
            return Shown {
                view: View::Blend((time - previous) as f64 / h as f64),
                time,
            };
        }
        let before = self.step_before_last;
        let older = previous.saturating_sub(before);
        let time = time.max(older);
        Shown {
            view: View::BlendOlder((time - older) as f64 / before as f64),
            time,
        }
    }

    /// Where in a step of `h` the drawn state lies. The lab's strategies draw exactly one
    /// `dt` behind real time, in whole nanoseconds; right after a switch from a strategy
    /// with other step sizes that point may fall before the step, and is clamped to it. An
    /// engine preset draws at its own fraction of a step, as it computes it (Bevy's in
    /// `f32`).
    fn point_in_step(&self, strategy: Strategy, h: Nanos) -> PointInStep {
        if strategy.preset().is_none() {
            let time = (self.accumulator + h).saturating_sub(self.rule.dt()).min(h);
            return PointInStep {
                t: time as f64 / h as f64,
                time,
            };
        }
        let t = if self.fraction.is_nan() {
            0.0
        } else {
            self.fraction.clamp(0.0, 1.0)
        };
        PointInStep {
            t,
            time: ((h as f64 * t).round() as Nanos).min(h),
        }
    }
}

/// `a - b` as a signed value, saturating.
fn signed_difference(a: Nanos, b: Nanos) -> i64 {
    let difference = i128::from(a) - i128::from(b);
    i64::try_from(difference).unwrap_or(if difference < 0 { i64::MIN } else { i64::MAX })
}
