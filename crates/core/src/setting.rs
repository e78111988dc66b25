//! One setting's value as a settings file holds it, read through serde in the lab's words.
//!
//! Serde's derive gives each setting ([`crate::live::LiveSettings`], the choice ids) its key,
//! type and default; the readers here decide what a value may be and, for one that is not,
//! say what was wanted ("not a number", "not true or false") rather than serde's "invalid
//! type: string \"fast\", expected f64". A file's value is first taken as a [`Value`] (true
//! or false, a number, text or a list), so the words are the same whatever format holds it:
//! the core knows none (the bench crate reads and writes TOML).

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serializer};

/// A setting's value as a file holds it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// True or false.
    Boolean(bool),
    /// A whole number.
    Integer(i64),
    /// A number with a fraction or an exponent.
    Float(f64),
    /// Text.
    Text(String),
    /// A list of values.
    List(Vec<Value>),
    /// Anything else (a table, a date, a whole number past `i64`): never a setting's value.
    Other,
}

impl Value {
    /// The value as a number (a whole number is taken as one).
    pub fn number(&self) -> Result<f64, String> {
        match self {
            Self::Float(x) => Ok(*x),
            Self::Integer(n) => Ok(*n as f64),
            _ => Err("not a number".to_owned()),
        }
    }

    /// The value as a whole number in `low..=high`.
    pub fn whole(&self, low: i64, high: i64) -> Result<i64, String> {
        match self {
            Self::Integer(n) if (low..=high).contains(n) => Ok(*n),
            Self::Integer(_) => Err(format!("out of range (allowed {low} to {high})")),
            _ => Err("not a whole number".to_owned()),
        }
    }

    /// The value as true or false.
    pub fn boolean(&self) -> Result<bool, String> {
        match self {
            Self::Boolean(value) => Ok(*value),
            _ => Err("not true or false".to_owned()),
        }
    }

    /// The value as text.
    pub fn text(&self) -> Result<&str, String> {
        match self {
            Self::Text(text) => Ok(text),
            _ => Err("not a string".to_owned()),
        }
    }

    /// The value as one of a choice's ids (or anything else parsed from text); the parser's
    /// error says what is allowed.
    pub fn id<T>(&self) -> Result<T, String>
    where
        T: std::str::FromStr,
        T::Err: fmt::Display,
    {
        self.text()?
            .parse()
            .map_err(|error: T::Err| error.to_string())
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

/// Takes any value serde gives as a [`Value`].
struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a setting's value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Boolean(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Integer(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Value, E> {
        Ok(i64::try_from(value).map_or(Value::Other, Value::Integer))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        Ok(Value::Float(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Value, E> {
        Ok(Value::Text(value.to_owned()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Other)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Value::Other)
    }
}

/// Deserialises a [`Value`] and reads it with `read`, whose error becomes the
/// deserialiser's.
pub fn read<'de, D, T>(
    deserializer: D,
    read: impl FnOnce(&Value) -> Result<T, String>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    read(&Value::deserialize(deserializer)?).map_err(de::Error::custom)
}

/// Reads a number (`#[serde(deserialize_with = "setting::number")]`).
pub fn number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    read(deserializer, Value::number)
}

/// Reads true or false (`#[serde(deserialize_with = "setting::boolean")]`).
pub fn boolean<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    read(deserializer, Value::boolean)
}

/// The range of a whole-number option or setting, as its parser applies it and every
/// message names it: one value per range, so the command line, the settings file and the
/// tests cannot disagree on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole {
    /// Least value allowed.
    pub low: u32,
    /// Greatest value allowed.
    pub high: u32,
    /// What the least value means where it is special ("off"), for messages.
    pub low_means: Option<&'static str>,
}

impl Whole {
    /// `low` to `high`.
    pub const fn new(low: u32, high: u32) -> Self {
        Self {
            low,
            high,
            low_means: None,
        }
    }

    /// The same range, its least value meaning `what` (`0 (off) to 100000`).
    pub const fn low_means(self, what: &'static str) -> Self {
        Self {
            low_means: Some(what),
            ..self
        }
    }

    /// The range in words: `64 to 16384`, `0 (off) to 100000`.
    pub fn allowed(&self) -> String {
        match self.low_means {
            Some(what) => format!("{} ({what}) to {}", self.low, self.high),
            None => format!("{} to {}", self.low, self.high),
        }
    }

    /// Whether `value` is in the range.
    pub fn contains(&self, value: u64) -> bool {
        (u64::from(self.low)..=u64::from(self.high)).contains(&value)
    }

    /// Reads `text` (a command line's value) as a whole number in the range, or says what it
    /// is not, naming the range: `-1 is not a whole number from 0 (off) to 100000`.
    pub fn parse(&self, text: &str) -> Result<u32, String> {
        let trimmed = text.trim();
        trimmed
            .parse::<u64>()
            .ok()
            .filter(|&n| self.contains(n))
            .map(|n| n as u32)
            .ok_or_else(|| {
                format!(
                    "{} is not a whole number from {}",
                    crate::text::escape_within(trimmed, 40),
                    self.allowed()
                )
            })
    }

    /// Reads a settings file's value as a whole number in the range.
    pub fn read(&self, value: &Value) -> Result<u32, String> {
        value
            .whole(i64::from(self.low), i64::from(self.high))
            .map(|n| n as u32)
            .map_err(|error| match value {
                Value::Integer(_) => format!("out of range (allowed {})", self.allowed()),
                _ => error,
            })
    }
}

/// Writes a value as its text (`Display`), for a type read from text.
pub fn display<T: fmt::Display, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::IntoDeserializer;
    use serde::de::value::{Error, MapDeserializer, SeqDeserializer};

    /// `value` read through serde as a [`Value`].
    fn through_serde<'de>(deserializer: impl Deserializer<'de, Error = Error>) -> Value {
        Value::deserialize(deserializer).expect("any value reads")
    }

    #[test]
    fn every_kind_of_value_reads_and_names_what_it_is_not() {
        assert_eq!(
            through_serde(true.into_deserializer()),
            Value::Boolean(true)
        );
        assert_eq!(through_serde(3_i64.into_deserializer()), Value::Integer(3));
        assert_eq!(through_serde(u64::MAX.into_deserializer()), Value::Other);
        assert_eq!(
            through_serde(2.5_f64.into_deserializer()),
            Value::Float(2.5)
        );
        assert_eq!(
            through_serde("fast".into_deserializer()),
            Value::Text("fast".into())
        );
        let list = SeqDeserializer::new(["a", "b"].into_iter());
        assert_eq!(
            through_serde(list),
            Value::List(vec![Value::Text("a".into()), Value::Text("b".into())])
        );
        let table = MapDeserializer::new([("key", 1_i64)].into_iter());
        assert_eq!(through_serde(table), Value::Other);

        let text = Value::Text("fast".into());
        assert_eq!(text.number().unwrap_err(), "not a number");
        assert_eq!(text.boolean().unwrap_err(), "not true or false");
        assert_eq!(text.whole(0, 9).unwrap_err(), "not a whole number");
        assert_eq!(Value::Integer(4).number(), Ok(4.0));
        assert_eq!(
            Value::Integer(10).whole(0, 9).unwrap_err(),
            "out of range (allowed 0 to 9)"
        );
        assert_eq!(Value::Boolean(true).text().unwrap_err(), "not a string");
    }
}
