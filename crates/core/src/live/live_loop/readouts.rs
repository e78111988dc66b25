//! The panel's readouts, gathered from the loop after a frame: the loop builds them from its
//! own parts, so `readouts.rs` holds plain data and knows no loop.

use super::LiveLoop;
use crate::live::history::SpanStats;
use crate::live::readouts::{PaneReadout, Readouts};
use crate::live::remedy::Remedies;
use crate::live::settings::MAX_PANES;
use crate::live::slow::{LoopState, SlowLoop};
use crate::live::stopwatch::Stopwatch;
use crate::timestep::{View, ms_from_ns, secs_from_ns};

impl<S: Stopwatch> LiveLoop<S> {
    /// What the slow-loop offer is judged on besides the frame rate, now.
    pub fn loop_state(&self) -> LoopState {
        LoopState {
            time_scale: self.settings.time_scale,
            step_cost_ms: self.settings.load.step_cost_ms,
            paused: self.paused(),
            replaying: self.replaying(),
            now: self.now(),
        }
    }

    /// The slow-loop offer now (see [`SlowLoop::judge`]), from the focused pane's readouts.
    pub fn slow_loop(&self) -> Option<SlowLoop> {
        SlowLoop::judge(&self.loop_state(), &self.window_stats())
    }

    /// The readouts after the last frame, from the loop's panes, engine, screen and
    /// frame spans.
    pub(super) fn readouts(&self) -> Readouts {
        let live = self;
        let focus = live.settings().focus_index();
        let mut window = SpanStats::default();
        let mut panes = [PaneReadout::default(); MAX_PANES];
        for (i, (slot, pane)) in panes.iter_mut().zip(live.panes()).enumerate() {
            let stats = pane.window_stats();
            let metrics = pane.run_metrics();
            if i == focus {
                window = stats;
            }
            *slot = PaneReadout {
                strategy: Some(pane.strategy()),
                latency_ms: stats.latency_ms,
                judder_ms: stats.judder_ms,
                display_latency_ms: stats.display_latency_ms,
                display_judder_ms: stats.display_judder_ms,
                steps_mean: stats.steps_mean,
                steps_now: pane.last().map_or(0, |frame| frame.report.steps.len()),
                spiral: pane.spiralling(),
                exploded: pane.exploded(),
                refreshes: metrics.refreshes,
                forecast: metrics
                    .forecast
                    .filter(|_| pane.strategy().view() == View::AtDisplay),
            };
        }
        let engine = live.sim().engine();
        let mut readouts = Readouts {
            strategy: Some(engine.strategy()),
            window,
            present_rate_hz: live.present_rate_hz(),
            frame_stats: live.frame_spans().readouts(),
            screen: live
                .screen()
                .readouts(live.last().map_or(0, |_| live.now())),
            sim_time_s: secs_from_ns(engine.latest_time()),
            real_time_s: secs_from_ns(engine.presented_time()),
            accumulator_ms: ms_from_ns(engine.accumulator()),
            dropped_total_s: secs_from_ns(engine.dropped()),
            resynced_s: engine.rebased() as f64 / 1e9,
            energy_drift: live.sim().scene().energy_drift(),
            spiral: live.spiralling(),
            frozen: live.frozen(),
            exploded: live.exploded(),
            remedies: if live.exploded() {
                Remedies::for_settings(live.settings())
            } else {
                Remedies::default()
            },
            paused: live.paused(),
            slow_loop: SlowLoop::judge(&live.loop_state(), &window),
            panes,
            pane_count: live.panes().len(),
            focus,
            input: live.focus().input_stats(),
            player_speed_mps: live.sim().scene().config().player.speed_mps,
            ..Readouts::default()
        };
        if let Some(frame) = live.last() {
            readouts.steps_this_frame = frame.report.steps.len();
            readouts.alpha = frame.report.alpha;
            readouts.owed_ms = ms_from_ns(frame.report.owed);
            readouts.carried_load_ms = ms_from_ns(frame.load.total - frame.load.waited);
        }
        readouts
    }
}
