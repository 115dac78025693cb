//! `ValidatePodStatusUpdate`: what a write to a pod's `status` subresource may not do.

use smd_fieldpath::Value;

use super::super::meta;
use super::super::names;
use super::super::{BadValue, FieldError, FieldPath, member, str_at};
use super::{int, list};

/// The conditions the system owns, whose types need no qualified name.
const SYSTEM_CONDITIONS: &[&str] = &["PodScheduled", "Ready", "Initialized"];

/// `ValidatePodStatusUpdate(new, old, opts)`: the metadata's update rules, then the status:
/// condition types, the nominated node, generations, the QoS class, the pod and host IPs.
pub(super) fn validate_pod_status_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let null = Value::Null;
    let mut errs = meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"));
    let path = FieldPath::new("status");
    let status = member(new, "status").unwrap_or(&null);
    let old_status = member(old, "status").unwrap_or(&null);
    for (i, condition) in list(member(status, "conditions")).enumerate() {
        let p = path.child("conditions").index(i);
        if let Some(g) = int(condition, "observedGeneration")
            && g < 0
        {
            errs.push(FieldError::invalid(
                &p.child("observedGeneration"),
                BadValue::Int(g),
                "must be a non-negative integer",
            ));
        }
        let kind = str_at(condition, &["type"]);
        if !SYSTEM_CONDITIONS.contains(&kind) {
            for msg in names::is_qualified_name(kind) {
                errs.push(FieldError::invalid(
                    &p.child("Type"),
                    BadValue::str(kind),
                    msg,
                ));
            }
        }
    }
    if str_at(new, &["spec", "nodeName"]) != str_at(old, &["spec", "nodeName"]) {
        errs.push(FieldError::forbidden(
            &path.child("nodeName"),
            "may not be changed directly",
        ));
    }
    let nominated = str_at(status, &["nominatedNodeName"]);
    let old_nominated = str_at(old_status, &["nominatedNodeName"]);
    if nominated != old_nominated && !nominated.is_empty() {
        for msg in names::name_is_dns_subdomain(nominated, false) {
            errs.push(FieldError::invalid(
                &path.child("nominatedNodeName"),
                BadValue::str(nominated),
                msg,
            ));
        }
    }
    if let Some(g) = int(status, "observedGeneration")
        && g < 0
    {
        errs.push(FieldError::invalid(
            &path.child("observedGeneration"),
            BadValue::Int(g),
            "must be a non-negative integer",
        ));
    }
    // The status strategy backfills an empty class with the old one before validating, so
    // only a class the request names can differ.
    let qos = str_at(status, &["qosClass"]);
    if !qos.is_empty() && qos != str_at(old_status, &["qosClass"]) {
        errs.push(FieldError::invalid(
            &path.child("qosClass"),
            BadValue::str(qos),
            meta::IMMUTABLE,
        ));
    }
    errs.extend(pod_ips(status, &path));
    errs.extend(host_ips(status, &path));
    errs
}

/// The IP addresses of a `podIPs` or `hostIPs` list.
fn ips(status: &Value, key: &str) -> Vec<String> {
    list(member(status, key))
        .map(|entry| str_at(entry, &["ip"]).to_owned())
        .collect()
}

/// A list of IPs as Go's JSON shows the internal type (its field is `IP`, untagged).
fn internal_ips_json(addresses: &[String]) -> String {
    let items: Vec<String> = addresses
        .iter()
        .map(|ip| {
            format!(
                "{{\"IP\":{}}}",
                super::super::json(&Value::from(ip.as_str()))
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// The consistency rules of `validatePodIPs` (not the addresses' syntax).
fn pod_ips(status: &Value, path: &FieldPath) -> Vec<FieldError> {
    let addresses = ips(status, "podIPs");
    let pod_ip = str_at(status, &["podIP"]);
    let p = path.child("podIPs");
    if pod_ip.is_empty() != addresses.is_empty() {
        return vec![FieldError::invalid(
            &p,
            if addresses.is_empty() {
                BadValue::null()
            } else {
                BadValue::Json(internal_ips_json(&addresses))
            },
            "podIP and podIPs must either both be set or both be unset",
        )];
    }
    match addresses.first() {
        Some(first) if first != pod_ip => vec![FieldError::invalid(
            &p.index(0).child("ip"),
            BadValue::str(first.as_str()),
            "must be equal to `podIP`",
        )],
        _ => Vec::new(),
    }
}

/// The first rule of `validateHostIPs`: `hostIPs[0]` is `hostIP`.
fn host_ips(status: &Value, path: &FieldPath) -> Vec<FieldError> {
    let addresses = ips(status, "hostIPs");
    match addresses.first() {
        Some(first) if first != str_at(status, &["hostIP"]) => vec![FieldError::invalid(
            &path.child("hostIPs").index(0).child("ip"),
            BadValue::str(first.as_str()),
            "must be equal to `hostIP`",
        )],
        _ => Vec::new(),
    }
}
