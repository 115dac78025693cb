//! Schemas of Kubernetes Server-Side Apply: named types (maps with fields, lists, scalars,
//! untyped), element relationships, list keys and key defaults, as Go's
//! `sigs.k8s.io/structured-merge-diff/v6/schema` models them; and SMD's schema YAML.
//!
//! A [`Schema`] is a list of [`TypeDef`]s, each an [`Atom`]: a scalar, a list, a map, or several
//! of these at once. Types refer to each other with [`TypeRef`]s, by name or inlined; building a
//! schema binds every named reference to its target, so [`Schema::resolve`] is an index, and a
//! map's fields are indexed by name. Reading YAML checks the document exactly as Go's
//! `typed.NewParser` does, with Go's messages.
//!
//! ```
//! use smd_schema::{ElementRelationship, Scalar, Schema};
//!
//! let schema = Schema::from_yaml(r#"
//! types:
//! - name: pod
//!   map:
//!     fields:
//!     - name: containers
//!       type:
//!         list:
//!           elementType: {namedType: container}
//!           elementRelationship: associative
//!           keys: [name]
//!     - name: labels
//!       type:
//!         namedType: labels
//!         elementRelationship: atomic   # an override of the referred map's relationship
//! - name: container
//!   map:
//!     fields:
//!     - {name: name, type: {scalar: string}}
//!     - {name: protocol, type: {scalar: string}, default: TCP}
//! - name: labels
//!   map:
//!     elementType: {scalar: string}
//! "#)?;
//!
//! // A resolved atom borrows the schema and the reference (an inlined atom lives in it).
//! let pod = schema.type_ref("pod");
//! let pod = schema.resolve(&pod).and_then(|a| a.map()).unwrap();
//! let containers = pod.find_field("containers").unwrap();
//! let list = schema.resolve(containers.type_ref()).and_then(|a| a.list()).unwrap();
//! assert_eq!(list.keys(), ["name"]);
//! assert_eq!(*list.element_relationship(), ElementRelationship::Associative);
//!
//! let labels = pod.find_field("labels").unwrap().type_ref();
//! let labels = schema.resolve(labels).and_then(|a| a.map()).unwrap();
//! assert!(labels.is_atomic()); // the reference overrides the type's (separable) relationship
//! let values = schema.resolve(labels.element_type().unwrap()).unwrap();
//! assert_eq!(values.scalar(), Some(&Scalar::String));
//!
//! // YAML 1.1: `y` is a boolean, not a string.
//! let err = Schema::from_yaml("types:\n- name: y\n  scalar: string\n").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "unable to validate schema: .types[name=true].name: expected string, \
//!      got &value.valueUnstructured{Value:true}"
//! );
//!
//! // The canonical YAML reads back to the same schema.
//! assert_eq!(Schema::from_yaml(&schema.to_yaml())?, schema);
//! # Ok::<(), smd_schema::Error>(())
//! ```
//!
//! # Compared with Go
//!
//! * **Resolution** is Go's `Resolve`, including its corners: an override applies to the map
//!   part before the list part; a reference with an override to an atom with neither (scalar
//!   only, or empty) does not resolve; a name, when set, hides the inlined atom. Go returns a
//!   modified copy (and caches it); [`ResolvedAtom`] is a view that borrows the schema and the
//!   reference, so there is nothing to copy or cache.
//! * **Unknown strings are kept**: [`Scalar::Other`], [`ElementRelationship::Other`]
//!   (`granular`), and an override of `""` (which is not the same as no override). Only
//!   `atomic` is special for maps ([`MapType::is_atomic`]).
//! * **Nothing is checked beyond Go's schema of schemas**: references to unknown names,
//!   duplicate names built without YAML (the last one wins in lookups, as in Go), keys that name
//!   no field. Unions and `nullable` are read and kept, and have no effect, as in v6.4.2.
//! * **Equality** (`==`) is structural: the same types in the same order, each part equal,
//!   defaults compared as [`Value`](smd_value::Value)s (so `1` equals `1.0`). Go's
//!   `Schema.Equals` differs in three ways this crate does not copy: it compares a reference's
//!   override by pointer (two separately read schemas with overrides are never equal), it
//!   compares only the first part of a multi-part atom, and it compares defaults with
//!   `reflect.DeepEqual` (`1` differs from `1.0`).
//! * **YAML** is read by [`smd_value::yaml`] (YAML 1.1, as yaml.v2), first document only, as
//!   `yaml.Unmarshal` does. One difference: yaml.v2 keeps map keys that are not strings
//!   (`1:`, `y:`, `~:`) and Go's validation skips them, while this reader makes them strings
//!   (so they are undeclared fields) and refuses a null key, as Kubernetes' YAML reader does.
//! * **Limits**: nesting deeper than [`smd_value::MAX_DEPTH`] and alias bombs are refused
//!   ([`ErrorKind::Limit`]), with words that say the limit is smd's, not the API server's.
//!   The schemas of an OpenAPI document or a CRD nest as deep as that lets them (a schema level
//!   is at least one map), and the readers, conversions and walks over them keep small stack
//!   frames (boxed errors, schemas filled in place, non-recursive parts out of line), so that a
//!   schema at the limit converts on a 2 MiB thread in an unoptimised build. Every walk over a schema follows the nesting of the document, never
//!   a named reference, so a self-referential schema is read, written and resolved in bounded
//!   time.
//!
//! OpenAPI v2 and v3 documents convert to schemas exactly as the Kubernetes API server
//! converts them ([`openapi`]), types are found by `apiVersion` and `kind` ([`gvk`]), and the
//! schema of every Kubernetes 1.37 built-in type is embedded ([`kubernetes::v1_37`]). That
//! schema comes from the published OpenAPI spec, which is generated with every alpha and beta
//! API on; to match a cluster exactly, convert the documents it serves
//! (`kubectl get --raw /openapi/v3/apis/apps/v1`) instead.

