//! The exit summary of a window run: what it did, printed for people and read by the
//! window tests (`frames: 120`, `present modes configured: ...`). No window type here.

use std::path::PathBuf;

use super::frame_costs::FrameCosts;
use crate::feedback::MeasuredReadouts;
use crate::live::{
    LiveLoop, PresentModeId, Ramp, RampPhase, RefreshSource, ScreenReadouts, SlowLoop, Stopwatch,
};
use crate::text::escape_path;
use crate::timestep::{Nanos, Strategy};

/// What a window run did, printed on exit for people and tests.
#[derive(Clone, Debug, Default)]
pub struct WindowSummary {
    /// Frames drawn.
    pub frames: u64,
    /// When the first and the last frame were presented, on the loop's stopwatch.
    pub presented: Option<(Nanos, Nanos)>,
    /// Present modes the surface reported.
    pub offered: Vec<PresentModeId>,
    /// Every present mode the surface was configured with, in order.
    pub configured: Vec<PresentModeId>,
    /// Errors reported while configuring the surface.
    pub configure_errors: Vec<String>,
    /// The adapter.
    pub adapter: String,
    /// How finely frames were drawn on it, in words.
    pub drawing: String,
    /// The strategy of each pane at the end, in pane order.
    pub panes: Vec<Strategy>,
    /// Whether the spiral banner was up at the end.
    pub spiral: bool,
    /// The screenshot written, if any: its file, its size in physical pixels and the
    /// window's scale factor (physical pixels per logical point).
    pub screenshot: Option<(PathBuf, (u32, u32), f64)>,
    /// Where the settings were saved on closing, if they were.
    pub saved: Option<PathBuf>,
    /// The last slow-loop offer the panel made (see [`SlowLoop`]), if it made one.
    pub slow_loop: Option<SlowLoop>,
    /// Recordings written: the file and its frames.
    pub recorded: Vec<(PathBuf, u64)>,
    /// The replay at the end: frames run and frames in it.
    pub replayed: Option<(usize, usize)>,
    /// Why the replay stopped before its last frame, if it did (escaped).
    pub replay_error: Option<String>,
    /// The final `state_hash` of each pane, in pane order.
    pub state_hashes: Vec<u64>,
    /// Movement key presses and releases sent to the loop.
    pub key_inputs: u64,
    /// Mouse turns sent to the loop.
    pub look_inputs: u64,
    /// The focused pane's player at the end: yaw and pitch (degrees), where it stands.
    pub player: Option<(f64, f64, glam::DVec3)>,
    /// The last load ramp, in words: how it ended and each pane's onset.
    pub ramp: Option<String>,
    /// Where the display times came from, and what the measurement found, in lines.
    pub display_times: Vec<String>,
    /// The guided tour's chapter at the end and its check, when the tour ran.
    pub tour: Option<String>,
    /// The main thread's work in each frame drawn: from the frame's start to its present,
    /// less the waits to acquire the swap chain's image and to present it (a frame that
    /// wrote the screenshot left out).
    pub main_thread: FrameCosts,
}

