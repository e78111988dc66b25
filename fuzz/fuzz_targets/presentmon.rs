//! Fuzzes the reader of PresentMon CSV captures (any generation): any bytes, read as that format
//! (`trace::read_as`, no detection), never panic, and give a trace that keeps its invariants
//! or an error that names the problem printably, the same when read piece by piece.
//!
//! A line `#process:NAME` or `#swap-chain:ADDR` in the input (a comment to the reader) gives
//! `--process` or `--swap-chain`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use timestep_lab::trace::{TraceFormat, read_as};
use timestep_lab_fuzz::{SOURCE, check_read, options_in};

fuzz_target!(|data: &[u8]| {
    let options = options_in(data);
    check_read(data, |reader| {
        read_as(reader, SOURCE, TraceFormat::PresentMon, &options)
    });
});
