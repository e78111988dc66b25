//! The window's screen, modeled: wgpu has no present-timing API, so the live loop runs the
//! same display model as `bench` ([`Display`]) on the monitor's refresh rate and the present
//! mode in force, fed with the times the window really presented. What it can measure (how
//! long acquiring the next image blocked) it measures.

use crate::display::{
    DisplayEvent, DisplaySpec, Presentation, Refresh, RepeatCause, RepeatCauses, same_refresh,
};
use crate::drive::FrameScreen;
use crate::feedback::{
    ClockMap, FeedbackSource, IN_FLIGHT, MatchedFeedback, MeasuredReadouts, MeasuredScreen,
    PresentFeedback, UNSCORED,
};
use crate::metrics::ScreenFrame;
use crate::ring::Ring;
use crate::timestep::{NANOS_PER_SECOND, Nanos};

use super::present_mode::PresentModeId;

/// How far, in periods, the measured images' phase may move from the grid the model took
/// before it takes the new one: half of what an image may stray and still be on the grid.
const PHASE_SLACK: f64 = 0.025;

/// Refresh rate the model assumes when the monitor does not report one, Hz.
pub const ASSUMED_REFRESH_HZ: f64 = 60.0;
/// Refreshes the timeline's refresh row can show: over 8 s at 1000 Hz.
pub const REFRESH_MARKS: usize = 8192;
/// Images a FIFO swap chain of the window holds in flight: wgpu's default
/// `desired_maximum_frame_latency`.
const WINDOW_QUEUE: u32 = crate::display::DEFAULT_QUEUE;

/// What the window knows about its screen, passed down to the loop when it changes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScreenFacts {
    /// The present mode the surface is configured with (concrete, not `auto-*`); `None`
    /// before the first configure.
    pub present_mode: Option<PresentModeId>,
    /// The monitor's refresh rate as the window system reports it, Hz.
    pub monitor_hz: Option<f64>,
}

/// What the platform's presentation feedback says about the screen, as the loop takes it.
/// Recorded like [`ScreenFacts`], so a replay settles and models its frames as the live run
/// did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredFacts {
    /// Where the feedback comes from.
    pub source: FeedbackSource,
    /// The refresh the measured images reveal, once it is steady: its rate and, on the
    /// stopwatch, its phase. The model takes it over the monitor's rate.
    pub refresh: Option<Refresh>,
    /// Whether the refresh's phase is the screen's measured vblank; else the images land
    /// on no refresh grid (a compositor stamping them by a timer of its own) and the phase
    /// is the model's own.
    pub vblank: bool,
}

/// Where the display times the panes are measured on come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DisplayTimesBy {
    /// The display model.
    #[default]
    Model,
    /// The platform's presentation feedback (its source, when the run says: a recording
    /// made before sources were recorded does not).
    Measurement(Option<FeedbackSource>),
}

/// Where the modeled refresh rate comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RefreshSource {
    /// The window system reported the monitor's rate.
    Monitor,
    /// The person set it.
    Override,
    /// Nobody said: [`ASSUMED_REFRESH_HZ`].
    #[default]
    Assumed,
    /// The platform's presentation feedback ([`MeasuredFacts::refresh`]); `vblank`: its
    /// phase too.
    Measured {
        /// Whether the phase is the screen's measured vblank.
        vblank: bool,
    },
}

/// What one refresh showed, for the timeline's refresh row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RefreshKind {
    /// A new image.
    #[default]
    New,
    /// The image already on screen, again, and why.
    Repeat(RepeatCause),
    /// Parts of more than one image (immediate).
    Torn,
}

/// One refresh of the modeled screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RefreshMark {
    /// When it started (for `immediate`, a new image's mark is when it tore in), on the
    /// loop's stopwatch.
    pub at: Nanos,
    /// What it showed.
    pub kind: RefreshKind,
    /// The frame on screen after it (the new one for [`RefreshKind::New`]).
    pub frame: u64,
}

