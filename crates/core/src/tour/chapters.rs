//! The tour's chapters, in the articles' order: the settings each starts from and its claim
//! as a check over the loop's measurements. The words are the project's own; each names the
//! article it follows.

use super::beyond::{
    CIRCLE_STRAFE, camera_check, camera_setup, extrapolation_check, extrapolation_setup,
    first_person_check, first_person_setup, input_check, input_setup,
};
use super::screen::{screen_adapt, screen_check, screen_setup};
use super::shared::{STUTTER, compare, no_frames, other_rate, other_strategy, single};
use super::{Chapter, Drive, Evidence, PaneEvidence, Verdict, Watches};
use crate::input::InputScript;
use crate::live::{LiveSettings, SLOW_LOOP_TARGET_HZ};
use crate::timestep::{EnginePreset, Strategy};

/// Fiedler's article.
const FIX_YOUR_TIMESTEP: &str = "Glenn Fiedler, \"Fix Your Timestep!\" (2004)";

/// The chapters, in order.
pub static CHAPTERS: [Chapter; 13] = [
    Chapter {
        id: "fixed",
        title: "Fixed delta time",
        follows: FIX_YOUR_TIMESTEP,
        text: "Each frame advances the game by one step of dt, whatever time really passed. \
               Physics here runs at 30 Hz, so on a 60 Hz screen the spring and the sphere \
               move twice as fast as they should. Try a render load (Artificial load) or \
               another present mode: the game's speed follows the frame rate.",
        setup: fixed_setup,
        check: fixed_check,
        slows_for_slow_renderers: None,
        adapt: fixed_adapt,
        drive: Drive::Nothing,
        watches: Watches::Readouts,
    },
    Chapter {
        id: "variable",
        title: "Variable delta time",
        follows: FIX_YOUR_TIMESTEP,
        text: "One step of whatever time the frame took: the speed is right, but a long frame \
               is one long step. The spring is stiff (6 Hz) and every 2 s a frame takes \
               200 ms more: at the first such step the integrator overshoots and the spring \
               explodes. Reset (R) and watch it again; lower the hitch or soften the spring \
               and it survives.",
        setup: variable_setup,
        check: variable_check,
        slows_for_slow_renderers: None,
        adapt: as_set_up,
        drive: Drive::Nothing,
        watches: Watches::Readouts,
    },
    Chapter {
        id: "semi-fixed",
        title: "Semi-fixed timestep",
        follows: FIX_YOUR_TIMESTEP,
        text: "Steps of dt while a whole dt is left, then one step of the rest: no step is \
               ever longer than dt, so the stiff spring survives the same hitches. But the \
               last step of each frame is as long as the frame leaves (with 50 Hz physics on \
               a 60 Hz screen every step is such a remainder), so the steps follow the frame \
               times, and two runs never take the same steps: the simulation is not \
               deterministic.",
        setup: semi_fixed_setup,
        check: semi_fixed_check,
        slows_for_slow_renderers: None,
        adapt: as_set_up,
        drive: Drive::Nothing,
        watches: Watches::Readouts,
    },
    Chapter {
        id: "spiral",
        title: "The spiral of death",
        follows: FIX_YOUR_TIMESTEP,
        text: "Steps that cost more real time than they simulate: each 16.7 ms step costs \
               20 ms here, with every guard off. Each frame owes more steps than the last, \
               each takes longer, and the loop falls ever further behind (the timeline's \
               frames grow, the banner warns). The next chapter stops it.",
        setup: spiral_setup,
        check: spiral_check,
        slows_for_slow_renderers: None,
        adapt: as_set_up,
        drive: Drive::Nothing,
        watches: Watches::Readouts,
    },
    Chapter {
        id: "guards",
        title: "Guarding against the spiral",
        follows: FIX_YOUR_TIMESTEP,
        text: "The same 20 ms steps, with the frame time clamped to 250 ms (Spiral guards): \
               time beyond the clamp is dropped, so each frame owes a bounded number of \
               steps. The loop keeps up, and the game runs slower than real time instead. \
               Try the steps-per-frame cap instead of the clamp, or lower the step cost \
               below dt.",
        setup: guards_setup,
        check: guards_check,
        slows_for_slow_renderers: None,
        adapt: as_set_up,
        drive: Drive::Nothing,
        watches: Watches::Readouts,
    },
    Chapter {
        id: "accumulator",
        title: "Free the physics: the accumulator",
        follows: FIX_YOUR_TIMESTEP,
        text: "Frames hand their time to an accumulator, which pays it out in whole steps of \
               dt and carries the rest: every step is the same, so the simulation is \
               deterministic. But 50 Hz physics on a 60 Hz screen takes 1 1 1 1 1 0 steps \
               a frame (the timeline): one frame in six shows no motion, and the sphere's \
               trail goes up in stairs. That is the stutter.",
        setup: accumulator_setup,
        check: accumulator_check,
        slows_for_slow_renderers: Some(SLOW_LOOP_TARGET_HZ),
        adapt: stutter_adapt,
        drive: Drive::Nothing,
        watches: Watches::Readouts,
    },
    Chapter {
        id: "interpolation",
        title: "The final touch: interpolation",
        follows: FIX_YOUR_TIMESTEP,
        text: "The accumulator's leftover, as a fraction alpha of dt, blends the previous \
               state with the current one. The right pane moves smoothly where the left one \
               stutters, on the same frames and the same steps. The price: it draws a state \
               between the last two steps, one dt behind the newest (latency).",
        setup: interpolation_setup,
        check: interpolation_check,
        slows_for_slow_renderers: Some(SLOW_LOOP_TARGET_HZ),
        adapt: stutter_adapt,
        drive: Drive::Nothing,
        watches: Watches::Readouts,
    },
    Chapter {
        id: "extrapolation",
        title: "Beyond the article: extrapolation and Hermite",
        follows: "Unity's Rigidbody interpolation modes (Interpolate, Extrapolate), and \
                  Hermite curves, past \"Fix Your Timestep!\"",
        text: "Interpolation draws one dt late. Extrapolation (middle) draws the latest state \
               moved on along its velocity: no lag, but a guess. The tour kicks the spring \
               every second (Space kicks it too): the guess runs on without the kick and jumps \
               back when the step that takes it lands, and where the spring turns, its \
               straight line overshoots. Hermite (right) draws a curve through the last two \
               states and their velocities, where interpolation (left) draws a straight \
               line that cuts the corner. Physics runs at 30 Hz with RK4, whose steps follow \
               the exact curve.",
        setup: extrapolation_setup,
        check: extrapolation_check,
        slows_for_slow_renderers: None,
        adapt: as_set_up,
        drive: Drive::Kicks {
            every: 1_000_000_000,
        },
        watches: Watches::Spring,
    },
    Chapter {
        id: "camera",
        title: "The camera and the sphere",
        follows: "Kinematic Soup's \"Timesteps and Achieving Smooth Motion in Unity\"",
        text: "Unity's classic stutter: the camera moves every render frame (Update), the \
               sphere in fixed steps (FixedUpdate). Under accumulator (left) the sphere shows \
               its latest step, so against the smoothly turning camera it jumps back and \
               forth while the grid glides. Interpolated (right) draws it between its last \
               two steps, and it moves as smoothly as the camera. Set the camera driver \
               (Physics) to smoothed: the camera moves with the sphere, the sphere holds \
               still against it, and under accumulator the whole view judders instead.",
        setup: camera_setup,
        check: camera_check,
        slows_for_slow_renderers: Some(SLOW_LOOP_TARGET_HZ),
        adapt: stutter_adapt,
        drive: Drive::Nothing,
        watches: Watches::Bearing,
    },
    Chapter {
        id: "first-person",
        title: "Walking in first person",
        follows: "Kinematic Soup's \"Timesteps and Achieving Smooth Motion in Unity\"",
        text: "The Unity article's other stutter: the mouse turns the view every frame \
               (Update) while the body walks in fixed steps (FixedUpdate), and the eyes ride \
               the body. The tour walks the player sideways round the sphere's pivot, turning \
               the view to keep facing it. Under \
               accumulator (left) the eyes move in whole steps, so the world judders though \
               the turn is smooth; interpolated (right) draws the body, and so the eyes, \
               between its last two steps, and the world glides. Set the camera driver \
               (Physics) to per-step: the look then turns in steps too, and both panes \
               judder; to smoothed: the interpolated pane blends the look as well, smooth \
               but one step late.",
        setup: first_person_setup,
        check: first_person_check,
        slows_for_slow_renderers: Some(SLOW_LOOP_TARGET_HZ),
        adapt: stutter_adapt,
        drive: CIRCLE_STRAFE,
        watches: Watches::Eyes,
    },
    Chapter {
        id: "input",
        title: "Input and fixed steps",
        follows: "the engines' input pitfalls: Unity's GetKeyDown read in FixedUpdate, \
                  Bevy issue 6183",
        text: "Input is read once a frame, but the accumulator's steps come none, one or \
               several to a frame. The tour presses the movement keys ten times a second, \
               with 50 Hz physics and a 60 ms hitch twice a second; every input policy is \
               measured on the same frames (Player and input). first-step loses a key read \
               in a frame that takes no step; every-step applies it again on each extra \
               step; buffered queues it for the next step; timestamped applies it inside the \
               step, at its time.",
        setup: input_setup,
        check: input_check,
        slows_for_slow_renderers: Some(SLOW_LOOP_TARGET_HZ),
        adapt: stutter_adapt,
        drive: Drive::Keys(InputScript {
            period: 100_000_000,
            hold: 40_000_000,
        }),
        watches: Watches::Readouts,
    },
    Chapter {
        id: "engines",
        title: "What engines do",
        follows: "the engines' documentation (Unity FixedUpdate, Godot physics ticks, Bevy \
                  Time<Fixed>) and Kinematic Soup's \"Timesteps and Achieving Smooth Motion \
                  in Unity\"",
        text: "Unity (50 Hz) and Bevy (64 Hz) step their physics from an accumulator, as in \
               the last chapters, and draw the last step unless interpolation is turned on. \
               On a 60 Hz screen both stutter as the accumulator did; their interpolation \
               removes it. Pick a pane (1-4) to see its timeline.",
        setup: engines_setup,
        check: engines_check,
        slows_for_slow_renderers: Some(ENGINES_FRAME_HZ),
        adapt: engines_adapt,
        drive: Drive::Nothing,
        watches: Watches::Readouts,
    },
    Chapter {
        id: "screen",
        title: "What the screen shows",
        follows: "Tyler Glaiel, \"How to make your game run at 60fps\" (2018)",
        text: "The loop times each frame on its own clock; the screen shows an image only \
               at a refresh. Under vsync (fifo) an image waits for the next refresh and a \
               late one leaves the frame before up again; mailbox drops the images no \
               refresh had time for; immediate tears. Variable advances the game by exactly \
               each measured frame, so on the loop's clock it cannot judder: the judder at \
               the screen (Readouts, marked *: modeled, or measured where the platform \
               reports presentation) is all the screen's. Try the present modes (Display). \
               On frames that keep pace with the refresh, the snap filter (Display) rounds \
               each frame to whole refreshes, the time the screen shows it for.",
        setup: screen_setup,
        check: screen_check,
        slows_for_slow_renderers: None,
        adapt: screen_adapt,
        drive: Drive::Nothing,
        watches: Watches::Readouts,
    },
];

