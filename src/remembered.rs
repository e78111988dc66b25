//! Remembered settings: the window's settings, saved on exit as TOML in the platform's
//! config directory (`$XDG_CONFIG_HOME/timestep-lab/settings.toml` on Linux, found with the
//! `directories` crate) and restored at the next start. Options given on the command line
//! override them; `--no-config` neither reads nor writes the file.
//!
//! A file this version cannot fully read is never lost: before anything is written over it,
//! it is copied beside itself as `settings.toml.bak` (or `.bak.2`, `.bak.3`, ... if that
//! exists), and each setting that is missing a value, has the wrong type or lies out of range
//! takes its default with a warning that names it. A file that does not parse at all
//! (corrupt, truncated) gives every setting its default, with the parser's line and column.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::live::{LiveSettings, Panes, PresentModeId};
use crate::timestep::{FilterSpec, Strategy};

/// The version of the file's layout this build writes and reads.
pub const SETTINGS_VERSION: i64 = 1;

/// The file's name inside the config directory.
pub const SETTINGS_FILE: &str = "settings.toml";

/// The largest settings file read: the settings take about 700 bytes; anything far larger
/// is not one, and is not read into memory.
pub const MAX_SETTINGS_BYTES: u64 = 64 * 1024;

/// Everything the window remembers between runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Remembered {
    /// The live loop's settings.
    pub settings: LiveSettings,
    /// The present mode asked for.
    pub present_mode: PresentModeId,
    /// Whether the side panel is shown.
    pub panel: bool,
    /// Whether the frame timeline is shown.
    pub timeline: bool,
}

impl Default for Remembered {
    fn default() -> Self {
        Self {
            settings: LiveSettings::default(),
            present_mode: PresentModeId::default(),
            panel: true,
            timeline: true,
        }
    }
}

/// What [`restore`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Restored {
    /// The settings: the file's where it could be read, the defaults elsewhere.
    pub remembered: Remembered,
    /// One line per setting that took its default instead of the file's value, or per
    /// problem with the file as a whole.
    pub warnings: Vec<String>,
    /// Where the file was copied before anything could overwrite it (when it had problems).
    pub backup: Option<PathBuf>,
}

impl Restored {
    /// Whether saving over the file loses nothing: it had no problems, or a backup of it
    /// was made.
    pub fn safe_to_save(&self) -> bool {
        self.warnings.is_empty() || self.backup.is_some()
    }
}

/// The settings file's path in the platform's config directory; `None` where the platform
/// has none (no home directory).
pub fn settings_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "timestep-lab")
        .map(|dirs| dirs.config_dir().join(SETTINGS_FILE))
}

/// Reads the settings at `path`. A missing file gives the defaults silently; a file with
/// problems gives what it can, warnings, and a backup copy. Never fails: a file that cannot
/// be read is a warning and the defaults.
pub fn restore(path: &Path) -> Restored {
    let oversized = std::fs::metadata(path).is_ok_and(|meta| meta.len() > MAX_SETTINGS_BYTES);
    if oversized {
        let mut restored = Restored {
            warnings: vec![format!(
                "{}: larger than a settings file can be ({MAX_SETTINGS_BYTES} bytes); every \
                 setting takes its default",
                path.display()
            )],
            ..Restored::default()
        };
        match back_up(path) {
            Ok(copy) => restored.backup = Some(copy),
            Err(error) => restored.warnings.push(format!("{error:#}")),
        }
        return restored;
    }
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Restored::default(),
        Err(error) => {
            return Restored {
                warnings: vec![format!(
                    "{}: cannot be read ({error}); every setting takes its default",
                    path.display()
                )],
                ..Restored::default()
            };
        }
    };
    let source = path.display().to_string();
    let (remembered, mut warnings) = match std::str::from_utf8(&text) {
        Ok(text) => from_toml(text, &source),
        Err(error) => (
            Remembered::default(),
            vec![format!(
                "{source}: not UTF-8 text (byte {}); every setting takes its default",
                error.valid_up_to() + 1
            )],
        ),
    };
    let mut backup = None;
    if !warnings.is_empty() {
        match back_up(path) {
            Ok(copy) => backup = Some(copy),
            Err(error) => warnings.push(format!("{error:#}")),
        }
    }
    Restored {
        remembered,
        warnings,
        backup,
    }
}

