//! The command line's own checks: options over remembered settings, ranges and flags.

use clap::Parser as _;

use super::*;
use crate::live::PresentModeId;
use crate::options::WindowOptions;
use crate::remembered::Remembered;
use crate::scene::CameraDriver;
use crate::timestep::{EnginePreset, Strategy};

fn options(args: &[&str]) -> anyhow::Result<WindowOptions> {
    let cli = Cli::try_parse_from(std::iter::once("timestep-lab").chain(args.iter().copied()))?;
    cli.window.options()
}

/// The window's options for `args` over `remembered`.
fn options_over(args: &[&str], remembered: &Remembered) -> anyhow::Result<WindowOptions> {
    use clap::{CommandFactory as _, FromArgMatches as _};
    let matches = Cli::command()
        .try_get_matches_from(std::iter::once("timestep-lab").chain(args.iter().copied()))?;
    Cli::from_arg_matches(&matches)?
        .window
        .options_over(&matches, remembered)
}

#[test]
fn options_given_override_the_remembered_ones_and_the_rest_are_kept() {
    let mut remembered = Remembered {
        present_mode: PresentModeId::Mailbox,
        timeline: false,
        ..Remembered::default()
    };
    remembered.settings.strategy = Strategy::Fixed;
    remembered.settings.rate_hz = 120.0;
    remembered.settings.load.hitch_ms = 300.0;
    remembered.settings.time_scale = 0.5;
    // Nothing given: all remembered.
    let kept = options_over(&[], &remembered).expect("valid");
    assert_eq!(kept.settings, remembered.settings);
    assert_eq!(kept.present_mode, PresentModeId::Mailbox);
    assert!(!kept.timeline && kept.panel);
    // Given: those win, even when equal to their defaults.
    let given = options_over(
        &["--hz", "50", "--time-scale", "1", "--present-mode", "fifo"],
        &remembered,
    )
    .expect("valid");
    assert_eq!(given.settings.rate_hz, 50.0);
    assert_eq!(given.settings.time_scale, 1.0);
    assert_eq!(given.present_mode, PresentModeId::Fifo);
    assert_eq!(
        given.settings.strategy,
        Strategy::Fixed,
        "not given: remembered"
    );
    assert_eq!(given.settings.load.hitch_ms, 300.0);
    // --strategy leaves a remembered comparison; --compare starts one.
    remembered.settings.set_compare(true);
    let single = options_over(&["--strategy", "variable"], &remembered).expect("valid");
    assert!(!single.settings.compare);
    assert_eq!(single.settings.strategy, Strategy::Variable);
    let compared =
        options_over(&["--compare", "fixed,variable"], &Remembered::default()).expect("ok");
    assert_eq!(
        compared.settings.pane_strategies(),
        [Strategy::Fixed, Strategy::Variable]
    );
}

#[test]
fn compare_focus_and_preset_reach_the_settings() {
    let settings = options(&[
        "--compare",
        "fixed,accumulator,interpolated",
        "--focus",
        "2",
    ])
    .expect("valid")
    .settings;
    assert!(settings.compare);
    assert_eq!(
        settings.panes.as_slice(),
        [
            Strategy::Fixed,
            Strategy::Accumulator,
            Strategy::Interpolated
        ]
    );
    assert_eq!(settings.focus, 1);
    let settings = options(&["--preset", "camera-vs-sphere"])
        .expect("valid")
        .settings;
    assert_eq!(settings.camera, CameraDriver::PerFrame);
    assert_eq!(
        settings.pane_strategies(),
        [Strategy::Accumulator, Strategy::Interpolated]
    );
    // --compare names the panes the preset compares.
    let settings = options(&["--preset", "camera-vs-sphere", "--compare", "all"])
        .expect("valid")
        .settings;
    assert_eq!(settings.pane_strategies(), Strategy::ALL);
    let settings = options(&[]).expect("valid").settings;
    assert!(!settings.compare);
    assert_eq!(settings.focus, 0);
    // Without --focus, the accumulator's pane is focused.
    let settings = options(&["--compare", "all"]).expect("valid").settings;
    assert_eq!(settings.focus, 3);
    let settings = options(&["--compare", "fixed,variable"])
        .expect("valid")
        .settings;
    assert_eq!(settings.focus, 0);
    // Engine presets mix with the strategies.
    let settings = options(&["--compare", "accumulator,godot,unity-interpolate"])
        .expect("valid")
        .settings;
    assert_eq!(
        settings.panes.as_slice(),
        [
            Strategy::Accumulator,
            Strategy::Preset(EnginePreset::Godot),
            Strategy::Preset(EnginePreset::UnityInterpolate)
        ]
    );
    let settings = options(&["--strategy", "matterjs"])
        .expect("valid")
        .settings;
    assert_eq!(settings.strategy, Strategy::Preset(EnginePreset::Matterjs));
}

#[test]
fn a_scale_factor_the_window_cannot_take_is_refused_with_the_range() {
    use std::ffi::OsStr;
    for fine in [
        None,
        Some(""),
        Some("randr"),
        Some("RandR"),
        Some("2"),
        Some("1.5"),
    ] {
        assert!(
            check_x11_scale_factor(fine.map(OsStr::new)).is_ok(),
            "{fine:?}"
        );
    }
    for bad in [
        "0",
        "NaN",
        "-2",
        "inf",
        "1e300",
        "0.01",
        "big",
        "2\u{1b}[31m",
        " 2",
        "2 ",
        "randr ",
    ] {
        let message = check_x11_scale_factor(Some(OsStr::new(bad)))
            .expect_err(bad)
            .to_string();
        assert!(
            message.starts_with("WINIT_X11_SCALE_FACTOR=")
                && message.contains("allowed: a number from 0.1 to 16")
                && !message.contains('\u{1b}'),
            "{message}"
        );
    }
}

