//! The frames in the window: which ones, hitches, dropped time, pauses, shades and the
//! frame under the pointer.

use super::*;

#[test]
fn a_frozen_frame_leaves_the_axis_once_it_is_out_of_the_window() {
    // 60 s frozen (no clamp), then running again.
    let settings = LiveSettings {
        max_frame_time_ms: 0.0,
        ..LiveSettings::default()
    };
    // A slow renderer (150 ms frames): the window holds 4 frames, and the fewest frames
    // shown (30) used to reach back to the frozen minute for 30 frames (4.5 s).
    let frames = std::iter::repeat_n(150 * MS, 60)
        .chain([60_000 * MS])
        .chain(std::iter::repeat_n(150 * MS, 5));
    let model = model_of(&history(settings, frames));
    // The five slow frames after it, and not the frozen one.
    assert_eq!(model.frames.len(), 5);
    assert!(model.frames.iter().all(|f| f.sample.fed < 60_000 * MS));
    // The axis spans those frames (0.75 s), not the frozen minute.
    assert_eq!(model.axis_end - model.axis_start, 750 * MS);
    // A slow renderer's frames (150 ms) are still reached back for.
    let slow = model_of(&history(with(Strategy::Accumulator), [150 * MS; 40]));
    assert_eq!(slow.frames.len(), TIMELINE_MIN_FRAMES);
}

#[test]
fn hitches_are_frames_over_twice_the_median() {
    let mut frames = vec![FRAME_60HZ; 20];
    frames[5] = 2 * FRAME_60HZ; // exactly twice: not a hitch
    frames[12] = 50 * MS;
    let model = model_of(&history(with(Strategy::Interpolated), frames));
    assert_eq!(model.median_frame, FRAME_60HZ);
    let hitches: Vec<Nanos> = model
        .frames
        .iter()
        .filter(|f| f.hitch)
        .map(|f| f.sample.real_frame)
        .collect();
    assert_eq!(hitches, [50 * MS]);
}

#[test]
fn dropped_time_is_off_the_axis() {
    let settings = LiveSettings {
        max_steps: 2,
        ..with(Strategy::Accumulator)
    };
    let model = model_of(&history(settings, [FRAME_60HZ, FRAME_60HZ, 100 * MS]));
    let frame = model.frames.last().expect("frames");
    // 100 ms + 13.33 ms carried owe 5 whole steps; 2 are taken, 3 dropped.
    assert_eq!(frame.sample.steps, 2);
    assert_eq!(frame.sample.dropped, 3 * DT);
    assert_eq!(
        frame.end() - frame.start,
        frame.sample.fed - frame.sample.dropped
    );
}

#[test]
fn a_slow_loop_still_shows_the_minimum_of_frames() {
    // 5 fps in slow motion (a software rasterizer): 0.5 s holds 2-3 frames, too few
    // to show a pattern, so the timeline reaches back to the last 30.
    let settings = LiveSettings {
        time_scale: 0.1,
        ..with(Strategy::Accumulator)
    };
    let slow = history(settings, std::iter::repeat_n(200 * MS, 100));
    let model = model_of(&slow);
    assert_eq!(model.frames.len(), TIMELINE_MIN_FRAMES);
    assert_eq!(
        model.frames.last().map(|f| f.sample.wall),
        slow.latest().map(|s| s.wall)
    );
    // At 120 fps the window itself holds more: the frames that started in 0.5 s.
    let fast = history(
        with(Strategy::Accumulator),
        std::iter::repeat_n(FRAME_60HZ / 2, 200),
    );
    assert_eq!(model_of(&fast).frames.len(), 61);
}

#[test]
fn empty_and_single_frame_histories_have_no_frames() {
    let mut model = model_of(&History::default());
    assert!(model.frames.is_empty());
    assert_eq!(model.frame_near(0.0), None);
    let mut single = History::default();
    single.push(FrameSample::default());
    model.rebuild(&single);
    assert!(model.frames.is_empty());
    assert!(model.axis_end > model.axis_start);
}

