//! The load ramp: the per-step cost raised from 0 to a maximum over a stretch of real time
//! while every pane runs, each pane's simulation speed drawn against the load, and each
//! pane's onset of breaking marked with the load it broke at; then the load goes back.
//!
//! The live loop drives it once per frame ([`crate::live::LiveLoop::frame`]): before the
//! frame the ramp says the step cost in force ([`Ramp::load_at`]), after it the ramp takes
//! every pane's game clock, step cost and spiral detector ([`Ramp::observe`]). A pane has
//! broken, as `sweep` judges a level ([`crate::run::broken`]), when its simulation speed
//! falls below [`crate::run::ONSET_SPEED`] or it spirals: the loop's carried load froze it
//! (the focused pane, whose steps the load costs), or its spiral detector has fired for a
//! whole speed window while its steps cost at least the time they simulate. The second
//! condition is the spiral's own definition, and the ramp needs it: a rising load also
//! lengthens frames towards where the loop would settle (without guards `f/(1 − c/dt)`,
//! 300 ms at 19 ms on 60 Hz frames), which the detector, built for a steady load, calls a
//! spiral; `sweep` judges a level at the end of its run, after such a climb has settled. A
//! spiral's mark is the load behind the frame where it started.
//!
//! The speed is measured over a window of the loop's latest time ([`speed_window`]: 100
//! steps, 2 s at 50 Hz), as the game clock (latest state plus what is carried to simulate
//! next, so it does not jump by whole steps) advanced over the frame time fed to the
//! strategies: 1 keeps up, below 1 the guards drop time, whatever the time scale. Its load
//! is the load behind that window's frames (a frame is as long as the steps of the frame
//! before it cost), averaged over their time, so a mark sits within half the load the ramp
//! climbs in one window ([`Ramp::resolution_ms`]).

use std::collections::VecDeque;

use super::settings::{MAX_LOAD_MS, MAX_PANES};
use crate::run::{ONSET_SPEED, broken};
use crate::timestep::{Nanos, RangeError, Strategy, secs_from_ns};

/// Steps of `dt` the speed window holds. Guards drop time in whole steps, so a window of
/// `n` steps reads speed in steps of `1/n`: at 100, one dropped step reads exactly the 1%
/// the onset allows ([`crate::run::ONSET_SPEED`]), and a pane breaks only once it drops
/// more than one step in a hundred, as a long run at a steady load would show.
pub const RAMP_WINDOW_STEPS: u64 = 100;

/// Bounds of the speed window, loop time: at least ten frames at the 20 fps of a software
/// renderer, at most a few seconds so that slow physics (a long `dt`) still reads the
/// ramp's load closely.
pub const RAMP_SPEED_WINDOW_RANGE: (Nanos, Nanos) = (500_000_000, 5_000_000_000);

/// The loop time the simulation speed is measured over for steps of `dt`: [`RAMP_WINDOW_STEPS`]
/// of them, within [`RAMP_SPEED_WINDOW_RANGE`].
pub fn speed_window(dt: Nanos) -> Nanos {
    let (low, high) = RAMP_SPEED_WINDOW_RANGE;
    dt.saturating_mul(RAMP_WINDOW_STEPS).clamp(low, high)
}

/// Allowed ramp durations, seconds.
pub const RAMP_DURATION_RANGE_S: (f64, f64) = (1.0, 600.0);

/// Points a ramp keeps for its plot, evenly spaced in load (plus each onset): about one per
/// horizontal point of the plot, whatever the frame rate and the duration.
pub const RAMP_POINTS: usize = 300;

/// Frames the speed window holds at most: 0.5 s at 8000 fps. A faster loop's window holds
/// its newest frames.
const WINDOW_FRAMES: usize = 4096;

