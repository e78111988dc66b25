//! The display a run is shown on, as a short spec: `cpu`, `fifo:HZ[:QUEUE]`, `mailbox:HZ`,
//! `immediate[:HZ]`, `vrr:MIN_HZ-MAX_HZ` or `trace`.

use std::fmt;

use crate::timestep::Nanos;

/// Lowest refresh rate accepted, Hz.
pub const MIN_REFRESH_HZ: f64 = 1.0;
/// Highest refresh rate accepted, Hz.
pub const MAX_REFRESH_HZ: f64 = 1000.0;
/// Images a FIFO swap chain holds presented but not yet on screen before a present blocks,
/// by default: two, as wgpu's default `desired_maximum_frame_latency` asks for.
pub const DEFAULT_QUEUE: u32 = 2;
/// Most images in flight accepted.
pub const MAX_QUEUE: u32 = 8;
/// Refresh rate `immediate` counts torn refreshes against when none is given, Hz.
pub const DEFAULT_IMMEDIATE_HZ: f64 = 60.0;

/// The ids `DisplaySpec::parse` knows, for messages and help.
pub const DISPLAY_SPECS: &str =
    "cpu, fifo:HZ[:QUEUE], mailbox:HZ, immediate[:HZ], vrr:MIN_HZ-MAX_HZ or trace";

/// A refresh rate: refresh `k` starts at `phase + round(k * 1e9 / hz)` ns (halves up),
/// computed exactly from the rate to a millionth of a hertz, so the grid never drifts and
/// lines up with a generated `steady:HZ` trace frame for frame. The phase is 0 unless a
/// measured screen sets it ([`Refresh::with_phase`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Refresh {
    /// Refreshes per second.
    hz: f64,
    /// The rate in millionths of a hertz.
    micro_hz: u128,
    /// When refresh 0 starts, ns: less than one period.
    phase: Nanos,
}

/// Millionths of a hertz per hertz.
const MICRO: u128 = 1_000_000;
/// Nanoseconds per second.
const NANOS: u128 = 1_000_000_000;

impl Refresh {
    /// A refresh rate from 1 to 1000 Hz.
    pub fn new(hz: f64) -> Result<Self, String> {
        if !(MIN_REFRESH_HZ..=MAX_REFRESH_HZ).contains(&hz) {
            let value = crate::text::number(hz);
            return Err(format!(
                "refresh rate {value} Hz is out of range (allowed {MIN_REFRESH_HZ} to {MAX_REFRESH_HZ} Hz)"
            ));
        }
        Ok(Self {
            hz,
            micro_hz: (hz * MICRO as f64).round() as u128,
            phase: 0,
        })
    }

    /// The same rate with its refreshes starting at `phase` plus a whole number of periods
    /// (a measured screen's vblanks, on the stopwatch).
    pub fn with_phase(self, phase: Nanos) -> Self {
        Self {
            phase: phase % self.grid(1).max(1),
            ..self
        }
    }

    /// When refresh 0 starts, ns: less than one period.
    pub fn phase(&self) -> Nanos {
        self.phase
    }

    /// Refreshes per second.
    pub fn hz(&self) -> f64 {
        self.hz
    }

    /// One refresh, rounded to whole nanoseconds.
    pub fn period_ns(&self) -> Nanos {
        self.grid(1)
    }

    /// When refresh `k` starts.
    pub fn at(&self, k: u64) -> Nanos {
        self.grid(k).saturating_add(self.phase)
    }

    /// Refresh `k`'s start from refresh 0's.
    fn grid(&self, k: u64) -> Nanos {
        let twice = 2 * u128::from(k) * NANOS * MICRO;
        Nanos::try_from((twice + self.micro_hz) / (2 * self.micro_hz)).unwrap_or(Nanos::MAX)
    }

    /// The first refresh that starts at or after `t` (refresh 0 for a `t` before it).
    pub fn first_at_or_after(&self, t: Nanos) -> u64 {
        let t = t.saturating_sub(self.phase);
        let mut k = u64::try_from(u128::from(t) * self.micro_hz / (NANOS * MICRO)).unwrap_or(0);
        while self.grid(k) < t {
            k += 1;
        }
        while k > 0 && self.grid(k - 1) >= t {
            k -= 1;
        }
        k
    }

    /// The last refresh that starts at or before `t` (refresh 0 for a `t` before it).
    pub fn last_at_or_before(&self, t: Nanos) -> u64 {
        let k = self.first_at_or_after(t);
        if self.at(k) == t {
            k
        } else {
            k.saturating_sub(1)
        }
    }
}

/// Whether two refresh lengths, ns, are one refresh: within a five-thousandth of each other
/// (3.3 µs at 60 Hz). A measured refresh refitted to the images' noise (a microsecond or
/// two) is still the refresh it was, and what is counted in it goes on; 59.94 Hz is not
/// 60 Hz (a thousandth apart). Two zeros (no refresh) are one; zero and a length are not.
pub fn same_refresh(a: Nanos, b: Nanos) -> bool {
    a.abs_diff(b).saturating_mul(5000) <= a.max(b)
}

