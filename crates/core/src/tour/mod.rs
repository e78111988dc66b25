//! The guided tour: the argument of "Fix Your Timestep!" (Glenn Fiedler) and of the Unity
//! stutter articles, chapter by chapter, with the lab set up for each and the chapter's
//! claim checked on the reader's own machine as it runs.
//!
//! A [`Chapter`] is plain data: a title, the article it follows, a paragraph of what to
//! look at and try, the settings it starts from ([`Chapter::setup`]) and its claim as a
//! check over the loop's own measurements ([`Evidence`] → [`Verdict`]). A [`Tour`] walks
//! the chapters: it keeps the reader's settings to give back on leaving, watches the loop
//! each frame (cheaply; the claim is judged a few times a second) and hands settings
//! back as values when the loop must change (a chapter's setup, or the slow-renderer time
//! scale). The shell shows [`Tour::status`] and sends the reader's moves back.

mod beyond;
mod chapters;
mod screen;
mod shared;
#[cfg(test)]
mod tests;
mod watch;
#[cfg(test)]
mod watch_tests;

pub use chapters::CHAPTERS;
pub use watch::{FrameTally, InputCounts};

use crate::input::MoveKey;
use crate::input::{InputKind, InputPolicy, InputScript};
use crate::live::{
    LiveLoop, LiveRequest, LiveSettings, ScreenReadouts, SlowLoop, SpanStats, Stopwatch,
};
use crate::timestep::{MIN_TIME_SCALE, Nanos, RangeError, Strategy, secs_from_ns};
use arrayvec::ArrayVec;
use watch::Watch;

/// How long a chapter's settings must have run before its claim is judged, ns: the
/// readouts cover the last second, and the first frames after a change settle.
pub const SETTLE: Nanos = 1_500_000_000;

/// Below this frame rate a stutter chapter slows time (as the slow-renderer offer does
/// below [`crate::live::SLOW_LOOP_FPS`]): the stutter shows as frames of one step and
/// frames of none (or two) against 50–64 Hz physics; below 45 fps most frames carry more
/// than one step and the pattern blurs (at 30 fps, two steps a frame).
pub const STUTTER_FPS: f64 = 45.0;

/// How long after its settings take effect a chapter that has not adapted them yet does
/// so whatever its claim says, ns; later it adapts them only when the claim fails on them.
const ADAPT_WITHIN: Nanos = SETTLE + 2_000_000_000;

/// How far (as a fraction) the time scale a slowed chapter runs may drift from the one
/// the frame rate now calls for before the chapter slows time afresh.
const RESLOW_DRIFT: f64 = 0.05;

/// The verdict's words while time is stopped.
const PAUSED: &str = "paused: the claim is judged while time runs";

/// How often the claim is judged, ns of the loop's clock (judging reads a second of
/// every pane's frames).
const JUDGE_EVERY: Nanos = 250_000_000;

/// One chapter of the tour.
#[derive(Debug)]
pub struct Chapter {
    /// Its stable id (`--tour` also takes the number).
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// The article (and section) it follows.
    pub follows: &'static str,
    /// What to look at and what to try, in the project's words.
    pub text: &'static str,
    /// The settings it starts from, given the reader's (the machine's own choices, the
    /// refresh override, the frame cap and the per-frame render cost, which stands for a
    /// slower renderer, are kept; the frame-time filter is not, as an averaging filter
    /// would hide the hitches some chapters are about).
    setup: fn(&LiveSettings) -> LiveSettings,
    /// Its claim, judged on what the loop measured.
    check: fn(&Evidence) -> Verdict,
    /// Whether a loop too slow to show a 60 Hz display's frames slows time for it, as the
    /// slow-renderer offer does (chapters about stutter), and to what: each frame of a slow
    /// renderer then shows `1 / hz` of a second of game (a 60 Hz screen's frame, the
    /// offer's [`crate::live::SLOW_LOOP_TARGET_HZ`], or a rate that no physics rate of the
    /// chapter is near). `None`: the chapter runs at full speed however slow the renderer.
    pub slows_for_slow_renderers: Option<f64>,
    /// How the chapter adapts its setup to this machine when measured (a rate that the
    /// frame rate happens to match): the settings to run and why, in words.
    adapt: fn(&Evidence) -> Option<(LiveSettings, String)>,
    /// What the tour does to the loop while the chapter runs (kicks, key presses).
    pub drive: Drive,
    /// What its claim measures of each pane frame by frame, beyond the readouts.
    pub watches: Watches,
}

