//! How the Service registry changes a Service before it validates it, where smd's server does
//! not (it allocates no IPs or ports): the storage's `normalizeClusterIPs`,
//! `patchAllocatedValues` and `defaultOnRead`, the allocator's keeping of IP families, and the
//! strategy's `dropTypeDependentFields`, applied to a copy of the spec.

use smd_fieldpath::{Map, Value};

use super::{present, strings};
use crate::validation::member;

/// Stands for the cluster IP the real server allocated where smd allocated none.
pub(super) const ALLOCATED: &str = "<allocated>";

pub(super) fn spec_of(object: &Value) -> Map {
    member(object, "spec")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default()
}

pub(super) fn list_of(spec: &Map, name: &str) -> Vec<String> {
    strings(spec.get(name))
        .into_iter()
        .map(str::to_owned)
        .collect()
}

pub(super) fn set_list(spec: &mut Map, name: &str, items: &[String]) {
    if items.is_empty() {
        spec.remove(name);
    } else {
        let values = items.iter().map(|s| Value::String(s.clone())).collect();
        spec.insert(name, Value::List(values));
    }
}

pub(super) fn str_of<'a>(spec: &'a Map, name: &str) -> &'a str {
    spec.get(name).and_then(Value::as_str).unwrap_or("")
}

/// The spec with the cluster IPs as `normalizeClusterIPs` leaves them on create.
pub(super) fn normalize_create(spec: &mut Map) {
    let ip = str_of(spec, "clusterIP").to_owned();
    if !ip.is_empty() && list_of(spec, "clusterIPs").is_empty() {
        set_list(spec, "clusterIPs", &[ip]);
    }
}

/// The registry's view of an update's spec: allocated values kept, cluster IPs normalised,
/// fields of the old type dropped (`patchAllocatedValues`, `normalizeClusterIPs`,
/// `dropTypeDependentFields`).
pub(super) fn normalize_update(new: &mut Map, old: &Map) {
    let needs_ip = |s: &Map| str_of(s, "type") != "ExternalName";
    if needs_ip(old) && needs_ip(new) {
        if str_of(new, "clusterIP").is_empty() {
            let ip = str_of(old, "clusterIP").to_owned();
            new.insert("clusterIP", Value::String(ip));
        }
        if list_of(new, "clusterIPs").is_empty() {
            set_list(new, "clusterIPs", &list_of(old, "clusterIPs"));
        }
    }
    let (old_ip, new_ip) = (
        str_of(old, "clusterIP").to_owned(),
        str_of(new, "clusterIP").to_owned(),
    );
    let (old_ips, new_ips) = (list_of(old, "clusterIPs"), list_of(new, "clusterIPs"));
    if !old_ips.is_empty() && new_ips.is_empty() && old_ip == new_ip {
        set_list(new, "clusterIPs", &old_ips);
    }
    let same_ips =
        |n: &Map| str_of(n, "clusterIP") == old_ip && list_of(n, "clusterIPs") == old_ips;
    if old_ip != new_ip && same_ips_list(new, &old_ips) {
        if !old_ip.is_empty() && new_ip.is_empty() {
            new.remove("clusterIPs");
        } else {
            set_list(new, "clusterIPs", std::slice::from_ref(&new_ip));
        }
    }
    if needs_ip(old) && !needs_ip(new) {
        if same_ips(new) {
            new.remove("clusterIP");
            new.remove("clusterIPs");
        }
        if present(new.get("ipFamilies")) == present(old.get("ipFamilies")) {
            new.remove("ipFamilies");
        }
        if present(new.get("ipFamilyPolicy")) == present(old.get("ipFamilyPolicy")) {
            new.remove("ipFamilyPolicy");
        }
    }
    let node_ports = |s: &Map| -> Vec<i64> {
        s.get("ports")
            .and_then(Value::as_list)
            .map(|l| l.iter().map(|p| int(p, "nodePort")).collect())
            .unwrap_or_default()
    };
    // The allocator keeps the families and policy an update leaves out (`initIPFamilyFields`).
    if needs_ip(old) && needs_ip(new) {
        for name in ["ipFamilies", "ipFamilyPolicy"] {
            let missing = match new.get(name) {
                None | Some(Value::Null) => true,
                Some(Value::List(l)) => l.is_empty(),
                Some(_) => false,
            };
            if missing {
                if let Some(v) = present(old.get(name)).cloned() {
                    new.insert(name, v);
                }
            }
        }
    }
    let needs_node_port = |s: &Map| matches!(str_of(s, "type"), "NodePort" | "LoadBalancer");
    if needs_node_port(old) && !needs_node_port(new) && node_ports(old) == node_ports(new) {
        if let Some(ports) = new.get_mut("ports").and_then(Value::as_list_mut) {
            for p in ports.iter_mut().filter_map(Value::as_map_mut) {
                p.remove("nodePort");
            }
        }
    }
    let needs_hc = |s: &Map| {
        str_of(s, "type") == "LoadBalancer" && str_of(s, "externalTrafficPolicy") == "Local"
    };
    let hc = |s: &Map| {
        s.get("healthCheckNodePort")
            .and_then(Value::as_int)
            .unwrap_or(0)
    };
    if needs_hc(old) && !needs_hc(new) && hc(old) == hc(new) {
        new.remove("healthCheckNodePort");
    }
    let is_lb = |s: &Map| str_of(s, "type") == "LoadBalancer";
    if is_lb(old) && !is_lb(new) {
        let allocate = |s: &Map| present(s.get("allocateLoadBalancerNodePorts")).cloned();
        if allocate(new).is_some() && allocate(new) == allocate(old) {
            new.remove("allocateLoadBalancerNodePorts");
        }
        let class = |s: &Map| present(s.get("loadBalancerClass")).cloned();
        if class(new) == class(old) {
            new.remove("loadBalancerClass");
        }
    }
    if accessible(old)
        && !accessible(new)
        && str_of(new, "externalTrafficPolicy") == str_of(old, "externalTrafficPolicy")
    {
        new.remove("externalTrafficPolicy");
    }
}

fn same_ips_list(new: &Map, old_ips: &[String]) -> bool {
    list_of(new, "clusterIPs") == old_ips
}

/// `ExternallyAccessible`.
pub(super) fn accessible(spec: &Map) -> bool {
    match str_of(spec, "type") {
        "LoadBalancer" | "NodePort" => true,
        "ClusterIP" => !list_of(spec, "externalIPs").is_empty(),
        _ => false,
    }
}

/// An integer member, 0 when absent (Go's zero value).
pub(super) fn int(value: &Value, name: &str) -> i64 {
    member(value, name).and_then(Value::as_int).unwrap_or(0)
}
