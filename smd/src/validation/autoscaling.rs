//! The `autoscaling` group's strategy validation (k8s.io/kubernetes v1.37.2
//! `pkg/apis/autoscaling/validation`): HorizontalPodAutoscaler's replica bounds, scale target
//! reference, metric source types and scaling behavior (at v2 and at v1, whose CPU target the
//! internal version holds as a metric), and its status counters. The bounds' own checks are
//! declarative (`+k8s:minimum`, `+k8s:required`, enforced in 1.37): their errors come after
//! the hand-written ones. Not held yet: the targets and identifiers of metric sources other than `resource`, the
//! behavior's tolerance.

use smd_fieldpath::Value;

use super::generic::{int_at, list_at, nonnegative, opt_int_at, set_at, typed_str};
use super::names::{is_path_segment_name, name_is_dns_subdomain};
use super::{BadValue, FieldError, FieldPath, Rules, member, str_at};

/// The rules of `kind`, if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    match kind {
        "HorizontalPodAutoscaler" => Some(Rules { create, update }),
        _ => None,
    }
}

fn spec_of(object: &Value) -> &Value {
    member(object, "spec").unwrap_or(&Value::Null)
}

fn create(object: &Value) -> Vec<FieldError> {
    let mut errs = super::meta::validate_object_meta(
        object,
        true,
        name_is_dns_subdomain,
        &FieldPath::new("metadata"),
    );
    errs.extend(spec(spec_of(object), None));
    errs
}

fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    let mut errs = super::meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"));
    if subresource == "status" {
        let path = FieldPath::new("status");
        for (i, c) in list_at(new, &["status", "conditions"]).iter().enumerate() {
            if let Some(g) = opt_int_at(c, &["observedGeneration"]) {
                errs.extend(nonnegative(
                    g,
                    &path
                        .child("conditions")
                        .index(i)
                        .child("observedGeneration"),
                ));
            }
        }
        for f in ["currentReplicas", "desiredReplicas"] {
            errs.extend(nonnegative(int_at(new, &["status", f]), &path.child(f)));
        }
        return errs;
    }
    errs.extend(spec(spec_of(new), Some(spec_of(old))));
    errs
}

/// `validateHorizontalPodAutoscalerSpec` with the strategy's options, then the declarative
/// bounds.
fn spec(spec: &Value, old: Option<&Value>) -> Vec<FieldError> {
    // `MinReplicasLowerBound` is 0 with scaling to zero on, so the hand-written bound never
    // fires; the declarative one below does.
    let path = FieldPath::new("spec");
    let mut errs = Vec::new();
    let min = opt_int_at(spec, &["minReplicas"]);
    let max = int_at(spec, &["maxReplicas"]);
    if min.is_some_and(|m| max < m) {
        errs.push(FieldError::invalid(
            &path.child("maxReplicas"),
            BadValue::Int(max),
            "must be greater than or equal to `minReplicas`",
        ));
    }
    let target = member(spec, "scaleTargetRef").unwrap_or(&Value::Null);
    let same_target = old.is_some_and(|o| {
        let ot = member(o, "scaleTargetRef").unwrap_or(&Value::Null);
        str_at(ot, &["apiVersion"]) == str_at(target, &["apiVersion"])
            && str_at(ot, &["kind"]) == str_at(target, &["kind"])
    });
    let ref_opts = RefOptions {
        allow_invalid_api_version: same_target,
        allow_empty_group: !same_target && str_at(target, &["kind"]) == "ReplicationController",
    };
    errs.extend(object_reference(
        target,
        &path.child("scaleTargetRef"),
        ref_opts,
    ));
    errs.extend(metrics(spec, &path.child("metrics"), min));
    if let Some(b) = set_at(spec, &["behavior"]) {
        for rules in ["scaleUp", "scaleDown"] {
            if let Some(r) = set_at(b, &[rules]) {
                errs.extend(scaling_rules(r, &path.child("behavior").child(rules)));
            }
        }
    }
    // The declarative bounds (`HPAScaleToZero` is on in 1.37: at least 0).
    let lower = 0;
    if let Some(m) = min.filter(|m| *m < lower) {
        errs.push(FieldError::invalid(
            &path.child("minReplicas"),
            BadValue::Int(m),
            format!("must be greater than or equal to {lower}"),
        ));
    }
    if max == 0 {
        errs.push(FieldError::required(&path.child("maxReplicas"), ""));
    } else if max < 1 {
        errs.push(FieldError::invalid(
            &path.child("maxReplicas"),
            BadValue::Int(max),
            "must be greater than or equal to 1",
        ));
    }
    errs
}

