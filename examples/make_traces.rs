//! Writes the synthetic frame-time traces shipped in `assets/traces/`.
//!
//! ```text
//! cargo run --example make_traces [-- OUT_DIR]
//! ```
//!
//! Each file is laid out the way its tool writes it (PresentMon CSV, MangoHud CSV, the lab's
//! plain format), but the numbers are synthesized from fixed seeds: they are not captures of
//! a real game. Running this again writes byte-identical files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use timestep_lab::trace::{Rng, generate};

/// Seed of the PresentMon trace's present-time noise and missed vsyncs.
const PRESENTMON_SEED: u64 = 60;
/// Seed of the MangoHud trace's jitter (passed to the `jitter` generator).
const MANGOHUD_SEED: u64 = 144;
/// Seed of the plain trace's noise.
const HITCHES_SEED: u64 = 30;

fn main() -> anyhow::Result<()> {
    let out_dir = std::env::args_os().nth(1).map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/traces"),
        PathBuf::from,
    );
    std::fs::create_dir_all(&out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    for (name, text) in [
        ("vsync60-presentmon.csv", vsync60_presentmon()),
        ("jitter144-mangohud.csv", jitter144_mangohud()?),
        ("hitches30.txt", hitches30()?),
    ] {
        let path = out_dir.join(name);
        std::fs::write(&path, &text).with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {} ({} bytes)", path.display(), text.len());
    }
    Ok(())
}

/// A 60 Hz vsync-locked game seen by PresentMon 1.x (`-simple` column layout, CRLF line ends):
/// presents land on refresh boundaries with a few µs of noise, about 1.5% of frames miss a
/// vsync and take two refreshes, and the compositor (`dwm.exe`) presents now and then. The
/// first present of each swap chain has no predecessor, so its `MsBetweenPresents` is `NA`.
fn vsync60_presentmon() -> String {
    const REFRESH_MS: f64 = 1000.0 / 60.0;
    const DURATION_S: f64 = 10.0;
    const MISS_PROBABILITY: f64 = 0.015;
    let mut rng = Rng::new(PRESENTMON_SEED);

    /// One CSV row before formatting.
    struct Present {
        /// `TimeInSeconds`: when the present happened, since the capture started.
        time_s: f64,
        /// The columns before `TimeInSeconds`, fixed per swap chain.
        prefix: &'static str,
        /// `MsBetweenPresents`; `None` is written as `NA`.
        between_ms: Option<f64>,
        /// `MsInPresentAPI`.
        in_present_ms: f64,
    }
    let mut presents = Vec::new();

    let game = "ExampleGame.exe,7312,0x000001F4C2A81E30,DXGI,1,0,0";
    let start_s = 0.0113;
    let mut vsync = 0_u32;
    let mut previous_s: Option<f64> = None;
    loop {
        let time_s = start_s + f64::from(vsync) * REFRESH_MS / 1000.0 + rng.normal(0.0, 0.00002);
        if time_s > start_s + DURATION_S {
            break;
        }
        presents.push(Present {
            time_s,
            prefix: game,
            between_ms: previous_s.map(|previous| (time_s - previous) * 1000.0),
            // Blocked in Present until a back buffer frees up, as under vsync.
            in_present_ms: rng.normal(0.32, 0.08).max(0.05),
        });
        previous_s = Some(time_s);
        vsync += if rng.next_f64() < MISS_PROBABILITY {
            2
        } else {
            1
        };
    }

    let dwm = "dwm.exe,1228,0x0000021B5D0C3F70,DXGI,1,0,0";
    let mut previous_s: Option<f64> = None;
    let mut time_s = 0.4;
    while time_s < DURATION_S {
        presents.push(Present {
            time_s,
            prefix: dwm,
            between_ms: previous_s.map(|previous| (time_s - previous) * 1000.0),
            in_present_ms: rng.normal(0.06, 0.01).max(0.02),
        });
        previous_s = Some(time_s);
        time_s += 0.3 + 0.6 * rng.next_f64();
    }

    presents.sort_by(|a, b| a.time_s.total_cmp(&b.time_s));
    let mut text = String::from(
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,\
         TimeInSeconds,MsBetweenPresents,MsInPresentAPI\r\n",
    );
    for present in &presents {
        let between = present
            .between_ms
            .map_or_else(|| "NA".to_owned(), |ms| format!("{ms:.3}"));
        // Writing to a String cannot fail.
        let _ = write!(
            text,
            "{},{:.6},{between},{:.3}\r\n",
            present.prefix, present.time_s, present.in_present_ms
        );
    }
    text
}