impl std::fmt::Display for WindowSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids =
            |modes: &[PresentModeId]| modes.iter().map(|m| m.id()).collect::<Vec<_>>().join(",");
        writeln!(f, "adapter: {}", crate::text::escape(&self.adapter))?;
        if !self.drawing.is_empty() {
            writeln!(f, "drawing: {}", self.drawing)?;
        }
        writeln!(f, "frames: {}", self.frames)?;
        if let Some(fps) = self.fps() {
            writeln!(f, "{fps}")?;
        }
        if let Some(work) = self.main_thread.stats() {
            writeln!(
                f,
                "main thread: median {:.3} ms, p99 {:.3} ms a frame ({} frames; the frame's \
                 work to its present, less the waits to acquire and present the image)",
                work.median_ms, work.p99_ms, work.frames
            )?;
        }
        writeln!(f, "present modes offered: {}", ids(&self.offered))?;
        writeln!(f, "present modes configured: {}", ids(&self.configured))?;
        writeln!(f, "configure errors: {}", self.configure_errors.len())?;
        for error in &self.configure_errors {
            writeln!(f, "  {error}")?;
        }
        let panes: Vec<&str> = self.panes.iter().map(|s| s.id()).collect();
        writeln!(f, "panes: {}", panes.join(","))?;
        writeln!(f, "spiral: {}", if self.spiral { "yes" } else { "no" })?;
        match self.slow_loop {
            Some(offer) => writeln!(
                f,
                "slow renderer offer: {:.1} fps, time scale {:.3}",
                offer.fps, offer.time_scale
            )?,
            None => writeln!(f, "slow renderer offer: none")?,
        }
        if let Some((path, (width, height), scale)) = &self.screenshot {
            writeln!(
                f,
                "screenshot: {} ({width}x{height} physical pixels, scale factor {scale})",
                escape_path(path)
            )?;
        }
        if let Some(path) = &self.saved {
            writeln!(f, "settings saved: {}", escape_path(path))?;
        }
        for (path, frames) in &self.recorded {
            writeln!(f, "recorded: {frames} frames to {}", escape_path(path))?;
        }
        if let Some((frame, frames)) = self.replayed {
            writeln!(f, "replayed: {frame} of {frames} frames")?;
        }
        if let Some(error) = &self.replay_error {
            writeln!(f, "{error}")?;
        }
        if let Some(ramp) = &self.ramp {
            writeln!(f, "{ramp}")?;
        }
        if let Some(tour) = &self.tour {
            writeln!(f, "{tour}")?;
        }
        for line in &self.display_times {
            writeln!(f, "{line}")?;
        }
        let hashes: Vec<String> = self
            .state_hashes
            .iter()
            .map(|hash| format!("{hash:016x}"))
            .collect();
        writeln!(f, "state hashes: {}", hashes.join(","))?;
        writeln!(
            f,
            "inputs: {} key presses and releases, {} mouse turns",
            self.key_inputs, self.look_inputs
        )?;
        if let Some((yaw, pitch, eye)) = self.player {
            writeln!(
                f,
                "player: yaw {yaw:.1} deg, pitch {pitch:.1} deg, at x {:.3} z {:.3} m",
                eye.x, eye.z
            )?;
        }
        Ok(())
    }
}

impl WindowSummary {
    /// Notes a frame presented at `at` on the loop's stopwatch.
    pub fn presented_at(&mut self, at: Nanos) {
        let first = self.presented.map_or(at, |(first, _)| first);
        self.presented = Some((first, at));
    }

    /// The frame rate over the run, in words: the frames after the first over the time
    /// from the first present to the last (none before two frames).
    pub fn fps(&self) -> Option<String> {
        let (first, last) = self.presented?;
        let span = last.checked_sub(first).filter(|&span| span > 0)?;
        let seconds = span as f64 / 1e9;
        let intervals = self.frames.saturating_sub(1);
        Some(format!(
            "fps: {:.1} ({intervals} frame intervals in {seconds:.3} s)",
            intervals as f64 / seconds
        ))
    }

    /// Takes the loop's state at the end of the run: each pane's strategy and state hash,
    /// and where the focused pane's player stands.
    pub fn take_end_state<S: Stopwatch>(&mut self, live: &LiveLoop<S>) {
        self.panes = live.panes().iter().map(|pane| pane.strategy()).collect();
        self.state_hashes = live
            .panes()
            .iter()
            .map(|pane| pane.run_metrics().state_hash)
            .collect();
        self.ramp = live.ramp().map(ramp_summary);
        let screen = live.snapshot().readouts.screen;
        self.display_times = display_times(screen.measured, screen.unmeasured);
        self.display_times.push(model_refresh(&screen));
        let player = live.sim().scene().current().player;
        self.player = Some((
            player.look.yaw.to_degrees(),
            player.look.pitch.to_degrees(),
            player.eye,
        ));
    }
}

