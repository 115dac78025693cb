//! The field set of a value without a schema (Go's `SetFromValue`).
//!
//! Every scalar or null at a non-empty path is a member. Maps are walked by field name; list
//! items by a guessed key: a map item is keyed by whichever of `key`, `id` and `name` it has with
//! a scalar value, any other item by its index.
//!
//! ```
//! use smd_fieldpath::{Set, Value};
//! let value = smd_fieldpath::yaml::from_str("containers:\n- name: app\n  image: nginx\n").unwrap();
//! let set = Set::from_value(&value);
//! assert_eq!(set.to_string(), ".containers[name=\"app\"].image\n.containers[name=\"app\"].name");
//! ```

use crate::element::{Key, KeyField, PathElement};
use crate::name::Name;
use crate::set::Set;
use crate::value::Value;

/// The fields whose scalar values make a map item's key. Go tries `key`, `id`, `name` and sorts
/// what it finds by name; keeping them sorted here gives the same key directly.
const KEY_CANDIDATES: [&str; 3] = ["id", "key", "name"];

impl Set {
    /// Every leaf of `value`, with list items keyed by a guess; see the module documentation.
    pub fn from_value(value: &Value) -> Set {
        let mut set = Set::new();
        let mut path = Vec::new();
        walk(value, &mut path, &mut set);
        set
    }
}

fn walk(value: &Value, path: &mut Vec<PathElement>, set: &mut Set) {
    match value {
        Value::List(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(guess_list_element(index, item));
                walk(item, path, set);
                path.pop();
            }
        }
        Value::Map(map) => {
            for (name, field) in map.iter() {
                path.push(PathElement::Field(Name::from(name)));
                walk(field, path, set);
                path.pop();
            }
        }
        _ => set.insert(path),
    }
}

fn guess_list_element(index: usize, item: &Value) -> PathElement {
    let Value::Map(map) = item else {
        return PathElement::Index(index as i64);
    };
    let fields: Vec<KeyField> = KEY_CANDIDATES
        .iter()
        .filter_map(|&name| match map.get(name)? {
            Value::Null | Value::List(_) | Value::Map(_) => None,
            scalar => Some(KeyField {
                name: Name::from(name),
                value: scalar.clone(),
            }),
        })
        .collect();
    if fields.is_empty() {
        PathElement::Index(index as i64)
    } else {
        PathElement::Key(Key::from_sorted(fields))
    }
}
