//! The fields a value sets (Go's `ToFieldSet`): what an applier of that value owns.
//!
//! Scalars, atomic lists and atomic maps are leaves. A list item is named by its key or value
//! and owned as a whole (its path is a member) besides its own fields; an item that appears
//! twice is owned by its path only. A map entry is a member when it is not a declared field,
//! or when it is null or an empty map; a declared field with content is only a prefix of its
//! fields. Type errors are not checked here (the value was validated when it was typed).

use smd_fieldpath::{Name, PathElement, Set, Value};
use smd_schema::{ElementRelationship, ListView, MapView, Schema, TypeRef};

use super::atom::{self, Deduced, Part, Trail, has_content};
use super::element_set::Seen;
use super::error::ValidationErrors;
use super::set_builder::SetBuilder;

pub(crate) fn to_field_set(
    schema: &Schema,
    tr: &TypeRef,
    value: &Value,
) -> Result<Set, ValidationErrors> {
    let mut w = Walker {
        schema,
        trail: Trail::new(),
        set: SetBuilder::new(),
    };
    w.node(tr, value);
    let Walker { trail, set, .. } = w;
    trail.finish(()).map(|()| set.finish())
}

struct Walker<'s> {
    schema: &'s Schema,
    trail: Trail,
    set: SetBuilder,
}

impl Walker<'_> {
    fn error(&mut self, message: String) {
        self.trail.error(message);
    }

    /// Back up one level of the value, and of the set.
    fn leave(&mut self) {
        if let Some(pe) = self.trail.path.pop() {
            self.set.ascend(&pe);
        }
    }

    fn node(&mut self, tr: &TypeRef, value: &Value) {
        let Some(resolved) = self.trail.resolve(self.schema, tr) else {
            return;
        };
        match Deduced::new(resolved, Some(value)).part() {
            None => self.error(atom::invalid_atom(tr)),
            Some(Part::Scalar(_)) => self.set.insert_here(self.trail.path.last()),
            Some(Part::List(list)) => self.list(&list, value),
            Some(Part::Map(map)) => self.map(&map, value),
        }
    }

    fn list(&mut self, list: &ListView<'_>, value: &Value) {
        if *list.element_relationship() == ElementRelationship::Atomic {
            self.set.insert_here(self.trail.path.last());
            return;
        }
        let Value::List(items) = value else { return };
        self.set
            .reserve(items.len(), items.iter().filter(|i| has_content(i)).count());
        let mut elements = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match atom::list_item_element(self.schema, list, item) {
                Ok(pe) => elements.push(pe),
                Err(e) => {
                    // Go names such an item with an empty path element, which no field set
                    // can serialize; smd says why instead.
                    self.error(format!("element {i}: {e}"));
                    return;
                }
            }
        }
        let mut seen = Seen::default();
        let mut duplicates = Seen::default();
        for pe in &elements {
            if !seen.insert(pe) && duplicates.insert(pe) {
                self.set.insert_below(pe.clone());
            }
        }
        for (pe, item) in elements.into_iter().zip(items) {
            if !duplicates.is_empty() && duplicates.contains(&pe) {
                continue;
            }
            self.trail.path.push(pe);
            self.set.descend();
            self.node(list.element_type(), item);
            self.set.insert_here(self.trail.path.last());
            self.leave();
        }
    }

    fn map(&mut self, map: &MapView<'_>, value: &Value) {
        if map.is_atomic() {
            self.set.insert_here(self.trail.path.last());
            return;
        }
        let Value::Map(entries) = value else { return };
        let containers = entries.values().filter(|v| has_content(v)).count();
        self.set.reserve(entries.len() - containers, containers);
        for (key, item) in entries.iter() {
            let field = map.find_field(key);
            let tr = match field {
                Some(f) => f.type_ref(),
                None => map.definition().element_type_ref(),
            };
            if self.is_scalar(tr, item) {
                self.set.insert_below(PathElement::Field(Name::from(key)));
                continue;
            }
            self.trail.path.push(PathElement::Field(Name::from(key)));
            self.set.descend();
            self.node(tr, item);
            let empty = match item {
                Value::Null => true,
                Value::Map(m) => m.is_empty(),
                _ => false,
            };
            if empty || field.is_none() {
                self.set.insert_here(self.trail.path.last());
            }
            self.leave();
        }
    }
}

impl Walker<'_> {
    /// Whether `value`, one level below the current path, is a scalar its type takes as one
    /// (a leaf: a member, with no level of its own and no error to say).
    fn is_scalar(&self, tr: &TypeRef, value: &Value) -> bool {
        if matches!(value, Value::Map(_) | Value::List(_) | Value::Null)
            || self.trail.path.len() >= super::MAX_DEPTH
        {
            return false;
        }
        self.schema.resolve(tr).is_some_and(|resolved| {
            matches!(
                Deduced::new(resolved, Some(value)).part(),
                Some(Part::Scalar(_))
            )
        })
    }
}
