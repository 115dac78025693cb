//! Values paired with their schema type, and the operations Server-Side Apply is made of
//! (Go's `typed` package): validate, the field set a value sets, compare, merge, remove and
//! extract items, and reconcile a field set with a changed schema.
//!
//! A [`TypedValue`] holds a value, the schema (shared, [`Arc`]) and the reference to its type.
//! Every operation walks the value and the schema together; references inside the schema are
//! bound to their targets when the schema is built, so a walk never looks a type up by name.
//!
//! ```
//! use std::sync::Arc;
//! use smd::fieldpath::yaml;
//! use smd::typed::TypedValue;
//! use smd::schema::Schema;
//!
//! let schema = Arc::new(Schema::from_yaml(r#"
//! types:
//! - name: config
//!   map:
//!     fields:
//!     - name: ports
//!       type: {list: {elementType: {scalar: numeric}, elementRelationship: associative}}
//!     - name: name
//!       type: {scalar: string}
//! "#).unwrap());
//! let live = TypedValue::new(yaml::from_str("{name: a, ports: [80]}").unwrap(),
//!     schema.clone(), schema.type_ref("config"), false).unwrap();
//! let config = TypedValue::new(yaml::from_str("{ports: [443]}").unwrap(),
//!     schema.clone(), schema.type_ref("config"), false).unwrap();
//! let merged = live.merge(&config).unwrap();
//! assert_eq!(merged.value(), &yaml::from_str("{name: a, ports: [80, 443]}").unwrap());
//! let changes = live.compare(&merged).unwrap();
//! assert_eq!(changes.added.to_string(), ".ports[=443]");
//! ```

mod atom;
mod compare;
mod element_set;
mod error;
mod fieldset;
mod merge;
mod reconcile;
mod remove;
mod set_builder;
mod validate;

use std::sync::{Arc, OnceLock};

use smd_fieldpath::{Set, Value};
use smd_schema::{Schema, TypeRef};

pub use compare::Comparison;
pub use error::{ValidationError, ValidationErrors};
pub use reconcile::{ReconcileError, reconcile_field_set_with_schema};

/// How deep a walk goes into a value before it gives up with an error (values read by smd's
/// readers are never deeper).
pub const MAX_DEPTH: usize = smd_fieldpath::MAX_DEPTH;

/// The name of the type of values with no schema: scalars, atomic lists, and maps whose
/// entries are deduced the same way.
pub const DEDUCED_TYPE: &str = "__untyped_deduced_";

/// A value and its type in a schema.
#[derive(Debug, Clone)]
pub struct TypedValue {
    value: Value,
    schema: Arc<Schema>,
    type_ref: TypeRef,
    known: Known,
}

/// What is known of a value against its type, for the walks' shortcuts.
///
/// * `valid`: the value was checked. Where one side of a compare or merge is valid, an equal
///   other side is valid too (validity depends only on the value and its type, and equal
///   values differ at most in int against float, which no type tells apart), so Go's walk of
///   an equal pair finds no change and no error: the walk skips it.
/// * `unique`: no set or associative list holds an item twice (checked so, or merged from
///   such values). Go refuses duplicates on the right of a merge, and groups a compare's items
///   only to find duplicates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Known {
    valid: bool,
    unique: bool,
}

const UNKNOWN: Known = Known {
    valid: false,
    unique: false,
};

impl TypedValue {
    /// Types `value` as `type_ref` of `schema`, after checking it (Go's `AsTyped`).
    /// `allow_duplicates` lets sets and associative lists hold an item twice, as the API
    /// server allows in updates (never in applies).
    pub fn new(
        value: Value,
        schema: Arc<Schema>,
        type_ref: TypeRef,
        allow_duplicates: bool,
    ) -> Result<TypedValue, ValidationErrors> {
        validate::validate(&schema, &type_ref, &value, allow_duplicates)?;
        Ok(TypedValue {
            value,
            schema,
            type_ref,
            known: Known {
                valid: true,
                unique: !allow_duplicates,
            },
        })
    }

    /// Types `value` without checking it (Go's `AsTypedUnvalidated`): the operations then
    /// meet whatever the value holds.
    pub fn new_unvalidated(value: Value, schema: Arc<Schema>, type_ref: TypeRef) -> TypedValue {
        TypedValue {
            value,
            schema,
            type_ref,
            known: UNKNOWN,
        }
    }

    /// `value` with the deduced type (Go's `DeducedParseableType`): scalars, lists that are
    /// atomic, maps whose entries are deduced alike. Every value is valid.
    pub fn deduced(value: Value) -> TypedValue {
        let schema = deduced_schema();
        let type_ref = schema.type_ref(DEDUCED_TYPE);
        // Every value is valid as the deduced type; lists are atomic, so none has duplicates.
        TypedValue {
            value,
            schema,
            type_ref,
            known: Known {
                valid: true,
                unique: true,
            },
        }
    }

    /// The value.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The value, taken out.
    pub fn into_value(self) -> Value {
        self.value
    }

    /// The schema.
    pub fn schema(&self) -> &Arc<Schema> {
        &self.schema
    }

    /// The reference to the value's type.
    pub fn type_ref(&self) -> &TypeRef {
        &self.type_ref
    }

    /// The same type with a null value (Go's `Empty`).
    pub fn empty(&self) -> TypedValue {
        let mut empty = self.with_value(Value::Null);
        // Null is valid wherever this value's type resolved, and holds no list.
        empty.known = Known {
            valid: self.known.valid,
            unique: true,
        };
        empty
    }

    /// The same type with another value, unchecked.
    pub fn with_value(&self, value: Value) -> TypedValue {
        TypedValue {
            value,
            schema: self.schema.clone(),
            type_ref: self.type_ref.clone(),
            known: UNKNOWN,
        }
    }

