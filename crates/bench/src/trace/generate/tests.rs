//! The generators: their frames, exact to the nanosecond and the same on every pass, and
//! the errors a spec gets.

use super::frames::{GeneratedFrames, SteadyFrames};
use super::spec::{Rate, Shape};
use super::*;

#[test]
fn steady_frame_k_ends_at_exactly_round_k_period() {
    let trace = generate("steady:60", 10.0).unwrap();
    assert_eq!(trace.len(), 600);
    assert_eq!(trace.total_ns(), 10_000_000_000);
    let mut end = 0_u128;
    for (index, frame) in trace.frame_times_ns.iter().enumerate() {
        end += u128::from(*frame);
        let k = index as u128 + 1;
        // round(k * 1e9 / 60), halves up.
        assert_eq!(end, (2 * k * 1_000_000_000 + 60) / 120);
    }
    let min = trace.frame_times_ns.iter().min().unwrap();
    let max = trace.frame_times_ns.iter().max().unwrap();
    assert_eq!((*min, *max), (16_666_666, 16_666_667));
    assert_eq!(trace.source, "steady:60 (10 s)");
}

#[test]
fn steady_fractional_rate_is_exact_over_a_day() {
    // 59.94 Hz for a day: 5_178_816 frames, the last ending at exactly round(k * 1e9 / 59.94).
    let trace = generate("steady:59.94", 86_400.0).unwrap();
    let n = trace.len() as u128;
    assert_eq!(n, 5_178_816);
    assert_eq!(
        u128::from(trace.total_ns()),
        (2 * n * 1_000_000_000 * 100 + 5994) / (2 * 5994)
    );
    let min = trace.frame_times_ns.iter().min().unwrap();
    let max = trace.frame_times_ns.iter().max().unwrap();
    assert_eq!(max - min, 1);
}

#[test]
fn last_frame_ends_at_or_just_past_the_duration() {
    // 7 Hz does not divide 1 s: frames until the total reaches 1 s, no more.
    let trace = generate("steady:7", 1.0).unwrap();
    assert_eq!(trace.len(), 7);
    assert_eq!(trace.total_ns(), 1_000_000_000);
    let trace = generate("steady:3", 0.5).unwrap();
    assert_eq!(trace.frame_times_ns, [333_333_333, 333_333_334]);
}

#[test]
fn jitter_is_reproducible_for_a_seed_and_differs_for_another() {
    let a = generate("jitter:60:2:7", 10.0).unwrap();
    let b = generate("jitter:60:2:7", 10.0).unwrap();
    let c = generate("jitter:60:2:8", 10.0).unwrap();
    assert_eq!(a.frame_times_ns, b.frame_times_ns);
    assert_ne!(a.frame_times_ns, c.frame_times_ns);
    assert_eq!(a.source, "jitter:60:2:7 (10 s)");
    assert_eq!(
        generate("jitter:60:2", 10.0).unwrap().frame_times_ns,
        generate("jitter:60:2:1", 10.0).unwrap().frame_times_ns
    );
}

#[test]
fn jitter_has_the_requested_spread_around_the_period() {
    let trace = generate("jitter:100:1.5:3", 60.0).unwrap();
    let n = trace.len() as f64;
    let mean = trace
        .frame_times_ns
        .iter()
        .map(|&ns| ns as f64)
        .sum::<f64>()
        / n;
    let sd = (trace
        .frame_times_ns
        .iter()
        .map(|&ns| (ns as f64 - mean).powi(2))
        .sum::<f64>()
        / n)
        .sqrt();
    assert!((mean - 10e6).abs() < 0.05e6, "mean {mean}");
    assert!((sd - 1.5e6).abs() < 0.05e6, "sd {sd}");
}

#[test]
fn jitter_without_noise_is_steady() {
    assert_eq!(
        generate("jitter:60:0", 3.0).unwrap().frame_times_ns,
        generate("steady:60", 3.0).unwrap().frame_times_ns
    );
}

