//! LimitRanges (`ValidateLimitRange`) and ResourceQuotas (`ValidateResourceQuota`,
//! `...Update`, `...StatusUpdate`), and the resource-name rules they share
//! (`validateResourceName`, `ValidateContainerResourceName`,
//! `ValidateResourceQuotaResourceName`, `ValidateResourceQuantityValue`).
//!
//! Go walks these maps in random order; smd walks them in key order, which reads the same
//! wherever one entry is at fault.

use std::cmp::Ordering;

use smd_fieldpath::Value;

use super::{object_meta, object_meta_update, present, strings, typed};
use crate::builtin::quantity;
use crate::validation::{BadValue, FieldError, FieldPath, Rules, at, json, member, names, str_at};

/// The LimitRange strategy's rules.
pub(super) const LIMIT_RANGE: Rules = Rules {
    create: limit_range,
    update: limit_range_update,
};

/// The ResourceQuota strategies' rules (main resource and `status`).
pub(super) const RESOURCE_QUOTA: Rules = Rules {
    create: resource_quota,
    update: resource_quota_update,
};

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
fn is_standard_quota(name: &str) -> bool {
    (STANDARD.contains(&name) && name != "storage") || is_quota_huge_pages(name)
}

/// `IsNativeResource`.
fn is_native(name: &str) -> bool {
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
fn resource_name(name: &str, path: &FieldPath) -> Vec<FieldError> {
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
fn container_resource_name(name: &str, path: &FieldPath) -> Vec<FieldError> {
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
fn quota_resource_name(name: &str, path: &FieldPath) -> Vec<FieldError> {
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
fn shown(q: &str) -> BadValue {
    let text = quantity::canonical(q).unwrap_or_else(|_| q.to_owned());
    BadValue::Json(json(&Value::String(text)))
}

/// `Quantity.String()`.
fn canonical(q: &str) -> String {
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
fn quantities(map: Option<&Value>) -> Vec<(String, String)> {
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

fn limit_range(object: &Value) -> Vec<FieldError> {
    let mut errs = object_meta(object, true, names::name_is_dns_subdomain);
    let path = FieldPath::new("spec").child("limits");
    let limits: &[Value] = at(object, &["spec", "limits"])
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    let mut types: Vec<&str> = Vec::new();
    for (i, limit) in limits.iter().enumerate() {
        errs.extend(limit_item(limit, &mut types, &path.index(i)));
    }
    errs
}

fn limit_range_update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    // The strategy validates the new object as on create; no update rules.
    let _ = old;
    limit_range(new)
}

/// One `spec.limits[i]`.
fn limit_item<'a>(limit: &'a Value, types: &mut Vec<&'a str>, p: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let kind = str_at(limit, &["type"]);
    let type_errs: Vec<FieldError> = names::is_qualified_name(kind)
        .into_iter()
        .map(|msg| FieldError::invalid(&p.child("type"), typed(kind), msg))
        .collect();
    let standard = ["Pod", "Container", "PersistentVolumeClaim"].contains(&kind);
    if type_errs.is_empty() && !kind.contains('/') && !standard {
        errs.push(FieldError::invalid(
            &p.child("type"),
            typed(kind),
            "must be a standard limit type or fully qualified",
        ));
    }
    errs.extend(type_errs);
    if types.contains(&kind) {
        errs.push(FieldError::duplicate(&p.child("type"), typed(kind)));
    }
    types.push(kind);
    let name_check = |name: &str, path: &FieldPath| match kind {
        "Pod" | "Container" => container_resource_name(name, path),
        _ => resource_name(name, path),
    };
    let field = |name: &str| quantities(present(member(limit, name)));
    let (max, min) = (field("max"), field("min"));
    let mut keys: Vec<String> = Vec::new();
    for (name, entries) in [("max", &max), ("min", &min)] {
        for (k, _) in entries {
            errs.extend(name_check(k, &p.child(name).key(k)));
            keys.push(k.clone());
        }
    }
    let (mut defaults, mut requests) = (Vec::new(), Vec::new());
    if kind == "Pod" {
        for name in ["default", "defaultRequest"] {
            if !field(name).is_empty() {
                errs.push(FieldError::forbidden(
                    &p.child(name),
                    "may not be specified when `type` is 'Pod'",
                ));
            }
        }
    } else {
        defaults = field("default");
        requests = field("defaultRequest");
        for (name, entries) in [("default", &defaults), ("defaultRequest", &requests)] {
            for (k, _) in entries {
                errs.extend(name_check(k, &p.child(name).key(k)));
                keys.push(k.clone());
            }
        }
    }
    if kind == "PersistentVolumeClaim" {
        let has = |e: &[(String, String)]| e.iter().any(|(k, _)| k == "storage");
        if !has(&min) && !has(&max) {
            errs.push(FieldError::required(
                &p.child("limits"),
                "either minimum or maximum storage value is required, but neither was provided",
            ));
        }
    }
    let ratios = field("maxLimitRequestRatio");
    for (k, _) in &ratios {
        errs.extend(name_check(k, &p.child("maxLimitRequestRatio").key(k)));
        keys.push(k.clone());
    }
    keys.sort();
    keys.dedup();
    let get =
        |e: &[(String, String)], k: &str| e.iter().find(|(n, _)| n == k).map(|(_, q)| q.clone());
    for k in &keys {
        errs.extend(limit_bounds(
            k,
            [
                get(&min, k),
                get(&max, k),
                get(&defaults, k),
                get(&requests, k),
                get(&ratios, k),
            ],
            p,
        ));
    }
    errs
}

/// How one resource's min, max, default, default request and ratio must order.
fn limit_bounds(k: &str, values: [Option<String>; 5], p: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let [min, max, default, request, ratio] = values;
    let gt = |a: &str, b: &str| quantity::compare(a, b) == Some(Ordering::Greater);
    let mut check = |ok: bool, at: &str, value: &str, msg: String| {
        if ok {
            errs.push(FieldError::invalid(&p.child(at).key(k), shown(value), msg));
        }
    };
    let c = canonical;
    if let (Some(lo), Some(hi)) = (&min, &max) {
        check(
            gt(lo, hi),
            "min",
            lo,
            format!("min value {} is greater than max value {}", c(lo), c(hi)),
        );
    }
    if let (Some(r), Some(lo)) = (&request, &min) {
        check(
            gt(lo, r),
            "defaultRequest",
            r,
            format!(
                "min value {} is greater than default request value {}",
                c(lo),
                c(r)
            ),
        );
    }
    if let (Some(r), Some(hi)) = (&request, &max) {
        check(
            gt(r, hi),
            "defaultRequest",
            r,
            format!(
                "default request value {} is greater than max value {}",
                c(r),
                c(hi)
            ),
        );
    }
    if let (Some(r), Some(d)) = (&request, &default) {
        check(
            gt(r, d),
            "defaultRequest",
            r,
            format!(
                "default request value {} is greater than default limit value {}",
                c(r),
                c(d)
            ),
        );
    }
    if let (Some(d), Some(lo)) = (&default, &min) {
        check(
            gt(lo, d),
            "default",
            lo,
            format!("min value {} is greater than default value {}", c(lo), c(d)),
        );
    }
    if let (Some(d), Some(hi)) = (&default, &max) {
        check(
            gt(d, hi),
            "default",
            hi,
            format!("default value {} is greater than max value {}", c(d), c(hi)),
        );
    }
    if let Some(r) = &ratio {
        let below_one = quantity::compare(r, "1") == Some(Ordering::Less);
        check(
            below_one,
            "maxLimitRequestRatio",
            r,
            format!("ratio {} is less than 1", c(r)),
        );
        if let (Some(lo), Some(hi)) = (&min, &max) {
            if let Some(limit) = ratio_limit(r, lo, hi) {
                check(
                    limit.0 > limit.1,
                    "maxLimitRequestRatio",
                    r,
                    format!("ratio {} is greater than max/min = {:.6}", c(r), limit.1),
                );
            }
        }
    }
    let overcommit = is_native(k) && !k.starts_with("hugepages-");
    if let (false, Some(d), Some(r)) = (overcommit, &default, &request) {
        if quantity::compare(d, r) != Some(Ordering::Equal) {
            check(
                true,
                "defaultRequest",
                r,
                format!(
                    "default value {} must equal to defaultRequest value {} in {k}",
                    c(d),
                    c(r)
                ),
            );
        }
    }
    errs
}

/// The ratio and max/min as Go computes them: in thousandths when all three fit.
fn ratio_limit(ratio: &str, min: &str, max: &str) -> Option<(f64, f64)> {
    const MAX_MILLI: i64 = i64::MAX / 1000;
    let (r, lo, hi) = (
        quantity::value(ratio)?,
        quantity::value(min)?,
        quantity::value(max)?,
    );
    #[allow(clippy::cast_precision_loss)] // Go converts the same int64s to float64
    let values = if r < MAX_MILLI && lo < MAX_MILLI && hi < MAX_MILLI {
        let (r, lo, hi) = (
            quantity::milli_value(ratio)?,
            quantity::milli_value(min)?,
            quantity::milli_value(max)?,
        );
        (r as f64 / 1000.0, hi as f64 / lo as f64)
    } else {
        (r as f64, hi as f64 / lo as f64)
    };
    Some(values)
}

fn resource_quota(object: &Value) -> Vec<FieldError> {
    let mut errs = object_meta(object, true, names::name_is_dns_subdomain);
    errs.extend(quota_spec(object));
    errs.extend(quota_status(object));
    errs
}

/// `ValidateResourceQuotaSpec`.
fn quota_spec(object: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let spec = FieldPath::new("spec");
    let hard = quantities(at(object, &["spec", "hard"]));
    for (k, q) in &hard {
        let p = spec.child("hard").key(k);
        errs.extend(quota_resource_name(k, &p));
        errs.extend(quantity_value(k, q, &p));
    }
    let scopes = strings(at(object, &["spec", "scopes"]));
    let scopes_value = || {
        if scopes.is_empty() {
            return BadValue::null();
        }
        let items = scopes
            .iter()
            .map(|s| Value::String((*s).to_owned()))
            .collect();
        BadValue::Json(json(&Value::List(items)))
    };
    let path = spec.child("scopes");
    for scope in &scopes {
        if !standard_scope(scope) {
            errs.push(FieldError::invalid(
                &path,
                scopes_value(),
                "unsupported scope",
            ));
        }
        for (k, _) in &hard {
            if is_standard_quota(k) && !scope_fits(scope, k) {
                errs.push(FieldError::invalid(
                    &path,
                    scopes_value(),
                    "unsupported scope applied to resource",
                ));
            }
        }
    }
    if conflicting(&scopes) {
        errs.push(FieldError::invalid(
            &path,
            scopes_value(),
            "conflicting scopes",
        ));
    }
    if let Some(selector) = present(at(object, &["spec", "scopeSelector"])) {
        errs.extend(scope_selector(selector, &hard, &scopes_value()));
    }
    errs
}

fn standard_scope(scope: &str) -> bool {
    [
        "Terminating",
        "NotTerminating",
        "BestEffort",
        "NotBestEffort",
        "PriorityClass",
        "VolumeAttributesClass",
        "CrossNamespacePodAffinity",
    ]
    .contains(&scope)
}

/// `IsResourceQuotaScopeValidForResource`.
fn scope_fits(scope: &str, name: &str) -> bool {
    let compute = [
        "cpu",
        "memory",
        "limits.cpu",
        "limits.memory",
        "requests.cpu",
        "requests.memory",
    ];
    match scope {
        "Terminating"
        | "NotTerminating"
        | "NotBestEffort"
        | "PriorityClass"
        | "CrossNamespacePodAffinity" => name == "pods" || compute.contains(&name),
        "BestEffort" => name == "pods",
        "VolumeAttributesClass" => name == "persistentvolumeclaims" || name == "requests.storage",
        _ => true,
    }
}

fn conflicting(scopes: &[&str]) -> bool {
    let has = |s: &str| scopes.contains(&s);
    (has("BestEffort") && has("NotBestEffort")) || (has("Terminating") && has("NotTerminating"))
}

/// `validateScopedResourceSelectorRequirement` at `spec.scopeSelector`.
fn scope_selector(
    selector: &Value,
    hard: &[(String, String)],
    scopes_value: &BadValue,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let path = FieldPath::new("spec")
        .child("scopeSelector")
        .child("matchExpressions");
    let exprs: &[Value] = member(selector, "matchExpressions")
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    let mut seen: Vec<&str> = Vec::new();
    for expr in exprs {
        let scope = str_at(expr, &["scopeName"]);
        let operator = str_at(expr, &["operator"]);
        let values = strings(member(expr, "values"));
        if !standard_scope(scope) {
            errs.push(FieldError::invalid(
                &path.child("scopeName"),
                typed(scope),
                "unsupported scope",
            ));
        }
        for (k, _) in hard {
            if is_standard_quota(k) && !scope_fits(scope, k) {
                // Go shows the internal ScopeSelector struct.
                errs.push(FieldError::invalid(
                    &path,
                    BadValue::Json(internal_selector(exprs)),
                    "unsupported scope applied to resource",
                ));
            }
        }
        let exists_only = [
            "BestEffort",
            "NotBestEffort",
            "Terminating",
            "NotTerminating",
            "CrossNamespacePodAffinity",
        ];
        if exists_only.contains(&scope) && operator != "Exists" {
            errs.push(FieldError::invalid(
                &path.child("operator"),
                typed(operator),
                "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
            ));
        }
        match operator {
            "In" | "NotIn" if values.is_empty() => errs.push(FieldError::required(
                &path.child("values"),
                "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => {
                let items = values
                    .iter()
                    .map(|s| Value::String((*s).to_owned()))
                    .collect();
                errs.push(FieldError::invalid(
                    &path.child("values"),
                    BadValue::Json(json(&Value::List(items))),
                    "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
                ));
            }
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => errs.push(FieldError::invalid(
                &path.child("operator"),
                typed(other),
                "not a valid selector operator",
            )),
        }
        seen.push(scope);
    }
    if conflicting(&seen) {
        errs.push(FieldError::invalid(
            &path,
            scopes_value.clone(),
            "conflicting scopes",
        ));
    }
    errs
}

/// `json.Marshal` of the internal `*core.ScopeSelector` (untagged fields).
fn internal_selector(exprs: &[Value]) -> String {
    let items: Vec<String> = exprs
        .iter()
        .map(|e| {
            let values = strings(member(e, "values"));
            let values = if values.is_empty() {
                "null".to_owned()
            } else {
                json(&Value::List(
                    values
                        .iter()
                        .map(|s| Value::String((*s).to_owned()))
                        .collect(),
                ))
            };
            format!(
                "{{\"ScopeName\":{},\"Operator\":{},\"Values\":{values}}}",
                json(&Value::String(str_at(e, &["scopeName"]).to_owned())),
                json(&Value::String(str_at(e, &["operator"]).to_owned())),
            )
        })
        .collect();
    format!("{{\"MatchExpressions\":[{}]}}", items.join(","))
}

/// `ValidateResourceQuotaStatus` (also what the status subresource checks).
fn quota_status(object: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for name in ["hard", "used"] {
        for (k, q) in quantities(at(object, &["status", name])) {
            let p = FieldPath::new("status").child(name).key(&k);
            errs.extend(quota_resource_name(&k, &p));
            errs.extend(quantity_value(&k, &q, &p));
        }
    }
    errs
}

fn resource_quota_update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    let mut errs = object_meta_update(new, old);
    if subresource == "status" {
        if str_at(new, &["metadata", "resourceVersion"]).is_empty() {
            errs.push(FieldError::required(&FieldPath::new("resourceVersion"), ""));
        }
        errs.extend(quota_status(new));
        return errs;
    }
    errs.extend(quota_spec(new));
    let mut new_scopes = strings(at(new, &["spec", "scopes"]));
    let mut old_scopes = strings(at(old, &["spec", "scopes"]));
    new_scopes.sort_unstable();
    new_scopes.dedup();
    old_scopes.sort_unstable();
    old_scopes.dedup();
    if new_scopes != old_scopes {
        let scopes = strings(at(new, &["spec", "scopes"]));
        let value = if scopes.is_empty() {
            BadValue::null()
        } else {
            BadValue::Json(json(&Value::List(
                scopes
                    .iter()
                    .map(|s| Value::String((*s).to_owned()))
                    .collect(),
            )))
        };
        errs.push(FieldError::invalid(
            &FieldPath::new("spec").child("scopes"),
            value,
            "field is immutable",
        ));
    }
    errs
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
        assert_eq!(ratio_limit("2", "1", "4"), Some((2.0, 4.0)));
    }
}
