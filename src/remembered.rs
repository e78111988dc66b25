//! Remembered settings: the window's settings, saved on exit as TOML in the platform's
//! config directory (found with the `directories` crate: `%APPDATA%\timestep-lab\config`
//! on Windows, `~/Library/Application Support/timestep-lab` on macOS,
//! `$XDG_CONFIG_HOME/timestep-lab` on Linux), or in the folder `TIMESTEP_LAB_CONFIG_DIR`
//! names, and restored at the next start. Options given on the command line
//! override them; `--no-config` neither reads nor writes the file.
//!
//! A file this version cannot fully read is never lost: before anything is written over it,
//! it is copied beside itself as `settings.toml.bak` (or `.bak.2`, `.bak.3`, ... if that
//! exists), and each setting that is missing a value, has the wrong type or lies out of range
//! takes its default with a warning that names it. A file that does not parse at all
//! (corrupt, truncated) gives every setting its default, with the parser's line and column.
//!
//! The file is [`Remembered`] as serde's derive writes it: the live loop's settings (their
//! keys, types and defaults are [`LiveSettings`]' derive), then the window's own, plus a
//! `version`. It is read key by key as recordings are
//! ([`timestep_lab_bench::recording::settings`]): each value is taken only if the settings
//! then deserialise and validate, so a bad one costs only its own setting.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use timestep_lab_bench::recording::settings::{self, FieldReader};

use crate::live::{LiveSettings, PresentModeId};
use crate::{setting, text};

/// The version of the file's layout this build writes and reads.
pub const SETTINGS_VERSION: i64 = 1;

/// The file's name inside the config directory.
pub const SETTINGS_FILE: &str = "settings.toml";

/// The largest settings file read: the settings take about 700 bytes; anything far larger
/// is not one, and is not read into memory.
pub const MAX_SETTINGS_BYTES: u64 = 64 * 1024;

/// Everything the window remembers between runs; in the file, one key per setting (read in
/// this order).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Remembered {
    /// The live loop's settings.
    #[serde(flatten)]
    pub settings: LiveSettings,
    /// The present mode asked for.
    pub present_mode: PresentModeId,
    /// Whether the side panel is shown.
    #[serde(deserialize_with = "setting::boolean")]
    pub panel: bool,
    /// Whether the frame timeline is shown.
    #[serde(deserialize_with = "setting::boolean")]
    pub timeline: bool,
    /// The guided tour's chapter the reader was last on (or starts at), 1-based (a file
    /// from before the tour starts at the first). Kept by its id, so a chapter added before
    /// it does not move a returning reader; a number (what earlier versions wrote) is read
    /// as the position it was.
    #[serde(serialize_with = "tour_chapter_id", deserialize_with = "tour_chapter")]
    pub tour_chapter: u32,
}

impl Default for Remembered {
    fn default() -> Self {
        Self {
            settings: LiveSettings::default(),
            present_mode: PresentModeId::default(),
            panel: true,
            timeline: true,
            tour_chapter: 1,
        }
    }
}

/// Reads the tour's chapter: a chapter's id, or its position (0 to the number of
/// chapters, as earlier versions wrote it).
fn tour_chapter<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    use crate::tour::{CHAPTERS, chapter_by_id};
    let chapters = i64::try_from(CHAPTERS.len()).unwrap_or(i64::MAX);
    setting::read(deserializer, |value| match value {
        setting::Value::Text(id) => chapter_by_id(id)
            .map(|index| u32::try_from(index + 1).unwrap_or(0))
            .ok_or_else(|| {
                let ids: Vec<&str> = CHAPTERS.iter().map(|chapter| chapter.id).collect();
                format!("no such chapter (allowed: {})", ids.join(", "))
            }),
        // 0 was never written, and reads as the first, as a missing chapter does.
        _ => value.whole(0, chapters).map(|n| n.max(1) as u32),
    })
}

/// Writes the tour's chapter (1-based) as its id.
fn tour_chapter_id<S: serde::Serializer>(chapter: &u32, serializer: S) -> Result<S::Ok, S::Error> {
    use crate::tour::CHAPTERS;
    let index = (*chapter as usize).clamp(1, CHAPTERS.len()) - 1;
    serializer.serialize_str(CHAPTERS[index].id)
}

/// Settings added after files were first written: a file without one is not warned about.
const ADDED_LATER: [&str; 1] = ["tour_chapter"];

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
    /// There was no file: the window runs for the first time here (it offers the tour).
    pub first_run: bool,
}

