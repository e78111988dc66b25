//! Fuzzes the generator specs of `bench --generate` (`steady:HZ`, `jitter:HZ:SD_MS[:SEED]`,
//! `hitch:HZ:SPIKE_MS:EVERY_S`, `ramp:FROM_HZ:TO_HZ`): the input's first line is the spec,
//! its second (if any) the duration in seconds.
//!
//! Durations the generators refuse (0, negative, not finite, over a day) are passed as they
//! are; accepted ones are cut to [`MAX_FUZZ_DURATION_S`], so that no input generates for
//! long: a hitch of a few nanoseconds makes a frame per few nanoseconds.

#![no_main]

use libfuzzer_sys::fuzz_target;
use timestep_lab::trace::{MAX_DURATION_S, MAX_GENERATED_FRAMES, generate};
use timestep_lab_fuzz::{assert_printable, check_error, check_frames};

/// Longest trace generated, seconds: up to 10^7 frames of the shortest hitch (1 ns).
const MAX_FUZZ_DURATION_S: f64 = 0.01;
/// Duration when the input gives none (or no number), seconds.
const DEFAULT_DURATION_S: f64 = 0.005;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (spec, duration) = text.split_once('\n').unwrap_or((&text, ""));
    let duration_s = duration.trim().parse::<f64>().unwrap_or(DEFAULT_DURATION_S);
    let duration_s = if duration_s > 0.0 && duration_s <= MAX_DURATION_S {
        duration_s.min(MAX_FUZZ_DURATION_S)
    } else {
        duration_s
    };
    match generate(spec, duration_s) {
        Ok(trace) => {
            check_frames(&trace);
            assert!(trace.len() as u64 <= MAX_GENERATED_FRAMES);
            assert_eq!(trace.display_ns, None);
            // Frames are added until their total reaches the duration.
            let duration_ns = (duration_s * 1e9).round() as u64;
            assert!(
                trace.total_ns() >= duration_ns,
                "{spec:?} for {duration_s} s: {} ns generated",
                trace.total_ns()
            );
            assert_printable("the source", &trace.source);
        }
        Err(error) => check_error(&error),
    }
});
