//! Scene behaviour under the engine: kicks, resets, explosions, determinism.

use proptest::prelude::{prop_assert_eq, proptest};

use super::*;
use crate::sim::Simulation;
use crate::timestep::{Strategy, TimestepConfig};

const MS: Nanos = 1_000_000;

fn simulation(strategy: Strategy) -> Simulation {
    Simulation::new(strategy, TimestepConfig::default(), SceneConfig::new())
}

#[test]
fn kick_on_a_frame_without_steps_is_applied_by_the_next_step() {
    let mut sim = simulation(Strategy::Accumulator);
    sim.frame(15 * MS);
    let before = sim.scene().current();
    sim.kick();
    let (report, _) = sim.frame(2 * MS);
    assert!(report.steps.is_empty(), "this frame takes no step");
    assert_eq!(
        sim.scene().pending_kick_mps(),
        DEFAULT_KICK_MPS,
        "the kick waits"
    );
    let (report, _) = sim.frame(10 * MS);
    assert_eq!(report.steps.len(), 1);
    assert_eq!(sim.scene().pending_kick_mps(), 0.0);

    let mut unkicked = Scene::new(SceneConfig::new());
    unkicked.step(20 * MS);
    let kicked_v = sim.scene().current().spring.v;
    let expected =
        before.spring.v + DEFAULT_KICK_MPS + (unkicked.current().spring.v - before.spring.v);
    assert!(
        (kicked_v - expected).abs() < 1e-9,
        "{kicked_v} vs {expected}"
    );
}

#[test]
fn kick_moves_the_truth_too_so_error_stays_small() {
    let mut sim = simulation(Strategy::Accumulator);
    for i in 0..200 {
        if i % 37 == 0 {
            sim.kick();
        }
        sim.frame(16_666_667);
    }
    let state = sim.scene().current();
    let truth = sim.scene().true_spring(state.time);
    assert!(
        (state.spring.x - truth.x).abs() < 0.2,
        "{} vs {}",
        state.spring.x,
        truth.x
    );
    assert!(
        sim.scene().reference_energy()
            > sim
                .scene()
                .spring_energy(SceneConfig::new().spring.initial())
    );
}

#[test]
fn reset_forgets_the_previous_state() {
    let mut sim = simulation(Strategy::Interpolated);
    for _ in 0..50 {
        sim.frame(16_666_667);
    }
    sim.reset();
    let scene = sim.scene();
    assert_eq!(scene.previous(), scene.current());
    assert_eq!(scene.current(), SceneState::initial(&SceneConfig::new()));
    // The first frames after a reset blend initial with initial: no smear from the old run.
    let (_, shown) = sim.frame(5 * MS);
    assert_eq!(
        shown.sphere_position,
        SceneState::initial(&SceneConfig::new()).sphere.position
    );
}

#[test]
fn explicit_euler_explodes_and_is_detected_without_non_finite_values() {
    let mut config = SceneConfig::new();
    config.integrator = Integrator::ExplicitEuler;
    config.spring.natural_hz = 20.0;
    let mut sim = Simulation::new(Strategy::Variable, TimestepConfig::default(), config);
    for _ in 0..2000 {
        let (_, shown) = sim.frame(33 * MS);
        assert!(shown.spring_x_m.is_finite());
    }
    assert!(sim.scene().exploded());
    sim.reset();
    assert!(!sim.scene().exploded());
}

#[test]
fn semi_implicit_euler_at_the_defaults_never_explodes() {
    let mut sim = simulation(Strategy::Interpolated);
    let start = sim.scene().reference_energy();
    let mut worst = 0f64;
    for _ in 0..60 * 120 {
        sim.frame(16_666_667);
        let energy = sim.scene().spring_energy(sim.scene().current().spring);
        worst = worst.max((energy / start - 1.0).abs());
    }
    assert!(!sim.scene().exploded());
    // Symplectic Euler's energy wobbles by about ω·dt/2 (6% at 1 Hz, 50 Hz) but never drifts.
    assert!(worst < 0.08, "energy strayed by {worst}");
}

