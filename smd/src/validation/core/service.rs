//! Services (`ValidateServiceCreate`, `ValidateServiceUpdate`, `ValidateServiceStatusUpdate`
//! and the `validateService` they share) at 1.37's feature gates (relaxed names, strict IP
//! and CIDR checks, every traffic distribution).
//!
//! The registry changes a Service before it validates it in ways smd's server does not
//! (it allocates no IPs or ports): the storage's `normalizeClusterIPs` and
//! `patchAllocatedValues` and the strategy's `dropTypeDependentFields` are applied here to
//! a copy, and the checks of values only the allocator fills (a required health-check node
//! port) are left to it.

use smd_fieldpath::{Map, Value};

use super::service_ip::{
    cluster_ip_fields, endpoint_ip, headless, legacy_cidr, legacy_ip, upgrade_downgrade,
};
use super::service_registry::{
    ALLOCATED, accessible, int, normalize_create, normalize_update, set_list, spec_of, str_of,
};
use super::{
    invalid_each, labels, object_meta, object_meta_update, pointer, port_num_or_name,
    port_num_problems, present, qualified_name, strings, typed,
};
use crate::validation::{BadValue, FieldError, FieldPath, Rules, at, member, names, str_at};

/// The Service strategies' rules (main resource and `status`).
pub(super) const RULES: Rules = Rules { create, update };

const TOPOLOGY_MODE: &str = "service.kubernetes.io/topology-mode";
const TOPOLOGY_HINTS: &str = "service.kubernetes.io/topology-aware-hints";
const SOURCE_RANGES: &str = "service.beta.kubernetes.io/load-balancer-source-ranges";
fn create(object: &Value) -> Vec<FieldError> {
    let mut spec = spec_of(object);
    normalize_create(&mut spec);
    let mut errs = object_meta(object, true, names::name_is_dns_label);
    errs.extend(service(object, &Value::Map(spec), None, None));
    errs
}

/// `NeedsHealthCheck`.
fn needs_health_check(spec: &Map) -> bool {
    str_of(spec, "type") == "LoadBalancer" && str_of(spec, "externalTrafficPolicy") == "Local"
}

fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    if subresource == "status" {
        let mut errs = object_meta_update(new, old);
        errs.extend(load_balancer_status(new, old));
        return errs;
    }
    // The stored Service is read with its cluster IPs in sync (`defaultOnRead`); one that
    // needs a cluster IP holds the one the allocator gave it, which smd never assigned.
    let mut old_spec = spec_of(old);
    normalize_create(&mut old_spec);
    if str_of(&old_spec, "type") != "ExternalName" && str_of(&old_spec, "clusterIP").is_empty() {
        let ip = ALLOCATED.to_owned();
        old_spec.insert("clusterIP", Value::String(ip.clone()));
        set_list(&mut old_spec, "clusterIPs", &[ip]);
    }
    let mut spec = spec_of(new);
    normalize_update(&mut spec, &old_spec);
    let (old_spec, spec) = (Value::Map(old_spec), Value::Map(spec));
    let mut errs = object_meta_update(new, old);
    let new_ips = strings(member(&spec, "clusterIPs"));
    let old_ips = strings(member(&old_spec, "clusterIPs"));
    errs.extend(upgrade_downgrade(&spec, &old_spec, &new_ips, &old_ips));
    errs.extend(load_balancer_class(&spec, Some(&old_spec)));
    if let (Some(n), Some(o)) = (spec.as_map(), old_spec.as_map()) {
        let hc = |s: &Map| {
            s.get("healthCheckNodePort")
                .and_then(Value::as_int)
                .unwrap_or(0)
        };
        if needs_health_check(o) && needs_health_check(n) && hc(n) != hc(o) && hc(n) != 0 {
            errs.push(FieldError::forbidden(
                &FieldPath::new("spec").child("healthCheckNodePort"),
                "field is immutable",
            ));
        }
    }
    errs.extend(service(new, &spec, Some(&old_spec), Some(old)));
    errs
}