fn fixed_setup(_: &LiveSettings) -> LiveSettings {
    single(Strategy::Fixed, 30.0)
}

/// Frames that come at about the physics rate hide the claim: physics moves to half the
/// frame rate, so the game runs twice as fast.
fn fixed_adapt(evidence: &Evidence) -> Option<(LiveSettings, String)> {
    let pane = evidence.focused()?;
    let speed = pane.stats.fps * pane.dt as f64 / 1e9;
    if pane.strategy != Strategy::Fixed || (speed - 1.0).abs() >= 0.15 {
        return None;
    }
    let rate_hz = (pane.stats.fps / 2.0).round().max(1.0);
    let settings = LiveSettings {
        rate_hz,
        ..evidence.settings
    };
    let why = format!(
        "Physics set to {rate_hz:.0} Hz: the frames came at {:.1} fps, about the physics \
         rate, which would hide the claim.",
        pane.stats.fps
    );
    Some((settings, why))
}

/// Frames at about the physics rate (50 Hz physics on a 50 Hz or 55 Hz screen, or a
/// loop that manages only that) take one step each and hide the stutter: physics moves to
/// five steps for every six frames, as 50 Hz on a 60 Hz screen. Frames count in game
/// time: slowed to half, 25 fps show 50 frames of game a second.
fn stutter_adapt(evidence: &Evidence) -> Option<(LiveSettings, String)> {
    let fps = evidence.focused()?.stats.fps / evidence.settings.time_scale;
    let rate = evidence.settings.rate_hz;
    if !fps.is_finite() || fps <= 0.0 || (fps / rate - 1.0).abs() >= 0.15 {
        return None;
    }
    let rate_hz = (fps * 5.0 / 6.0).round().max(1.0);
    let settings = LiveSettings {
        rate_hz,
        ..evidence.settings
    };
    let time_scale = evidence.settings.time_scale;
    let game = if time_scale < 1.0 {
        format!(" of game time (time runs at {time_scale:.2}x)")
    } else {
        String::new()
    };
    let why = format!(
        "Physics set to {rate_hz:.0} Hz: the frames came at {fps:.1} fps{game}, about the \
         {rate:.0} Hz physics rate, so each took one step and the stutter would not show."
    );
    Some((settings, why))
}