/// What a ramp is asked to do: raise the per-step cost from 0 to `max_step_cost_ms` over
/// `duration_s` of real time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RampSettings {
    /// The step cost at the top of the ramp, ms (above 0, at most [`MAX_LOAD_MS`]).
    pub max_step_cost_ms: f64,
    /// How long the ramp takes to reach it, seconds (in [`RAMP_DURATION_RANGE_S`]).
    pub duration_s: f64,
}

impl Default for RampSettings {
    /// One and a half times the default 20 ms step over 30 s: past the accumulator's onset
    /// at `dt`, at 1 ms a second.
    fn default() -> Self {
        Self {
            max_step_cost_ms: 30.0,
            duration_s: 30.0,
        }
    }
}

/// The smallest top a ramp may rise to, ms: one nanosecond, the load's unit (a smaller
/// one rounds to no load at all).
pub const MIN_RAMP_MAX_MS: f64 = 1e-6;

impl RampSettings {
    /// Checks both values; the first bad one is named.
    pub fn validate(&self) -> Result<(), RangeError> {
        let max = self.max_step_cost_ms;
        // The load is spent in whole nanoseconds: a top below one would ramp nothing.
        if !(MIN_RAMP_MAX_MS..=MAX_LOAD_MS).contains(&max) {
            return Err(RangeError {
                name: "ramp's maximum step cost",
                value: format!("{} ms", crate::text::number(max)),
                allowed: format!(
                    "{} (1 ns) to {MAX_LOAD_MS} ms",
                    crate::text::number(MIN_RAMP_MAX_MS)
                ),
            });
        }
        let (low, high) = RAMP_DURATION_RANGE_S;
        if !(low..=high).contains(&self.duration_s) {
            return Err(RangeError {
                name: "ramp's duration",
                value: format!("{} s", crate::text::number(self.duration_s)),
                allowed: format!("{low} to {high} s"),
            });
        }
        Ok(())
    }

    /// How fast the load rises, ms per second of real time.
    pub fn slope_ms_per_s(&self) -> f64 {
        self.max_step_cost_ms / self.duration_s
    }
}

/// What the shell asks of the ramp.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RampRequest {
    /// Start a ramp (a running one is stopped first, its load put back).
    Start(RampSettings),
    /// Stop the running ramp and put the load back.
    Stop,
}

/// Why a ramp stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RampCancel {
    /// The person stopped it.
    Stopped,
    /// Time was paused (or single-stepped).
    Paused,
    /// The panes were reset (a reset, a recording starting).
    Reset,
    /// A setting changed: the conditions the ramp measured no longer hold.
    SettingsChanged,
    /// The person set the per-step load by hand: their value stays.
    LoadSetByHand,
    /// A replay took over the frames (it spends no load).
    Replay,
}

impl RampCancel {
    /// In words, for the panel.
    pub fn describe(self) -> &'static str {
        match self {
            RampCancel::Stopped => "stopped",
            RampCancel::Paused => "stopped by the pause",
            RampCancel::Reset => "stopped by a reset",
            RampCancel::SettingsChanged => "stopped: a setting changed",
            RampCancel::LoadSetByHand => "stopped: the load was set by hand",
            RampCancel::Replay => "stopped by the replay",
        }
    }
}

/// Where a ramp is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RampPhase {
    /// The load is rising.
    Running,
    /// The load reached the top.
    Finished,
    /// Every pane broke before the top.
    AllBroken,
    /// It stopped early.
    Cancelled(RampCancel),
}

/// Where a pane broke.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RampOnset {
    /// The per-step load it broke at, ms: the speed window's mean load when its speed fell,
    /// the load behind the frame where its spiral started when it spiralled first (see the
    /// module doc).
    pub load_ms: f64,
    /// Its simulation speed then.
    pub speed: f64,
    /// Whether it spiralled (rather than only ran slow).
    pub spiral: bool,
}

/// One point of the plot: the load and every pane's simulation speed at it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RampSample {
    /// The per-step load behind the speed window's frames, ms.
    pub load_ms: f64,
    /// Each pane's simulation speed over the window, in pane order.
    pub speeds: [f64; MAX_PANES],
}

