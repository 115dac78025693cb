//! The warnings a strategy gives an object it accepted (`WarningsOnCreate`/`WarningsOnUpdate`,
//! which `rest.BeforeCreate`/`BeforeUpdate` add once validation passed, before the storage
//! writes): the custom resource strategy's warnings on finalizer names
//! (apiextensions-apiserver v0.37.2 `pkg/registry/customresource/strategy.go:234`,
//! `generateWarningsFromObj`, and `validator.go:86`, `validateKubeFinalizerName`).
//!
//! Built-in kinds' strategies warn of other things (a Pod's deprecated fields, ...), which smd
//! does not give.

use std::collections::BTreeSet;

use smd_fieldpath::Value;
use smd_fieldpath::value::go_quote;

use super::names::is_qualified_name;

/// Finalizers the API server itself understands, which need no domain.
const STANDARD_FINALIZERS: [&str; 3] = ["orphan", "foregroundDeletion", "kubernetes"];

/// Where the warnings point: the list, not an item of it.
const PATH: &str = "metadata.finalizers";

/// The custom resource strategy's warnings for `object` (an update's against the stored
/// `old`): each finalizer it adds (all of them on a create), in byte order and once, that is
/// not a qualified name, or that names no domain and is not a standard finalizer.
///
/// The first kind is the strategy's own words; the server never sends them, since
/// validation, which runs first, refuses such a name (`ValidateObjectMetaAccessor`, on
/// updates too through `rest.ValidateUpdate`'s common fields).
pub fn custom_resource_warnings(object: &Value, old: Option<&Value>) -> Vec<String> {
    let mut added = finalizers(object);
    if let Some(old) = old {
        for kept in finalizers(old) {
            added.remove(kept);
        }
    }
    added.into_iter().flat_map(finalizer_warnings).collect()
}

/// `validateKubeFinalizerName`'s warnings for one finalizer.
fn finalizer_warnings(name: &str) -> Vec<String> {
    let quoted = go_quote(name);
    let mut warnings: Vec<String> = is_qualified_name(name)
        .into_iter()
        .map(|msg| format!("{PATH}: {quoted}: {msg}"))
        .collect();
    if !name.contains('/') && !STANDARD_FINALIZERS.contains(&name) {
        let advice = if name.contains('.') {
            "prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
        } else {
            "prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"
        };
        warnings.push(format!("{PATH}: {quoted}: {advice}"));
    }
    warnings
}

/// An object's finalizers as `Unstructured.GetFinalizers` reads them into a Go string set: none
/// unless every item is a string (`NestedStringSlice`), each once, sorted as Go sorts strings
/// (by bytes, which is `str`'s order).
fn finalizers(object: &Value) -> BTreeSet<&str> {
    let list = object
        .as_map()
        .and_then(|m| m.get("metadata"))
        .and_then(Value::as_map)
        .and_then(|m| m.get("finalizers"))
        .and_then(Value::as_list);
    list.and_then(|items| items.iter().map(Value::as_str).collect::<Option<_>>())
        .unwrap_or_default()
}
