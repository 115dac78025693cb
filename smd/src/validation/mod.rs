//! What a kube-apiserver v1.37.2 refuses with 422 `Invalid` when it validates a built-in
//! object: the registry strategies' `Validate`/`ValidateUpdate` (k8s.io/kubernetes
//! `pkg/apis/<group>/validation`), the generic checks of `rest.BeforeCreate` and
//! `rest.BeforeUpdate` (apimachinery's `ObjectMeta` validation), each error in Go's words at
//! Go's path.
//!
//! Objects are the versioned form the server returns (decoded and defaulted by
//! [`crate::builtin::decode`]); Go validates the internal form, whose fields carry the same
//! names where the paths are concerned. A value shown in a message is rendered as Go renders
//! the internal value (`render.rs`).
//!
//! One module per API group holds its kinds' rules (`rules(kind)`); a kind with no rules
//! here is validated only by the generic checks.

mod apps;
mod autoscaling;
mod batch;
mod core;
mod field;
mod generic;
pub(crate) mod meta;
pub mod names;
mod networking;
mod pod;
mod policy;
mod rbac;
mod render;
mod selector;
mod warnings;

pub use field::{BadValue, ErrorType, FieldError, FieldPath, aggregate, json};
pub use warnings::custom_resource_warnings;

use crate::customresource::Checked;
use smd_fieldpath::Value;

/// A request's object: which kind (group and kind), its scope, and the subresource the
/// request writes (`""` or `status`; a scale update validates the parent as the main
/// resource).
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    /// The API group (`""` for core).
    pub group: &'a str,
    /// The kind.
    pub kind: &'a str,
    /// Whether the kind is namespaced.
    pub namespaced: bool,
    /// `""` for the main resource, `status` for the status subresource.
    pub subresource: &'a str,
}

/// A kind's strategy validation.
#[derive(Clone, Copy)]
pub(crate) struct Rules {
    /// `Validate` of the main resource's strategy.
    pub create: fn(&Value) -> Vec<FieldError>,
    /// `ValidateUpdate` of the strategy of the subresource (`""` or `status`).
    pub update: fn(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError>,
}

fn rules(group: &str, kind: &str) -> Option<Rules> {
    match group {
        "" => pod::rules(kind).or_else(|| core::rules(kind)),
        "apps" => apps::rules(kind),
        "batch" => batch::rules(kind),
        "autoscaling" => autoscaling::rules(kind),
        "policy" => policy::rules(kind),
        "networking.k8s.io" => networking::rules(kind),
        "rbac.authorization.k8s.io" => rbac::rules(kind),
        _ => None,
    }
}

/// Whether smd holds the strategy validation of a built-in kind (beyond the generic checks).
pub fn has_rules(group: &str, kind: &str) -> bool {
    rules(group, kind).is_some()
}

/// `rest.ValidateCreate`: the strategy's `Validate`, then (when that found nothing) the
/// generic `ObjectMeta` checks every resource gets.
pub fn validate_create(subject: &Subject<'_>, object: &Value) -> Vec<FieldError> {
    let mut errs = rules(subject.group, subject.kind)
        .map(|r| (r.create)(object))
        .unwrap_or_default();
    if errs.is_empty() {
        errs = meta::validate_object_meta_accessor(object, subject.namespaced);
    }
    distinct(errs)
}

/// `rest.ValidateUpdate`: the common fields every resource keeps (`validateCommonFields`),
/// then the strategy's `ValidateUpdate` for the subresource.
pub fn validate_update(subject: &Subject<'_>, new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = meta::validate_common_fields(new, old);
    if let Some(r) = rules(subject.group, subject.kind) {
        errs.extend((r.update)(new, old, subject.subresource));
    }
    distinct(errs)
}

/// Each error once (the first of those with the same text), as every built-in strategy's
/// declarative-validation step leaves the handwritten list: it filters the list through
/// `ErrorList.Filter`, which goes through `ToAggregate` and so drops repeated texts (a Node's
/// taints, checked by both `ValidateNode` and `ValidateNodeUpdate`, are reported once).
fn distinct(errs: Vec<FieldError>) -> Vec<FieldError> {
    let mut seen = std::collections::HashSet::new();
    errs.into_iter()
        .filter(|e| seen.insert(e.to_string()))
        .collect()
}

/// What apiextensions' custom resource strategy refuses of a custom resource: its metadata
/// (`validateObjectMetaDeclaratively`: apimachinery's `ObjectMeta` checks, names as DNS
/// subdomains; on an update, its update checks against `old`), then what its version's
/// `schema` refuses (values, scale paths, duplicates; the status's alone for a `status`
/// update), with the generic checks of `rest.ValidateCreate`/`ValidateUpdate`. `object` and
/// `old` are at the request's version.
pub fn validate_custom_resource(
    namespaced: bool,
    object: &Value,
    old: Option<&Value>,
    schema: Option<&crate::customresource::Validation>,
    subresource: &str,
) -> Checked {
    let path = FieldPath::new("metadata");
    // The strategy's metadata errors pass through `FilterCoveredHandwrittenErrors`, whose
    // `ErrorList.Filter` keeps each text once; the generic checks' errors are kept as they
    // come, so an update lists what both find twice (no new finalizers while deleting).
    match old {
        None => {
            let mut errs = distinct(meta::apimachinery_object_meta(
                object,
                namespaced,
                names::name_is_dns_subdomain,
                &path,
            ));
            let mut checked = match schema {
                Some(schema) => {
                    errs.extend(schema.validate_create(object));
                    schema.with_rules(errs, object, None)
                }
                None => Checked {
                    errors: errs,
                    warnings: Vec::new(),
                },
            };
            if checked.errors.is_empty() {
                checked.errors = meta::validate_object_meta_accessor(object, namespaced);
            }
            checked
        }
        Some(old) => {
            let mut errs = meta::validate_common_fields(object, old);
            let mut strategy = distinct(meta::apimachinery_object_meta_update(object, old, &path));
            let checked = match (schema, subresource) {
                (Some(s), "status") => {
                    strategy.extend(s.validate_status_update(object, old));
                    s.with_rules(strategy, object, Some(old))
                }
                (Some(s), _) => {
                    strategy.extend(s.validate_update(object, old));
                    s.with_rules(strategy, object, Some(old))
                }
                (None, _) => Checked {
                    errors: strategy,
                    warnings: Vec::new(),
                },
            };
            errs.extend(checked.errors);
            Checked {
                errors: errs,
                warnings: checked.warnings,
            }
        }
    }
}

/// `ValidateServiceClusterIPsRelatedFields`, which the Service REST's allocator runs on its
/// input (`svc`, a whole Service; `old`, the stored one on an update) before it allocates.
pub fn service_cluster_ips(svc: &Value, old: Option<&Value>) -> Vec<FieldError> {
    core::service_cluster_ips(svc, old)
}

/// The member `key` of a map value, if any.
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) fn member<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    value.as_map().and_then(|m| m.get(key))
}

/// The value at a path of map keys, if any.
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) fn at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, k| member(v, k))
}

/// The string at a path of map keys, or `""` (Go's zero value).
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) fn str_at<'a>(value: &'a Value, path: &[&str]) -> &'a str {
    value.str_at(path)
}
