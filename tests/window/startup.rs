//! Starting up: the note about an unset `XDG_RUNTIME_DIR`, and settings remembered between
//! runs.

use super::{assert_success, lab, lab_configured, lab_without, summary_value, virtual_display};

#[test]
fn an_unset_xdg_runtime_dir_is_explained_before_the_wayland_library_complains() {
    let Some(display) = virtual_display() else {
        return;
    };
    let output = lab_without(&display, &["--frames", "3"], &["XDG_RUNTIME_DIR"]);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let note = stderr
        .find("note: XDG_RUNTIME_DIR is not set")
        .unwrap_or_else(|| panic!("no explanation: {stderr}"));
    assert!(stderr[note..].contains("It is harmless"), "{stderr}");
    if let Some(complaint) = stderr.find("error: XDG_RUNTIME_DIR") {
        assert!(note < complaint, "the note comes first: {stderr}");
    }
    // With a usable runtime directory there is nothing to explain.
    let output = lab(&display, &["--frames", "3"]);
    if std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|dir| std::path::Path::new(&dir).is_dir()) {
        assert!(!String::from_utf8_lossy(&output.stderr).contains("note: XDG_RUNTIME_DIR"));
    }
}

#[test]
fn settings_are_remembered_between_runs_and_a_bad_file_is_kept_and_explained() {
    let Some(display) = virtual_display() else {
        return;
    };
    let config_home =
        std::env::temp_dir().join(format!("timestep-lab-remember-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&config_home);
    let file = config_home.join("timestep-lab").join("settings.toml");
    let small = ["--width", "240", "--height", "180", "--frames", "3"];
    let run = |extra: &[&str]| {
        let mut args = small.to_vec();
        args.extend(extra);
        let output = lab_configured(&display, &args, &[], &config_home);
        assert_success(&output);
        output
    };
    let first = run(&["--strategy", "fixed", "--hz", "120"]);
    assert_eq!(
        summary_value(&first, "settings saved"),
        file.display().to_string()
    );
    let saved = std::fs::read_to_string(&file).expect("saved on closing");
    assert!(saved.contains("strategy = \"fixed\"") && saved.contains("rate_hz = 120.0"));
    // Restored the next time; an option given overrides it.
    let second = run(&[]);
    assert_eq!(summary_value(&second, "panes"), "fixed");
    let third = run(&["--strategy", "accumulator"]);
    assert_eq!(summary_value(&third, "panes"), "accumulator");
    // --no-config neither reads nor writes the file.
    let before = std::fs::read_to_string(&file).expect("still there");
    let ignored = run(&["--no-config"]);
    assert_eq!(summary_value(&ignored, "panes"), "interpolated");
    assert_eq!(std::fs::read_to_string(&file).expect("untouched"), before);
    // A corrupt value: the app runs, names the setting, keeps the file as it was.
    let broken = before.replace("rate_hz = 120.0", "rate_hz = \"fast\"");
    std::fs::write(&file, &broken).expect("written");
    let recovered = run(&[]);
    let stderr = String::from_utf8_lossy(&recovered.stderr);
    assert!(
        stderr.contains("`rate_hz` = \"fast\": not a number"),
        "{stderr}"
    );
    let backup = file.with_file_name("settings.toml.bak");
    assert_eq!(std::fs::read_to_string(&backup).expect("kept"), broken);
    assert_eq!(summary_value(&recovered, "panes"), "accumulator");
    // A link to /dev/zero in its place: a warning naming it, the defaults, the window opens
    // (it used to read until the OOM killer came), and nothing is saved over it.
    std::fs::remove_file(&file).expect("removed");
    std::os::unix::fs::symlink("/dev/zero", &file).expect("a symlink");
    let zero = run(&[]);
    let stderr = String::from_utf8_lossy(&zero.stderr);
    assert!(
        stderr.contains(&format!(
            "warning: {}: not a regular file (a character device)",
            file.display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("the settings will not be saved"),
        "{stderr}"
    );
    assert_eq!(summary_value(&zero, "panes"), "interpolated");
    assert!(file.is_symlink(), "the link is left as it was");
    let _ = std::fs::remove_dir_all(&config_home);
}
