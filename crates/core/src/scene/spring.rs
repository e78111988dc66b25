//! A damped spring with a closed-form truth, and the integrators the lab compares.

use crate::timestep::RangeError;

/// Lowest natural frequency accepted.
pub const MIN_SPRING_HZ: f64 = 0.01;
/// Highest natural frequency accepted: stiff enough to explode every explicit integrator.
pub const MAX_SPRING_HZ: f64 = 200.0;
/// Highest damping ratio accepted (heavily over-damped).
pub const MAX_DAMPING_RATIO: f64 = 10.0;
/// The spring counts as exploded when its energy exceeds the reference energy this many times.
pub const EXPLOSION_ENERGY_RATIO: f64 = 1000.0;

/// Parameters of the mass on its spring, `x'' = -(k/m) x - (c/m) x'`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringParams {
    /// Natural frequency, Hz (default 1).
    pub natural_hz: f64,
    /// Damping ratio ζ (default 0: undamped, so energy drift is plain to see).
    pub damping_ratio: f64,
    /// Starting displacement, metres (default 1).
    pub amplitude_m: f64,
    /// Mass, kilograms (default 1).
    pub mass_kg: f64,
}

impl Default for SpringParams {
    fn default() -> Self {
        Self {
            natural_hz: 1.0,
            damping_ratio: 0.0,
            amplitude_m: 1.0,
            mass_kg: 1.0,
        }
    }
}

impl SpringParams {
    /// Checks every parameter against its allowed range.
    pub fn validate(&self) -> Result<(), RangeError> {
        check(
            "spring frequency",
            self.natural_hz,
            MIN_SPRING_HZ,
            MAX_SPRING_HZ,
            "Hz",
        )?;
        check(
            "damping ratio",
            self.damping_ratio,
            0.0,
            MAX_DAMPING_RATIO,
            "",
        )?;
        check("spring amplitude", self.amplitude_m, -100.0, 100.0, "m")?;
        check("spring mass", self.mass_kg, 1e-3, 1e3, "kg")
    }

    /// Angular natural frequency ω, rad/s.
    pub fn omega(&self) -> f64 {
        std::f64::consts::TAU * self.natural_hz
    }

    /// Stiffness k, N/m.
    pub fn stiffness(&self) -> f64 {
        self.mass_kg * self.omega() * self.omega()
    }

    /// Acceleration at position `x` with velocity `v`.
    pub fn acceleration(&self, x: f64, v: f64) -> f64 {
        let omega = self.omega();
        -omega * omega * x - 2.0 * self.damping_ratio * omega * v
    }

    /// Kinetic plus potential energy of a state, joules.
    pub fn energy(&self, state: SpringState) -> f64 {
        0.5 * self.mass_kg * state.v * state.v + 0.5 * self.stiffness() * state.x * state.x
    }

    /// The state at the start.
    pub fn initial(&self) -> SpringState {
        SpringState {
            x: self.amplitude_m,
            v: 0.0,
        }
    }
}

fn check(name: &'static str, value: f64, min: f64, max: f64, unit: &str) -> Result<(), RangeError> {
    if (min..=max).contains(&value) {
        return Ok(());
    }
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    Err(RangeError {
        name,
        value: format!("{}{unit}", crate::text::number(value)),
        allowed: format!("{min} to {max}{unit}"),
    })
}

/// Position and velocity of the mass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpringState {
    /// Displacement from rest, metres.
    pub x: f64,
    /// Velocity, m/s.
    pub v: f64,
}

impl SpringState {
    /// Linear blend towards `other`.
    pub fn lerp(self, other: Self, t: f64) -> Self {
        Self {
            x: self.x + (other.x - self.x) * t,
            v: self.v + (other.v - self.v) * t,
        }
    }

    /// Moved along its velocity for `tau` seconds, the velocity unchanged: `x + v·τ`.
    pub fn extrapolate(self, tau: f64) -> Self {
        Self {
            x: self.x + self.v * tau,
            v: self.v,
        }
    }