/// The modeled screen's numbers over the last second.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScreenReadouts {
    /// The display model in force.
    pub model: DisplaySpec,
    /// The refresh rate it uses, Hz.
    pub refresh_hz: f64,
    /// Where that rate comes from.
    pub refresh_source: RefreshSource,
    /// New images on screen per second.
    pub shown_fps: f64,
    /// Refreshes per second that repeated the previous image.
    pub repeated_per_s: f64,
    /// The refreshes repeated over the last second, by cause.
    pub repeated_by_cause: RepeatCauses,
    /// Refreshes per second torn by an arriving image (immediate).
    pub torn_per_s: f64,
    /// Mean time acquiring the next image blocked the window, ms per frame (measured).
    pub acquire_wait_ms: f64,
    /// Presents the window measured in the last second.
    pub measured_presents: u64,
    /// Frames shown later than the first refresh they could have made, since the start
    /// or the last reset.
    pub late_frames: u64,
    /// The measured screen, when the platform reports presentation.
    pub measured: Option<MeasuredReadouts>,
    /// Why the screen is not measured, when the window said.
    pub unmeasured: Option<&'static str>,
    /// Where the panes' display times come from now.
    pub display_times: DisplayTimesBy,
}

/// The screen model and its recent refreshes.
#[derive(Debug)]
pub struct LiveDisplay {
    /// What the window said.
    facts: ScreenFacts,
    /// The person's refresh rate, Hz; 0 = the monitor's.
    override_hz: f64,
    /// The model and its forecast, on the stopwatch (the window's GPU time is in the
    /// presents it measures, so the model adds none).
    presentation: Presentation,
    /// Where its refresh rate came from.
    source: RefreshSource,
    /// Recent refreshes, oldest first.
    marks: Ring<RefreshMark>,
    /// The frame on screen now.
    on_screen: u64,
    /// When the window presented the last frame, if it said.
    present_mark: Option<Nanos>,
    /// Recent presents: when, and how long acquiring the image blocked.
    presents: Ring<(Nanos, Nanos)>,
    /// Late frames counted by models replaced since the last reset.
    late_carried: u64,
    /// The model's late frames at the last reset (0 when the model is newer).
    late_at_reset: u64,
    /// The screen as the platform reports it, when it does.
    measured: Option<MeasuredScreen>,
    /// Why the screen is not measured, when the window said.
    unmeasured: Option<&'static str>,
    /// The frame that ran last, as the model numbers it.
    last_frame: Option<u64>,
    /// What the measurement says, as recorded.
    measured_facts: Option<MeasuredFacts>,
    /// The newest frame the platform answered for: while it is recent, the answers settle
    /// the panes instead of the model ([`Self::display_times`]).
    answered: Option<u64>,
}

impl LiveDisplay {
    /// A screen with nothing known yet: FIFO at [`ASSUMED_REFRESH_HZ`].
    pub fn new(override_hz: f64) -> Self {
        let mut screen = Self {
            facts: ScreenFacts::default(),
            override_hz,
            presentation: Presentation::new(DisplaySpec::Cpu, 0),
            source: RefreshSource::Assumed,
            marks: Ring::new(REFRESH_MARKS),
            on_screen: 0,
            present_mark: None,
            presents: Ring::new(1024),
            late_carried: 0,
            late_at_reset: 0,
            measured: None,
            unmeasured: None,
            last_frame: None,
            measured_facts: None,
            answered: None,
        };
        screen.rebuild();
        screen
    }

    /// Takes new facts from the window, or a new refresh override (0 = the monitor's); the
    /// model starts over from the next present when anything changed.
    pub fn set(&mut self, facts: ScreenFacts, override_hz: f64) {
        if facts != self.facts || override_hz != self.override_hz {
            self.facts = facts;
            self.override_hz = override_hz;
            self.rebuild();
        }
    }