/// Where the display times came from, in lines: `display times: measured (SOURCE), K of N
/// frames`, the measured refresh and the model's error against it; or `display times:
/// modeled (REASON)`.
pub fn display_times(
    measured: Option<MeasuredReadouts>,
    unmeasured: Option<&'static str>,
) -> Vec<String> {
    let Some(measured) = measured else {
        let reason = unmeasured.unwrap_or("the window found no presentation feedback to read");
        return vec![format!("display times: modeled ({reason})")];
    };
    let counts = measured.counts;
    let answered = counts.shown + counts.discarded;
    if answered == 0 {
        return vec![format!(
            "display times: modeled (no feedback came from {} in {} presents)",
            measured.source.label(),
            counts.presents
        )];
    }
    let mut lines = vec![format!(
        "display times: measured ({}), {answered} of {} frames ({} shown, {} discarded, {} \
         feedback ignored)",
        measured.source.label(),
        counts.presents,
        counts.shown,
        counts.discarded,
        counts.ignored()
    )];
    match measured.refresh_hz() {
        Some(hz) if measured.variable => {
            lines.push(format!("measured refresh: vrr, median {hz:.2} Hz"));
        }
        Some(hz) => lines.push(format!("measured refresh: {hz:.2} Hz")),
        None => lines.push("measured refresh: unknown (fewer than two images shown)".into()),
    }
    let score = measured.score;
    lines.push(format!(
        "model error: mean {:.3} ms (signed {:+.3} ms), worst {:.3} ms over {} frames; \
         shown/dropped agree on {:.1}% of {}",
        score.mean_abs_ms(),
        score.mean_ms(),
        score.worst as f64 / 1e6,
        score.compared,
        score.agreement() * 100.0,
        score.judged()
    ));
    lines
}

/// The refresh the display model ran on at the end and where it came from:
/// `model refresh: 59.940 Hz (the measured refresh, vblank phase 4.200 ms on the stopwatch)`.
pub fn model_refresh(screen: &ScreenReadouts) -> String {
    let Some(refresh) = screen.model.refresh() else {
        return format!("model refresh: none ({})", screen.model);
    };
    let from = match screen.refresh_source {
        RefreshSource::Measured { vblank: true } => format!(
            "the measured refresh, vblank phase {:.3} ms on the stopwatch",
            refresh.phase() as f64 / 1e6
        ),
        RefreshSource::Measured { vblank: false } => {
            "the measured refresh; no vblank phase: the images land on no refresh grid".to_owned()
        }
        RefreshSource::Monitor => crate::ui::MONITOR_RATE.to_owned(),
        RefreshSource::Override => "set by hand".to_owned(),
        RefreshSource::Assumed => "assumed: nothing reported one".to_owned(),
    };
    format!("model refresh: {:.3} Hz ({from})", refresh.hz())
}

