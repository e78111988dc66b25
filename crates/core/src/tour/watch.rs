//! What the tour sees frame by frame since a chapter's settings took effect: the focused
//! pane's frames and steps and the input events the policies lost or duplicated, and of
//! each pane what the chapter watches ([`Watches`]): its drawn spring against the curve its
//! simulation follows (and what a kick showed a frame to have drawn wrong), the sphere's
//! motion on screen against the camera, or the camera's eyes moving through the world.

use super::{EyePace, SpringFit, Watched, Watches};
use crate::input::{InputPolicy, InputStats};
use crate::live::{LiveLoop, MAX_PANES, Pane, Stopwatch};
use crate::scene::{Scene, ShownScene, SpringTruth, wrapped_difference};
use crate::timestep::{Nanos, secs_from_ns};
use glam::DVec3;

/// What the tour saw since the chapter's settings took effect.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Watch {
    /// When the settings took effect, on the loop's clock; `None` before the first frame.
    pub since: Option<Nanos>,
    /// The last frame seen (its number), so one frame counts once.
    last_frame: Option<u64>,
    /// The focused pane's simulated time then: it goes back when the loop is reset.
    pub sim_time: Nanos,
    /// The focused pane's frames and steps.
    pub tally: FrameTally,
    /// Each pane's drawn spring.
    pub panes: [PaneWatch; MAX_PANES],
    /// The focused pane's input measurements when the watch began.
    inputs_before: Option<InputStats>,
}

/// What the tour counted of the focused pane's frames since the chapter's settings took
/// effect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameTally {
    /// Frames seen.
    pub frames: u64,
    /// The longest frame time fed to the strategies, ns.
    pub longest_frame: Nanos,
    /// The longest single step, ns.
    pub longest_step: Nanos,
    /// Frames whose steps ended in a step shorter than the others (a remainder).
    pub partial_frames: u64,
    /// Frames that took no step.
    pub stepless_frames: u64,
    /// Kicks that landed.
    pub kicks: u64,
}

/// One pane's frames: its drawn spring against the curve its simulation follows, the
/// sphere's pace across the screen and the eyes' pace through the world.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PaneWatch {
    /// The last frame it drew.
    drawn: Option<Drawn>,
    /// The largest distance, metres, between a drawn spring and the exact curve through
    /// the pane's latest simulated state at the drawn time: what a straight line between
    /// states cuts off, or a straight-line guess overshoots.
    curve_error_m: f64,
    /// The largest distance, metres, between a frame drawn past the start of the step a
    /// kick then landed in and where the kick put the spring at that time (what the guess
    /// overshoots the curve by is in it too).
    kick_error_m: f64,
    /// How evenly the sphere's bearing from the camera's look changed, radians in `x`
    /// (horizontal: the orbits turn about the vertical).
    bearing: Pace,
    /// How evenly the camera's eyes moved.
    eye: Pace,
}

/// How evenly something moves from frame to frame: the RMS change of its rate from one
/// frame to the next, times the frame (a steady pace changes slowly; one in steps jumps
/// between still and fast), and how far it went.
#[derive(Clone, Copy, Debug, Default)]
struct Pace {
    /// The last frame noted: when it was shown on the strategy's clock (`T`), ns, and
    /// where the thing was; `None` before the first or after a value not finite.
    last: Option<(Nanos, DVec3)>,
    /// The rate over the last frame, per second; `None` when not measured.
    rate: Option<DVec3>,
    /// Sum of the squared changes of the rate, each times its frame, and how many.
    jerk_sum: f64,
    jerks: u64,
    /// Distance moved, and the time it took on the strategy's clock, s.
    travelled: f64,
    took_s: f64,
}

