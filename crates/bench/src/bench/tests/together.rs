//! Strategies run frame by frame together, sharing the trace and the exact spring, give
//! what each gives alone, whatever the display, the load, the inputs or a freeze.

use super::*;
use crate::bench::progress::{Progress, SharedProgress};

/// Every strategy and preset in one group, against each alone.
fn together_equals_alone(
    trace: &[Nanos],
    display_times: Option<DisplayTimes<'_>>,
    settings: &BenchSettings,
) {
    let strategies = Strategy::CHOICES;
    let alone: Vec<BenchResult> = strategies
        .iter()
        .map(|&strategy| run_strategy_on(trace, display_times, strategy, settings, &mut ()))
        .collect();
    let mut observers = vec![(); strategies.len()];
    let together =
        strategy_run::run_together(trace, display_times, &strategies, settings, &mut observers);
    // Debug, not ==: a NaN (an exploded spring's error) is equal to itself in its text.
    assert_eq!(format!("{alone:?}"), format!("{together:?}"));
}

#[test]
fn a_group_on_a_fifo_screen_with_load_and_keys_gives_what_each_gives_alone() {
    let (trace, mut settings) = loaded_on_fifo();
    settings.input = Some(InputScript::parse("every:0.4").unwrap());
    together_equals_alone(&trace, None, &settings);
}

#[test]
fn a_group_on_a_captures_own_screen_gives_what_each_gives_alone() {
    let trace: Vec<Nanos> = (0..300u64)
        .map(|i| 16_000_000 + (i % 5) * 700_000)
        .collect();
    // Shown 20 to 30 ms after their start, every ninth never.
    let shown: Vec<Option<Nanos>> = (0..300u64)
        .map(|i| (i % 9 != 4).then_some(20_000_000 + (i % 3) * 5_000_000))
        .collect();
    let times = DisplayTimes {
        frames: &shown,
        anchor: Some(3_000_000),
    };
    let settings = BenchSettings {
        display: DisplaySpec::Trace,
        ..BenchSettings::default()
    };
    together_equals_alone(&trace, Some(times), &settings);
}

#[test]
fn a_group_whose_runs_freeze_at_different_frames_gives_what_each_gives_alone() {
    // Without guards a step cost above dt freezes the stepping strategies, each at its own
    // frame, while fixed and variable run to the end.
    let settings = unguarded(25 * MS);
    let trace = frames_60hz(10);
    let alone = run(&trace, None, &Strategy::ALL, &settings);
    assert!(alone.iter().any(|result| result.frozen));
    assert!(alone.iter().any(|result| !result.frozen));
    together_equals_alone(&trace, None, &settings);
}

#[test]
fn no_strategies_run_side_by_side_to_no_results() {
    let progress = SharedProgress::new(Progress::new(0, 0, false, std::time::Duration::ZERO));
    let results = run_parallel(
        &frames_60hz(1),
        None,
        &[],
        &BenchSettings::default(),
        &progress,
    );
    assert!(results.is_empty());
}
