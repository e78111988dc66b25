//! The states a [`super::Scene`] keeps between steps, and how they are kept cheaply: a
//! scene is stepped far more often than anything reads it (the bench, which runs millions
//! of frames, reads only the spring), so a step writes the new state into the ring, marks
//! in the one it started from what the kick and the inputs changed at its start, copies the
//! frame's start only where the ring would lose it, and places nothing.

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
/// moving three), and the state the frame began with (copied out of the ring only where it
/// must be: see [`FrameStart`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct KeptStates {
    /// The three latest states; `latest` indexes the newest, the one before it precedes it.
    ring: [Kept; 3],
    /// Where the newest state is in `ring`.
    latest: usize,
    /// The latest state as the frame began, where it was copied (see `start`).
    frame_start: Kept,
    /// Where the state the frame began with is.
    start: FrameStart,
}

/// Where the state a frame began with is kept. A frame that takes no step began with the
/// latest state. One that steps began with the state its first step started from, which
/// stays in the ring for two more steps: it is copied out only when a third step would
/// overwrite it, or when its first step changes it (a kick or an input at the step's start
/// is written into the state it starts from, which the frame did not begin with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameStart {
    /// The frame has not stepped: it began with the latest state.
    Latest,
    /// In this slot of the ring.
    Ring(usize),
    /// In `frame_start`.
    Copied,
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
            start: FrameStart::Latest,
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
        match self.start {
            FrameStart::Latest => self.current(),
            FrameStart::Ring(slot) => &self.ring[slot],
            FrameStart::Copied => &self.frame_start,
        }
    }

    /// A frame begins.
    pub(super) fn begin_frame(&mut self) {
        self.start = FrameStart::Latest;
    }

    /// A step from the latest state, whose spring and player the step started from are
    /// `spring` and `player` (a kick and the inputs at the step's start are in them;
    /// `changed` says whether there were any), to `next` (not placed).
    pub(super) fn push(
        &mut self,
        spring: SpringState,
        player: PlayerState,
        changed: bool,
        next: SceneState,
    ) {
        if self.start == FrameStart::Latest {
            self.start = if changed {
                self.frame_start = *self.current();
                FrameStart::Copied
            } else {
                FrameStart::Ring(self.latest)
            };
        }
        let started = &mut self.ring[self.latest].state;
        started.spring = spring;
        started.player = player;
        self.latest = (self.latest + 1) % 3;
        if self.start == FrameStart::Ring(self.latest) {
            self.frame_start = self.ring[self.latest];
            self.start = FrameStart::Copied;
        }
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