/// `validateLoadBalancerClassField`: only for LoadBalancers, a qualified name, fixed once set.
fn load_balancer_class(spec: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let path = FieldPath::new("spec").child("loadBalancerClass");
    let is_lb = |s: &Value| str_at(s, &["type"]) == "LoadBalancer";
    let class = present(member(spec, "loadBalancerClass"));
    if let Some(old) = old {
        if is_lb(old) && is_lb(spec) && class != present(member(old, "loadBalancerClass")) {
            errs.push(FieldError::invalid(
                &path,
                pointer(class),
                "may not change once set",
            ));
        }
    }
    match class {
        Some(c) if is_lb(spec) => errs.extend(qualified_name(c.as_str().unwrap_or(""), &path)),
        Some(_) => errs.push(FieldError::forbidden(
            &path,
            "may only be used when `type` is 'LoadBalancer'",
        )),
        None => {}
    }
    errs
}

/// `validateService(service, oldService)` on the normalised `spec`.
fn service(
    object: &Value,
    spec: &Value,
    old: Option<&Value>,
    old_object: Option<&Value>,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let annotations = at(object, &["metadata", "annotations"]);
    let annotation = |k: &str| {
        annotations
            .and_then(|a| member(a, k))
            .and_then(Value::as_str)
    };
    if let (Some(mode), Some(hints)) = (annotation(TOPOLOGY_MODE), annotation(TOPOLOGY_HINTS)) {
        if mode != hints {
            errs.push(FieldError::invalid(
                &FieldPath::new("metadata")
                    .child("annotations")
                    .key(TOPOLOGY_MODE),
                BadValue::str(mode),
                format!("must match annotations[{TOPOLOGY_HINTS}] when both are specified"),
            ));
        }
    }
    let sp = FieldPath::new("spec");
    let kind = str_at(spec, &["type"]);
    let ips = strings(member(spec, "clusterIPs"));
    let is_headless = headless(&ips);
    let ports: &[Value] = member(spec, "ports")
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    if ports.is_empty() && !is_headless && kind != "ExternalName" {
        errs.push(FieldError::required(&sp.child("ports"), ""));
    }
    match kind {
        "LoadBalancer" | "NodePort" if is_headless => errs.push(FieldError::invalid(
            &sp.child("clusterIPs").index(0),
            BadValue::str("None"),
            format!("may not be set to 'None' for {kind} services"),
        )),
        "ExternalName" => {
            if !ips.is_empty() {
                errs.push(FieldError::forbidden(
                    &sp.child("clusterIPs"),
                    "may not be set for ExternalName services",
                ));
            }
            if !strings(member(spec, "ipFamilies")).is_empty() {
                errs.push(FieldError::forbidden(
                    &sp.child("ipFamilies"),
                    "may not be set for ExternalName services",
                ));
            }
            if present(member(spec, "ipFamilyPolicy")).is_some() {
                errs.push(FieldError::forbidden(
                    &sp.child("ipFamilyPolicy"),
                    "may not be set for ExternalName services",
                ));
            }
            let name = str_at(spec, &["externalName"]);
            let cname = name.strip_suffix('.').unwrap_or(name);
            if cname.is_empty() {
                errs.push(FieldError::required(&sp.child("externalName"), ""));
            } else {
                errs.extend(invalid_each(
                    &sp.child("externalName"),
                    cname,
                    names::is_dns1123_subdomain(cname),
                ));
            }
        }
        _ => {}
    }
    let mut names_seen: Vec<&str> = Vec::new();
    for (i, port) in ports.iter().enumerate() {
        errs.extend(service_port(
            port,
            ports.len() > 1,
            &mut names_seen,
            &sp.child("ports").index(i),
        ));
    }
    if let Some(selector) = present(member(spec, "selector")) {
        errs.extend(labels(Some(selector), &sp.child("selector")));
    }
    errs.extend(session_affinity(spec, &sp));
    let old_ips = old
        .map(|o| strings(member(o, "clusterIPs")))
        .unwrap_or_default();
    errs.extend(cluster_ip_fields(
        spec,
        str_at(spec, &["clusterIP"]),
        &ips,
        &old_ips,
    ));
    let old_external = old
        .map(|o| strings(member(o, "externalIPs")))
        .unwrap_or_default();
    for (i, ip) in strings(member(spec, "externalIPs")).into_iter().enumerate() {
        let p = sp.child("externalIPs").index(i);
        let ip_errs = legacy_ip(&p, ip, &old_external);
        if ip_errs.is_empty() {
            errs.extend(endpoint_ip(&p, ip));
        }
        errs.extend(ip_errs);
    }
    const TYPES: [&str; 4] = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
    if kind.is_empty() {
        errs.push(FieldError::required(&sp.child("type"), ""));
    } else if !TYPES.contains(&kind) {
        errs.push(FieldError::not_supported(
            &sp.child("type"),
            typed(kind),
            &TYPES,
        ));
    }
    if kind == "ClusterIP" {
        for (i, port) in ports.iter().enumerate() {
            if int(port, "nodePort") != 0 {
                errs.push(FieldError::forbidden(
                    &sp.child("ports").index(i).child("nodePort"),
                    "may not be used when `type` is 'ClusterIP'",
                ));
            }
        }
    }
    errs.extend(duplicate_ports(ports, &sp));
    errs.extend(source_ranges(object, spec, old, old_object));
    let allocate = present(member(spec, "allocateLoadBalancerNodePorts"));
    if allocate.is_some() && kind != "LoadBalancer" {
        errs.push(FieldError::forbidden(
            &sp.child("allocateLoadBalancerNodePorts"),
            "may only be used when `type` is 'LoadBalancer'",
        ));
    }
    if kind == "LoadBalancer" && allocate.is_none() {
        // Go's path leaves out `spec`.
        errs.push(FieldError::required(
            &FieldPath::new("allocateLoadBalancerNodePorts"),
            "",
        ));
    }
    errs.extend(load_balancer_class(spec, None));
    errs.extend(traffic_policies(spec, &sp));
    errs
}

