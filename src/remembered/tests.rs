use super::*;
use crate::live::Panes;
use crate::scene::{CameraDriver, Integrator};
use crate::timestep::{FilterSpec, Strategy};

/// Settings far from the defaults in every field.
fn unusual() -> Remembered {
    let mut settings = LiveSettings {
        strategy: Strategy::Preset(crate::timestep::EnginePreset::Matterjs019),
        compare: true,
        panes: Panes::new(&[
            Strategy::Variable,
            Strategy::Preset(crate::timestep::EnginePreset::GodotInterpolated),
            Strategy::Hermite,
        ])
        .expect("three panes"),
        focus: 2,
        rate_hz: 120.0,
        max_frame_time_ms: 100.0,
        max_steps: 5,
        integrator: Integrator::Rk4,
        spring_hz: 2.5,
        damping: 0.25,
        camera: CameraDriver::PerFrame,
        time_scale: 0.5,
        frame_cap_hz: 90.0,
        filter: FilterSpec::Average(6),
        refresh_override_hz: 144.0,
        ..LiveSettings::default()
    };
    settings.load.step_cost_ms = 3.0;
    settings.load.render_cost_ms = 4.0;
    settings.load.jitter_ms = 1.5;
    settings.load.hitch_ms = 200.0;
    settings.load.hitch_every_s = 3.0;
    Remembered {
        settings,
        present_mode: PresentModeId::Mailbox,
        panel: false,
        timeline: false,
        tour_chapter: 4,
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "timestep-lab-remembered-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn every_setting_survives_the_round_trip() {
    let saved = unusual();
    let (restored, warnings) = from_toml(&to_toml(&saved), "settings.toml");
    assert_eq!(warnings, Vec::<String>::new());
    assert_eq!(restored, saved);
    let (defaults, warnings) = from_toml(&to_toml(&Remembered::default()), "settings.toml");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(defaults, Remembered::default());
}

#[test]
fn a_bad_field_takes_its_default_and_is_named_while_the_others_are_kept() {
    let text = to_toml(&unusual())
        .replace("rate_hz = 120.0", "rate_hz = \"fast\"")
        .replace("spring_hz = 2.5", "spring_hz = 1e9")
        .replace("camera = \"per-frame\"", "camera = \"drone\"");
    let (restored, warnings) = from_toml(&text, "settings.toml");
    assert_eq!(restored.settings.rate_hz, LiveSettings::default().rate_hz);
    assert_eq!(
        restored.settings.spring_hz,
        LiveSettings::default().spring_hz
    );
    assert_eq!(restored.settings.camera, LiveSettings::default().camera);
    assert_eq!(
        restored.settings.integrator,
        Integrator::Rk4,
        "the rest is kept"
    );
    assert_eq!(restored.present_mode, PresentModeId::Mailbox);
    assert_eq!(warnings.len(), 3, "{warnings:#?}");
    assert!(
        warnings[0].contains("`rate_hz` = \"fast\": not a number"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings.iter().any(
            |w| w.contains("`spring_hz` = 1000000000:") && w.contains("allowed 0.01 to 200 Hz")
        ),
        "{warnings:#?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("`camera` = \"drone\"")),
        "{warnings:#?}"
    );
}

#[test]
fn a_corrupt_or_truncated_file_gives_the_defaults_and_says_where() {
    let text = to_toml(&unusual());
    let truncated = &text[..text.find("rate_hz").expect("a rate") + 9];
    for (broken, what) in [(truncated, "truncated"), ("\u{0}\u{1}garbage[[", "garbage")] {
        let (restored, warnings) = from_toml(broken, "settings.toml");
        assert_eq!(restored, Remembered::default(), "{what}");
        assert_eq!(warnings.len(), 1, "{what}: {warnings:#?}");
        assert!(
            warnings[0].contains("not a settings file (line"),
            "{}",
            warnings[0]
        );
        assert!(!warnings[0].contains('\u{0}'), "no raw control characters");
    }
}

