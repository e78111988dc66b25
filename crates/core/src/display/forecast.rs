//! When the frame about to run will reach the screen: what the `display-time` strategy
//! animates to.
//!
//! A frame's display time depends on when it is presented, which is only known after its
//! work is done. The forecast assumes the frame's CPU work (its start to its present) is
//! the shortest of the last [`FORECAST_FRAMES`] frames' and asks the display model what it
//! would do with a frame presented then ([`Display::predict`]). The shortest, not the mean:
//! CPU frame times that wobble around a refresh (15 and 18.3 ms at 60 Hz) straddle the
//! refresh boundary, and their mean lands on it, so a tiny error picks the wrong refresh;
//! and a hitch, which nothing can foresee, does not move the forecast of the frames after
//! it. Before the first present, the frame time measured before the first frame stands in
//! for the work, and the frame is assumed presented half [`FORECAST_TOLERANCE`] early, so a
//! frame as long as a refresh is not pushed a refresh late by rounding. On a capture's own
//! display times (`trace`), which no model decides, the forecast is
//! the last shown frame's delay, as a game reading presentation feedback would guess.
//!
//! # When the screen cannot be foreseen
//!
//! A forecast only helps where the display times are predictable: a steady rate, or frame
//! starts that wobble about a refresh the screen then evens out. Where the frames' work is
//! independent noise (jitter, hitches, a VRR screen that shows each frame when it is
//! ready), no forecast knows the next frame's work, and one that moves with the recent
//! frames adds its own movement to the noise: animating to it judders more than not
//! predicting at all. Not predicting is itself a forecast: the frame reaches the screen a
//! constant time after its start, which is what `interpolated` assumes, and its error is
//! the display delay's own movement. So the forecast keeps score of both on every frame
//! the screen showed ([`Forecast::shown`]): the mean square of the change in each one's
//! error from one shown frame to the next, which is exactly the animation error each
//! would have caused, averaged over about [`SKILL_FRAMES`] frames. From the second
//! change scored on it keeps the model only while the model scores strictly
//! better than the constant (a tie means the model adds nothing), and otherwise holds the
//! forecast it made last as the constant; it returns to the model when the model scores
//! under half the constant's, so that two forecasts of about equal skill do not take
//! turns. Neither switch moves the forecast: the model returns offset by the held delay's
//! difference from it, and a constant offset is latency, never animation error.

use super::{Display, DisplaySpec};
use crate::timestep::Nanos;

/// Frames whose CPU work the forecast remembers: a quarter of a second at 60 Hz, long
/// enough to hold both halves of a wobble, short enough to follow a change of load.
pub const FORECAST_FRAMES: usize = 16;

/// How far a frame may reach the screen from its forecast and still be on time; the
/// forecast assumes a frame is presented half of it earlier than the shortest recent work
/// says: the refresh grid and frame times are rounded to the nanosecond, so a frame as long
/// as a refresh presents a nanosecond either side of a refresh's start, which picks one
/// refresh or the next.
pub const FORECAST_TOLERANCE: Nanos = 10_000;

/// Shown frames the forecasts' scores average over (the weight of each new frame is one
/// over this, or over the frames so far while there are fewer); the model is judged once
/// a quarter of them are in.
pub const SKILL_FRAMES: u32 = 64;

/// Changes scored before the model is judged: two, so that one frame's luck decides
/// nothing, and few, since every frame judged late may cost what the fallback saves.
const MIN_SCORED: u32 = 2;

/// Frames whose forecast waits for the screen to show them: a frame is shown a few frames
/// after it starts (a full queue, a late refresh); one not shown by then is not scored.
const PENDING_FRAMES: usize = 8;

/// A frame forecast and not shown yet.
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    /// Its number on the display.
    frame: u64,
    /// When it started.
    start: Nanos,
    /// The model's forecast delay from its start, ns, when it made one.
    model: Option<Nanos>,
}

/// The two forecasts' scores, and which one is used (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
struct Skill {
    /// The last shown frame's delay from its start to the screen, and the model's error
    /// on it (when it forecast one), ns: the constant's error is the delay, less a
    /// constant that drops out of the changes.
    last: Option<(i128, Option<i128>)>,
    /// Mean square change of the model's error between shown frames, ns².
    model: f64,
    /// The same for a constant delay, ns².
    constant: f64,
    /// Changes scored (the mean is over the last [`SKILL_FRAMES`], or all while fewer).
    scored: u32,
    /// The delay forecast while the model is not used, ns: the forecast when the model
    /// was left, so the switch moves nothing; `None` while the model is used.
    fallen_back: Option<Nanos>,
    /// What the forecast adds to the model's delay while it is used, ns: the held delay
    /// less the model's when the model was taken back, so that switch moves nothing
    /// either (a constant offset changes no animation error, only the latency).
    offset: i128,
}

/// `change²`, ns².
fn square(change: i128) -> f64 {
    (change as f64) * (change as f64)
}

