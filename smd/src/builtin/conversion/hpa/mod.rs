//! autoscaling HorizontalPodAutoscaler between v1 and v2, through the internal version
//! (`pkg/apis/autoscaling/v1/conversion.go`; v2 and the internal version hold the same
//! fields). v1 has one metric, the CPU utilization target; the other metrics, the behavior,
//! the current metrics and the conditions ride in annotations (`Go`'s `json.Marshal` of v1's
//! structs, the behavior's of the internal struct with Go's field names), and a v1 object
//! with no metric at all gets the internal default, 80% CPU.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

mod annotations;
mod to_v1;
mod to_v2;

pub(super) use to_v1::v2_to_v1;
pub(super) use to_v2::v1_to_v2;

pub(super) const METRICS: &str = "autoscaling.alpha.kubernetes.io/metrics";
pub(super) const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";
pub(super) const CURRENT_METRICS: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
pub(super) const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
/// Every annotation the conversions own (`DropRoundTripHorizontalPodAutoscalerAnnotations`).
pub(super) const ROUND_TRIP: [&str; 6] = [
    METRICS,
    BEHAVIOR,
    "autoscaling.alpha.kubernetes.io/scale-down-tolerance",
    "autoscaling.alpha.kubernetes.io/scale-up-tolerance",
    CURRENT_METRICS,
    CONDITIONS,
];

pub(super) fn map_at<'a>(map: &'a Map, key: &str) -> Option<&'a Map> {
    map.get(key).and_then(Value::as_map)
}

pub(super) fn list_at<'a>(map: &'a Map, key: &str) -> &'a [Value] {
    map.get(key).and_then(Value::as_list).unwrap_or(&[])
}

/// The metadata with the round-trip annotations dropped (an emptied map goes).
pub(super) fn metadata_without_round_trip(object: &Map) -> Map {
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

pub(super) fn is_cpu_utilization(metric: &Map) -> Option<i64> {
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