/// What a pane is at the end of a frame, for [`Ramp::observe`].
#[derive(Clone, Copy, Debug, Default)]
pub struct RampPaneFrame {
    /// Simulated time of the latest state.
    pub latest_time: Nanos,
    /// Real time carried to simulate next (the accumulator).
    pub accumulator: Nanos,
    /// What the frame's steps cost at the load in force, in the simulation's time base
    /// (as the spiral detector weighs them).
    pub step_work: Nanos,
    /// Whether the pane's spiral detector fires.
    pub spiral: bool,
    /// Whether the loop's carried load froze this pane (the focused one's steps cost it).
    pub frozen: bool,
}

/// The frame totals the speed window is measured between.
#[derive(Clone, Copy, Debug)]
struct Totals {
    /// Real frame time since the ramp started (measured plus load carried in).
    loop_time: Nanos,
    /// Frame time fed to the strategies since the ramp started.
    fed: Nanos,
    /// The load behind each frame times its real frame time, summed (ms·ns).
    load_time: f64,
    /// Each pane's game clock at the end of the frame: the latest state's time plus what
    /// is carried to simulate next, so it does not jump by whole steps.
    clocks: [Nanos; MAX_PANES],
    /// Each pane's latest state's time at the end of the frame.
    latest: [Nanos; MAX_PANES],
    /// What each pane's steps cost since the ramp started (simulation time base).
    work: [Nanos; MAX_PANES],
}

/// A ramp of the per-step load: running, or ended with its curves kept for the plot.
#[derive(Clone, Debug)]
pub struct Ramp {
    /// What was asked.
    settings: RampSettings,
    /// The step cost in force when the ramp started, put back when it ends.
    base_step_cost_ms: f64,
    /// The strategy of each pane, in pane order.
    strategies: [Strategy; MAX_PANES],
    /// Panes in use.
    pane_count: usize,
    /// The pane whose steps the load costs.
    focus: usize,
    /// Loop time the speed is measured over.
    speed_window: Nanos,
    /// Where it is.
    phase: RampPhase,
    /// Stopwatch time of the first frame; `None` before it.
    started_at: Option<Nanos>,
    /// Real time since the first frame, on the stopwatch.
    elapsed: Nanos,
    /// The step cost of the frame that ran last, ms.
    load_ms: f64,
    /// The step cost of the frame before it (whose steps lengthened the last frame), ms.
    behind_ms: f64,
    /// Totals after each recent frame, oldest first: the speed window.
    window: VecDeque<Totals>,
    /// Totals after the last frame.
    totals: Totals,
    /// The plot's points, in load order.
    samples: Vec<RampSample>,
    /// Each pane's onset, in pane order.
    onsets: [Option<RampOnset>; MAX_PANES],
    /// For each pane that spirals now (its detector fires while its steps cost at least
    /// the time they simulate): the loop time and the load behind the frame it started at.
    spiral_since: [Option<(Nanos, f64)>; MAX_PANES],
}

impl Ramp {
    /// A ramp of checked `settings` over `panes` (their strategies, in order; the first
    /// [`MAX_PANES`]), `focus` the pane whose steps the load costs, replacing a step cost
    /// of `base_step_cost_ms`, its speed measured over `speed_window` of loop time (see
    /// [`speed_window`]). The load starts rising at its first frame.
    pub fn new(
        settings: RampSettings,
        base_step_cost_ms: f64,
        panes: &[Strategy],
        focus: usize,
        speed_window: Nanos,
    ) -> Result<Self, RangeError> {
        settings.validate()?;
        let mut strategies = [Strategy::ALL[0]; MAX_PANES];
        let pane_count = panes.len().min(MAX_PANES);
        strategies[..pane_count].copy_from_slice(&panes[..pane_count]);
        Ok(Self {
            settings,
            base_step_cost_ms,
            strategies,
            pane_count,
            focus,
            speed_window: speed_window.max(1),
            phase: RampPhase::Running,
            started_at: None,
            elapsed: 0,
            load_ms: base_step_cost_ms,
            behind_ms: base_step_cost_ms,
            window: VecDeque::with_capacity(WINDOW_FRAMES),
            totals: Totals {
                loop_time: 0,
                fed: 0,
                load_time: 0.0,
                clocks: [0; MAX_PANES],
                latest: [0; MAX_PANES],
                work: [0; MAX_PANES],
            },
            samples: Vec::with_capacity(RAMP_POINTS + MAX_PANES + 2),
            onsets: [None; MAX_PANES],
            spiral_since: [None; MAX_PANES],
        })
    }

