//! autoscaling HorizontalPodAutoscaler between v1 and v2, through the internal version
//! (`pkg/apis/autoscaling/v1/conversion.go`; v2 and the internal version hold the same
//! fields). v1 has one metric, the CPU utilization target; the other metrics, the behavior,
//! the current metrics and the conditions ride in annotations (`Go`'s `json.Marshal` of v1's
//! structs, the behavior's of the internal struct with Go's field names), and a v1 object
//! with no metric at all gets the internal default, 80% CPU.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::json::{Obj, field, int, qty, qty_or_zero, quantity_text, selector, string, string_opt};
use crate::builtin::quantity;

const METRICS: &str = "autoscaling.alpha.kubernetes.io/metrics";
const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";
const CURRENT_METRICS: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
/// Every annotation the conversions own (`DropRoundTripHorizontalPodAutoscalerAnnotations`).
const ROUND_TRIP: [&str; 6] = [
    METRICS,
    BEHAVIOR,
    "autoscaling.alpha.kubernetes.io/scale-down-tolerance",
    "autoscaling.alpha.kubernetes.io/scale-up-tolerance",
    CURRENT_METRICS,
    CONDITIONS,
];

fn map_at<'a>(map: &'a Map, key: &str) -> Option<&'a Map> {
    map.get(key).and_then(Value::as_map)
}

fn list_at<'a>(map: &'a Map, key: &str) -> &'a [Value] {
    map.get(key).and_then(Value::as_list).unwrap_or(&[])
}

/// The metadata with the round-trip annotations dropped (an emptied map goes).
fn metadata_without_round_trip(object: &Map) -> Map {
    let mut metadata = map_at(object, "metadata").cloned().unwrap_or_default();
    if let Some(annotations) = metadata.get_mut("annotations").and_then(Value::as_map_mut) {
        for key in ROUND_TRIP {
            annotations.remove(key);
        }
        if annotations.is_empty() {
            metadata.remove("annotations");
        }
    }
    metadata
}

fn is_cpu_utilization(metric: &Map) -> Option<i64> {
    if metric.get("type").and_then(Value::as_str) != Some("Resource") {
        return None;
    }
    let resource = map_at(metric, "resource")?;
    if resource.get("name").and_then(Value::as_str) != Some("cpu") {
        return None;
    }
    map_at(resource, "target")?
        .get("averageUtilization")
        .and_then(Value::as_int)
}

/// A v2 object read at v1.
pub(super) fn v2_to_v1(object: &Map) -> Map {
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

/// A v1 object read at v2.
pub(super) fn v1_to_v2(object: &Map) -> Map {
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

/// An annotation's list decoded item by item; `None` (the annotation ignored, as a failed
/// `json.Unmarshal` leaves it) when it is not a list or an item does not decode.
fn decode_list(value: &Value, item: fn(&Map) -> Option<Value>) -> Option<Vec<Value>> {
    match value {
        Value::Null => Some(Vec::new()),
        Value::List(items) => items
            .iter()
            .map(|i| match i {
                Value::Map(m) => item(m),
                Value::Null => item(&Map::new()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// A string field as `json.Unmarshal` reads it: absent is empty, another type fails.
fn text(map: &Map, name: &str) -> Option<String> {
    match field(map, name) {
        None => Some(String::new()),
        Some(Value::String(s)) => Some(s.to_string()),
        Some(_) => None,
    }
}

/// An optional `int32` field: `Ok(None)` when absent, `Err` when it does not decode.
fn int32(map: &Map, name: &str) -> Result<Option<Value>, ()> {
    match field(map, name) {
        None => Ok(None),
        Some(v) => v
            .as_int()
            .filter(|n| i32::try_from(*n).is_ok())
            .map(|n| Some(Value::Int(n)))
            .ok_or(()),
    }
}

/// An optional quantity field, canonical: `Ok(None)` when absent.
fn quantity_field(map: &Map, name: &str) -> Result<Option<Value>, ()> {
    match field(map, name) {
        None => Ok(None),
        Some(v) => quantity_text(v)
            .and_then(|t| quantity::canonical(&t).ok())
            .map(|c| Some(Value::from(c)))
            .ok_or(()),
    }
}

/// An optional sub-object: `Ok(None)` when absent, `Err` when not an object.
fn object<'a>(map: &'a Map, name: &str) -> Result<Option<&'a Map>, ()> {
    match field(map, name) {
        None => Ok(None),
        Some(Value::Map(m)) => Ok(Some(m)),
        Some(_) => Err(()),
    }
}

fn insert_opt(map: &mut Map, key: &str, value: Option<Value>) {
    if let Some(v) = value {
        map.insert(key, v);
    }
}

fn string_value(s: String) -> Value {
    Value::from(s)
}

/// v1's `CrossVersionObjectReference` as v2's.
fn v2_reference(map: Option<&Map>) -> Option<Value> {
    let empty = Map::new();
    let r = map.unwrap_or(&empty);
    let mut out = Map::new();
    out.insert("kind", string_value(text(r, "kind")?));
    out.insert("name", string_value(text(r, "name")?));
    let api = text(r, "apiVersion")?;
    if !api.is_empty() {
        out.insert("apiVersion", Value::from(api));
    }
    Some(Value::Map(out))
}

/// A metric identifier: a name and a selector.
fn identifier(name: String, selector: Option<&Value>) -> Option<Value> {
    let mut out = Map::new();
    out.insert("name", Value::from(name));
    match selector {
        None => {}
        Some(Value::Map(m)) => {
            out.insert("selector", Value::Map(m.clone()));
        }
        Some(_) => return None,
    }
    Some(Value::Map(out))
}

fn target(kind: &str, value: Option<Value>, average: Option<Value>, util: Option<Value>) -> Value {
    let mut t = Map::new();
    t.insert("type", Value::from(kind));
    insert_opt(&mut t, "value", value);
    insert_opt(&mut t, "averageValue", average);
    insert_opt(&mut t, "averageUtilization", util);
    Value::Map(t)
}

/// One v1 `MetricSpec` (from the annotation) as v2's.
fn v2_metric_spec(m: &Map) -> Option<Value> {
    let mut out = Map::new();
    out.insert("type", Value::from(text(m, "type")?));
    if let Some(s) = object(m, "object").ok()? {
        let value = quantity_field(s, "targetValue")
            .ok()?
            .unwrap_or_else(|| Value::from("0"));
        let average = quantity_field(s, "averageValue").ok()?;
        let (kind, value) = match &average {
            None => ("Value", Some(value)),
            Some(_) => (
                "AverageValue",
                (!value.as_str().is_some_and(quantity::is_zero)).then_some(value),
            ),
        };
        let mut o = Map::new();
        o.insert("describedObject", v2_reference(object(s, "target").ok()?)?);
        o.insert("target", target(kind, value, average, None));
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "selector"))?,
        );
        out.insert("object", Value::Map(o));
    }
    if let Some(s) = object(m, "pods").ok()? {
        let average = quantity_field(s, "targetAverageValue")
            .ok()?
            .unwrap_or_else(|| Value::from("0"));
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "selector"))?,
        );
        o.insert("target", target("AverageValue", None, Some(average), None));
        out.insert("pods", Value::Map(o));
    }
    for key in ["resource", "containerResource"] {
        if let Some(s) = object(m, key).ok()? {
            let util = int32(s, "targetAverageUtilization").ok()?;
            let average = quantity_field(s, "targetAverageValue").ok()?;
            let kind = if util.is_some() {
                "Utilization"
            } else {
                "AverageValue"
            };
            let mut o = Map::new();
            o.insert("name", Value::from(text(s, "name")?));
            o.insert("target", target(kind, None, average, util));
            if key == "containerResource" {
                o.insert("container", Value::from(text(s, "container")?));
            }
            out.insert(key, Value::Map(o));
        }
    }
    if let Some(s) = object(m, "external").ok()? {
        let value = quantity_field(s, "targetValue").ok()?;
        let average = quantity_field(s, "targetAverageValue").ok()?;
        let kind = if value.is_none() {
            "AverageValue"
        } else {
            "Value"
        };
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "metricSelector"))?,
        );
        o.insert("target", target(kind, value, average, None));
        out.insert("external", Value::Map(o));
    }
    Some(Value::Map(out))
}

