//! Fuzzes the reader of plain frame times, one per line: any bytes, read as that format
//! (`trace::read_as`, no detection), never panic, and give a trace that keeps its invariants
//! or an error that names the problem printably, the same when read piece by piece.

#![no_main]

use libfuzzer_sys::fuzz_target;
use timestep_lab::trace::{LoadOptions, TraceFormat, read_as};
use timestep_lab_fuzz::{SOURCE, check_read};

fuzz_target!(|data: &[u8]| {
    let options = LoadOptions::default();
    check_read(data, |reader| {
        read_as(reader, SOURCE, TraceFormat::Plain, &options)
    });
});