    /// The cubic Hermite curve towards `other`, `h` seconds later, at `t`: the position
    /// from both positions and velocities, the velocity its derivative.
    pub fn hermite(self, other: Self, h: f64, t: f64) -> Self {
        let [b0, b1, b2, b3] = super::hermite_basis(t);
        let x = b0 * self.x + b1 * other.x + b2 * h * self.v + b3 * h * other.v;
        // d/dt of the basis, over h for d/dtime.
        let (t2, d0) = (t * t, 6.0 * t * t - 6.0 * t);
        let (d2, d3) = (3.0 * t2 - 4.0 * t + 1.0, 3.0 * t2 - 2.0 * t);
        let v = if h > 0.0 {
            (d0 * self.x - d0 * other.x) / h + d2 * self.v + d3 * other.v
        } else {
            other.v
        };
        Self { x, v }
    }

    /// Whether both values are finite.
    pub fn is_finite(&self) -> bool {
        self.x.is_finite() && self.v.is_finite()
    }
}

/// How a step advances the spring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Integrator {
    /// Position then velocity from the old state: gains energy every step, explodes.
    ExplicitEuler,
    /// Velocity first, then position from the new velocity: symplectic, energy stays bounded.
    #[default]
    SemiImplicitEuler,
    /// Velocity Verlet: second order and symplectic when undamped.
    Verlet,
    /// Classic fourth-order Runge–Kutta: very accurate, slowly loses energy.
    Rk4,
}

impl Integrator {
    /// Every integrator.
    pub const ALL: [Integrator; 4] = [
        Integrator::ExplicitEuler,
        Integrator::SemiImplicitEuler,
        Integrator::Verlet,
        Integrator::Rk4,
    ];

    /// The stable id used on the command line and in reports.
    pub fn id(self) -> &'static str {
        match self {
            Integrator::ExplicitEuler => "explicit-euler",
            Integrator::SemiImplicitEuler => "semi-implicit-euler",
            Integrator::Verlet => "verlet",
            Integrator::Rk4 => "rk4",
        }
    }

    /// Advances `state` by `h` seconds.
    pub fn step(self, params: &SpringParams, state: SpringState, h: f64) -> SpringState {
        let SpringState { x, v } = state;
        let a = |x, v| params.acceleration(x, v);
        match self {
            Integrator::ExplicitEuler => SpringState {
                x: x + v * h,
                v: v + a(x, v) * h,
            },
            Integrator::SemiImplicitEuler => {
                let v = v + a(x, v) * h;
                SpringState { x: x + v * h, v }
            }
            Integrator::Verlet => {
                let half_v = v + 0.5 * a(x, v) * h;
                let x = x + half_v * h;
                // The damping force depends on the new velocity; it is linear in it, so
                // solve for it exactly instead of lagging it (which would cost an order).
                let omega = params.omega();
                let v = (half_v - 0.5 * h * omega * omega * x)
                    / (1.0 + params.damping_ratio * omega * h);
                SpringState { x, v }
            }
            Integrator::Rk4 => {
                let (k1x, k1v) = (v, a(x, v));
                let (k2x, k2v) = (v + 0.5 * h * k1v, a(x + 0.5 * h * k1x, v + 0.5 * h * k1v));
                let (k3x, k3v) = (v + 0.5 * h * k2v, a(x + 0.5 * h * k2x, v + 0.5 * h * k2v));
                let (k4x, k4v) = (v + h * k3v, a(x + h * k3x, v + h * k3v));
                SpringState {
                    x: x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x),
                    v: v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v),
                }
            }
        }
    }
}

