//! Everything a person can set in the live loop, in the units they think in.
//!
//! Serde's derive gives each setting its key in a settings file or a recording (the field's
//! name unless renamed), its type and its default (`#[serde(default)]`); the readers of
//! [`crate::setting`] name a bad value in the lab's words. Reading a file setting by setting,
//! so that one bad value costs only itself, is the file layer's work (the bench crate's
//! `recording::settings`).

use serde::{Deserialize, Serialize};

use crate::display::{MAX_REFRESH_HZ, MIN_REFRESH_HZ};
use crate::input::InputPolicy;
use crate::scene::{CameraDriver, CameraView, Integrator, SceneConfig};
use crate::setting::{self, Value};
use crate::timestep::{
    DEFAULT_RATE_HZ, FilterSpec, MAX_AVERAGE_FRAMES, MAX_TIME_SCALE, MIN_TIME_SCALE, RangeError,
    Strategy, TimestepConfig, ms_from_ns,
};

/// Largest artificial per-step or per-frame cost, ms (the bench's limit too).
pub const MAX_LOAD_MS: f64 = crate::run::MAX_COST_MS;

/// Largest standard deviation of the random frame jitter, ms.
pub const MAX_JITTER_MS: f64 = 100.0;

/// Allowed period between hitches, seconds.
pub const HITCH_PERIOD_RANGE_S: (f64, f64) = (0.1, 60.0);

/// Allowed frame cap, frames per second (0 = off).
pub const FRAME_CAP_RANGE_HZ: (f64, f64) = (5.0, 1000.0);

/// Most comparison panes: every lab strategy side by side (engine presets can take any
/// of the places).
pub const MAX_PANES: usize = Strategy::ALL.len();

/// What an unused pane slot holds.
const UNUSED_PANE: Strategy = Strategy::ALL[0];

/// Fewest panes a comparison has.
pub const MIN_COMPARE_PANES: usize = 2;

/// The strategies of the comparison panes, in pane order: 1 to [`MAX_PANES`] of them,
/// stored inline so settings stay `Copy` and changing them never allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panes {
    /// The strategies; entries from `count` on are unused and kept at the default, so
    /// equality compares only the panes in use.
    strategies: [Strategy; MAX_PANES],
    /// Panes in use.
    count: usize,
}

impl Default for Panes {
    /// The six textbook strategies, in the order of [`Strategy::CLASSIC`].
    fn default() -> Self {
        Self::new(&Strategy::CLASSIC).expect("six panes are a valid comparison")
    }
}

impl Panes {
    /// Panes running `strategies`, in order; from [`MIN_COMPARE_PANES`] to [`MAX_PANES`].
    pub fn new(strategies: &[Strategy]) -> Result<Self, RangeError> {
        if !(MIN_COMPARE_PANES..=MAX_PANES).contains(&strategies.len()) {
            let ids: Vec<&str> = strategies.iter().map(|s| s.id()).collect();
            return Err(RangeError {
                name: "comparison panes",
                value: format!("{} ({})", strategies.len(), ids.join(",")),
                allowed: format!("{MIN_COMPARE_PANES} to {MAX_PANES} strategies"),
            });
        }
        let mut panes = Self {
            strategies: [UNUSED_PANE; MAX_PANES],
            count: strategies.len(),
        };
        panes.strategies[..strategies.len()].copy_from_slice(strategies);
        Ok(panes)
    }

    /// The strategies in pane order.
    pub fn as_slice(&self) -> &[Strategy] {
        &self.strategies[..self.count]
    }

    /// Number of panes.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Always false: there is at least one pane.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Sets pane `index`'s strategy; an index past the last pane changes nothing.
    pub fn set(&mut self, index: usize, strategy: Strategy) {
        if let Some(slot) = self.strategies[..self.count].get_mut(index) {
            *slot = strategy;
        }
    }

    /// Adds a pane running the first strategy no pane runs yet; false when all
    /// [`MAX_PANES`] are in use.
    pub fn add(&mut self) -> bool {
        if self.count >= MAX_PANES {
            return false;
        }
        let unused = Strategy::ALL
            .into_iter()
            .find(|s| !self.as_slice().contains(s))
            .unwrap_or(UNUSED_PANE);
        self.strategies[self.count] = unused;
        self.count += 1;
        true
    }

    /// Removes the last pane; false when only [`MIN_COMPARE_PANES`] are left.
    pub fn remove_last(&mut self) -> bool {
        if self.count <= MIN_COMPARE_PANES {
            return false;
        }
        self.count -= 1;
        self.strategies[self.count] = UNUSED_PANE;
        true
    }
}

/// Written as the list of the panes' strategy ids.
impl Serialize for Panes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.as_slice())
    }
}

