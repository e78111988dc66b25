//! Strategies run frame by frame together, sharing the trace and the exact spring, give
//! what each gives alone, whatever the display, the load, the inputs or a freeze.

use super::*;
use crate::bench::progress::{Progress, SharedProgress};

/// What a strategy's observer was told, in order.
#[derive(Debug, Default)]
struct Told {
    /// Each run started.
    started: Vec<Strategy>,
    /// Each frame, as the CSV would write it.
    frames: Vec<FrameRow>,
    /// Each frame at the screen.
    screens: Vec<crate::metrics::ScreenFrame>,
    /// Each run's totals.
    finished: Vec<String>,
}

impl FrameObserver for Told {
    fn start(&mut self, strategy: Strategy) {
        self.started.push(strategy);
    }

    fn frame(&mut self, frame: &BenchFrame<'_>) {
        self.frames.push(FrameRow::of(frame));
    }

    fn screen(&mut self, screen: &crate::metrics::ScreenFrame) {
        self.screens.push(*screen);
    }

    fn finish(&mut self, result: &BenchResult) {
        self.finished.push(format!("{result:?}"));
    }
}

/// Every strategy and preset in one group, against each alone: the same results, and each
/// observer told the same things in the same order.
fn together_equals_alone(
    trace: &[Nanos],
    display_times: Option<DisplayTimes<'_>>,
    settings: &BenchSettings,
) {
    let strategies = Strategy::CHOICES;
    let mut told_alone: Vec<Told> = strategies.iter().map(|_| Told::default()).collect();
    let alone: Vec<BenchResult> = strategies
        .iter()
        .zip(&mut told_alone)
        .map(|(&strategy, told)| run_strategy_on(trace, display_times, strategy, settings, told))
        .collect();
    let mut told_together: Vec<Told> = strategies.iter().map(|_| Told::default()).collect();
    let together = strategy_run::run_together(
        trace,
        display_times,
        &strategies,
        settings,
        &mut told_together,
    );
    // Debug, not ==: a NaN (an exploded spring's error) is equal to itself in its text.
    assert_eq!(format!("{alone:?}"), format!("{together:?}"));
    for ((strategy, alone), together) in strategies.iter().zip(&told_alone).zip(&told_together) {
        assert_eq!(
            format!("{alone:?}"),
            format!("{together:?}"),
            "{strategy:?}'s observer"
        );
    }
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
    // The ten strategies on two cores: the accumulator family (one run that six draw) on
    // one; fixed, and variable with its two twins, on the other.
    let plans = strategy_run::plan(&Strategy::ALL, &BenchSettings::default(), 1000);
    let groups = balanced(&plans, 2);
    assert_eq!(groups.len(), 2);
    let mut sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    sizes.sort_unstable();
    assert_eq!(sizes, [4, 6]);
    assert!(groups.iter().any(|group| group == &[3, 4, 5, 6, 7, 9]));
    // A run is never split, and there are never more groups than runs.
    assert_eq!(balanced(&plans, 16).len(), plans.len());
    assert_eq!(balanced(&plans, 1)[0].len(), Strategy::ALL.len());
    assert!(balanced(&[], 2).is_empty());
}

#[test]
fn strategies_that_take_short_frames_whole_are_twins_of_the_first_unless_inputs_are_scripted() {
    let strategies = Strategy::ALL;
    let id = |index: &usize| strategies[*index].id();
    let mut settings = BenchSettings::default();
    let plans = strategy_run::plan(&strategies, &settings, 1000);
    let twins: Vec<(&str, Vec<&str>)> = plans
        .iter()
        .filter(|plan| !plan.twins.is_empty())
        .map(|plan| (id(&plan.members[0]), plan.twins.iter().map(id).collect()))
        .collect();
    assert_eq!(twins, [("variable", vec!["semi-fixed", "equal-substeps"])]);
    // Not over a trace of more than SHARED_RUN_FRAMES (a twin that parts runs again
    // beside its run), nor with inputs.
    let long = strategy_run::plan(&strategies, &settings, SHARED_RUN_FRAMES + 1);
    assert!(long.iter().all(|plan| plan.twins.is_empty()));
    settings.input = Some(InputScript::parse("every:0.5").unwrap());
    let plans = strategy_run::plan(&strategies, &settings, 1000);
    assert!(plans.iter().all(|plan| plan.twins.is_empty()));
}

#[test]
fn twins_that_part_at_a_long_frame_give_what_each_gives_alone() {
    // Short frames, then one longer than dt: variable takes it in one step, semi-fixed in
    // a step of dt and one of the rest, equal-substeps in two equal steps; the twins part
    // there and run on their own from the start. Then a hitch parts them again.
    let mut trace = frames_60hz(2);
    trace[40] = 31 * MS;
    let settings = BenchSettings::default();
    together_equals_alone(&trace, None, &settings);
    let mut fifo = settings;
    fifo.display = DisplaySpec::parse("fifo:60").unwrap();
    together_equals_alone(&trace, None, &fifo);
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
