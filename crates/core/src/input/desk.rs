//! Routing a frame's inputs to its steps under every policy at once, and measuring each.
//!
//! Times: an event arrives at stopwatch time `at`. The frame that reads it started at
//! `now` and is shown at `T_i` on the strategy's clock (the sum of the frame times it was
//! fed, less time dropped), so the event happened at `T_e = T_i - (now - at)` on that clock
//! (scaled like the frame time when the time scale or a filter changed it), and at
//! simulated time `T_e + lead` (the engine's ledger). Latency is measured on the same
//! clock: from `T_e` to the time the frame that first shows the end of the event's first
//! step reaches the screen (`D_j`, which is `T_j` on the `cpu` display).

use std::collections::VecDeque;

use super::meter::{InputStats, PolicyStats};
use super::{InputEvent, InputKind, InputPolicy, Look};
use crate::timestep::{Nanos, shifted};

/// Events waiting for a step, per policy, beyond which new ones are lost (a paused loop
/// under a key-mashing cat): far more than a frame ever reads.
const MAX_QUEUED: usize = 4096;

/// Applied events waiting for the screen, per policy, beyond which the oldest goes
/// unmeasured.
const MAX_PENDING: usize = 4096;

/// Where the frame that reads a batch of events sits, to place them on the strategy's
/// clock and in simulated time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameClockFacts {
    /// Stopwatch time the frame started (events up to it are read).
    pub now: Nanos,
    /// Real time since the previous frame started.
    pub real_frame: Nanos,
    /// The frame time fed to the strategy (scaled, filtered).
    pub frame_time: Nanos,
    /// `T_i`: when the frame is shown on the strategy's clock.
    pub presented_time: Nanos,
    /// Simulated time minus the strategy's clock (the engine's lead).
    pub lead: i64,
}

/// One event waiting for its step.
#[derive(Clone, Copy, Debug)]
struct Queued {
    /// What it is.
    kind: InputKind,
    /// `T_e`: when it happened on the strategy's clock.
    t: Nanos,
    /// When it happened in simulated time.
    sim: Nanos,
    /// Steps that applied it so far.
    applications: u32,
}

/// A key's press as one policy applied it: when it happened and when a step applied it.
#[derive(Clone, Copy, Debug)]
struct AppliedPress {
    /// `T_e` of the press.
    t: Nanos,
    /// Simulated time the press took effect.
    at: Nanos,
}

/// One policy's queue and measurements.
#[derive(Clone, Debug)]
struct Router {
    /// The policy.
    policy: InputPolicy,
    /// Events read and not yet done with (every-step keeps them for all of a frame's steps).
    queue: VecDeque<Queued>,
    /// Applied events waiting for the screen: `(T_e, end of the first step that applied
    /// it)`, in order of that end.
    pending: VecDeque<(Nanos, Nanos)>,
    /// Each key's press in force, as this policy applied it.
    presses: [Option<AppliedPress>; 4],
    /// The measurements.
    stats: PolicyStats,
}

impl Router {
    /// An empty router.
    fn new(policy: InputPolicy) -> Self {
        Self {
            policy,
            queue: VecDeque::with_capacity(64),
            pending: VecDeque::with_capacity(64),
            presses: [None; 4],
            stats: PolicyStats::default(),
        }
    }

    /// Takes an event read this frame.
    fn read(&mut self, event: Queued) {
        self.stats.inputs += 1;
        if self.queue.len() >= MAX_QUEUED {
            self.lose(event.kind);
        } else {
            self.queue.push_back(event);
        }
    }

    /// Counts an event no step will apply.
    fn lose(&mut self, kind: InputKind) {
        self.stats.lost += 1;
        if let InputKind::Press(key) = kind {
            self.presses[key.index()] = None;
        }
    }

