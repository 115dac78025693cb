//! Removing the fields of a set from a value, or keeping only them (Go's `RemoveItems` and
//! `ExtractItems`).
//!
//! Removing the last entry of a map or the last item of a list leaves the container null
//! (structured-merge-diff v6.4.2; v6.3.1–v6.4.1 kept `{}`/`[]`). Extracting a path that is a
//! member keeps its whole value below it, read with the parent's set: where a set has both
//! a member and children at one element, the children are not looked at (Go's behaviour;
//! callers extract the set's leaves).

use smd_fieldpath::{Map, Name, PathElement, Set, Value};
use smd_schema::{ElementRelationship, Schema, TypeRef};

use super::TypedValue;
use super::atom::{self, Deduced, Part};

/// `value` without the fields of `set` (`extract`: with only them).
pub(crate) fn remove(
    schema: &Schema,
    tr: &TypeRef,
    value: &Value,
    set: &Set,
    extract: bool,
) -> Value {
    walk(schema, tr, value, set, extract, 0)
}

fn walk(
    schema: &Schema,
    tr: &TypeRef,
    value: &Value,
    set: &Set,
    extract: bool,
    depth: usize,
) -> Value {
    if depth > super::MAX_DEPTH {
        return Value::Null;
    }
    let Some(resolved) = schema.resolve(tr) else {
        return Value::Null;
    };
    match Deduced::new(resolved, Some(value)).part() {
        None => Value::Null,
        Some(Part::Scalar(_)) => value.clone(),
        Some(Part::List(list)) => {
            let Value::List(items) = value else {
                return Value::Null;
            };
            if items.is_empty() || *list.element_relationship() == ElementRelationship::Atomic {
                return if extract { value.clone() } else { Value::Null };
            }
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                // An item that cannot be named matches nothing in the set.
                let pe = atom::list_item_element(schema, &list, item).ok();
                let exact = pe.as_ref().is_some_and(|pe| set.has_member(pe));
                let below = pe
                    .as_ref()
                    .and_then(|pe| set.child(pe))
                    .filter(|s| !s.is_empty());
                let item = match below {
                    Some(below) => {
                        walk(schema, list.element_type(), item, below, extract, depth + 1)
                    }
                    None => item.clone(),
                };
                let keep = if extract {
                    exact || below.is_some()
                } else {
                    !exact
                };
                if keep {
                    out.push(item);
                }
            }
            if out.is_empty() {
                Value::Null
            } else {
                Value::List(out)
            }
        }
        Some(Part::Map(map)) => {
            let Value::Map(entries) = value else {
                return Value::Null;
            };
            if entries.is_empty() || map.is_atomic() {
                return if extract { value.clone() } else { Value::Null };
            }
            // Each key of `entries` once: new to `out`.
            let mut out = Map::with_capacity(entries.len());
            for (key, item) in entries.iter() {
                let pe = PathElement::Field(Name::from(key));
                let field_type = match map.find_field(key) {
                    Some(f) => f.type_ref(),
                    None => map.definition().element_type_ref(),
                };
                if set.has_member(&pe) {
                    if extract {
                        // Read with this level's set, as Go does.
                        out.push_unique(
                            key,
                            walk(schema, field_type, item, set, extract, depth + 1),
                        );
                    }
                    continue;
                }
                match set.child(&pe).filter(|s| !s.is_empty()) {
                    Some(below) => {
                        out.push_unique(
                            key,
                            walk(schema, field_type, item, below, extract, depth + 1),
                        );
                    }
                    None if extract => {}
                    None => {
                        out.push_unique(key, item.clone());
                    }
                }
            }
            if out.is_empty() {
                Value::Null
            } else {
                Value::Map(out)
            }
        }
    }
}

/// `items` with the key fields of every keyed list item on its paths that `tv` has (Go's
/// `WithAppendKeyFields`); `None` when `tv`'s own field set cannot be computed.
pub(crate) fn with_key_fields(tv: &TypedValue, items: &Set) -> Option<Set> {
    let own = tv.to_field_set().ok()?;
    let mut keys = Set::new();
    for path in items.iter() {
        let elements = path.elements();
        if !own.has(elements) {
            continue;
        }
        for (i, pe) in elements.iter().enumerate() {
            let PathElement::Key(key) = pe else { continue };
            for field in key.fields() {
                let mut with_key: Vec<PathElement> = elements[..=i].to_vec();
                with_key.push(PathElement::Field(field.name.clone()));
                keys.insert(&with_key);
            }
        }
    }
    Some(items.union(&keys))
}
