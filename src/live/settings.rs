//! Everything a person can set in the live loop, in the units they think in.

use crate::bench::BenchSettings;
use crate::scene::{CameraDriver, Integrator, SceneConfig};
use crate::timestep::{
    DEFAULT_RATE_HZ, MAX_TIME_SCALE, MIN_TIME_SCALE, RangeError, Strategy, TimestepConfig,
    ms_from_ns,
};

/// Largest artificial per-step or per-frame cost, ms (the bench's limit too).
pub const MAX_LOAD_MS: f64 = crate::bench::MAX_COST_MS;

/// Largest standard deviation of the random frame jitter, ms.
pub const MAX_JITTER_MS: f64 = 100.0;

/// Allowed period between hitches, seconds.
pub const HITCH_PERIOD_RANGE_S: (f64, f64) = (0.1, 60.0);

/// Allowed frame cap, frames per second (0 = off).
pub const FRAME_CAP_RANGE_HZ: (f64, f64) = (5.0, 1000.0);

/// The artificial load: what makes frames long and steps expensive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadSettings {
    /// Real time each physics step costs, ms (busy-waited). Above `dt` the loop spirals.
    pub step_cost_ms: f64,
    /// Real time each render frame costs, ms.
    pub render_cost_ms: f64,
    /// Standard deviation of a random extra cost per frame, ms (half-normal).
    pub jitter_ms: f64,
    /// Length of a periodic hitch, ms; 0 = none.
    pub hitch_ms: f64,
    /// Time between hitches, seconds.
    pub hitch_every_s: f64,
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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiveSettings {
    /// The timestep strategy.
    pub strategy: Strategy,
    /// Physics rate, Hz (1 to 1000).
    pub rate_hz: f64,
    /// Frame-time clamp, ms; 0 = off.
    pub max_frame_time_ms: f64,
    /// Steps-per-frame cap; 0 = off.
    pub max_steps: u32,
    /// Spring integrator.
    pub integrator: Integrator,
    /// Spring natural frequency, Hz.
    pub spring_hz: f64,
    /// Spring damping ratio.
    pub damping: f64,
    /// What moves the camera.
    pub camera: CameraDriver,
    /// Multiplier on real time (slow motion below 1).
    pub time_scale: f64,
    /// The artificial load.
    pub load: LoadSettings,
    /// Frame cap for non-vsync present modes, fps; 0 = off.
    pub frame_cap_hz: f64,
}

impl Default for LiveSettings {
    fn default() -> Self {
        let scene = SceneConfig::new();
        let timestep = TimestepConfig::default();
        Self {
            strategy: Strategy::Interpolated,
            rate_hz: DEFAULT_RATE_HZ,
            max_frame_time_ms: timestep
                .max_frame_time
                .map_or(0.0, |ns| ms_from_ns(ns.get())),
            max_steps: 0,
            integrator: scene.integrator,
            spring_hz: scene.spring.natural_hz,
            damping: scene.spring.damping_ratio,
            camera: scene.camera.driver,
            time_scale: 1.0,
            load: LoadSettings::default(),
            frame_cap_hz: 0.0,
        }
    }
}

impl LiveSettings {
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
        let load = &self.load;
        // The same costs, and the same limits, as the bench's load model.
        BenchSettings::default().with_costs_ms(load.step_cost_ms, load.render_cost_ms)?;
        check_range("jitter", load.jitter_ms, 0.0, MAX_JITTER_MS, " ms")?;
        check_range("hitch length", load.hitch_ms, 0.0, MAX_LOAD_MS, " ms")?;
        let (low, high) = HITCH_PERIOD_RANGE_S;
        check_range("hitch period", load.hitch_every_s, low, high, " s")?;
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
            value: format!("{value}{unit}"),
            allowed: format!("{low} to {high}{unit}"),
        })
    }
}
