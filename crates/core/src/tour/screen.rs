//! The last chapter: what the screen shows. The loop measures each frame on its own clock,
//! but an image goes up only at a refresh (under vsync), stays up while the next is late,
//! or is never shown (mailbox): the screen's timing, modeled from the present mode and
//! refresh or measured where the platform reports presentation, is not the loop's.

use super::shared::{no_frames, other_strategy, single};
use super::{Evidence, Verdict};
use crate::display::DisplaySpec;
use crate::live::{DisplayTimesBy, LiveSettings};
use crate::timestep::{FilterSpec, Strategy};

/// Screen judder under this fraction of a refresh period is even: the frames reach the
/// screen as evenly as the loop measured them.
const EVEN_AT_THE_SCREEN: f64 = 0.1;

/// The frame cost the chapter adds, in refresh periods: frames that kept pace with the
/// refresh then come between one and two refreshes apart, so some miss one.
const MISSING_COST: f64 = 1.25;

pub(super) fn screen_setup(_: &LiveSettings) -> LiveSettings {
    // `variable` advances the game by each measured frame: against the loop's clock it
    // cannot judder, so all the judder at the screen is the screen's.
    single(Strategy::Variable, 60.0)
}

/// The loop's frames keep pace with the refresh (a fast machine under vsync): the screen
/// shows them as evenly as the loop measured them, and the chapter makes each frame cost
/// more than a refresh, as a heavier scene would.
pub(super) fn screen_adapt(evidence: &Evidence) -> Option<(LiveSettings, String)> {
    let pane = evidence.focused()?;
    let screen = &evidence.screen;
    if screen.shown_fps <= 0.0 || screen.refresh_hz <= 0.0 || tears(evidence) {
        return None;
    }
    let judder = pane.stats.display_judder_ms?;
    if judder > even_judder_ms(evidence) || evidence.settings.load.render_cost_ms != 0.0 {
        return None;
    }
    let cost_ms = (MISSING_COST * 1e3 / screen.refresh_hz * 10.0).round() / 10.0;
    let mut settings = evidence.settings;
    settings.load.render_cost_ms = cost_ms;
    let why = format!(
        "Each frame costs {cost_ms:.1} ms more (Artificial load: per frame): the frames kept \
         pace with the {:.0} Hz refresh, so the screen showed them as evenly as the loop \
         measured them ({:.2} ms); a heavier scene misses refreshes.",
        screen.refresh_hz, judder
    );
    Some((settings, why))
}

/// A game clock that follows the frames exactly is smooth on the loop's clock and judders
/// at the screen, which holds, repeats, drops or tears its images.
pub(super) fn screen_check(evidence: &Evidence) -> Verdict {
    let Some(pane) = evidence.focused() else {
        return no_frames();
    };
    if pane.strategy != Strategy::Variable {
        return other_strategy(pane, "variable");
    }
    let screen = &evidence.screen;
    if screen.shown_fps <= 0.0 || screen.refresh_hz <= 0.0 {
        return Verdict::Waiting("no frame has reached the screen yet".into());
    }
    let source = match screen.display_times {
        DisplayTimesBy::Model => "modeled",
        DisplayTimesBy::Measurement(_) => "measured",
    };
    let at_loop = pane.stats.judder_ms;
    let Some(at_screen) = pane.stats.display_judder_ms else {
        return Verdict::Waiting("no two frames have reached the screen yet".into());
    };
    if !(at_loop.is_finite() && at_screen.is_finite()) {
        return Verdict::Fails("the frames' judder could not be measured".into());
    }
    let even = even_judder_ms(evidence);
    if at_screen <= even {
        let cost = evidence.settings.load.render_cost_ms;
        let why = if tears(evidence) {
            format!(
                "immediate puts each image up as soon as it is ready, tearing ({:.0} \
                 refreshes a second torn), so no refresh holds a frame back and the screen \
                 shows the frames as the loop timed them; choose fifo or mailbox (Display)",
                screen.torn_per_s
            )
        } else if matches!(evidence.settings.filter, FilterSpec::Snap { .. }) {
            "the snap filter made each frame's time whole refreshes, the time the screen \
             shows it for: that is snapping's fix, for frames that keep pace with the \
             refresh"
                .into()
        } else if cost > 0.0 {
            format!(
                "the frames came whole refreshes apart even with {cost:.1} ms of work each \
                 (Artificial load: per frame); another cost, a little over a refresh, makes \
                 some miss one",
            )
        } else {
            format!(
                "the frames kept pace with the {:.0} Hz refresh; a frame costing more than a \
                 refresh (Artificial load: per frame) misses some",
                screen.refresh_hz
            )
        };
        return Verdict::Fails(format!(
            "at the {source} {} screen the frames judder {at_screen:.2} ms, under a tenth of \
             a refresh ({even:.2} ms): {why}",
            screen.model
        ));
    }
    if at_loop * 2.0 >= at_screen {
        return Verdict::Fails(format!(
            "variable judders {at_loop:.1} ms on the loop's own clock, half or more of the \
             {at_screen:.1} ms at the screen: the game clock did not follow the frames (a \
             guard dropping time, or the time scale); Restart the chapter"
        ));
    }
    Verdict::Holds(format!(
        "on the loop's clock variable judders {at_loop:.2} ms (it advances the game by each \
         frame it measured); at the {source} {} screen the same frames judder \
         {at_screen:.1} ms, more than a tenth of a refresh: {}",
        screen.model,
        what_the_screen_did(evidence)
    ))
}

/// The most judder at the screen, ms, that is even: a tenth of a refresh.
fn even_judder_ms(evidence: &Evidence) -> f64 {
    EVEN_AT_THE_SCREEN * 1e3 / evidence.screen.refresh_hz
}

/// Whether the screen puts images up as soon as they are ready (immediate: tearing).
fn tears(evidence: &Evidence) -> bool {
    matches!(evidence.screen.model, DisplaySpec::Immediate { .. })
}

/// What the screen did to the frames over the last second, in words.
fn what_the_screen_did(evidence: &Evidence) -> String {
    let screen = &evidence.screen;
    let mut parts = Vec::new();
    if let Some(pane) = evidence.focused() {
        parts.push(format!(
            "the loop measured frames of {:.1} ms (median; 99th percentile {:.1} ms)",
            pane.stats.frame_time_p50_ms, pane.stats.frame_time_p99_ms
        ));
    }
    parts.push(format!(
        "the screen put up {:.0} new images a second on {:.0} refreshes",
        screen.shown_fps, screen.refresh_hz
    ));
    let causes = &screen.repeated_by_cause;
    if causes.total() > 0 {
        let why: Vec<String> = crate::display::RepeatCause::ALL
            .iter()
            .filter(|&&cause| causes.get(cause) > 0)
            .map(|&cause| format!("{} {}", cause.label(), causes.get(cause)))
            .collect();
        let (count, refreshes) = match causes.total() {
            1 => (1, "refresh"),
            n => (n, "refreshes"),
        };
        parts.push(format!(
            "{count} {refreshes} showed the frame before again ({})",
            why.join(", ")
        ));
    }
    if screen.torn_per_s > 0.0 {
        parts.push(format!("{:.0} refreshes a second torn", screen.torn_per_s));
    }
    let dropped = evidence
        .focused()
        .map_or(0, |pane| pane.stats.dropped_frames);
    if dropped > 0 {
        parts.push(format!("{dropped} frames were never shown"));
    }
    parts.join("; ")
}