#[derive(Clone, Copy)]
struct RefOptions {
    allow_invalid_api_version: bool,
    allow_empty_group: bool,
}

/// `ValidateCrossVersionObjectReference`.
fn object_reference(r: &Value, path: &FieldPath, opts: RefOptions) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for field in ["kind", "name"] {
        let v = str_at(r, &[field]);
        if v.is_empty() {
            errs.push(FieldError::required(&path.child(field), ""));
        } else {
            errs.extend(
                is_path_segment_name(v)
                    .into_iter()
                    .map(|m| FieldError::invalid(&path.child(field), BadValue::str(v), m)),
            );
        }
    }
    if !opts.allow_invalid_api_version {
        let version = str_at(r, &["apiVersion"]);
        if let Some(e) = api_version_problem(version, opts.allow_empty_group) {
            errs.push(FieldError::invalid(
                &path.child("apiVersion"),
                BadValue::str(version),
                e,
            ));
        }
    }
    errs
}

/// `ValidateAPIVersion`: `schema.ParseGroupVersion`'s error, or a missing group.
fn api_version_problem(version: &str, allow_empty_group: bool) -> Option<String> {
    let group = match version.matches('/').count() {
        _ if version.is_empty() || version == "/" => "",
        0 => "",
        1 => version.split('/').next().unwrap_or(""),
        _ => return Some(format!("unexpected GroupVersion string: {version}")),
    };
    (!allow_empty_group && group.is_empty()).then(|| "apiVersion must specify API group".to_owned())
}

const METRIC_TYPES: [&str; 5] = [
    "ContainerResource",
    "External",
    "Object",
    "Pods",
    "Resource",
];

/// `validateMetrics` / `validateMetricSpec`: each metric's type and the one source it
/// populates (the sources' own contents are not checked here yet).
fn metrics(spec: &Value, path: &FieldPath, min: Option<i64>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut object_or_external = false;
    for (i, m) in list_at(spec, &["metrics"]).iter().enumerate() {
        let p = path.index(i);
        let kind = str_at(m, &["type"]);
        if kind.is_empty() {
            errs.push(FieldError::required(
                &p.child("type"),
                "must specify a metric source type",
            ));
        }
        if !METRIC_TYPES.contains(&kind) {
            errs.push(FieldError::not_supported(
                &p.child("type"),
                typed_str(kind),
                &METRIC_TYPES,
            ));
        }
        let present: Vec<&str> = [
            "object",
            "external",
            "pods",
            "resource",
            "containerResource",
        ]
        .into_iter()
        .filter(|f| set_at(m, &[f]).is_some())
        .collect();
        // The first source present is validated (Go's order of the checks above).
        if present.first() == Some(&"resource") {
            errs.extend(resource_source(
                set_at(m, &["resource"]).unwrap_or(&Value::Null),
                &p.child("resource"),
            ));
        }
        let expected = match kind {
            "Object" => Some("object"),
            "Pods" => Some("pods"),
            "Resource" => Some("resource"),
            "External" => Some("external"),
            "ContainerResource" => Some("containerResource"),
            _ => None,
        };
        match expected {
            Some(f) if !present.contains(&f) => errs.push(FieldError::required(
                &p.child(f),
                "must populate information for the given metric source",
            )),
            Some(_) => {}
            // Go reports the unknown type a second time here; the server answers it once.
            None => {}
        }
        if present.len() != 1 {
            for f in present.iter().filter(|f| Some(**f) != expected) {
                errs.push(FieldError::forbidden(
                    &p.child(f),
                    "must populate the given metric source only",
                ));
            }
        }
        object_or_external |= kind == "Object" || kind == "External";
    }
    if min == Some(0) && !object_or_external {
        errs.push(FieldError::forbidden(
            path,
            "must specify at least one Object or External metric to support scaling to zero replicas",
        ));
    }
    errs
}