/// `validateServicePort`.
fn service_port<'a>(
    port: &'a Value,
    require_name: bool,
    seen: &mut Vec<&'a str>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name = str_at(port, &["name"]);
    if require_name && name.is_empty() {
        errs.push(FieldError::required(&path.child("name"), ""));
    } else if !name.is_empty() {
        errs.extend(invalid_each(
            &path.child("name"),
            name,
            names::is_dns1123_label(name),
        ));
        if seen.contains(&name) {
            errs.push(FieldError::duplicate(
                &path.child("name"),
                BadValue::str(name),
            ));
        } else {
            seen.push(name);
        }
    }
    let number = int(port, "port");
    for msg in port_num_problems(number) {
        errs.push(FieldError::invalid(
            &path.child("port"),
            BadValue::Int(number),
            msg,
        ));
    }
    let protocol = str_at(port, &["protocol"]);
    if protocol.is_empty() {
        errs.push(FieldError::required(&path.child("protocol"), ""));
    } else if !["SCTP", "TCP", "UDP"].contains(&protocol) {
        errs.push(FieldError::not_supported(
            &path.child("protocol"),
            typed(protocol),
            &["SCTP", "TCP", "UDP"],
        ));
    }
    errs.extend(port_num_or_name(
        member(port, "targetPort"),
        &path.child("targetPort"),
    ));
    if let Some(app) = present(member(port, "appProtocol")).and_then(Value::as_str) {
        errs.extend(qualified_name(app, &path.child("appProtocol")));
    }
    errs
}

/// Duplicate node ports and ports, each per protocol; a duplicate port is shown as the Go
/// struct `core.ServicePort` holding only the protocol and the port.
fn duplicate_ports(ports: &[Value], sp: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut node_ports: Vec<(&str, i64)> = Vec::new();
    for (i, port) in ports.iter().enumerate() {
        let node_port = int(port, "nodePort");
        if node_port == 0 {
            continue;
        }
        let key = (str_at(port, &["protocol"]), node_port);
        if node_ports.contains(&key) {
            errs.push(FieldError::duplicate(
                &sp.child("ports").index(i).child("nodePort"),
                BadValue::Int(node_port),
            ));
        }
        node_ports.push(key);
    }
    let mut seen: Vec<(&str, i64)> = Vec::new();
    for (i, port) in ports.iter().enumerate() {
        let key = (str_at(port, &["protocol"]), int(port, "port"));
        if seen.contains(&key) {
            let shown = format!(
                "{{\"Name\":\"\",\"Protocol\":{},\"AppProtocol\":null,\"Port\":{},\"TargetPort\":0,\"NodePort\":0}}",
                crate::validation::json(&Value::String(key.0.to_owned())),
                key.1
            );
            errs.push(FieldError::duplicate(
                &sp.child("ports").index(i),
                BadValue::Json(shown),
            ));
        }
        seen.push(key);
    }
    errs
}

