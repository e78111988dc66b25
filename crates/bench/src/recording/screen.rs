//! The screen's lines of a recording: what the window said about it (`screen MODE HZ`) and
//! what the platform's presentation feedback says (`measured SOURCE [HZ at MS]`).

use timestep_lab_core::display::Refresh;
use timestep_lab_core::feedback::FeedbackSource;
use timestep_lab_core::live::{MeasuredFacts, PresentModeId, ScreenFacts};
use timestep_lab_core::text::escape;

use crate::trace::{exact_ns, ms_text};

/// `MODE HZ`, `-` for what is not known: `fifo 60`, `- -`.
pub(super) fn screen_text(facts: ScreenFacts) -> String {
    let mode = facts.present_mode.map_or("-", PresentModeId::id);
    let hz = facts
        .monitor_hz
        .map_or_else(|| "-".to_owned(), |hz| hz.to_string());
    format!("{mode} {hz}")
}

/// Reads [`screen_text`].
pub(super) fn parse_screen(text: &str) -> Result<ScreenFacts, String> {
    let mut words = text.split_whitespace();
    let (Some(mode), Some(hz), None) = (words.next(), words.next(), words.next()) else {
        return Err(format!(
            "screen \"{}\" is not a present mode and a refresh rate (e.g. \"fifo 60\", \"- -\")",
            escape(text)
        ));
    };
    let present_mode = match mode {
        "-" => None,
        id => Some(
            id.parse::<PresentModeId>()
                .map_err(|error| error.to_string())?,
        ),
    };
    let monitor_hz = match hz {
        "-" => None,
        hz => Some(
            hz.parse::<f64>()
                .ok()
                .filter(|hz| hz.is_finite() && *hz > 0.0)
                .ok_or_else(|| {
                    format!(
                        "refresh rate \"{}\" is not a positive number of Hz",
                        escape(hz)
                    )
                })?,
        ),
    };
    Ok(ScreenFacts {
        present_mode,
        monitor_hz,
    })
}

/// `SOURCE`, `SOURCE HZ` with the measured refresh, or `SOURCE HZ at MS` with its measured
/// vblank too (when a refresh starts, on the stopwatch, less whole periods); `-` when
/// nothing measures the screen.
pub(super) fn measured_text(facts: Option<MeasuredFacts>) -> String {
    match facts {
        None => "-".to_owned(),
        Some(MeasuredFacts {
            source,
            refresh: None,
            ..
        }) => source.id().to_owned(),
        Some(MeasuredFacts {
            source,
            refresh: Some(refresh),
            vblank: false,
        }) => format!("{source} {}", refresh.hz()),
        Some(MeasuredFacts {
            source,
            refresh: Some(refresh),
            vblank: true,
        }) => format!("{source} {} at {}", refresh.hz(), ms_text(refresh.phase())),
    }
}

/// Reads [`measured_text`].
pub(super) fn parse_measured(text: &str) -> Result<Option<MeasuredFacts>, String> {
    let text = text.trim();
    if text == "-" {
        return Ok(None);
    }
    let (source, rest) = text.split_once(' ').unwrap_or((text, ""));
    let source = source
        .parse::<FeedbackSource>()
        .map_err(|error| error.to_string())?;
    let rest = rest.trim();
    let (refresh, vblank) = if rest.is_empty() {
        (None, false)
    } else {
        let (hz, phase) = rest.split_once(" at ").unwrap_or((rest, ""));
        let hz = hz.trim().parse::<f64>().map_err(|_| {
            format!(
                "measured refresh \"{}\" is not HZ or HZ at MS (e.g. \"60 at 4.2\")",
                escape(rest)
            )
        })?;
        let refresh = Refresh::new(hz)?;
        if phase.is_empty() {
            (Some(refresh), false)
        } else {
            let phase = exact_ns(phase.trim()).ok_or_else(|| {
                format!(
                    "refresh phase \"{}\" is not a time in ms (0 or more)",
                    escape(phase.trim())
                )
            })?;
            (Some(refresh.with_phase(phase)), true)
        }
    };
    Ok(Some(MeasuredFacts {
        source,
        refresh,
        vblank,
    }))
}