/// A 144 Hz game with frame-time jitter, logged by MangoHud with `log_interval=0` (one row per
/// frame): the `jitter:144:0.35:144` generator, written with MangoHud's preamble and a subset
/// of its columns, in its number style (6 significant digits, `elapsed` in ns).
fn jitter144_mangohud() -> anyhow::Result<String> {
    let trace = generate(&format!("jitter:144:0.35:{MANGOHUD_SEED}"), 10.0)?;
    let mut rng = Rng::new(MANGOHUD_SEED);
    let mut text = String::from(
        "os,cpu,gpu,ram,kernel,driver,cpuscheduler\n\
         Synthetic Linux,Example 8-Core CPU,Example GPU,32768000,6.9.0,Mesa 24.2.0,performance\n\
         fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,elapsed\n",
    );
    let mut elapsed_ns = 0_u64;
    // MangoHud's fps column is an average over a window, not 1000 / frametime.
    let window = 72;
    for (index, &frame_ns) in trace.frame_times_ns.iter().enumerate() {
        elapsed_ns += frame_ns;
        let recent = &trace.frame_times_ns[index.saturating_sub(window - 1)..=index];
        let fps = 1e9 * recent.len() as f64 / recent.iter().sum::<u64>() as f64;
        let cpu_load = (rng.normal(22.0, 2.0)).clamp(0.0, 100.0);
        let gpu_load = rng.normal(96.0, 1.5).clamp(0.0, 100.0).round();
        let cpu_temp = 63.0 + (index as f64 / 400.0).floor();
        let gpu_temp = 70.0 + (index as f64 / 500.0).floor();
        let _ = writeln!(
            text,
            "{},{},{:.1},{gpu_load},{cpu_temp},{gpu_temp},{elapsed_ns}",
            significant6(fps),
            significant6(frame_ns as f64 / 1e6),
            cpu_load
        );
    }
    Ok(text)
}

/// A 30 fps game with a 150 ms hitch every 2 s, as a plain list of frame times in ms: the
/// `hitch:30:150:2` generator plus ±0.4 ms of noise (±3 ms on hitches), 3 decimals.
fn hitches30() -> anyhow::Result<String> {
    let trace = generate("hitch:30:150:2", 10.0)?;
    let mut rng = Rng::new(HITCHES_SEED);
    let mut text = String::from(
        "# 30 fps with a 150 ms hitch every 2 s, about 10 s.\n\
         # Synthesized by `cargo run --example make_traces` (hitch:30:150:2 plus seeded noise);\n\
         # not a capture from a real game.\n\
         # One frame time in milliseconds per line; '#' starts a comment.\n",
    );
    for &frame_ns in &trace.frame_times_ns {
        let frame_ms = frame_ns as f64 / 1e6;
        if frame_ns == 150_000_000 {
            let _ = writeln!(text, "{:.3}  # hitch", frame_ms + rng.normal(0.0, 3.0));
        } else {
            let _ = writeln!(text, "{:.3}", frame_ms + rng.normal(0.0, 0.4));
        }
    }
    Ok(text)
}

/// `x` with 6 significant digits and no trailing zeros, like C++ streams print a double.
fn significant6(x: f64) -> String {
    let digits_before_point = if x >= 1.0 {
        x.log10().floor() as i32 + 1
    } else {
        1
    };
    let decimals = (6 - digits_before_point).max(0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}
