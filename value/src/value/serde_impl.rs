//! serde support, conversion from and to `serde_json::Value`, and reading a JSON manifest.
//!
//! This is JSON as Kubernetes clients and the API server read an object: a number without a
//! fraction or exponent that fits in an int64 is an [`Value::Int`], every other number a
//! [`Value::Float`]. (Go structured-merge-diff's own `value.FromJSON` reads every number as a
//! float64; that reader is a different one, with Go's error texts.)
//!
//! Maps keep the order of the input. A key that appears twice keeps its first place and its last
//! value, as Go's `encoding/json` does when it decodes into a map.
//!
//! NaN and the infinities have no JSON form: serializing them is an error (serde_json would
//! otherwise write `null`), with json-iterator's message `unsupported value: NaN`.

use super::{Map, Value, float};
use crate::{Error, ErrorKind, Location};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, Serialize, Serializer};
use std::fmt;

/// A bound on what a length hint from the input may make us allocate up front.
const MAX_PREALLOCATED: usize = 4096;

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::Float(f) if f.is_finite() => s.serialize_f64(*f),
            Value::Float(f) => Err(ser::Error::custom(float::unsupported_message(*f))),
            Value::String(text) => s.serialize_str(text),
            Value::List(items) => s.collect_seq(items),
            Value::Map(m) => m.serialize(s),
        }
    }
}

impl Serialize for Map {
    /// The entries in insertion order.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Map, D::Error> {
        d.deserialize_map(MapVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null, a boolean, a number, a string, a list or a map")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(i64::try_from(u).map_or(Value::Float(u as f64), Value::Int))
    }

    fn visit_i128<E>(self, i: i128) -> Result<Value, E> {
        Ok(i64::try_from(i).map_or(Value::Float(i as f64), Value::Int))
    }

    fn visit_u128<E>(self, u: u128) -> Result<Value, E> {
        Ok(i64::try_from(u).map_or(Value::Float(u as f64), Value::Int))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Float(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(MAX_PREALLOCATED));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, access: A) -> Result<Value, A::Error> {
        MapVisitor.visit_map(access).map(Value::Map)
    }
}

struct MapVisitor;

impl<'de> Visitor<'de> for MapVisitor {
    type Value = Map;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Map, A::Error> {
        let mut m = Map::with_capacity(access.size_hint().unwrap_or(0).min(MAX_PREALLOCATED));
        while let Some((k, v)) = access.next_entry::<String, Value>()? {
            m.insert(k, v);
        }
        Ok(m)
    }
}

impl From<serde_json::Value> for Value {
    /// The same value; a number is an [`Value::Int`] when it is an integer that fits in an
    /// int64, else a [`Value::Float`] (an integer beyond the int64 range is rounded).
    ///
    /// The conversion recurses once per level of nesting; a `serde_json::Value` read by
    /// `serde_json::from_str` is at most 127 levels deep. (serde_json's own `Drop` recurses too.)
    fn from(v: serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => number(&n),
            serde_json::Value::String(s) => Value::String(s),
            serde_json::Value::Array(items) => {
                Value::List(items.into_iter().map(Value::from).collect())
            }
            serde_json::Value::Object(entries) => Value::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, Value::from(v)))
                    .collect(),
            ),
        }
    }
}

