//! The `policy` group's strategy validation (k8s.io/kubernetes v1.37.2 `pkg/apis/policy/validation`):
//! PodDisruptionBudget's spec (`ValidatePodDisruptionBudgetSpec`) and status
//! (`ValidatePodDisruptionBudgetStatusUpdate`, its counters; the conditions' own checks,
//! `ValidateConditions`, are not held yet).

use smd_fieldpath::Value;

use super::generic::{
    int_at, nonnegative, not_more_than_100_percent, positive_int_or_percent, set_at, typed_str,
};
use super::render::internal_json;
use super::{BadValue, FieldError, FieldPath, Rules, member, selector};

/// The rules of `kind`, if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    match kind {
        "PodDisruptionBudget" => Some(Rules { create, update }),
        _ => None,
    }
}

fn create(object: &Value) -> Vec<FieldError> {
    spec(object, false)
}

fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    if subresource == "status" {
        let path = FieldPath::new("status");
        return [
            "disruptionsAllowed",
            "currentHealthy",
            "desiredHealthy",
            "expectedPods",
        ]
        .iter()
        .flat_map(|f| nonnegative(int_at(new, &["status", f]), &path.child(f)))
        .collect();
    }
    let tolerate = selector::has_invalid_label_value(set_at(old, &["spec", "selector"]));
    spec(new, tolerate)
}

/// `ValidatePodDisruptionBudgetSpec`.
fn spec(object: &Value, tolerate_invalid_values: bool) -> Vec<FieldError> {
    let spec = member(object, "spec").unwrap_or(&Value::Null);
    let path = FieldPath::new("spec");
    let mut errs = Vec::new();
    let min = set_at(spec, &["minAvailable"]);
    let max = set_at(spec, &["maxUnavailable"]);
    if min.is_some() && max.is_some() {
        errs.push(FieldError::invalid(
            &path,
            BadValue::Json(internal_json(
                "io.k8s.api.policy.v1.PodDisruptionBudgetSpec",
                spec,
            )),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    for (field, value) in [("minAvailable", min), ("maxUnavailable", max)] {
        if let Some(v) = value {
            errs.extend(positive_int_or_percent(v, &path.child(field)));
            errs.extend(not_more_than_100_percent(v, &path.child(field)));
        }
    }
    errs.extend(selector::validate_label_selector(
        set_at(spec, &["selector"]),
        tolerate_invalid_values,
        &path.child("selector"),
    ));
    if let Some(p) = member(spec, "unhealthyPodEvictionPolicy").and_then(Value::as_str) {
        if p != "AlwaysAllow" && p != "IfHealthyBudget" {
            errs.push(FieldError::not_supported(
                &path.child("unhealthyPodEvictionPolicy"),
                typed_str(p),
                &["AlwaysAllow", "IfHealthyBudget"],
            ));
        }
    }
    errs
}
