//! What the window draws: its own screenshot of the panel and the sphere, after a resize,
//! the comparison grid, and a screenshot that cannot be written.

use super::{
    assert_success, is_sphere_colour, lab, stdout, summary_value, temp_png, virtual_display,
};

#[test]
fn a_real_window_runs_120_frames_and_screenshots_itself() {
    let Some(display) = virtual_display() else {
        return;
    };
    let path = temp_png("window");
    let output = lab(
        &display,
        &[
            "--frames",
            "120",
            "--width",
            "1024",
            "--height",
            "640",
            "--screenshot",
            path.to_str().expect("utf-8 path"),
        ],
    );
    assert_success(&output);
    assert_eq!(summary_value(&output, "frames"), "120");
    // The main thread's work a frame, every frame drawn but the screenshot's (its readback
    // is not a frame's work).
    let work = summary_value(&output, "main thread");
    let figures: Vec<f64> = work
        .split(' ')
        .filter_map(|word| word.trim_start_matches('(').parse().ok())
        .collect();
    assert!(
        matches!(figures[..], [median, p99, 119.0] if 0.0 < median && median <= p99),
        "{work}"
    );
    let image = image::open(&path)
        .expect("the screenshot is a PNG")
        .to_rgba8();
    let _ = std::fs::remove_file(&path);
    assert_eq!(image.dimensions(), (1024, 640), "the window's size");

    // Opaque everywhere, the translucent ghost and the panel's blended text included:
    // what lets a page's WebGPU canvas be premultiplied with the same picture
    // (`app::surface`'s alpha mode).
    let translucent = image.pixels().filter(|p| p.0[3] != 255).count();
    assert_eq!(translucent, 0, "pixels with alpha under 255");

    // Not blank: many distinct colours.
    let mut colours: Vec<[u8; 4]> = image.pixels().step_by(7).map(|p| p.0).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 200, "only {} colours", colours.len());

    // The panel: the left strip is egui's dark panel with light text on it.
    let panel_width = timestep_lab::ui::PANEL_WIDTH as u32;
    let panel_dark = (0..640)
        .step_by(4)
        .filter(|&y| {
            let [r, g, b, _] = image.get_pixel(panel_width / 2 + 60, y).0;
            r < 45 && g < 45 && b < 45
        })
        .count();
    assert!(
        panel_dark > 80,
        "panel background on {panel_dark} of 160 rows"
    );
    let panel_text = image
        .enumerate_pixels()
        .filter(|(x, _, p)| *x < panel_width && p.0[0] > 170 && p.0[1] > 170 && p.0[2] > 170)
        .count();
    assert!(
        panel_text > 500,
        "{panel_text} light text pixels in the panel"
    );

    // The sphere: a blob of its colour in the scene area, none of it in the panel.
    let sphere = image
        .enumerate_pixels()
        .filter(|(x, _, p)| *x > panel_width && is_sphere_colour(p))
        .count();
    assert!(
        sphere > 1500,
        "{sphere} sphere-coloured pixels in the scene"
    );
}

#[test]
fn a_resized_window_rebuilds_its_targets() {
    let Some(display) = virtual_display() else {
        return;
    };
    let path = temp_png("resized");
    let output = lab(
        &display,
        &[
            "--frames",
            "40",
            "--width",
            "800",
            "--height",
            "500",
            "--no-panel",
            "--no-timeline",
            "--resize-at",
            "10:480x360",
            "--screenshot",
            path.to_str().expect("utf-8 path"),
        ],
    );
    assert_success(&output);
    let image = image::open(&path)
        .expect("the screenshot is a PNG")
        .to_rgba8();
    let _ = std::fs::remove_file(&path);
    assert_eq!(image.dimensions(), (480, 360), "the new size");
    assert_eq!(summary_value(&output, "configure errors"), "0");
    // The scene fills the new size: the sphere is drawn, and the four corners show the
    // background above the horizon (a stale target would fail validation or leave black).
    let sphere = image.pixels().filter(|p| is_sphere_colour(p)).count();
    assert!(sphere > 300, "{sphere} sphere pixels");
    let background = image.get_pixel(2, 2).0;
    for (x, y) in [(477, 2), (240, 2)] {
        let corner = image.get_pixel(x, y).0;
        let close = corner
            .iter()
            .zip(background)
            .all(|(a, b)| a.abs_diff(b) <= 12);
        assert!(
            close,
            "corner {x},{y} is {corner:?}, background {background:?}"
        );
    }
    assert!(
        background[2] > 40,
        "the background colour, not black: {background:?}"
    );
}

#[test]
fn compare_starts_the_named_panes_and_the_screenshot_holds_the_whole_grid() {
    let Some(display) = virtual_display() else {
        return;
    };
    let path = temp_png("compare");
    let (width, height) = (960u32, 600u32);
    let output = lab(
        &display,
        &[
            "--compare",
            "fixed,accumulator,interpolated",
            "--frames",
            "40",
            "--width",
            &width.to_string(),
            "--height",
            &height.to_string(),
            "--no-panel",
            "--no-timeline",
            "--msaa",
            "1",
            "--screenshot",
            path.to_str().expect("utf-8 path"),
        ],
    );
    assert_success(&output);
    assert_eq!(
        summary_value(&output, "panes"),
        "fixed,accumulator,interpolated"
    );
    let image = image::open(&path)
        .expect("the screenshot is a PNG")
        .to_rgba8();
    let _ = std::fs::remove_file(&path);
    assert_eq!(image.dimensions(), (width, height));
    // With the panel and the timeline hidden the panes share the whole window, and each
    // draws its own sphere in its own cell of the grid.
    let full = timestep_lab::render::Viewport::full(width, height);
    let cells = timestep_lab::app::grid_viewports(3, full);
    for (i, cell) in cells.iter().enumerate() {
        let sphere = image
            .enumerate_pixels()
            .filter(|(x, y, p)| {
                let (x, y) = (*x as f32, *y as f32);
                x >= cell.x
                    && x < cell.x + cell.width
                    && y >= cell.y
                    && y < cell.y + cell.height
                    && is_sphere_colour(p)
            })
            .count();
        assert!(sphere > 300, "pane {i}: {sphere} sphere-coloured pixels");
    }
}

#[test]
fn a_screenshot_that_cannot_be_written_fails_the_run_naming_the_file() {
    let Some(display) = virtual_display() else {
        return;
    };
    // A file on a full disk: every write to it fails with ENOSPC.
    let path = temp_png("full");
    let _ = std::fs::remove_file(&path);
    std::os::unix::fs::symlink("/dev/full", &path).expect("a symlink");
    let shown = path.to_str().expect("utf-8 path").to_owned();
    let output = lab(
        &display,
        &[
            "--frames",
            "2",
            "--width",
            "160",
            "--height",
            "120",
            "--no-panel",
            "--screenshot",
            &shown,
        ],
    );
    let _ = std::fs::remove_file(&path);
    let errors = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{errors}");
    assert!(
        errors.contains(&format!(
            "error: cannot write {shown}: No space left on device (os error 28)"
        )),
        "{errors}"
    );
    assert!(!errors.contains("panicked"), "{errors}");
    assert!(
        !stdout(&output).contains("screenshot:"),
        "{}",
        stdout(&output)
    );
}