/// `sessionAffinity` and its config.
fn session_affinity(spec: &Value, sp: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let affinity = str_at(spec, &["sessionAffinity"]);
    let path = sp.child("sessionAffinity");
    if affinity.is_empty() {
        errs.push(FieldError::required(&path, ""));
    } else if affinity != "ClientIP" && affinity != "None" {
        errs.push(FieldError::not_supported(
            &path,
            typed(affinity),
            &["ClientIP", "None"],
        ));
    }
    let config_path = sp.child("sessionAffinityConfig");
    let config = present(member(spec, "sessionAffinityConfig"));
    let detail = "when session affinity type is ClientIP";
    match affinity {
        "ClientIP" => {
            let client = config.and_then(|c| present(member(c, "clientIP")));
            let timeout = client.and_then(|c| present(member(c, "timeoutSeconds")));
            if config.is_none() {
                errs.push(FieldError::required(&config_path, detail));
            } else if client.is_none() {
                errs.push(FieldError::required(&config_path.child("clientIP"), detail));
            } else if let Some(t) = timeout {
                let seconds = t.as_int().unwrap_or(0);
                if seconds <= 0 || seconds > 86400 {
                    errs.push(FieldError::invalid(
                        &config_path.child("clientIP").child("timeoutSeconds"),
                        BadValue::Int(seconds),
                        "must be greater than 0 and less than 86400",
                    ));
                }
            } else {
                errs.push(FieldError::required(
                    &config_path.child("clientIP").child("timeoutSeconds"),
                    detail,
                ));
            }
        }
        "None" if config.is_some() => errs.push(FieldError::forbidden(
            &config_path,
            "must not be set when session affinity is None",
        )),
        _ => {}
    }
    errs
}

/// `loadBalancerSourceRanges`, or the annotation that preceded it.
fn source_ranges(
    object: &Value,
    spec: &Value,
    old: Option<&Value>,
    old_object: Option<&Value>,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let is_lb = str_at(spec, &["type"]) == "LoadBalancer";
    let only_lb = "may only be used when `type` is 'LoadBalancer'";
    let ranges = strings(member(spec, "loadBalancerSourceRanges"));
    if !ranges.is_empty() {
        // Go's path keeps the field's capital letter.
        let path = FieldPath::new("spec").child("LoadBalancerSourceRanges");
        if !is_lb {
            errs.push(FieldError::forbidden(&path, only_lb));
        }
        let existing: Vec<String> = old
            .map(|o| strings(member(o, "loadBalancerSourceRanges")))
            .unwrap_or_default()
            .into_iter()
            .map(|s| s.trim().to_owned())
            .collect();
        for (i, range) in ranges.iter().enumerate() {
            errs.extend(legacy_cidr(&path.index(i), range.trim(), &existing));
        }
        return errs;
    }
    let Some(value) =
        at(object, &["metadata", "annotations", SOURCE_RANGES]).and_then(Value::as_str)
    else {
        return errs;
    };
    let path = FieldPath::new("metadata")
        .child("annotations")
        .key(SOURCE_RANGES);
    if !is_lb {
        errs.push(FieldError::forbidden(&path, only_lb));
    }
    // An unchanged annotation is not checked again.
    let old_value = old_object.and_then(|o| at(o, &["metadata", "annotations", SOURCE_RANGES]));
    let trimmed = value.trim();
    if old_value.and_then(Value::as_str) != Some(value) && !trimmed.is_empty() {
        for range in trimmed.split(',') {
            errs.extend(legacy_cidr(&path, range.trim(), &[]));
        }
    }
    errs
}