#![deny(missing_docs)]

pub mod crd;
mod error;
pub mod gvk;
pub mod kubernetes;
mod model;
pub mod openapi;
mod schema;
mod yaml;

pub use error::{Error, ErrorKind, Problem, Result};

pub use model::{
    Atom, ElementRelationship, ListType, MapType, Scalar, StructField, TypeDef, TypeRef, Union,
    UnionField,
};
pub use schema::{ListView, MapView, ResolvedAtom, Schema, TypeId, UnionError};

impl Schema {
    /// Reads a schema in SMD's YAML format, checked as Go's `typed.NewParser` checks it: the
    /// document must conform to Go's schema of schemas (YAML 1.1 as yaml.v2 reads it), else
    /// the error lists every problem with its path and Go's message. Only the first document
    /// of a stream is read, as in Go.
    pub fn from_yaml(text: &str) -> Result<Schema> {
        yaml::from_str(text)
    }

    /// This schema in SMD's YAML format, in a canonical form that [`Schema::from_yaml`] reads
    /// back to an equal schema when it [has unique keys](Schema::has_unique_keys).
    pub fn to_yaml(&self) -> String {
        yaml::to_string(self)
    }

    /// Whether every keyed list of the schema (its types by name, each map's fields by name,
    /// each union's fields by field name, inlined types included) has unique keys. Reading
    /// can give a schema without: a null key and an empty one are two keys of such a list, in
    /// Go too, and both decode to "", so the schema written back repeats a key and does not
    /// read again.
    ///
    /// ```
    /// let one = smd_schema::Schema::from_yaml("types:\n- name: a\n  scalar: string\n")?;
    /// assert!(one.has_unique_keys());
    /// let two = smd_schema::Schema::from_yaml("types:\n- name: \"\"\n- name: null\n")?;
    /// assert!(!two.has_unique_keys());
    /// # Ok::<(), smd_schema::Error>(())
    /// ```
    pub fn has_unique_keys(&self) -> bool {
        unique(self.types().iter().map(TypeDef::name))
            && self.types().iter().all(|t| atom_keys_unique(t.atom()))
    }
}

fn unique<'a>(keys: impl Iterator<Item = &'a str>) -> bool {
    let mut keys: Vec<&str> = keys.collect();
    keys.sort_unstable();
    keys.windows(2).all(|w| w[0] != w[1])
}

/// [`Schema::has_unique_keys`] for the keyed lists under `atom`.
fn atom_keys_unique(atom: &Atom) -> bool {
    let below = |ty: &TypeRef| atom_keys_unique(ty.inlined_atom());
    if let Some(map) = atom.as_map() {
        let unions_unique = map
            .unions()
            .iter()
            .all(|u| unique(u.fields().iter().map(UnionField::field_name)));
        if !unique(map.fields().iter().map(StructField::name))
            || !unions_unique
            || !map.fields().iter().all(|f| below(f.type_ref()))
            || !map.element_type().is_none_or(below)
        {
            return false;
        }
    }
    atom.as_list().is_none_or(|list| below(list.element_type()))
}

impl TypeRef {
    /// Reads a type reference written as in SMD's schema YAML
    /// (`{namedType: io.k8s.api.core.v1.Pod}`, `{list: {elementType: {scalar: string}}}`),
    /// checked as the schema of schemas checks one inside a schema. The reference is not bound
    /// to any schema: [`Schema::resolve`] looks its name up.
    pub fn from_yaml(text: &str) -> Result<TypeRef> {
        yaml::type_ref_from_str(text)
    }
}