/// Writes `remembered` to `path`, creating its directory; written beside it first and then
/// renamed over it, so a failed write never leaves half a file.
pub fn save(path: &Path, remembered: &Remembered) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the settings directory {}", dir.display()))?;
    }
    let temporary = sibling(path, ".tmp");
    let text = to_toml(remembered);
    std::fs::write(&temporary, text)
        .with_context(|| format!("cannot write the settings to {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| {
        format!(
            "cannot move the settings from {} to {}",
            temporary.display(),
            path.display()
        )
    })
}

/// `remembered` as the file's text.
pub fn to_toml(remembered: &Remembered) -> String {
    let mut text = String::from(
        "# timestep-lab's settings, saved when the window closes and restored when it opens.\n\
         # Options on the command line override them; --no-config ignores this file.\n\
         # Delete it (or press \"Restore defaults\" in the panel) to start from the defaults.\n",
    );
    let mut table = toml::Table::new();
    table.insert("version".into(), toml::Value::Integer(SETTINGS_VERSION));
    for field in FIELDS {
        table.insert(field.key.into(), (field.get)(remembered));
    }
    // A table of plain values always serialises.
    let _ = write!(text, "{}", toml::to_string(&table).unwrap_or_default());
    text
}

/// Reads the file's text (`source` names it in warnings): the settings and one warning per
/// problem (see the module documentation).
pub fn from_toml(text: &str, source: &str) -> (Remembered, Vec<String>) {
    let table: toml::Table = match text.parse() {
        Ok(table) => table,
        Err(error) => {
            let place = error
                .span()
                .map(|span| line_and_column(text, span.start))
                .map_or_else(String::new, |(line, column)| {
                    format!(" (line {line}, column {column})")
                });
            return (
                Remembered::default(),
                vec![format!(
                    "{source}: not a settings file{place}: {}; every setting takes its default",
                    error.message()
                )],
            );
        }
    };
    if !FIELDS.iter().any(|field| table.contains_key(field.key)) {
        // Empty (truncated to nothing) or not ours: one warning, not one per setting.
        return (
            Remembered::default(),
            vec![format!(
                "{source}: holds no timestep-lab setting; every setting takes its default"
            )],
        );
    }
    let mut remembered = Remembered::default();
    let mut warnings = Vec::new();
    match table.get("version") {
        Some(toml::Value::Integer(SETTINGS_VERSION)) => {}
        Some(other) => warnings.push(format!(
            "{source}: version {other} is not {SETTINGS_VERSION} (another timestep-lab wrote \
             it): the settings it shares with this one are read"
        )),
        None => warnings.push(format!(
            "{source}: no version: the settings it has are read as version {SETTINGS_VERSION}"
        )),
    }
    for field in FIELDS {
        let Some(value) = table.get(field.key) else {
            warnings.push(format!(
                "{source}: `{}` is missing; it takes its default",
                field.key
            ));
            continue;
        };
        let mut candidate = remembered;
        let outcome = (field.set)(&mut candidate, value).and_then(|()| {
            candidate
                .settings
                .validate()
                .map_err(|error| error.to_string())
        });
        match outcome {
            Ok(()) => remembered = candidate,
            Err(why) => warnings.push(format!(
                "{source}: `{}` = {value}: {why}; it takes its default",
                field.key
            )),
        }
    }
    for key in table.keys() {
        if key != "version" && !FIELDS.iter().any(|field| field.key == key) {
            warnings.push(format!(
                "{source}: unknown setting `{}` (ignored)",
                key.escape_debug()
            ));
        }
    }
    (remembered, warnings)
}

