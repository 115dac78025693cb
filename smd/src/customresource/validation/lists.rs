//! The uniqueness of `x-kubernetes-list-type: set` items and `map` keys
//! (apiextensions-apiserver v0.37.2 `schema/listtype.ValidateListSetsAndMaps`), which the
//! field manager cannot check for bodies it does not apply.

use std::collections::HashMap;

use smd_fieldpath::{Map, Value};

use super::schema::{Additional, Node};
use crate::validation::{BadValue, FieldError, FieldPath, json};

/// The duplicates in `object`'s sets and map lists, wherever `schema` declares them.
pub(crate) fn duplicates(schema: &Node, object: &Value) -> Vec<FieldError> {
    let mut out = Vec::new();
    if let Value::Map(map) = object {
        in_map(schema, map, &FieldPath::default(), &mut out);
    }
    out
}

fn in_map(s: &Node, map: &Map, path: &FieldPath, out: &mut Vec<FieldError>) {
    if let Additional::Schema(values) = &s.additional {
        for (k, v) in map.iter() {
            in_value(values, v, &path.key(k), out);
        }
    }
    for (k, v) in map.iter() {
        if let Some(p) = s.properties.get(k) {
            in_value(p, v, &path.child(k), out);
        }
    }
}

fn in_value(s: &Node, value: &Value, path: &FieldPath, out: &mut Vec<FieldError>) {
    match value {
        Value::List(items) => in_list(s, items, path, out),
        Value::Map(map) => in_map(s, map, path, out),
        _ => {}
    }
}

fn in_list(s: &Node, items: &[Value], path: &FieldPath, out: &mut Vec<FieldError>) {
    match s.checks.list_type.as_deref() {
        Some("set") => {
            for i in repeated(items.iter().map(Some)) {
                out.push(FieldError::duplicate(
                    &path.index(i),
                    BadValue::of(&items[i]),
                ));
            }
        }
        Some("map") => map_keys(s, items, path, out),
        _ => {}
    }
    if let Some(item_schema) = &s.items {
        for (i, item) in items.iter().enumerate() {
            in_value(item_schema, item, &path.index(i), out);
        }
    }
}

/// `validateListMap`: every item an object (or null), no two with the same keys.
fn map_keys(s: &Node, items: &[Value], path: &FieldPath, out: &mut Vec<FieldError>) {
    if let Some(i) = items
        .iter()
        .position(|x| !matches!(x, Value::Map(_) | Value::Null))
    {
        out.push(FieldError::invalid(
            &path.index(i),
            BadValue::of(&items[i]),
            "must be an object for an array of list-type map",
        ));
        return;
    }
    if let [key] = s.checks.map_keys.as_slice() {
        // An item without the key (or a null item) has the "unspecified" key, shared by all.
        let keys: Vec<Option<&Value>> = items
            .iter()
            .map(|x| x.as_map().and_then(|m| m.get(key)))
            .collect();
        for i in repeated(keys.iter().copied()) {
            let mut shown = Map::new();
            if let Some(k) = keys[i] {
                shown.insert(key.as_str(), k.clone());
            }
            out.push(FieldError::duplicate(
                &path.index(i),
                BadValue::of(&Value::Map(shown)),
            ));
        }
        return;
    }
    let keys: Vec<Value> = items
        .iter()
        .map(|x| {
            let mut key = Map::new();
            if let Some(m) = x.as_map() {
                for k in &s.checks.map_keys {
                    if let Some(v) = m.get(k) {
                        key.insert(k.as_str(), v.clone());
                    }
                }
            }
            Value::Map(key)
        })
        .collect();
    for i in repeated(keys.iter().map(Some)) {
        out.push(FieldError::duplicate(
            &path.index(i),
            BadValue::of(&keys[i]),
        ));
    }
}

/// `validateListSet`: the index of each value's second occurrence. Scalars are told apart as
/// Go's map keys tell them (an integer is never a float); maps and lists by their JSON text.
/// `None` is the "unspecified" value, equal only to itself.
fn repeated<'a>(values: impl Iterator<Item = Option<&'a Value>>) -> Vec<usize> {
    #[derive(PartialEq, Eq, Hash)]
    enum Seen {
        Unspecified,
        Null,
        Bool(bool),
        Int(i64),
        Float(u64),
        Str(String),
        Compound(String),
    }
    let mut times: HashMap<Seen, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, v) in values.enumerate() {
        let seen = match v {
            None => Seen::Unspecified,
            Some(Value::Null) => Seen::Null,
            Some(Value::Bool(b)) => Seen::Bool(*b),
            Some(Value::Int(n)) => Seen::Int(*n),
            Some(Value::Float(f)) => Seen::Float(if *f == 0.0 { 0 } else { f.to_bits() }),
            Some(Value::String(s)) => Seen::Str(s.clone()),
            Some(compound) => Seen::Compound(json(compound)),
        };
        let count = times.entry(seen).or_insert(0);
        *count += 1;
        if *count == 2 {
            out.push(i);
        }
    }
    out
}
