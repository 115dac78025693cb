//! The resource-name and quantity rules LimitRanges, ResourceQuotas and Nodes share
//! (`validateResourceName`, `ValidateContainerResourceName`,
//! `ValidateResourceQuotaResourceName`, `ValidateResourceQuantityValue`).
//!
//! Go walks resource maps in random order; smd walks them in key order, which reads the same
//! wherever one entry is at fault.

use std::cmp::Ordering;

use smd_fieldpath::Value;

use super::typed;
use crate::builtin::quantity;
use crate::validation::{BadValue, FieldError, FieldPath, json, names};

/// `standardResources`.
const STANDARD: [&str; 20] = [
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

/// `integerResources` (object counts).
const INTEGER: [&str; 9] = [
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

fn is_quota_huge_pages(name: &str) -> bool {
    name.starts_with("hugepages-") || name.starts_with("requests.hugepages-")
}

/// `IsStandardQuotaResourceName`: the standard names less `storage`, and huge pages.
pub(super) fn is_standard_quota(name: &str) -> bool {
    (STANDARD.contains(&name) && name != "storage") || is_quota_huge_pages(name)
}

/// `IsNativeResource`.
pub(super) fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// `IsExtendedResourceName`.
fn is_extended(name: &str) -> bool {
    !is_native(name)
        && !name.starts_with("requests.")
        && names::is_qualified_name(&format!("requests.{name}")).is_empty()
}

/// A `ResourceName` shown in an error body (a named string type: its JSON text).
fn resource(name: &str) -> BadValue {
    typed(name)
}

/// `validateResourceName`.
pub(super) fn resource_name(name: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs: Vec<FieldError> = names::is_qualified_name(name)
        .into_iter()
        .map(|msg| FieldError::invalid(path, resource(name), msg))
        .collect();
    if errs.is_empty()
        && !name.contains('/')
        && !(STANDARD.contains(&name) || is_quota_huge_pages(name))
    {
        errs.push(FieldError::invalid(
            path,
            resource(name),
            "must be a standard resource type or fully qualified",
        ));
    }
    errs
}

/// `ValidateContainerResourceName`.
pub(super) fn container_resource_name(name: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = resource_name(name, path);
    if !name.contains('/') {
        let standard = ["cpu", "memory", "ephemeral-storage"].contains(&name)
            || name.starts_with("hugepages-");
        if !standard {
            errs.push(FieldError::invalid(
                path,
                resource(name),
                "must be a standard resource for containers",
            ));
        }
    } else if !is_native(name) && !is_extended(name) {
        errs.push(FieldError::invalid(
            path,
            resource(name),
            "doesn't follow extended resource name standard",
        ));
    }
    errs
}

/// `ValidateResourceQuotaResourceName`.
pub(super) fn quota_resource_name(name: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = resource_name(name, path);
    if !name.contains('/') && !is_standard_quota(name) {
        errs.push(FieldError::invalid(
            path,
            resource(name),
            "must be a standard resource for quota",
        ));
    }
    errs
}

/// A quantity shown in an error body: its `MarshalJSON` text.
pub(super) fn shown(q: &str) -> BadValue {
    let text = quantity::canonical(q).unwrap_or_else(|_| q.to_owned());
    BadValue::Json(json(&Value::String(text)))
}

/// `Quantity.String()`.
pub(super) fn canonical(q: &str) -> String {
    quantity::canonical(q).unwrap_or_else(|_| q.to_owned())
}

/// `ValidateResourceQuantityValue`: not negative; an integer for object counts and
/// extended resources.
pub(super) fn quantity_value(name: &str, q: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if quantity::compare(q, "0") == Some(Ordering::Less) {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(canonical(q)),
            "must be greater than or equal to 0",
        ));
    }
    let integer = INTEGER.contains(&name) || is_extended(name);
    if integer && quantity::milli_value(q).is_some_and(|m| m % 1000 != 0) {
        errs.push(FieldError::invalid(path, shown(q), "must be an integer"));
    }
    errs
}

/// The entries of a resource map, in key order, as (name, quantity text).
pub(super) fn quantities(map: Option<&Value>) -> Vec<(String, String)> {
    let mut all: Vec<(String, String)> = map
        .and_then(Value::as_map)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.to_owned(), v.as_str().unwrap_or("").to_owned()))
                .collect()
        })
        .unwrap_or_default();
    all.sort();
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let p = FieldPath::new("x");
        assert!(resource_name("cpu", &p).is_empty());
        assert_eq!(resource_name("gpu", &p).len(), 1);
        assert!(quota_resource_name("requests.storage", &p).is_empty());
        assert_eq!(quota_resource_name("storage", &p).len(), 1);
    }
}