/// What a chapter's claim measures of each pane frame by frame, beyond the readouts every
/// check is given: the tour watches that and nothing else while the chapter runs, and the
/// chapter's evidence holds it ([`Watched`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watches {
    /// Nothing beyond the readouts, the focused pane's tally and the screen.
    Readouts,
    /// The drawn spring against the exact curve through the latest state, and what a kick
    /// showed a frame to have drawn wrong.
    Spring,
    /// The sphere's bearing from the camera's look: how evenly it crosses the screen.
    Bearing,
    /// The camera's eyes: how evenly, and how fast, they move through the world.
    Eyes,
}

/// What a chapter does to the loop as it runs, on the loop's clock from when its settings
/// took effect, so its claim has something to measure without the reader's hands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drive {
    /// Nothing: the chapter watches.
    Nothing,
    /// A kick to the spring every `every` ns.
    Kicks {
        /// Time between kicks, ns.
        every: Nanos,
    },
    /// Movement keys pressed and released as the script says.
    Keys(InputScript),
    /// Walking from the start (`key` held down) while the mouse turns the view steadily,
    /// a turn handed out every frame for the game time it advanced (so a slowed or
    /// guarded clock turns the view as much as the body walks).
    Walk {
        /// The movement key held.
        key: MoveKey,
        /// How fast the view turns to the right (negative: to the left), rad/s.
        turn_rad_per_s: f64,
    },
}

impl Drive {
    /// When event `index` (from 0) is due, ns after the settings took effect.
    fn due(self, index: u64) -> Nanos {
        match self {
            Drive::Nothing | Drive::Walk { .. } => Nanos::MAX,
            Drive::Kicks { every } => (index + 1).saturating_mul(every),
            Drive::Keys(script) => script.event(index).at,
        }
    }

    /// The first event not yet due `running` ns after the settings took effect.
    fn first_after(self, running: Nanos) -> u64 {
        match self {
            Drive::Nothing | Drive::Walk { .. } => 0,
            Drive::Kicks { every } => running / every.max(1),
            Drive::Keys(script) => {
                // Presses `n` (from 1) at `n·period`, at even indices; releases after them.
                let pressed = running / script.period.max(1);
                let released = pressed
                    .saturating_mul(script.period)
                    .saturating_add(script.hold)
                    <= running;
                match pressed {
                    0 => 0,
                    n if released => 2 * n,
                    n => 2 * n - 1,
                }
            }
        }
    }
}

/// Most drive events handed out after one frame: after a stall the rest are skipped, not
/// fired at once.
const MOST_DRIVEN_PER_FRAME: u64 = 4;

/// Most inputs the tour asks for after one frame: a release when its script starts over,
/// the drive's events, and a release after a stall (a walk asks for at most two).
pub const MOST_ASKED_INPUTS: usize = MOST_DRIVEN_PER_FRAME as usize + 2;

/// What the tour asks of the loop after a frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TourAsk {
    /// Settings to run (a chapter adapting to the machine).
    pub settings: Option<LiveSettings>,
    /// Kick the spring.
    pub kick: bool,
    /// Inputs to hand the loop, in order (held inline: the tour asks after every frame).
    pub inputs: ArrayVec<InputKind, MOST_ASKED_INPUTS>,
}

/// The index of the chapter whose id is `id`.
pub fn chapter_by_id(id: &str) -> Option<usize> {
    CHAPTERS.iter().position(|chapter| chapter.id == id)
}