impl Integrator {
    /// How much one step of `h` seconds multiplies the spring's state in the long run: the
    /// spectral radius of the step's matrix (the spring is linear, so a step is a 2×2
    /// matrix). Above 1 the motion grows without bound; at or below 1 it stays bounded.
    pub fn growth_per_step(self, params: &SpringParams, h: f64) -> f64 {
        let column = |x, v| self.step(params, SpringState { x, v }, h);
        let (first, second) = (column(1.0, 0.0), column(0.0, 1.0));
        let (trace, det) = (first.x + second.v, first.x * second.v - second.x * first.v);
        let discriminant = trace * trace - 4.0 * det;
        if discriminant < 0.0 {
            // Complex pair: both have modulus sqrt(det).
            det.abs().sqrt()
        } else {
            let root = discriminant.sqrt();
            ((trace + root) / 2.0)
                .abs()
                .max(((trace - root) / 2.0).abs())
        }
    }

    /// The largest step, seconds, at which this integrator keeps `params`' spring bounded
    /// (every shorter step does too); `None` when no step does: explicit Euler gains energy
    /// at every step size on an undamped spring.
    pub fn stable_step_limit_s(self, params: &SpringParams) -> Option<f64> {
        let stable = |h: f64| self.growth_per_step(params, h) <= 1.0 + STABILITY_TOLERANCE;
        // Every integrator here is stable below about 2/ω, or never: start well inside.
        let mut low = 1e-3 / params.omega();
        if !stable(low) {
            return None;
        }
        let mut high = low;
        while stable(high) {
            low = high;
            high *= 2.0;
            if high > 1e6 {
                return Some(low);
            }
        }
        for _ in 0..64 {
            let middle = 0.5 * (low + high);
            if stable(middle) {
                low = middle;
            } else {
                high = middle;
            }
        }
        Some(low)
    }
}

/// Growth per step counted as none: rounding in the step's matrix, not instability.
const STABILITY_TOLERANCE: f64 = 1e-12;

crate::id::stable_ids!(Integrator, UnknownIntegrator, "integrator");

/// The exact solution from a starting state at a starting time. A kick starts a new one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringTruth {
    /// Time the solution starts, seconds.
    pub start_s: f64,
    /// State at `start_s`.
    pub start: SpringState,
}

impl SpringTruth {
    /// The exact state at `time_s`.
    pub fn state_at(&self, params: &SpringParams, time_s: f64) -> SpringState {
        self.curve(params).state_at(time_s)
    }

    /// The solution under `params`, its constants worked out once.
    pub fn curve(&self, params: &SpringParams) -> TruthCurve {
        let SpringState { x: x0, v: v0 } = self.start;
        let omega = params.omega();
        let zeta = params.damping_ratio;
        let shape = if zeta < 1.0 {
            let omega_d = omega * (1.0 - zeta * zeta).sqrt();
            let b = (v0 + zeta * omega * x0) / omega_d;
            Shape::Under {
                omega_d,
                rate: -zeta * omega,
                b,
                v_cos: b * omega_d - zeta * omega * x0,
                v_sin: x0 * omega_d + zeta * omega * b,
            }
        } else if zeta == 1.0 {
            Shape::Critical {
                omega,
                b: v0 + omega * x0,
            }
        } else {
            let root = (zeta * zeta - 1.0).sqrt();
            let (r1, r2) = (-omega * (zeta - root), -omega * (zeta + root));
            let c1 = (v0 - r2 * x0) / (r1 - r2);
            Shape::Over {
                r1,
                r2,
                c1,
                c2: x0 - c1,
            }
        };
        TruthCurve {
            start_s: self.start_s,
            x0,
            shape,
        }
    }
}

/// A [`SpringTruth`] under one set of parameters, with what does not change along it
/// worked out once: the metrics ask it every frame. Its values are the ones
/// [`SpringTruth::state_at`] gives, to the bit (it is how that answers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TruthCurve {
    /// Time the solution starts, seconds.
    start_s: f64,
    /// Displacement at `start_s`, m.
    x0: f64,
    /// The solution's form and constants.
    shape: Shape,
}