impl Restored {
    /// Whether saving over the file loses nothing: it had no problems, or a backup of it
    /// was made.
    pub fn safe_to_save(&self) -> bool {
        self.warnings.is_empty() || self.backup.is_some()
    }
}

/// The variable naming the folder the settings live in instead of the platform's config
/// directory (a portable copy, a second profile, the tests).
pub const CONFIG_DIR_VARIABLE: &str = "TIMESTEP_LAB_CONFIG_DIR";

/// Where each platform keeps the settings, for `--help` and messages.
pub const CONFIG_DIRS: &str = "%APPDATA%\\timestep-lab\\config on Windows, \
    ~/Library/Application Support/timestep-lab on macOS, $XDG_CONFIG_HOME/timestep-lab \
    (~/.config/timestep-lab) on Linux";

/// Where each platform keeps the recordings the panel's Record button makes where the
/// current directory cannot take them (an application started from Finder or Explorer),
/// for `--help` and messages: the platform's data folder.
pub const RECORDINGS_DIRS: &str = "%APPDATA%\\timestep-lab\\data\\recordings on Windows, \
    ~/Library/Application Support/timestep-lab/recordings on macOS, \
    $XDG_DATA_HOME/timestep-lab/recordings (~/.local/share/timestep-lab/recordings) on Linux";

/// The settings file's path: in the folder [`CONFIG_DIR_VARIABLE`] names when set (and not
/// empty), else in the platform's config directory ([`CONFIG_DIRS`]); `None` where the
/// platform has none (no home directory).
pub fn settings_path() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(CONFIG_DIR_VARIABLE).filter(|dir| !dir.is_empty()) {
        return Some(PathBuf::from(dir).join(SETTINGS_FILE));
    }
    directories::ProjectDirs::from("", "", "timestep-lab")
        .map(|dirs| dirs.config_dir().join(SETTINGS_FILE))
}

/// Reads the settings at `path`. A missing file gives the defaults silently; a file with
/// problems gives what it can, warnings, and a backup copy. Never fails: a file that cannot
/// be read is a warning and the defaults. Never reads more than [`MAX_SETTINGS_BYTES`] and
/// one, whatever size the file claims, and never blocks on a named pipe.
pub fn restore(path: &Path) -> Restored {
    let shown = text::escape_path(path);
    let text = match read_bounded(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            return Restored {
                first_run: true,
                ..Restored::default()
            };
        }
        Err(Unreadable::NotRegular(kind)) => {
            // Nothing to keep a copy of (copying /dev/zero never ends), and nothing is
            // saved over it.
            return Restored {
                warnings: vec![format!(
                    "{shown}: not a regular file ({kind}); every setting takes its default"
                )],
                ..Restored::default()
            };
        }
        Err(Unreadable::TooLarge) => {
            let mut restored = Restored {
                warnings: vec![format!(
                    "{shown}: larger than a settings file can be ({MAX_SETTINGS_BYTES} bytes); \
                     every setting takes its default"
                )],
                ..Restored::default()
            };
            match back_up(path) {
                Ok(copy) => restored.backup = Some(copy),
                Err(error) => restored.warnings.push(format!("{error:#}")),
            }
            return restored;
        }
        Err(Unreadable::Io(error)) => {
            return Restored {
                warnings: vec![format!(
                    "{shown}: cannot be read ({error}); every setting takes its default"
                )],
                ..Restored::default()
            };
        }
    };
    let (remembered, mut warnings) = match std::str::from_utf8(&text) {
        Ok(text) => from_toml(text, &shown),
        Err(error) => (
            Remembered::default(),
            vec![format!(
                "{shown}: not UTF-8 text (byte {}); every setting takes its default",
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
        first_run: false,
    }
}

/// Why the settings file could not be read.
#[derive(Debug)]
enum Unreadable {
    /// Something other than a regular file is there (what it is, in words).
    NotRegular(&'static str),
    /// More than [`MAX_SETTINGS_BYTES`].
    TooLarge,
    /// The system refused.
    Io(std::io::Error),
}

/// The bytes of the regular file at `path` (`None` if there is none), at most
/// [`MAX_SETTINGS_BYTES`]. The file is opened without blocking, so a named pipe there is told
/// apart by its handle (no race between a look and the open), and read through a limit, so a
/// device that claims no size (`/dev/zero`) or a file that grows costs nothing.
fn read_bounded(path: &Path) -> Result<Option<Vec<u8>>, Unreadable> {
    use std::io::Read as _;

    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = match options.open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(Unreadable::Io(error)),
    };
    let kind = file.metadata().map_err(Unreadable::Io)?.file_type();
    if !kind.is_file() {
        return Err(Unreadable::NotRegular(file_kind(kind)));
    }
    let mut bytes = Vec::new();
    file.take(MAX_SETTINGS_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(Unreadable::Io)?;
    if bytes.len() as u64 > MAX_SETTINGS_BYTES {
        return Err(Unreadable::TooLarge);
    }
    Ok(Some(bytes))
}

/// What a file that is not a regular file is, in words.
fn file_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a named pipe";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Writes `remembered` to `path`, creating its directory; written beside it first and then
/// renamed over it, so a failed write never leaves half a file.
///
/// The temporary file is created new (a stale one removed first, never followed: a link
/// planted in its place cannot send the settings elsewhere, nor become the settings file).
/// A `path` that is a symbolic link to a regular file (a dotfile manager's) stays a link:
/// its target is written, the same way, beside itself.
pub fn save(path: &Path, remembered: &Remembered) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| {
            format!(
                "cannot create the settings directory {}",
                text::escape_path(dir)
            )
        })?;
    }
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_symlink());
    let path = match std::fs::metadata(path) {
        Ok(target) if is_link && target.is_file() => std::fs::canonicalize(path)
            .with_context(|| format!("cannot follow the link {}", text::escape_path(path)))?,
        _ => path.to_owned(),
    };
    let path = path.as_path();
    let temporary = sibling(path, ".tmp");
    let text = to_toml(remembered);
    write_new(&temporary, text.as_bytes()).with_context(|| {
        format!(
            "cannot write the settings to {}",
            text::escape_path(&temporary)
        )
    })?;
    std::fs::rename(&temporary, path).with_context(|| {
        format!(
            "cannot move the settings from {} to {}",
            text::escape_path(&temporary),
            text::escape_path(path)
        )
    })
}