/// Read from a list of strategy ids, [`MIN_COMPARE_PANES`] to [`MAX_PANES`] of them.
impl<'de> Deserialize<'de> for Panes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        setting::read(deserializer, |value| {
            let Value::List(items) = value else {
                return Err("not a list of strategies".into());
            };
            let strategies = items
                .iter()
                .map(Value::id::<Strategy>)
                .collect::<Result<Vec<_>, _>>()?;
            Panes::new(&strategies).map_err(|error| error.to_string())
        })
    }
}

/// Settings that together stage one well-known effect, with what to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenePreset {
    /// Camera and sphere both in the fixed step, both drawn through the strategy's
    /// interpolation or extrapolation: the view moves as one.
    Together,
    /// The Unity stutter: the camera moves every render frame (like `Update`) while the
    /// sphere moves in fixed steps (like `FixedUpdate`), compared without and with
    /// interpolation.
    CameraVsSphere,
}

impl ScenePreset {
    /// Every preset, in the order the panel lists them.
    pub const ALL: [ScenePreset; 2] = [ScenePreset::Together, ScenePreset::CameraVsSphere];

    /// Stable id, as on the command line.
    pub fn id(self) -> &'static str {
        match self {
            ScenePreset::Together => "together",
            ScenePreset::CameraVsSphere => "camera-vs-sphere",
        }
    }

    /// Name, as the panel shows it.
    pub fn name(self) -> &'static str {
        match self {
            ScenePreset::Together => "camera and sphere together",
            ScenePreset::CameraVsSphere => "camera vs sphere",
        }
    }

    /// Sets what the preset stages; everything else stays.
    pub fn apply(self, settings: &mut LiveSettings) {
        match self {
            ScenePreset::Together => settings.camera = CameraDriver::Smoothed,
            ScenePreset::CameraVsSphere => {
                settings.camera = CameraDriver::PerFrame;
                settings.compare = true;
                settings.panes = Panes::new(&[Strategy::Accumulator, Strategy::Interpolated])
                    .expect("two panes are a valid comparison");
                settings.focus = 0;
            }
        }
    }

    /// Whether `settings` stage this preset's effect.
    pub fn matches(self, settings: &LiveSettings) -> bool {
        match self {
            ScenePreset::Together => settings.camera == CameraDriver::Smoothed,
            // The advice compares the accumulator with interpolation: both must be there.
            ScenePreset::CameraVsSphere => {
                settings.camera == CameraDriver::PerFrame
                    && settings.compare
                    && [Strategy::Accumulator, Strategy::Interpolated]
                        .iter()
                        .all(|s| settings.panes.as_slice().contains(s))
            }
        }
    }

    /// What to look for, in a few sentences.
    pub fn advice(self) -> &'static str {
        match self {
            ScenePreset::Together => {
                "The camera is part of the simulated state and is drawn through the same \
                 interpolation or extrapolation as the sphere, so the two never move \
                 against each other. Under accumulator both jump together and the whole \
                 view judders; under interpolated the whole view is smooth."
            }
            ScenePreset::CameraVsSphere => {
                "The camera moves every render frame (Unity's Update); the sphere moves in \
                 fixed steps (FixedUpdate). Under accumulator the sphere shows its latest \
                 step, so against the smoothly turning camera it jumps back and forth every \
                 few frames while the grid glides: the classic stutter. Under interpolated \
                 the sphere is drawn between its last two steps and moves as smoothly as \
                 the camera. With 50 Hz physics on a 60 Hz display the pattern repeats \
                 every 6 frames; a 60 Hz rate hides it."
            }
        }
    }
}

crate::id::stable_ids!(ScenePreset, UnknownScenePreset, "scene preset");

/// The artificial load: what makes frames long and steps expensive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LoadSettings {
    /// Real time each physics step costs, ms (busy-waited). Above `dt` the loop spirals.
    #[serde(deserialize_with = "setting::number")]
    pub step_cost_ms: f64,
    /// Real time each render frame costs, ms.
    #[serde(deserialize_with = "setting::number")]
    pub render_cost_ms: f64,
    /// Standard deviation of a random extra cost per frame, ms (half-normal).
    #[serde(deserialize_with = "setting::number")]
    pub jitter_ms: f64,
    /// Length of a periodic hitch, ms; 0 = none.
    #[serde(deserialize_with = "setting::number")]
    pub hitch_ms: f64,
    /// Time between hitches, seconds.
    #[serde(deserialize_with = "setting::number")]
    pub hitch_every_s: f64,
}

