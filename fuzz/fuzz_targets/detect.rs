//! Fuzzes what `bench --trace` does with a file: any bytes, read with `trace::read`, which
//! detects the encoding and the format, never panic, and give a trace that keeps its
//! invariants or an error that names the problem printably, the same when read piece by
//! piece.
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
});