    /// The step cost for a frame starting at stopwatch time `now`, ms: rising linearly
    /// from 0 at the first frame to the maximum at the ramp's duration, then held. `None`
    /// once the ramp has ended.
    pub fn load_at(&mut self, now: Nanos) -> Option<f64> {
        if self.phase != RampPhase::Running {
            return None;
        }
        let start = *self.started_at.get_or_insert(now);
        self.elapsed = now.saturating_sub(start);
        let share = (secs_from_ns(self.elapsed) / self.settings.duration_s).clamp(0.0, 1.0);
        self.behind_ms = self.load_ms;
        self.load_ms = self.settings.max_step_cost_ms * share;
        Some(self.load_ms)
    }

    /// Takes the frame just run: `real_frame` long (measured plus load carried in), `fed`
    /// of it given to the strategies, and each pane as it stands after it (in pane order).
    /// Measures every pane's speed over the window, marks the onsets, and ends the ramp
    /// when every pane has broken or the top has been measured. Returns whether it ended
    /// with this frame. Never allocates.
    pub fn observe(&mut self, real_frame: Nanos, fed: Nanos, panes: &[RampPaneFrame]) -> bool {
        if self.phase != RampPhase::Running || self.started_at.is_none() {
            return false;
        }
        let totals = &mut self.totals;
        totals.loop_time = totals.loop_time.saturating_add(real_frame);
        totals.fed = totals.fed.saturating_add(fed);
        totals.load_time += self.behind_ms * real_frame as f64;
        for (i, pane) in panes.iter().enumerate().take(MAX_PANES) {
            totals.clocks[i] = pane.latest_time.saturating_add(pane.accumulator);
            totals.latest[i] = pane.latest_time;
            totals.work[i] = totals.work[i].saturating_add(pane.step_work);
        }
        if self.window.len() == WINDOW_FRAMES {
            self.window.pop_front();
        }
        self.window.push_back(self.totals);
        let newest = self.totals.loop_time;
        while self.window.len() > 2
            && newest.saturating_sub(self.window[1].loop_time) >= self.speed_window
        {
            self.window.pop_front();
        }
        // The first frame is the baseline: its time holds the load before the ramp.
        let Some(&from) = self.window.front().filter(|_| self.window.len() >= 2) else {
            return false;
        };
        let span = newest.saturating_sub(from.loop_time);
        let fed_span = self.totals.fed.saturating_sub(from.fed);
        if span == 0 || fed_span == 0 {
            return false;
        }
        let load_ms = (self.totals.load_time - from.load_time) / span as f64;
        let mut sample = RampSample {
            load_ms,
            speeds: [0.0; MAX_PANES],
        };
        let mut onset_now = false;
        for (i, pane) in panes.iter().enumerate().take(self.pane_count) {
            let simulated = self.totals.clocks[i].saturating_sub(from.clocks[i]);
            let speed = simulated as f64 / fed_span as f64;
            sample.speeds[i] = speed;
            // The detector also fires while a rising load lengthens frames towards where
            // the loop would settle; it is a spiral only where the steps cost at least the
            // time they simulate, so that owed time can grow without bound.
            let stepped = self.totals.latest[i].saturating_sub(from.latest[i]);
            let work = self.totals.work[i].saturating_sub(from.work[i]);
            let overrun = stepped > 0 && work >= stepped;
            let since = &mut self.spiral_since[i];
            *since = match (pane.spiral && overrun, *since) {
                (false, _) => None,
                (true, None) => Some((newest, self.behind_ms)),
                (true, kept) => kept,
            };
            let spiral_from = match *since {
                _ if pane.frozen => Some(self.behind_ms),
                Some((at, load)) if newest.saturating_sub(at) >= self.speed_window => Some(load),
                _ => None,
            };
            if self.onsets[i].is_none() && broken(speed, spiral_from.is_some()) {
                // A speed reading is about its window's loads; a spiral is about the frames
                // since it started, which the load behind the first made.
                let spiral = speed >= ONSET_SPEED;
                self.onsets[i] = Some(RampOnset {
                    load_ms: spiral_from.filter(|_| spiral).unwrap_or(load_ms),
                    speed,
                    spiral,
                });
                onset_now = true;
            }
        }
        let all_broken = self.onsets[..self.pane_count].iter().all(Option::is_some);
        let top = self.behind_ms >= self.settings.max_step_cost_ms;
        let ended = all_broken || top;
        self.keep(sample, onset_now || ended);
        if ended {
            self.phase = if all_broken {
                RampPhase::AllBroken
            } else {
                RampPhase::Finished
            };
        }
        ended
    }