impl LoadSettings {
    /// Checks every cost against its allowed range; the first bad one is named. The bench's
    /// load model and the live loop's take the same costs with the same limits.
    pub fn validate(&self) -> Result<(), RangeError> {
        crate::run::costs_ns(self.step_cost_ms, self.render_cost_ms)?;
        check_range("jitter", self.jitter_ms, 0.0, MAX_JITTER_MS, " ms")?;
        check_range("hitch length", self.hitch_ms, 0.0, MAX_LOAD_MS, " ms")?;
        let (low, high) = HITCH_PERIOD_RANGE_S;
        check_range("hitch period", self.hitch_every_s, low, high, " s")
    }
}

impl Default for LoadSettings {
    fn default() -> Self {
        Self {
            step_cost_ms: 0.0,
            render_cost_ms: 0.0,
            jitter_ms: 0.0,
            hitch_ms: 0.0,
            hitch_every_s: 2.0,
        }
    }
}

/// The live loop's settings. Every value is checked by [`LiveSettings::validate`] before
/// the loop takes it, so a bad value from the command line is named, never used.
///
/// In a settings file or a recording, one key per field, the load's among them (flattened),
/// `focus` as `focus_pane` (from 1) and `refresh_override_hz` as `refresh_hz`; a file is
/// read in the fields' order.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LiveSettings {
    /// The timestep strategy of the single pane.
    pub strategy: Strategy,
    /// Whether the window shows comparison panes instead of the single one.
    #[serde(deserialize_with = "setting::boolean")]
    pub compare: bool,
    /// The comparison panes' strategies.
    pub panes: Panes,
    /// The pane whose steps the per-step load costs, whose numbers the readouts and plots
    /// show and which the timeline details (comparison only; clamped to the panes).
    #[serde(rename = "focus_pane", with = "pane_number")]
    pub focus: usize,
    /// Physics rate, Hz (1 to 1000).
    #[serde(deserialize_with = "setting::number")]
    pub rate_hz: f64,
    /// Frame-time clamp, ms; 0 = off.
    #[serde(deserialize_with = "setting::number")]
    pub max_frame_time_ms: f64,
    /// Steps-per-frame cap; 0 = off.
    #[serde(deserialize_with = "max_steps")]
    pub max_steps: u32,
    /// Spring integrator.
    pub integrator: Integrator,
    /// Spring natural frequency, Hz.
    #[serde(deserialize_with = "setting::number")]
    pub spring_hz: f64,
    /// Spring damping ratio.
    #[serde(deserialize_with = "setting::number")]
    pub damping: f64,
    /// What moves the camera.
    pub camera: CameraDriver,
    /// Where the camera is: orbiting, or the player's eyes.
    pub view: CameraView,
    /// How the person's inputs reach the steps that move the player.
    pub input_policy: InputPolicy,
    /// Multiplier on real time (slow motion below 1).
    #[serde(deserialize_with = "setting::number")]
    pub time_scale: f64,
    /// The artificial load.
    #[serde(flatten)]
    pub load: LoadSettings,
    /// Frame cap for non-vsync present modes, fps; 0 = off.
    #[serde(deserialize_with = "setting::number")]
    pub frame_cap_hz: f64,
    /// Frame-time filter between the clock and the strategies.
    #[serde(serialize_with = "setting::display", deserialize_with = "filter_spec")]
    pub filter: FilterSpec,
    /// Refresh rate the screen model and the snap filter use, Hz; 0 = the monitor's.
    #[serde(rename = "refresh_hz", deserialize_with = "setting::number")]
    pub refresh_override_hz: f64,
}

impl Default for LiveSettings {
    fn default() -> Self {
        let scene = SceneConfig::new();
        let timestep = TimestepConfig::default();
        Self {
            strategy: Strategy::Interpolated,
            compare: false,
            panes: Panes::default(),
            focus: 0,
            rate_hz: DEFAULT_RATE_HZ,
            max_frame_time_ms: timestep
                .max_frame_time
                .map_or(0.0, |ns| ms_from_ns(ns.get())),
            max_steps: 0,
            integrator: scene.integrator,
            spring_hz: scene.spring.natural_hz,
            damping: scene.spring.damping_ratio,
            camera: scene.camera.driver,
            view: scene.camera.view,
            input_policy: scene.player.policy,
            time_scale: 1.0,
            load: LoadSettings::default(),
            frame_cap_hz: 0.0,
            filter: FilterSpec::None,
            refresh_override_hz: 0.0,
        }
    }
}

impl LiveSettings {
    /// The strategy of each pane the loop runs: the comparison panes, or the single one.
    pub fn pane_strategies(&self) -> &[Strategy] {
        if self.compare {
            self.panes.as_slice()
        } else {
            std::slice::from_ref(&self.strategy)
        }
    }