impl Chapter {
    /// The settings the chapter starts from, given the reader's `settings`.
    pub fn setup(&self, settings: &LiveSettings) -> LiveSettings {
        let mut setup = (self.setup)(settings);
        setup.refresh_override_hz = settings.refresh_override_hz;
        setup.frame_cap_hz = settings.frame_cap_hz;
        setup.load.render_cost_ms = settings.load.render_cost_ms;
        setup
    }

    /// The claim, judged on `evidence`.
    pub fn check(&self, evidence: &Evidence) -> Verdict {
        (self.check)(evidence)
    }

    /// The settings that fit the chapter's claim to this machine, and why in words, or
    /// `None` when those in force fit: a stutter chapter on a slow renderer slows time so
    /// each frame shows `1/slow_frame_hz` s of game (and slows it afresh when the frame
    /// rate drifted since), otherwise the chapter's own adaptation.
    fn fit(&self, evidence: &Evidence) -> Option<(LiveSettings, String)> {
        let settings = evidence.settings;
        let Some(slow_frame_hz) = self.slows_for_slow_renderers else {
            return (self.adapt)(evidence);
        };
        // The time scale at which each of `fps` frames shows `1/slow_frame_hz` s of game.
        let slowed = |fps: f64| {
            let time_scale = (fps / slow_frame_hz).clamp(MIN_TIME_SCALE, 1.0);
            LiveSettings {
                time_scale,
                ..settings
            }
        };
        if let Some(slow) = evidence.slow {
            let fitted = slowed(slow.fps);
            let why = format!(
                "Time runs at {:.2}x: at {:.1} fps this renderer is too slow to show a 60 Hz \
                 screen's frames at full speed.",
                fitted.time_scale, slow.fps
            );
            return Some((fitted, why));
        }
        if settings.time_scale < 1.0 {
            let fps = evidence.focused()?.stats.fps;
            let fitted = slowed(fps);
            if fps > 0.0 && (fitted.time_scale / settings.time_scale - 1.0).abs() > RESLOW_DRIFT {
                let why = format!(
                    "Time now runs at {:.2}x: the frames came at {fps:.1} fps, and at {:.2}x \
                     each showed {:.1} ms of game, not the {:.1} ms of a {:.0} Hz frame.",
                    fitted.time_scale,
                    settings.time_scale,
                    settings.time_scale / fps * 1e3,
                    1e3 / slow_frame_hz,
                    slow_frame_hz
                );
                return Some((fitted, why));
            }
        }
        (self.adapt)(evidence)
    }
}

/// What a chapter's check says.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Not judged yet: what it waits for.
    Waiting(String),
    /// The claim holds: what was measured.
    Holds(String),
    /// The claim does not hold here: what was measured, why, and what to change.
    Fails(String),
}

impl Clone for Verdict {
    fn clone(&self) -> Self {
        match self {
            Self::Waiting(text) => Self::Waiting(text.clone()),
            Self::Holds(text) => Self::Holds(text.clone()),
            Self::Fails(text) => Self::Fails(text.clone()),
        }
    }

    /// Reuses `self`'s text when both are the same kind (the panel copies the verdict
    /// every frame).
    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (Self::Waiting(text), Self::Waiting(from))
            | (Self::Holds(text), Self::Holds(from))
            | (Self::Fails(text), Self::Fails(from)) => text.clone_from(from),
            (this, source) => *this = source.clone(),
        }
    }
}

impl Verdict {
    /// Its words.
    pub fn text(&self) -> &str {
        match self {
            Self::Waiting(text) | Self::Holds(text) | Self::Fails(text) => text,
        }
    }

    /// `check passed (…)`, `check failed (…)` or `check waiting (…)`, for the exit summary.
    pub fn summary(&self) -> String {
        let word = match self {
            Self::Waiting(_) => "waiting",
            Self::Holds(_) => "passed",
            Self::Fails(_) => "failed",
        };
        format!("check {word} ({})", self.text())
    }
}

/// One pane as a check reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaneEvidence {
    /// Its strategy.
    pub strategy: Strategy,
    /// Its step, ns.
    pub dt: Nanos,
    /// Its readouts over the last second.
    pub stats: SpanStats,
    /// Whether its spring exploded.
    pub exploded: bool,
    /// What its chapter watched of it frame by frame.
    pub watched: Watched,
}

