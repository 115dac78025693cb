//! The applied configuration a manager owns in an object, ready to change and apply again:
//! apimachinery's `managedfields.ExtractInto` (`MF/extract.go`), followed by what every
//! `ExtractX` function client-go generates does with its result (name, namespace, kind and
//! apiVersion set). It works for any kind the [`TypeResolver`] types, custom resources included.
//!
//! The manager's entry is the first of `metadata.managedFields` with its name, operation
//! `Apply` and the given subresource (`""` for the main resource, `status`, `scale`): what a
//! manager wrote with Update is never extracted. Its set's leaves are taken from the object
//! typed by its own `apiVersion` and `kind` (the entry's apiVersion is not looked at), exactly
//! as Go's `ExtractItems` takes them. So, as in Go:
//! * an atomic list or map, a set's item, a list item owned as a whole (`.` only) come whole,
//!   fields owned by others included;
//! * a list item whose key fields the manager does not own comes without them;
//! * a map (or list item) all of whose owned fields the object lacks stays, as null
//!   (`spec: null`); client-go's typed apply configurations drop such a map and turn such an
//!   item into an empty one;
//! * a granular map owned as a leaf (which no field manager writes) reads as null.
//!
//! Where Go fails, smd answers (each checked by `smd/tests/extract.rs` against Go's failure):
//! * **nothing of the manager's is in the object** (a Secret's `stringData`, which the API
//!   server folds into `data`; a status since replaced; an empty set): Go returns `unable to
//!   convert managed fields for M to unstructured, expected map, got <nil>` (kubernetes issue
//!   141153); smd returns the empty applied configuration, as for a manager with no entry;
//! * **an Apply entry without `fieldsV1`**: Go fails to read the empty text; smd reads the
//!   empty set, as the field manager does, and returns the empty applied configuration;
//! * **`metadata.managedFields` that cannot be read** as entries (a `time` that is a number):
//!   Go's unstructured accessor reads no entries, so Go returns the empty applied
//!   configuration; smd returns [`ExtractError::ManagedFields`], since applying that empty
//!   configuration would drop every field the manager set (client-go's typed objects cannot
//!   even be decoded from such an object).
//!
//! The namespace is set when the object has one: client-go sets it for namespaced kinds, and a
//! namespaced object read from a server always has one (the schema does not say which kinds are
//! namespaced).

use smd_fieldpath::{Map, Set, Value};
use smd_schema::gvk::GroupVersionKind;

use super::entry::{EntryError, entries};
use super::object::nested_str;
use super::types::{TypeResolver, TypingError};
use crate::typed::ValidationErrors;

/// Why no applied configuration could be extracted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ExtractError {
    /// The types know no type for the object's `apiVersion` and `kind` (a custom resource whose
    /// CRD was not given).
    #[error("no type for {0}")]
    NoType(GroupVersionKind),
    /// The object does not fit its type (Go's `error converting obj to typed`).
    #[error("the object does not fit its type: {0}")]
    Invalid(ValidationErrors),
    /// `metadata.managedFields` cannot be read as entries.
    #[error("{0}")]
    ManagedFields(EntryError),
    /// The manager's entry has a `fieldsV1` that is not a field set.
    #[error("metadata.managedFields[{index}].fieldsV1 of manager {manager:?}: {source}")]
    FieldsV1 {
        /// The entry's position in `metadata.managedFields`.
        index: usize,
        /// The manager.
        manager: String,
        /// Why the set cannot be read, in Go's words.
        source: smd_fieldpath::Error,
    },
}

