//! The internal version: what a served object loses or gains on its way through the types the
//! API server really holds (`k8s.io/kubernetes` v1.37.2 `pkg/apis/<group>`), and what the
//! registry strategies do with the fields only that version has.
//!
//! The server decodes a body into its served version, defaults it and converts it to the
//! internal version; the field manager, the storage and the answer see it converted back. Most
//! kinds come back as they went; the hand-written conversions of the served versions
//! (`pkg/apis/*/v*/conversion.go`) do not:
//!
//! - apps/v1 DaemonSet: the annotation `deprecated.daemonset.template.generation` is the
//!   internal `spec.templateGeneration` (read with Go's `strconv.ParseInt`, an unparsable one
//!   refused), written back always: a body without it comes back with `"0"`.
//! - apps/v1 Deployment: `deprecated.deployment.rollback.to` is `spec.rollbackTo.revision`
//!   when not empty (an empty one is dropped, an unparsable one refused).
//! - apps/v1 StatefulSet: each volume claim template comes back with `apiVersion: v1` and
//!   `kind: PersistentVolumeClaim`.
//! - autoscaling/v2 HorizontalPodAutoscaler: the annotations autoscaling/v1 keeps the v2
//!   fields in are dropped.
//! - autoscaling/v1 HorizontalPodAutoscaler: converted to v2 (which holds what the internal
//!   version holds) and back ([`super::conversion`]): with no `targetCPUUtilizationPercentage`
//!   and no metrics annotation, the internal default metric (80% CPU) comes back as the
//!   target; the round-trip annotations come back for what the internal version holds beside
//!   the CPU target (other metrics, the behavior, current metrics, conditions).
//! - core/v1 Secret: `stringData` folded into `data` (its entries winning), and gone.
//! - core/v1 Node: `spec.podCIDR` and `spec.podCIDRs` kept consistent (the single one wins).
//!
//! [`prepare`] is the strategies' part: a DaemonSet's template generation is 1 on create, the
//! stored one on update, counted up when the pod template changes; a Pod's status on create
//! (`Pending`, its QoS class, the scheduling-gated condition); a Namespace's on create
//! (`Active`, the `kubernetes` finalizer), its finalizers kept by an update.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;
use smd_schema::gvk::GroupVersionKind;

use super::DecodeError;

const TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";
const ROLLBACK_TO: &str = "deprecated.deployment.rollback.to";
/// The annotations autoscaling/v1 keeps the internal version's other fields in
/// (`pkg/apis/autoscaling/annotations.go`).
const HPA_ROUND_TRIP: [&str; 6] = [
    "autoscaling.alpha.kubernetes.io/metrics",
    "autoscaling.alpha.kubernetes.io/behavior",
    "autoscaling.alpha.kubernetes.io/scale-down-tolerance",
    "autoscaling.alpha.kubernetes.io/scale-up-tolerance",
    "autoscaling.alpha.kubernetes.io/current-metrics",
    "autoscaling.alpha.kubernetes.io/conditions",
];

