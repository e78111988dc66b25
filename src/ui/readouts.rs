//! The live numbers: a row per readout, each explaining itself on hover, and what the
//! screen behind the starred ones is: measured, or modeled.

use super::shared::ms;
use crate::display::DisplaySpec;
use crate::live::{DisplayTimesBy, Readouts, RefreshSource, ScreenReadouts};

/// A screen readout where no frame reached the screen: no value, not 0.
pub(super) const NO_FRAME_SHOWN: &str = "-";

/// The live numbers.
pub(super) fn readouts_ui(ui: &mut egui::Ui, r: &Readouts) {
    let w = &r.window;
    let shown_on = shown_on(&r.screen);
    egui::Grid::new("readouts")
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            let mut row = |name: &str, value: String, help: &str| {
                ui.label(name).on_hover_text(help);
                ui.monospace(value).on_hover_text(help);
                ui.end_row();
            };
            row(
                "fps / presents",
                format!("{:.1} / {:.1} Hz", w.fps, r.present_rate_hz),
                "Render frames per second over the last second, and frames handed to the \
                 display per second (measured).",
            );
            row(
                "frame p50 / p99",
                format!(
                    "{} / {} ms",
                    ms(w.frame_time_p50_ms),
                    ms(w.frame_time_p99_ms)
                ),
                "Median and 99th-percentile real frame time over the last second.",
            );
            row(
                "steps now / mean / max",
                format!(
                    "{} / {:.2} / {}",
                    r.steps_this_frame, w.steps_mean, w.steps_max
                ),
                "Physics steps the last frame took, and their mean and maximum per frame \
                 over the last second.",
            );
            row(
                "alpha",
                format!("{:.3}", r.alpha),
                "Carried time over dt after the last frame's steps: how far between its \
                 last two states interpolation draws (0 for strategies without an \
                 accumulator).",
            );
            row(
                "sim speed",
                format!("{:.3}x", w.sim_speed),
                "Simulated time advanced over real time elapsed in the last second. Below 1 \
                 the game runs slow: a step cap or the frame-time clamp dropping time, or \
                 the time scale.",
            );
            row(
                "simulated / presented",
                format!("{:.2} / {:.2} s", r.sim_time_s, r.real_time_s),
                "Simulated time of the latest state, and the real time presented so far \
                 (frame times after the guards; dropped time excluded).",
            );
            row(
                "owed / carried",
                format!("{} / {} ms", ms(r.owed_ms), ms(r.accumulator_ms)),
                "Time the last frame had to simulate (carried time plus its frame time), \
                 and the time left over for the next frame (the accumulator).",
            );
            row(
                "dropped / resynced",
                format!("{:.3} / {:+.3} s", r.dropped_total_s, r.resynced_s),
                "Real time thrown away by the spiral guards since the start; and how far \
                 real time was moved to meet the simulation on leaving fixed (negative: \
                 fixed had fallen behind and that time was let go), so the strategy switched \
                 to starts in step instead of inheriting fixed's drift.",
            );
            row(
                "latency",
                format!("{:.2} ms", w.latency_ms),
                "Mean T - S over the last second: how far the drawn state is behind real \
                 time on the CPU's clock. Interpolation adds one dt.",
            );
            row(
                "judder",
                format!("{:.3} ms", w.judder_ms),
                "RMS of (S_i - S_i-1) - (T_i - T_i-1): how unevenly the drawn motion advances \
                 against the frame times. 0 is even motion; this is the stutter.",
            );
            row(
                "screen latency*",
                w.display_latency_ms
                    .map_or_else(|| NO_FRAME_SHOWN.to_owned(), |ms| format!("{ms:.2} ms")),
                &format!(
                    "Mean D - S over frames shown {shown_on}: how old the drawn state is when \
                     its image reaches the screen."
                ),
            );
            row(
                "screen judder*",
                w.display_judder_ms
                    .map_or_else(|| NO_FRAME_SHOWN.to_owned(), |ms| format!("{ms:.3} ms")),
                &format!(
                    "RMS animation error (S_i - S_j) - (D_i - D_j) over frames shown \
                     {shown_on}, j the previous shown one: PresentMon's MsAnimationError. \
                     Vsync wobble shows here and not in the judder above."
                ),
            );
            let screen = &r.screen;
            let causes = screen.repeated_by_cause;
            row(
                "new / repeated*",
                format!(
                    "{:.1} / {:.0} per s",
                    screen.shown_fps, screen.repeated_per_s
                ),
                &format!(
                    "New images and refreshes that showed the previous image again, per \
                     second, on the modeled screen. Each repeat is blamed on one cause; over \
                     the last second: {} CPU late (the frame was presented after the refresh \
                     started), {} GPU late (presented in time, its image ready after), {} \
                     queue full (the frame started late waiting for a free image), {} VRR \
                     (low-framerate compensation).",
                    causes.cpu_late, causes.gpu_late, causes.queue_full, causes.display
                ),
            );
            // Rows never come and go: the ones below stay under the cursor.
            let (value, help) = measured_screen(screen);
            row("measured screen", value, &help);
            row(
                "dropped / torn*",
                format!("{} / {:.0} per s", w.dropped_frames, screen.torn_per_s),
                "Frames rendered but replaced before a refresh showed them (mailbox), and \
                 refreshes torn by an image arriving mid-scan (immediate).",
            );
            row(
                "energy drift",
                format!("{:+.4}", r.energy_drift),
                "(E - E_true) / E_0 of the spring: positive gains energy (explicit Euler \
                 explodes this way), negative loses it.",
            );
            row(
                "load carried",
                format!("{:.1} ms", r.carried_load_ms),
                "Artificial load beyond what one frame busy-waits (250 ms), added to the \
                 next frame's time so the window stays responsive.",
            );
        });
    ui.small(screen_footnote(&r.screen));
}