/// How much game a frame shows when the engines chapter slows time: 1/85 s, so Unity's
/// 50 Hz ticks come on 0.59 of the frames and Bevy's 64 Hz ones on 0.75. Both patterns
/// repeat within a few frames, so even a slow renderer's second of 10 frames holds frames
/// without a tick, and a drift of 10% lines neither up. (At 1/57 s, between the two
/// rates, each missed a tick on only one frame in eight: a second of 10 frames often held
/// none, and the stutter went unmeasured.)
const ENGINES_FRAME_HZ: f64 = 85.0;

/// Frames at about Unity's 50 Hz hide its stutter, and the engines keep their own rates:
/// time slows instead, so each frame shows 1/85 s of the game.
fn engines_adapt(evidence: &Evidence) -> Option<(LiveSettings, String)> {
    let fps = evidence.focused()?.stats.fps;
    if fps <= 0.0 || (fps / 50.0 - 1.0).abs() >= 0.15 || evidence.settings.time_scale != 1.0 {
        return None;
    }
    let time_scale = (fps / ENGINES_FRAME_HZ).min(1.0);
    let settings = LiveSettings {
        time_scale,
        ..evidence.settings
    };
    let why = format!(
        "Time runs at {time_scale:.2}x: the frames came at {fps:.1} fps, about Unity's 50 Hz \
         ticks, so each took one tick and the stutter would not show."
    );
    Some((settings, why))
}