/// A ramp in a line: how it ended, the step cost back in force, and each pane's onset
/// (`ramp: finished at 30.0 ms, load back to 0.0 ms; onsets: accumulator 18.9 ms (spiral),
/// variable none`).
fn ramp_summary(ramp: &Ramp) -> String {
    let ended = match ramp.phase() {
        RampPhase::Running => "running".to_owned(),
        RampPhase::Finished => "finished".to_owned(),
        RampPhase::AllBroken => "every pane broken".to_owned(),
        RampPhase::Cancelled(why) => why.describe().to_owned(),
    };
    let onsets: Vec<String> = ramp
        .strategies()
        .iter()
        .zip(ramp.onsets())
        .map(|(strategy, onset)| match onset {
            Some(onset) => format!(
                "{} {:.1} ms ({})",
                strategy.id(),
                onset.load_ms,
                if onset.spiral {
                    "spiral".to_owned()
                } else {
                    format!("speed {:.3}", onset.speed)
                }
            ),
            None => format!("{} none", strategy.id()),
        })
        .collect();
    format!(
        "ramp: {ended} at {:.1} ms, load back to {:.1} ms; onsets: {}",
        ramp.load_ms(),
        ramp.base_step_cost_ms(),
        onsets.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feedback::{FeedbackCounts, FeedbackSource, ModelScore};

    #[test]
    fn the_display_times_say_measured_or_why_modeled() {
        assert_eq!(
            display_times(None, Some("no X11 Present event came")),
            ["display times: modeled (no X11 Present event came)"]
        );
        let mut measured = MeasuredReadouts {
            source: FeedbackSource::X11Present,
            counts: FeedbackCounts {
                presents: 120,
                ..FeedbackCounts::default()
            },
            period: None,
            variable: false,
            score: ModelScore::default(),
        };
        assert_eq!(
            display_times(Some(measured), None),
            ["display times: modeled (no feedback came from X11 Present in 120 presents)"]
        );
        measured.counts.shown = 110;
        measured.counts.discarded = 2;
        measured.counts.duplicate = 1;
        measured.period = Some(16_666_667);
        measured.score = ModelScore {
            compared: 100,
            abs_error_sum: 150_000_000,
            error_sum: -50_000_000,
            worst: 4_000_000,
            both_dropped: 1,
            model_only: 1,
            measured_only: 0,
        };
        assert_eq!(
            display_times(Some(measured), None),
            [
                "display times: measured (X11 Present), 112 of 120 frames (110 shown, 2 \
                 discarded, 1 feedback ignored)",
                "measured refresh: 60.00 Hz",
                "model error: mean 1.500 ms (signed -0.500 ms), worst 4.000 ms over 100 \
                 frames; shown/dropped agree on 99.0% of 102",
            ]
        );
        measured.variable = true;
        assert_eq!(
            display_times(Some(measured), None)[1],
            "measured refresh: vrr, median 60.00 Hz"
        );
    }

    #[test]
    fn the_model_refresh_says_where_it_came_from() {
        use crate::display::{DisplaySpec, Refresh};
        let mut screen = ScreenReadouts {
            model: DisplaySpec::Fifo {
                refresh: Refresh::new(59.94).unwrap().with_phase(4_200_000),
                queue: 2,
            },
            refresh_source: RefreshSource::Measured { vblank: true },
            ..ScreenReadouts::default()
        };
        assert_eq!(
            model_refresh(&screen),
            "model refresh: 59.940 Hz (the measured refresh, vblank phase 4.200 ms on the \
             stopwatch)"
        );
        screen.refresh_source = RefreshSource::Measured { vblank: false };
        assert_eq!(
            model_refresh(&screen),
            "model refresh: 59.940 Hz (the measured refresh; no vblank phase: the images land \
             on no refresh grid)"
        );
        screen.refresh_source = RefreshSource::Assumed;
        assert_eq!(
            model_refresh(&screen),
            "model refresh: 59.940 Hz (assumed: nothing reported one)"
        );
        screen.model = DisplaySpec::Cpu;
        assert_eq!(model_refresh(&screen), "model refresh: none (cpu)");
    }

    #[test]
    fn paths_and_the_adapter_are_printed_escaped() {
        // A file name typed on the command line may hold an escape sequence: the summary
        // goes to a terminal, so it is shown escaped, never sent raw.
        let summary = WindowSummary {
            adapter: "gpu\u{1b}]0;title\u{7}".into(),
            screenshot: Some((PathBuf::from("shot\u{1b}[31m.png"), (1280, 800), 2.0)),
            saved: Some(PathBuf::from("set\u{202e}tings.toml")),
            recorded: vec![(PathBuf::from("rec\u{1b}[2J.csv"), 3)],
            ..WindowSummary::default()
        };
        let text = summary.to_string();
        assert!(
            !text.contains(['\u{1b}', '\u{7}', '\u{202e}']),
            "raw characters in {text:?}"
        );
        assert!(
            text.contains(
                "screenshot: shot\\u{1b}[31m.png (1280x800 physical pixels, scale factor 2)"
            ),
            "{text}"
        );
        assert!(
            text.contains("recorded: 3 frames to rec\\u{1b}[2J.csv"),
            "{text}"
        );
    }

    #[test]
    fn the_frame_rate_is_the_frame_intervals_over_the_time_they_took() {
        let mut summary = WindowSummary::default();
        assert_eq!(summary.fps(), None);
        for frame in 0..=120u64 {
            summary.frames += 1;
            summary.presented_at(1_000_000_000 + frame * 16_666_667);
        }
        // 120 intervals of 16.67 ms: 60 fps over 2 s.
        assert_eq!(
            summary.fps().as_deref(),
            Some("fps: 60.0 (120 frame intervals in 2.000 s)")
        );
        assert!(summary.to_string().contains("\nfps: 60.0 ("));
        let mut once = WindowSummary {
            frames: 1,
            ..WindowSummary::default()
        };
        once.presented_at(5);
        assert_eq!(once.fps(), None, "one frame has no rate");
    }
}
