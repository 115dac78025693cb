//! Checking a value against its type (Go's `typed.Validate`): every problem, each at its path.
//!
//! As in Go, a list stops at its first item that cannot be named (no key fields, a null in a
//! keyed list, ...), and a map stops at its first undeclared field; Go visits map entries in
//! random order, smd in the value's order, which is one of Go's.

use smd_fieldpath::{Name, PathElement, Value};
use smd_schema::{ElementRelationship, ListView, MapView, Schema, TypeRef};

use super::MAX_DEPTH;
use super::atom::{self, Deduced, Part, Trail};
use super::element_set::Seen;
use super::error::ValidationErrors;

pub(crate) fn validate(
    schema: &Schema,
    tr: &TypeRef,
    value: &Value,
    allow_duplicates: bool,
) -> Result<(), ValidationErrors> {
    let mut v = Validator {
        schema,
        allow_duplicates,
        trail: Trail::new(),
    };
    v.node(tr, value);
    v.trail.finish(())
}

struct Validator<'s> {
    schema: &'s Schema,
    allow_duplicates: bool,
    trail: Trail,
}

impl Validator<'_> {
    fn error(&mut self, message: String) {
        self.trail.error(message);
    }

    fn node(&mut self, tr: &TypeRef, value: &Value) {
        // Nothing below can be invalid (a fieldsV1 value, an untyped object), unless it nests
        // past the walks' limit, which the walk reports.
        let depth = self.trail.path.len();
        if depth <= MAX_DEPTH
            && matches!(value, Value::Map(_) | Value::List(_))
            && self.schema.accepts_anything(tr)
            && nests_within(value, MAX_DEPTH - depth)
        {
            return;
        }
        let Some(resolved) = self.trail.resolve(self.schema, tr) else {
            return;
        };
        match Deduced::new(resolved, Some(value)).part() {
            None => self.error(atom::invalid_atom(tr)),
            Some(Part::Scalar(t)) => {
                if let Some(message) = atom::check_scalar(t, Some(value), "") {
                    self.error(message);
                }
            }
            Some(Part::List(list)) => self.list(&list, value),
            Some(Part::Map(map)) => self.map(&map, value),
        }
    }

    fn list(&mut self, list: &ListView<'_>, value: &Value) {
        let items = match value {
            Value::Null => return,
            Value::List(items) => items,
            other => {
                self.error(format!("expected list, got {}", atom::go_plain(other)));
                return;
            }
        };
        let associative = *list.element_relationship() == ElementRelationship::Associative;
        let mut seen = Seen::default();
        for (i, item) in items.iter().enumerate() {
            let pe = if associative {
                match atom::list_item_element(self.schema, list, item) {
                    Ok(pe) => pe,
                    Err(e) => {
                        // An item that cannot be named hides the rest of the list.
                        self.error(format!("element {i}: {e}"));
                        return;
                    }
                }
            } else {
                PathElement::Index(i as i64)
            };
            if associative && !seen.insert(&pe) && !self.allow_duplicates {
                self.error(format!("duplicate entries for key {pe}"));
            }
            self.trail.path.push(pe);
            self.node(list.element_type(), item);
            self.trail.path.pop();
        }
    }

    fn map(&mut self, map: &MapView<'_>, value: &Value) {
        let entries = match value {
            Value::Null => return,
            Value::Map(m) => m,
            other => {
                self.error(format!("expected map, got {}", atom::go_plain(other)));
                return;
            }
        };
        for (key, item) in entries.iter() {
            let tr = match map.find_field(key) {
                Some(field) => field.type_ref(),
                None => match map.element_type() {
                    Some(tr) => tr,
                    None => {
                        self.trail.path.push(PathElement::Field(Name::from(key)));
                        self.error("field not declared in schema".to_owned());
                        self.trail.path.pop();
                        return;
                    }
                },
            };
            if self.scalar_checks(tr, item) {
                continue;
            }
            self.trail.path.push(PathElement::Field(Name::from(key)));
            self.node(tr, item);
            self.trail.path.pop();
        }
    }

    /// Whether `value`, one level below the current path, is a scalar that `tr` takes: the
    /// walk of it would find nothing, so its path (which only an error needs) is not made.
    /// Anything else is left to the walk, which says what is wrong.
    fn scalar_checks(&self, tr: &TypeRef, value: &Value) -> bool {
        if matches!(value, Value::Map(_) | Value::List(_) | Value::Null)
            || self.trail.path.len() >= MAX_DEPTH
        {
            return false;
        }
        let Some(resolved) = self.schema.resolve(tr) else {
            return false;
        };
        match Deduced::new(resolved, Some(value)).part() {
            Some(Part::Scalar(t)) => atom::check_scalar(t, Some(value), "").is_none(),
            _ => false,
        }
    }
}

/// Whether `value`'s maps and lists nest at most `levels` deep below it.
fn nests_within(value: &Value, levels: usize) -> bool {
    match value {
        Value::Map(m) => {
            m.is_empty() || (levels > 0 && m.values().all(|v| nests_within(v, levels - 1)))
        }
        Value::List(items) => {
            items.is_empty() || (levels > 0 && items.iter().all(|v| nests_within(v, levels - 1)))
        }
        _ => true,
    }
}