/// A chapter that runs as set up on any machine.
fn as_set_up(_: &Evidence) -> Option<(LiveSettings, String)> {
    None
}

/// The game advances `fps · dt` per second of real time.
fn fixed_check(evidence: &Evidence) -> Verdict {
    let Some(pane) = evidence.focused() else {
        return no_frames();
    };
    let stats = &pane.stats;
    if pane.strategy != Strategy::Fixed {
        return other_strategy(pane, "fixed");
    }
    let measured = format!(
        "the game runs at {:.2}x real time = {:.1} fps x {:.1} ms steps",
        stats.sim_speed,
        stats.fps,
        pane.dt_ms()
    );
    if (stats.sim_speed - 1.0).abs() < 0.1 {
        return Verdict::Fails(format!(
            "{measured}: the frame rate matches the physics rate ({:.0} Hz), so the game \
             happens to keep real time; set the physics rate (Physics) to half or double \
             the frame rate to see it run fast or slow",
            1e9 / pane.dt as f64
        ));
    }
    Verdict::Holds(format!("{measured}: its speed follows the frame rate"))
}

fn variable_setup(_: &LiveSettings) -> LiveSettings {
    let mut settings = single(Strategy::Variable, 60.0);
    settings.spring_hz = 6.0;
    settings.damping = 0.0;
    settings.load.hitch_ms = 200.0;
    settings.load.hitch_every_s = 2.0;
    settings
}