/// The three forms of the damped spring's solution, with their constants.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// Underdamped: `e^(rate t) (x0 cos ω_d t + b sin ω_d t)`.
    Under {
        /// ω_d, rad/s.
        omega_d: f64,
        /// `-ζω`, 1/s.
        rate: f64,
        /// The sine's coefficient, m.
        b: f64,
        /// The velocity's cosine coefficient (over the decay), m/s.
        v_cos: f64,
        /// The velocity's sine coefficient (negated, over the decay), m/s.
        v_sin: f64,
    },
    /// Critically damped: `(x0 + b t) e^(-ωt)`.
    Critical {
        /// ω, rad/s.
        omega: f64,
        /// `v0 + ω x0`, m/s.
        b: f64,
    },
    /// Overdamped: `c1 e^(r1 t) + c2 e^(r2 t)`.
    Over {
        /// The slower root, 1/s.
        r1: f64,
        /// The faster root, 1/s.
        r2: f64,
        /// `r1`'s coefficient, m.
        c1: f64,
        /// `r2`'s coefficient, m.
        c2: f64,
    },
}

impl TruthCurve {
    /// The exact state at `time_s`.
    pub fn state_at(&self, time_s: f64) -> SpringState {
        let t = time_s - self.start_s;
        let x0 = self.x0;
        match self.shape {
            Shape::Under {
                omega_d,
                rate,
                b,
                v_cos,
                v_sin,
            } => {
                let decay = exp(rate * t);
                let (sin, cos) = libm::sincos(omega_d * t);
                SpringState {
                    x: decay * (x0 * cos + b * sin),
                    v: decay * (v_cos * cos - v_sin * sin),
                }
            }
            Shape::Critical { omega, b } => {
                let decay = exp(-omega * t);
                SpringState {
                    x: (x0 + b * t) * decay,
                    v: (b - omega * (x0 + b * t)) * decay,
                }
            }
            Shape::Over { r1, r2, c1, c2 } => {
                let (e1, e2) = (exp(r1 * t), exp(r2 * t));
                SpringState {
                    x: c1 * e1 + c2 * e2,
                    v: c1 * r1 * e1 + c2 * r2 * e2,
                }
            }
        }
    }
}