/// `object` (decoded and defaulted in the served version of `kind`) converted to the internal
/// version and back, as the server holds it; the conversion's refusal in its words.
pub fn round_trip_internal(kind: &GroupVersionKind, object: &mut Value) -> Result<(), DecodeError> {
    let Some(map) = object.as_map_mut() else {
        return Ok(());
    };
    match (
        kind.group.as_str(),
        kind.version.as_str(),
        kind.kind.as_str(),
    ) {
        ("apps", "v1", "DaemonSet") => {
            let generation = match annotation(map, TEMPLATE_GENERATION) {
                Some(text) => parse_int(text).map_err(|message| DecodeError { message })?,
                None => 0,
            };
            set_annotation(map, TEMPLATE_GENERATION, Some(generation.to_string()));
        }
        ("apps", "v1", "Deployment") => {
            let revision = match annotation(map, ROLLBACK_TO) {
                Some(text) if !text.is_empty() => {
                    Some(parse_int(text).map_err(|e| DecodeError {
                        message: format!(
                            "failed to parse annotation[{ROLLBACK_TO}]={text} as int64: {e}"
                        ),
                    })?)
                }
                _ => None,
            };
            set_annotation(map, ROLLBACK_TO, revision.map(|r| r.to_string()));
        }
        ("apps", "v1", "StatefulSet") => {
            let templates = map
                .get_mut("spec")
                .and_then(Value::as_map_mut)
                .and_then(|spec| spec.get_mut("volumeClaimTemplates"))
                .and_then(Value::as_list_mut);
            for template in templates.into_iter().flatten() {
                if let Some(t) = template.as_map_mut() {
                    t.insert("apiVersion", Value::from("v1"));
                    t.insert("kind", Value::from("PersistentVolumeClaim"));
                }
            }
        }
        ("autoscaling", "v2", "HorizontalPodAutoscaler") => {
            for key in HPA_ROUND_TRIP {
                set_annotation(map, key, None);
            }
        }
        ("autoscaling", "v1", "HorizontalPodAutoscaler") => {
            // v2 holds what the internal version holds: the round trip through it is v1's.
            let v2 = super::conversion::convert(object, "autoscaling/v2");
            *object = super::conversion::convert(&v2, "autoscaling/v1");
        }
        ("", "v1", "Secret") => secret(map),
        ("", "v1", "Node") => node(map),
        _ => {}
    }
    Ok(())
}

/// What the registry strategy of `kind` does with the fields only the internal version has
/// and with the status it sets on create, on a create (`stored` is `None`) or an update
/// through `subresource` (`""`, `status`, `scale`) of `stored` into `object` (both as
/// [`round_trip_internal`] leaves them); `now` is the server's clock (RFC 3339).
pub fn prepare(
    kind: &GroupVersionKind,
    stored: Option<&Value>,
    object: &mut Value,
    subresource: &str,
    now: &str,
) {
    match (
        kind.group.as_str(),
        kind.version.as_str(),
        kind.kind.as_str(),
    ) {
        ("apps", "v1", "DaemonSet") => daemon_set(stored, object, subresource),
        ("", "v1", "Pod") => match stored {
            None => {
                if let Some(map) = object.as_map_mut() {
                    pod_created(map, now);
                }
            }
            Some(old) if subresource == "status" => pod_status_kept(old, object),
            Some(_) => {}
        },
        ("", "v1", "Namespace") => namespace(stored, object, subresource),
        ("", "v1", "PersistentVolumeClaim") if subresource.is_empty() => {
            super::claim::prepare_claim(object, stored);
        }
        _ => {}
    }
}

/// The Namespace strategy: created `Active` with the `kubernetes` finalizer; an update of the
/// main resource keeps the stored finalizers (only the `finalize` subresource changes them).
fn namespace(stored: Option<&Value>, object: &mut Value, subresource: &str) {
    let Some(map) = object.as_map_mut() else {
        return;
    };
    let finalizers = |m: &Map| {
        m.get("spec")
            .and_then(Value::as_map)
            .and_then(|s| s.get("finalizers"))
            .cloned()
    };
    let kept = match stored {
        None => {
            let mut status = Map::new();
            status.insert("phase", Value::from("Active"));
            map.insert("status", Value::Map(status));
            let mut list = finalizers(map)
                .and_then(|f| f.as_list().map(<[Value]>::to_vec))
                .unwrap_or_default();
            if !list.iter().any(|f| f.as_str() == Some("kubernetes")) {
                list.push(Value::from("kubernetes"));
            }
            Some(Value::List(list))
        }
        Some(_) if subresource == "status" => return,
        Some(old) => old.as_map().and_then(finalizers),
    };
    let spec = match map.get_mut("spec").and_then(Value::as_map_mut) {
        Some(spec) => spec,
        None => {
            map.insert("spec", Value::Map(Map::new()));
            match map.get_mut("spec").and_then(Value::as_map_mut) {
                Some(spec) => spec,
                None => return,
            }
        }
    };
    match kept {
        Some(f) => spec.insert("finalizers", f),
        None => spec.remove("finalizers"),
    };
}

