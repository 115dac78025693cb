//! Typed objects in and out: any serde type (k8s-openapi's structs, kube's `DynamicObject`, a
//! CRD's own structs) to and from smd's [`Value`], read as the API server reads a JSON body;
//! and [`apply_warnings`], a check of a typed apply body for the values that a struct's
//! defaults write and its author most likely did not mean to own.
//!
//! The classic typed-apply trap: an apply body built from a typed struct says everything the
//! struct serialises. `..Default::default()` writes `selector: {}` into an atomic field (the
//! apply then owns the whole selector, empty) or `serviceName: ""` (owned, empty); an
//! `Option` without `skip_serializing_if` writes `null` (owned, and cleared). The server takes
//! them all as the applier's intent.
//!
//! ```
//! use smd::managedfields::TypeResolver;
//! use smd::object::apply_warnings;
//!
//! let body = serde_json::json!({
//!     "apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"},
//!     "spec": {"serviceName": "", "selector": {}, "replicas": null},
//! });
//! let body = smd::object::to_value(&body)?;
//! let warnings = apply_warnings(&body, &TypeResolver::kubernetes());
//! let paths: Vec<_> = warnings.iter().map(|w| w.path.as_str()).collect();
//! assert_eq!(paths, [".spec.replicas", ".spec.selector", ".spec.serviceName"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;
use serde::de::DeserializeOwned;
use smd_fieldpath::Value;
use smd_schema::{ElementRelationship, Schema, TypeRef};

use crate::managedfields::{TypeResolver, normalize_numbers};
use smd_schema::gvk::GroupVersionKind;

/// Why an object did not convert.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ObjectError {
    /// serde could not write or read the type.
    #[error("{0}")]
    Serde(#[from] serde_json::Error),
    /// The JSON a type wrote is not what smd reads (nested too deep).
    #[error("{0}")]
    Value(#[from] smd_fieldpath::Error),
    /// A managedFields entry that does not read as the server reads one.
    #[error("managedFields entry: {0}")]
    Entry(String),
}

/// `object` as the API server reads it from its JSON: integers that fit are ints.
pub fn to_value<T: Serialize + ?Sized>(object: &T) -> Result<Value, ObjectError> {
    let text = serde_json::to_string(object)?;
    let mut value = Value::from_json(&text)?;
    normalize_numbers(&mut value);
    Ok(value)
}

/// `value` as a `T` (an object the server answered, read into its typed struct).
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, ObjectError> {
    let json = serde_json::Value::try_from(value)?;
    Ok(serde_json::from_value(json)?)
}

/// A value in an apply body that is probably a struct's default, not the author's intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyWarning {
    /// Where (`.spec.template.spec.containers[name="web"].image`).
    pub path: String,
    /// What the apply does with it, and how to leave it out.
    pub message: String,
}

/// The values of `applied` (an apply body) that a typed client most likely wrote by default:
/// `null`s, empty strings, and empty atomic objects and lists, each with what the server does
/// with it. Typed by the object's `apiVersion` and `kind` in `types`; an object of a kind
/// `types` does not know is checked for `null`s and empty strings only.
pub fn apply_warnings(applied: &Value, types: &TypeResolver) -> Vec<ApplyWarning> {
    let kind = GroupVersionKind::from_api_version(
        applied
            .as_map()
            .and_then(|m| m.get("apiVersion"))
            .and_then(Value::as_str)
            .unwrap_or(""),
        applied
            .as_map()
            .and_then(|m| m.get("kind"))
            .and_then(Value::as_str)
            .unwrap_or(""),
    );
    let mut check = Check {
        schema: types.schema(),
        out: Vec::new(),
    };
    let root = types.type_ref(&kind);
    check.walk(applied, root.as_ref(), &mut String::new(), 0);
    check.out.sort_by(|a, b| a.path.cmp(&b.path));
    check.out
}

struct Check<'a> {
    schema: &'a Schema,
    out: Vec<ApplyWarning>,
}

