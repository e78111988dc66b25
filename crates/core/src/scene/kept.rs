//! The states a [`super::Scene`] keeps between steps, and how they are kept cheaply: a
//! scene is stepped far more often than anything reads it (the bench, which runs millions
//! of frames, reads only the spring), so a step writes the new state into the ring, marks
//! in the one it started from what the kick and the inputs changed at its start, copies the
//! frame's start on the frame's first step, and places nothing.

use super::{SceneConfig, SceneState, SpringState};
use crate::scene::PlayerState;

/// A state the scene keeps. A step moves the sphere's and the camera's angles (and the
/// sphere's rotation) but leaves their positions, which follow from the angles, to be
/// placed when the state is read: placing costs two sines and two cosines. A change of
/// orbit or camera places the kept states on the old one first ([`KeptStates::place`]),
/// so a state read later is where it was stepped, to the bit.
#[derive(Clone, Copy, Debug)]
pub(super) struct Kept {
    /// The state; the sphere and the camera placed where `placed` says.
    pub(super) state: SceneState,
    /// Whether the sphere's position and the camera's eye are already set.
    pub(super) placed: bool,
}

impl Kept {
    /// The state with the sphere and the camera placed by `config`'s orbit and camera
    /// (unless they already are).
    pub(super) fn placed(&self, config: &SceneConfig) -> SceneState {
        if self.placed {
            self.state
        } else {
            place(self.state, config)
        }
    }
}

/// `state` with the sphere and the camera placed by `config`'s orbit and camera.
pub(super) fn place(state: SceneState, config: &SceneConfig) -> SceneState {
    SceneState {
        sphere: state.sphere.placed(&config.orbit),
        camera: state.camera.placed(&config.camera, config.orbit.pivot),
        ..state
    }
}

/// The latest state, the two before it (in a ring: a step writes one state instead of
/// moving three), and the state the frame began with (copied only once a frame steps: a
/// frame without a step began with the latest).
#[derive(Clone, Copy, Debug)]
pub(super) struct KeptStates {
    /// The three latest states; `latest` indexes the newest, the one before it precedes it.
    ring: [Kept; 3],
    /// Where the newest state is in `ring`.
    latest: usize,
    /// The latest state as the frame began, once the frame has stepped.
    frame_start: Kept,
    /// Whether the frame has taken a step (so `frame_start` holds its start).
    stepped: bool,
}

impl KeptStates {
    /// `initial` as the latest state and the two before it.
    pub(super) fn new(initial: SceneState) -> Self {
        let kept = Kept {
            state: initial,
            placed: true,
        };
        Self {
            ring: [kept; 3],
            latest: 0,
            frame_start: kept,
            stepped: false,
        }
    }

    /// The latest state.
    pub(super) fn current(&self) -> &Kept {
        &self.ring[self.latest]
    }

    /// The state one step before the latest (equal to it after a reset).
    pub(super) fn previous(&self) -> &Kept {
        &self.ring[(self.latest + 2) % 3]
    }

    /// The state two steps before the latest (equal to it after a reset).
    pub(super) fn older(&self) -> &Kept {
        &self.ring[(self.latest + 1) % 3]
    }

    /// The latest state as it was when the frame began, before its steps.
    pub(super) fn frame_start(&self) -> &Kept {
        if self.stepped {
            &self.frame_start
        } else {
            self.current()
        }
    }

    /// A frame begins.
    pub(super) fn begin_frame(&mut self) {
        self.stepped = false;
    }

    /// A step from the latest state, whose spring and player the step started from are
    /// `spring` and `player` (a kick and the inputs at the step's start are in them), to
    /// `next` (not placed).
    pub(super) fn push(&mut self, spring: SpringState, player: PlayerState, next: SceneState) {
        if !self.stepped {
            self.frame_start = *self.current();
            self.stepped = true;
        }
        let started = &mut self.ring[self.latest].state;
        started.spring = spring;
        started.player = player;
        self.latest = (self.latest + 1) % 3;
        self.ring[self.latest] = Kept {
            state: next,
            placed: false,
        };
    }

    /// Places every kept state by `config` (the orbit and camera it was stepped on).
    pub(super) fn place(&mut self, config: &SceneConfig) {
        for kept in self.ring.iter_mut().chain([&mut self.frame_start]) {
            *kept = Kept {
                state: kept.placed(config),
                placed: true,
            };
        }
    }
}