/// A frame long enough for the integrator (`ω·dt > 2`) made the spring explode.
fn variable_check(evidence: &Evidence) -> Verdict {
    let Some(pane) = evidence.focused() else {
        return no_frames();
    };
    let omega = std::f64::consts::TAU * evidence.settings.spring_hz;
    let longest_ms = evidence.tally.longest_frame as f64 / 1e6;
    let stable_ms = 2.0 / omega * 1e3;
    if pane.exploded {
        return Verdict::Holds(format!(
            "the spring exploded; the longest frame, {longest_ms:.0} ms, was one step with \
             w*dt = {:.1}, above the 2 its integrator survives (steps under {stable_ms:.0} ms)",
            omega * longest_ms / 1e3
        ));
    }
    if longest_ms > stable_ms && pane.strategy == Strategy::Variable {
        return Verdict::Fails(format!(
            "a {longest_ms:.0} ms frame (w*dt = {:.1}) left the spring whole: it was near \
             rest, or the integrator damps it; Reset (R) and wait for the next hitch",
            omega * longest_ms / 1e3
        ));
    }
    if longest_ms > stable_ms {
        return Verdict::Fails(format!(
            "a {longest_ms:.0} ms frame came and the spring held: {} never takes a step \
             longer than {:.1} ms; choose variable to see one long step",
            pane.strategy.id(),
            pane.dt_ms()
        ));
    }
    Verdict::Waiting(format!(
        "the longest frame so far is {longest_ms:.0} ms; a step over {stable_ms:.0} ms \
         breaks this spring (the hitch comes every {:.0} s)",
        evidence.settings.load.hitch_every_s
    ))
}

fn semi_fixed_setup(settings: &LiveSettings) -> LiveSettings {
    LiveSettings {
        strategy: Strategy::SemiFixed,
        rate_hz: 50.0,
        ..variable_setup(settings)
    }
}

/// No step is longer than dt, and the frames' last steps are remainders of their times.
fn semi_fixed_check(evidence: &Evidence) -> Verdict {
    let Some(pane) = evidence.focused() else {
        return no_frames();
    };
    if pane.strategy != Strategy::SemiFixed {
        return other_strategy(pane, "semi-fixed");
    }
    let longest_ms = evidence.tally.longest_step as f64 / 1e6;
    let share = evidence.tally.partial_frames as f64 / evidence.tally.frames.max(1) as f64;
    if evidence.tally.longest_step > pane.dt {
        return Verdict::Fails(format!(
            "a step of {longest_ms:.1} ms, longer than dt ({:.1} ms)",
            pane.dt_ms()
        ));
    }
    if share < 0.1 {
        return Verdict::Fails(format!(
            "the longest step is {longest_ms:.1} ms (dt {:.1} ms), but only {:.0}% of frames \
             ended in a shorter step: the frames are whole numbers of steps, so the steps \
             happen to repeat; {}",
            pane.dt_ms(),
            share * 100.0,
            other_rate(pane)
        ));
    }
    Verdict::Holds(format!(
        "the longest step is {longest_ms:.1} ms, never above dt ({:.1} ms); {:.0}% of frames \
         ended in a shorter step, as long as the frame time left: the steps follow the \
         frames",
        pane.dt_ms(),
        share * 100.0
    ))
}