#[test]
fn extrapolation_predicts_without_consuming_a_pending_kick() {
    let mut sim = simulation(Strategy::Extrapolated);
    sim.frame(25 * MS);
    sim.kick();
    let (report, shown) = sim.frame(2 * MS);
    assert_eq!(report.drawn, View::Extrapolate(7 * MS));
    assert_eq!(sim.scene().pending_kick_mps(), DEFAULT_KICK_MPS);
    let mut plain = Scene::new(SceneConfig::new());
    plain.step(27 * MS);
    assert!((shown.sphere_position - plain.current().sphere.position).length() < 1e-9);
}

#[test]
fn camera_drivers_follow_their_clock() {
    let mut config = SceneConfig::new();
    for driver in CameraDriver::ALL {
        config.camera.driver = driver;
        let mut sim = Simulation::new(Strategy::Interpolated, TimestepConfig::default(), config);
        let mut shown = None;
        for _ in 0..7 {
            shown = Some(sim.frame(16_666_667).1);
        }
        let shown = shown.unwrap();
        let scene = sim.scene();
        let expected = match driver {
            CameraDriver::PerFrame => {
                let angle = config.camera.angular_speed() * secs_from_ns(shown.real_time);
                CameraState::at_angle(&config.camera, config.orbit.pivot, angle).eye
            }
            CameraDriver::PerStep => scene.current().camera.eye,
            CameraDriver::Smoothed => {
                scene
                    .drawn_state(View::Blend(sim.engine().accumulator() as f64 / 20e6))
                    .camera
                    .eye
            }
        };
        assert!((shown.camera_eye - expected).length() < 1e-9, "{driver}");
    }
}

#[test]
fn the_first_person_camera_rides_the_drawn_body_and_looks_where_the_mouse_turned() {
    use crate::input::{InputEvent, InputKind, MoveKey};
    let mut config = SceneConfig::new();
    config.camera.view = CameraView::Player;
    let turn = InputKind::Look {
        yaw_rad: 0.3,
        pitch_rad: 0.0,
    };
    for driver in CameraDriver::ALL {
        config.camera.driver = driver;
        let mut sim = Simulation::new(Strategy::Interpolated, TimestepConfig::default(), config);
        let frame = 16_666_667;
        let mut shown = None;
        for i in 0..7 {
            // Walking from the first frame; a turn read in the last, which the per-frame
            // look shows at once and the steps have not all taken yet.
            let kind = match i {
                0 => Some(InputKind::Press(MoveKey::Forward)),
                6 => Some(turn),
                _ => None,
            };
            let now = i * frame;
            let events: Vec<InputEvent> = kind
                .map(|kind| InputEvent { at: now, kind })
                .into_iter()
                .collect();
            let wall = crate::sim::FrameWall {
                now,
                real_frame: frame,
            };
            shown = Some(sim.frame_with_input(frame, &events, wall, None).1);
        }
        let shown = shown.unwrap();
        let scene = sim.scene();
        let blended = scene.drawn_state(View::Blend(sim.engine().accumulator() as f64 / 20e6));
        let latest = scene.current().player;
        let (eye, target) = match driver {
            CameraDriver::PerFrame => {
                let look = scene.config().player.start_look.after(turn);
                (blended.player.eye, blended.player.eye + look.direction())
            }
            CameraDriver::PerStep => (latest.eye, latest.target()),
            CameraDriver::Smoothed => (blended.player.eye, blended.player.target()),
        };
        assert!(
            (blended.player.eye - latest.eye).length() > 1e-3,
            "the blend is behind the latest step"
        );
        assert!((shown.camera_eye - eye).length() < 1e-9, "{driver} eye");
        assert!(
            (shown.camera_target - target).length() < 1e-9,
            "{driver} look"
        );
    }
}

