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
fn strategies_following_anothers_steps_on_a_fifo_screen_with_load_give_what_each_gives_alone() {
    // No keys: the accumulator family, Bevy's loops and Unity's run as one each.
    let (trace, mut settings) = loaded_on_fifo();
    settings.filter = FilterSpec::parse("average:4").unwrap();
    assert!(
        strategy_run::runs_of(&Strategy::CHOICES, &settings)
            .iter()
            .any(|run| run.len() == 6),
        "the accumulator family runs as one"
    );
    together_equals_alone(&trace, None, &settings);
    settings.display = DisplaySpec::parse("vrr:48-144").unwrap();
    together_equals_alone(&trace, None, &settings);
    // On the cpu display `display-time` draws every frame as `interpolated` does and is
    // measured once with it; on the displays above it parted from it after a few frames.
    settings.display = DisplaySpec::Cpu;
    together_equals_alone(&trace, None, &settings);
}

#[test]
fn strategies_that_step_alike_run_as_one_unless_inputs_are_scripted() {
    let strategies = Strategy::CHOICES;
    let mut settings = BenchSettings::default();
    let runs = strategy_run::runs_of(&strategies, &settings);
    let named = |run: &Vec<usize>| -> Vec<&str> {
        run.iter().map(|&index| strategies[index].id()).collect()
    };
    let named: Vec<Vec<&str>> = runs.iter().map(named).collect();
    assert!(named.contains(&vec![
        "accumulator",
        "interpolated",
        "extrapolated",
        "velocity-extrapolated",
        "hermite",
        "display-time"
    ]));
    assert!(named.contains(&vec!["bevy", "bevy-interpolated"]));
    assert!(named.contains(&vec!["unity", "unity-interpolate", "unity-extrapolate"]));
    for alone in [
        "fixed",
        "variable",
        "semi-fixed",
        "equal-substeps",
        "godot",
        "fiedler",
    ] {
        assert!(named.contains(&vec![alone]), "{alone} runs alone");
    }
    // Every strategy once, in order within its run.
    let mut all: Vec<usize> = runs.concat();
    assert!(runs.iter().all(|run| run.is_sorted()));
    all.sort_unstable();
    assert_eq!(all, (0..strategies.len()).collect::<Vec<_>>());
    // Each strategy measures scripted inputs by what it draws: no run follows another.
    settings.input = Some(InputScript::parse("every:0.5").unwrap());
    let runs = strategy_run::runs_of(&strategies, &settings);
    assert_eq!(runs.len(), strategies.len());
}

#[test]
fn runs_are_spread_over_the_cores_by_their_work() {
    // The accumulator family (six strategies) and four runs of one, on two cores: the
    // family and one run on one, three runs on the other.
    let runs = vec![vec![0], vec![1], vec![2], vec![3, 4, 5, 6, 7, 8], vec![9]];
    let groups = balanced(&runs, 2);
    assert_eq!(groups.len(), 2);
    let mut sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    sizes.sort_unstable();
    assert_eq!(sizes, [3, 7]);
    assert!(
        groups
            .iter()
            .any(|group| group.starts_with(&[3, 4, 5, 6, 7, 8]))
    );
    // A run is never split, and there are never more groups than runs.
    assert_eq!(balanced(&runs, 16).len(), runs.len());
    assert_eq!(balanced(&runs, 1), vec![vec![3, 4, 5, 6, 7, 8, 0, 1, 2, 9]]);
    assert!(balanced(&[], 2).is_empty());
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