impl Pace {
    /// Notes a frame shown at `at` (`T`) with the thing at `value`, which moved by
    /// `moved(last, value)` since the frame noted before; it counts once `settled` (a walk
    /// starting, or a view turning to where a chapter set it, is no jitter).
    fn note(
        &mut self,
        at: Nanos,
        value: DVec3,
        moved: impl FnOnce(DVec3, DVec3) -> DVec3,
        settled: bool,
    ) {
        let last = self.last.take();
        if !value.is_finite() {
            self.rate = None;
            return;
        }
        self.last = Some((at, value));
        let Some((last_at, last_value)) = last.filter(|&(last_at, _)| at > last_at) else {
            self.rate = None;
            return;
        };
        let moved = moved(last_value, value);
        let frame_s = secs_from_ns(at - last_at);
        let rate = moved / frame_s;
        let before = self.rate.replace(rate);
        if !settled {
            return;
        }
        if let Some(before) = before {
            self.jerk_sum += ((rate - before) * frame_s).length_squared();
            self.jerks += 1;
        }
        self.travelled += moved.length();
        self.took_s += frame_s;
    }

    /// The RMS change of the rate from one frame to the next, times the frame.
    fn jitter(&self) -> f64 {
        if self.jerks == 0 {
            return 0.0;
        }
        (self.jerk_sum / self.jerks as f64).sqrt()
    }

    /// The mean speed, per second.
    fn speed(&self) -> f64 {
        if self.took_s > 0.0 {
            self.travelled / self.took_s
        } else {
            0.0
        }
    }
}

/// A frame one pane drew.
#[derive(Clone, Copy, Debug)]
struct Drawn {
    /// Its simulated time, ns.
    time: Nanos,
    /// The spring drawn, metres.
    x_m: f64,
    /// The exact solution the spring followed then (a kick starts a new one).
    truth: SpringTruth,
}

/// Input events of one policy since the chapter's settings took effect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputCounts {
    /// Events read.
    pub read: u64,
    /// Events no step applied.
    pub lost: u64,
    /// Applications beyond an event's first.
    pub duplicated: u64,
}

impl Watch {
    /// A watch beginning with the focused pane's simulated time `sim_time`.
    pub fn new(sim_time: Nanos) -> Self {
        Self {
            sim_time,
            ..Self::default()
        }
    }

    /// Notes the loop's last frame, once, measuring what the chapter `watches`.
    pub fn note_frame<S: Stopwatch>(&mut self, live: &LiveLoop<S>, watches: Watches) {
        let focus = live.focus();
        let Some(frame) = focus.last() else {
            return;
        };
        let number = focus.history().latest().map(|sample| sample.frame);
        if number.is_some() && number == self.last_frame {
            return;
        }
        self.last_frame = number;
        self.inputs_before
            .get_or_insert_with(|| focus.input_stats());
        let steps = frame.report.steps;
        self.tally.frames += 1;
        self.tally.longest_frame = self.tally.longest_frame.max(frame.report.frame_time);
        let whole = if steps.count > 0 { steps.size } else { 0 };
        self.tally.longest_step = self.tally.longest_step.max(whole.max(steps.tail));
        let dt = focus.sim().engine().dt();
        if steps.tail != 0 && steps.tail < dt {
            self.tally.partial_frames += 1;
        }
        if steps.is_empty() {
            self.tally.stepless_frames += 1;
        }
        // Paces count from halfway through the settling, so the first judgement has half a
        // second of them: a walk starting is no jitter.
        let settled = self
            .since
            .is_some_and(|since| live.now() >= since.saturating_add(super::SETTLE / 2));
        let focus_index = live.settings().focus_index();
        for (index, (pane, watch)) in live.panes().iter().zip(&mut self.panes).enumerate() {
            if watch.note(pane, settled, watches) && index == focus_index {
                self.tally.kicks += 1;
            }
        }
    }

    /// The focused pane's input events since the watch began, per policy in
    /// [`InputPolicy::ALL`] order.
    pub fn inputs<S: Stopwatch>(&self, live: &LiveLoop<S>) -> [InputCounts; 4] {
        let now = live.focus().input_stats();
        let before = self.inputs_before.unwrap_or_default();
        InputPolicy::ALL.map(|policy| {
            let (now, before) = (now.get(policy), before.get(policy));
            InputCounts {
                read: now.inputs.saturating_sub(before.inputs),
                lost: now.lost.saturating_sub(before.lost),
                duplicated: now.duplicated.saturating_sub(before.duplicated),
            }
        })
    }
}