/// What a chapter watched of one pane frame by frame (see [`Watches`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Watched {
    /// Nothing ([`Watches::Readouts`]).
    Nothing,
    /// The drawn spring ([`Watches::Spring`]).
    Spring(SpringFit),
    /// How unevenly the sphere crossed the screen against the camera: the RMS change of
    /// its rate across the screen from one frame to the next, times the frame, degrees
    /// ([`Watches::Bearing`]).
    Bearing {
        /// The RMS change, degrees.
        screen_jitter_deg: f64,
    },
    /// The camera's eyes ([`Watches::Eyes`]).
    Eyes(EyePace),
}

/// How far a pane drew its spring from where it was.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringFit {
    /// The largest distance, metres, between the spring it drew and the exact curve
    /// through its latest simulated state at the drawn time.
    pub curve_error_m: f64,
    /// The largest distance, metres, between a frame it drew past the start of the step a
    /// kick then landed in and where the kick put the spring at that time (what a guess
    /// overshoots the curve by is in it too).
    pub kick_error_m: f64,
}

/// How the camera's eyes moved through the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EyePace {
    /// How unevenly: the RMS change of their velocity from one frame to the next, times
    /// the frame, metres.
    pub jitter_m: f64,
    /// Their mean speed, m/s.
    pub speed_mps: f64,
}

impl PaneEvidence {
    /// Its step, ms.
    pub fn dt_ms(&self) -> f64 {
        self.dt as f64 / 1e6
    }

    /// Its drawn spring, where the chapter watches it.
    pub fn spring(&self) -> Option<SpringFit> {
        match self.watched {
            Watched::Spring(fit) => Some(fit),
            _ => None,
        }
    }

    /// How unevenly its sphere crossed the screen, degrees, where the chapter watches it.
    pub fn screen_jitter_deg(&self) -> Option<f64> {
        match self.watched {
            Watched::Bearing { screen_jitter_deg } => Some(screen_jitter_deg),
            _ => None,
        }
    }

    /// How its camera's eyes moved, where the chapter watches them.
    pub fn eyes(&self) -> Option<EyePace> {
        match self.watched {
            Watched::Eyes(pace) => Some(pace),
            _ => None,
        }
    }
}

/// What the loop measured, as the checks read it: the last second's readouts of every
/// pane, and what the tour saw frame by frame since the chapter's settings took effect.
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    /// The settings in force.
    pub settings: LiveSettings,
    /// Every pane, in order.
    pub panes: Vec<PaneEvidence>,
    /// The focused pane's index.
    pub focus: usize,
    /// The loop is too slow to show the stutter: under [`STUTTER_FPS`], with the time
    /// scale that shows each frame as one 60 Hz frame.
    pub slow: Option<SlowLoop>,
    /// The loop spirals: the focused pane's owed time runs away, or the load it carries
    /// from frame to frame passed the frozen limit (the window busy-waits a frame's load
    /// only so long, so there a spiral shows as load carried).
    pub spiral: bool,
    /// The focused pane's frames and steps since the settings took effect.
    pub tally: FrameTally,
    /// The velocity one kick gives the spring, m/s.
    pub kick_mps: f64,
    /// The focused pane's input events per policy, in [`InputPolicy::ALL`] order.
    pub inputs: [InputCounts; 4],
    /// The screen over the last second: its model, refreshes new, repeated and torn.
    pub screen: ScreenReadouts,
}

impl Evidence {
    /// The focused pane.
    pub fn focused(&self) -> Option<&PaneEvidence> {
        self.panes.get(self.focus)
    }

    /// The first pane running `strategy`.
    pub fn pane(&self, strategy: Strategy) -> Option<&PaneEvidence> {
        self.panes.iter().find(|pane| pane.strategy == strategy)
    }

    /// The focused pane's input events under `policy`.
    pub fn input(&self, policy: InputPolicy) -> InputCounts {
        self.inputs[policy.index()]
    }
}