fn spiral_setup(_: &LiveSettings) -> LiveSettings {
    let mut settings = single(Strategy::Accumulator, 60.0);
    settings.load.step_cost_ms = 20.0;
    settings.max_frame_time_ms = 0.0;
    settings.max_steps = 0;
    settings
}

/// The loop spirals: its owed time runs away.
fn spiral_check(evidence: &Evidence) -> Verdict {
    let Some(pane) = evidence.focused() else {
        return no_frames();
    };
    let cost = evidence.settings.load.step_cost_ms;
    if evidence.spiral {
        return Verdict::Holds(format!(
            "each {:.1} ms step costs {cost:.1} ms: the loop spirals, up to {} steps a \
             frame, each frame owing more than the last",
            pane.dt_ms(),
            pane.stats.steps_max
        ));
    }
    let guarded = evidence.settings.max_frame_time_ms > 0.0 || evidence.settings.max_steps > 0;
    let why = if cost <= pane.dt_ms() {
        format!(
            "a step costs {cost:.1} ms, no more than the {:.1} ms it simulates: raise the \
             step cost above dt",
            pane.dt_ms()
        )
    } else if guarded {
        "a guard is on (Spiral guards): turn the clamp and the cap off".to_owned()
    } else {
        return Verdict::Waiting(format!(
            "{:.1} steps a frame so far; the owed time is still growing",
            pane.stats.steps_mean
        ));
    };
    Verdict::Fails(format!("no spiral: {why}"))
}

fn guards_setup(settings: &LiveSettings) -> LiveSettings {
    LiveSettings {
        max_frame_time_ms: 250.0,
        ..spiral_setup(settings)
    }
}

/// With a guard the loop keeps up, and the game runs slower than real time.
fn guards_check(evidence: &Evidence) -> Verdict {
    let Some(pane) = evidence.focused() else {
        return no_frames();
    };
    let stats = &pane.stats;
    if evidence.spiral {
        return Verdict::Fails(format!(
            "the loop still spirals ({} steps a frame): turn on the frame-time clamp or the \
             steps-per-frame cap (Spiral guards)",
            stats.steps_max
        ));
    }
    if stats.sim_speed > 0.97 {
        return Verdict::Fails(format!(
            "the game keeps real time ({:.2}x): the steps cost less than they simulate, so \
             there is nothing to guard; raise the step cost above dt",
            stats.sim_speed
        ));
    }
    Verdict::Holds(format!(
        "no spiral: at most {} steps a frame, and the game runs at {:.2}x real time, the \
         guard dropping the rest",
        stats.steps_max, stats.sim_speed
    ))
}

fn accumulator_setup(_: &LiveSettings) -> LiveSettings {
    single(Strategy::Accumulator, 50.0)
}

/// The accumulator's judder is above a fifth of its step: the stutter is there.
fn accumulator_check(evidence: &Evidence) -> Verdict {
    let Some(pane) = evidence.focused() else {
        return no_frames();
    };
    if pane.strategy != Strategy::Accumulator {
        return other_strategy(pane, "accumulator");
    }
    stutter_verdict(pane, evidence)
}

/// Whether `pane` (a strategy drawing its last step) stutters.
fn stutter_verdict(pane: &PaneEvidence, evidence: &Evidence) -> Verdict {
    let judder = pane.stats.judder_ms;
    let threshold = STUTTER * pane.dt_ms();
    let stepless =
        100.0 * evidence.tally.stepless_frames as f64 / evidence.tally.frames.max(1) as f64;
    if judder > threshold {
        Verdict::Holds(format!(
            "{} judder {judder:.1} ms, more than a fifth of dt ({threshold:.1} ms): the \
             stutter is there ({stepless:.0}% of frames took no step)",
            pane.strategy.id()
        ))
    } else {
        Verdict::Fails(format!(
            "{} judder {judder:.1} ms, under a fifth of dt ({threshold:.1} ms): no stutter, \
             the frames ({:.1} fps) and the steps ({:.0} Hz) line up; {}",
            pane.strategy.id(),
            pane.stats.fps,
            1e9 / pane.dt as f64,
            other_rate(pane)
        ))
    }
}