impl Check<'_> {
    fn warn(&mut self, path: &str, message: &str) {
        self.out.push(ApplyWarning {
            path: path.to_owned(),
            message: message.to_owned(),
        });
    }

    fn walk(&mut self, value: &Value, ty: Option<&TypeRef>, path: &mut String, depth: usize) {
        if depth > smd_fieldpath::MAX_DEPTH {
            return;
        }
        let atom = ty.and_then(|t| self.schema.resolve(t));
        match value {
            Value::Null if depth > 0 => self.warn(
                path,
                "null: the apply owns this field and clears it; leave the field out (serde: \
                 skip_serializing_if = \"Option::is_none\") unless you mean to remove it",
            ),
            Value::String(s) if s.is_empty() => self.warn(
                path,
                "an empty string: the apply owns this field with an empty value; leave the field \
                 out (an Option left None) unless you mean it",
            ),
            Value::Map(m) => {
                let map = atom.as_ref().and_then(|a| a.map());
                if m.is_empty()
                    && depth > 0
                    && map.is_some_and(|m| *m.element_relationship() == ElementRelationship::Atomic)
                {
                    self.warn(
                        path,
                        "an empty object in an atomic field: the apply owns it whole and replaces \
                         the live value with nothing (a Default struct?); leave the field out \
                         unless you mean to empty it",
                    );
                    return;
                }
                for (key, item) in m.iter() {
                    let child = map.and_then(|m| {
                        m.find_field(key)
                            .map(|f| f.type_ref())
                            .or_else(|| m.element_type())
                    });
                    let len = path.len();
                    path.push('.');
                    path.push_str(key);
                    self.walk(item, child, path, depth + 1);
                    path.truncate(len);
                }
            }
            Value::List(items) => {
                let list = atom.as_ref().and_then(|a| a.list());
                if items.is_empty()
                    && list
                        .is_some_and(|l| *l.element_relationship() == ElementRelationship::Atomic)
                {
                    self.warn(
                        path,
                        "an empty list in an atomic field: the apply owns it whole and replaces \
                         the live list with nothing; leave the field out unless you mean to empty it",
                    );
                    return;
                }
                let keys = list.map(|l| l.keys()).unwrap_or_default();
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&item_name(item, keys, i));
                    self.walk(item, list.map(|l| l.element_type()), path, depth + 1);
                    path.truncate(len);
                }
            }
            _ => {}
        }
    }
}

/// A list item's name in a path: its key fields (`[name="web"]`), else its index.
fn item_name(item: &Value, keys: &[String], index: usize) -> String {
    let Some(map) = item.as_map().filter(|_| !keys.is_empty()) else {
        return format!("[{index}]");
    };
    let parts: Vec<String> = keys
        .iter()
        .filter_map(|k| {
            map.get(k).map(|v| match v {
                Value::String(s) => format!("{k}={}", smd_fieldpath::value::go_quote(s)),
                other => {
                    let mut text = String::new();
                    let _ = smd_fieldpath::value::gojson::write_value(&mut text, other);
                    format!("{k}={text}")
                }
            })
        })
        .collect();
    if parts.is_empty() {
        format!("[{index}]")
    } else {
        format!("[{}]", parts.join(","))
    }
}

/// `metadata.managedFields` entries as k8s-openapi types (the `k8s-openapi` feature; the
/// library enables no Kubernetes version of it, the application does).
#[cfg(feature = "k8s-openapi")]
mod managed_fields_entry {
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ManagedFieldsEntry;

    use super::{ObjectError, from_value, to_value};
    use crate::managedfields::Entry;
    use crate::managedfields::entry::{entry_from_value, entry_to_value};

    impl TryFrom<&ManagedFieldsEntry> for Entry {
        type Error = ObjectError;

        /// The entry as the server reads it (its time to the second, its `fieldsV1` as
        /// Go's `encoding/json` writes it).
        fn try_from(entry: &ManagedFieldsEntry) -> Result<Entry, ObjectError> {
            entry_from_value(&to_value(entry)?).map_err(ObjectError::Entry)
        }
    }

    impl TryFrom<&Entry> for ManagedFieldsEntry {
        type Error = ObjectError;

        /// The entry as the server writes it; fails when its `fieldsV1` bytes are not JSON.
        fn try_from(entry: &Entry) -> Result<ManagedFieldsEntry, ObjectError> {
            from_value(&entry_to_value(entry, None).map_err(ObjectError::Entry)?)
        }
    }
}