/// `validateResourceSource`: the resource's name, its target, and exactly one of a raw value
/// and a utilization.
fn resource_source(source: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if str_at(source, &["name"]).is_empty() {
        errs.push(FieldError::required(
            &path.child("name"),
            "must specify a resource name",
        ));
    }
    let target = set_at(source, &["target"]).unwrap_or(&Value::Null);
    let target_path = path.child("target");
    errs.extend(metric_target(target, &target_path));
    let utilization = set_at(target, &["averageUtilization"]).is_some();
    let average = set_at(target, &["averageValue"]).is_some();
    if !utilization && !average {
        errs.push(FieldError::required(
            &target_path.child("averageUtilization"),
            "must set either a target raw value or a target utilization",
        ));
    }
    if utilization && average {
        errs.push(FieldError::forbidden(
            &target_path.child("averageValue"),
            "may not set both a target raw value and a target utilization",
        ));
    }
    errs
}

/// `validateMetricTarget`: the target's type, positive quantities, a utilization of at least 1.
fn metric_target(target: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let kind = str_at(target, &["type"]);
    if kind.is_empty() {
        errs.push(FieldError::required(
            &path.child("type"),
            "must specify a metric target type",
        ));
    }
    if !matches!(kind, "Utilization" | "Value" | "AverageValue") {
        errs.push(FieldError::invalid(
            &path.child("type"),
            BadValue::str(kind),
            "must be either Utilization, Value, or AverageValue",
        ));
    }
    for field in ["value", "averageValue"] {
        if let Some(q) = set_at(target, &[field]).and_then(Value::as_str) {
            let positive = crate::builtin::quantity::compare(q, "0")
                .is_some_and(|o| o == std::cmp::Ordering::Greater);
            if !positive {
                // A *Quantity marshals as its JSON string.
                errs.push(FieldError::invalid(
                    &path.child(field),
                    BadValue::Json(super::json(&Value::from(q))),
                    "must be positive",
                ));
            }
        }
    }
    if let Some(u) = set_at(target, &["averageUtilization"]).and_then(Value::as_int)
        && u < 1
    {
        errs.push(FieldError::invalid(
            &path.child("averageUtilization"),
            BadValue::Int(u),
            "must be greater than 0",
        ));
    }
    errs
}

const MAX_STABILIZATION_WINDOW: i64 = 3600;
const MAX_PERIOD: i64 = 1800;

/// `validateScalingRules`.
fn scaling_rules(rules: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(w) = opt_int_at(rules, &["stabilizationWindowSeconds"]) {
        let p = path.child("stabilizationWindowSeconds");
        if w < 0 {
            errs.push(FieldError::invalid(
                &p,
                BadValue::Int(w),
                "must be greater than or equal to zero",
            ));
        }
        if w > MAX_STABILIZATION_WINDOW {
            errs.push(FieldError::invalid(
                &p,
                BadValue::Int(w),
                format!("must be less than or equal to {MAX_STABILIZATION_WINDOW}"),
            ));
        }
    }
    if let Some(s) = member(rules, "selectPolicy").and_then(Value::as_str) {
        if !["Disabled", "Max", "Min"].contains(&s) {
            errs.push(FieldError::not_supported(
                &path.child("selectPolicy"),
                typed_str(s),
                &["Disabled", "Max", "Min"],
            ));
        }
    }
    let policies = list_at(rules, &["policies"]);
    let pp = path.child("policies");
    if policies.is_empty() {
        errs.push(FieldError::required(
            &pp,
            "must specify at least one Policy",
        ));
    }
    for (i, policy) in policies.iter().enumerate() {
        let p = pp.index(i);
        let kind = str_at(policy, &["type"]);
        if kind != "Pods" && kind != "Percent" {
            errs.push(FieldError::not_supported(
                &p.child("type"),
                typed_str(kind),
                &["Percent", "Pods"],
            ));
        }
        let value = int_at(policy, &["value"]);
        if value <= 0 {
            errs.push(FieldError::invalid(
                &p.child("value"),
                BadValue::Int(value),
                "must be greater than zero",
            ));
        }
        let period = int_at(policy, &["periodSeconds"]);
        if period <= 0 {
            errs.push(FieldError::invalid(
                &p.child("periodSeconds"),
                BadValue::Int(period),
                "must be greater than zero",
            ));
        }
        if period > MAX_PERIOD {
            errs.push(FieldError::invalid(
                &p.child("periodSeconds"),
                BadValue::Int(period),
                format!("must be less than or equal to {MAX_PERIOD}"),
            ));
        }
    }
    errs
}
