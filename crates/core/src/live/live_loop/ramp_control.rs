//! The live loop's side of the load ramp: starting and stopping it, feeding it each frame,
//! and putting the load back whenever it ends (see [`Ramp`]).

use super::LiveLoop;
use crate::live::ramp::{Ramp, RampCancel, RampPaneFrame, RampRequest, RampSettings, speed_window};
use crate::live::recording::LiveRequest;
use crate::live::settings::{LiveSettings, MAX_PANES};
use crate::live::stopwatch::Stopwatch;
use crate::timestep::{Nanos, RangeError};

impl<S: Stopwatch> LiveLoop<S> {
    /// Starts a load ramp from the next frame on (see [`Ramp`]): the per-step load rises
    /// from 0 to `settings`' maximum over its duration while every pane runs, then goes
    /// back to the value in force now. A ramp running is stopped first. Bad settings are
    /// named and nothing changes.
    pub(crate) fn start_ramp(&mut self, settings: RampSettings) -> Result<(), RangeError> {
        settings.validate()?;
        self.end_ramp(RampCancel::Stopped);
        // Every pane's speed over the same frames: the window of the longest step.
        let dt = self.panes.iter().map(|pane| pane.sim().engine().dt()).max();
        let ramp = Ramp::new(
            settings,
            self.settings.load.step_cost_ms,
            self.settings.pane_strategies(),
            self.settings.focus_index(),
            speed_window(dt.unwrap_or(0)),
        )?;
        self.ramp = Some(ramp);
        Ok(())
    }

    /// Stops a running ramp and puts the load back; its curves stay.
    pub(crate) fn stop_ramp(&mut self) {
        self.end_ramp(RampCancel::Stopped);
    }

    /// Takes a ramp request from the shell.
    pub fn request_ramp(&mut self, request: RampRequest) -> Result<(), RangeError> {
        match request {
            RampRequest::Start(settings) => self.start_ramp(settings),
            RampRequest::Stop => {
                self.stop_ramp();
                Ok(())
            }
        }
    }

    /// The ramp running, or the last one until the next ramp or a reset.
    pub fn ramp(&self) -> Option<&Ramp> {
        self.ramp.as_ref()
    }

    /// The settings in force, with the per-step load a running ramp replaced: what is
    /// worth keeping (the remembered settings never hold a ramped load).
    pub fn resting_settings(&self) -> LiveSettings {
        let mut settings = self.settings;
        if let Some(ramp) = self.ramp.as_ref().filter(|ramp| ramp.running()) {
            settings.load.step_cost_ms = ramp.base_step_cost_ms();
        }
        settings
    }

    /// Ends a running ramp for `why` and puts its starting load back (a load set by hand
    /// stays). Nothing happens without one.
    pub(super) fn end_ramp(&mut self, why: RampCancel) {
        let Some(ramp) = self.ramp.as_mut().filter(|ramp| ramp.running()) else {
            return;
        };
        ramp.cancel(why);
        let base = ramp.base_step_cost_ms();
        if why != RampCancel::LoadSetByHand {
            self.set_step_cost(base);
        }
    }

    /// Gives the frame just run to a running ramp; puts the load back when it ends.
    pub(super) fn observe_ramp(&mut self, real_frame: Nanos, fed: Nanos) {
        let Some(ramp) = self.ramp.as_mut().filter(|ramp| ramp.running()) else {
            return;
        };
        let focus = self.settings.focus_index();
        let time_scale = self.clock.time_scale();
        let mut panes = [RampPaneFrame::default(); MAX_PANES];
        for (i, (slot, pane)) in panes.iter_mut().zip(&self.panes).enumerate() {
            let Some(frame) = pane.last() else {
                continue;
            };
            let report = &frame.report;
            let work = self.load.step_work(report.steps.len());
            *slot = RampPaneFrame {
                latest_time: report.latest_time,
                accumulator: report.accumulator,
                step_work: (work as f64 * time_scale).round() as Nanos,
                spiral: pane.spiralling(),
                frozen: i == focus && self.load.frozen(),
            };
        }
        if ramp.observe(real_frame, fed, &panes[..self.panes.len()]) {
            let base = ramp.base_step_cost_ms();
            self.set_step_cost(base);
        }
    }

    /// Sets the per-step load from the next frame on (the ramp's), noted for a recording.
    pub(super) fn set_step_cost(&mut self, step_cost_ms: f64) {
        if step_cost_ms == self.settings.load.step_cost_ms {
            return;
        }
        self.settings.load.step_cost_ms = step_cost_ms;
        self.load.set_settings(self.settings.load);
        self.note(LiveRequest::Settings(self.settings));
    }
}
