//! The round-trip annotations read as `json.Unmarshal` reads them into v1's structs (fields
//! matched ignoring case; one that does not decode makes the whole annotation ignored), each
//! item as v2's.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::super::json::{field, quantity_text};
use crate::builtin::quantity;

/// An annotation's list decoded item by item; `None` (the annotation ignored, as a failed
/// `json.Unmarshal` leaves it) when it is not a list or an item does not decode.
pub(super) fn decode_list(value: &Value, item: fn(&Map) -> Option<Value>) -> Option<Vec<Value>> {
    match value {
        Value::Null => Some(Vec::new()),
        Value::List(items) => items
            .iter()
            .map(|i| match i {
                Value::Map(m) => item(m),
                Value::Null => item(&Map::new()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// A string field as `json.Unmarshal` reads it: absent is empty, another type fails.
fn text(map: &Map, name: &str) -> Option<String> {
    match field(map, name) {
        None => Some(String::new()),
        Some(Value::String(s)) => Some(s.to_string()),
        Some(_) => None,
    }
}

/// An optional `int32` field: `Ok(None)` when absent, `Err` when it does not decode.
fn int32(map: &Map, name: &str) -> Result<Option<Value>, ()> {
    match field(map, name) {
        None => Ok(None),
        Some(v) => v
            .as_int()
            .filter(|n| i32::try_from(*n).is_ok())
            .map(|n| Some(Value::Int(n)))
            .ok_or(()),
    }
}

/// An optional quantity field, canonical: `Ok(None)` when absent.
fn quantity_field(map: &Map, name: &str) -> Result<Option<Value>, ()> {
    match field(map, name) {
        None => Ok(None),
        Some(v) => quantity_text(v)
            .and_then(|t| quantity::canonical(&t).ok())
            .map(|c| Some(Value::from(c)))
            .ok_or(()),
    }
}

/// An optional sub-object: `Ok(None)` when absent, `Err` when not an object.
fn object<'a>(map: &'a Map, name: &str) -> Result<Option<&'a Map>, ()> {
    match field(map, name) {
        None => Ok(None),
        Some(Value::Map(m)) => Ok(Some(m)),
        Some(_) => Err(()),
    }
}

fn insert_opt(map: &mut Map, key: &str, value: Option<Value>) {
    if let Some(v) = value {
        map.insert(key, v);
    }
}

fn string_value(s: String) -> Value {
    Value::from(s)
}

/// v1's `CrossVersionObjectReference` as v2's.
fn v2_reference(map: Option<&Map>) -> Option<Value> {
    let empty = Map::new();
    let r = map.unwrap_or(&empty);
    let mut out = Map::new();
    out.insert("kind", string_value(text(r, "kind")?));
    out.insert("name", string_value(text(r, "name")?));
    let api = text(r, "apiVersion")?;
    if !api.is_empty() {
        out.insert("apiVersion", Value::from(api));
    }
    Some(Value::Map(out))
}

/// A metric identifier: a name and a selector.
fn identifier(name: String, selector: Option<&Value>) -> Option<Value> {
    let mut out = Map::new();
    out.insert("name", Value::from(name));
    match selector {
        None => {}
        Some(Value::Map(m)) => {
            out.insert("selector", Value::Map(m.clone()));
        }
        Some(_) => return None,
    }
    Some(Value::Map(out))
}

fn target(kind: &str, value: Option<Value>, average: Option<Value>, util: Option<Value>) -> Value {
    let mut t = Map::new();
    t.insert("type", Value::from(kind));
    insert_opt(&mut t, "value", value);
    insert_opt(&mut t, "averageValue", average);
    insert_opt(&mut t, "averageUtilization", util);
    Value::Map(t)
}

/// One v1 `MetricSpec` (from the annotation) as v2's.
pub(super) fn v2_metric_spec(m: &Map) -> Option<Value> {
    let mut out = Map::new();
    out.insert("type", Value::from(text(m, "type")?));
    if let Some(s) = object(m, "object").ok()? {
        let value = quantity_field(s, "targetValue")
            .ok()?
            .unwrap_or_else(|| Value::from("0"));
        let average = quantity_field(s, "averageValue").ok()?;
        let (kind, value) = match &average {
            None => ("Value", Some(value)),
            Some(_) => (
                "AverageValue",
                (!value.as_str().is_some_and(quantity::is_zero)).then_some(value),
            ),
        };
        let mut o = Map::new();
        o.insert("describedObject", v2_reference(object(s, "target").ok()?)?);
        o.insert("target", target(kind, value, average, None));
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "selector"))?,
        );
        out.insert("object", Value::Map(o));
    }
    if let Some(s) = object(m, "pods").ok()? {
        let average = quantity_field(s, "targetAverageValue")
            .ok()?
            .unwrap_or_else(|| Value::from("0"));
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "selector"))?,
        );
        o.insert("target", target("AverageValue", None, Some(average), None));
        out.insert("pods", Value::Map(o));
    }
    for key in ["resource", "containerResource"] {
        if let Some(s) = object(m, key).ok()? {
            let util = int32(s, "targetAverageUtilization").ok()?;
            let average = quantity_field(s, "targetAverageValue").ok()?;
            let kind = if util.is_some() {
                "Utilization"
            } else {
                "AverageValue"
            };
            let mut o = Map::new();
            o.insert("name", Value::from(text(s, "name")?));
            o.insert("target", target(kind, None, average, util));
            if key == "containerResource" {
                o.insert("container", Value::from(text(s, "container")?));
            }
            out.insert(key, Value::Map(o));
        }
    }
    if let Some(s) = object(m, "external").ok()? {
        let value = quantity_field(s, "targetValue").ok()?;
        let average = quantity_field(s, "targetAverageValue").ok()?;
        let kind = if value.is_none() {
            "AverageValue"
        } else {
            "Value"
        };
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "metricSelector"))?,
        );
        o.insert("target", target(kind, value, average, None));
        out.insert("external", Value::Map(o));
    }
    Some(Value::Map(out))
}

