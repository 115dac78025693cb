//! A container's `resources` (`ValidateContainerResourceRequirements`): resource names,
//! non-negative and (where counted) whole quantities, requests within limits, limits for
//! resources that cannot be overcommitted.

use std::cmp::Ordering;

use smd_fieldpath::Value;

use super::super::names;
use super::super::{BadValue, FieldError, FieldPath, member};
use crate::builtin::quantity;

/// The resources a container may name without a domain (`standardContainerResources`).
const STANDARD_CONTAINER: &[&str] = &["cpu", "memory", "ephemeral-storage"];
/// The resource names Go knows without a domain (`standardResources`).
const STANDARD: &[&str] = &[
    "cpu",
    "memory",
    "requests.cpu",
    "requests.memory",
    "requests.storage",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "persistentvolumeclaims",
    "configmaps",
    "storage",
    "ephemeral-storage",
    "services.nodeports",
    "services.loadbalancers",
];

/// The resources counted in whole units (`integerResources`).
const INTEGER: &[&str] = &[
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

/// `validateResourceRequirements` with container resource names.
pub(super) fn container_resources(resources: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let Some(resources) = resources else {
        return Vec::new();
    };
    let limits = entries(member(resources, "limits"));
    let requests = entries(member(resources, "requests"));
    let limits_path = path.child("limits");
    let requests_path = path.child("requests");
    let mut errs = Vec::new();
    let (mut compute_set, mut huge_pages_set) = (false, false);
    for (name, q) in &limits {
        let p = limits_path.key(name);
        errs.extend(resource_name(name, &p));
        errs.extend(quantity_value(name, q, &p));
        huge_pages_set |= name.starts_with("hugepages-");
        compute_set |= matches!(*name, "cpu" | "memory");
    }
    for (name, q) in &requests {
        let p = requests_path.key(name);
        errs.extend(resource_name(name, &p));
        errs.extend(quantity_value(name, q, &p));
        match limits.iter().find(|(l, _)| l == name) {
            Some((_, limit)) => {
                let order = quantity::compare(q, limit);
                if order != Some(Ordering::Equal) && !overcommit_allowed(name) {
                    errs.push(FieldError::invalid(
                        &requests_path,
                        BadValue::str(*q),
                        format!("must be equal to {name} limit of {limit}"),
                    ));
                } else if order == Some(Ordering::Greater) {
                    errs.push(FieldError::invalid(
                        &requests_path,
                        BadValue::str(*q),
                        format!("must be less than or equal to {name} limit of {limit}"),
                    ));
                }
            }
            None if !overcommit_allowed(name) => errs.push(FieldError::required(
                &limits_path,
                "Limit must be set for non overcommitable resources",
            )),
            None => {}
        }
        huge_pages_set |= name.starts_with("hugepages-");
        compute_set |= matches!(*name, "cpu" | "memory");
    }
    if huge_pages_set && !compute_set {
        errs.push(FieldError::forbidden(
            path,
            "HugePages require cpu or memory",
        ));
    }
    errs
}

/// A resource map's entries, quantities as their (canonical) texts.
fn entries(map: Option<&Value>) -> Vec<(&str, &str)> {
    super::super::meta::string_entries(map)
}

/// `ValidateContainerResourceName`.
fn resource_name(name: &str, path: &FieldPath) -> Vec<FieldError> {
    let problems = names::is_qualified_name(name);
    if !problems.is_empty() {
        return problems
            .into_iter()
            .map(|msg| FieldError::invalid(path, BadValue::str(name), msg))
            .collect();
    }
    let mut errs = Vec::new();
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    if !name.contains('/') {
        if !STANDARD.contains(&name)
            && !name.starts_with("hugepages-")
            && !name.starts_with("requests.hugepages-")
        {
            errs.push(FieldError::invalid(
                path,
                BadValue::str(name),
                "must be a standard resource type or fully qualified",
            ));
        }
        if !STANDARD_CONTAINER.contains(&name) && !name.starts_with("hugepages-") {
            errs.push(FieldError::invalid(
                path,
                BadValue::str(name),
                "must be a standard resource for containers",
            ));
        }
    } else if !native && !is_extended(name) {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(name),
            "doesn't follow extended resource name standard",
        ));
    }
    errs
}

/// `IsExtendedResourceName` of a name with a domain that is not Kubernetes'.
fn is_extended(name: &str) -> bool {
    !name.starts_with("requests.")
        && names::is_qualified_name(&format!("requests.{name}")).is_empty()
}

/// `IsOvercommitAllowed`: native and not huge pages.
fn overcommit_allowed(name: &str) -> bool {
    (!name.contains('/') || name.contains("kubernetes.io/")) && !name.starts_with("hugepages-")
}

/// `ValidateResourceQuantityValue`: not negative; whole for counted resources.
fn quantity_value(name: &str, q: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if quantity::compare(q, "0") == Some(Ordering::Less) {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(q),
            super::super::meta::IS_NEGATIVE,
        ));
    }
    // Extended resources count whole devices; a canonical text with a fraction shows it
    // with a point or a sub-unit suffix.
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    let integer = INTEGER.contains(&name) || (!native && is_extended(name));
    if integer && q.contains(['.', 'm', 'u', 'n']) {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(q),
            "must be an integer",
        ));
    }
    errs
}