#[test]
fn semi_fixed_is_not_deterministic_across_frame_splits() {
    let run = |frames: &[Nanos]| {
        let mut sim = simulation(Strategy::SemiFixed);
        for &f in frames {
            sim.frame(f);
        }
        sim.scene().current().hash64()
    };
    // Both deliver 60 ms; one in steps 20+20+20, the other 20+5, 20+15.
    assert_ne!(run(&[60 * MS]), run(&[25 * MS, 35 * MS]));
}

proptest! {
    #[test]
    fn accumulator_is_deterministic_across_frame_splits(
        cuts in proptest::collection::vec(0u64..2_000_000_000, 0..40),
        hz in proptest::sample::select(vec![30.0, 50.0, 60.0, 64.0, 240.0]),
        strategy in proptest::sample::select(vec![Strategy::Accumulator, Strategy::Interpolated, Strategy::Extrapolated]),
    ) {
        let cfg = TimestepConfig { dt: TimestepConfig::dt_for_rate(hz).unwrap(), max_frame_time: None, max_steps: None };
        let total = 2_000_000_000u64;
        let mut cuts = cuts;
        cuts.push(0);
        cuts.push(total);
        cuts.sort_unstable();
        let mut split = Simulation::new(strategy, cfg, SceneConfig::new());
        for pair in cuts.windows(2) {
            split.frame(pair[1] - pair[0]);
        }
        let mut whole = Simulation::new(strategy, cfg, SceneConfig::new());
        whole.frame(total);
        prop_assert_eq!(split.engine().steps(), whole.engine().steps());
        prop_assert_eq!(split.scene().current().hash64(), whole.scene().current().hash64());
    }
}

#[test]
fn changing_the_spring_restarts_the_truth_from_the_true_state() {
    let mut sim = simulation(Strategy::Accumulator);
    for _ in 0..50 {
        sim.frame(16_666_667);
    }
    let now = sim.scene().current().time;
    let true_before = sim.scene().true_spring(now);
    let mut config = *sim.scene().config();
    config.spring.natural_hz = 2.0;
    config.integrator = Integrator::Rk4;
    sim.set_scene_config(config);
    // Continuous at the change, and the new truth follows the new stiffness.
    assert_eq!(sim.scene().true_spring(now), true_before);
    for _ in 0..120 {
        sim.frame(16_666_667);
    }
    let state = sim.scene().current();
    let truth = sim.scene().true_spring(state.time);
    assert!(
        (state.spring.x - truth.x).abs() < 0.1,
        "{} vs {}",
        state.spring.x,
        truth.x
    );
    let stiffer = config.spring.energy(truth);
    assert!((stiffer - sim.scene().reference_energy()).abs() < 1e-9 * stiffer);
}

#[test]
fn velocity_extrapolation_and_hermite_are_exact_on_uniform_motion() {
    // A spring state moving uniformly (no force over the step): x1 = x0 + v·h. Binary
    // fractions, so exact is bit for bit.
    let (x0, v, h) = (0.5, -2.0, 0.015625);
    let (start, end) = (SpringState { x: x0, v }, SpringState { x: x0 + v * h, v });
    for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let on_the_line = SpringState {
            x: x0 + v * h * t,
            v,
        };
        assert_eq!(start.hermite(end, h, t), on_the_line, "hermite at {t}");
        assert_eq!(
            start.extrapolate(h * t),
            on_the_line,
            "extrapolation at {t}"
        );
    }
    // The sphere spins uniformly: its orientation moved along the angular velocity for
    // 5 ms is the one a 25 ms step reaches from the start, and 20 ms.
    let mut scene = Scene::new(SceneConfig::new());
    scene.step(20 * MS);
    let ahead = scene.current().extrapolate(5 * MS, scene.config());
    let mut reference = Scene::new(SceneConfig::new());
    reference.step(25 * MS);
    let spun = reference.current().sphere.rotation;
    assert!(ahead.sphere.rotation.angle_between(spun) < 1e-12);
    assert_eq!(ahead.time, 25 * MS);
}