/// Writes `bytes` to a file created new at `path`, after removing whatever is there (a
/// stale file, or a link, which is removed, not followed). Creating it exclusively
/// (`O_EXCL`) never follows a link that appears meanwhile: it fails instead.
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => return Err(error),
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// `remembered` as the file's text.
pub fn to_toml(remembered: &Remembered) -> String {
    let mut text = String::from(
        "# timestep-lab's settings, saved when the window closes and restored when it opens.\n\
         # Options on the command line override them; --no-config ignores this file.\n\
         # Delete it (or press \"Restore defaults\" in the panel) to start from the defaults.\n",
    );
    let mut table = settings::to_table(remembered);
    table.insert("version".into(), toml::Value::Integer(SETTINGS_VERSION));
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
    let keys = keys();
    if !keys.iter().any(|key| table.contains_key(key)) {
        // Empty (truncated to nothing) or not ours: one warning, not one per setting.
        return (
            Remembered::default(),
            vec![format!(
                "{source}: holds no timestep-lab setting; every setting takes its default"
            )],
        );
    }
    let mut reader = FieldReader::new(Remembered::default());
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
    for key in keys {
        let Some(value) = table.get(key) else {
            if ADDED_LATER.contains(&key.as_str()) {
                continue;
            }
            warnings.push(format!(
                "{source}: `{key}` is missing; it takes its default"
            ));
            continue;
        };
        let checked = |read: &Remembered| {
            settings::check_key(key, &read.settings)?;
            read.settings.validate().map_err(|error| error.to_string())
        };
        if let Err(why) = reader.set(key, value, checked) {
            warnings.push(format!(
                "{source}: `{key}` = {}: {why}; it takes its default",
                settings::shown_value(value)
            ));
        }
    }
    for key in table.keys() {
        if key != "version" && !keys.contains(key) {
            warnings.push(format!(
                "{source}: unknown setting `{}` (ignored)",
                key.escape_debug()
            ));
        }
    }
    (reader.into_settings(), warnings)
}

/// Every setting the file holds, in the order it is read: the live loop's, then the
/// window's own.
fn keys() -> &'static [String] {
    static KEYS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| settings::keys_in_order(&Remembered::default()))
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
            text::escape_path(path),
            text::escape_path(&copy)
        )
    })?;
    Ok(copy)
}

#[cfg(test)]
mod tests;