/// The DaemonSet strategy's template generation: at least 1 on create, the stored one on an
/// update, counted up when the main resource's update changes the pod template.
fn daemon_set(stored: Option<&Value>, object: &mut Value, subresource: &str) {
    let of = |v: &Value| {
        v.as_map()
            .and_then(|m| annotation(m, TEMPLATE_GENERATION))
            .and_then(|t| parse_int(t).ok())
            .unwrap_or(0)
    };
    let generation = match stored {
        None => of(object).max(1),
        Some(old) => {
            let template = |v: &Value| {
                v.as_map()
                    .and_then(|m| m.get("spec"))
                    .and_then(Value::as_map)
                    .and_then(|s| s.get("template"))
                    .cloned()
            };
            // The status strategy keeps the whole spec.
            if subresource != "status" && template(old) != template(object) {
                of(old).saturating_add(1)
            } else {
                of(old)
            }
        }
    };
    if let Some(map) = object.as_map_mut() {
        set_annotation(map, TEMPLATE_GENERATION, Some(generation.to_string()));
    }
}

/// The Pod strategy's status on create: `Pending`, the scheduling-gated condition when the
/// spec has gates, and the QoS class its resources give.
fn pod_created(pod: &mut Map, now: &str) {
    let spec = pod
        .get("spec")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    let mut status = Map::new();
    status.insert("phase", Value::from("Pending"));
    let gated = spec
        .get("schedulingGates")
        .and_then(Value::as_list)
        .is_some_and(|g| !g.is_empty());
    if gated {
        let mut condition = Map::new();
        condition.insert("type", Value::from("PodScheduled"));
        condition.insert("status", Value::from("False"));
        condition.insert("lastProbeTime", Value::Null);
        condition.insert("lastTransitionTime", Value::from(now));
        condition.insert("reason", Value::from("SchedulingGated"));
        condition.insert(
            "message",
            Value::from("Scheduling is blocked due to non-empty scheduling gates"),
        );
        status.insert("conditions", Value::List(vec![Value::Map(condition)]));
    }
    status.insert("qosClass", Value::from(pod_qos(&spec)));
    pod.insert("status", Value::Map(status));
}

/// The Pod status strategy keeps the QoS class a status update leaves out (only the server
/// computes it).
fn pod_status_kept(old: &Value, object: &mut Value) {
    let qos = |v: &Value| {
        v.as_map()
            .and_then(|m| m.get("status"))
            .and_then(Value::as_map)
            .and_then(|s| s.get("qosClass"))
            .and_then(Value::as_str)
            .filter(|q| !q.is_empty())
            .map(str::to_owned)
    };
    if qos(object).is_some() {
        return;
    }
    if let (Some(kept), Some(map)) = (qos(old), object.as_map_mut()) {
        map.map_entry("status")
            .insert("qosClass", Value::from(kept));
    }
}

/// `ComputePodQOS`: from the pod-level resources when they are set, else from every init and
/// main container's: BestEffort with no CPU or memory requests or limits, Guaranteed when
/// both are set and equal everywhere, Burstable otherwise.
fn pod_qos(spec: &Map) -> &'static str {
    if let Some(resources) = spec.get("resources").and_then(Value::as_map)
        && ["requests", "limits"].iter().any(|k| {
            resources
                .get(k)
                .and_then(Value::as_map)
                .is_some_and(|m| m.keys().any(|r| r == "cpu" || r == "memory"))
        })
    {
        return requirements_qos(Some(resources));
    }
    let mut pod = None;
    for key in ["initContainers", "containers"] {
        for container in spec.get(key).and_then(Value::as_list).into_iter().flatten() {
            let resources = container
                .as_map()
                .and_then(|c| c.get("resources"))
                .and_then(Value::as_map);
            let qos = requirements_qos(resources);
            match pod {
                _ if qos == "Burstable" => return qos,
                None => pod = Some(qos),
                Some(p) if p != qos => return "Burstable",
                Some(_) => {}
            }
        }
    }
    pod.unwrap_or("BestEffort")
}