/// Keys of [`FIELDS`] that are the window's, not the live loop's settings.
const WINDOW_KEYS: [&str; 3] = ["present_mode", "panel", "timeline"];

/// The live loop's settings as a TOML table with the settings file's keys, in its order
/// (a recording's header and its setting changes are written with it).
pub fn settings_table(settings: &LiveSettings) -> toml::Table {
    let remembered = Remembered {
        settings: *settings,
        ..Remembered::default()
    };
    FIELDS
        .iter()
        .filter(|field| !WINDOW_KEYS.contains(&field.key))
        .map(|field| (field.key.to_owned(), (field.get)(&remembered)))
        .collect()
}

/// Applies the settings in `table` (keys as [`settings_table`] writes them) over
/// `settings`, in the settings file's order, then checks them. An unknown key, a value of
/// the wrong type or out of range is an error that names it; `settings` is then unchanged.
pub fn apply_settings_table(
    settings: &mut LiveSettings,
    table: &toml::Table,
) -> Result<(), String> {
    if let Some(key) = table
        .keys()
        .find(|key| WINDOW_KEYS.contains(&key.as_str()) || !FIELDS.iter().any(|f| f.key == *key))
    {
        return Err(format!("unknown setting `{}`", key.escape_debug()));
    }
    let mut remembered = Remembered {
        settings: *settings,
        ..Remembered::default()
    };
    for field in FIELDS {
        if let Some(value) = table.get(field.key) {
            (field.set)(&mut remembered, value)
                .map_err(|why| format!("`{}` = {value}: {why}", field.key))?;
        }
    }
    remembered
        .settings
        .validate()
        .map_err(|error| error.to_string())?;
    *settings = remembered.settings;
    Ok(())
}

/// One setting in the file: its key, and how it is read and written.
struct Field {
    /// The TOML key.
    key: &'static str,
    /// Reads the value into the settings, or says why it cannot.
    set: fn(&mut Remembered, &toml::Value) -> Result<(), String>,
    /// The value to write.
    get: fn(&Remembered) -> toml::Value,
}

/// A [`Field`] for the setting at `remembered.PATH`, read with `read` and written with
/// `write`.
macro_rules! field {
    ($key:literal, $($path:ident).+, $read:expr, $write:expr) => {
        Field {
            key: $key,
            set: |r, v| {
                r.$($path).+ = $read(v)?;
                Ok(())
            },
            get: |r| $write(r.$($path).+),
        }
    };
}

/// A number setting.
macro_rules! number_field {
    ($key:literal, $($path:ident).+) => {
        field!($key, $($path).+, number, toml::Value::Float)
    };
}

/// A setting that is one of a choice's ids.
macro_rules! id_field {
    ($key:literal, $($path:ident).+) => {
        field!($key, $($path).+, parse_id, |id| toml::Value::String(format!("{id}")))
    };
}

/// A true-or-false setting.
macro_rules! bool_field {
    ($key:literal, $($path:ident).+) => {
        field!($key, $($path).+, boolean, toml::Value::Boolean)
    };
}