fn current(value: Option<Value>, average: Option<Value>, util: Option<Value>) -> Value {
    let mut c = Map::new();
    insert_opt(&mut c, "value", value);
    insert_opt(&mut c, "averageValue", average);
    insert_opt(&mut c, "averageUtilization", util);
    Value::Map(c)
}

/// One v1 `MetricStatus` (from the annotation) as v2's.
pub(super) fn v2_metric_status(m: &Map) -> Option<Value> {
    let zero = || Value::from("0");
    let mut out = Map::new();
    out.insert("type", Value::from(text(m, "type")?));
    if let Some(s) = object(m, "object").ok()? {
        let value = quantity_field(s, "currentValue").ok()?.unwrap_or_else(zero);
        let average = quantity_field(s, "averageValue").ok()?;
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "selector"))?,
        );
        o.insert("current", current(Some(value), average, None));
        o.insert("describedObject", v2_reference(object(s, "target").ok()?)?);
        out.insert("object", Value::Map(o));
    }
    if let Some(s) = object(m, "pods").ok()? {
        let average = quantity_field(s, "currentAverageValue")
            .ok()?
            .unwrap_or_else(zero);
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "selector"))?,
        );
        o.insert("current", current(None, Some(average), None));
        out.insert("pods", Value::Map(o));
    }
    for key in ["resource", "containerResource"] {
        if let Some(s) = object(m, key).ok()? {
            let util = int32(s, "currentAverageUtilization").ok()?;
            let average = quantity_field(s, "currentAverageValue")
                .ok()?
                .unwrap_or_else(zero);
            let mut o = Map::new();
            o.insert("name", Value::from(text(s, "name")?));
            o.insert("current", current(None, Some(average), util));
            if key == "containerResource" {
                o.insert("container", Value::from(text(s, "container")?));
            }
            out.insert(key, Value::Map(o));
        }
    }
    if let Some(s) = object(m, "external").ok()? {
        let value = quantity_field(s, "currentValue").ok()?.unwrap_or_else(zero);
        let average = quantity_field(s, "currentAverageValue").ok()?;
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "metricSelector"))?,
        );
        o.insert("current", current(Some(value), average, None));
        out.insert("external", Value::Map(o));
    }
    Some(Value::Map(out))
}

/// One v1 condition (from the annotation) as v2's.
pub(super) fn v2_condition(c: &Map) -> Option<Value> {
    let mut out = Map::new();
    out.insert("type", Value::from(text(c, "type")?));
    out.insert("status", Value::from(text(c, "status")?));
    out.insert(
        "lastTransitionTime",
        match field(c, "lastTransitionTime") {
            None => Value::Null,
            Some(Value::String(s)) => Value::from(s.to_string()),
            Some(_) => return None,
        },
    );
    for key in ["reason", "message"] {
        let t = text(c, key)?;
        if !t.is_empty() {
            out.insert(key, Value::from(t));
        }
    }
    insert_opt(
        &mut out,
        "observedGeneration",
        int32(c, "observedGeneration").ok()?,
    );
    Some(Value::Map(out))
}