/// The applied configuration `manager` owns in `object` through `subresource` (`""` for the
/// main resource): `apiVersion`, `kind`, `metadata.name` and `metadata.namespace` of the
/// object, and the fields of the manager's Apply entry that the object holds. A manager with
/// no Apply entry there gets only the first four, as from client-go. The module's
/// documentation says what is taken, and where smd answers when Go fails.
///
/// `object` is as the API server returns it (`kubectl get -o yaml --show-managed-fields`);
/// `types` types it by its `apiVersion` and `kind` ([`TypeResolver::kubernetes`], or
/// [`TypeResolver::with_crds`] for custom resources).
///
/// ```
/// use smd::fieldpath::yaml;
/// use smd::managedfields::{FieldManager, Timestamp, TypeResolver};
/// use smd_schema::gvk::GroupVersionKind;
///
/// let deployments = FieldManager::kubernetes(GroupVersionKind::new("apps", "v1", "Deployment"), "");
/// let now = Timestamp::parse("2026-01-01T00:00:00Z")?;
/// // kubectl creates the Deployment; a CI job then applies a label of its own.
/// let kubectl = yaml::from_str(r#"
/// apiVersion: apps/v1
/// kind: Deployment
/// metadata: {name: web, namespace: shop}
/// spec:
///   selector: {matchLabels: {app: web}}
///   template:
///     metadata: {labels: {app: web}}
///     spec:
///       containers: [{name: web, image: "web:1.4"}]
/// "#)?;
/// let live = deployments.apply(&deployments.new_object(), &kubectl, "kubectl", false, now)?;
/// let ci = yaml::from_str(
///     "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop, labels: {build: '7'}}}",
/// )?;
/// let live = deployments.apply(&live, &ci, "ci", false, now)?;
///
/// // What each has applied, read back from the stored object.
/// let types = TypeResolver::kubernetes();
/// assert_eq!(smd::extract(&live, "ci", "", &types)?, ci);
/// assert_eq!(smd::extract(&live, "kubectl", "", &types)?, kubectl);
/// // A manager that applied nothing: the object's identity only.
/// assert_eq!(
///     smd::extract(&live, "hpa", "", &types)?,
///     yaml::from_str("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop}}")?,
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn extract(
    object: &Value,
    manager: &str,
    subresource: &str,
    types: &TypeResolver,
) -> Result<Value, ExtractError> {
    // Go types the object before it looks at managedFields: a bad object fails first.
    let typed = types.to_typed(object, false).map_err(|e| match e {
        TypingError::NoType(gvk) => ExtractError::NoType(gvk),
        TypingError::Invalid(errors) => ExtractError::Invalid(errors),
    })?;
    let entries = entries(object)
        .map_err(ExtractError::ManagedFields)?
        .unwrap_or_default();
    let chosen = entries.iter().enumerate().find(|(_, e)| {
        e.manager == manager && e.operation == "Apply" && e.subresource == subresource
    });
    let owned = match chosen {
        None => Map::new(),
        Some((index, entry)) => {
            let set = match &entry.fields_v1 {
                None => Set::new(),
                Some(bytes) => {
                    Set::from_fields_v1(bytes).map_err(|source| ExtractError::FieldsV1 {
                        index,
                        manager: manager.to_owned(),
                        source,
                    })?
                }
            };
            match typed.extract_items(&set.leaves(), false).into_value() {
                Value::Map(owned) => owned,
                // Nothing of the manager's is in the object (Go fails here).
                _ => Map::new(),
            }
        }
    };
    Ok(with_identity(object, owned))
}

/// `owned` under the object's `apiVersion`, `kind`, name and namespace (set whatever `owned`
/// holds, as client-go's `ExtractX` sets them), in the order a manifest has them.
fn with_identity(object: &Value, owned: Map) -> Value {
    let mut metadata = Map::new();
    metadata.insert("name", nested_str(object, &["metadata", "name"]).into());
    let namespace = nested_str(object, &["metadata", "namespace"]);
    if !namespace.is_empty() {
        metadata.insert("namespace", namespace.into());
    }
    let mut out = Map::with_capacity(owned.len() + 3);
    out.insert("apiVersion", nested_str(object, &["apiVersion"]).into());
    out.insert("kind", nested_str(object, &["kind"]).into());
    let mut rest = Vec::with_capacity(owned.len());
    for (key, value) in owned {
        match key.as_str() {
            "apiVersion" | "kind" => {}
            "metadata" => {
                // A metadata all of whose owned fields are absent is null: name and namespace
                // replace it, as client-go's `WithName` makes a new one.
                if let Value::Map(owned_metadata) = value {
                    for (k, v) in owned_metadata {
                        if !metadata.contains_key(&k) {
                            metadata.insert(k, v);
                        }
                    }
                }
            }
            _ => rest.push((key, value)),
        }
    }
    out.insert("metadata", Value::Map(metadata));
    for (key, value) in rest {
        out.insert(key, value);
    }
    Value::Map(out)
}