#[test]
fn jitter_never_goes_below_a_tenth_of_the_period() {
    let trace = generate("jitter:100:20:5", 10.0).unwrap();
    assert_eq!(*trace.frame_times_ns.iter().min().unwrap(), 1_000_000);
    assert_eq!(trace.notes.len(), 1);
    assert!(trace.notes[0].starts_with("jitter:100:20:5: "));
}

#[test]
fn hitch_spikes_at_the_first_frame_of_each_interval() {
    // 50 Hz, a 100 ms spike every second: frames 0..49 fill the first second, frame 50
    // spikes (ending at 1.1 s), 45 steady frames reach 2.0 s, frame 96 spikes.
    let trace = generate("hitch:50:100:1", 3.0).unwrap();
    let spikes: Vec<usize> = trace
        .frame_times_ns
        .iter()
        .enumerate()
        .filter(|(_, ns)| **ns == 100_000_000)
        .map(|(index, _)| index)
        .collect();
    assert_eq!(spikes, [50, 96]);
    assert!(
        trace
            .frame_times_ns
            .iter()
            .all(|&ns| ns == 20_000_000 || ns == 100_000_000)
    );
    assert_eq!(trace.total_ns(), 3_000_000_000);
    assert_eq!(trace.len(), 50 + 1 + 45 + 1 + 45);
}

#[test]
fn hitch_longer_than_its_interval_spikes_every_frame() {
    let trace = generate("hitch:60:500:0.25", 2.0).unwrap();
    // 15 steady frames fill the first 250 ms; from then on every frame starts past a mark.
    let steady = generate("steady:60", 0.25).unwrap();
    assert_eq!(steady.len(), 15);
    assert_eq!(trace.frame_times_ns[..15], steady.frame_times_ns[..]);
    assert!(
        trace.frame_times_ns[15..]
            .iter()
            .all(|&ns| ns == 500_000_000)
    );
}

#[test]
fn ramp_starts_at_from_rate_and_ends_at_to_rate() {
    // 30 -> 90 Hz over 10 s: (30 + 90) / 2 * 10 = 600 frames, the last ending at 10 s.
    let trace = generate("ramp:30:90", 10.0).unwrap();
    assert_eq!(trace.len(), 600);
    assert_eq!(trace.total_ns(), 10_000_000_000);
    let first_hz = 1e9 / trace.frame_times_ns[0] as f64;
    let last_hz = 1e9 / trace.frame_times_ns[599] as f64;
    // Each frame's rate is its average, a little above the rate at its start.
    assert!((first_hz - 30.0).abs() < 0.2, "first {first_hz}");
    assert!((last_hz - 90.0).abs() < 0.1, "last {last_hz}");
    assert!(
        trace
            .frame_times_ns
            .windows(2)
            .all(|pair| pair[1] <= pair[0])
    );
}

#[test]
fn falling_ramp_and_flat_ramp() {
    let trace = generate("ramp:120:40", 5.0).unwrap();
    assert_eq!(trace.len(), 400);
    assert_eq!(trace.total_ns(), 5_000_000_000);
    assert!(
        trace
            .frame_times_ns
            .windows(2)
            .all(|pair| pair[1] >= pair[0])
    );
    assert_eq!(
        generate("ramp:50:50", 2.0).unwrap().frame_times_ns,
        generate("steady:50", 2.0).unwrap().frame_times_ns
    );
}

#[test]
fn every_pass_makes_the_frames_the_first_pass_counted() {
    for spec in [
        "steady:59.94",
        "jitter:144:3:5",
        "jitter:100:20:5",
        "hitch:60:100:0.5",
        "ramp:30:120",
    ] {
        let generated = GeneratedTrace::new(spec, 7.0).unwrap();
        let trace = generated.to_frame_trace();
        assert_eq!(generated.len(), trace.len() as u64, "{spec}");
        assert_eq!(generated.total_ns(), trace.total_ns(), "{spec}");
        assert_eq!(generated.source(), trace.source, "{spec}");
        assert_eq!(generated.notes(), trace.notes, "{spec}");
        assert!(generated.frames().eq(trace.frame_times_ns.iter().copied()));
        assert_eq!(generated.frame_count(), generated.len());
        assert!(generated.frame_times().eq(generated.frames()));
    }
}

