//! The metadata of resources embedded in a custom resource (`x-kubernetes-embedded-resource`)
//! coerced as the server coerces them (apiextensions-apiserver v0.37.2
//! `pkg/apiserver/schema/objectmeta/coerce.go`): `apiVersion` and `kind` must be strings,
//! `metadata` goes through Go's `ObjectMeta` and back (unknown fields dropped and named, empty
//! ones gone, a zero `creationTimestamp` removed).

use smd_fieldpath::{Map, Value};

use super::structural::{Structural, sorted};
use crate::validation::{BadValue, FieldError, FieldPath};

/// Coerces every embedded resource of `x` (whose schema is `schema`; `x` itself is not taken
/// as a resource). `drop_invalid`: what does not decode is left alone (as the storage reads
/// old objects) instead of refused. The unknown metadata fields found are pushed onto
/// `unknown`, sorted, named as field paths (`spec.servers[a].metadata.bogus`).
pub(crate) fn coerce(
    x: &mut Value,
    schema: Option<&Structural>,
    drop_invalid: bool,
    unknown: &mut Vec<String>,
) -> Result<(), String> {
    let mut found = Vec::new();
    let result = walk(None, x, schema, drop_invalid, &mut found, 0);
    found.sort();
    unknown.extend(found);
    result
}

fn child(path: Option<&FieldPath>, name: &str) -> FieldPath {
    match path {
        Some(p) => p.child(name),
        None => FieldPath::new(name),
    }
}

fn walk(
    path: Option<&FieldPath>,
    x: &mut Value,
    schema: Option<&Structural>,
    drop_invalid: bool,
    unknown: &mut Vec<String>,
    depth: usize,
) -> Result<(), String> {
    let Some(s) = schema else {
        return Ok(());
    };
    if depth >= smd_fieldpath::MAX_DEPTH {
        return Ok(());
    }
    match x {
        Value::Map(map) => {
            if s.embedded {
                embedded_meta(path, map, drop_invalid, unknown)?;
            }
            for (k, v) in map.iter_mut() {
                if let Some(p) = s.property(k) {
                    let at = child(path, k);
                    walk(Some(&at), v, Some(p), drop_invalid, unknown, depth + 1)?;
                } else if let Some(a) = &s.additional {
                    let at = match path {
                        Some(p) => p.key(k),
                        None => FieldPath::new(&format!("[{k}]")),
                    };
                    walk(Some(&at), v, a.as_deref(), drop_invalid, unknown, depth + 1)?;
                }
            }
        }
        Value::List(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                let at = match path {
                    Some(p) => p.index(i),
                    None => FieldPath::new(&format!("[{i}]")),
                };
                walk(
                    Some(&at),
                    v,
                    s.items.as_deref(),
                    drop_invalid,
                    unknown,
                    depth + 1,
                )?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// An embedded resource's `apiVersion`, `kind` and `metadata`.
fn embedded_meta(
    path: Option<&FieldPath>,
    map: &mut Map,
    drop_invalid: bool,
    unknown: &mut Vec<String>,
) -> Result<(), String> {
    for field in ["apiVersion", "kind"] {
        match map.get(field) {
            None | Some(Value::String(_)) => {}
            Some(other) => {
                if drop_invalid {
                    map.remove(field);
                } else {
                    let error = FieldError::invalid(
                        &child(path, field),
                        BadValue::of(other),
                        "must be a string",
                    );
                    return Err(error.to_string());
                }
            }
        }
    }
    let Some(metadata) = map.get("metadata") else {
        return Ok(());
    };
    let prefix = child(path, "metadata");
    match object_meta(metadata, prefix.as_str()) {
        Ok((mut coerced, found)) => {
            unknown.extend(found);
            if let Some(m) = coerced.as_map_mut()
                && m.get("creationTimestamp").is_none_or(Value::is_null)
            {
                m.remove("creationTimestamp");
            }
            map.insert("metadata", coerced);
            Ok(())
        }
        // Left as it is when reading what the storage holds.
        Err(_) if drop_invalid => Ok(()),
        Err(e) => {
            let error = FieldError::invalid(&prefix, BadValue::of(metadata), e);
            Err(error.to_string())
        }
    }
}

/// `metadata` through Go's `ObjectMeta` and back, with the unknown fields named under
/// `prefix` in the order Go's strict decoder meets them (its JSON's keys are sorted). `null`
/// decodes as an empty `ObjectMeta`.
pub(crate) fn object_meta(metadata: &Value, prefix: &str) -> Result<(Value, Vec<String>), String> {
    let input = match metadata {
        Value::Null => Value::Map(Map::new()),
        other => sorted(other),
    };
    let decoded = crate::builtin::round_trip_object_meta(&input).map_err(|e| e.message)?;
    let unknown = decoded
        .unknown_fields
        .iter()
        .map(|f| format!("{prefix}.{}", f.trim_start_matches('.')))
        .collect();
    Ok((decoded.object, unknown))
}