impl Skill {
    /// A frame reached the screen `delay` after its start, where the model forecast
    /// `model` (from the start, ns); `last_model` is the model's latest forecast. Both
    /// forecasts are scored, and the one to use is chosen.
    fn shown(&mut self, delay: Nanos, model: Option<Nanos>, last_model: Nanos) {
        let delay = i128::from(delay);
        let error = model.map(|model| delay - i128::from(model));
        if let Some((last_delay, Some(last_error))) = self.last
            && let Some(error) = error
        {
            self.scored = (self.scored + 1).min(SKILL_FRAMES);
            let weight = 1.0 / f64::from(self.scored);
            self.model += weight * (square(error - last_error) - self.model);
            self.constant += weight * (square(delay - last_delay) - self.constant);
        }
        self.last = Some((delay, error));
        match self.fallen_back {
            None if self.scored >= MIN_SCORED && self.model >= self.constant => {
                self.fallen_back = Some(self.delay(last_model));
            }
            Some(held) if self.model * 2.0 < self.constant => {
                self.offset = i128::from(held) - i128::from(last_model);
                self.fallen_back = None;
            }
            _ => {}
        }
    }

    /// The delay to forecast where the model forecasts `model`, ns.
    fn delay(&self, model: Nanos) -> Nanos {
        self.fallen_back.unwrap_or_else(|| {
            Nanos::try_from((i128::from(model) + self.offset).max(0)).unwrap_or(Nanos::MAX)
        })
    }
}

/// The forecast of a display time for each frame about to run (see the module doc).
#[derive(Clone, Copy, Debug)]
pub struct Forecast {
    /// The last frames' CPU work, ns; `Nanos::MAX` where no frame has been seen yet.
    works: [Nanos; FORECAST_FRAMES],
    /// Where the next work is written.
    next: usize,
    /// The last shown frame's time from its start to the screen (for `trace`).
    last_delay: Option<Nanos>,
    /// Frames forecast and not shown yet, at `frame % PENDING_FRAMES`.
    pending: [Option<Pending>; PENDING_FRAMES],
    /// How the model and a constant delay did.
    skill: Skill,
    /// The model's latest forecast delay (from the frame's start), ns.
    last_model: Nanos,
}

impl Default for Forecast {
    fn default() -> Self {
        Self {
            works: [Nanos::MAX; FORECAST_FRAMES],
            next: 0,
            last_delay: None,
            pending: [None; PENDING_FRAMES],
            skill: Skill::default(),
            last_model: 0,
        }
    }
}

impl Forecast {
    /// A frame that started at `start` was presented at `present_at` (before any wait for
    /// a free image).
    pub fn presented(&mut self, start: Nanos, present_at: Nanos) {
        self.works[self.next] = present_at.saturating_sub(start);
        self.next = (self.next + 1) % FORECAST_FRAMES;
    }

    /// A frame started `interval` after the one before it (0: nothing measured). Before any
    /// frame was presented, that time stands in for a frame's work.
    pub fn frame_time(&mut self, interval: Nanos) {
        if interval > 0 && self.work().is_none() {
            self.works[self.next] = interval;
            self.next = (self.next + 1) % FORECAST_FRAMES;
        }
    }

    /// The display's frame `frame` reached the screen at `at`: the model's forecast and
    /// the constant delay are scored on it (see the module doc).
    pub fn shown(&mut self, frame: u64, at: Nanos) {
        let slot = &mut self.pending[(frame % PENDING_FRAMES as u64) as usize];
        let Some(pending) = slot.take().filter(|pending| pending.frame == frame) else {
            return;
        };
        let delay = at.saturating_sub(pending.start);
        self.last_delay = Some(delay);
        self.skill.shown(delay, pending.model, self.last_model);
    }

    /// Whether the forecast fell back to a constant delay, the model having scored worse
    /// than one on the recent frames (see the module doc).
    pub fn fallen_back(&self) -> bool {
        self.skill.fallen_back.is_some()
    }

    /// The CPU work the next frame is expected to take: the shortest recent one; `None`
    /// before any frame was presented.
    pub fn work(&self) -> Option<Nanos> {
        self.works
            .iter()
            .copied()
            .min()
            .filter(|&work| work != Nanos::MAX)
    }

    /// When the display's frame `frame`, starting at `start`, is expected to reach
    /// `display`'s screen, its image ready `gpu_cost` after the GPU's queued work: the
    /// model's forecast, or the constant delay where the model scored worse. `None` on the
    /// `cpu` display, before the first frame was presented, and on a capture before its
    /// first shown frame.
    pub fn predict(
        &mut self,
        display: &Display,
        frame: u64,
        start: Nanos,
        gpu_cost: Nanos,
    ) -> Option<Nanos> {
        let model = match display.spec() {
            DisplaySpec::Cpu => return None,
            DisplaySpec::Trace => self.last_delay.map(|delay| start.saturating_add(delay)),
            _ => self.work().and_then(|work| {
                let present_at = start.saturating_add(work - work.min(FORECAST_TOLERANCE / 2));
                display.predict(present_at, gpu_cost)
            }),
        };
        let model = model.map(|model| model.saturating_sub(start));
        self.pending[(frame % PENDING_FRAMES as u64) as usize] = Some(Pending {
            frame,
            start,
            model,
        });
        self.last_model = model?;
        Some(start.saturating_add(self.skill.delay(self.last_model)))
    }
}
