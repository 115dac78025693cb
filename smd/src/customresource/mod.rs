//! Custom resources as the API server holds them (apiextensions-apiserver v0.37.2): what the
//! CRD's structural schema does to an object beyond typing it.
//!
//! The server's codec for custom resources (`customresource_handler.go`) runs the *schema
//! coercer* on every object it decodes (a create or update body, a patched object, an object
//! read from storage): the fields the schema does not declare are pruned (unless below
//! `x-kubernetes-preserve-unknown-fields`), `null`s that no schema allows are removed, the
//! metadata of the root and of embedded resources goes through Go's `ObjectMeta`; then the
//! schema's defaults are applied. An apply's merged object is defaulted by the field manager.
//! The fields pruned from a request body are what `fieldValidation` warns of (Warn), refuses
//! (Strict) or keeps quiet about (Ignore).
//!
//! | module | what |
//! |---|---|
//! | `structural.rs` | [`Structural`], one version's schema as pruning and defaulting read it |
//! | `pruning.rs` | pruning, the removal of forbidden `null`s, the pruning of the schema's defaults |
//! | `defaulting.rs` | structural defaulting |
//! | `objectmeta.rs` | the metadata of embedded resources coerced through `ObjectMeta` |
//! | `validation/` | [`Validation`]: the values the schema allows, the scale paths, duplicates |

use smd_fieldpath::Value;

mod defaulting;
mod objectmeta;
mod pruning;
pub mod rules;
mod structural;
pub mod validation;

pub use structural::Structural;
pub use validation::Validation;

/// Why a body cannot be decoded: the coercer's error, in the server's words (what follows
/// `<Kind> in version "<v>" cannot be handled as a <Kind>: `).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct CoerceError(pub String);

/// How strictly the coercer reads: a request body (unknown fields named, metadata that does
/// not decode refused) or an object read from storage (neither).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// A request's body (or a patched object): `track` says whether the unknown fields are
    /// wanted (`fieldValidation` Warn or Strict).
    Request {
        /// Whether the pruned fields' paths are collected.
        track: bool,
    },
    /// An object as the storage returns it.
    Storage,
}

/// The schema coercer (`unstructuredSchemaCoercer.apply`) on a custom resource of the CRD's
/// kind, with `schema` its version's structural schema (`None`: the version has none): the
/// root metadata through `ObjectMeta`, then pruning, the removal of forbidden `null`s and the
/// embedded resources' metadata. Returns the unknown fields' paths as the server names them,
/// in its order: the root metadata's, the pruned ones (sorted), the embedded metadata's
/// (sorted); empty unless tracked.
pub fn coerce(
    object: &mut Value,
    schema: Option<&Structural>,
    reading: Reading,
) -> Result<Vec<String>, CoerceError> {
    let (track, drop_invalid) = match reading {
        Reading::Request { track } => (track, false),
        Reading::Storage => (false, true),
    };
    let mut unknown = Vec::new();
    // The root metadata is read before pruning and put back after it, coerced.
    let metadata = match object.as_map().and_then(|m| m.get("metadata")) {
        Some(m) => match objectmeta::object_meta(m, "metadata") {
            Ok(coerced) => Some(coerced),
            Err(e) if !drop_invalid => return Err(CoerceError(e)),
            // The storage keeps what it cannot read.
            Err(_) => None,
        },
        None => None,
    };
    if let Some((_, found)) = &metadata
        && track
    {
        unknown.extend(found.iter().cloned());
    }
    let mut pruned = pruning::Unknown::new(track);
    pruning::prune_resource(object, schema, &mut pruned);
    unknown.append(&mut pruned.found);
    pruning::prune_nulls(object, schema);
    let mut embedded = Vec::new();
    objectmeta::coerce(object, schema, drop_invalid, &mut embedded).map_err(CoerceError)?;
    if track {
        unknown.append(&mut embedded);
    }
    if let (Some((mut coerced, _)), Some(map)) = (metadata, object.as_map_mut()) {
        // The storage's reader gives objects of very old servers, which had none, generation 1.
        if reading == Reading::Storage
            && let Some(meta) = coerced.as_map_mut()
            && meta.get("generation").and_then(Value::as_int).unwrap_or(0) == 0
        {
            meta.insert("generation", Value::Int(1));
        }
        map.insert("metadata", coerced);
    }
    Ok(unknown)
}

/// The schema's defaults applied to `object` (`structuraldefaulting.Default`), as the codec
/// does after decoding and the field manager after an apply.
pub fn default(object: &mut Value, schema: Option<&Structural>) {
    defaulting::default(object, schema);
}

/// An object read from storage: coerced leniently, then defaulted (what every answer and
/// every read of a custom resource shows).
pub fn read(object: &mut Value, schema: Option<&Structural>) {
    whole_numbers(object);
    // The storage's coercer drops what does not decode; it cannot fail.
    let _ = coerce(object, schema, Reading::Storage);
    default(object, schema);
}

/// A custom resource's numbers as the storage reads them back: Go's `encoding/json` writes a
/// whole float64 below 1e21 without a fraction (`2.0` is stored as `2`), and the decoder reads
/// such a number as an int64 where it fits.
fn whole_numbers(value: &mut Value) {
    if let Some(read) = read_back_number(value) {
        *value = read;
    }
}

/// `value` with its whole floats made integers, `None` when it has none (maps are shared: one
/// is copied only where it changes).
fn read_back_number(value: &Value) -> Option<Value> {
    match value {
        // Within ±2^63 the conversion is exact; beyond it Go reads a float back.
        Value::Float(f)
            if f.fract() == 0.0
                && f.abs() < 1e21
                && *f >= -9_223_372_036_854_775_808.0
                && *f < 9_223_372_036_854_775_808.0 =>
        {
            Some(Value::Int(*f as i64))
        }
        Value::List(items) => {
            let changed: Vec<Option<Value>> = items.iter().map(read_back_number).collect();
            changed.iter().any(Option::is_some).then(|| {
                Value::List(
                    changed
                        .into_iter()
                        .zip(items)
                        .map(|(c, old)| c.unwrap_or_else(|| old.clone()))
                        .collect(),
                )
            })
        }
        Value::Map(map) => {
            let changed: Vec<(String, Value)> = map
                .iter()
                .filter_map(|(k, v)| read_back_number(v).map(|c| (k.to_owned(), c)))
                .collect();
            (!changed.is_empty()).then(|| {
                let mut copy = map.clone();
                for (k, v) in changed {
                    copy.insert(&k, v);
                }
                Value::Map(copy)
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