fn number(n: &serde_json::Number) -> Value {
    if let Some(i) = n.as_i64() {
        Value::Int(i)
    } else if let Some(u) = n.as_u64() {
        Value::Float(u as f64)
    } else {
        // Every number that is not an integer has an f64 form (serde_json's `arbitrary_precision`
        // parses it); NaN only stands in for a number it could not read.
        Value::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

/// The error for a float JSON cannot hold.
fn unsupported(f: f64) -> Error {
    Error::new(
        ErrorKind::Unsupported,
        float::unsupported_message(f),
        Location::Unknown,
    )
}

impl TryFrom<&Value> for serde_json::Value {
    type Error = Error;

    /// The same value, maps in insertion order. NaN and the infinities have no JSON form: they
    /// are an [`ErrorKind::Unsupported`] error.
    fn try_from(v: &Value) -> Result<serde_json::Value, Error> {
        Ok(match v {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(i) => serde_json::Value::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f)
                .map(serde_json::Value::Number)
                .ok_or_else(|| unsupported(*f))?,
            Value::String(s) => serde_json::Value::String(s.clone()),
            Value::List(items) => serde_json::Value::Array(
                items
                    .iter()
                    .map(serde_json::Value::try_from)
                    .collect::<Result<_, _>>()?,
            ),
            Value::Map(m) => serde_json::Value::Object(
                m.iter()
                    .map(|(k, v)| Ok((k.to_owned(), serde_json::Value::try_from(v)?)))
                    .collect::<Result<_, Error>>()?,
            ),
        })
    }
}

impl TryFrom<Value> for serde_json::Value {
    type Error = Error;

    /// As the conversion from `&Value`, moving strings instead of copying them.
    fn try_from(v: Value) -> Result<serde_json::Value, Error> {
        Ok(match v {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(b),
            Value::Int(i) => serde_json::Value::from(i),
            Value::Float(f) => serde_json::Number::from_f64(f)
                .map(serde_json::Value::Number)
                .ok_or_else(|| unsupported(f))?,
            Value::String(s) => serde_json::Value::String(s),
            Value::List(items) => serde_json::Value::Array(
                items
                    .into_iter()
                    .map(serde_json::Value::try_from)
                    .collect::<Result<_, _>>()?,
            ),
            Value::Map(m) => serde_json::Value::Object(
                m.into_iter()
                    .map(|(k, v)| Ok((k, serde_json::Value::try_from(v)?)))
                    .collect::<Result<_, Error>>()?,
            ),
        })
    }
}

/// How many levels of nested lists and maps [`Value::from_json`] accepts: what serde_json's
/// own recursion limit allows (its counter starts at 128 and refuses the level that reaches 0).
pub const FROM_JSON_MAX_DEPTH: usize = 127;

impl Value {
    /// Reads a JSON document the way Kubernetes reads a manifest: integers that fit in an int64
    /// stay [`Value::Int`], other numbers are [`Value::Float`], maps keep the order of the text,
    /// and a repeated key keeps its last value.
    ///
    /// ```
    /// use smd_value::Value;
    /// let v = Value::from_json(r#"{"replicas": 3, "ratio": 0.5, "big": 18446744073709551615}"#)?;
    /// let m = v.as_map().unwrap();
    /// assert_eq!(m.get("replicas").unwrap().as_int(), Some(3));
    /// assert_eq!(m.get("ratio").unwrap().as_f64(), Some(0.5));
    /// assert!(matches!(m.get("big"), Some(Value::Float(_))));
    /// # Ok::<(), smd_value::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Text that is not one well-formed JSON value is an [`ErrorKind::Json`] error with serde_json's
    /// message and a [`Location::Text`]. Nesting deeper than [`FROM_JSON_MAX_DEPTH`] (127 levels)
    /// is an [`ErrorKind::Limit`] error, `recursion limit exceeded`. That is lower than
    /// [`crate::MAX_DEPTH`]: serde_json's reader recurses, and its own limit is what keeps the
    /// stack safe (raising it would need serde_json's `unbounded_depth` feature and a depth count
    /// of our own); real Kubernetes objects stay far below it.
    pub fn from_json(text: &str) -> crate::Result<Value> {
        serde_json::from_str(text).map_err(|e| json_error(text, &e))
    }
}

/// serde_json's error as ours: its message without the ` at line L column C` it appends, and a
/// location with the column counted in characters and the byte offset it stands for.
fn json_error(text: &str, e: &serde_json::Error) -> Error {
    let full = e.to_string();
    let (line, column) = (e.line(), e.column());
    let message = if line == 0 {
        full.as_str()
    } else {
        let suffix = format!(" at line {line} column {column}");
        full.strip_suffix(suffix.as_str()).unwrap_or(full.as_str())
    };
    let kind = if message == "recursion limit exceeded" {
        ErrorKind::Limit
    } else {
        ErrorKind::Json
    };
    let location = if line == 0 {
        Location::Unknown
    } else {
        text_location(text, line, column)
    };
    Error::new(kind, message, location)
}

/// serde_json counts lines by `\n` and columns in bytes, the offending byte being at 1-based byte
/// column `column` of its line (0 at the very start of a line).
fn text_location(text: &str, line: usize, column: usize) -> Location {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(at, _)| at + 1)
    };
    let rest = text.get(line_start..).unwrap_or_default();
    let mut offset = (line_start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = rest
        .char_indices()
        .take_while(|&(at, _)| line_start + at < offset);
    Location::Text {
        line,
        column: before.count() + 1,
        offset,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn locations() {
        let e = Value::from_json("{\"a\": 1,\n  \"é\": x}").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Json);
        assert_eq!(e.message(), "expected value");
        // `x` is the 8th character (9th byte) of line 2, at byte 17.
        assert_eq!(
            e.location(),
            Location::Text {
                line: 2,
                column: 8,
                offset: 17
            }
        );
    }
}
