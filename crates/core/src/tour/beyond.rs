//! The chapters beyond "Fix Your Timestep!": drawing past the last step (extrapolation)
//! against a curve through the last two (Hermite), a camera that moves every frame against
//! a sphere that moves in steps, a look turned every frame on a body that walks in steps,
//! and input read per frame against steps that come zero, one or several to a frame.

use super::shared::{STUTTER, compare, no_frames, not_watched, other_rate, single};
use super::{Drive, Evidence, PaneEvidence, Verdict};
use crate::input::{InputPolicy, MoveKey};
use crate::live::{LiveSettings, ScenePreset};
use crate::scene::{CameraDriver, CameraView, DEFAULT_PLAYER_SPEED_MPS, Integrator};
use crate::timestep::Strategy;

/// Key events read before the input claim is judged: enough for a frame without a step
/// and one of two steps to have read some.
const INPUTS_TO_JUDGE: u64 = 20;

/// Kicks landed before the extrapolation claim is judged.
const KICKS_TO_JUDGE: u64 = 2;

/// A drawn spring closer than this to the curve, metres, is on it (a millimetre).
const ON_THE_CURVE_M: f64 = 1e-3;

/// The extrapolation chapter's panes: the line between the last two states, the guess
/// past the last one, and the curve between the last two.
const DRAWINGS: [Strategy; 3] = [
    Strategy::Interpolated,
    Strategy::VelocityExtrapolated,
    Strategy::Hermite,
];

pub(super) fn extrapolation_setup(_: &LiveSettings) -> LiveSettings {
    let mut settings = compare(single(Strategy::Interpolated, 30.0), &DRAWINGS, 1);
    // Steps that follow the exact curve, so what each pane draws between or past them is
    // measured against it, not against the integrator's own error.
    settings.integrator = Integrator::Rk4;
    settings
}

/// Extrapolation draws a future a kick then contradicts; Hermite follows the curve the
/// interpolation line cuts.
pub(super) fn extrapolation_check(evidence: &Evidence) -> Verdict {
    let guess = evidence
        .panes
        .iter()
        .filter(|pane| {
            matches!(
                pane.strategy,
                Strategy::Extrapolated | Strategy::VelocityExtrapolated
            )
        })
        .max_by(|a, b| kick_error_m(a).total_cmp(&kick_error_m(b)));
    let (Some(line), Some(guess), Some(hermite)) = (
        evidence.pane(Strategy::Interpolated),
        guess,
        evidence.pane(Strategy::Hermite),
    ) else {
        return Verdict::Fails(
            "the claim compares interpolated, an extrapolation and hermite panes: Restart \
             the chapter to set them up"
                .into(),
        );
    };
    let (Some(line_fit), Some(guess_fit), Some(hermite_fit)) =
        (line.spring(), guess.spring(), hermite.spring())
    else {
        return not_watched();
    };
    if [line, guess, hermite].iter().any(|pane| pane.exploded) {
        return Verdict::Fails(
            "the spring exploded: the steps are too long for the integrator; Reset (R)".into(),
        );
    }
    if evidence.tally.kicks < KICKS_TO_JUDGE {
        return Verdict::Waiting(format!(
            "{} of {KICKS_TO_JUDGE} kicks landed; the tour kicks the spring every second \
             (Space kicks it too)",
            evidence.tally.kicks
        ));
    }
    // A kick can contradict at most what was drawn past the start of the step it lands
    // in: its velocity for up to a step. Below an eighth of that, the frames drew next to
    // no future.
    let visible = evidence.kick_mps.abs() * guess.dt_ms() / 1e3 / 8.0;
    if guess_fit.kick_error_m <= visible {
        return Verdict::Fails(format!(
            "{} drew the spring at most {:.1} mm from where the kicks put it: its frames \
             came right after its steps, so it drew next to nothing past them; {}",
            guess.strategy.id(),
            mm(guess_fit.kick_error_m),
            other_rate(guess)
        ));
    }
    let cut = line_fit.curve_error_m;
    if cut < ON_THE_CURVE_M {
        return Verdict::Fails(format!(
            "the interpolated line is within {:.2} mm of the curve: steps of {:.1} ms are too \
             short for a straight line to cut it; lower the physics rate (Physics)",
            mm(cut),
            line.dt_ms()
        ));
    }
    if hermite_fit.curve_error_m > cut / 4.0 {
        return Verdict::Fails(format!(
            "hermite is {:.2} mm off the curve, the interpolated line {:.2} mm: the {} \
             integrator's steps leave the exact curve, so neither follows it; choose rk4 \
             (Physics)",
            mm(hermite_fit.curve_error_m),
            mm(cut),
            evidence.settings.integrator.id()
        ));
    }
    // A straight-line guess also overshoots where the spring turns; a render tick
    // (extrapolated) steps along the curve instead.
    let turns = if guess_fit.curve_error_m > ON_THE_CURVE_M {
        format!(
            ", and up to {:.0} mm past the curve where the spring turns",
            mm(guess_fit.curve_error_m)
        )
    } else {
        String::new()
    };
    Verdict::Holds(format!(
        "{}: {:.0} mm from where a kick put the spring, a future without the kick{turns}; \
         hermite within {:.2} mm of the curve the interpolated line cuts by {:.1} mm",
        guess.strategy.id(),
        mm(guess_fit.kick_error_m),
        mm(hermite_fit.curve_error_m),
        mm(cut)
    ))
}