fn requirements_qos(resources: Option<&Map>) -> &'static str {
    let list = |k: &str| {
        resources
            .and_then(|r| r.get(k))
            .and_then(Value::as_map)
            .cloned()
            .unwrap_or_default()
    };
    let (requests, limits) = (list("requests"), list("limits"));
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    let mut qos = None;
    for resource in ["cpu", "memory"] {
        let amount = |m: &Map| {
            m.get(resource)
                .and_then(Value::as_str)
                .unwrap_or("0")
                .to_owned()
        };
        let (req, lim) = (amount(&requests), amount(&limits));
        let this = if !super::quantity::same_value(&req, &lim) {
            "Burstable"
        } else if super::quantity::is_zero(&req) {
            "BestEffort"
        } else {
            "Guaranteed"
        };
        match qos {
            _ if this == "Burstable" => return this,
            None => qos = Some(this),
            Some(q) if q != this => return "Burstable",
            Some(_) => {}
        }
    }
    qos.unwrap_or("BestEffort")
}

/// The behavior annotation as the conversion reads it into the internal
/// `HorizontalPodAutoscalerBehavior` (Go field names, matched case-insensitively, no `json`
/// tags) and writes it back (every field, nil ones as `null`); `None` when it does not decode
/// or holds neither direction.
pub(crate) fn hpa_behavior_text(text: &str) -> Option<String> {
    let value = Value::from_json(text).ok()?;
    let Value::Map(behavior) = value else {
        return None;
    };
    let up = hpa_rules(field(&behavior, "ScaleUp"))?;
    let down = hpa_rules(field(&behavior, "ScaleDown"))?;
    if up.is_none() && down.is_none() {
        return None;
    }
    let text = |r: Option<String>| r.unwrap_or_else(|| "null".to_owned());
    Some(format!(
        "{{\"ScaleUp\":{},\"ScaleDown\":{}}}",
        text(up),
        text(down)
    ))
}

/// One direction's `HPAScalingRules`: `Some(None)` for nil, `None` when it does not decode.
fn hpa_rules(value: Option<&Value>) -> Option<Option<String>> {
    let rules = match value {
        None | Some(Value::Null) => return Some(None),
        Some(Value::Map(m)) => m,
        Some(_) => return None,
    };
    let window = match field(rules, "StabilizationWindowSeconds") {
        None | Some(Value::Null) => "null".to_owned(),
        Some(v) => int32(v)?.to_string(),
    };
    let mut out = format!("{{\"StabilizationWindowSeconds\":{window},\"SelectPolicy\":");
    match field(rules, "SelectPolicy") {
        None | Some(Value::Null) => out.push_str("null"),
        Some(Value::String(p)) => smd_fieldpath::value::gojson::write_string(&mut out, p),
        Some(_) => return None,
    }
    out.push_str(",\"Policies\":");
    match field(rules, "Policies") {
        None | Some(Value::Null) => out.push_str("null"),
        Some(Value::List(policies)) => {
            out.push('[');
            for (i, policy) in policies.iter().enumerate() {
                let Value::Map(p) = policy else {
                    return None;
                };
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"Type\":");
                match field(p, "Type") {
                    None | Some(Value::Null) => out.push_str("\"\""),
                    Some(Value::String(t)) => {
                        smd_fieldpath::value::gojson::write_string(&mut out, t);
                    }
                    Some(_) => return None,
                }
                let number = |k: &str| match field(p, k) {
                    None | Some(Value::Null) => Some(0),
                    Some(v) => int32(v),
                };
                out.push_str(&format!(
                    ",\"Value\":{},\"PeriodSeconds\":{}}}",
                    number("Value")?,
                    number("PeriodSeconds")?
                ));
            }
            out.push(']');
        }
        Some(_) => return None,
    }
    out.push_str(",\"Tolerance\":");
    match field(rules, "Tolerance") {
        None | Some(Value::Null) => out.push_str("null"),
        Some(Value::String(q)) => {
            let canonical = super::quantity::canonical(q.trim()).ok()?;
            smd_fieldpath::value::gojson::write_string(&mut out, &canonical);
        }
        Some(Value::Int(n)) => {
            let canonical = super::quantity::canonical(&n.to_string()).ok()?;
            smd_fieldpath::value::gojson::write_string(&mut out, &canonical);
        }
        Some(_) => return None,
    }
    out.push('}');
    Some(Some(out))
}