/// The spring's errors against the closed form under the smoothing strategies, after a
/// kick: `(worst |drawn − true(S)|, the frame's true displacement, the largest leftover τ,
/// the worst error of the integrated states themselves, the largest true amplitude)`.
fn spring_errors_after_a_kick(strategy: Strategy) -> (f64, f64, f64, f64, f64) {
    let mut config = SceneConfig::new();
    config.integrator = Integrator::Rk4;
    let mut sim = Simulation::new(strategy, TimestepConfig::default(), config);
    for _ in 0..61 {
        sim.frame(16_666_667);
    }
    sim.kick();
    let (mut worst, mut at, mut tau, mut integration, mut amplitude) =
        (0f64, 0f64, 0f64, 0f64, 0f64);
    for _ in 0..240 {
        let (report, shown) = sim.frame(16_666_667);
        let scene = sim.scene();
        let truth = scene.true_spring(report.shown_time);
        let error = shown.spring_x_m - truth.x;
        if error.abs() > worst.abs() {
            (worst, at) = (error, truth.x);
        }
        tau = tau.max(secs_from_ns(report.accumulator));
        let state = scene.current();
        let exact = scene.true_spring(state.time);
        let dt = 0.02;
        integration = integration
            .max((state.spring.x - exact.x).abs() + dt * (state.spring.v - exact.v).abs());
        let omega = scene.config().spring.omega();
        amplitude = amplitude.max((exact.x * exact.x + (exact.v / omega).powi(2)).sqrt());
    }
    (worst, at, tau, integration, amplitude)
}

#[test]
fn velocity_extrapolation_overshoots_after_a_kick_by_at_most_half_a_tau_squared() {
    // Between steps the drawn state moves in a straight line, x_N + τ·v_N, while the true
    // one curves back under the spring's pull: the gap is the second-order term,
    // |x(t+τ) − x − τ·v| ≤ ½·max|a|·τ² = ½·ω²·A·τ², largest at the turning points (where
    // |a| = ω²·A) and for the largest leftover τ. With 50 Hz steps on a 60 Hz display τ
    // reaches 16.67 ms; after a 3 m/s kick the 1 Hz spring's amplitude A is about 1.1 m,
    // so the bound is about 6 mm. RK4's own error adds little (measured and added).
    let (worst, at, tau, integration, amplitude) =
        spring_errors_after_a_kick(Strategy::VelocityExtrapolated);
    let omega = SceneConfig::new().spring.omega();
    let bound = 0.5 * omega * omega * amplitude * tau * tau;
    println!(
        "velocity-extrapolated: worst error {:.6} m, bound ½ω²Aτ² = {:.6} m (A = {:.4} m, \
         τ = {:.3} ms), RK4's own {:.2e} m",
        worst.abs(),
        bound,
        amplitude,
        tau * 1e3,
        integration
    );
    assert!(worst.abs() <= bound + integration, "{worst} > {bound}");
    // It is no rounding error: it reaches most of the bound, and it overshoots (the drawn
    // mass is farther out than the true one, on the side it is displaced to).
    assert!(worst.abs() >= 0.8 * bound, "{worst} is far below {bound}");
    assert_eq!(worst.signum(), at.signum(), "overshoots outward");
}