    /// Takes what the measurement says about the screen; the model starts over from the
    /// next present when its refresh changed.
    pub fn set_measured(&mut self, facts: Option<MeasuredFacts>) {
        if facts != self.measured_facts {
            let refresh = |facts: Option<MeasuredFacts>| {
                facts.and_then(|facts| facts.refresh.map(|refresh| (refresh, facts.vblank)))
            };
            let rebuild = refresh(facts) != refresh(self.measured_facts);
            self.measured_facts = facts;
            if rebuild {
                self.rebuild();
            }
        }
    }

    /// The refresh the measurement reveals ([`MeasuredScreen::vblank_timing`]) when the
    /// model should take it, and whether its phase is a measured vblank: none was taken yet, the period moved by more than a two-thousandth (well
    /// beyond what the fit's noise moves it, and never [`same_refresh`]), or the
    /// images' phase moved more than `PHASE_SLACK` of a period from the refreshes taken (a
    /// phase the images no longer show keeps the refreshes taken).
    pub fn refresh_to_measure(&self) -> Option<(Refresh, bool)> {
        let measured = self.measured.as_ref()?;
        let timing = measured.vblank_timing()?;
        let taken = self.measured_facts.and_then(|facts| facts.refresh);
        let taken_vblank = self.measured_facts.is_some_and(|facts| facts.vblank);
        let refresh = Refresh::new(1e9 / timing.period as f64).ok()?;
        let vblank = timing.phase.is_some();
        let Some(taken) = taken else {
            return Some((refresh.with_phase(timing.phase.unwrap_or(0)), vblank));
        };
        let moved = taken
            .period_ns()
            .abs_diff(timing.period)
            .saturating_mul(2_000)
            > timing.period;
        let drifted = match (timing.phase, measured.shown().latest()) {
            (Some(phase), Some(image)) => {
                // The taken grid's refresh nearest the last image against the measured one.
                let taken_at = taken.at(taken.last_at_or_before(image.at));
                let off = taken_at.abs_diff(phase) % timing.period;
                let off = off.min(timing.period - off);
                off as f64 > PHASE_SLACK * timing.period as f64
            }
            _ => false,
        };
        let found = vblank && !taken_vblank;
        (moved || drifted || found).then(|| {
            let phase = timing.phase.unwrap_or(taken.phase());
            (refresh.with_phase(phase), vblank || taken_vblank)
        })
    }

    /// What the measurement says about the screen, as the loop took it.
    pub fn measured_facts(&self) -> Option<MeasuredFacts> {
        self.measured_facts
    }

    /// Forgets the answers: the model settles the frames until the next one (a replay ended,
    /// or the platform stopped answering for good).
    pub fn forget_answers(&mut self) {
        self.answered = None;
    }

    /// The platform answered for `frame` (the model's numbering): while answers keep
    /// coming, they settle the panes.
    pub fn answered(&mut self, frame: u64) {
        self.answered = Some(self.answered.map_or(frame, |newest| newest.max(frame)));
    }

    /// Where the panes' display times come from: the platform's answers while one came for
    /// a frame among the last [`IN_FLIGHT`] run (answers come a few frames late; a screen
    /// that stops answering, hidden or left by the compositor, hands the frames back to the
    /// model), else the model.
    pub fn display_times(&self) -> DisplayTimesBy {
        match self.answered {
            Some(frame)
                if self.presentation.display().next_frame()
                    <= frame.saturating_add(IN_FLIGHT as u64) =>
            {
                DisplayTimesBy::Measurement(self.measured_facts.map(|facts| facts.source))
            }
            _ => DisplayTimesBy::Model,
        }
    }

    /// What the window said last.
    pub fn facts(&self) -> ScreenFacts {
        self.facts
    }

    /// The display model in force.
    pub fn spec(&self) -> DisplaySpec {
        self.presentation.display().spec()
    }

    /// What the modeled screen did so far: frames shown and dropped, refreshes repeated
    /// and torn.
    pub fn counts(&self) -> crate::display::DisplayCounts {
        self.presentation.display().counts()
    }

    /// The modeled refresh period, ns.
    pub fn refresh_period(&self) -> Nanos {
        self.presentation
            .display()
            .spec()
            .refresh()
            .map_or(0, |refresh| refresh.period_ns())
    }