/// A struct field as `encoding/json` finds it for a Go field name: the exact key, else one
/// equal to it ignoring case.
fn field<'a>(map: &'a Map, name: &str) -> Option<&'a Value> {
    map.get(name).or_else(|| {
        map.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    })
}

/// A JSON integer that fits an `int32`.
fn int32(v: &Value) -> Option<i32> {
    v.as_int().and_then(|n| i32::try_from(n).ok())
}

/// core/v1 Secret: `stringData` written over `data`, then gone.
fn secret(map: &mut Map) {
    let Some(Value::Map(strings)) = map.remove("stringData") else {
        return;
    };
    if strings.is_empty() {
        return;
    }
    let mut data = map
        .get("data")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    for (k, v) in strings.iter() {
        let bytes = v.as_str().unwrap_or("").as_bytes();
        data.insert(k, Value::from(super::roundtrip::base64_encode(bytes)));
    }
    data.sort_keys();
    map.insert("data", Value::Map(data));
}

/// core/v1 Node: the internal version has `podCIDRs` only; a `podCIDR` given is its first (or
/// only, when they differ) entry, and the first entry is written back as `podCIDR`.
fn node(map: &mut Map) {
    let Some(spec) = map.get_mut("spec").and_then(Value::as_map_mut) else {
        return;
    };
    let single = spec
        .get("podCIDR")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let first = spec
        .get("podCIDRs")
        .and_then(Value::as_list)
        .and_then(|l| l.first())
        .and_then(Value::as_str)
        .map(str::to_owned);
    if !single.is_empty() && first.as_deref() != Some(single.as_str()) {
        spec.insert("podCIDRs", Value::List(vec![Value::from(single)]));
    } else if single.is_empty()
        && let Some(first) = first
    {
        spec.insert("podCIDR", Value::from(first));
    }
}

fn annotation<'a>(map: &'a Map, key: &str) -> Option<&'a str> {
    map.get("metadata")
        .and_then(Value::as_map)
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_map)
        .and_then(|a| a.get(key))
        .and_then(Value::as_str)
}

/// Sets (or, with `None`, removes) one annotation; an annotations map left empty goes, as
/// `omitempty` drops it.
fn set_annotation(map: &mut Map, key: &str, value: Option<String>) {
    let Some(metadata) = map.get_mut("metadata").and_then(Value::as_map_mut) else {
        if value.is_none() {
            return;
        }
        map.insert("metadata", Value::Map(Map::new()));
        return set_annotation(map, key, value);
    };
    let mut annotations = metadata
        .get("annotations")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    match value {
        Some(v) => {
            annotations.insert(key, Value::from(v));
            annotations.sort_keys();
        }
        None => {
            if annotations.remove(key).is_none() {
                return;
            }
        }
    }
    if annotations.is_empty() {
        metadata.remove("annotations");
    } else {
        metadata.insert("annotations", Value::Map(annotations));
    }
}