fn current(value: Option<Value>, average: Option<Value>, util: Option<Value>) -> Value {
    let mut c = Map::new();
    insert_opt(&mut c, "value", value);
    insert_opt(&mut c, "averageValue", average);
    insert_opt(&mut c, "averageUtilization", util);
    Value::Map(c)
}

/// One v1 `MetricStatus` (from the annotation) as v2's.
fn v2_metric_status(m: &Map) -> Option<Value> {
    let zero = || Value::from("0");
    let mut out = Map::new();
    out.insert("type", Value::from(text(m, "type")?));
    if let Some(s) = object(m, "object").ok()? {
        let value = quantity_field(s, "currentValue").ok()?.unwrap_or_else(zero);
        let average = quantity_field(s, "averageValue").ok()?;
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "selector"))?,
        );
        o.insert("current", current(Some(value), average, None));
        o.insert("describedObject", v2_reference(object(s, "target").ok()?)?);
        out.insert("object", Value::Map(o));
    }
    if let Some(s) = object(m, "pods").ok()? {
        let average = quantity_field(s, "currentAverageValue")
            .ok()?
            .unwrap_or_else(zero);
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "selector"))?,
        );
        o.insert("current", current(None, Some(average), None));
        out.insert("pods", Value::Map(o));
    }
    for key in ["resource", "containerResource"] {
        if let Some(s) = object(m, key).ok()? {
            let util = int32(s, "currentAverageUtilization").ok()?;
            let average = quantity_field(s, "currentAverageValue")
                .ok()?
                .unwrap_or_else(zero);
            let mut o = Map::new();
            o.insert("name", Value::from(text(s, "name")?));
            o.insert("current", current(None, Some(average), util));
            if key == "containerResource" {
                o.insert("container", Value::from(text(s, "container")?));
            }
            out.insert(key, Value::Map(o));
        }
    }
    if let Some(s) = object(m, "external").ok()? {
        let value = quantity_field(s, "currentValue").ok()?.unwrap_or_else(zero);
        let average = quantity_field(s, "currentAverageValue").ok()?;
        let mut o = Map::new();
        o.insert(
            "metric",
            identifier(text(s, "metricName")?, field(s, "metricSelector"))?,
        );
        o.insert("current", current(Some(value), average, None));
        out.insert("external", Value::Map(o));
    }
    Some(Value::Map(out))
}

/// One v1 condition (from the annotation) as v2's.
fn v2_condition(c: &Map) -> Option<Value> {
    let mut out = Map::new();
    out.insert("type", Value::from(text(c, "type")?));
    out.insert("status", Value::from(text(c, "status")?));
    out.insert(
        "lastTransitionTime",
        match field(c, "lastTransitionTime") {
            None => Value::Null,
            Some(Value::String(s)) => Value::from(s.to_string()),
            Some(_) => return None,
        },
    );
    for key in ["reason", "message"] {
        let t = text(c, key)?;
        if !t.is_empty() {
            out.insert(key, Value::from(t));
        }
    }
    insert_opt(
        &mut out,
        "observedGeneration",
        int32(c, "observedGeneration").ok()?,
    );
    Some(Value::Map(out))
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
