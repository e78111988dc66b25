//! The live loop's settings as TOML: the table a recording's header and its setting changes
//! hold, and the window's remembered settings file around it.
//!
//! Serde's derive on [`LiveSettings`] (in the core) gives every setting its key, its type,
//! its default and the words for a bad value; this module adds what a file needs on top.
//! A table is written as serde writes it ([`settings_table`]): a `toml::Table` sorts its
//! keys, so files and recordings read as they always have. A table is read one key at a
//! time ([`FieldReader`]), not deserialised whole, because serde stops at the first bad
//! value and a file must lose only the setting that is bad: each key's value is put over
//! the settings read so far, the whole is deserialised and checked, and a value that fails
//! is named with its key and why, the setting keeping what it had. Keys are read in the
//! fields' order ([`keys_in_order`]): `panes` before `focus_pane`, whose range they set, and
//! each problem is reported in that order.

use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use timestep_lab_core::live::LiveSettings;

/// The key of [`LiveSettings::focus`], the one setting checked against another (the
/// panes).
pub const FOCUS_KEY: &str = "focus_pane";

/// The live loop's settings' keys, in the order they are read ([`keys_in_order`]).
pub fn live_keys() -> &'static [String] {
    static KEYS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| keys_in_order(&LiveSettings::default()))
}

/// The live loop's settings as a TOML table.
pub fn settings_table(settings: &LiveSettings) -> toml::Table {
    to_table(settings)
}

/// `value` as a TOML table, as serde's derive writes it.
pub fn to_table<T: Serialize>(value: &T) -> toml::Table {
    // Plain values (numbers, text, lists of text) in a struct always make a table.
    toml::Table::try_from(value).expect("settings serialise to a TOML table")
}

/// The keys `value` is written with, in the order serde writes them: its fields' order.
/// (The order a `toml::Table` keeps is alphabetical, so serde_json's text, written field by
/// field, is where the order is read.)
pub fn keys_in_order<T: Serialize>(value: &T) -> Vec<String> {
    serde_json::to_string(value)
        .and_then(|json| serde_json::from_str::<Keys>(&json))
        .map(|keys| keys.0)
        .unwrap_or_default()
}

/// A map's keys, in the order they come.
struct Keys(Vec<String>);

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// Collects the keys, skipping the values.
        struct KeysVisitor;

        impl<'de> Visitor<'de> for KeysVisitor {
            type Value = Keys;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some((key, IgnoredAny)) = map.next_entry::<String, IgnoredAny>()? {
                    keys.push(key);
                }
                Ok(Keys(keys))
            }
        }

        deserializer.deserialize_map(KeysVisitor)
    }
}

/// Settings read from a table one key at a time (see the module doc): each key that reads
/// is taken, each that does not leaves the settings as they were.
#[derive(Clone, Debug)]
pub struct FieldReader<T> {
    /// The settings read so far.
    settings: T,
    /// The same as a table: every key, each value one that reads.
    table: toml::Table,
}

impl<T: Serialize + DeserializeOwned> FieldReader<T> {
    /// Starts from `base`, which must read back as itself (any settings the loop took do).
    pub fn new(base: T) -> Self {
        Self {
            table: to_table(&base),
            settings: base,
        }
    }

    /// Takes `value` for `key` if the settings then deserialise and pass `check`;
    /// otherwise says why and changes nothing.
    pub fn set(
        &mut self,
        key: &str,
        value: &toml::Value,
        check: impl FnOnce(&T) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut table = self.table.clone();
        table.insert(key.to_owned(), value.clone());
        let settings = T::deserialize(table.clone()).map_err(|error| error.message().to_owned())?;
        check(&settings)?;
        self.settings = settings;
        self.table = table;
        Ok(())
    }

    /// The settings read, taken.
    pub fn into_settings(self) -> T {
        self.settings
    }
}

/// The check between settings that serde's derive cannot make, for the value of `key` just
/// read: the focused pane is one of the panes.
pub fn check_key(key: &str, settings: &LiveSettings) -> Result<(), String> {
    let panes = settings.panes.len();
    if key == FOCUS_KEY && settings.focus >= panes {
        return Err(format!("out of range (allowed 1 to {panes})"));
    }
    Ok(())
}

/// A setting's value as a message quotes it: its TOML text with every control character and
/// every character that reorders text escaped (a recording or settings file is text from
/// outside).
pub fn shown_value(value: &toml::Value) -> String {
    match value {
        // As short as it was typed (`1e-300`), not TOML's hundreds of digits.
        toml::Value::Float(x) => timestep_lab_core::text::number(*x),
        toml::Value::Array(items) => format!(
            "[{}]",
            items.iter().map(shown_value).collect::<Vec<_>>().join(", ")
        ),
        other => timestep_lab_core::text::escape(&other.to_string()),
    }
}