/// Go's `strconv.ParseInt(text, 10, 64)`, its error in its words.
fn parse_int(text: &str) -> Result<i64, String> {
    let quoted = Value::from(text).to_string();
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "strconv.ParseInt: parsing {quoted}: invalid syntax"
        ));
    }
    text.strip_prefix('+')
        .unwrap_or(text)
        .parse::<i64>()
        .map_err(|_| format!("strconv.ParseInt: parsing {quoted}: value out of range"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn gvk(g: &str, v: &str, k: &str) -> GroupVersionKind {
        GroupVersionKind::new(g, v, k)
    }

    #[test]
    fn parse_int_as_go() {
        assert_eq!(parse_int("+07"), Ok(7));
        assert_eq!(parse_int("-3"), Ok(-3));
        assert_eq!(
            parse_int("abc"),
            Err("strconv.ParseInt: parsing \"abc\": invalid syntax".into())
        );
        assert_eq!(
            parse_int(""),
            Err("strconv.ParseInt: parsing \"\": invalid syntax".into())
        );
        assert_eq!(
            parse_int("99999999999999999999"),
            Err("strconv.ParseInt: parsing \"99999999999999999999\": value out of range".into())
        );
    }

    #[test]
    fn daemon_set_generation_annotation() {
        let kind = gvk("apps", "v1", "DaemonSet");
        let mut ds = Value::from_json(r#"{"metadata":{"name":"a"},"spec":{}}"#).unwrap();
        round_trip_internal(&kind, &mut ds).unwrap();
        assert_eq!(
            annotation(ds.as_map().unwrap(), TEMPLATE_GENERATION),
            Some("0")
        );
        prepare(&kind, None, &mut ds, "", "");
        assert_eq!(
            annotation(ds.as_map().unwrap(), TEMPLATE_GENERATION),
            Some("1")
        );
        let old = ds.clone();
        let mut new = Value::from_json(
            r#"{"metadata":{"name":"a","annotations":{"deprecated.daemonset.template.generation":"9"}},"spec":{"template":{"x":1}}}"#,
        )
        .unwrap();
        prepare(&kind, Some(&old), &mut new, "", "");
        assert_eq!(
            annotation(new.as_map().unwrap(), TEMPLATE_GENERATION),
            Some("2")
        );
        let mut bad = Value::from_json(
            r#"{"metadata":{"annotations":{"deprecated.daemonset.template.generation":"x"}}}"#,
        )
        .unwrap();
        assert!(round_trip_internal(&kind, &mut bad).is_err());
    }

    #[test]
    fn pod_qos_classes() {
        let spec = |json: &str| Value::from_json(json).unwrap().as_map().cloned().unwrap();
        assert_eq!(
            pod_qos(&spec(r#"{"containers":[{"name":"a"}]}"#)),
            "BestEffort"
        );
        assert_eq!(
            pod_qos(&spec(
                r#"{"containers":[{"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1000m","memory":"1024Mi"}}}]}"#
            )),
            "Guaranteed"
        );
        assert_eq!(
            pod_qos(&spec(
                r#"{"initContainers":[{}],"containers":[{"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}]}"#
            )),
            "Burstable"
        );
        assert_eq!(
            pod_qos(&spec(
                r#"{"containers":[{"resources":{"limits":{"cpu":"1"}}}]}"#
            )),
            "Burstable"
        );
    }

    #[test]
    fn secret_string_data_folded() {
        let kind = gvk("", "v1", "Secret");
        let mut s = Value::from_json(r#"{"data":{"a":"eA==","b":"eQ=="},"stringData":{"a":"hi"}}"#)
            .unwrap();
        round_trip_internal(&kind, &mut s).unwrap();
        assert_eq!(
            s,
            Value::from_json(r#"{"data":{"a":"aGk=","b":"eQ=="}}"#).unwrap()
        );
    }
}