/// Where the tour stands, for the panel.
#[derive(Clone, Debug, PartialEq)]
pub struct TourStatus {
    /// The chapter's index (0-based).
    pub chapter: usize,
    /// Chapters in all.
    pub chapters: usize,
    /// The chapter.
    pub title: &'static str,
    /// The article it follows.
    pub follows: &'static str,
    /// What to look at and try.
    pub text: &'static str,
    /// Its claim, as last judged.
    pub verdict: Verdict,
    /// What the chapter changed for this machine, in words (time slowed for a slow
    /// renderer, a rate moved off the frame rate).
    pub adapted: Option<String>,
}

/// What the reader asks of the tour, from the panel or the keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourRequest {
    /// Start the tour (at the remembered chapter).
    Start,
    /// The next chapter.
    Next,
    /// The chapter before.
    Back,
    /// Chapter `n` (0-based).
    Go(usize),
    /// Set the chapter up again from its start.
    Restart,
    /// Leave the tour, giving the reader's settings back.
    Leave,
}

impl TourAsk {
    /// Does what the tour asks of `live`: the kick and the inputs, and the settings, which
    /// the loop may refuse (the error says why; the settings in force then stay).
    pub fn apply<S: Stopwatch>(self, live: &mut LiveLoop<S>) -> Result<(), RangeError> {
        if self.kick {
            live.request(LiveRequest::Kick)?;
        }
        // A key or a turn is stamped when the loop takes it (`LiveRequest::Input` carries
        // the time).
        for input in self.inputs {
            live.request(live.input_now(input))?;
        }
        self.settings.map_or(Ok(()), |settings| {
            live.request(LiveRequest::Settings(settings))
        })
    }
}

/// A walk through the chapters.
#[derive(Clone, Debug)]
pub struct Tour {
    /// The chapter shown.
    chapter: usize,
    /// The reader's settings before the tour, given back on leaving.
    saved: LiveSettings,
    /// The settings the tour last saw in force: a change starts the evidence over.
    seen: Option<LiveSettings>,
    /// What was seen since.
    watch: Watch,
    /// The claim as last judged, and when, on the loop's clock.
    verdict: Verdict,
    judged_at: Option<Nanos>,
    /// What the chapter last changed for this machine, in words.
    adapted: Option<String>,
    /// Drive events handed out since the settings took effect.
    driven: u64,
    /// The movement key the tour holds down (pressed, its release not handed out yet).
    held: Option<MoveKey>,
    /// The focused pane's game clock (`T`) the view has been turned up to, ns.
    turned_to: Nanos,
    /// The settings the tour last asked for: the chapter adapts only its own, never what
    /// the reader chose.
    asked: Option<LiveSettings>,
}

impl Tour {
    /// A tour at chapter `chapter` (clamped to the chapters) for a reader whose settings
    /// are `settings`, and the settings to run: the chapter's setup.
    pub fn start(chapter: usize, settings: &LiveSettings) -> (Self, LiveSettings) {
        let chapter = chapter.min(CHAPTERS.len() - 1);
        let setup = CHAPTERS[chapter].setup(settings);
        let tour = Self {
            chapter,
            saved: *settings,
            seen: None,
            watch: Watch::default(),
            verdict: waiting_to_settle(),
            judged_at: None,
            adapted: None,
            driven: 0,
            held: None,
            turned_to: 0,
            asked: Some(setup),
        };
        (tour, setup)
    }

    /// The chapter shown (0-based).
    pub fn chapter(&self) -> usize {
        self.chapter
    }

    /// The claim as last judged.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// The reader's settings from before the tour.
    pub fn saved(&self) -> &LiveSettings {
        &self.saved
    }

    /// Moves to chapter `chapter` (clamped) and returns its setup.
    fn go(&mut self, chapter: usize) -> LiveSettings {
        self.chapter = chapter.min(CHAPTERS.len() - 1);
        self.seen = None;
        self.watch = Watch::default();
        self.verdict = waiting_to_settle();
        self.judged_at = None;
        self.adapted = None;
        self.driven = 0;
        let setup = CHAPTERS[self.chapter].setup(&self.saved);
        self.asked = Some(setup);
        setup
    }