/// Every setting the file holds, in the order it is written.
const FIELDS: [Field; 25] = [
    id_field!("strategy", settings.strategy),
    bool_field!("compare", settings.compare),
    Field {
        key: "panes",
        set: |r, v| {
            let toml::Value::Array(items) = v else {
                return Err("not a list of strategies".into());
            };
            let strategies = items
                .iter()
                .map(parse_id::<Strategy>)
                .collect::<Result<Vec<_>, _>>()?;
            r.settings.panes = Panes::new(&strategies).map_err(|error| error.to_string())?;
            Ok(())
        },
        get: |r| {
            toml::Value::Array(
                r.settings
                    .panes
                    .as_slice()
                    .iter()
                    .map(|s| toml::Value::String(s.id().to_owned()))
                    .collect(),
            )
        },
    },
    Field {
        key: "focus_pane",
        set: |r, v| {
            let pane = integer(v, 1, r.settings.panes.len() as i64)?;
            r.settings.focus = (pane - 1) as usize;
            Ok(())
        },
        get: |r| toml::Value::Integer(r.settings.focus as i64 + 1),
    },
    number_field!("rate_hz", settings.rate_hz),
    number_field!("max_frame_time_ms", settings.max_frame_time_ms),
    field!(
        "max_steps",
        settings.max_steps,
        |v| integer(v, 0, i64::from(u32::MAX)).map(|n| n as u32),
        |n| toml::Value::Integer(i64::from(n))
    ),
    id_field!("integrator", settings.integrator),
    number_field!("spring_hz", settings.spring_hz),
    number_field!("damping", settings.damping),
    id_field!("camera", settings.camera),
    id_field!("view", settings.view),
    id_field!("input_policy", settings.input_policy),
    number_field!("time_scale", settings.time_scale),
    number_field!("step_cost_ms", settings.load.step_cost_ms),
    number_field!("render_cost_ms", settings.load.render_cost_ms),
    number_field!("jitter_ms", settings.load.jitter_ms),
    number_field!("hitch_ms", settings.load.hitch_ms),
    number_field!("hitch_every_s", settings.load.hitch_every_s),
    number_field!("frame_cap_hz", settings.frame_cap_hz),
    field!(
        "filter",
        settings.filter,
        |v| string(v).and_then(FilterSpec::parse),
        |spec: FilterSpec| toml::Value::String(spec.to_string())
    ),
    number_field!("refresh_hz", settings.refresh_override_hz),
    id_field!("present_mode", present_mode),
    bool_field!("panel", panel),
    bool_field!("timeline", timeline),
];

/// The value as a string.
fn string(value: &toml::Value) -> Result<&str, String> {
    value.as_str().ok_or_else(|| "not a string".to_owned())
}

/// The value as one of a choice's ids.
fn parse_id<T>(value: &toml::Value) -> Result<T, String>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    string(value)?
        .parse()
        .map_err(|error: T::Err| error.to_string())
}

/// The value as a number (an integer is taken as one).
fn number(value: &toml::Value) -> Result<f64, String> {
    match value {
        toml::Value::Float(x) => Ok(*x),
        toml::Value::Integer(n) => Ok(*n as f64),
        _ => Err("not a number".into()),
    }
}

/// The value as a whole number in `low..=high`.
fn integer(value: &toml::Value, low: i64, high: i64) -> Result<i64, String> {
    match value {
        toml::Value::Integer(n) if (low..=high).contains(n) => Ok(*n),
        toml::Value::Integer(_) => Err(format!("out of range (allowed {low} to {high})")),
        _ => Err("not a whole number".into()),
    }
}

/// The value as true or false.
fn boolean(value: &toml::Value) -> Result<bool, String> {
    value
        .as_bool()
        .ok_or_else(|| "not true or false".to_owned())
}

/// 1-based line and column of byte `offset` in `text`.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..text.floor_char_boundary(offset.min(text.len()))];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// `path` with `suffix` added to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Copies `path` to the first free `.bak`, `.bak.2`, ... beside it.
fn back_up(path: &Path) -> anyhow::Result<PathBuf> {
    let mut copy = sibling(path, ".bak");
    let mut n = 1;
    while copy.exists() {
        n += 1;
        copy = sibling(path, &format!(".bak.{n}"));
    }
    std::fs::copy(path, &copy).with_context(|| {
        format!(
            "cannot keep a copy of {} as {} (it stays as it is)",
            path.display(),
            copy.display()
        )
    })?;
    Ok(copy)
}

#[cfg(test)]
mod tests;
