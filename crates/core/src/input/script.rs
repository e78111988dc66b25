//! Scripted inputs for headless runs: `every:S[:HOLD_MS]` presses a movement key every `S`
//! seconds and holds it `HOLD_MS` milliseconds, forward and back in turn (so the player
//! walks to and fro instead of off the map).

use super::{InputEvent, InputKind, MoveKey};
use crate::timestep::Nanos;

/// Shortest and longest period, seconds.
const PERIOD_RANGE_S: (f64, f64) = (0.001, 3600.0);

/// Hold when none is given, ms (a key tap), or half the period when that is shorter.
const DEFAULT_HOLD_MS: f64 = 100.0;

/// A bad `--input` value, naming what is wrong and what is allowed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("input script {spec:?}: {problem}")]
pub struct ScriptError {
    /// The value as given (escaped when printed).
    pub spec: String,
    /// What is wrong with it.
    pub problem: String,
}

/// Key presses every `period`, each held `hold`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputScript {
    /// Time between presses, ns.
    pub period: Nanos,
    /// How long each press is held, ns (less than the period).
    pub hold: Nanos,
}

impl InputScript {
    /// Parses `every:S[:HOLD_MS]`.
    pub fn parse(spec: &str) -> Result<Self, ScriptError> {
        let error = |problem: String| ScriptError {
            spec: spec.to_owned(),
            problem,
        };
        let mut parts = spec.split(':');
        if parts.next() != Some("every") {
            return Err(error(
                "the only script is every:S[:HOLD_MS] (a key press every S seconds, held \
                 HOLD_MS milliseconds)"
                    .into(),
            ));
        }
        let number = |name: &str, text: Option<&str>| -> Result<Option<f64>, ScriptError> {
            match text {
                None => Ok(None),
                Some(text) => text
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|value| value.is_finite())
                    .map(Some)
                    .ok_or_else(|| error(format!("{name} {text:?} is not a finite number"))),
            }
        };
        let period_s = number("S", parts.next())?
            .ok_or_else(|| error("S (seconds between presses) is missing".into()))?;
        let hold_ms = number("HOLD_MS", parts.next())?;
        if parts.next().is_some() {
            return Err(error("too many fields: every:S[:HOLD_MS]".into()));
        }
        let (low, high) = PERIOD_RANGE_S;
        if !(low..=high).contains(&period_s) {
            return Err(error(format!(
                "S {} s is out of range (allowed: {low} to {high} s)",
                crate::text::number(period_s)
            )));
        }
        let period = (period_s * 1e9).round() as Nanos;
        let hold_ms = hold_ms.unwrap_or_else(|| DEFAULT_HOLD_MS.min(period_s * 1e3 / 2.0));
        let hold = (hold_ms * 1e6).round();
        if !(0.0..period as f64).contains(&hold) {
            return Err(error(format!(
                "HOLD_MS {} ms is out of range (allowed: 0 to less than the period, \
                 {} ms)",
                crate::text::number(hold_ms),
                crate::text::number(period_s * 1e3)
            )));
        }
        Ok(Self {
            period,
            hold: hold as Nanos,
        })
    }

    /// The events, in time order: the `n`th press (from 1) at `n·period`, its release
    /// `hold` later; odd presses walk forward, even ones back.
    pub fn events(&self) -> ScriptEvents {
        ScriptEvents {
            script: *self,
            next: 0,
        }
    }

    /// The `index`th event (from 0) of [`Self::events`]: presses at even indices, their
    /// releases at odd ones.
    pub fn event(&self, index: u64) -> InputEvent {
        let n = index / 2 + 1;
        let key = if n % 2 == 1 {
            MoveKey::Forward
        } else {
            MoveKey::Back
        };
        let press = n.saturating_mul(self.period);
        if index.is_multiple_of(2) {
            InputEvent {
                at: press,
                kind: InputKind::Press(key),
            }
        } else {
            InputEvent {
                at: press.saturating_add(self.hold),
                kind: InputKind::Release(key),
            }
        }
    }
}

/// An [`InputScript`]'s events in time order, without end (see [`InputScript::events`]).
#[derive(Clone, Copy, Debug)]
pub struct ScriptEvents {
    /// The script.
    script: InputScript,
    /// The index of the next event.
    next: u64,
}

impl Iterator for ScriptEvents {
    type Item = InputEvent;

    fn next(&mut self) -> Option<InputEvent> {
        let event = self.script.event(self.next);
        self.next += 1;
        Some(event)
    }
}

/// A script's events handed out frame by frame.
#[derive(Debug)]
pub struct ScriptCursor<I: Iterator<Item = InputEvent>> {
    /// The events not handed out yet.
    events: std::iter::Peekable<I>,
    /// The events of the frame being read.
    batch: Vec<InputEvent>,
}

impl<I: Iterator<Item = InputEvent>> ScriptCursor<I> {
    /// A cursor at the start of `events` (in time order).
    pub fn new(events: I) -> Self {
        Self {
            events: events.peekable(),
            batch: Vec::with_capacity(16),
        }
    }

    /// The events received up to stopwatch time `now` not handed out before.
    pub fn until(&mut self, now: Nanos) -> &[InputEvent] {
        self.batch.clear();
        while let Some(event) = self.events.next_if(|event| event.at <= now) {
            self.batch.push(event);
        }
        &self.batch
    }
}