    /// Applies `request` (not [`TourRequest::Start`] or [`TourRequest::Leave`], which the
    /// shell handles by making or dropping the tour): the settings to run, if they change.
    pub fn navigate(&mut self, request: TourRequest) -> Option<LiveSettings> {
        let last = CHAPTERS.len() - 1;
        let to = match request {
            TourRequest::Next if self.chapter < last => self.chapter + 1,
            TourRequest::Back if self.chapter > 0 => self.chapter - 1,
            TourRequest::Go(n) => n.min(last),
            TourRequest::Restart => self.chapter,
            _ => return None,
        };
        Some(self.go(to))
    }

    /// Writes where the tour stands into `status`, reusing its text (the window shows it
    /// every frame).
    pub fn status_into(&self, status: &mut TourStatus) {
        let chapter = &CHAPTERS[self.chapter];
        status.chapter = self.chapter;
        status.chapters = CHAPTERS.len();
        status.title = chapter.title;
        status.follows = chapter.follows;
        status.text = chapter.text;
        status.verdict.clone_from(&self.verdict);
        status.adapted.clone_from(&self.adapted);
    }

    /// Where the tour stands, for the panel.
    pub fn status(&self) -> TourStatus {
        let chapter = &CHAPTERS[self.chapter];
        TourStatus {
            chapter: self.chapter,
            chapters: CHAPTERS.len(),
            title: chapter.title,
            follows: chapter.follows,
            text: chapter.text,
            verdict: self.verdict.clone(),
            adapted: self.adapted.clone(),
        }
    }

    /// Watches `live` after a frame: notes the frame, judges the claim every
    /// `JUDGE_EVERY`, and returns what to do to the loop: settings to run when it must
    /// change (a slow renderer's time scale), and the chapter's kicks and key presses now
    /// due. Costs little per frame; judging reads a second of frames.
    pub fn observe<S: Stopwatch>(&mut self, live: &LiveLoop<S>) -> TourAsk {
        let settings = *live.settings();
        // A reset (the reader's R, or a chapter's) starts the evidence over, as new
        // settings do: the spring is whole again, the longest frame forgotten.
        let sim_time = live.focus().sim().engine().latest_time();
        let reset = sim_time < self.watch.sim_time;
        self.watch.sim_time = sim_time;
        // A key the tour holds is let go when its script starts over.
        let mut ask = TourAsk::default();
        if self.seen != Some(settings) || reset {
            ask.inputs.extend(self.let_go());
            self.seen = Some(settings);
            self.watch = Watch::new(sim_time);
            self.driven = 0;
            self.judged_at = None;
            self.verdict = waiting_to_settle();
        }
        let now = live.now();
        let since = *self.watch.since.get_or_insert(now);
        self.watch.note_frame(live, CHAPTERS[self.chapter].watches);
        if live.paused() {
            // Said once, not allocated again every paused frame.
            if !matches!(&self.verdict, Verdict::Waiting(text) if text == PAUSED) {
                self.verdict = Verdict::Waiting(PAUSED.into());
            }
            return ask;
        }
        let running = now.saturating_sub(since);
        // The focused pane's game clock (`T`): what the steps follow, scaled and guarded.
        let game = live
            .focus()
            .last()
            .map_or(0, |frame| frame.report.presented_time);
        self.drive(running, game, &mut ask);
        if running < SETTLE || self.judged_at.is_some_and(|at| now < at + JUDGE_EVERY) {
            return ask;
        }
        self.judged_at = Some(now);
        let evidence = self.evidence(live);
        let chapter = &CHAPTERS[self.chapter];
        let verdict = chapter.check(&evidence);
        // The chapter fits its own settings (never the reader's) to this machine: early,
        // and again whenever its claim fails on them later (the frame rate moved: another
        // program started or stopped), so a setup made for another frame rate does not
        // hide the claim.
        let early = self.adapted.is_none() && running <= ADAPT_WITHIN;
        let failing = matches!(verdict, Verdict::Fails(_));
        if self.asked == Some(settings)
            && (early || failing)
            && let Some((settings, why)) = chapter.fit(&evidence)
        {
            self.adapted = Some(why);
            self.asked = Some(settings);
            // Judged afresh on the new settings; not the old verdict meanwhile (a run
            // that ends on this frame reports it).
            self.verdict = waiting_to_settle();
            ask.settings = Some(settings);
            return ask;
        }
        self.verdict = verdict;
        ask
    }

