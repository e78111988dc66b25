//! Where each step ends: the strategies' step patterns on the axis, and a pane off it.

use super::*;

#[test]
fn accumulator_takes_0_1_2_steps_exactly_dt_apart() {
    // 60 Hz display with a missed vsync every tenth frame, 50 Hz steps.
    let frames = (1..=60).map(|i| {
        if i % 10 == 0 {
            2 * FRAME_60HZ
        } else {
            FRAME_60HZ
        }
    });
    let model = model_of(&history(with(Strategy::Accumulator), frames));
    let counts: Vec<u32> = model.frames.iter().map(|f| f.sample.steps).collect();
    for wanted in [0, 1, 2] {
        assert!(counts.contains(&wanted), "no {wanted} in {counts:?}");
    }
    let ends = all_step_ends(&model, DT);
    assert_eq!(
        ends.len() as u32,
        counts.iter().sum::<u32>(),
        "one end per step"
    );
    assert!(ends.windows(2).all(|w| w[1] - w[0] == DT), "{ends:?}");
    // The frames tile the axis: each starts where the one before ended.
    assert!(model.frames.windows(2).all(|w| w[1].start == w[0].end()));
    assert_eq!(model.axis_start, model.frames[0].start);
    assert_eq!(model.axis_end, model.frames[model.frames.len() - 1].end());
}

#[test]
fn steady_60hz_accumulator_repeats_0_1_1_1_1_1() {
    let model = model_of(&history(with(Strategy::Accumulator), [FRAME_60HZ; 60]));
    let counts: Vec<u32> = model.frames.iter().map(|f| f.sample.steps).collect();
    // 6 frames of 16.67 ms owe exactly 5 steps of 20 ms.
    let pattern = [0, 1, 1, 1, 1, 1];
    assert!(
        counts.windows(6).any(|w| w == pattern),
        "{counts:?} lacks the 60/50 pattern"
    );
    assert!(counts.iter().all(|&c| c <= 1));
}

#[test]
fn variable_takes_one_step_per_frame_ending_at_t() {
    let model = model_of(&history(with(Strategy::Variable), [FRAME_60HZ; 40]));
    assert!(!model.frames.is_empty());
    for frame in &model.frames {
        let mut single = TimelineModel::default();
        single.frames = vec![*frame];
        let ends = all_step_ends(&single, DT);
        assert_eq!(ends, [frame.end()], "{frame:?}");
    }
}

#[test]
fn semi_fixed_ends_with_the_remainder() {
    let model = model_of(&history(
        with(Strategy::SemiFixed),
        [FRAME_60HZ, FRAME_60HZ, 50 * MS],
    ));
    let long = model.frames.last().expect("frames");
    assert_eq!(long.sample.steps, 3);
    let from = long.steps_from;
    let ends: Vec<Nanos> = step_ends(
        from,
        long.sample.latest_time,
        long.sample.steps,
        DT,
        0..=Nanos::MAX,
        1,
    )
    .collect();
    assert_eq!(ends, [from + DT, from + 2 * DT, from + 50 * MS]);
    // A 16.67 ms frame is one short step, the remainder alone.
    let short = &model.frames[model.frames.len() - 2];
    assert_eq!(short.sample.steps, 1);
    assert_eq!(short.sample.latest_time - short.steps_from, FRAME_60HZ);
}

#[test]
fn fixed_runs_ahead_of_the_axis() {
    let pane = history(with(Strategy::Fixed), [FRAME_60HZ; 60]);
    let model = model_of(&pane);
    let newest = pane.latest().expect("frames").latest_time;
    assert_eq!(newest, 60 * DT);
    let offset = PaneOffset::of(newest, model.axis_start, model.axis_end);
    assert_eq!(offset, Some(PaneOffset::Ahead(60 * DT - 60 * FRAME_60HZ)));
    assert_eq!(
        offset.map(PaneOffset::note).as_deref(),
        Some("ahead +200 ms")
    );
    assert_eq!(PaneOffset::Ahead(1_234_000_000).note(), "ahead +1.23 s");
    assert_eq!(
        PaneOffset::of(model.axis_end, model.axis_start, model.axis_end),
        None
    );
    assert_eq!(
        PaneOffset::of(0, model.axis_start, model.axis_end),
        Some(PaneOffset::Behind(model.axis_end))
    );
}

#[test]
fn step_ends_survive_a_zero_or_stale_dt() {
    let split: Vec<Nanos> = step_ends(100, 160, 3, 0, 0..=Nanos::MAX, 1).collect();
    assert_eq!(split, [120, 140, 160]);
    // dt grew since the frame: the frame's own time is split, never overrun.
    let stale: Vec<Nanos> = step_ends(0, 30, 3, 50, 0..=Nanos::MAX, 1).collect();
    assert_eq!(stale, [10, 20, 30]);
    assert_eq!(step_ends(0, 0, 0, DT, 0..=Nanos::MAX, 1).count(), 0);
    // Range limits keep only visible ends.
    let visible: Vec<Nanos> = step_ends(0, 100, 10, 10, 35..=62, 1).collect();
    assert_eq!(visible, [40, 50, 60]);
}
