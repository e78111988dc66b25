//! Ways out of an exploded spring: settings under which the integrator keeps it bounded at
//! the step in force. The explosion banner offers each as one click, as the spiral banner
//! offers its guard.

use super::LiveSettings;
use crate::scene::{Integrator, MIN_SPRING_HZ, SpringParams};
use crate::timestep::{MAX_RATE_HZ, RATE_PRESETS_HZ};

/// How far inside an integrator's stability limit a remedy stays: just inside it the
/// spring is bounded but its energy still swings by large factors.
pub const STABILITY_MARGIN: f64 = 0.8;

/// Settings that would keep the spring from exploding, each on its own; `None` where no
/// such setting exists within the allowed ranges.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Remedies {
    /// An integrator that is stable at the step in force.
    pub integrator: Option<Integrator>,
    /// A physics rate, Hz, at which the integrator in force is stable.
    pub rate_hz: Option<f64>,
    /// A spring frequency, Hz, at which the integrator in force is stable at the step in
    /// force.
    pub spring_hz: Option<f64>,
    /// The longest step the integrator in force keeps this spring bounded at, ms; `None`
    /// when no step does (explicit Euler, undamped).
    pub stable_step_ms: Option<f64>,
}

impl Remedies {
    /// The remedies for the spring, integrator and physics rate of `settings`.
    pub fn for_settings(settings: &LiveSettings) -> Self {
        let spring = SpringParams {
            natural_hz: settings.spring_hz,
            damping_ratio: settings.damping,
            ..SpringParams::default()
        };
        let dt_s = 1.0 / settings.rate_hz;
        let safe_step = |integrator: Integrator| {
            integrator
                .stable_step_limit_s(&spring)
                .map(|limit| limit * STABILITY_MARGIN)
        };
        let safe = safe_step(settings.integrator);
        if safe.is_some_and(|h| dt_s <= h) {
            // Stable at the physics step: only steps longer than it (variable's whole
            // frames) explode, and no setting here changes those.
            return Self {
                stable_step_ms: safe.map(|h| h / STABILITY_MARGIN * 1e3),
                ..Self::default()
            };
        }
        let integrator = [
            Integrator::SemiImplicitEuler,
            Integrator::Verlet,
            Integrator::Rk4,
        ]
        .into_iter()
        .find(|&candidate| {
            candidate != settings.integrator && safe_step(candidate).is_some_and(|h| dt_s <= h)
        });
        let rate_hz = safe.and_then(|h| {
            let needed = 1.0 / h;
            let rate = RATE_PRESETS_HZ
                .into_iter()
                .find(|&preset| preset >= needed)
                .unwrap_or((needed / 10.0).ceil() * 10.0);
            (rate > settings.rate_hz && rate <= MAX_RATE_HZ).then_some(rate)
        });
        // At a fixed damping ratio the limit scales as 1/frequency.
        let spring_hz = safe.and_then(|h| {
            let hz = two_significant_digits_down(settings.spring_hz * h / dt_s);
            (hz >= MIN_SPRING_HZ && hz < settings.spring_hz).then_some(hz)
        });
        Self {
            integrator,
            rate_hz,
            spring_hz,
            stable_step_ms: safe.map(|h| h / STABILITY_MARGIN * 1e3),
        }
    }
}

/// `value` rounded down to two significant digits (17.8 → 17, 0.456 → 0.45).
fn two_significant_digits_down(value: f64) -> f64 {
    if value <= 0.0 || !value.is_finite() {
        return 0.0;
    }
    let scale = libm::pow(10.0, libm::log10(value).floor() - 1.0);
    (value / scale).floor() * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stiff_spring_at_60_hz_can_be_saved_by_the_rate_or_a_softer_spring() {
        // Semi-implicit Euler needs ωh < 2: a 50 Hz spring needs steps under 6.37 ms, and
        // no integrator offered is stable at 16.7 ms (RK4 needs ωh < 2.83).
        let settings = LiveSettings {
            spring_hz: 50.0,
            rate_hz: 60.0,
            ..LiveSettings::default()
        };
        let remedies = Remedies::for_settings(&settings);
        assert_eq!(remedies.integrator, None);
        let limit_ms = remedies
            .stable_step_ms
            .expect("semi-implicit is stable when short");
        assert!((limit_ms - 2.0 / (std::f64::consts::TAU * 50.0) * 1e3).abs() < 1e-9);
        // 1 / (0.8 × 6.37 ms) = 196 Hz: the next preset up is 240 Hz.
        assert_eq!(remedies.rate_hz, Some(240.0));
        // 50 Hz × 0.8 × 6.366 / 16.667 = 15.28 Hz.
        assert_eq!(remedies.spring_hz, Some(15.0));
    }

    #[test]
    fn explicit_euler_undamped_has_only_another_integrator() {
        let settings = LiveSettings {
            integrator: Integrator::ExplicitEuler,
            ..LiveSettings::default()
        };
        let remedies = Remedies::for_settings(&settings);
        assert_eq!(remedies.integrator, Some(Integrator::SemiImplicitEuler));
        assert_eq!(remedies.rate_hz, None);
        assert_eq!(remedies.spring_hz, None);
        assert_eq!(remedies.stable_step_ms, None);
    }

    #[test]
    fn nothing_to_change_where_the_physics_step_is_stable() {
        let settings = LiveSettings {
            spring_hz: 50.0,
            rate_hz: 240.0,
            ..LiveSettings::default()
        };
        let remedies = Remedies::for_settings(&settings);
        assert_eq!(
            (remedies.integrator, remedies.rate_hz, remedies.spring_hz),
            (None, None, None)
        );
        assert!(remedies.stable_step_ms.is_some());
    }

    #[test]
    fn rounding_down_keeps_two_digits() {
        assert_eq!(two_significant_digits_down(15.28), 15.0);
        assert_eq!(two_significant_digits_down(0.456), 0.45);
        assert_eq!(two_significant_digits_down(196.0), 190.0);
        assert_eq!(two_significant_digits_down(0.0), 0.0);
    }
}
