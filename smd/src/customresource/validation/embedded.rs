//! The resources a custom resource embeds (`x-kubernetes-embedded-resource`), checked as
//! resources (apiextensions-apiserver v0.37.2 `schema/objectmeta.Validate`): `apiVersion` and
//! `kind` present and well formed, `metadata` through apimachinery's `ObjectMeta` checks with
//! names as path segments.

use smd_fieldpath::{Map, Value};

use super::schema::{Additional, Node};
use crate::validation::names::{is_dns1035_label, is_path_segment_name, is_path_segment_prefix};
use crate::validation::{BadValue, FieldError, FieldPath, meta};

/// The errors of every embedded resource in `object` (the object itself is not one).
pub(crate) fn embedded(schema: &Node, object: &Value) -> Vec<FieldError> {
    let mut out = Vec::new();
    walk(schema, object, &FieldPath::default(), &mut out);
    out
}

fn walk(s: &Node, x: &Value, path: &FieldPath, out: &mut Vec<FieldError>) {
    match x {
        Value::Map(map) => {
            if s.checks.embedded {
                resource(map, path, out);
            }
            for (k, v) in map.iter() {
                if let Some(p) = s.properties.get(k) {
                    walk(p, v, &path.child(k), out);
                } else if let Additional::Schema(values) = &s.additional {
                    walk(values, v, &path.key(k), out);
                }
            }
        }
        Value::List(items) => {
            if let Some(item) = &s.items {
                for (i, v) in items.iter().enumerate() {
                    walk(item, v, &path.index(i), out);
                }
            }
        }
        _ => {}
    }
}

fn resource(map: &Map, path: &FieldPath, out: &mut Vec<FieldError>) {
    for key in ["apiVersion", "kind"] {
        if !map.contains_key(key) {
            out.push(FieldError::required(&path.child(key), ""));
        }
    }
    for (key, value) in map.iter() {
        let at = path.child(key);
        match (key, value) {
            ("apiVersion" | "kind", Value::String(s)) if s.is_empty() => {
                out.push(FieldError::invalid(
                    &at,
                    BadValue::str(""),
                    "must not be empty",
                ));
            }
            ("apiVersion" | "kind", v) if !matches!(v, Value::String(_)) => {
                out.push(FieldError::invalid(
                    &at,
                    BadValue::of(v),
                    "must be a string",
                ));
            }
            ("apiVersion", Value::String(s)) if s.matches('/').count() > 1 => {
                let why = format!("unexpected GroupVersion string: {s}");
                out.push(FieldError::invalid(&at, BadValue::str(s.as_str()), why));
            }
            ("kind", Value::String(s)) => {
                let errs = is_dns1035_label(&s.to_lowercase());
                if !errs.is_empty() {
                    let why = format!(
                        "may have mixed case, but should otherwise match: {}",
                        errs.join(",")
                    );
                    out.push(FieldError::invalid(&at, BadValue::str(s.as_str()), why));
                }
            }
            ("metadata", v) => metadata(v, &at, out),
            _ => {}
        }
    }
}

/// `ValidateObjectMetaDeclaratively` on the embedded metadata, a missing name standing in as
/// `fakename` (Go's placeholder), namespaced when it names a namespace.
fn metadata(value: &Value, at: &FieldPath, out: &mut Vec<FieldError>) {
    let prefix = at.as_str();
    let mut decoded = match super::super::objectmeta::object_meta(value, prefix) {
        Ok((decoded, _)) => decoded,
        Err(why) => {
            out.push(FieldError::invalid(at, BadValue::of(value), why));
            return;
        }
    };
    let Some(m) = decoded.as_map_mut() else {
        return;
    };
    if m.get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .is_empty()
    {
        m.insert("name", Value::from("fakename"));
    }
    let namespaced = !m
        .get("namespace")
        .and_then(Value::as_str)
        .unwrap_or("")
        .is_empty();
    let mut wrapper = Map::new();
    wrapper.insert("metadata", decoded);
    out.extend(meta::apimachinery_object_meta(
        &Value::Map(wrapper),
        namespaced,
        path_segment,
        at,
    ));
}

/// `validatePathSegment`.
fn path_segment(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_path_segment_prefix(name)
    } else {
        is_path_segment_name(name)
    }
}