    /// The refresh shown frames are counted in, ns (VRR: its fastest; see
    /// [`DisplaySpec::refresh_unit`]); 0 when the model has no refreshes.
    pub fn refresh_unit(&self) -> Nanos {
        self.presentation
            .display()
            .spec()
            .refresh_unit()
            .unwrap_or(0)
    }

    /// Sequence number the frame about to run will be presented as.
    pub fn next_frame(&self) -> u64 {
        self.presentation.display().next_frame()
    }

    /// The window presented the last frame now (`at`), after acquiring its image blocked
    /// for `acquire_wait` (or a replay presents a recorded frame).
    pub fn record_present(&mut self, at: Nanos, acquire_wait: Nanos) {
        self.present_mark = Some(at);
        self.presents.push((at, acquire_wait));
    }

    /// Numbers a present the window made at `at` for its feedback: the last frame's, to be
    /// scored against the model, or (`scored` false: a replay, whose model runs on the
    /// recording's clock) one only measured. Returns its surface generation and number,
    /// when the screen is measured.
    pub fn note_present(&mut self, at: Nanos, scored: bool) -> Option<(u32, u64)> {
        let measured = self.measured.as_mut()?;
        let (frame, started) = if scored {
            (
                self.last_frame?,
                self.presentation.frame_start().unwrap_or(0),
            )
        } else {
            (UNSCORED, 0)
        };
        Some((
            measured.generation(),
            measured.presented(frame, started, at),
        ))
    }

    /// The platform reports presentation through `source`, on a clock that maps onto the
    /// stopwatch by `clock`: the screen is measured from now on.
    pub fn measure(&mut self, source: FeedbackSource, clock: ClockMap) {
        self.measured = Some(MeasuredScreen::new(source, clock));
        self.unmeasured = None;
    }

    /// Maps feedback times through `clock` from now on (a fresh reading of both clocks).
    pub fn set_feedback_clock(&mut self, clock: ClockMap) {
        if let Some(measured) = &mut self.measured {
            measured.set_clock(clock);
        }
    }

    /// The screen cannot be measured, for `reason`: it stays modeled.
    pub fn unmeasured(&mut self, reason: &'static str) {
        self.measured = None;
        self.unmeasured = Some(reason);
    }

    /// The window recreated its surface at `now`: feedback for the old one is ignored.
    /// Returns the new generation, when the screen is measured.
    pub fn new_surface(&mut self, now: Nanos) -> Option<u32> {
        self.measured
            .as_mut()
            .map(|measured| measured.new_surface(now))
    }

    /// Takes presentation feedback; returns the frame it matched, if any.
    pub fn feedback(&mut self, feedback: PresentFeedback) -> Option<MatchedFeedback> {
        self.measured.as_mut()?.feedback(feedback)
    }

    /// The measured screen, when the platform reports presentation.
    pub fn measured(&self) -> Option<&MeasuredScreen> {
        self.measured.as_ref()
    }

    /// Carries the measurement over from `old`, a screen this one replaces (its frames are
    /// numbered from scratch).
    pub fn take_measurement(&mut self, old: &mut Self) {
        self.unmeasured = old.unmeasured;
        self.measured = old.measured.take();
        self.measured_facts = old.measured_facts;
        if self
            .measured_facts
            .is_some_and(|facts| facts.refresh.is_some())
        {
            self.rebuild();
        }
        if let Some(measured) = &mut self.measured {
            measured.restart();
        }
    }