/// How frames reach the screen.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum DisplaySpec {
    /// Each frame shown at its CPU start, `D_i = T_i`: the lab's measure before a display
    /// model existed, and still the default.
    #[default]
    Cpu,
    /// Vsync: a frame is shown at the first refresh after it is ready and after the previous
    /// shown frame; `queue` images presented but not yet shown block the next present.
    Fifo {
        /// The refresh grid.
        refresh: Refresh,
        /// Images in flight before a present blocks.
        queue: u32,
    },
    /// Never blocks; each refresh shows the newest ready frame, the others are dropped.
    Mailbox {
        /// The refresh grid.
        refresh: Refresh,
    },
    /// Shown the moment it is ready, tearing the refresh being scanned out.
    Immediate {
        /// The refresh grid the tears are counted on.
        refresh: Refresh,
    },
    /// Variable refresh: shown when ready, but no sooner than `1/max_hz` after the last
    /// refresh; after `1/min_hz` without a frame the panel repeats the last image (low
    /// framerate compensation), and a frame that arrives during the repeat waits for it.
    Vrr {
        /// The slowest refresh, Hz: the longest an image is held.
        min: Refresh,
        /// The fastest refresh, Hz: the shortest a refresh takes.
        max: Refresh,
    },
    /// The display times a capture recorded (PresentMon).
    Trace,
}

impl DisplaySpec {
    /// Parses a spec; the error names the spec and what is wrong with it.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let spec = spec.trim();
        let fail = |problem: String| format!("display {spec:?}: {problem}");
        let mut parts = spec.split(':');
        let kind = parts.next().unwrap_or_default().to_ascii_lowercase();
        let args: Vec<&str> = parts.collect();
        let arity = |allowed: std::ops::RangeInclusive<usize>, form: &str| {
            if allowed.contains(&args.len()) {
                Ok(())
            } else {
                Err(fail(format!("expected {form}")))
            }
        };
        let refresh = |text: &str| -> Result<Refresh, String> {
            let hz = number(text, "refresh rate").map_err(&fail)?;
            Refresh::new(hz).map_err(&fail)
        };
        match kind.as_str() {
            "cpu" => arity(0..=0, "cpu").map(|()| Self::Cpu),
            "trace" => arity(0..=0, "trace").map(|()| Self::Trace),
            "fifo" => {
                arity(1..=2, "fifo:HZ or fifo:HZ:QUEUE")?;
                let queue = match args.get(1) {
                    None => DEFAULT_QUEUE,
                    Some(text) => text
                        .trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|queue| (1..=MAX_QUEUE).contains(queue))
                        .ok_or_else(|| {
                            fail(format!(
                                "queue {:?} is not a whole number from 1 to {MAX_QUEUE}",
                                text.trim()
                            ))
                        })?,
                };
                Ok(Self::Fifo {
                    refresh: refresh(args[0])?,
                    queue,
                })
            }
            "mailbox" => {
                arity(1..=1, "mailbox:HZ")?;
                Ok(Self::Mailbox {
                    refresh: refresh(args[0])?,
                })
            }
            "immediate" => {
                arity(0..=1, "immediate or immediate:HZ")?;
                let refresh = match args.first() {
                    Some(text) => refresh(text)?,
                    None => Refresh::new(DEFAULT_IMMEDIATE_HZ).map_err(&fail)?,
                };
                Ok(Self::Immediate { refresh })
            }
            "vrr" => {
                arity(1..=1, "vrr:MIN_HZ-MAX_HZ (e.g. vrr:48-144)")?;
                let (low, high) = args[0]
                    .split_once('-')
                    .filter(|(low, high)| !low.trim().is_empty() && !high.trim().is_empty())
                    .ok_or_else(|| fail("expected vrr:MIN_HZ-MAX_HZ (e.g. vrr:48-144)".into()))?;
                let (min, max) = (refresh(low)?, refresh(high)?);
                if min.hz() >= max.hz() {
                    return Err(fail(format!(
                        "the minimum refresh {} Hz must be below the maximum {} Hz",
                        min.hz(),
                        max.hz()
                    )));
                }
                Ok(Self::Vrr { min, max })
            }
            _ => Err(fail(format!("unknown display (known: {DISPLAY_SPECS})"))),
        }
    }

    /// The fixed refresh grid, for FIFO, mailbox and immediate.
    pub fn refresh(&self) -> Option<Refresh> {
        match *self {
            Self::Fifo { refresh, .. }
            | Self::Mailbox { refresh }
            | Self::Immediate { refresh } => Some(refresh),
            Self::Cpu | Self::Vrr { .. } | Self::Trace => None,
        }
    }

    /// The refresh refresh-unit statistics count in: the refresh period of FIFO, mailbox
    /// and immediate, the fastest refresh of VRR; `None` for `cpu` and `trace`, which have
    /// no refreshes.
    pub fn refresh_unit(&self) -> Option<Nanos> {
        match *self {
            Self::Vrr { max, .. } => Some(max.period_ns()),
            _ => self.refresh().map(|refresh| refresh.period_ns()),
        }
    }

    /// Whether the model decides display times (not `cpu`, not `trace`).
    pub fn is_modeled(&self) -> bool {
        !matches!(self, Self::Cpu | Self::Trace)
    }
}

impl fmt::Display for DisplaySpec {
    /// The spec in the form [`DisplaySpec::parse`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Cpu => write!(f, "cpu"),
            Self::Trace => write!(f, "trace"),
            Self::Fifo { refresh, queue } => write!(f, "fifo:{}:{queue}", refresh.hz()),
            Self::Mailbox { refresh } => write!(f, "mailbox:{}", refresh.hz()),
            Self::Immediate { refresh } => write!(f, "immediate:{}", refresh.hz()),
            Self::Vrr { min, max } => write!(f, "vrr:{}-{}", min.hz(), max.hz()),
        }
    }
}

/// A finite number, or a message naming `what` and the text.
fn number(text: &str, what: &str) -> Result<f64, String> {
    let text = text.trim();
    text.parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .ok_or_else(|| format!("{what} {text:?} is not a number"))
}