#[test]
fn hermite_follows_the_spring_far_closer_than_the_straight_line() {
    // Interpolation's chord misses the curve by up to ⅛·ω²·A·h² (2.2 mm here); the cubic
    // Hermite curve by up to h⁴/384·ω⁴·A (under a micrometre), so what is left is RK4's
    // own error (about 0.07 mm after 5 s): the curve is 30 times closer than the chord.
    let (hermite, _, _, integration, amplitude) = spring_errors_after_a_kick(Strategy::Hermite);
    let (chord, ..) = spring_errors_after_a_kick(Strategy::Interpolated);
    let omega = SceneConfig::new().spring.omega();
    let h = 0.02f64;
    let chord_bound = omega * omega * amplitude * h * h / 8.0;
    let hermite_bound = h.powi(4) / 384.0 * omega.powi(4) * amplitude;
    println!(
        "interpolated: worst {:.6} m (bound ⅛ω²Ah² = {:.6} m); hermite: worst {:.3e} m \
         (bound h⁴ω⁴A/384 = {:.3e} m, RK4's own {:.2e} m)",
        chord.abs(),
        chord_bound,
        hermite.abs(),
        hermite_bound,
        integration
    );
    assert!(chord.abs() <= chord_bound + integration);
    assert!(
        chord.abs() >= 0.5 * chord_bound,
        "the chord's error is real"
    );
    assert!(hermite.abs() <= hermite_bound + 2.0 * integration);
    assert!(hermite.abs() * 20.0 < chord.abs());
}

#[test]
fn the_drawn_spring_is_the_drawn_states_to_the_bit_in_every_view() {
    let mut scene = Scene::new(SceneConfig::new());
    // Uneven steps and a kick, so previous, older, current and the frame's start differ.
    for (i, h) in [7 * MS, 20 * MS, 13 * MS, 20 * MS].into_iter().enumerate() {
        if i == 2 {
            scene.kick();
        }
        scene.begin_frame();
        scene.step(h);
    }
    scene.begin_frame();
    scene.step(11 * MS);
    for t in [0.0, 0.25, 0.5, 0.999, 1.0] {
        let ahead = (t * 20.0) as Nanos * MS + 3;
        for view in [
            View::Latest,
            View::AtDisplay,
            View::FrameStart,
            View::Blend(t),
            View::BlendOlder(t),
            View::Hermite(t),
            View::Velocity(ahead),
            View::Extrapolate(ahead),
        ] {
            let (alone, whole) = (scene.drawn_spring(view), scene.drawn_state(view).spring);
            assert_eq!(
                (alone.x.to_bits(), alone.v.to_bits()),
                (whole.x.to_bits(), whole.v.to_bits()),
                "{view:?}"
            );
        }
    }
}

#[test]
fn the_sphere_and_the_camera_are_placed_when_read_where_stepping_put_them() {
    // The scene steps angles and places positions when a state is read: the states it
    // gives must be where the angles put them, also the states kept from before a change
    // of orbit and camera, which stay on the old one.
    let config = SceneConfig::new();
    let placed = |config: &SceneConfig, sphere_angle: f64, camera_angle: f64| {
        (
            config.orbit.position_at_angle(sphere_angle),
            config.camera.eye_at_angle(config.orbit.pivot, camera_angle),
        )
    };
    let of = |state: SceneState| (state.sphere.position, state.camera.eye);
    let mut scene = Scene::new(config);
    let (mut sphere, mut camera) = (0.0f64, 0.0f64);
    let advance = |angle: f64, speed: f64, h: Nanos| {
        (angle + speed * secs_from_ns(h)).rem_euclid(std::f64::consts::TAU)
    };
    for h in [20 * MS, 20 * MS, 7 * MS, 20 * MS, 13 * MS] {
        scene.step(h);
        sphere = advance(sphere, config.orbit.angular_speed(), h);
        camera = advance(camera, config.camera.angular_speed(), h);
    }
    assert_eq!(of(scene.current()), placed(&config, sphere, camera));
    let before = scene.current();
    let before_that = scene.previous();

    scene.begin_frame();
    let mut wider = config;
    wider.orbit.radius_m *= 2.0;
    wider.camera.radius_m += 1.0;
    scene.set_config(wider);
    assert_eq!(
        scene.current(),
        before,
        "a state stepped on the old orbit stays on it"
    );
    scene.step(20 * MS);
    assert_eq!(scene.previous(), before);
    assert_eq!(
        scene.drawn_state(View::FrameStart),
        before,
        "the frame began there"
    );
    assert_eq!(
        of(scene.drawn_state(View::BlendOlder(0.0))),
        of(before_that),
        "two steps back, on the old orbit too"
    );
    sphere = advance(sphere, wider.orbit.angular_speed(), 20 * MS);
    camera = advance(camera, wider.camera.angular_speed(), 20 * MS);
    assert_eq!(
        of(scene.current()),
        placed(&wider, sphere, camera),
        "the next step is on the new orbit"
    );
    let blend = scene.drawn_state(View::Blend(0.5));
    assert_eq!(
        blend.sphere.position,
        before
            .sphere
            .position
            .lerp(scene.current().sphere.position, 0.5)
    );
}

