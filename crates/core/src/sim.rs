//! One strategy driving one scene: the unit the window, the comparison panes and `bench`
//! all advance.

use crate::input::{FrameClockFacts, InputDesk, InputEvent, InputStats};
use crate::scene::{Scene, SceneConfig, ShownScene};
use crate::timestep::{Engine, FrameReport, Nanos, Strategy, TimestepConfig};

/// Where a frame sits on the stopwatch, to place the inputs it reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameWall {
    /// Stopwatch time the frame started.
    pub now: Nanos,
    /// Real time since the previous frame started.
    pub real_frame: Nanos,
}

/// An engine, the scene it steps and the inputs routed to the steps.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// Turns frame time into steps.
    engine: Engine,
    /// What the steps advance.
    scene: Scene,
    /// The person's inputs, routed to the steps.
    input: InputDesk,
}

impl Simulation {
    /// A simulation at time zero.
    pub fn new(strategy: Strategy, timestep: TimestepConfig, scene: SceneConfig) -> Self {
        Self {
            engine: Engine::new(strategy, timestep),
            input: InputDesk::new(scene.player.policy, scene.player.start_look),
            scene: Scene::new(scene),
        }
    }

    /// Advances one render frame with no input: plans the steps, takes them, and says
    /// what to draw.
    pub fn frame(&mut self, frame_time: Nanos) -> (FrameReport, ShownScene) {
        self.frame_with_input(frame_time, &[], FrameWall::default(), None)
    }

    /// Advances one render frame that read `events` (received up to `wall.now`) and is
    /// predicted to reach the screen `display_delay` after its start (what `display-time`
    /// draws to; `None` when nothing predicts it): plans the steps, routes the inputs to
    /// them under every policy, takes them with the chosen policy's inputs, and says what
    /// to draw.
    pub fn frame_with_input(
        &mut self,
        frame_time: Nanos,
        events: &[InputEvent],
        wall: FrameWall,
        display_delay: Option<Nanos>,
    ) -> (FrameReport, ShownScene) {
        let report = self.advance(frame_time, events, wall, display_delay);
        let shown = self.scene.shown(&report);
        (report, shown)
    }

    /// [`Self::frame_with_input`] without saying what to draw, which
    /// [`Scene::shown`] gives from the report when it is wanted (a loop that only measures
    /// never builds it).
    pub fn advance(
        &mut self,
        frame_time: Nanos,
        events: &[InputEvent],
        wall: FrameWall,
        display_delay: Option<Nanos>,
    ) -> FrameReport {
        let report = self.engine.advance_to_display(frame_time, display_delay);
        if !events.is_empty() {
            self.input.read(
                events,
                &FrameClockFacts {
                    now: wall.now,
                    real_frame: wall.real_frame,
                    frame_time,
                    presented_time: report.presented_time,
                    lead: self.engine.lead(),
                },
            );
        }
        self.scene.begin_frame();
        let routing = self.input.waiting();
        for (i, h) in report.steps.iter().enumerate() {
            if routing {
                let start = self.scene.time();
                let inputs = self.input.step(i == 0, start, h);
                self.scene.step_with(h, inputs);
            } else {
                self.scene.step(h);
            }
        }
        if routing {
            // A desk with nothing queued has nothing to end.
            self.input.end_frame(report.steps.len());
        }
        self.scene.set_look_input(self.input.look());
        report
    }

    /// A frame showing simulated time `shown` reached the screen at `display` (on the
    /// strategy's clock): the inputs it shows in full are measured.
    pub fn input_shown(&mut self, display: Nanos, shown: Nanos) {
        self.input.shown(display, shown);
    }

    /// The strategy's clock moved by `shift` (a resync): pending inputs move with it.
    pub fn input_rebase(&mut self, shift: i64) {
        self.input.rebase(shift);
    }

    /// Every input policy's measurements.
    pub fn input_stats(&self) -> InputStats {
        self.input.stats()
    }

    /// The inputs.
    pub fn input(&self) -> &InputDesk {
        &self.input
    }

    /// Buffers a kick for the next step.
    pub fn kick(&mut self) {
        self.scene.kick();
    }

    /// Back to time zero, forgetting the previous state and the accumulator.
    pub fn reset(&mut self) {
        self.engine.reset();
        self.scene.reset();
        self.input.reset();
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to switch strategy or change step and guards.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The scene.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// Takes new scene parameters (the input policy among them) from the next frame on.
    pub fn set_scene_config(&mut self, config: SceneConfig) {
        self.input.set_policy(config.player.policy);
        self.scene.set_config(config);
    }
}
