//! X11 Present feedback: the lab's observer reads `PresentCompleteNotify` for a window it
//! does not own (a small client here presents pixmaps to it on Xvfb); the lab's own window
//! on lavapipe, whose images go up without Present, says it stays modeled and why.

use std::time::{Duration, Instant};

use timestep_lab::app::feedback::x11::{PresentComplete, PresentObserver};
use timestep_lab::feedback::{FeedbackOutcome, x11_ust_ns};
use x11rb::connection::Connection as _;
use x11rb::protocol::present::{self, CompleteMode};
use x11rb::protocol::xproto::{ConnectionExt as _, CreateWindowAux, WindowClass};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

use super::{assert_success, lab, stdout, virtual_display};

/// Presents a client makes.
const PRESENTS: u32 = 12;

/// CLOCK_MONOTONIC now, µs, as the test reads it.
fn monotonic_us() -> u64 {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    let seconds = u64::try_from(now.tv_sec).expect("after boot");
    let nanoseconds = u64::try_from(now.tv_nsec).expect("under a second");
    seconds * 1_000_000 + nanoseconds / 1000
}

#[test]
fn the_observer_reads_present_complete_events_for_a_window_it_does_not_own() {
    let Some(display) = virtual_display() else {
        return;
    };
    // The presenting client: a window and a pixmap of its size.
    let (client, screen) = RustConnection::connect(Some(&display.name)).expect("a connection");
    let root = &client.setup().roots[screen];
    let window = client.generate_id().expect("an id");
    client
        .create_window(
            root.root_depth,
            window,
            root.root,
            0,
            0,
            64,
            64,
            0,
            WindowClass::INPUT_OUTPUT,
            root.root_visual,
            &CreateWindowAux::new().background_pixel(root.black_pixel),
        )
        .expect("a window");
    client.map_window(window).expect("mapped");
    let pixmap = client.generate_id().expect("an id");
    client
        .create_pixmap(root.root_depth, pixmap, window, 64, 64)
        .expect("a pixmap");
    client.sync().expect("the window exists");
    // The lab's observer, on a connection of its own.
    let mut observer = PresentObserver::watch(Some(&display.name), window).expect("watching");
    let before = monotonic_us();
    for serial in 1..=PRESENTS {
        present::pixmap(
            &client,
            window,
            pixmap,
            serial,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            &[],
        )
        .expect("presented");
    }
    client.flush().expect("sent");
    let mut completes: Vec<PresentComplete> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while completes.len() < PRESENTS as usize && Instant::now() < deadline {
        observer
            .poll(|complete| completes.push(complete))
            .expect("the connection holds");
        std::thread::sleep(Duration::from_millis(5));
    }
    let after = monotonic_us();
    // Every present answered once. Xvfb need not answer in order: under load it has
    // answered a later present (shown) before earlier ones it skipped, so the answers are
    // compared in the order of their presents, and the times of the shown ones.
    let mut serials: Vec<u32> = completes.iter().map(|c| c.serial).collect();
    serials.sort_unstable();
    assert_eq!(serials, (1..=PRESENTS).collect::<Vec<_>>(), "{completes:?}");
    let mut shown: Vec<&PresentComplete> = completes
        .iter()
        .filter(|c| c.mode == CompleteMode::COPY)
        .collect();
    shown.sort_by_key(|c| c.serial);
    for pair in shown.windows(2) {
        assert!(pair[1].ust >= pair[0].ust, "{completes:?}");
        assert!(pair[1].msc >= pair[0].msc, "{completes:?}");
    }
    for complete in &completes {
        // UST is CLOCK_MONOTONIC in µs: between the first present and the last event.
        assert!(
            (before..=after).contains(&complete.ust),
            "{} not in {before}..={after}",
            complete.ust
        );
        // Xvfb copies (no flip) or skips a pixmap replaced before its refresh.
        assert!(
            [CompleteMode::COPY, CompleteMode::SKIP].contains(&complete.mode),
            "{complete:?}"
        );
        let feedback = complete.feedback();
        assert_eq!(feedback.present, u64::from(complete.serial));
        match feedback.outcome {
            FeedbackOutcome::Presented { at, sequence, .. } => {
                assert_eq!(complete.mode, CompleteMode::COPY);
                assert_eq!(at, x11_ust_ns(complete.ust));
                assert_eq!(sequence, Some(complete.msc));
            }
            FeedbackOutcome::Discarded => assert_eq!(complete.mode, CompleteMode::SKIP),
        }
    }
    // The last one is always shown.
    let last = completes.iter().max_by_key(|c| c.serial).map(|c| c.mode);
    assert_eq!(last, Some(CompleteMode::COPY), "{completes:?}");
}

#[test]
fn the_labs_own_window_on_lavapipe_says_it_stays_modeled_and_why() {
    let Some(display) = virtual_display() else {
        return;
    };
    let output = lab(
        &display,
        &[
            "--frames",
            "240",
            "--width",
            "320",
            "--height",
            "240",
            "--no-panel",
        ],
    );
    assert_success(&output);
    let text = stdout(&output);
    assert!(
        text.contains(
            "display times: modeled (no X11 Present event came for this window: its driver \
             puts images up without the Present extension"
        ),
        "{text}"
    );
}