    /// Presents the frame run last: at the time the window said, else `now` (the next
    /// frame's start). `on_event` gets what the screen did, in order; while the platform's
    /// answers settle the frames ([`Self::display_times`]), not the model's shown and
    /// dropped frames, which are only scored against them. Returns when the model says
    /// the present returned (the stopwatch has measured when it really did).
    pub fn present(&mut self, now: Nanos, mut on_event: impl FnMut(&DisplayEvent)) -> Nanos {
        let settles = self.display_times() == DisplayTimesBy::Model;
        let at = self.present_mark.take().unwrap_or(now).min(now);
        let (marks, on_screen) = (&mut self.marks, &mut self.on_screen);
        let mut measured = self.measured.as_mut();
        self.presentation.present(at, |event| {
            mark(marks, on_screen, &event);
            if let Some(measured) = &mut measured {
                match event {
                    DisplayEvent::Shown { frame, at } => measured.modeled(frame, Some(at)),
                    DisplayEvent::Dropped { frame } => measured.modeled(frame, None),
                    DisplayEvent::Repeated { .. } | DisplayEvent::Torn { .. } => {}
                }
            }
            let frame_outcome = matches!(
                event,
                DisplayEvent::Shown { .. } | DisplayEvent::Dropped { .. }
            );
            if settles || !frame_outcome {
                on_event(&event);
            }
        })
    }

    /// A frame starts `now`, `interval` after the one before it: its number on the model
    /// and when it is predicted to reach the screen, on the stopwatch (see
    /// [`crate::display::Forecast`]).
    pub fn frame_starts(&mut self, now: Nanos, interval: Nanos) -> (u64, Option<Nanos>) {
        let placed = self.presentation.frame_starts(now, interval);
        self.last_frame = Some(placed.0);
        placed
    }

    /// Recent refreshes, oldest first.
    pub fn marks(&self) -> &Ring<RefreshMark> {
        &self.marks
    }

    /// Forgets the refreshes shown and the late frames counted (a reset); the model keeps
    /// running.
    pub fn clear_marks(&mut self) {
        self.marks.clear();
        self.late_carried = 0;
        self.late_at_reset = self.presentation.display().counts().late;
    }

    /// Frames shown later than the first refresh they could have made (see
    /// [`crate::display::DisplayCounts::late`]) since the start or the last reset, across
    /// changes of the model.
    pub fn late_frames(&self) -> u64 {
        self.late_carried
            + self
                .presentation
                .display()
                .counts()
                .late
                .saturating_sub(self.late_at_reset)
    }

    /// The numbers over the second before `now`.
    pub fn readouts(&self, now: Nanos) -> ScreenReadouts {
        let from = now.saturating_sub(NANOS_PER_SECOND);
        let recent = self.marks.iter().rev().take_while(|mark| mark.at >= from);
        let (mut shown, mut repeated, mut torn) = (0u64, RepeatCauses::default(), 0u64);
        let mut first_new = None;
        let mut last_new = None;
        for mark in recent {
            match mark.kind {
                RefreshKind::New => {
                    shown += 1;
                    last_new.get_or_insert(mark.at);
                    first_new = Some(mark.at);
                }
                RefreshKind::Repeat(cause) => repeated.add(cause, 1),
                RefreshKind::Torn => torn += 1,
            }
        }
        let shown_fps = match (first_new, last_new) {
            (Some(first), Some(last)) if last > first => {
                (shown - 1) as f64 * 1e9 / (last - first) as f64
            }
            _ => 0.0,
        };
        let (mut waits, mut wait_sum) = (0u64, 0u64);
        for &(at, wait) in self.presents.iter().rev() {
            if at < from {
                break;
            }
            waits += 1;
            wait_sum += wait;
        }
        let refresh_hz = self
            .presentation
            .display()
            .spec()
            .refresh()
            .map_or(0.0, |r| r.hz());
        ScreenReadouts {
            model: self.presentation.display().spec(),
            refresh_hz,
            refresh_source: self.source,
            shown_fps,
            repeated_per_s: repeated.total() as f64,
            repeated_by_cause: repeated,
            torn_per_s: torn as f64,
            acquire_wait_ms: if waits > 0 {
                wait_sum as f64 / waits as f64 / 1e6
            } else {
                0.0
            },
            measured_presents: waits,
            late_frames: self.late_frames(),
            measured: self.measured.as_ref().map(MeasuredScreen::readouts),
            unmeasured: self.unmeasured,
            display_times: self.display_times(),
        }
    }

