//! Helpers shared by the GPU tests.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use timestep_lab::render::GpuContext;

/// A headless GPU context, or `None` (with a note on stderr) when this machine has no
/// adapter. Set `TIMESTEP_LAB_REQUIRE_GPU=1` to turn a missing adapter into a failure (CI).
pub fn gpu_or_skip() -> Option<GpuContext> {
    match GpuContext::headless(None) {
        Ok(ctx) => Some(ctx),
        Err(error) => {
            if std::env::var("TIMESTEP_LAB_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("TIMESTEP_LAB_REQUIRE_GPU=1 but: {error}");
            }
            eprintln!("skipping: no GPU adapter ({error})");
            None
        }
    }
}

/// Checks that at most `max_bad_fraction` of the pixels differ from `expected` by more than
/// `channel_tolerance` in any channel.
pub fn compare_images(
    actual: &image::RgbaImage,
    expected: &image::RgbaImage,
    channel_tolerance: u8,
    max_bad_fraction: f64,
) -> Result<(), String> {
    if actual.dimensions() != expected.dimensions() {
        return Err(format!(
            "size differs: actual {:?}, expected {:?}",
            actual.dimensions(),
            expected.dimensions()
        ));
    }
    let total = u64::from(actual.width()) * u64::from(actual.height());
    let mut bad = 0u64;
    let mut worst = 0u8;
    for (a, e) in actual.pixels().zip(expected.pixels()) {
        let difference =
            a.0.iter()
                .zip(e.0.iter())
                .map(|(a, e)| a.abs_diff(*e))
                .max()
                .unwrap_or(0);
        worst = worst.max(difference);
        if difference > channel_tolerance {
            bad += 1;
        }
    }
    let fraction = bad as f64 / total.max(1) as f64;
    if fraction > max_bad_fraction {
        Err(format!(
            "{bad} of {total} pixels ({:.3}%) differ by more than {channel_tolerance} in some \
             channel (allowed {:.3}%); largest difference {worst}",
            fraction * 100.0,
            max_bad_fraction * 100.0
        ))
    } else {
        Ok(())
    }
}