fn interpolation_setup(settings: &LiveSettings) -> LiveSettings {
    compare(
        accumulator_setup(settings),
        &[Strategy::Accumulator, Strategy::Interpolated],
        1,
    )
}

/// Interpolation takes the stutter away and draws one dt late.
fn interpolation_check(evidence: &Evidence) -> Verdict {
    let (Some(plain), Some(smooth)) = (
        evidence.pane(Strategy::Accumulator),
        evidence.pane(Strategy::Interpolated),
    ) else {
        return Verdict::Fails(
            "the claim compares an accumulator pane with an interpolated one: compare \
             accumulator,interpolated"
                .into(),
        );
    };
    let dt = smooth.dt_ms();
    let (judder, latency) = (smooth.stats.judder_ms, smooth.stats.latency_ms);
    if plain.stats.judder_ms <= STUTTER * plain.dt_ms() {
        return Verdict::Fails(format!(
            "the accumulator shows no stutter here (judder {:.1} ms), so there is none to \
             take away: {}",
            plain.stats.judder_ms,
            other_rate(plain)
        ));
    }
    if judder > plain.stats.judder_ms / 4.0 {
        return Verdict::Fails(format!(
            "interpolated judder {judder:.1} ms against the accumulator's {:.1} ms: the \
             frames are too uneven for a blend of the last two steps to hide",
            plain.stats.judder_ms
        ));
    }
    Verdict::Holds(format!(
        "interpolated judder {judder:.2} ms against the accumulator's {:.1} ms; the price, \
         its latency, {latency:.1} ms: one dt ({dt:.1} ms)",
        plain.stats.judder_ms
    ))
}

/// The engines compared, plain and interpolated.
const ENGINES: [Strategy; 4] = [
    Strategy::Preset(EnginePreset::Unity),
    Strategy::Preset(EnginePreset::UnityInterpolate),
    Strategy::Preset(EnginePreset::Bevy),
    Strategy::Preset(EnginePreset::BevyInterpolated),
];

fn engines_setup(_: &LiveSettings) -> LiveSettings {
    compare(LiveSettings::default(), &ENGINES, 0)
}

/// Each engine stutters drawing its last step, and its interpolation takes that away.
fn engines_check(evidence: &Evidence) -> Verdict {
    let mut quoted = Vec::new();
    for pair in ENGINES.chunks(2) {
        let (Some(plain), Some(smooth)) = (evidence.pane(pair[0]), evidence.pane(pair[1])) else {
            return Verdict::Fails(
                "compare the four engine panes (Restart the chapter) to judge the claim".into(),
            );
        };
        let (stutter, smoothed) = (plain.stats.judder_ms, smooth.stats.judder_ms);
        quoted.push(format!(
            "{} {stutter:.1} ms, {} {smoothed:.2} ms",
            plain.strategy.id(),
            smooth.strategy.id()
        ));
        if stutter <= STUTTER * plain.dt_ms() {
            return Verdict::Fails(format!(
                "{} judder {stutter:.1} ms, under a fifth of its {:.1} ms step: its ticks \
                 line up with these frames ({:.1} fps), so there is no stutter to show",
                plain.strategy.id(),
                plain.dt_ms(),
                plain.stats.fps
            ));
        }
        if smoothed > stutter / 4.0 {
            return Verdict::Fails(format!(
                "{} judder {smoothed:.1} ms is not far below {}'s {stutter:.1} ms",
                smooth.strategy.id(),
                plain.strategy.id()
            ));
        }
    }
    Verdict::Holds(format!(
        "judder {}: each stutters drawing its last step and is smooth interpolated",
        quoted.join("; ")
    ))
}
