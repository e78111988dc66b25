//! The live loop's settings as TOML: the keys, types and ranges shared by a recording's
//! header and its setting changes and by the window's remembered settings file.

use timestep_lab_core::live::{LiveSettings, Panes};
use timestep_lab_core::timestep::{FilterSpec, Strategy};

/// One setting in the file: its key, and how it is read and written.
pub struct Field {
    /// The TOML key.
    pub key: &'static str,
    /// Reads the value into the settings, or says why it cannot.
    pub set: fn(&mut LiveSettings, &toml::Value) -> Result<(), String>,
    /// The value to write.
    pub get: fn(&LiveSettings) -> toml::Value,
}

/// A [`Field`] for the setting at `PATH`, read with `read` and written with
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

/// Every live-loop setting, in the order it is written.
pub const FIELDS: [Field; 22] = [
    id_field!("strategy", strategy),
    bool_field!("compare", compare),
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
            r.panes = Panes::new(&strategies).map_err(|error| error.to_string())?;
            Ok(())
        },
        get: |r| {
            toml::Value::Array(
                r.panes
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
            let pane = integer(v, 1, r.panes.len() as i64)?;
            r.focus = (pane - 1) as usize;
            Ok(())
        },
        get: |r| toml::Value::Integer(r.focus as i64 + 1),
    },
    number_field!("rate_hz", rate_hz),
    number_field!("max_frame_time_ms", max_frame_time_ms),
    field!(
        "max_steps",
        max_steps,
        |v| integer(v, 0, i64::from(u32::MAX)).map(|n| n as u32),
        |n| toml::Value::Integer(i64::from(n))
    ),
    id_field!("integrator", integrator),
    number_field!("spring_hz", spring_hz),
    number_field!("damping", damping),
    id_field!("camera", camera),
    id_field!("view", view),
    id_field!("input_policy", input_policy),
    number_field!("time_scale", time_scale),
    number_field!("step_cost_ms", load.step_cost_ms),
    number_field!("render_cost_ms", load.render_cost_ms),
    number_field!("jitter_ms", load.jitter_ms),
    number_field!("hitch_ms", load.hitch_ms),
    number_field!("hitch_every_s", load.hitch_every_s),
    number_field!("frame_cap_hz", frame_cap_hz),
    field!(
        "filter",
        filter,
        |v| string(v).and_then(FilterSpec::parse),
        |spec: FilterSpec| toml::Value::String(spec.to_string())
    ),
    number_field!("refresh_hz", refresh_override_hz),
];

/// The live loop's settings as a TOML table, in [`FIELDS`]' order.
pub fn settings_table(settings: &LiveSettings) -> toml::Table {
    FIELDS
        .iter()
        .map(|field| (field.key.to_owned(), (field.get)(settings)))
        .collect()
}

/// Applies the settings in `table` (keys as [`settings_table`] writes them) over
/// `settings`, in [`FIELDS`]' order, then checks them. An unknown key, a value of the wrong
/// type or out of range is an error that names it; `settings` is then unchanged.
pub fn apply_settings_table(
    settings: &mut LiveSettings,
    table: &toml::Table,
) -> Result<(), String> {
    if let Some(key) = table
        .keys()
        .find(|key| !FIELDS.iter().any(|f| f.key == *key))
    {
        return Err(format!("unknown setting `{}`", key.escape_debug()));
    }
    let mut changed = *settings;
    for field in &FIELDS {
        if let Some(value) = table.get(field.key) {
            (field.set)(&mut changed, value)
                .map_err(|why| format!("`{}` = {value}: {why}", field.key))?;
        }
    }
    changed.validate().map_err(|error| error.to_string())?;
    *settings = changed;
    Ok(())
}

/// The value as a string.
pub fn string(value: &toml::Value) -> Result<&str, String> {
    value.as_str().ok_or_else(|| "not a string".to_owned())
}

/// The value as one of a choice's ids.
pub fn parse_id<T>(value: &toml::Value) -> Result<T, String>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    string(value)?
        .parse()
        .map_err(|error: T::Err| error.to_string())
}

/// The value as a number (an integer is taken as one).
pub fn number(value: &toml::Value) -> Result<f64, String> {
    match value {
        toml::Value::Float(x) => Ok(*x),
        toml::Value::Integer(n) => Ok(*n as f64),
        _ => Err("not a number".into()),
    }
}

/// The value as a whole number in `low..=high`.
pub fn integer(value: &toml::Value, low: i64, high: i64) -> Result<i64, String> {
    match value {
        toml::Value::Integer(n) if (low..=high).contains(n) => Ok(*n),
        toml::Value::Integer(_) => Err(format!("out of range (allowed {low} to {high})")),
        _ => Err("not a whole number".into()),
    }
}

/// The value as true or false.
pub fn boolean(value: &toml::Value) -> Result<bool, String> {
    value
        .as_bool()
        .ok_or_else(|| "not true or false".to_owned())
}