    /// Keeps `sample` for the plot when the load has moved on by a plot step since the
    /// last point, or when it must show (an onset, the end).
    fn keep(&mut self, sample: RampSample, always: bool) {
        let step = self.settings.max_step_cost_ms / RAMP_POINTS as f64;
        let due = self
            .samples
            .last()
            .is_none_or(|last| sample.load_ms - last.load_ms >= step);
        if !(due || always) {
            return;
        }
        if self.samples.len() < self.samples.capacity() {
            self.samples.push(sample);
        } else if let Some(last) = self.samples.last_mut() {
            *last = sample;
        }
    }

    /// Ends a running ramp early; an ended one stays as it ended.
    pub fn cancel(&mut self, why: RampCancel) {
        if self.phase == RampPhase::Running {
            self.phase = RampPhase::Cancelled(why);
        }
    }

    /// Whether the load is still rising.
    pub fn running(&self) -> bool {
        self.phase == RampPhase::Running
    }

    /// Where it is.
    pub fn phase(&self) -> RampPhase {
        self.phase
    }

    /// What was asked.
    pub fn settings(&self) -> RampSettings {
        self.settings
    }

    /// The step cost in force before the ramp, ms: what its end puts back.
    pub fn base_step_cost_ms(&self) -> f64 {
        self.base_step_cost_ms
    }

    /// The loop time each speed reading covers.
    pub fn speed_window(&self) -> Nanos {
        self.speed_window
    }

    /// How closely a mark or a point places its load, ms: half the load the ramp climbs in
    /// one speed window (a reading is placed at its window's mean load).
    pub fn resolution_ms(&self) -> f64 {
        self.settings.slope_ms_per_s() * secs_from_ns(self.speed_window) / 2.0
    }

    /// The step cost of the last frame, ms.
    pub fn load_ms(&self) -> f64 {
        self.load_ms
    }

    /// Real time since the first frame, seconds.
    pub fn elapsed_s(&self) -> f64 {
        secs_from_ns(self.elapsed)
    }

    /// The strategy of each pane, in pane order.
    pub fn strategies(&self) -> &[Strategy] {
        &self.strategies[..self.pane_count]
    }

    /// The pane whose steps the load costs.
    pub fn focus(&self) -> usize {
        self.focus
    }

    /// The plot's points, in load order.
    pub fn samples(&self) -> &[RampSample] {
        &self.samples
    }

    /// Each pane's onset (`None`: it did not break), in pane order.
    pub fn onsets(&self) -> &[Option<RampOnset>] {
        &self.onsets[..self.pane_count]
    }
}