    /// Routes the queue into the step `[start, start + h)` (`first` of its frame), telling
    /// `apply` each event it applies and where in the step.
    fn step(
        &mut self,
        first: bool,
        start: Nanos,
        h: Nanos,
        mut apply: impl FnMut(Nanos, InputKind),
    ) {
        let end = start.saturating_add(h);
        match self.policy {
            InputPolicy::EveryStep => {
                for i in 0..self.queue.len() {
                    let event = self.queue[i];
                    self.applied(event, start, end);
                    self.queue[i].applications += 1;
                    apply(0, event.kind);
                }
            }
            InputPolicy::FirstStep | InputPolicy::Buffered => {
                if first {
                    while let Some(event) = self.queue.pop_front() {
                        self.applied(event, start, end);
                        apply(0, event.kind);
                    }
                }
            }
            InputPolicy::Timestamped => {
                while let Some(&event) = self.queue.front()
                    && event.sim < end
                {
                    self.queue.pop_front();
                    let at = event.sim.max(start);
                    self.applied(event, at, end);
                    apply(at - start, event.kind);
                }
            }
        }
    }

    /// Measures an application of `event` at simulated time `at` in a step ending at `end`.
    fn applied(&mut self, event: Queued, at: Nanos, end: Nanos) {
        if event.applications > 0 {
            self.stats.duplicated += 1;
            return;
        }
        self.stats.applied += 1;
        if self.pending.len() >= MAX_PENDING {
            self.pending.pop_front();
        }
        self.pending.push_back((event.t, end));
        match event.kind {
            InputKind::Press(key) => {
                self.presses[key.index()] = Some(AppliedPress { t: event.t, at });
            }
            InputKind::Release(key) => {
                if let Some(press) = self.presses[key.index()].take() {
                    let simulated = i128::from(at) - i128::from(press.at);
                    let real = i128::from(event.t) - i128::from(press.t);
                    let error =
                        (simulated - real).clamp(i128::from(i64::MIN), i128::from(i64::MAX));
                    self.stats.hold(error as i64);
                }
            }
            InputKind::Look { .. } => {}
        }
    }

    /// Ends the frame that took `steps` steps.
    fn end_frame(&mut self, steps: u64) {
        match self.policy {
            InputPolicy::EveryStep if steps > 0 => self.queue.clear(),
            InputPolicy::FirstStep => {
                while let Some(event) = self.queue.pop_front() {
                    self.lose(event.kind);
                }
            }
            _ => {}
        }
    }

    /// A frame showing simulated time `shown` reached the screen at `display` (strategy's
    /// clock): every applied event whose first step it shows whole is measured.
    fn shown(&mut self, display: Nanos, shown: Nanos) {
        while let Some(&(t, end)) = self.pending.front()
            && end <= shown
        {
            self.pending.pop_front();
            let latency = i128::from(display) - i128::from(t);
            self.stats
                .latency(latency.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64);
        }
    }

    /// The strategy's clock moves by `shift` from the next frame on.
    fn rebase(&mut self, shift: i64) {
        for event in &mut self.queue {
            event.t = shifted(event.t, shift);
        }
        for (t, _) in &mut self.pending {
            *t = shifted(*t, shift);
        }
        for press in self.presses.iter_mut().flatten() {
            press.t = shifted(press.t, shift);
        }
    }

    /// Forgets everything.
    fn reset(&mut self) {
        self.queue.clear();
        self.pending.clear();
        self.presses = [None; 4];
        self.stats = PolicyStats::default();
    }
}

/// One step's inputs for the scene: each event with where in the step it takes effect
/// (ns from the step's start), in order.
pub type StepInput = [(Nanos, InputKind)];

/// One pane's inputs: the events of each frame routed to its steps under every policy.
/// The chosen policy's routing drives the player; all four are measured.
#[derive(Clone, Debug)]
pub struct InputDesk {
    /// One router per policy, in [`InputPolicy::ALL`] order.
    routers: [Router; 4],
    /// The policy whose routing drives the player.
    policy: InputPolicy,
    /// The chosen policy's events for the step being taken.
    program: Vec<(Nanos, InputKind)>,
    /// Where the person has turned the view so far, applied as it arrives (what a
    /// per-frame camera shows).
    look: Look,
    /// Where the view starts.
    start_look: Look,
    /// Whether an applied event may be waiting for the screen: set by every routed step,
    /// cleared when [`Self::shown`] finds none (a desk given no inputs skips the routers).
    awaiting_screen: bool,
}