    /// Hands out the chapter's kicks and key presses due `running` ns after its settings
    /// took effect. After a stall at most [`MOST_DRIVEN_PER_FRAME`] are handed out; the
    /// rest are skipped, and a key held is let go.
    fn drive(&mut self, running: Nanos, game: Nanos, ask: &mut TourAsk) {
        let drive = CHAPTERS[self.chapter].drive;
        if let Drive::Walk {
            key,
            turn_rad_per_s,
        } = drive
        {
            self.walk(key, turn_rad_per_s, game, ask);
            return;
        }
        let mut handed = 0;
        while handed < MOST_DRIVEN_PER_FRAME && drive.due(self.driven) <= running {
            match drive {
                Drive::Nothing | Drive::Walk { .. } => {}
                Drive::Kicks { .. } => ask.kick = true,
                Drive::Keys(script) => {
                    let kind = script.event(self.driven).kind;
                    self.held = match kind {
                        InputKind::Press(key) => Some(key),
                        _ => None,
                    };
                    ask.inputs.push(kind);
                }
            }
            self.driven += 1;
            handed += 1;
        }
        if drive.due(self.driven) <= running {
            ask.inputs.extend(self.let_go());
            self.driven = drive.first_after(running);
        }
    }

    /// Walks (pressing `key` once the settings took effect) and turns the view by
    /// `turn_rad_per_s` times the game time `game` advanced since the last turn.
    fn walk(&mut self, key: MoveKey, turn_rad_per_s: f64, game: Nanos, ask: &mut TourAsk) {
        if self.driven == 0 {
            ask.inputs.push(InputKind::Press(key));
            self.held = Some(key);
            self.driven = 1;
            self.turned_to = game;
            return;
        }
        if game > self.turned_to {
            ask.inputs.push(InputKind::Look {
                yaw_rad: turn_rad_per_s * secs_from_ns(game - self.turned_to),
                pitch_rad: 0.0,
            });
        }
        self.turned_to = game;
    }

    /// The release of the key the tour holds down, if it holds one: to hand the loop
    /// before the chapter changes or the tour ends, so no key stays down.
    pub fn let_go(&mut self) -> Option<InputKind> {
        self.held.take().map(InputKind::Release)
    }

    /// The evidence for judging.
    fn evidence<S: Stopwatch>(&self, live: &LiveLoop<S>) -> Evidence {
        let watches = CHAPTERS[self.chapter].watches;
        let panes: Vec<PaneEvidence> = live
            .panes()
            .iter()
            .zip(&self.watch.panes)
            .map(|(pane, watch)| PaneEvidence {
                strategy: pane.strategy(),
                dt: pane.sim().engine().dt(),
                stats: pane.window_stats(),
                exploded: pane.exploded(),
                watched: watch.watched(watches),
            })
            .collect();
        let focus = live.settings().focus_index();
        let slow = panes
            .get(focus)
            .and_then(|pane| SlowLoop::judge_below(&live.loop_state(), &pane.stats, STUTTER_FPS));
        let watch = &self.watch;
        Evidence {
            settings: *live.settings(),
            panes,
            focus,
            slow,
            spiral: live.spiralling(),
            tally: watch.tally,
            kick_mps: live.sim().scene().config().kick_mps,
            inputs: watch.inputs(live),
            screen: live.screen().readouts(live.now()),
        }
    }
}

/// The verdict while a chapter's settings settle.
fn waiting_to_settle() -> Verdict {
    Verdict::Waiting(format!(
        "measuring: the claim is judged after {:.1} s of the chapter's settings",
        SETTLE as f64 / 1e9
    ))
}