#[test]
fn an_outdated_file_is_read_where_it_can_be_and_says_so() {
    let text = to_toml(&unusual()).replace("version = 1", "version = 0")
        + "old_setting = 3\n\"\\u001b[31m\" = 1\n";
    let (restored, warnings) = from_toml(&text, "settings.toml");
    assert_eq!(restored, unusual());
    assert!(warnings[0].contains("version 0 is not 1"), "{warnings:#?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("unknown setting `old_setting`"))
    );
    // An escape sequence in a key is shown escaped, never sent to the terminal.
    assert!(
        warnings.iter().all(|w| !w.contains('\u{1b}')),
        "{warnings:#?}"
    );
    // A file from before a setting existed: that one takes its default.
    let without = to_toml(&unusual()).replace("timeline = false\n", "");
    let (restored, warnings) = from_toml(&without, "settings.toml");
    assert!(restored.timeline);
    assert_eq!(
        warnings,
        ["settings.toml: `timeline` is missing; it takes its default"]
    );
    // A file from before the tour: no chapter yet, and nothing to warn about.
    let before_the_tour = to_toml(&unusual()).replace("tour_chapter = \"spiral\"\n", "");
    let (restored, warnings) = from_toml(&before_the_tour, "settings.toml");
    assert_eq!(restored.tour_chapter, 1);
    assert_eq!(warnings, Vec::<String>::new());
    // A chapter past the last is named with the range.
    let past = to_toml(&unusual()).replace("tour_chapter = \"spiral\"", "tour_chapter = 99");
    let (restored, warnings) = from_toml(&past, "settings.toml");
    assert_eq!(restored.tour_chapter, 1);
    assert_eq!(
        warnings,
        [format!(
            "settings.toml: `tour_chapter` = 99: out of range (allowed 0 to {}); it takes its \
             default",
            crate::tour::CHAPTERS.len()
        )]
    );
}

