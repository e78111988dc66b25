//! One strategy driving one scene: the unit the window, the comparison panes and `bench`
//! all advance.

use crate::scene::{Scene, SceneConfig, ShownScene};
use crate::timestep::{Engine, FrameReport, Nanos, Strategy, TimestepConfig};

/// An engine and the scene it steps.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// Turns frame time into steps.
    engine: Engine,
    /// What the steps advance.
    scene: Scene,
}

impl Simulation {
    /// A simulation at time zero.
    pub fn new(strategy: Strategy, timestep: TimestepConfig, scene: SceneConfig) -> Self {
        Self {
            engine: Engine::new(strategy, timestep),
            scene: Scene::new(scene),
        }
    }

    /// Advances one render frame: plans the steps, takes them, and says what to draw.
    pub fn frame(&mut self, frame_time: Nanos) -> (FrameReport, ShownScene) {
        let report = self.engine.advance(frame_time);
        self.scene.begin_frame();
        for h in report.steps.iter() {
            self.scene.step(h);
        }
        let shown = self.scene.shown(&report);
        (report, shown)
    }

    /// Buffers a kick for the next step.
    pub fn kick(&mut self) {
        self.scene.kick();
    }

    /// Back to time zero, forgetting the previous state and the accumulator.
    pub fn reset(&mut self) {
        self.engine.reset();
        self.scene.reset();
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

    /// The scene, to change its parameters.
    pub fn scene_mut(&mut self) -> &mut Scene {
        &mut self.scene
    }
}
