//! What every preset must do, and the helpers the engines' own tests share: each preset is
//! driven through [`Engine`], the path the live loop and `bench` take.

use proptest::prelude::{prop_assert, prop_assert_eq, proptest};

use super::EnginePreset;
use crate::timestep::{Engine, FrameReport, Nanos, Strategy, TimestepConfig};

/// An engine running one preset.
pub(super) struct Run {
    /// The engine.
    pub engine: Engine,
}

impl Run {
    /// A preset at its start (the lab's own step and guards do not apply to it).
    pub fn new(preset: EnginePreset) -> Self {
        Self {
            engine: Engine::new(Strategy::Preset(preset), TimestepConfig::default()),
        }
    }

    /// Runs `frames` and returns each frame's report.
    pub fn frames(&mut self, frames: &[Nanos]) -> Vec<FrameReport> {
        frames.iter().map(|&f| self.engine.advance(f)).collect()
    }
}

/// `count` frames of a display whose frames end at `t_k = floor(k·1e9/hz)` ns.
pub(super) fn exact_hz(hz: u64, count: usize) -> Vec<Nanos> {
    (1..=count as u64)
        .map(|k| k * 1_000_000_000 / hz - (k - 1) * 1_000_000_000 / hz)
        .collect()
}

/// [`exact_hz`] at 60 Hz: 16_666_666, 16_666_667, 16_666_667, …
pub(super) fn exact_60hz(count: usize) -> Vec<Nanos> {
    exact_hz(60, count)
}

#[test]
fn ids_round_trip_and_unknown_ids_list_every_preset() {
    for preset in EnginePreset::ALL {
        assert_eq!(preset.id().parse::<EnginePreset>(), Ok(preset));
    }
    let error = "unreal-engine".parse::<EnginePreset>().unwrap_err();
    let text = error.to_string();
    assert!(text.starts_with("unknown engine preset \"unreal-engine\" (allowed: godot,"));
    assert!(text.ends_with("matterjs, matterjs-0.19)"), "{text}");
}

#[test]
fn a_paused_frame_takes_no_step_and_changes_nothing() {
    for preset in EnginePreset::ALL {
        let mut run = Run::new(preset);
        run.frames(&exact_60hz(7));
        let before = run.engine.clone();
        let report = run.engine.advance(0);
        assert!(report.steps.is_empty(), "{preset}");
        assert_eq!(report.dropped, 0);
        assert_eq!(run.engine.latest_time(), before.latest_time());
        assert_eq!(run.engine.accumulator(), before.accumulator());
        let after: Vec<FrameReport> = run.frames(&exact_60hz(3));
        let mut unpaused = before;
        let expected: Vec<_> = exact_60hz(3)
            .into_iter()
            .map(|f| unpaused.advance(f))
            .map(|r| (r.steps, r.dropped, r.accumulator))
            .collect();
        let got: Vec<_> = after
            .iter()
            .map(|r| (r.steps, r.dropped, r.accumulator))
            .collect();
        assert_eq!(
            got, expected,
            "{preset}: a pause is invisible to the preset"
        );
    }
}

fn any_preset() -> impl proptest::strategy::Strategy<Value = EnginePreset> {
    proptest::sample::select(EnginePreset::ALL.to_vec())
}

proptest! {
    #[test]
    fn every_preset_keeps_the_ledger_exactly(
        preset in any_preset(),
        frames in proptest::collection::vec(0u64..400_000_000, 1..200),
    ) {
        let mut run = Run::new(preset);
        let mut total = 0u64;
        let mut dropped = 0u64;
        for frame in frames {
            total += frame;
            let report = run.engine.advance(frame);
            dropped += report.dropped;
            let engine = &run.engine;
            prop_assert_eq!(dropped, engine.dropped());
            prop_assert_eq!(engine.presented_time() + engine.dropped(), total);
            prop_assert_eq!(
                i128::from(engine.latest_time()) + i128::from(engine.accumulator()),
                i128::from(engine.presented_time()) + i128::from(engine.lead())
            );
            prop_assert!(report.used <= frame.max(report.used));
            prop_assert!(report.shown_time <= report.latest_time + report.accumulator);
        }
    }

    #[test]
    fn the_integer_presets_neither_invent_nor_lose_time(
        preset in proptest::sample::select(vec![
            EnginePreset::Bevy, EnginePreset::BevyInterpolated, EnginePreset::Unity,
            EnginePreset::UnityInterpolate, EnginePreset::UnityExtrapolate,
            EnginePreset::UnrealAsync, EnginePreset::Fiedler,
        ]),
        frames in proptest::collection::vec(1u64..400_000_000, 1..200),
    ) {
        // Frames of 0.5 ms and more: Unreal counts a shorter frame as 0.5 ms.
        let mut run = Run::new(preset);
        for frame in frames {
            run.engine.advance(frame.max(500_000));
            prop_assert_eq!(run.engine.lead(), 0);
            prop_assert!(run.engine.accumulator() < run.engine.dt());
        }
    }

    #[test]
    fn godot_keeps_its_clock_within_the_jitter_fix_of_real_time(
        frames in proptest::collection::vec(1_000_000u64..120_000_000, 1..300),
        interpolated in proptest::bool::ANY,
    ) {
        // Godot's deficit is at most jitter_fix ticks; the µs clock hides under a µs; the
        // smoother holds at most a few vsync periods; a tick of 16_666_667 ns is a third of
        // a nanosecond longer than Godot's 1/60 s.
        let preset = if interpolated {
            EnginePreset::GodotInterpolated
        } else {
            EnginePreset::Godot
        };
        let mut run = Run::new(preset);
        for frame in frames {
            run.engine.advance(frame);
            let bound = 9_000_000 + run.engine.steps() as i64;
            prop_assert!(run.engine.lead().abs() <= bound, "lead {}", run.engine.lead());
        }
    }
}