/// How far a pane drew from where a kick put the spring, m; 0 where not watched.
fn kick_error_m(pane: &&PaneEvidence) -> f64 {
    pane.spring().map_or(0.0, |fit| fit.kick_error_m)
}

pub(super) fn camera_setup(_: &LiveSettings) -> LiveSettings {
    let mut settings = single(Strategy::Accumulator, 50.0);
    ScenePreset::CameraVsSphere.apply(&mut settings);
    settings
}

/// Against a camera that moves every frame, the accumulator's sphere jumps and the
/// interpolated one glides.
pub(super) fn camera_check(evidence: &Evidence) -> Verdict {
    let (plain, smooth) = match stepped_and_blended(evidence) {
        Ok(panes) => panes,
        Err(verdict) => return verdict,
    };
    let (Some(jumpy), Some(steady)) = (plain.screen_jitter_deg(), smooth.screen_jitter_deg())
    else {
        return not_watched();
    };
    let (camera, view) = (evidence.settings.camera, evidence.settings.view);
    if view != CameraView::Orbit {
        return Verdict::Fails(format!(
            "the view is {}: the claim is about the orbiting camera; set the view (Player \
             and input) to orbit",
            view.id()
        ));
    }
    if camera != CameraDriver::PerFrame {
        return Verdict::Fails(format!(
            "the camera is {}: moved by the steps, not every frame, so the accumulator's \
             sphere holds still against it ({jumpy:.2} deg a frame) and the whole view \
             judders instead; set the camera driver (Physics) to per-frame",
            camera.id()
        ));
    }
    if !(jumpy.is_finite() && steady.is_finite()) {
        return Verdict::Fails("the sphere's place on screen could not be measured".into());
    }
    if plain.stats.judder_ms <= STUTTER * plain.dt_ms() {
        return Verdict::Fails(format!(
            "accumulator judder {:.1} ms, under a fifth of dt: its steps line up with the \
             frames, so the sphere keeps pace with the camera ({jumpy:.2} deg a frame); {}",
            plain.stats.judder_ms,
            other_rate(plain)
        ));
    }
    if steady > jumpy / 4.0 {
        return Verdict::Fails(format!(
            "the interpolated sphere jitters {steady:.2} deg a frame against the camera, the \
             accumulator's {jumpy:.2} deg: the frames are too uneven for a blend of the last \
             two steps to hide"
        ));
    }
    Verdict::Holds(format!(
        "against the camera, which turns every frame, the accumulator's sphere jitters \
         {jumpy:.2} deg a frame (RMS) while the grid glides; the interpolated sphere \
         {steady:.3} deg: drawn between its steps, it moves with the camera"
    ))
}

/// The accumulator's pane and the interpolated one, which the camera chapters compare.
fn stepped_and_blended(evidence: &Evidence) -> Result<(&PaneEvidence, &PaneEvidence), Verdict> {
    match (
        evidence.pane(Strategy::Accumulator),
        evidence.pane(Strategy::Interpolated),
    ) {
        (Some(plain), Some(smooth)) => Ok((plain, smooth)),
        _ => Err(Verdict::Fails(
            "the claim compares an accumulator pane with an interpolated one: Restart the \
             chapter to set them up"
                .into(),
        )),
    }
}

/// The tour's walk in the first-person chapter: stepping right at 4 m/s while the view
/// turns left at 4/9 rad/s, the player circles the pivot 9 m away, facing it (a circle
/// strafe), so the sphere and the spring stay in view while the world sweeps past.
pub(super) const CIRCLE_STRAFE: Drive = Drive::Walk {
    key: MoveKey::Right,
    turn_rad_per_s: -DEFAULT_PLAYER_SPEED_MPS / 9.0,
};

/// Slower than this, m/s, the player is not walking (the tour walks it at 4 m/s).
const WALKING_MPS: f64 = 1.0;

pub(super) fn first_person_setup(_: &LiveSettings) -> LiveSettings {
    let mut settings = compare(
        single(Strategy::Accumulator, 50.0),
        &[Strategy::Accumulator, Strategy::Interpolated],
        0,
    );
    settings.view = CameraView::Player;
    settings.camera = CameraDriver::PerFrame;
    settings
}

