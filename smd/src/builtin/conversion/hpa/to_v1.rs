//! An autoscaling/v2 HorizontalPodAutoscaler read at v1: the CPU utilization metric as the
//! target, the rest in the round-trip annotations as Go's `json.Marshal` writes v1's structs.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::super::json::{Obj, int, qty, qty_or_zero, selector, string, string_opt};
use super::{
    BEHAVIOR, CONDITIONS, CURRENT_METRICS, METRICS, is_cpu_utilization, list_at, map_at,
    metadata_without_round_trip,
};

/// A v2 object read at v1.
pub(in crate::builtin::conversion) fn v2_to_v1(object: &Map) -> Map {
    let spec = map_at(object, "spec").cloned().unwrap_or_default();
    let status = map_at(object, "status").cloned().unwrap_or_default();
    let mut metadata = metadata_without_round_trip(object);
    let mut added: Vec<(&str, String)> = Vec::new();

    let metrics = list_at(&spec, "metrics");
    let mut cpu_target = None;
    let mut others = Vec::new();
    for metric in metrics.iter().filter_map(Value::as_map) {
        match is_cpu_utilization(metric) {
            Some(target) => {
                cpu_target.get_or_insert(target);
            }
            None => others.push(v1_metric_spec(metric)),
        }
    }
    if !others.is_empty() {
        added.push((METRICS, format!("[{}]", others.join(","))));
    }
    let current = list_at(&status, "currentMetrics");
    let mut cpu_current = None;
    for metric in current.iter().filter_map(Value::as_map) {
        if metric.get("type").and_then(Value::as_str) == Some("Resource")
            && let Some(resource) = map_at(metric, "resource")
            && resource.get("name").and_then(Value::as_str) == Some("cpu")
            && let Some(u) = map_at(resource, "current")
                .and_then(|c| c.get("averageUtilization"))
                .and_then(Value::as_int)
        {
            cpu_current = Some(u);
        }
    }
    if !current.is_empty() {
        let items: Vec<String> = current
            .iter()
            .filter_map(Value::as_map)
            .map(v1_metric_status)
            .collect();
        added.push((CURRENT_METRICS, format!("[{}]", items.join(","))));
    }
    if let Some(behavior) = spec.get("behavior").filter(|b| b.as_map().is_some()) {
        let mut text = String::new();
        let _ = smd_fieldpath::value::gojson::write_value(&mut text, behavior);
        let encoded = crate::builtin::internal::hpa_behavior_text(&text)
            .unwrap_or_else(|| "{\"ScaleUp\":null,\"ScaleDown\":null}".to_owned());
        added.push((BEHAVIOR, encoded));
    }
    let conditions = list_at(&status, "conditions");
    if !conditions.is_empty() {
        let items: Vec<String> = conditions
            .iter()
            .filter_map(Value::as_map)
            .map(|c| {
                let time = c
                    .get("lastTransitionTime")
                    .filter(|t| t.as_str().is_some_and(|s| !s.is_empty()))
                    .map_or_else(|| "null".to_owned(), |t| string(Some(t)));
                Obj::new()
                    .field("type", string(c.get("type")))
                    .field("status", string(c.get("status")))
                    .field("lastTransitionTime", time)
                    .opt("reason", string_opt(c.get("reason")))
                    .opt("message", string_opt(c.get("message")))
                    .opt("observedGeneration", int(c.get("observedGeneration")))
                    .end()
            })
            .collect();
        added.push((CONDITIONS, format!("[{}]", items.join(","))));
    }
    if !added.is_empty() {
        let annotations = metadata.map_entry("annotations");
        for (key, text) in added {
            annotations.insert(key, Value::from(text));
        }
        annotations.sort_keys();
    }

    let mut v1_spec = Map::new();
    v1_spec.insert(
        "scaleTargetRef",
        spec.get("scaleTargetRef")
            .cloned()
            .unwrap_or_else(|| Value::Map(Map::new())),
    );
    if let Some(min) = spec.get("minReplicas").filter(|v| !v.is_null()) {
        v1_spec.insert("minReplicas", min.clone());
    }
    v1_spec.insert(
        "maxReplicas",
        spec.get("maxReplicas").cloned().unwrap_or(Value::Int(0)),
    );
    if let Some(t) = cpu_target {
        v1_spec.insert("targetCPUUtilizationPercentage", Value::Int(t));
    }
    let mut v1_status = Map::new();
    for key in ["observedGeneration", "lastScaleTime"] {
        if let Some(v) = status.get(key).filter(|v| !v.is_null()) {
            v1_status.insert(key, v.clone());
        }
    }
    for key in ["currentReplicas", "desiredReplicas"] {
        v1_status.insert(key, status.get(key).cloned().unwrap_or(Value::Int(0)));
    }
    if let Some(u) = cpu_current {
        v1_status.insert("currentCPUUtilizationPercentage", Value::Int(u));
    }

    let mut out = Map::new();
    out.insert("kind", object.get("kind").cloned().unwrap_or(Value::Null));
    out.insert("metadata", Value::Map(metadata));
    out.insert("spec", Value::Map(v1_spec));
    out.insert("status", Value::Map(v1_status));
    out
}