/// A run of uneven steps, paused frames, kicks and changes of orbit, camera and spring,
/// hashed over what every view draws each frame and the exact spring: the value the scene
/// gave when it placed every position at every step (main at c61fa36).
fn scripted_run_hash() -> u64 {
    let mut config = SceneConfig::new();
    let mut scene = Scene::new(config);
    let lengths = [20 * MS, 7 * MS, 20 * MS, 13 * MS, MS, 20 * MS];
    let mut hash = 0u64;
    for i in 0..300usize {
        scene.begin_frame();
        if i % 50 == 17 {
            scene.kick();
        }
        for k in 0..i % 3 {
            scene.step(lengths[(i + k) % lengths.len()]);
        }
        if i % 70 == 33 {
            config.orbit.radius_m += 0.5;
            config.camera.radius_m += 0.25;
            scene.set_config(config);
        }
        if i % 90 == 45 {
            config.spring.damping_ratio += 0.2;
            scene.set_config(config);
        }
        for view in [
            View::Latest,
            View::Blend(0.3),
            View::Hermite(0.6),
            View::Velocity(5 * MS),
            View::BlendOlder(0.5),
            View::FrameStart,
            View::Extrapolate(7 * MS),
        ] {
            hash = hash.rotate_left(5) ^ scene.drawn_state(view).hash64();
        }
        let latest = scene.current().time;
        hash = hash.rotate_left(5) ^ scene.true_spring(latest).x.to_bits();
        hash = hash.rotate_left(5) ^ scene.true_spring(latest).v.to_bits();
    }
    hash
}

#[test]
fn the_scene_draws_to_the_bit_what_it_drew_when_it_placed_every_step() {
    assert_eq!(scripted_run_hash(), 0x133b_8aa7_ef32_1883);
}

#[test]
fn the_frame_start_is_the_state_the_frame_began_with_however_many_steps_it_takes() {
    use crate::input::{InputKind, MoveKey};
    // Frames of 0 to 5 steps (the ring keeps three states), some kicked, some with a key
    // pressed or released at a step's start: the frame's start is what the frame began
    // with, before the kick and the key, whichever step overwrote it in the ring.
    let mut scene = Scene::new(SceneConfig::new());
    let lengths = [20 * MS, 7 * MS, 13 * MS];
    for i in 0..60usize {
        scene.begin_frame();
        let began = scene.current();
        if i % 7 == 3 {
            scene.kick();
        }
        for k in 0..i % 6 {
            let h = lengths[(i + k) % lengths.len()];
            match (i % 5, k) {
                (1, 0) => scene.step_with(h, &[(0, InputKind::Press(MoveKey::Forward))]),
                (2, 1) => scene.step_with(h, &[(0, InputKind::Release(MoveKey::Forward))]),
                _ => scene.step(h),
            }
        }
        assert_eq!(scene.drawn_state(View::FrameStart), began, "frame {i}");
        let spring = scene.drawn_spring(View::FrameStart);
        assert_eq!(
            (spring.x.to_bits(), spring.v.to_bits()),
            (began.spring.x.to_bits(), began.spring.v.to_bits())
        );
    }
}