/// Walking in first person, the eyes ride a body that moves in steps: under the
/// accumulator they jump through the world and it judders though the look turns
/// smoothly; interpolated, they glide.
pub(super) fn first_person_check(evidence: &Evidence) -> Verdict {
    let (plain, smooth) = match stepped_and_blended(evidence) {
        Ok(panes) => panes,
        Err(verdict) => return verdict,
    };
    let (camera, view) = (evidence.settings.camera, evidence.settings.view);
    if view != CameraView::Player {
        return Verdict::Fails(format!(
            "the view is {}: the claim is about the player's eyes; set the view (Player and \
             input) to player",
            view.id()
        ));
    }
    if camera != CameraDriver::PerFrame {
        return Verdict::Fails(format!(
            "the camera is {}: the claim is about a look turned every frame on a body moved \
             in steps; set the camera driver (Physics) to per-frame",
            camera.id()
        ));
    }
    let (Some(plain_eyes), Some(smooth_eyes)) = (plain.eyes(), smooth.eyes()) else {
        return not_watched();
    };
    let (jumpy, steady) = (plain_eyes.jitter_m, smooth_eyes.jitter_m);
    if !(jumpy.is_finite() && steady.is_finite()) {
        return Verdict::Fails("the eyes' path could not be measured".into());
    }
    let speed = plain_eyes.speed_mps;
    if speed < WALKING_MPS {
        return Verdict::Fails(format!(
            "the player walked at {speed:.1} m/s: standing still, the eyes cannot judder; \
             the tour holds right (let go of A or ←), or Restart the chapter"
        ));
    }
    if plain.stats.judder_ms <= STUTTER * plain.dt_ms() {
        return Verdict::Fails(format!(
            "accumulator judder {:.1} ms, under a fifth of dt: its steps line up with the \
             frames, so its eyes move as evenly as the frames ({:.1} mm a frame); {}",
            plain.stats.judder_ms,
            mm(jumpy),
            other_rate(plain)
        ));
    }
    if steady > jumpy / 4.0 {
        return Verdict::Fails(format!(
            "the interpolated eyes' pace changes by {:.1} mm a frame, the accumulator's by \
             {:.1} mm: the frames are too uneven for a blend of the last two steps to hide",
            mm(steady),
            mm(jumpy)
        ));
    }
    Verdict::Holds(format!(
        "walking at {speed:.1} m/s, the accumulator's eyes move in {:.0} mm steps: their pace \
         changes by {:.1} mm a frame (RMS) and the world judders while the look turns \
         smoothly; the interpolated eyes {:.2} mm: they glide",
        mm(speed * plain.dt_ms() / 1e3),
        mm(jumpy),
        mm(steady)
    ))
}

pub(super) fn input_setup(_: &LiveSettings) -> LiveSettings {
    let mut settings = single(Strategy::Accumulator, 50.0);
    settings.load.hitch_ms = 60.0;
    settings.load.hitch_every_s = 0.5;
    settings
}

/// Input read once per frame is lost in a frame that takes no step (first-step) and
/// applied again on each extra step (every-step); buffered keeps each event once.
pub(super) fn input_check(evidence: &Evidence) -> Verdict {
    let Some(pane) = evidence.focused() else {
        return no_frames();
    };
    let first = evidence.input(InputPolicy::FirstStep);
    let every = evidence.input(InputPolicy::EveryStep);
    let buffered = evidence.input(InputPolicy::Buffered);
    if first.read < INPUTS_TO_JUDGE {
        return Verdict::Waiting(format!(
            "{} of {INPUTS_TO_JUDGE} key events read; the tour presses the movement keys \
             ten times a second",
            first.read
        ));
    }
    let stepless =
        100.0 * evidence.tally.stepless_frames as f64 / evidence.tally.frames.max(1) as f64;
    if first.lost == 0 {
        return Verdict::Fails(format!(
            "first-step lost none of {} key events: every frame took a step ({stepless:.0}% \
             took none), so there was no frame to lose one in; {}",
            first.read,
            steps_advice(pane)
        ));
    }
    if every.duplicated == 0 {
        return Verdict::Fails(format!(
            "every-step applied none of {} key events twice: no frame that read one took \
             two steps; a hitch (Artificial load) makes such frames",
            every.read
        ));
    }
    if buffered.lost + buffered.duplicated > 0 {
        return Verdict::Fails(format!(
            "buffered lost {} and duplicated {} key events: its queue filled; fewer inputs a \
             frame keep it",
            buffered.lost, buffered.duplicated
        ));
    }
    Verdict::Holds(format!(
        "first-step lost {} of {} key events (read in frames that took no step, {stepless:.0}% \
         of frames); every-step applied {} more than once (frames of several steps); \
         buffered lost none and applied none twice: it queues each for the next step",
        first.lost, first.read, every.duplicated
    ))
}

/// What to change when every frame takes a step.
fn steps_advice(pane: &PaneEvidence) -> String {
    if pane.strategy.carries_accumulator() {
        other_rate(pane)
    } else {
        format!(
            "{} takes a step every frame; choose accumulator (Restart the chapter)",
            pane.strategy.id()
        )
    }
}

/// Metres in millimetres.
fn mm(m: f64) -> f64 {
    m * 1e3
}