#[test]
fn a_screenshot_over_the_recording_or_the_replay_is_refused() {
    let dir = std::env::temp_dir().join(format!("timestep-lab-shot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let shot = dir.join("same.png");
    let shot = shot.to_str().expect("utf-8");
    let error = options(&["--screenshot", shot, "--record", shot])
        .expect_err("one file for both")
        .to_string();
    assert_eq!(
        error,
        format!("--screenshot and --record both name {shot}: name two files")
    );
    // A trace to replay under a .png name, and a hard link to it: the same file.
    let replayed = dir.join("frames.png");
    std::fs::write(&replayed, "16.7\n16.7\n16.7\n").expect("written");
    let link = dir.join("link.png");
    std::fs::hard_link(&replayed, &link).expect("a hard link");
    let error = options(&[
        "--replay",
        replayed.to_str().expect("utf-8"),
        "--screenshot",
        link.to_str().expect("utf-8"),
    ])
    .expect_err("the replay's own file")
    .to_string();
    assert!(error.contains("is the file --replay reads"), "{error}");
    assert_eq!(
        std::fs::read_to_string(&replayed).expect("kept"),
        "16.7\n16.7\n16.7\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every whole-number option names the range its parser enforces, read from the same table
/// ([`ranges::WHOLE_OPTIONS`]): out of range on either side, negative, past the type that
/// holds it (`2^32`) or not whole, each is refused with `from LOW to HIGH`; both ends are
/// taken. `--max-steps -1` used to say "not in 0..=4294967295" where 0 to 100000 applies.
#[test]
fn every_whole_number_option_names_the_range_it_enforces() {
    for (command, flag, range) in ranges::WHOLE_OPTIONS {
        let args = |value: &str| {
            let mut args = vec!["timestep-lab"];
            if !command.is_empty() {
                args.push(command);
            }
            // What each command needs besides.
            match command {
                "render" => args.extend(["--out", "x.png"]),
                "sweep" => args.extend(["--load", "step-cost:0..10"]),
                _ => {}
            }
            args.extend([flag, value]);
            args.into_iter().map(str::to_owned).collect::<Vec<_>>()
        };
        let mut wrong = vec![
            (u64::from(range.high) + 1).to_string(),
            "-1".to_owned(),
            "4294967296".to_owned(),
            "1e-300".to_owned(),
            "2.5".to_owned(),
        ];
        if range.low > 0 {
            wrong.push((range.low - 1).to_string());
        }
        for value in wrong {
            let error = Cli::try_parse_from(args(&value))
                .expect_err(&value)
                .to_string();
            assert!(
                error.contains(&format!(
                    "{value} is not a whole number from {}",
                    range.allowed()
                )),
                "{command} {flag} {value}: {error}"
            );
        }
        for value in [range.low, range.high] {
            let parsed = Cli::try_parse_from(args(&value.to_string()));
            assert!(parsed.is_ok(), "{command} {flag} {value}: {parsed:?}");
        }
    }
    // --resize-at's parts name their ranges too.
    for (value, said) in [
        (
            "0:640x360",
            format!(
                "N 0 is not a whole number from {}",
                ranges::RESIZE_FRAME.allowed()
            ),
        ),
        (
            "30:0x360",
            format!(
                "W 0 is not a whole number from {}",
                ranges::IMAGE_SIZE.allowed()
            ),
        ),
        (
            "30:640x16385",
            format!(
                "H 16385 is not a whole number from {}",
                ranges::IMAGE_SIZE.allowed()
            ),
        ),
        ("30x640", "is not N:WxH".to_owned()),
    ] {
        let error = Cli::try_parse_from(["timestep-lab", "--resize-at", value])
            .expect_err(value)
            .to_string();
        assert!(error.contains(&said), "--resize-at {value}: {error}");
    }
    assert!(Cli::try_parse_from(["timestep-lab", "--resize-at", "1:1x16384"]).is_ok());
    // No option reads a whole number through clap's own ranges, which name the type's.
    for (file, text) in [
        ("window_args.rs", include_str!("window_args.rs")),
        ("bench_args.rs", include_str!("bench_args.rs")),
    ] {
        assert!(
            !text.contains("value_parser!(u"),
            "{file} bypasses ranges.rs"
        );
    }
    // The settings file's max_steps names the same range.
    let (_, warnings) = crate::remembered::from_toml("max_steps = -1\n", "s.toml");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("`max_steps` = -1: out of range (allowed 0 (off) to 100000)")),
        "{warnings:?}"
    );
}

#[test]
fn the_desktop_application_refuses_the_browsers_backend_naming_its_own() {
    assert_eq!(parse_backend("gl"), Ok(GpuBackend::Gl));
    assert_eq!(
        parse_backend("webgpu"),
        Err(
            "webgpu is a browser's; the desktop application draws with vulkan or dx12 or \
             metal or gl"
                .to_owned()
        )
    );
    assert_eq!(
        parse_backend(""),
        Err("unknown graphics backend \"\" (allowed: vulkan, dx12, metal, gl)".to_owned())
    );
}
