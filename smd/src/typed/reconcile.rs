//! Migrating a field set after its type changed (Go's `ReconcileFieldSetWithSchema`): a list
//! or map that became atomic is owned as a whole from then on, so the fields a manager owned
//! inside it give way to the container's own path. Granular to atomic only: a container that
//! became granular keeps its member as it is.

use smd_fieldpath::{PathElement, Set};
use smd_schema::{ElementRelationship, MapView, Schema, TypeRef};

use super::atom::{self, Trail};
use super::error::ValidationErrors;
use super::{DEDUCED_TYPE, MAX_DEPTH, TypedValue};

/// A field set could not be reconciled with its type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("errors reconciling field set with schema: {0}")]
pub struct ReconcileError(pub ValidationErrors);

/// `set` adjusted to the type of `tv` (only the schema and type of `tv` matter, not its
/// value): `None` when nothing changes.
pub fn reconcile_field_set_with_schema(
    set: &Set,
    tv: &TypedValue,
) -> Result<Option<Set>, ReconcileError> {
    let mut w = Walker {
        schema: tv.schema(),
        trail: Trail::new(),
        to_remove: Set::new(),
        to_add: Set::new(),
        changed: false,
    };
    w.node(tv.type_ref(), Some(set), false);
    if !w.trail.errors.is_empty() {
        return Err(ReconcileError(ValidationErrors(w.trail.errors)));
    }
    if !w.changed {
        return Ok(None);
    }
    Ok(Some(
        set.recursive_difference(&w.to_remove).union(&w.to_add),
    ))
}

struct Walker<'s> {
    schema: &'s Schema,
    trail: Trail,
    to_remove: Set,
    to_add: Set,
    changed: bool,
}

impl Walker<'_> {
    fn error(&mut self, message: String) {
        self.trail.error(message);
    }

    /// `set` is what the field set holds below this node (`None`: the node is only a
    /// member); `atomic` is whether the node is a member with nothing below it.
    fn node(&mut self, tr: &TypeRef, set: Option<&Set>, atomic: bool) {
        if self.trail.path.len() > MAX_DEPTH {
            self.error(format!("nested deeper than {MAX_DEPTH} levels"));
            return;
        }
        let Some(resolved) = self.schema.resolve(tr) else {
            self.error(format!("could not resolve {}", describe(tr)));
            return;
        };
        // The schema decides, not a value: the map part first, then the scalar, then the list.
        if let Some(map) = resolved.map() {
            self.map(&map, set, atomic);
        } else if resolved.scalar().is_some() {
        } else if let Some(list) = resolved.list() {
            if !atomic && *list.element_relationship() == ElementRelationship::Atomic {
                self.replace_by_container();
                return;
            }
            if let Some(set) = set {
                self.entries(set, |_| Some(list.element_type()));
            }
        } else {
            self.error(atom::invalid_atom(tr));
        }
    }

    fn map(&mut self, map: &MapView<'_>, set: Option<&Set>, atomic: bool) {
        if is_untyped_deduced(map) {
            return;
        }
        if !atomic && map.is_atomic() {
            if set.is_some_and(|s| s.size() > 0) {
                self.replace_by_container();
            }
            return;
        }
        if let Some(set) = set {
            self.entries(set, |pe| {
                let field = pe
                    .as_field()
                    .and_then(|name| map.find_field_bytes(name.as_bytes()));
                let tr = match field {
                    Some(f) => f.type_ref(),
                    None => map.definition().element_type_ref(),
                };
                // Fields the schema does not know are left alone.
                (!tr.is_zero()).then_some(tr)
            });
        }
    }

    /// Visits the children that are not members, then the members.
    fn entries<'t>(&mut self, set: &Set, type_of: impl Fn(&PathElement) -> Option<&'t TypeRef>) {
        for (pe, below) in set.children() {
            if set.has_member(pe) {
                continue;
            }
            if let Some(tr) = type_of(pe) {
                self.trail.path.push(pe.clone());
                self.node(tr, Some(below), false);
                self.trail.path.pop();
            }
        }
        for pe in set.members() {
            if let Some(tr) = type_of(pe) {
                // A scalar field: nothing to reconcile, and no error to say at its path.
                if self.trail.path.len() < MAX_DEPTH
                    && self
                        .schema
                        .resolve(tr)
                        .is_some_and(|r| r.map().is_none() && r.scalar().is_some())
                {
                    continue;
                }
                let below = set.child(pe);
                self.trail.path.push(pe.clone());
                self.node(tr, below, below.is_none());
                self.trail.path.pop();
            }
        }
    }

    fn replace_by_container(&mut self) {
        self.changed = true;
        self.to_remove.insert(&self.trail.path);
        self.to_add.insert(&self.trail.path);
    }
}

/// Go's `isUntypedDeducedMap`: the map of the deduced type.
fn is_untyped_deduced(map: &MapView<'_>) -> bool {
    if !map.fields().is_empty() {
        return false;
    }
    let tr = map.definition().element_type_ref();
    match tr.named_type() {
        Some(name) => name == DEDUCED_TYPE,
        None => matches!(
            tr.inlined_atom().as_scalar(),
            Some(smd_schema::Scalar::Untyped)
        ),
    }
}

/// A type reference in an error (Go prints the struct with its pointers; smd names it).
fn describe(tr: &TypeRef) -> String {
    match tr.named_type() {
        Some(name) => format!("type {name}"),
        None => "an inlined type".to_owned(),
    }
}
