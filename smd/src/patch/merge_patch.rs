//! JSON merge patch (RFC 7386) as `gopkg.in/evanphx/json-patch.v4` v4.13.0's `MergePatch`
//! applies it, which is what the API server runs on the current object's JSON.
//!
//! Where json-patch departs from the RFC, so does this: a patch that is an array replaces the
//! whole document (with the `null` members of the objects inside it removed, the `null` items
//! kept); a patch value that replaces an object with a non-object is taken as it is, `null`
//! members and all, while one that replaces a non-object has its `null` members removed.

use super::PatchError;
use smd_fieldpath::{MAX_DEPTH, Map, Value};

/// `patch` merged into `original` as the API server merges an `application/merge-patch+json`
/// body into the current object.
///
/// A `null` member deletes the member, an object merges into an object, anything else replaces.
/// Keys of the original keep their place; new keys go last (their order carries no meaning:
/// the server decodes the result).
///
/// # Errors
///
/// [`PatchError::InvalidMergePatch`] when the patch is `null`, a string, a number or a boolean;
/// [`PatchError::InvalidDocument`] when the original is `null`; [`PatchError::TooDeep`] beyond
/// smd's nesting limit.
pub fn merge(original: &Value, patch: &Value) -> Result<Value, PatchError> {
    if original.is_null() {
        return Err(PatchError::InvalidDocument);
    }
    match (original, patch) {
        (_, Value::Null) => Err(PatchError::InvalidMergePatch),
        (Value::Map(doc), Value::Map(changes)) => Ok(Value::Map(merge_maps(doc, changes, 1)?)),
        (_, Value::Map(changes)) => Ok(Value::Map(prune_map(changes, 1)?)),
        (_, Value::List(items)) => Ok(Value::List(prune_list(items, 1)?)),
        _ => Err(PatchError::InvalidMergePatch),
    }
}

fn check_depth(depth: usize) -> Result<(), PatchError> {
    if depth > MAX_DEPTH {
        return Err(PatchError::TooDeep { max: MAX_DEPTH });
    }
    Ok(())
}

/// json-patch's `mergeDocs`: one pass over the original, then the patch's new members, so that
/// deleting many members of a big map stays linear.
fn merge_maps(doc: &Map, patch: &Map, depth: usize) -> Result<Map, PatchError> {
    check_depth(depth)?;
    let mut out = Map::with_capacity(doc.len() + patch.len());
    for (key, current) in doc.iter() {
        match patch.get(key) {
            None => {
                out.insert(key, current.clone());
            }
            Some(Value::Null) => {}
            Some(change) if current.is_null() => {
                out.insert(key, prune(change, depth + 1)?);
            }
            Some(change) => {
                out.insert(key, merge_value(current, change, depth + 1)?);
            }
        }
    }
    for (key, change) in patch.iter() {
        if !change.is_null() && !doc.contains_key(key) {
            out.insert(key, prune(change, depth + 1)?);
        }
    }
    Ok(out)
}

/// json-patch's `merge` of one member: only an object merges into an object. Replacing a
/// non-object prunes the patch value's `null` members; replacing an object does not.
fn merge_value(current: &Value, change: &Value, depth: usize) -> Result<Value, PatchError> {
    match (current, change) {
        (Value::Map(doc), Value::Map(patch)) => Ok(Value::Map(merge_maps(doc, patch, depth)?)),
        (Value::Map(_), _) => Ok(change.clone()),
        _ => prune(change, depth),
    }
}

/// json-patch's `pruneNulls`: `null` members of objects go, at every level; `null` items of
/// arrays stay.
fn prune(value: &Value, depth: usize) -> Result<Value, PatchError> {
    match value {
        Value::Map(map) => Ok(Value::Map(prune_map(map, depth)?)),
        Value::List(items) => Ok(Value::List(prune_list(items, depth)?)),
        other => Ok(other.clone()),
    }
}

fn prune_map(map: &Map, depth: usize) -> Result<Map, PatchError> {
    check_depth(depth)?;
    let mut out = Map::with_capacity(map.len());
    for (key, value) in map.iter() {
        if !value.is_null() {
            out.insert(key, prune(value, depth + 1)?);
        }
    }
    Ok(out)
}

fn prune_list(items: &[Value], depth: usize) -> Result<Vec<Value>, PatchError> {
    check_depth(depth)?;
    items.iter().map(|item| prune(item, depth + 1)).collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn v(text: &str) -> Value {
        Value::from_json(text).unwrap()
    }

    #[test]
    fn keys_keep_their_place() {
        let out = merge(
            &v(r#"{"b":1,"a":2,"c":3}"#),
            &v(r#"{"d":4,"a":null,"b":5}"#),
        )
        .unwrap();
        let keys: Vec<&str> = out.as_map().unwrap().keys().collect();
        assert_eq!(keys, ["b", "c", "d"]);
    }

    #[test]
    fn deep_patch_is_refused_not_overflowed() {
        let mut patch = Value::Int(1);
        for _ in 0..(MAX_DEPTH + 5) {
            let mut m = Map::new();
            m.insert("a", patch);
            patch = Value::Map(m);
        }
        let err = merge(&v("{}"), &patch).unwrap_err();
        assert_eq!(err, PatchError::TooDeep { max: MAX_DEPTH });
    }
}