/// Applies the settings in `table` (keys as [`settings_table`] writes them) over
/// `settings`, in the fields' order, then checks them. An unknown key, a value of the wrong
/// type or out of range is an error that names it; `settings` is then unchanged.
pub fn apply_settings_table(
    settings: &mut LiveSettings,
    table: &toml::Table,
) -> Result<(), String> {
    let keys = live_keys();
    if let Some(key) = table.keys().find(|key| !keys.contains(key)) {
        return Err(format!("unknown setting `{}`", key.escape_debug()));
    }
    let mut reader = FieldReader::new(*settings);
    for key in keys {
        if let Some(value) = table.get(key) {
            reader
                .set(key, value, |read| check_key(key, read))
                .map_err(|why| format!("`{key}` = {}: {why}", shown_value(value)))?;
        }
    }
    let changed = reader.into_settings();
    changed.validate().map_err(|error| error.to_string())?;
    *settings = changed;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_value_is_quoted_escaped() {
        // Found by the `recording` fuzz target: a right-to-left override inside a value
        // reached the message raw (TOML writes it as it is), reordering the line on screen.
        let mut table = toml::Table::new();
        table.insert(
            "camera".into(),
            toml::Value::String("a\u{202e}b\u{1b}[2J".into()),
        );
        let mut settings = LiveSettings::default();
        let error = apply_settings_table(&mut settings, &table).expect_err("not a camera");
        assert!(error.starts_with("`camera` = "), "{error}");
        assert!(
            !error.contains('\u{202e}') && !error.contains('\u{1b}'),
            "raw characters in {error:?}"
        );
        assert!(
            error.contains("a\\u{202e}b"),
            "the value is shown escaped: {error}"
        );
        assert_eq!(settings, LiveSettings::default(), "nothing applied");
    }

    #[test]
    fn a_tiny_or_huge_number_is_quoted_as_short_as_typed() {
        // TOML writes 1e-300 with some three hundred digits; messages quoted that.
        for (text, shown) in [
            ("max_steps = 1e-300", "`max_steps` = 1e-300: "),
            ("compare = 1e300", "`compare` = 1e300: "),
            ("panes = [1e-300]", "`panes` = [1e-300]: "),
        ] {
            let table: toml::Table = text.parse().unwrap();
            let mut settings = LiveSettings::default();
            let error = apply_settings_table(&mut settings, &table).expect_err(text);
            assert!(error.starts_with(shown), "{error}");
            assert!(error.len() < 120, "{error}");
        }
    }

    #[test]
    fn the_keys_are_the_fields_in_order_and_every_key_written() {
        let settings = LiveSettings::default();
        let keys = live_keys();
        assert_eq!(
            keys,
            [
                "strategy",
                "compare",
                "panes",
                "focus_pane",
                "rate_hz",
                "max_frame_time_ms",
                "max_steps",
                "integrator",
                "spring_hz",
                "damping",
                "camera",
                "view",
                "input_policy",
                "time_scale",
                "step_cost_ms",
                "render_cost_ms",
                "jitter_ms",
                "hitch_ms",
                "hitch_every_s",
                "frame_cap_hz",
                "filter",
                "refresh_hz",
            ]
        );
        let written: Vec<String> = settings_table(&settings).keys().cloned().collect();
        let mut sorted = keys.to_vec();
        sorted.sort();
        assert_eq!(written, sorted, "a table's keys are sorted");
    }

    #[test]
    fn the_table_is_written_as_before() {
        // The text of a recording's header: keys sorted, numbers as floats, ids as text.
        let text = toml::Value::Table(settings_table(&LiveSettings::default())).to_string();
        assert_eq!(
            text,
            "{ camera = \"smoothed\", compare = false, damping = 0.0, filter = \"none\", \
             focus_pane = 1, frame_cap_hz = 0.0, hitch_every_s = 2.0, hitch_ms = 0.0, \
             input_policy = \"buffered\", integrator = \"semi-implicit-euler\", jitter_ms = 0.0, \
             max_frame_time_ms = 250.0, max_steps = 0, panes = [\"fixed\", \"variable\", \
             \"semi-fixed\", \"accumulator\", \"interpolated\", \"extrapolated\"], \
             rate_hz = 50.0, refresh_hz = 0.0, render_cost_ms = 0.0, spring_hz = 1.0, \
             step_cost_ms = 0.0, strategy = \"interpolated\", time_scale = 1.0, \
             view = \"orbit\" }"
        );
    }

    #[test]
    fn each_bad_value_is_named_and_leaves_its_setting_alone() {
        let table: toml::Table = toml::from_str(
            "rate_hz = 60\nmax_steps = -1\npanes = [\"fixed\", \"warp\"]\nfocus_pane = 7\n\
             compare = \"yes\"\nfilter = 3\ncamera = \"drone\"",
        )
        .expect("TOML");
        let mut reader = FieldReader::new(LiveSettings::default());
        let mut problems = Vec::new();
        for key in live_keys() {
            if let Some(value) = table.get(key)
                && let Err(why) = reader.set(key, value, |read| check_key(key, read))
            {
                problems.push(format!("{key}: {why}"));
            }
        }
        let expected = [
            "compare: not true or false",
            "panes: unknown strategy \"warp\" (allowed: fixed, variable, ",
            "focus_pane: out of range (allowed 1 to 6)",
            "max_steps: out of range (allowed 0 (off) to 100000)",
            "camera: unknown camera driver \"drone\" (allowed: ",
            "filter: not a string",
        ];
        assert_eq!(problems.len(), expected.len(), "{problems:#?}");
        for (problem, start) in problems.iter().zip(expected) {
            assert!(
                problem.starts_with(start),
                "{problem:?} is not {start:?}..."
            );
        }
        let read = reader.into_settings();
        assert_eq!(read.rate_hz, 60.0, "a whole number is a number");
        assert_eq!(
            LiveSettings {
                rate_hz: 50.0,
                ..read
            },
            LiveSettings::default()
        );
    }
}