/// A v2 `CrossVersionObjectReference` as v1's JSON.
fn v1_reference(v: Option<&Value>) -> String {
    let r = v.and_then(Value::as_map).cloned().unwrap_or_default();
    Obj::new()
        .field("kind", string(r.get("kind")))
        .field("name", string(r.get("name")))
        .opt("apiVersion", string_opt(r.get("apiVersion")))
        .end()
}

/// A v2 metric spec as v1's `MetricSpec` JSON.
fn v1_metric_spec(metric: &Map) -> String {
    let source = |key: &str| map_at(metric, key).cloned().unwrap_or_default();
    let object = map_at(metric, "object").map(|_| {
        let s = source("object");
        let target = map_at(&s, "target").cloned().unwrap_or_default();
        let id = map_at(&s, "metric").cloned().unwrap_or_default();
        Obj::new()
            .field("target", v1_reference(s.get("describedObject")))
            .field("metricName", string(id.get("name")))
            .field("targetValue", qty_or_zero(target.get("value")))
            .opt("selector", selector(id.get("selector")))
            .opt("averageValue", qty(target.get("averageValue")))
            .end()
    });
    let pods = map_at(metric, "pods").map(|_| {
        let s = source("pods");
        let target = map_at(&s, "target").cloned().unwrap_or_default();
        let id = map_at(&s, "metric").cloned().unwrap_or_default();
        Obj::new()
            .field("metricName", string(id.get("name")))
            .field(
                "targetAverageValue",
                qty_or_zero(target.get("averageValue")),
            )
            .opt("selector", selector(id.get("selector")))
            .end()
    });
    let resource = |key: &str| {
        map_at(metric, key).map(|s| {
            let target = map_at(s, "target").cloned().unwrap_or_default();
            let o = Obj::new()
                .field("name", string(s.get("name")))
                .opt(
                    "targetAverageUtilization",
                    int(target.get("averageUtilization")),
                )
                .opt("targetAverageValue", qty(target.get("averageValue")));
            if key == "containerResource" {
                o.field("container", string(s.get("container"))).end()
            } else {
                o.end()
            }
        })
    };
    let external = map_at(metric, "external").map(|_| {
        let s = source("external");
        let target = map_at(&s, "target").cloned().unwrap_or_default();
        let id = map_at(&s, "metric").cloned().unwrap_or_default();
        Obj::new()
            .field("metricName", string(id.get("name")))
            .opt("metricSelector", selector(id.get("selector")))
            .opt("targetValue", qty(target.get("value")))
            .opt("targetAverageValue", qty(target.get("averageValue")))
            .end()
    });
    Obj::new()
        .field("type", string(metric.get("type")))
        .opt("object", object)
        .opt("pods", pods)
        .opt("resource", resource("resource"))
        .opt("containerResource", resource("containerResource"))
        .opt("external", external)
        .end()
}

/// A v2 metric status as v1's `MetricStatus` JSON.
fn v1_metric_status(metric: &Map) -> String {
    let parts = |key: &str| {
        map_at(metric, key).map(|s| {
            let current = map_at(s, "current").cloned().unwrap_or_default();
            let id = map_at(s, "metric").cloned().unwrap_or_default();
            (s.clone(), current, id)
        })
    };
    let object = parts("object").map(|(s, current, id)| {
        Obj::new()
            .field("target", v1_reference(s.get("describedObject")))
            .field("metricName", string(id.get("name")))
            .field("currentValue", qty_or_zero(current.get("value")))
            .opt("selector", selector(id.get("selector")))
            .opt("averageValue", qty(current.get("averageValue")))
            .end()
    });
    let pods = parts("pods").map(|(_, current, id)| {
        Obj::new()
            .field("metricName", string(id.get("name")))
            .field(
                "currentAverageValue",
                qty_or_zero(current.get("averageValue")),
            )
            .opt("selector", selector(id.get("selector")))
            .end()
    });
    let resource = |key: &str| {
        parts(key).map(|(s, current, _)| {
            let o = Obj::new()
                .field("name", string(s.get("name")))
                .opt(
                    "currentAverageUtilization",
                    int(current.get("averageUtilization")),
                )
                .field(
                    "currentAverageValue",
                    qty_or_zero(current.get("averageValue")),
                );
            if key == "containerResource" {
                o.field("container", string(s.get("container"))).end()
            } else {
                o.end()
            }
        })
    };
    let external = parts("external").map(|(_, current, id)| {
        Obj::new()
            .field("metricName", string(id.get("name")))
            .opt("metricSelector", selector(id.get("selector")))
            .field("currentValue", qty_or_zero(current.get("value")))
            .opt("currentAverageValue", qty(current.get("averageValue")))
            .end()
    });
    Obj::new()
        .field("type", string(metric.get("type")))
        .opt("object", object)
        .opt("pods", pods)
        .opt("resource", resource("resource"))
        .opt("containerResource", resource("containerResource"))
        .opt("external", external)
        .end()
}