    /// Checks the value against its type (Go's `Validate`).
    pub fn validate(&self, allow_duplicates: bool) -> Result<(), ValidationErrors> {
        validate::validate(&self.schema, &self.type_ref, &self.value, allow_duplicates)
    }

    /// The fields this value sets, as an applier of it would own them (Go's `ToFieldSet`).
    pub fn to_field_set(&self) -> Result<Set, ValidationErrors> {
        fieldset::to_field_set(&self.schema, &self.type_ref, &self.value)
    }

    /// What changes from this value to `rhs`: fields added, modified and removed (Go's
    /// `Compare`). Both must have the same type of the same schema.
    pub fn compare(&self, rhs: &TypedValue) -> Result<Comparison, ValidationErrors> {
        self.same_type(rhs)?;
        let known = compare::Known {
            skip_equal: self.known.valid || rhs.known.valid,
            lhs_unique: self.known.unique,
            rhs_unique: rhs.known.unique,
        };
        compare::compare(&self.schema, &self.type_ref, &self.value, &rhs.value, known)
    }

    /// This value with `rhs` merged in, as an apply merges a configuration into the live
    /// object (Go's `Merge`): `rhs` wins at every leaf it sets, lists merge by key.
    pub fn merge(&self, rhs: &TypedValue) -> Result<TypedValue, ValidationErrors> {
        self.same_type(rhs)?;
        // Equal subtrees merge to the right side's, unless an item there is duplicated (Go
        // refuses duplicates on the right).
        let skip_equal =
            (self.known.valid || rhs.known.valid) && (self.known.unique || rhs.known.unique);
        let value = merge::merge(
            &self.schema,
            &self.type_ref,
            &self.value,
            &rhs.value,
            skip_equal,
            rhs.known.valid && rhs.known.unique,
        )?;
        // Merging keeps every item of each side once (or once per copy, for the left side's
        // duplicates), so unique sides merge to a unique value.
        let mut merged = self.with_value(value);
        merged.known.unique = self.known.unique && rhs.known.unique;
        Ok(merged)
    }

    /// This value without the fields of `items` (Go's `RemoveItems`). A map or list that
    /// loses its last entry becomes null.
    pub fn remove_items(&self, items: &Set) -> TypedValue {
        self.with_value(remove::remove(
            &self.schema,
            &self.type_ref,
            &self.value,
            items,
            false,
        ))
    }

    /// Only the fields of `items` of this value (Go's `ExtractItems`); with
    /// `append_key_fields`, list items keep their key fields too.
    pub fn extract_items(&self, items: &Set, append_key_fields: bool) -> TypedValue {
        let with_keys;
        let items = if append_key_fields {
            with_keys = remove::with_key_fields(self, items);
            with_keys.as_ref().unwrap_or(items)
        } else {
            items
        };
        self.with_value(remove::remove(
            &self.schema,
            &self.type_ref,
            &self.value,
            items,
            true,
        ))
    }

    fn same_type(&self, rhs: &TypedValue) -> Result<(), ValidationErrors> {
        if !Arc::ptr_eq(&self.schema, &rhs.schema) {
            return Err(ValidationErrors::one(
                "expected objects with types from the same schema",
            ));
        }
        if self.type_ref != rhs.type_ref {
            return Err(ValidationErrors::one(format!(
                "expected objects of the same type, but got {:?} and {:?}",
                self.type_ref, rhs.type_ref
            )));
        }
        Ok(())
    }
}

/// The schema of [`TypedValue::deduced`], built once.
pub fn deduced_schema() -> Arc<Schema> {
    static SCHEMA: OnceLock<Arc<Schema>> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            use smd_schema::{
                Atom, ElementRelationship, ListType, MapType, Scalar, TypeDef, TypeRef,
            };
            let atomic = |name: &str| {
                Atom::scalar(Scalar::Untyped).with_list(
                    ListType::new(TypeRef::named(name))
                        .with_element_relationship(ElementRelationship::Atomic),
                )
            };
            Arc::new(Schema::new(vec![
                TypeDef::new(
                    "__untyped_atomic_",
                    atomic("__untyped_atomic_").with_map(
                        MapType::new()
                            .with_element_type(TypeRef::named("__untyped_atomic_"))
                            .with_element_relationship(ElementRelationship::Atomic),
                    ),
                ),
                TypeDef::new(
                    DEDUCED_TYPE,
                    atomic("__untyped_atomic_").with_map(
                        MapType::new()
                            .with_element_type(TypeRef::named(DEDUCED_TYPE))
                            .with_element_relationship(ElementRelationship::Separable),
                    ),
                ),
            ]))
        })
        .clone()
}

/// `set` with every declared field of a struct that has paths below it made a member too
/// (Go's `Set.EnsureNamedFieldsAreMembers`, typed by `tv`'s schema and type): what prune
/// removes or keeps must name a struct field itself, not only its contents.
pub fn ensure_named_fields_are_members(set: &Set, tv: &TypedValue) -> Set {
    let schema: &Schema = &tv.schema;
    set.promote_children(Some(&tv.type_ref), &|tr: &Option<&TypeRef>, pe| {
        let Some(atom) = tr.and_then(|tr| schema.resolve(tr)) else {
            return (false, None);
        };
        match pe {
            smd_fieldpath::PathElement::Field(name) => {
                let Some(map) = atom.map() else {
                    return (false, None);
                };
                match map.find_field_bytes(name.as_bytes()) {
                    Some(field) => (true, Some(field.type_ref())),
                    None => (false, Some(map.definition().element_type_ref())),
                }
            }
            smd_fieldpath::PathElement::Key(_) => (false, atom.list().map(|l| l.element_type())),
            _ => (false, None),
        }
    })
}
