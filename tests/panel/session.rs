//! The session row: recording, and controlling a replay.

use egui_kittest::kittest::Queryable as _;
use timestep_lab::live::ReplayStatus;
use timestep_lab::ui::{RecordReplayRequest, RecordReplayStatus};

use super::{harness, scripted_state};

#[test]
fn the_session_row_records_and_controls_a_replay() {
    let mut harness = harness(scripted_state());
    harness.run();
    harness.get_by_label("Record").click();
    harness.run();
    assert_eq!(
        harness.state().requests,
        [RecordReplayRequest::StartRecording]
    );
    harness.state_mut().model.shell.session = RecordReplayStatus {
        recording: Some(("rec.csv".into(), 42)),
        ..RecordReplayStatus::default()
    };
    harness.run();
    harness.get_by_label_contains("42 frames to rec.csv");
    harness.get_by_label("Stop recording").click();
    harness.run();
    assert_eq!(
        harness.state().requests[1..],
        [RecordReplayRequest::StopRecording]
    );
    // A replay: progress, pause, loop, stop.
    let replay = ReplayStatus {
        frame: 10,
        frames: 100,
        position_s: 0.5,
        duration_s: 5.0,
        speed: 1.0,
        looping: false,
        playing: true,
        finished: false,
    };
    harness.state_mut().requests.clear();
    harness.state_mut().model.shell.session = RecordReplayStatus {
        replay: Some(("capture.csv".into(), replay)),
        ..RecordReplayStatus::default()
    };
    harness.run();
    harness.get_by_label("Replaying capture.csv");
    assert!(harness.query_by_label("Record").is_none());
    harness.get_by_label("Pause").click();
    harness.run();
    harness.get_by_label("loop").click();
    harness.run();
    harness.get_by_label("Stop replay").click();
    harness.run();
    assert_eq!(
        harness.state().requests,
        [
            RecordReplayRequest::Play(false),
            RecordReplayRequest::Loop(true),
            RecordReplayRequest::StopReplay
        ]
    );
    // At the end, one click replays it from the start.
    harness.state_mut().requests.clear();
    harness.state_mut().model.shell.session.replay = Some((
        "capture.csv".into(),
        ReplayStatus {
            frame: 100,
            playing: false,
            finished: true,
            ..replay
        },
    ));
    harness.run();
    harness.get_by_label("Replay again").click();
    harness.run();
    assert_eq!(harness.state().requests, [RecordReplayRequest::Seek(0)]);
}