#[test]
fn a_file_with_problems_is_backed_up_before_anything_can_overwrite_it() {
    let dir = temp_dir("backup");
    let path = dir.join(SETTINGS_FILE);
    // None at all: defaults, silently, and no backup; a first run (the tour is offered).
    assert_eq!(
        restore(&path),
        Restored {
            first_run: true,
            ..Restored::default()
        }
    );
    let broken = "strategy = \"interpolated\"\nrate_hz = [";
    std::fs::write(&path, broken).expect("written");
    let first = restore(&path);
    assert_eq!(first.remembered, Remembered::default());
    let backup = first.backup.expect("a backup");
    assert_eq!(backup, dir.join("settings.toml.bak"));
    assert_eq!(std::fs::read_to_string(&backup).expect("kept"), broken);
    // A second bad start keeps the first backup and makes another.
    let second = restore(&path).backup.expect("a second backup");
    assert_eq!(second, dir.join("settings.toml.bak.2"));
    save(&path, &unusual()).expect("saved");
    assert_eq!(restore(&path).remembered, unusual());
    assert_eq!(
        std::fs::read_to_string(&backup).expect("still kept"),
        broken
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn save_names_the_path_it_cannot_write() {
    let dir = temp_dir("unwritable");
    // A directory where the file should be: the rename over it fails.
    let path = dir.join(SETTINGS_FILE);
    std::fs::create_dir_all(path.join("inside")).expect("a directory in the way");
    let error = format!(
        "{:#}",
        save(&path, &Remembered::default()).expect_err("refused")
    );
    assert!(error.contains(&path.display().to_string()), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_empty_or_huge_file_is_one_warning_and_the_defaults() {
    let (restored, warnings) = from_toml("", "settings.toml");
    assert_eq!(restored, Remembered::default());
    assert_eq!(
        warnings,
        ["settings.toml: holds no timestep-lab setting; every setting takes its default"]
    );
    let dir = temp_dir("huge");
    let path = dir.join(SETTINGS_FILE);
    std::fs::write(&path, vec![b'#'; MAX_SETTINGS_BYTES as usize + 1]).expect("written");
    let restored = restore(&path);
    assert_eq!(restored.remembered, Remembered::default());
    assert_eq!(restored.warnings.len(), 1, "{:?}", restored.warnings);
    assert!(restored.warnings[0].contains("larger than a settings file can be"));
    assert!(restored.safe_to_save(), "kept as a backup first");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_value_is_named_escaped() {
    // A right-to-left override or an escape inside a value never reaches the terminal raw.
    let text = to_toml(&unusual()).replace("camera = \"per-frame\"", "camera = \"x\u{202e}y\"");
    let (restored, warnings) = from_toml(&text, "settings.toml");
    assert_eq!(restored.settings.camera, LiveSettings::default().camera);
    let warning = warnings
        .iter()
        .find(|w| w.contains("`camera`"))
        .expect("the camera is named");
    assert!(!warning.contains('\u{202e}'), "raw in {warning:?}");
    assert!(warning.contains("x\\u{202e}y"), "escaped: {warning}");
}

#[test]
fn a_tiny_value_is_quoted_as_short_as_it_was_typed() {
    // TOML writes 1e-300 with some three hundred digits, which the warning used to quote.
    let (_, warnings) = from_toml("rate_hz = 1e-300\n", "settings.toml");
    let warning = warnings
        .iter()
        .find(|w| w.contains("`rate_hz`"))
        .expect("the rate is named");
    assert!(
        warning.contains("`rate_hz` = 1e-300: physics rate 1e-300 Hz is out of range"),
        "{warning}"
    );
    assert!(warning.len() < 160, "{warning}");
}

/// A settings file that is a link to `/dev/zero`, a named pipe or a directory: one warning
/// naming it and the defaults, at once, without a backup (copying `/dev/zero` never ends) and
/// without saving over it. The window used to grow until the OOM killer came (`/dev/zero`)
/// or hang for ever (a pipe with no writer).
#[cfg(unix)]
#[test]
fn a_settings_file_that_is_not_a_regular_file_is_one_warning_and_never_blocks() {
    let dir = temp_dir("special");
    let link = dir.join("zero.toml");
    std::os::unix::fs::symlink("/dev/zero", &link).expect("a symlink");
    let fifo = dir.join("pipe.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    let mut cases = vec![(link, "a character device"), (dir.clone(), "a directory")];
    if made.is_ok_and(|status| status.success()) {
        cases.push((fifo, "a named pipe"));
    }
    for (path, kind) in cases {
        // On a thread, so a read that blocks fails the test instead of hanging it.
        let (sent, received) = std::sync::mpsc::channel();
        let shown = path.clone();
        std::thread::spawn(move || {
            // The receiver may have given up; then there is no one to tell.
            let _ = sent.send(restore(&shown));
        });
        let restored = received
            .recv_timeout(std::time::Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("{} blocked", path.display()));
        assert_eq!(restored.remembered, Remembered::default());
        assert_eq!(
            restored.warnings,
            [format!(
                "{}: not a regular file ({kind}); every setting takes its default",
                path.display()
            )]
        );
        assert_eq!(restored.backup, None);
        assert!(!restored.safe_to_save(), "nothing is saved over {kind}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stale `settings.toml.tmp` that is a link planted to another file: the save once wrote
/// the settings into that file and left `settings.toml` a link to it. Now the link is
/// removed, not followed, and the settings file is a plain file of its own.
#[cfg(unix)]
#[test]
fn a_link_planted_as_the_temporary_file_is_never_followed() {
    let dir = temp_dir("planted");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "a user's file\n").expect("written");
    let path = dir.join(SETTINGS_FILE);
    std::os::unix::fs::symlink(&victim, dir.join("settings.toml.tmp")).expect("a link");
    save(&path, &unusual()).expect("saved");
    assert_eq!(
        std::fs::read_to_string(&victim).expect("still there"),
        "a user's file\n"
    );
    let meta = std::fs::symlink_metadata(&path).expect("the settings file");
    assert!(meta.is_file(), "a plain file, not a link: {meta:?}");
    let restored = restore(&path);
    assert!(restored.warnings.is_empty(), "{:?}", restored.warnings);
    assert_eq!(restored.remembered, unusual());
    assert!(!dir.join("settings.toml.tmp").exists(), "no temporary left");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A settings file that is a link to a file elsewhere (a dotfile manager keeps it in its
/// own repository) stays a link: its target gets the settings, written atomically beside
/// itself.
#[cfg(unix)]
#[test]
fn a_settings_file_that_links_to_a_dotfile_keeps_the_link() {
    let dir = temp_dir("dotfiles");
    let dotfiles = dir.join("dotfiles");
    std::fs::create_dir_all(&dotfiles).expect("a directory");
    let target = dotfiles.join("timestep-lab.toml");
    save(&target, &Remembered::default()).expect("saved");
    let path = dir.join(SETTINGS_FILE);
    std::os::unix::fs::symlink(&target, &path).expect("a link");
    save(&path, &unusual()).expect("saved through the link");
    assert!(
        std::fs::symlink_metadata(&path)
            .expect("there")
            .is_symlink(),
        "still a link"
    );
    assert_eq!(
        restore(&target).remembered,
        unusual(),
        "the target holds the settings"
    );
    assert!(!dotfiles.join("timestep-lab.toml.tmp").exists());
    assert!(!dir.join("settings.toml.tmp").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_tour_chapter_is_kept_by_its_id_and_an_older_files_position_still_reads() {
    let text = to_toml(&unusual());
    assert!(text.contains("tour_chapter = \"spiral\"\n"), "{text}");
    let (restored, warnings) = from_toml(&text, "settings.toml");
    assert_eq!(restored.tour_chapter, 4);
    assert!(warnings.is_empty(), "{warnings:?}");
    // What earlier versions wrote: the position.
    let numbered = text.replace("tour_chapter = \"spiral\"", "tour_chapter = 7");
    let (restored, warnings) = from_toml(&numbered, "settings.toml");
    assert_eq!(restored.tour_chapter, 7);
    assert!(warnings.is_empty(), "{warnings:?}");
    // An id no chapter has: the default, and the ids in the warning.
    let unknown = text.replace("tour_chapter = \"spiral\"", "tour_chapter = \"warp\"");
    let (restored, warnings) = from_toml(&unknown, "settings.toml");
    assert_eq!(restored.tour_chapter, 1);
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains("`tour_chapter` = \"warp\": no such chapter (allowed: fixed,"),
        "{warnings:?}"
    );
    // The first chapter, where a reader who never opened the tour starts.
    assert!(to_toml(&Remembered::default()).contains("tour_chapter = \"fixed\"\n"));
}
