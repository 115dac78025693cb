//! The core (`""`) group's strategy validation other than Pods' (k8s.io/kubernetes v1.37.2
//! `pkg/apis/core/validation`, called as `pkg/registry/core/<kind>/strategy.go` calls it for
//! create, update and the status subresource): one module per kind or concept, the checks
//! they share here.
//!
//! The objects are the versioned form after decoding and defaulting; Go validates the internal
//! form, so where the two differ (a nil pointer against an absent member, `[]byte` against a
//! base64 string) the modules read the versioned form as the internal one holds it.

mod configmap;
mod endpoints;
mod limit_range;
mod namespace;
mod node;
mod pvc;
mod resource_quota;
mod resources;
mod service;
mod service_ip;
pub(crate) use service_ip::allocator_prevalidation as service_cluster_ips;
mod service_registry;

use smd_fieldpath::Value;

use super::names;
use super::{BadValue, FieldError, FieldPath, Rules};

/// The rules of `kind`, if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    match kind {
        "ConfigMap" => Some(configmap::CONFIG_MAP),
        "Secret" => Some(configmap::SECRET),
        "Namespace" => Some(namespace::NAMESPACE),
        "ServiceAccount" => Some(namespace::SERVICE_ACCOUNT),
        "PersistentVolumeClaim" => Some(pvc::RULES),
        "Service" => Some(service::RULES),
        "Endpoints" => Some(endpoints::RULES),
        "LimitRange" => Some(limit_range::RULES),
        "ResourceQuota" => Some(resource_quota::RULES),
        "Node" => Some(node::RULES),
        _ => None,
    }
}

/// The `metadata` path every kind's checks start from.
fn metadata() -> FieldPath {
    FieldPath::new("metadata")
}

/// `ValidateObjectMeta(&obj.ObjectMeta, namespaced, nameFn, "metadata")`.
fn object_meta(object: &Value, namespaced: bool, name_fn: super::meta::NameFn) -> Vec<FieldError> {
    super::meta::validate_object_meta(object, namespaced, name_fn, &metadata())
}

/// `ValidateObjectMetaUpdate(&new.ObjectMeta, &old.ObjectMeta, "metadata")`.
fn object_meta_update(new: &Value, old: &Value) -> Vec<FieldError> {
    super::meta::validate_object_meta_update(new, old, &metadata())
}

/// One `Invalid` per problem a name check found (`ValidateDNS1123Label` and its kin).
fn invalid_each(path: &FieldPath, value: &str, problems: Vec<String>) -> Vec<FieldError> {
    problems
        .into_iter()
        .map(|msg| FieldError::invalid(path, BadValue::str(value), msg))
        .collect()
}

/// `ValidateQualifiedName(value, path)`.
fn qualified_name(value: &str, path: &FieldPath) -> Vec<FieldError> {
    invalid_each(path, value, names::is_qualified_name(value))
}

/// `ValidateLabels(labels, path)`: each key a qualified name, each value a label value, all
/// at the map's own path (as apimachinery v0.37.2 reports them), in key order (Go's map order
/// is random; one bad entry reads the same either way).
fn labels(map: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (key, value) in map
        .and_then(Value::as_map)
        .into_iter()
        .flat_map(|m| m.iter())
    {
        errs.extend(qualified_name(key, path));
        let text = value.as_str().unwrap_or("");
        errs.extend(invalid_each(path, text, names::is_label_value(text)));
    }
    errs
}

/// `IsValidPortNum`: 1 to 65535.
fn port_num_problems(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        vec![names::inclusive_range_error(1, 65535)]
    }
}

/// `IsValidPortName` (an IANA service name).
fn port_name_problems(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(names::max_len_error(15));
    }
    let charset = !port.is_empty()
        && port
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !charset {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !port.bytes().any(|b| b.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".into());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".into());
    }
    if port.starts_with('-') || port.ends_with('-') {
        errs.push("must not begin or end with a hyphen".into());
    }
    errs
}

/// `ValidatePortNumOrName(port, path)`: an int-or-string port.
fn port_num_or_name(port: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    match port {
        Some(Value::String(name)) => invalid_each(path, name, port_name_problems(name)),
        other => {
            let n = other.and_then(Value::as_int).unwrap_or(0);
            port_num_problems(n)
                .into_iter()
                .map(|msg| FieldError::invalid(path, BadValue::Int(n), msg))
                .collect()
        }
    }
}

/// A member that Go holds as a nil pointer, slice or map when absent or `null`.
fn present(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| !v.is_null())
}

/// The string items of a list member (Go's `[]string`), empty when absent.
fn strings(value: Option<&Value>) -> Vec<&str> {
    value
        .and_then(Value::as_list)
        .map(|l| l.iter().map(|v| v.as_str().unwrap_or("")).collect())
        .unwrap_or_default()
}

/// Two members equal as Go's `DeepEqual` of what they decode to, where absent and `null`
/// are one nil.
fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    present(a) == present(b)
}

/// `ValidateLabelSelector(selector, opts, path)` with `allow_invalid_values` as
/// `AllowInvalidLabelValueInSelector`.
fn label_selector(
    selector: &Value,
    allow_invalid_values: bool,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = labels(
        super::member(selector, "matchLabels"),
        &path.child("matchLabels"),
    );
    let exprs = super::member(selector, "matchExpressions").and_then(Value::as_list);
    for (i, expr) in exprs.into_iter().flatten().enumerate() {
        let p = path.child("matchExpressions").index(i);
        let values = strings(super::member(expr, "values"));
        match super::str_at(expr, &["operator"]) {
            "In" | "NotIn" if values.is_empty() => errs.push(FieldError::required(
                &p.child("values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => errs.push(FieldError::forbidden(
                &p.child("values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => errs.push(FieldError::invalid(
                &p.child("operator"),
                BadValue::str(other),
                "not a valid selector operator",
            )),
        }
        errs.extend(qualified_name(
            super::str_at(expr, &["key"]),
            &p.child("key"),
        ));
        if !allow_invalid_values {
            for (j, v) in values.iter().enumerate() {
                errs.extend(invalid_each(
                    &p.child("values").index(j),
                    v,
                    names::is_label_value(v),
                ));
            }
        }
    }
    errs
}

/// A value of a named Go string type (`core.Protocol`, `*string`), which Go's error body
/// shows as its `json.Marshal` text, not with `%q`.
fn typed(value: &str) -> BadValue {
    BadValue::Json(super::json(&Value::String(value.to_owned())))
}

/// A pointer member as Go's error body shows it: its `json.Marshal` text, `null` when nil.
fn pointer(value: Option<&Value>) -> BadValue {
    present(value).map_or_else(BadValue::null, |v| BadValue::Json(super::json(v)))
}
