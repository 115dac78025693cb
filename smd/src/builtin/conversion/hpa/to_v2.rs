//! An autoscaling/v1 HorizontalPodAutoscaler read at v2: the annotations' metrics first, the
//! CPU target last (80% CPU when there is no metric at all), the behavior, current metrics and
//! conditions from their annotations.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::annotations::{decode_list, v2_condition, v2_metric_spec, v2_metric_status};
use super::{BEHAVIOR, CONDITIONS, CURRENT_METRICS, METRICS, map_at, metadata_without_round_trip};

/// A v1 object read at v2.
pub(in crate::builtin::conversion) fn v1_to_v2(object: &Map) -> Map {
    let spec = map_at(object, "spec").cloned().unwrap_or_default();
    let status = map_at(object, "status").cloned().unwrap_or_default();
    let annotations = map_at(object, "metadata")
        .and_then(|m| map_at(m, "annotations"))
        .cloned()
        .unwrap_or_default();
    let annotation = |key: &str| {
        annotations
            .get(key)
            .and_then(Value::as_str)
            .and_then(|t| Value::from_json(t).ok())
    };

    let cpu_target = spec
        .get("targetCPUUtilizationPercentage")
        .and_then(Value::as_int)
        .map(|t| cpu_metric("target", t));
    let mut metrics: Vec<Value> = Vec::new();
    if let Some(others) = annotation(METRICS).and_then(|v| decode_list(&v, v2_metric_spec)) {
        metrics = others;
    }
    metrics.extend(cpu_target);
    if metrics.is_empty() {
        metrics.push(cpu_metric("target", 80));
    }
    let behavior = annotations
        .get(BEHAVIOR)
        .and_then(Value::as_str)
        .and_then(crate::builtin::internal::hpa_behavior_text)
        .and_then(|t| Value::from_json(&t).ok())
        .map(v2_behavior);

    let mut v2_spec = Map::new();
    v2_spec.insert(
        "scaleTargetRef",
        spec.get("scaleTargetRef")
            .cloned()
            .unwrap_or_else(|| Value::Map(Map::new())),
    );
    if let Some(min) = spec.get("minReplicas").filter(|v| !v.is_null()) {
        v2_spec.insert("minReplicas", min.clone());
    }
    v2_spec.insert(
        "maxReplicas",
        spec.get("maxReplicas").cloned().unwrap_or(Value::Int(0)),
    );
    v2_spec.insert("metrics", Value::List(metrics));
    if let Some(b) = behavior {
        v2_spec.insert("behavior", b);
    }

    let mut v2_status = Map::new();
    for key in ["observedGeneration", "lastScaleTime"] {
        if let Some(v) = status.get(key).filter(|v| !v.is_null()) {
            v2_status.insert(key, v.clone());
        }
    }
    if let Some(n) = status
        .get("currentReplicas")
        .filter(|v| v.as_int() != Some(0))
    {
        v2_status.insert("currentReplicas", n.clone());
    }
    v2_status.insert(
        "desiredReplicas",
        status
            .get("desiredReplicas")
            .cloned()
            .unwrap_or(Value::Int(0)),
    );
    let current = annotation(CURRENT_METRICS)
        .and_then(|v| decode_list(&v, v2_metric_status))
        .or_else(|| {
            status
                .get("currentCPUUtilizationPercentage")
                .and_then(Value::as_int)
                .map(|u| vec![cpu_metric("current", u)])
        });
    // v2's `currentMetrics` has no `omitempty`: a nil list is written as null.
    match current.filter(|c| !c.is_empty()) {
        Some(current) => v2_status.insert("currentMetrics", Value::List(current)),
        None => v2_status.insert("currentMetrics", Value::Null),
    };
    if let Some(conditions) = annotation(CONDITIONS)
        .and_then(|v| decode_list(&v, v2_condition))
        .filter(|c| !c.is_empty())
    {
        v2_status.insert("conditions", Value::List(conditions));
    }

    let mut out = Map::new();
    out.insert("kind", object.get("kind").cloned().unwrap_or(Value::Null));
    out.insert("metadata", Value::Map(metadata_without_round_trip(object)));
    out.insert("spec", Value::Map(v2_spec));
    out.insert("status", Value::Map(v2_status));
    out
}

/// The CPU utilization metric (`target` for a spec, `current` for a status).
fn cpu_metric(part: &str, utilization: i64) -> Value {
    let mut value = Map::new();
    if part == "target" {
        value.insert("type", Value::from("Utilization"));
    }
    value.insert("averageUtilization", Value::Int(utilization));
    let mut resource = Map::new();
    resource.insert("name", Value::from("cpu"));
    resource.insert(part, Value::Map(value));
    let mut metric = Map::new();
    metric.insert("type", Value::from("Resource"));
    metric.insert("resource", Value::Map(resource));
    Value::Map(metric)
}

/// The internal behavior (Go field names, as the annotation holds it) as v2's.
fn v2_behavior(behavior: Value) -> Value {
    let mut out = Map::new();
    let Value::Map(b) = behavior else {
        return Value::Map(out);
    };
    for (go, json) in [("ScaleUp", "scaleUp"), ("ScaleDown", "scaleDown")] {
        let Some(rules) = b.get(go).and_then(Value::as_map) else {
            continue;
        };
        let mut r = Map::new();
        for (go, json) in [
            ("StabilizationWindowSeconds", "stabilizationWindowSeconds"),
            ("SelectPolicy", "selectPolicy"),
        ] {
            if let Some(v) = rules.get(go).filter(|v| !v.is_null()) {
                r.insert(json, v.clone());
            }
        }
        if let Some(policies) = rules.get("Policies").and_then(Value::as_list) {
            let list = policies
                .iter()
                .filter_map(Value::as_map)
                .map(|p| {
                    let mut o = Map::new();
                    for (go, json) in [
                        ("Type", "type"),
                        ("Value", "value"),
                        ("PeriodSeconds", "periodSeconds"),
                    ] {
                        o.insert(json, p.get(go).cloned().unwrap_or(Value::Null));
                    }
                    Value::Map(o)
                })
                .collect();
            r.insert("policies", Value::List(list));
        }
        if let Some(v) = rules.get("Tolerance").filter(|v| !v.is_null()) {
            r.insert("tolerance", v.clone());
        }
        out.insert(json, Value::Map(r));
    }
    Value::Map(out)
}
