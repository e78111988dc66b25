//! Fuzzes the command line: the input, split at ASCII whitespace into words, is parsed by
//! clap as `timestep-lab WORDS...`, then checked as `main` checks it before any work
//! (`BenchArgs::check`, `SweepArgs::check`, `RenderArgs::options`, `BenchRenderArgs::options`, the window's
//! options over default remembered settings). Nothing runs: no bench, no trace is read, no
//! generator runs, no window opens, and the remembered settings are never read or written.
//! Output paths are only looked at (`is_dir`, `canonicalize`), never created.
//!
//! Invariants: no panic; what clap accepts its derive turns into a `Cli`; options that pass
//! the checks are within their ranges (the settings validate again, the display and filter
//! read back from how they are printed); and when no word holds a control character, no
//! message of the lab's checks does either (clap's own messages span lines and are not
//! checked).

#![no_main]

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt as _;

use clap::{CommandFactory as _, FromArgMatches as _};
use libfuzzer_sys::fuzz_target;
use timestep_lab::cli::{Cli, Command};
use timestep_lab::display::DisplaySpec;
use timestep_lab::live::LiveSettings;
use timestep_lab::remembered::Remembered;
use timestep_lab::timestep::FilterSpec;
use timestep_lab_fuzz::{assert_printable, is_unsafe};

fuzz_target!(|data: &[u8]| {
    let words = data
        .split(|byte| byte.is_ascii_whitespace())
        .filter(|word| !word.is_empty())
        .map(|word| OsString::from_vec(word.to_vec()));
    let argv: Vec<OsString> = std::iter::once(OsString::from("timestep-lab"))
        .chain(words)
        .collect();
    let printable_input = !String::from_utf8_lossy(data)
        .chars()
        .any(|ch| is_unsafe(ch) && !ch.is_ascii_whitespace());

    let matches = match Cli::command().try_get_matches_from(&argv) {
        Ok(matches) => matches,
        Err(error) => {
            assert!(!error.to_string().trim().is_empty(), "an empty clap error");
            return;
        }
    };
    let cli = Cli::from_arg_matches(&matches).expect("clap's matches make a Cli");
    let checked: anyhow::Result<()> = match &cli.command {
        Some(Command::Bench(args)) => args.check().map(|(strategies, settings)| {
            assert!(!strategies.is_empty(), "no strategy to run");
            assert!(settings.timestep.dt_ns() > 0, "a zero step");
            settings.scene.validate().expect("checked scene");
            round_trips(settings.display, settings.filter);
        }),
        Some(Command::Sweep(args)) => args.check().map(|(strategies, settings)| {
            assert!(!strategies.is_empty(), "no strategy to run");
            settings.load.validate().expect("checked load");
            let load = args.load;
            assert!((2..=timestep_lab::sweep::MAX_LEVELS).contains(&load.levels));
            assert!(load.from_ms.is_finite() && load.from_ms < load.to_ms);
            assert!(load.to_ms <= load.kind.max_ms());
            assert_eq!(load.kind.value(&settings.load), 0.0, "the swept load given twice");
            // Every level is a load the model takes.
            for index in [0, 1, load.levels / 2, load.levels - 1] {
                settings
                    .with_load(load.kind.set(settings.load, load.level(index)))
                    .expect("a level within range");
            }
            round_trips(settings.display, settings.filter);
        }),
        Some(Command::Render(args)) => args.options().map(|options| {
            live_in_range(&options.settings);
            assert!((0.0..=3600.0).contains(&options.time_s));
            assert!((1.0..=1000.0).contains(&options.display_hz));
        }),
        Some(Command::BenchRender(args)) => {
            let options = args.options();
            assert!((1..=1_000_000).contains(&options.frames));
            let most = timestep_lab::live::MAX_PANES;
            assert!((1..=most).contains(&(options.panes as usize)));
            assert!(matches!(options.msaa, None | Some(1 | 4)));
            // Every part left out is one the help lists, named as typed.
            let named: Vec<&str> = args.without.iter().map(|part| part.id()).collect();
            assert!(named.iter().all(|id| id.parse::<timestep_lab::options::FramePart>().is_ok()));
            assert_eq!(options.without.iter().count(), {
                let mut unique = named.clone();
                unique.sort_unstable();
                unique.dedup();
                unique.len()
            });
            Ok(())
        }
        None => {
            let alone = cli.window.options();
            let over = cli
                .window
                .options_over(&matches, &Remembered::default())
                .map(|options| live_in_range(&options.settings));
            // Over the defaults, the command line is what counts: both agree.
            assert_eq!(
                alone.is_ok(),
                over.is_ok(),
                "options {alone:?} but over the defaults {over:?}"
            );
            alone.map(|options| live_in_range(&options.settings))
        }
    };
    if let Err(error) = checked {
        let message = format!("{error:#}");
        assert!(!message.trim().is_empty(), "an empty message");
        if printable_input {
            assert_printable("an option's error message", &message);
        }
    }
});

/// Panics unless the window's (or `render`'s) checked settings validate again and their
/// filter reads back.
fn live_in_range(settings: &LiveSettings) {
    settings.validate().expect("checked settings validate");
    round_trips(DisplaySpec::Cpu, settings.filter);
}

/// Panics unless the display and filter parse back from their printed form (the plot's
/// title and the JSON print them so).
fn round_trips(display: DisplaySpec, filter: FilterSpec) {
    assert_eq!(
        DisplaySpec::parse(&display.to_string()),
        Ok(display),
        "display {display}"
    );
    assert_eq!(
        FilterSpec::parse(&filter.to_string()),
        Ok(filter),
        "filter {filter}"
    );
}