#[test]
fn jitter_counts_its_raised_frames_in_its_note() {
    let generated = GeneratedTrace::new("jitter:100:20:5", 10.0).unwrap();
    let min = generated.frames().min().unwrap();
    let raised = generated.frames().filter(|&ns| ns == min).count();
    assert_eq!(
        generated.notes(),
        [format!(
            "jitter:100:20:5: {raised} of {} frames were raised to 10% of the period (the \
             noise would have made them shorter)",
            generated.len()
        )]
    );
}

proptest::proptest! {
    /// The carried division gives exactly the frame ends of the direct formula, for any
    /// rate the generators accept.
    #[test]
    fn steady_frames_end_where_the_formula_says(
        whole in 1u128..2000,
        decimals in 0u32..=9,
        digits in 0u128..1_000_000_000,
        frames in 1u64..3000,
    ) {
        let denominator = 10u128.pow(decimals);
        let rate = Rate {
            numerator: whole * denominator + digits % denominator,
            denominator,
        };
        let mut steady = SteadyFrames::new(rate);
        let mut end = 0u64;
        for k in 1..=frames {
            end += steady.next_frame();
            proptest::prop_assert_eq!(end, rate.frame_end_ns(k));
        }
        // Far along the sequence too: skip ahead by carrying the state exactly.
        let mut far = SteadyFrames::new(rate);
        let k = 1_000_000_000_u64;
        let twice = 2 * u128::from(k) * NANOS_PER_SECOND * rate.denominator + rate.numerator;
        far.end = twice / far.divisor;
        far.remainder = twice % far.divisor;
        let next = far.end as u64 + far.next_frame();
        proptest::prop_assert_eq!(next, rate.frame_end_ns(k + 1));
    }
}

proptest::proptest! {
    /// A steady pass counted by the formula has the frames and the total of one made frame
    /// by frame, whatever the rate and the duration (a nanosecond, or just short of,
    /// exactly at or just past a frame's end).
    #[test]
    fn a_steady_pass_counts_as_its_frames_do(
        whole in 1u128..=2000,
        decimals in 0u32..=9,
        digits in 0u128..1_000_000_000,
        duration_ns in proptest::prop_oneof![1u64..100_000_000, 0u64..=1],
        nudge in -1i64..=1,
    ) {
        let denominator = 10u128.pow(decimals);
        let rate = Rate {
            numerator: whole * denominator + digits % denominator,
            denominator,
        };
        let duration_ns = duration_ns.saturating_add_signed(nudge);
        let shape = Shape::Steady(rate);
        let mut pass = GeneratedFrames::new(shape, duration_ns);
        let frames = pass.by_ref().count() as u64;
        proptest::prop_assert_eq!(
            GeneratedFrames::count(shape, duration_ns),
            (frames, pass.total_ns, 0)
        );
        // And where a frame ends exactly.
        let at_end = rate.frame_end_ns(frames.min(50));
        let mut pass = GeneratedFrames::new(shape, at_end);
        let frames = pass.by_ref().count() as u64;
        proptest::prop_assert_eq!(
            GeneratedFrames::count(shape, at_end),
            (frames, pass.total_ns, 0)
        );
    }
}