/// External and internal traffic policies, the health-check node port, the traffic
/// distribution.
fn traffic_policies(spec: &Value, sp: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let map = spec.as_map().cloned().unwrap_or_default();
    let external = str_at(spec, &["externalTrafficPolicy"]);
    let path = sp.child("externalTrafficPolicy");
    if !accessible(&map) {
        if !external.is_empty() {
            errs.push(FieldError::invalid(
                &path,
                typed(external),
                "may only be set for externally-accessible services",
            ));
        }
    } else if external.is_empty() {
        errs.push(FieldError::required(&path, ""));
    } else if external != "Cluster" && external != "Local" {
        errs.push(FieldError::not_supported(
            &path,
            typed(external),
            &["Cluster", "Local"],
        ));
    }
    let hc = int(spec, "healthCheckNodePort");
    let hc_path = sp.child("healthCheckNodePort");
    if !needs_health_check(&map) {
        if hc != 0 {
            errs.push(FieldError::invalid(
                &hc_path,
                BadValue::Int(hc),
                "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
            ));
        }
    } else if hc != 0 {
        // A zero port is the allocator's to fill (smd allocates none).
        for msg in port_num_problems(hc) {
            errs.push(FieldError::invalid(&hc_path, BadValue::Int(hc), msg));
        }
    }
    let internal = present(member(spec, "internalTrafficPolicy"));
    let internal_path = sp.child("internalTrafficPolicy");
    match internal.and_then(Value::as_str) {
        None if matches!(
            str_at(spec, &["type"]),
            "NodePort" | "LoadBalancer" | "ClusterIP"
        ) =>
        {
            errs.push(FieldError::required(&internal_path, ""));
        }
        Some(p) if p != "Cluster" && p != "Local" => errs.push(FieldError::not_supported(
            &internal_path,
            typed(p),
            &["Cluster", "Local"],
        )),
        _ => {}
    }
    if let Some(d) = present(member(spec, "trafficDistribution")).and_then(Value::as_str) {
        const KNOWN: [&str; 3] = ["PreferClose", "PreferSameZone", "PreferSameNode"];
        if !KNOWN.contains(&d) {
            errs.push(FieldError::not_supported(
                &sp.child("trafficDistribution"),
                BadValue::str(d),
                &KNOWN,
            ));
        }
    }
    errs
}

/// `ValidateLoadBalancerStatus` of a status update.
fn load_balancer_status(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let path = FieldPath::new("status")
        .child("loadBalancer")
        .child("ingress");
    let ingress: &[Value] = at(new, &["status", "loadBalancer", "ingress"])
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    if str_at(new, &["spec", "type"]) != "LoadBalancer" && !ingress.is_empty() {
        errs.push(FieldError::forbidden(
            &path,
            "may only be used when `spec.type` is 'LoadBalancer'",
        ));
        return errs;
    }
    let old_ips: Vec<&str> = at(old, &["status", "loadBalancer", "ingress"])
        .and_then(Value::as_list)
        .map(|l| {
            l.iter()
                .map(|i| str_at(i, &["ip"]))
                .filter(|ip| !ip.is_empty())
                .collect()
        })
        .unwrap_or_default();
    for (i, item) in ingress.iter().enumerate() {
        let p = path.index(i);
        let ip = str_at(item, &["ip"]);
        if !ip.is_empty() {
            errs.extend(legacy_ip(&p.child("ip"), ip, &old_ips));
        }
        let mode = present(member(item, "ipMode"));
        match mode {
            None if !ip.is_empty() => errs.push(FieldError::required(
                &p.child("ipMode"),
                "must be specified when `ip` is set",
            )),
            Some(_) if ip.is_empty() => errs.push(FieldError::forbidden(
                &p.child("ipMode"),
                "may not be specified when `ip` is not set",
            )),
            Some(m) if !matches!(m.as_str(), Some("Proxy" | "VIP")) => errs.push(
                FieldError::not_supported(&p.child("ipMode"), pointer(Some(m)), &["Proxy", "VIP"]),
            ),
            _ => {}
        }
        let host = str_at(item, &["hostname"]);
        if !host.is_empty() {
            errs.extend(invalid_each(
                &p.child("hostname"),
                host,
                names::is_dns1123_subdomain(host),
            ));
            if super::service_ip::parse_sloppy(host).is_some() {
                errs.push(FieldError::invalid(
                    &p.child("hostname"),
                    BadValue::str(host),
                    "must be a DNS name, not an IP address",
                ));
            }
        }
    }
    errs
}