impl PaneWatch {
    /// Notes `pane`'s last frame, measuring what the chapter `watches`; whether a kick
    /// landed in it. Paces count once `settled`.
    fn note(&mut self, pane: &Pane, settled: bool, watches: Watches) -> bool {
        let Some(frame) = pane.last() else {
            return false;
        };
        if pane.exploded() {
            // The spring no longer moves as any curve says: nothing more to measure.
            return false;
        }
        let scene = pane.sim().scene();
        let truth = *scene.truth();
        let kicked = self.drawn.is_some_and(|drawn| drawn.truth != truth);
        let shown = &frame.shown;
        match watches {
            Watches::Readouts => {}
            Watches::Spring => self.note_spring(scene, shown, kicked),
            Watches::Bearing => self.note_bearing(shown, settled),
            Watches::Eyes => self.eye.note(
                shown.real_time,
                shown.camera_eye,
                |from, to| to - from,
                settled,
            ),
        }
        self.drawn = Some(Drawn {
            time: shown.time,
            x_m: shown.spring_x_m,
            truth,
        });
        kicked
    }

    /// Notes the drawn spring against the exact curve through the latest state, and, when
    /// a kick landed (`kicked`), how far the frame before drew from where it put the
    /// spring.
    fn note_spring(&mut self, scene: &Scene, shown: &ShownScene, kicked: bool) {
        let spring = &scene.config().spring;
        let truth = scene.truth();
        let latest = scene.current();
        // The exact curve through the latest state: the path the simulated spring takes
        // between its steps (the chapters that read it run an integrator that follows it).
        let curve = SpringTruth {
            start_s: secs_from_ns(latest.time),
            start: latest.spring,
        };
        if let Some(drawn) = self.drawn.filter(|_| kicked)
            && secs_from_ns(drawn.time) > truth.start_s
        {
            // The last frame drew a time past the step the kick landed at: a future
            // without the kick, which the spring never took.
            let x = curve.state_at(spring, secs_from_ns(drawn.time)).x;
            self.kick_error_m = self.kick_error_m.max((drawn.x_m - x).abs());
        }
        let x = curve.state_at(spring, secs_from_ns(shown.time)).x;
        if x.is_finite() && shown.spring_x_m.is_finite() {
            self.curve_error_m = self.curve_error_m.max((shown.spring_x_m - x).abs());
        }
    }

    /// Notes where the sphere is on screen. Moving smoothly against the camera, it crosses
    /// the screen at a rate that changes slowly; drawn from steps the camera does not
    /// follow, the rate jumps from frame to frame.
    fn note_bearing(&mut self, shown: &ShownScene, settled: bool) {
        let yaw = |v: DVec3| libm::atan2(v.z, v.x);
        let eye = shown.camera_eye;
        let angle = wrapped_difference(
            yaw(shown.camera_target - eye),
            yaw(shown.sphere_position - eye),
        );
        let turned = |from: DVec3, to: DVec3| DVec3::X * wrapped_difference(from.x, to.x);
        self.bearing
            .note(shown.real_time, DVec3::X * angle, turned, settled);
    }

    /// What was measured of the pane under `watches`.
    pub fn watched(&self, watches: Watches) -> Watched {
        match watches {
            Watches::Readouts => Watched::Nothing,
            Watches::Spring => Watched::Spring(SpringFit {
                curve_error_m: self.curve_error_m,
                kick_error_m: self.kick_error_m,
            }),
            Watches::Bearing => Watched::Bearing {
                screen_jitter_deg: self.bearing.jitter().to_degrees(),
            },
            Watches::Eyes => Watched::Eyes(EyePace {
                jitter_m: self.eye.jitter(),
                speed_mps: self.eye.speed(),
            }),
        }
    }
}
