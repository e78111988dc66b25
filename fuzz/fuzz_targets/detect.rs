//! Fuzzes what `bench --trace` does with a file: any bytes, read with `trace::read`, which
//! detects the encoding and the format, never panic, and give a trace that keeps its
//! invariants or an error that names the problem printably, the same when read piece by
//! piece. A NUL byte is never read past in silence: a trace read from bytes that hold one
//! was read as UTF-16 (where NULs are half of every character).
//!
//! A line `#process:NAME` or `#swap-chain:ADDR` in the input (a comment to every reader)
//! gives `--process` or `--swap-chain`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use timestep_lab::trace::read;
use timestep_lab_fuzz::{SOURCE, check_read, options_in};

fuzz_target!(|data: &[u8]| {
    let options = options_in(data);
    check_read(data, |reader| read(reader, SOURCE, &options));
    if data.contains(&0)
        && !data.starts_with(&[0xFF, 0xFE])
        && !data.starts_with(&[0xFE, 0xFF])
        && let Ok(trace) = read(data, SOURCE, &options)
    {
        assert!(
            trace.notes.iter().any(|note| note.contains("read as UTF-16")),
            "a NUL read past in silence: {:?}",
            trace.notes
        );
    }
});