/// The footnote of the starred readouts: where their display times come from.
pub(super) fn screen_footnote(screen: &ScreenReadouts) -> String {
    match screen.display_times {
        DisplayTimesBy::Model => format!(
            "* at the screen, modeled: {} ({}). {}",
            screen_model(screen),
            refresh_source(screen.refresh_source),
            measurement_note(screen)
        ),
        DisplayTimesBy::Measurement(source) => format!(
            "* at the screen, measured ({}): every frame's display time is the platform's. \
             Repeats, drops, tears and late frames are the model's, {} ({}), scored against \
             it in the measured screen row.",
            source_label(source),
            screen_model(screen),
            refresh_source(screen.refresh_source),
        ),
    }
}

/// Where frames shown are seen, for the starred rows' hover text.
fn shown_on(screen: &ScreenReadouts) -> String {
    match screen.display_times {
        DisplayTimesBy::Model => "on the modeled screen".to_owned(),
        DisplayTimesBy::Measurement(source) => {
            format!("on the screen, measured ({})", source_label(source))
        }
    }
}

/// A measurement's source in words; a recording that does not name it says so.
pub(super) fn source_label(source: Option<crate::feedback::FeedbackSource>) -> &'static str {
    source.map_or("recorded", |source| source.label())
}

/// Whether the platform's presentation feedback measures the screen, in a sentence.
pub(super) fn measurement_note(screen: &ScreenReadouts) -> String {
    match (screen.measured, screen.unmeasured) {
        (Some(measured), _) if measured.counts.shown + measured.counts.discarded > 0 => {
            format!(
                "The screen is measured too ({}): see the measured screen row.",
                measured.source.label()
            )
        }
        (Some(measured), _) => format!("Waiting for {} to answer.", measured.source.label()),
        (None, Some(reason)) => format!("Not measured: {reason}."),
        (None, None) => "Not measured: the window reads no presentation feedback.".to_owned(),
    }
}