    /// A new model for the facts and the override, numbering frames on from the old one.
    fn rebuild(&mut self) {
        let measured = self
            .measured_facts
            .and_then(|facts| facts.refresh.map(|refresh| (refresh, facts.vblank)));
        let (hz, source) = if self.override_hz > 0.0 {
            (self.override_hz, RefreshSource::Override)
        } else if let Some((refresh, vblank)) = measured {
            (refresh.hz(), RefreshSource::Measured { vblank })
        } else if let Some(hz) = self.facts.monitor_hz.filter(|hz| *hz >= 1.0) {
            (hz, RefreshSource::Monitor)
        } else {
            (ASSUMED_REFRESH_HZ, RefreshSource::Assumed)
        };
        let refresh = match measured.filter(|_| matches!(source, RefreshSource::Measured { .. })) {
            Some((refresh, _)) => refresh,
            None => Refresh::new(hz.clamp(
                crate::display::MIN_REFRESH_HZ,
                crate::display::MAX_REFRESH_HZ,
            ))
            .or_else(|_| Refresh::new(ASSUMED_REFRESH_HZ))
            .expect("60 Hz is a valid refresh rate"),
        };
        let spec = match self.facts.present_mode {
            Some(PresentModeId::Mailbox) => DisplaySpec::Mailbox { refresh },
            Some(PresentModeId::Immediate | PresentModeId::AutoNoVsync) => {
                DisplaySpec::Immediate { refresh }
            }
            Some(PresentModeId::Fifo | PresentModeId::FifoRelaxed | PresentModeId::AutoVsync)
            | None => DisplaySpec::Fifo {
                refresh,
                queue: WINDOW_QUEUE,
            },
        };
        // Late frames count on as the model changes, but start over with a new refresh
        // length, as the panes' refresh histograms do.
        let unit = |spec: DisplaySpec| spec.refresh_unit().unwrap_or(0);
        let same_unit = same_refresh(unit(spec), unit(self.presentation.display().spec()));
        self.late_carried = if same_unit { self.late_frames() } else { 0 };
        self.late_at_reset = 0;
        self.presentation.replace(spec);
        self.source = source;
    }
}

/// The live loop's frames run on the modeled screen; its first pane is never shown at
/// once (the model is never the `cpu` display).
impl FrameScreen for LiveDisplay {
    fn present(&mut self, at: Nanos, on_event: impl FnMut(&DisplayEvent)) -> Nanos {
        LiveDisplay::present(self, at, on_event)
    }

    fn frame_starts(&mut self, start: Nanos, interval: Nanos) -> Option<(u64, Option<Nanos>)> {
        Some(LiveDisplay::frame_starts(self, start, interval))
    }

    fn shown_now(&mut self, screen: &ScreenFrame) {
        self.presentation
            .record(screen.frame, Some(screen.display_time));
    }
}

/// Adds what a display event says about refreshes to the marks.
fn mark(marks: &mut Ring<RefreshMark>, on_screen: &mut u64, event: &DisplayEvent) {
    match *event {
        DisplayEvent::Shown { frame, at } => {
            *on_screen = frame;
            marks.push(RefreshMark {
                at,
                kind: RefreshKind::New,
                frame,
            });
        }
        DisplayEvent::Repeated {
            at,
            count,
            every,
            cause,
        } => {
            // A long stall repeats more refreshes than the row can show: keep the newest.
            let skip = count.saturating_sub(REFRESH_MARKS as u64);
            for k in skip..count {
                marks.push(RefreshMark {
                    at: at.saturating_add(k.saturating_mul(every)),
                    kind: RefreshKind::Repeat(cause),
                    frame: *on_screen,
                });
            }
        }
        DisplayEvent::Torn { at } => marks.push(RefreshMark {
            at,
            kind: RefreshKind::Torn,
            frame: *on_screen,
        }),
        DisplayEvent::Dropped { .. } => {}
    }
}