    /// Turns the comparison on or off as a person expects: turning it on focuses the
    /// accumulator's pane (its timeline shows the stutter; `fixed`'s drifting lag would
    /// fill it with a fan of lines), or the first pane without one; turning it off keeps
    /// the focused pane's strategy as the single one.
    pub fn set_compare(&mut self, compare: bool) {
        if compare == self.compare {
            return;
        }
        if compare {
            self.focus = self
                .panes
                .as_slice()
                .iter()
                .position(|&s| s == Strategy::Accumulator)
                .unwrap_or(0);
        } else {
            self.strategy = self.panes.as_slice()[self.focus_index()];
        }
        self.compare = compare;
    }

    /// The focused pane, within the panes that exist.
    pub fn focus_index(&self) -> usize {
        self.focus.min(self.pane_strategies().len() - 1)
    }

    /// The engine configuration these settings describe.
    pub fn timestep(&self) -> Result<TimestepConfig, RangeError> {
        TimestepConfig::default()
            .with_rate_hz(self.rate_hz)?
            .with_max_frame_time_ms(self.max_frame_time_ms)?
            .with_max_steps(self.max_steps)
    }

    /// The scene configuration these settings describe, on top of `base` (whose orbit and
    /// kick are kept).
    pub fn scene(&self, base: &SceneConfig) -> Result<SceneConfig, RangeError> {
        let mut scene = *base;
        scene.integrator = self.integrator;
        scene.spring.natural_hz = self.spring_hz;
        scene.spring.damping_ratio = self.damping;
        scene.camera.driver = self.camera;
        scene.camera.view = self.view;
        scene.player.policy = self.input_policy;
        scene.validate()?;
        Ok(scene)
    }

    /// Checks every value against its allowed range; the first bad one is named.
    pub fn validate(&self) -> Result<(), RangeError> {
        self.timestep()?;
        self.scene(&SceneConfig::new())?;
        check_range(
            "time scale",
            self.time_scale,
            MIN_TIME_SCALE,
            MAX_TIME_SCALE,
            "",
        )?;
        self.load.validate()?;
        if self.refresh_override_hz != 0.0 {
            check_range(
                "refresh rate",
                self.refresh_override_hz,
                MIN_REFRESH_HZ,
                MAX_REFRESH_HZ,
                " Hz",
            )
            .map_err(|error| RangeError {
                allowed: format!("0 (the monitor's) or {}", error.allowed),
                ..error
            })?;
        }
        if let FilterSpec::Average(frames) = self.filter
            && !(2..=MAX_AVERAGE_FRAMES).contains(&frames)
        {
            return Err(RangeError {
                name: "averaged frames",
                value: frames.to_string(),
                allowed: format!("2 to {MAX_AVERAGE_FRAMES}"),
            });
        }
        let (low, high) = FRAME_CAP_RANGE_HZ;
        if self.frame_cap_hz != 0.0 {
            check_range("frame cap", self.frame_cap_hz, low, high, " fps").map_err(|error| {
                RangeError {
                    allowed: format!("0 (off) or {}", error.allowed),
                    ..error
                }
            })?;
        }
        Ok(())
    }
}

/// Reads a [`FilterSpec`] from its text.
fn filter_spec<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<FilterSpec, D::Error> {
    setting::read(deserializer, |value| FilterSpec::parse(value.text()?))
}

/// [`LiveSettings::focus`] as a file holds it: the pane's number, from 1.
mod pane_number {
    use crate::setting;

    /// Writes the pane's number.
    pub fn serialize<S: serde::Serializer>(
        focus: &usize,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(*focus as i64 + 1)
    }

    /// Reads any whole number as a pane's; one below 1 reads as `usize::MAX`, no pane. The
    /// file layer checks the number against the panes read (the core clamps the focus to
    /// the panes there are), so its message can say how many there are.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<usize, D::Error> {
        setting::read(deserializer, |value| {
            let number = value.whole(i64::MIN, i64::MAX)?;
            Ok(number
                .checked_sub(1)
                .and_then(|index| usize::try_from(index).ok())
                .unwrap_or(usize::MAX))
        })
    }
}

/// `Ok` when `value` lies in `low..=high` (NaN never does).
fn check_range(
    name: &'static str,
    value: f64,
    low: f64,
    high: f64,
    unit: &str,
) -> Result<(), RangeError> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(RangeError {
            name,
            value: format!("{}{unit}", crate::text::number(value)),
            allowed: format!("{low} to {high}{unit}"),
        })
    }
}

/// Reads `max_steps` in its range ([`crate::timestep::MAX_STEPS`]).
fn max_steps<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    setting::read(deserializer, |value| crate::timestep::MAX_STEPS.read(value))
}