/// `e^x`; 1 where `x` is zero (the undamped spring's decay), as the exponential gives it,
/// without the call.
fn exp(x: f64) -> f64 {
    if x == 0.0 { 1.0 } else { libm::exp(x) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(zeta: f64) -> SpringParams {
        SpringParams {
            damping_ratio: zeta,
            ..SpringParams::default()
        }
    }

    #[test]
    fn stability_limits_match_the_textbook_ones() {
        let undamped = params(0.0);
        let omega = undamped.omega();
        // Explicit Euler: |1 + iωh| > 1 for every h on an undamped spring.
        assert_eq!(
            Integrator::ExplicitEuler.stable_step_limit_s(&undamped),
            None
        );
        // Damped, it is stable up to h = 2ζ/ω.
        let damped = params(0.3);
        let limit = Integrator::ExplicitEuler
            .stable_step_limit_s(&damped)
            .expect("stable at short steps");
        assert!((limit * omega - 0.6).abs() < 1e-9, "{}", limit * omega);
        // Semi-implicit Euler and velocity Verlet: ωh < 2.
        for integrator in [Integrator::SemiImplicitEuler, Integrator::Verlet] {
            let limit = integrator.stable_step_limit_s(&undamped).expect("stable");
            assert!(
                (limit * omega - 2.0).abs() < 1e-9,
                "{integrator}: {}",
                limit * omega
            );
        }
        // RK4: ωh < 2√2 on the imaginary axis.
        let limit = Integrator::Rk4
            .stable_step_limit_s(&undamped)
            .expect("stable");
        assert!(
            (limit * omega - 8f64.sqrt()).abs() < 1e-6,
            "{}",
            limit * omega
        );
    }

    #[test]
    fn growth_per_step_is_what_the_energy_does() {
        // Explicit Euler on an undamped spring multiplies the amplitude by √(1 + ω²h²).
        let p = params(0.0);
        let h = 0.01;
        let growth = Integrator::ExplicitEuler.growth_per_step(&p, h);
        let omega_h = p.omega() * h;
        assert!((growth - (1.0 + omega_h * omega_h).sqrt()).abs() < 1e-12);
        assert!((Integrator::SemiImplicitEuler.growth_per_step(&p, h) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn truth_starts_at_its_state_and_obeys_the_equation() {
        for zeta in [0.0, 0.3, 1.0, 2.5] {
            let p = params(zeta);
            let truth = SpringTruth {
                start_s: 0.5,
                start: SpringState { x: 0.7, v: -1.3 },
            };
            let s = truth.state_at(&p, 0.5);
            assert!(
                (s.x - 0.7).abs() < 1e-12 && (s.v + 1.3).abs() < 1e-12,
                "ζ={zeta}: {s:?}"
            );
            // Central differences of the closed form satisfy x'' = a(x, x').
            for t in [0.6, 1.1, 2.9] {
                let h = 1e-4;
                let (before, at, after) = (
                    truth.state_at(&p, t - h),
                    truth.state_at(&p, t),
                    truth.state_at(&p, t + h),
                );
                let dx = (after.x - before.x) / (2.0 * h);
                let ddx = (after.x - 2.0 * at.x + before.x) / (h * h);
                assert!(
                    (dx - at.v).abs() < 1e-5,
                    "ζ={zeta} t={t}: v {dx} vs {}",
                    at.v
                );
                assert!(
                    (ddx - p.acceleration(at.x, at.v)).abs() < 1e-3,
                    "ζ={zeta} t={t}"
                );
            }
        }
    }

    #[test]
    fn undamped_truth_has_period_one_second_and_constant_energy() {
        let p = params(0.0);
        let truth = SpringTruth {
            start_s: 0.0,
            start: p.initial(),
        };
        let e0 = p.energy(p.initial());
        for t in [0.25, 1.0, 7.3] {
            assert!((p.energy(truth.state_at(&p, t)) - e0).abs() < 1e-9 * e0);
        }
        assert!((truth.state_at(&p, 1.0).x - 1.0).abs() < 1e-12);
        assert!(truth.state_at(&p, 0.25).x.abs() < 1e-12);
    }

    #[test]
    fn integrators_converge_to_the_truth_at_their_order() {
        let p = params(0.1);
        let truth = SpringTruth {
            start_s: 0.0,
            start: p.initial(),
        };
        // Largest position error over 1.3 s (a full-period endpoint would hide phase error).
        let error_at = |integrator: Integrator, steps_per_second: u32| {
            let h = 1.0 / f64::from(steps_per_second);
            let mut state = p.initial();
            let mut worst = 0f64;
            for i in 1..=(steps_per_second * 13 / 10) {
                state = integrator.step(&p, state, h);
                worst = worst.max((state.x - truth.state_at(&p, f64::from(i) * h).x).abs());
            }
            worst
        };
        for (integrator, order) in [
            (Integrator::ExplicitEuler, 1.0),
            (Integrator::SemiImplicitEuler, 1.0),
            (Integrator::Verlet, 2.0),
            (Integrator::Rk4, 4.0),
        ] {
            let ratio = error_at(integrator, 200) / error_at(integrator, 400);
            let expected = 2f64.powf(order);
            assert!(
                (ratio / expected - 1.0).abs() < 0.2,
                "{integrator}: halving h divided the error by {ratio}, expected about {expected}"
            );
        }
    }

    #[test]
    fn ids_round_trip_and_unknown_ids_list_the_allowed_ones() {
        for integrator in Integrator::ALL {
            assert_eq!(integrator.id().parse::<Integrator>(), Ok(integrator));
        }
        let error = "leapfrog".parse::<Integrator>().unwrap_err();
        assert!(error.to_string().contains("semi-implicit-euler"));
    }

    #[test]
    fn parameters_out_of_range_are_rejected_with_the_range() {
        let p = SpringParams {
            natural_hz: 500.0,
            ..SpringParams::default()
        };
        assert_eq!(
            p.validate().unwrap_err().to_string(),
            "spring frequency 500 Hz is out of range (allowed 0.01 to 200 Hz)"
        );
        assert!(
            SpringParams {
                damping_ratio: f64::NAN,
                ..SpringParams::default()
            }
            .validate()
            .is_err()
        );
        assert!(SpringParams::default().validate().is_ok());
    }

    /// The damped spring's closed form written out in full for each time, as the truth
    /// was computed before it kept its constants: the curve must give its values to the bit.
    fn closed_form(truth: &SpringTruth, params: &SpringParams, time_s: f64) -> SpringState {
        let t = time_s - truth.start_s;
        let SpringState { x: x0, v: v0 } = truth.start;
        let omega = params.omega();
        let zeta = params.damping_ratio;
        if zeta < 1.0 {
            let omega_d = omega * (1.0 - zeta * zeta).sqrt();
            let decay = libm::exp(-zeta * omega * t);
            let b = (v0 + zeta * omega * x0) / omega_d;
            let (sin, cos) = libm::sincos(omega_d * t);
            let x = decay * (x0 * cos + b * sin);
            let v = decay
                * ((b * omega_d - zeta * omega * x0) * cos
                    - (x0 * omega_d + zeta * omega * b) * sin);
            SpringState { x, v }
        } else if zeta == 1.0 {
            let b = v0 + omega * x0;
            let decay = libm::exp(-omega * t);
            SpringState {
                x: (x0 + b * t) * decay,
                v: (b - omega * (x0 + b * t)) * decay,
            }
        } else {
            let root = (zeta * zeta - 1.0).sqrt();
            let (r1, r2) = (-omega * (zeta - root), -omega * (zeta + root));
            let c1 = (v0 - r2 * x0) / (r1 - r2);
            let c2 = x0 - c1;
            let (e1, e2) = (libm::exp(r1 * t), libm::exp(r2 * t));
            SpringState {
                x: c1 * e1 + c2 * e2,
                v: c1 * r1 * e1 + c2 * r2 * e2,
            }
        }
    }

    #[test]
    fn the_curve_gives_the_closed_form_to_the_bit_in_every_regime() {
        // Undamped, underdamped, critically damped and overdamped, from a moving start at
        // a later time; before the start, at it, and an hour on.
        let bits = |state: SpringState| (state.x.to_bits(), state.v.to_bits());
        for zeta in [0.0, 0.3, 1.0, 2.5] {
            let p = params(zeta);
            let truth = SpringTruth {
                start_s: 1.25,
                start: SpringState { x: 0.7, v: -1.9 },
            };
            let curve = truth.curve(&p);
            let times = (0..400)
                .map(|i| 0.75 + f64::from(i) * 0.037)
                .chain([1.25, 3601.25]);
            for time_s in times {
                let exact = closed_form(&truth, &p, time_s);
                assert_eq!(
                    bits(truth.state_at(&p, time_s)),
                    bits(exact),
                    "ζ {zeta} t {time_s}"
                );
                assert_eq!(
                    bits(curve.state_at(time_s)),
                    bits(exact),
                    "ζ {zeta} t {time_s}"
                );
            }
        }
        // The undamped decay skips the exponential of zero, which is exactly 1.
        for zero in [0.0, -0.0] {
            assert_eq!(libm::exp(zero).to_bits(), 1.0f64.to_bits());
        }
    }
}