#[test]
fn spec_errors_name_the_spec_field_and_range() {
    let message = |spec: &str, duration: f64| generate(spec, duration).unwrap_err().to_string();
    assert_eq!(
        message("steady:0", 10.0),
        "generator \"steady:0\": HZ 0 is out of range (allowed 1 to 2000 Hz)"
    );
    assert_eq!(
        message("jitter:60:1001", 10.0),
        "generator \"jitter:60:1001\": SD_MS 1001 is out of range (allowed 0 to 1000 ms)"
    );
    assert_eq!(
        message("hitch:60:0:2", 10.0),
        "generator \"hitch:60:0:2\": SPIKE_MS 0 is out of range (allowed more than 0 up to 60000 ms)"
    );
    assert_eq!(
        message("hitch:60:100:3601", 10.0),
        "generator \"hitch:60:100:3601\": EVERY_S 3601 is out of range (allowed more than 0 up to 3600 s)"
    );
    assert_eq!(
        message("ramp:30:2001", 10.0),
        "generator \"ramp:30:2001\": TO_HZ 2001 is out of range (allowed 1 to 2000 Hz)"
    );
    assert_eq!(
        message("steady:60", 0.0),
        "generator \"steady:60\": duration 0 is out of range (allowed more than 0 up to 86400 s)"
    );
    assert_eq!(
        message("steady:sixty", 10.0),
        "generator \"steady:sixty\": HZ \"sixty\" is not a number"
    );
    assert_eq!(
        message("steady:6e1", 10.0),
        "generator \"steady:6e1\": HZ \"6e1\" is not a decimal number such as 60 or 59.94 (at most 9 decimals)"
    );
    assert_eq!(
        message("jitter:60:2:-1", 10.0),
        "generator \"jitter:60:2:-1\": SEED \"-1\" is not a whole number from 0 to 18446744073709551615"
    );
    assert_eq!(
        message("steady:60:2", 10.0),
        "generator \"steady:60:2\" has 3 fields; expected steady:HZ"
    );
    assert_eq!(
        message("jitter:60", 10.0),
        "generator \"jitter:60\" has 2 fields; expected jitter:HZ:SD_MS[:SEED]"
    );
    assert_eq!(
        message("wobble:60", 10.0),
        "unknown generator \"wobble\" in \"wobble:60\"; expected one of steady, jitter, hitch, ramp \
         (e.g. steady:60, jitter:60:2, hitch:60:100:2, ramp:30:120)"
    );
    assert_eq!(
        message("hitch:60:0.0000001:1", 10.0),
        "generator \"hitch:60:0.0000001:1\": SPIKE_MS 0.0000001 is out of range (allowed more than 0 up to 60000 ms)"
    );
    assert_eq!(
        message("hitch:60:0.001:0.000001", 86_400.0),
        "generator \"hitch:60:0.001:0.000001\" would make more than 172800001 frames; \
         use a shorter duration or longer frames"
    );
    assert!(matches!(
        generate("steady:60", f64::NAN),
        Err(TraceError::GeneratorRange { .. })
    ));
    assert!(matches!(
        generate("steady:60", 86_400.5),
        Err(TraceError::GeneratorRange { .. })
    ));
}

#[test]
fn fuzz_generator_spec_whitespace_control_characters_are_escaped_in_the_source() {
    // Found by fuzz target generator_spec: the tab is trimmed off the field, so the spec
    // is valid, but it reached the source (printed by bench) raw.
    let trace = generate("ramp:1\t:1", 0.005).unwrap();
    assert_eq!(trace.source, "ramp:1\\t:1 (0.005 s)");
    let trace = generate("jitter:\r100:20:5", 1.0).unwrap();
    assert!(
        trace.source.starts_with("jitter:\\r100:20:5 "),
        "{}",
        trace.source
    );
    assert!(
        trace.notes[0].starts_with("jitter:\\r100:20:5: "),
        "{:?}",
        trace.notes
    );
}

#[test]
fn a_hitch_every_nanosecond_takes_time_in_proportion_to_the_frames() {
    // One steady frame, then every frame a 100 ms spike: a day is 864_001 frames. The
    // marks each spike passes were counted one nanosecond at a time, 8.64e13 steps (hours
    // for a command that should take milliseconds).
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(generate("hitch:60:100:0.000000001", 86_400.0));
    });
    let trace = receiver
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("a day of 100 ms hitches generated in well under 30 s")
        .unwrap();
    assert_eq!(trace.len(), 864_001);
    assert_eq!(trace.frame_times_ns[0], 16_666_667);
    assert!(
        trace.frame_times_ns[1..]
            .iter()
            .all(|&ns| ns == 100_000_000)
    );
}