impl InputDesk {
    /// A desk driving the player by `policy`, with the view starting at `start_look`.
    pub fn new(policy: InputPolicy, start_look: Look) -> Self {
        Self {
            routers: InputPolicy::ALL.map(Router::new),
            policy,
            program: Vec::with_capacity(64),
            look: start_look,
            start_look,
            awaiting_screen: false,
        }
    }

    /// The policy driving the player.
    pub fn policy(&self) -> InputPolicy {
        self.policy
    }

    /// Drives the player by `policy` from the next step on (every policy keeps being
    /// measured).
    pub fn set_policy(&mut self, policy: InputPolicy) {
        self.policy = policy;
    }

    /// Where the view is turned to by every turn read so far.
    pub fn look(&self) -> Look {
        self.look
    }

    /// Reads a frame's events (see the module's note on times).
    pub fn read(&mut self, events: &[InputEvent], frame: &FrameClockFacts) {
        for event in events {
            let ago = frame.now.saturating_sub(event.at);
            let scaled = if frame.real_frame == 0 || frame.real_frame == frame.frame_time {
                ago
            } else {
                let scaled =
                    u128::from(ago) * u128::from(frame.frame_time) / u128::from(frame.real_frame);
                Nanos::try_from(scaled).unwrap_or(Nanos::MAX)
            };
            let t = frame.presented_time.saturating_sub(scaled);
            let queued = Queued {
                kind: event.kind,
                t,
                sim: shifted(t, frame.lead),
                applications: 0,
            };
            for router in &mut self.routers {
                router.read(queued);
            }
            self.look = self.look.after(event.kind);
        }
    }

    /// Routes the queued events into the step `[start, start + h)`, the `first` of its
    /// frame, and returns the chosen policy's for the scene.
    pub fn step(&mut self, first: bool, start: Nanos, h: Nanos) -> &StepInput {
        self.awaiting_screen = true;
        self.program.clear();
        let chosen = self.policy.index();
        for (i, router) in self.routers.iter_mut().enumerate() {
            if i == chosen {
                let program = &mut self.program;
                router.step(first, start, h, |offset, kind| program.push((offset, kind)));
            } else {
                router.step(first, start, h, |_, _| {});
            }
        }
        &self.program
    }

    /// Whether any policy has an event waiting for a step.
    pub fn waiting(&self) -> bool {
        self.routers.iter().any(|router| !router.queue.is_empty())
    }

    /// Ends a frame that took `steps` steps.
    pub fn end_frame(&mut self, steps: u64) {
        for router in &mut self.routers {
            router.end_frame(steps);
        }
    }

    /// A frame showing simulated time `shown` reached the screen at `display` on the
    /// strategy's clock.
    pub fn shown(&mut self, display: Nanos, shown: Nanos) {
        if !self.awaiting_screen {
            return;
        }
        for router in &mut self.routers {
            router.shown(display, shown);
        }
        self.awaiting_screen = self.routers.iter().any(|router| !router.pending.is_empty());
    }

    /// The strategy's clock moves by `shift` from the next frame on (a resync).
    pub fn rebase(&mut self, shift: i64) {
        if shift != 0 {
            for router in &mut self.routers {
                router.rebase(shift);
            }
        }
    }

    /// Back to the start: nothing queued or measured, the view where it started.
    pub fn reset(&mut self) {
        for router in &mut self.routers {
            router.reset();
        }
        self.awaiting_screen = false;
        self.look = self.start_look;
    }

    /// Every policy's measurements.
    pub fn stats(&self) -> InputStats {
        InputStats {
            policies: self.routers.each_ref().map(|router| router.stats),
        }
    }
}
