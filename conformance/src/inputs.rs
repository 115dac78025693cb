//! Reading the inputs of a case: strings, bytes, value specs, path elements and paths.

use crate::Malformed;
use serde_json::Value as Json;
use smd_fieldpath::{Error, Map, PathElement, Value};

/// Why a case produced no result of its own.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The case does not follow the format.
    Malformed(Malformed),
    /// smd refused an input: the result is this error.
    Error(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Error(e)
    }
}

/// A value's JSON or YAML refused: the same error, its message and location kept.
impl From<smd::value::Error> for Failure {
    fn from(e: smd::value::Error) -> Failure {
        Failure::Error(e.into())
    }
}

impl From<Malformed> for Failure {
    fn from(m: Malformed) -> Failure {
        Failure::Malformed(m)
    }
}

pub(crate) type Outcome = Result<Json, Failure>;

fn malformed(message: String) -> Failure {
    Failure::Malformed(Malformed(message))
}

pub(crate) fn field<'a>(case: &'a Json, name: &str) -> Result<&'a Json, Malformed> {
    case.get(name)
        .ok_or_else(|| Malformed(format!("missing {name:?}")))
}

pub(crate) fn str_field<'a>(case: &'a Json, name: &str) -> Result<&'a str, Malformed> {
    field(case, name)?
        .as_str()
        .ok_or_else(|| Malformed(format!("{name:?} is not a string")))
}

/// `input` as text or `inputBase64` as bytes.
pub(crate) fn input_bytes(case: &Json) -> Result<Vec<u8>, Failure> {
    if let Some(text) = case.get("input") {
        let text = text
            .as_str()
            .ok_or_else(|| malformed("\"input\" is not a string".into()))?;
        return Ok(text.as_bytes().to_vec());
    }
    let b64 = str_field(case, "inputBase64")?;
    crate::canonical::base64_decode(b64).ok_or_else(|| malformed("bad base64".into()))
}

/// A value spec: `{yaml: TEXT}` or `{json: TEXT}`.
pub(crate) fn value_spec(spec: &Json) -> Result<Value, Failure> {
    if let Some(text) = spec.get("yaml").and_then(Json::as_str) {
        return Ok(smd_fieldpath::yaml::from_str(text)?);
    }
    if let Some(text) = spec.get("json").and_then(Json::as_str) {
        return Ok(Value::from_json_floats(text.as_bytes())?);
    }
    Err(malformed(format!("not a value spec: {spec}")))
}

/// A path element: a serialized string, or `{field|index|value|key: …}`.
pub(crate) fn element(spec: &Json) -> Result<PathElement, Failure> {
    if let Some(text) = spec.as_str() {
        return Ok(PathElement::from_fields_v1(text.as_bytes())?);
    }
    if let Some(name) = spec.get("field").and_then(Json::as_str) {
        return Ok(PathElement::field(name));
    }
    if let Some(index) = spec.get("index").and_then(Json::as_i64) {
        return Ok(PathElement::index(index));
    }
    if let Some(value) = spec.get("value") {
        return Ok(PathElement::value(value_spec(value)?));
    }
    if let Some(key) = spec.get("key") {
        let map: Map = match value_spec(key)? {
            Value::Map(map) => map,
            other => return Err(malformed(format!("a key must be a map, not {other:?}"))),
        };
        return Ok(PathElement::key(map));
    }
    Err(malformed(format!("not a path element: {spec}")))
}

/// A path: a list of path elements.
pub(crate) fn path(spec: &Json) -> Result<Vec<PathElement>, Failure> {
    spec.as_array()
        .ok_or_else(|| malformed(format!("not a path: {spec}")))?
        .iter()
        .map(element)
        .collect()
}

/// A list of something.
pub(crate) fn list<'a>(case: &'a Json, name: &str) -> Result<&'a Vec<Json>, Failure> {
    field(case, name)?
        .as_array()
        .ok_or_else(|| malformed(format!("{name:?} is not a list")))
}