#[test]
fn pausing_keeps_the_running_frames_on_the_axis_and_single_steps_append() {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), with(Strategy::Interpolated))
        .expect("valid settings");
    live.frame();
    for _ in 0..40 {
        live.stopwatch_mut().advance(FRAME_60HZ);
        live.frame();
    }
    let running = model_of(live.history());
    live.request(LiveRequest::Pause).expect("the loop takes it");
    // Paused for longer than the window: the frames before the pause stay.
    for _ in 0..90 {
        live.stopwatch_mut().advance(FRAME_60HZ);
        live.frame();
    }
    let paused = model_of(live.history());
    assert_eq!(paused.frames.len(), running.frames.len());
    assert_eq!(
        (paused.axis_start, paused.axis_end),
        (running.axis_start, running.axis_end)
    );
    // A single step appends one frame of the single-step length at the right.
    live.request(LiveRequest::SingleStep)
        .expect("the loop takes it");
    live.stopwatch_mut().advance(FRAME_60HZ);
    live.frame();
    let stepped = model_of(live.history());
    let last = stepped.frames.last().expect("a frame");
    assert_eq!(last.sample.fed, crate::timestep::DEFAULT_SINGLE_STEP_FRAME);
    assert_eq!(last.start, running.axis_end);
}

#[test]
fn frame_near_picks_the_frame_under_the_pointer() {
    let model = model_of(&history(with(Strategy::Accumulator), [10 * MS; 5]));
    // Frames (0,10], (10,20], ... (40,50] ms.
    assert_eq!(model.frames.len(), 5);
    assert_eq!(model.frame_near(15.0 * 1e6), Some(1));
    assert_eq!(model.frame_near(20.0 * 1e6), Some(1));
    assert_eq!(model.frame_near(20.0 * 1e6 + 1.0), Some(2));
    assert_eq!(model.frame_near(-5.0), Some(0));
    assert_eq!(model.frame_near(1e12), Some(4));
}

#[test]
fn a_full_history_of_tiny_frames_stays_bounded() {
    let mut history = History::default();
    for i in 0..(crate::live::HISTORY_CAPACITY as Nanos + 100) {
        history.push(FrameSample {
            wall: i * 50_000,
            real_frame: 50_000,
            fed: 50_000,
            presented_time: i * 50_000,
            latest_time: (i * 50_000 / DT) * DT,
            steps: u32::from((i * 50_000) % DT < 50_000),
            ..FrameSample::default()
        });
    }
    let model = model_of(&history);
    // Every kept frame is in the window; the oldest only bounds the next.
    assert_eq!(model.frames.len(), crate::live::HISTORY_CAPACITY - 1);
    assert!(model.axis_end > model.axis_start);
    // Thinned to a stride, a frame of a million steps yields few ends.
    let ends = step_ends(0, 1_000_000 * DT, 1_000_000, DT, 0..=100 * DT, 10).count();
    assert_eq!(ends, 10);
}

#[test]
fn shades_alternate_and_stay_put_as_the_window_slides() {
    let mut live = LiveLoop::new(VirtualStopwatch::default(), with(Strategy::Accumulator))
        .expect("valid settings");
    live.frame();
    let mut model = TimelineModel::default();
    let mut previous: Vec<(Nanos, bool)> = Vec::new();
    for _ in 0..80 {
        live.stopwatch_mut().advance(FRAME_60HZ);
        live.frame();
        model.rebuild(live.history());
        assert!(model.frames.windows(2).all(|w| w[0].shade != w[1].shade));
        for frame in &model.frames {
            if let Some(&(_, shade)) = previous.iter().find(|(w, _)| *w == frame.sample.wall) {
                assert_eq!(
                    frame.shade, shade,
                    "frame at {} changed shade",
                    frame.sample.wall
                );
            }
        }
        previous = model
            .frames
            .iter()
            .map(|f| (f.sample.wall, f.shade))
            .collect();
    }
}
