//! ResourceQuotas (`ValidateResourceQuota`, `ValidateResourceQuotaUpdate`,
//! `ValidateResourceQuotaStatusUpdate`): hard and status resources, scopes and scope
//! selectors, immutable scopes.

use smd_fieldpath::Value;

use super::resources::{is_standard_quota, quantities, quantity_value, quota_resource_name};
use super::{object_meta, object_meta_update, present, strings, typed};
use crate::validation::{BadValue, FieldError, FieldPath, Rules, at, json, member, names, str_at};

/// The ResourceQuota strategies' rules (main resource and `status`).
pub(super) const RULES: Rules = Rules {
    create: resource_quota,
    update,
};

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

fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
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