/// The measured screen's row: its refresh and how far the model is off, and the details
/// on hover; or that nothing measures it, and why.
fn measured_screen(screen: &ScreenReadouts) -> (String, String) {
    let Some(measured) = screen
        .measured
        .filter(|m| m.counts.shown + m.counts.discarded > 0)
    else {
        let why = screen
            .unmeasured
            .unwrap_or("the platform has not answered a present yet");
        return (
            "not measured".to_owned(),
            format!(
                "The platform's presentation feedback (Wayland presentation-time, X11 \
                 Present) says when each image really reached the screen. None here: {why}. \
                 The starred numbers come from the model alone."
            ),
        );
    };
    let rate = match measured.refresh_hz() {
        Some(hz) if measured.variable => format!("vrr ~{hz:.1} Hz"),
        Some(hz) => format!("{hz:.2} Hz"),
        None => "? Hz".to_owned(),
    };
    let score = measured.score;
    let counts = measured.counts;
    (
        format!("{rate}, {:+.1} ms", score.mean_ms()),
        format!(
            "Measured by {}: {} of {} presents answered ({} shown, {} discarded; {} answers \
             ignored: late, twice, for an old surface or on another clock). The model \
             predicted each shown frame's display time off by {:.2} ms on average ({:+.2} ms \
             with sign: positive, the screen was later; worst {:.2} ms), and agreed on shown \
             or dropped for {:.1}% of {} frames. A compositor that holds each frame for its \
             own repaint shows here as a steady positive offset.",
            measured.source.label(),
            counts.shown + counts.discarded,
            counts.presents,
            counts.shown,
            counts.discarded,
            counts.ignored(),
            score.mean_abs_ms(),
            score.mean_ms(),
            score.worst as f64 / 1e6,
            score.agreement() * 100.0,
            score.judged()
        ),
    )
}

/// The screen model in words, e.g. "FIFO 60 Hz, 2 in flight".
/// Rates to a thousandth of a hertz: a measured one is not a round number.
pub(super) fn screen_model(screen: &ScreenReadouts) -> String {
    match screen.model {
        DisplaySpec::Fifo { refresh, queue } => {
            format!("FIFO {} Hz, {queue} in flight", trim_hz(refresh.hz()))
        }
        DisplaySpec::Mailbox { refresh } => format!("mailbox {} Hz", trim_hz(refresh.hz())),
        DisplaySpec::Immediate { refresh } => {
            format!("immediate on {} Hz", trim_hz(refresh.hz()))
        }
        other => other.to_string(),
    }
}

/// Where a monitor's rate comes from, in words: the window system's report natively; on a
/// page, which is told none, the browser's frame stamps (`app::page::PageClock`).
pub const MONITOR_RATE: &str = if cfg!(target_arch = "wasm32") {
    "the rate of the browser's frames"
} else {
    "the monitor's rate"
};

/// Where the modeled refresh rate comes from, in words.
pub(super) fn refresh_source(source: RefreshSource) -> &'static str {
    match source {
        RefreshSource::Monitor => MONITOR_RATE,
        RefreshSource::Override => "rate set in Display",
        RefreshSource::Assumed => "assumed: the monitor reports no rate",
        RefreshSource::Measured { vblank: true } => "the measured refresh and vblank",
        RefreshSource::Measured { vblank: false } => {
            "the measured refresh; its vblank unmeasured: the images land on no refresh grid"
        }
    }
}

/// A display model as its spec, short enough for a caption, its rates to a thousandth of a
/// hertz (a measured one is not a round number): `fifo:60:2`.
pub(in crate::ui) fn model_spec(model: DisplaySpec) -> String {
    match model {
        DisplaySpec::Fifo { refresh, queue } => format!("fifo:{}:{queue}", trim_hz(refresh.hz())),
        DisplaySpec::Mailbox { refresh } => format!("mailbox:{}", trim_hz(refresh.hz())),
        DisplaySpec::Immediate { refresh } => format!("immediate:{}", trim_hz(refresh.hz())),
        other => other.to_string(),
    }
}

/// A refresh rate without needless decimals.
fn trim_hz(hz: f64) -> String {
    let text = format!("{hz:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}
