//! `ValidatePodSpec`: the spec's own fields, in the order Go checks them, around the volumes
//! and containers their modules check.

use smd_fieldpath::Value;

use super::super::meta::{string_list, validate_label_name, validate_labels};
use super::super::names;
use super::super::{BadValue, FieldError, FieldPath, member, str_at};
use super::containers::{dns1123_label, validate_containers, validate_init_containers};
use super::{int, list, scheduling, security, volumes};

/// The restart policies, in Go's order.
const RESTART_POLICIES: &[&str] = &["Always", "OnFailure", "Never"];
/// The DNS policies, in Go's order.
const DNS_POLICIES: &[&str] = &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"];
/// The taint effects a toleration may name, in Go's order.
const TAINT_EFFECTS: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];
/// The preemption policies, in Go's order.
const PREEMPTION_POLICIES: &[&str] = &["PreemptLowerPriority", "Never"];

/// `ValidatePodSpec(spec, podMeta, path, opts)`; `pod_meta` is the pod's metadata (none for a
/// template).
pub(super) fn validate_pod_spec(
    spec: &Value,
    pod_meta: Option<&Value>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if int(spec, "terminationGracePeriodSeconds").is_none() {
        errs.push(FieldError::required(
            &path.child("terminationGracePeriodSeconds"),
            "",
        ));
    }
    // Without `hostUsers: false` the pod shares the host's user namespace.
    let host_users = member(spec, "hostUsers").and_then(Value::as_bool) != Some(false);
    let (volume_names, volume_errs) = volumes::validate_volumes(
        member(spec, "volumes"),
        pod_meta.map(|m| str_at(m, &["name"])),
        &path.child("volumes"),
    );
    errs.extend(volume_errs);
    errs.extend(validate_containers(
        member(spec, "containers"),
        &volume_names,
        host_users,
        &path.child("containers"),
    ));
    errs.extend(validate_init_containers(
        member(spec, "initContainers"),
        member(spec, "containers"),
        &volume_names,
        host_users,
        &path.child("initContainers"),
    ));
    errs.extend(host_network_ports(spec, path));
    errs.extend(policy(
        str_at(spec, &["restartPolicy"]),
        RESTART_POLICIES,
        &path.child("restartPolicy"),
    ));
    errs.extend(policy(
        str_at(spec, &["dnsPolicy"]),
        DNS_POLICIES,
        &path.child("dnsPolicy"),
    ));
    errs.extend(validate_labels(
        member(spec, "nodeSelector"),
        &path.child("nodeSelector"),
    ));
    errs.extend(security::pod_security_context(spec, path));
    errs.extend(scheduling::affinity(
        member(spec, "affinity"),
        &path.child("affinity"),
    ));
    errs.extend(dns_config(spec, &path.child("dnsConfig")));
    for (i, gate) in list(member(spec, "readinessGates")).enumerate() {
        let p = path.child("readinessGates").index(i).child("conditionType");
        errs.extend(qualified_name(str_at(gate, &["conditionType"]), &p));
    }
    let mut gates_seen: Vec<&str> = Vec::new();
    for (i, gate) in list(member(spec, "schedulingGates")).enumerate() {
        let p = path.child("schedulingGates").index(i);
        let name = str_at(gate, &["name"]);
        errs.extend(qualified_name(name, &p));
        if gates_seen.contains(&name) {
            errs.push(FieldError::duplicate(&p, BadValue::str(name)));
        }
        gates_seen.push(name);
    }
    errs.extend(scheduling::topology_spread(
        member(spec, "topologySpreadConstraints"),
        &path.child("topologySpreadConstraints"),
    ));
    let account = str_at(spec, &["serviceAccountName"]);
    if !account.is_empty() {
        errs.extend(invalid_each(
            names::name_is_dns_subdomain(account, false),
            account,
            &path.child("serviceAccountName"),
        ));
    }
    let node = str_at(spec, &["nodeName"]);
    if !node.is_empty() {
        errs.extend(invalid_each(
            names::name_is_dns_subdomain(node, false),
            node,
            &path.child("nodeName"),
        ));
    }
    if let Some(deadline) = int(spec, "activeDeadlineSeconds")
        && !(1..=i64::from(i32::MAX)).contains(&deadline)
    {
        errs.push(FieldError::invalid(
            &path.child("activeDeadlineSeconds"),
            BadValue::Int(deadline),
            names::inclusive_range_error(1, i64::from(i32::MAX)),
        ));
    }
    for key in ["hostname", "subdomain"] {
        let value = str_at(spec, &[key]);
        if !value.is_empty() {
            errs.extend(dns1123_label(value, &path.child(key)));
        }
    }
    errs.extend(tolerations(
        member(spec, "tolerations"),
        &path.child("tolerations"),
    ));
    let priority_class = str_at(spec, &["priorityClassName"]);
    if !priority_class.is_empty() {
        errs.extend(invalid_each(
            names::name_is_dns_subdomain(priority_class, false),
            priority_class,
            &path.child("priorityClassName"),
        ));
    }
    if let Some(runtime_class) = member(spec, "runtimeClassName").and_then(Value::as_str) {
        errs.extend(invalid_each(
            names::name_is_dns_subdomain(runtime_class, false),
            runtime_class,
            &path.child("runtimeClassName"),
        ));
    }
    if let Some(preemption) = member(spec, "preemptionPolicy").and_then(Value::as_str) {
        errs.extend(policy(
            preemption,
            PREEMPTION_POLICIES,
            &path.child("preemptionPolicy"),
        ));
    }
    errs
}

/// Each problem as an `Invalid` of `value` at `path`.
fn invalid_each(problems: Vec<String>, value: &str, path: &FieldPath) -> Vec<FieldError> {
    problems
        .into_iter()
        .map(|msg| FieldError::invalid(path, BadValue::str(value), msg))
        .collect()
}

/// `ValidateQualifiedName` of a value at `path`.
fn qualified_name(value: &str, path: &FieldPath) -> Vec<FieldError> {
    invalid_each(names::is_qualified_name(value), value, path)
}

/// A required enum of the spec (`validateRestartPolicy`, `validateDNSPolicy`).
fn policy(value: &str, valid: &[&str], path: &FieldPath) -> Vec<FieldError> {
    super::containers::enum_value(value, valid, path)
}

/// `validatePodHostNetworkDeps` for a pod or a template: with the host's network, a host
/// port that is set must be the container port.
fn host_network_ports(spec: &Value, path: &FieldPath) -> Vec<FieldError> {
    if member(spec, "hostNetwork").and_then(Value::as_bool) != Some(true) {
        return Vec::new();
    }
    let mut errs = Vec::new();
    for (i, c) in list(member(spec, "containers")).enumerate() {
        for (j, port) in list(member(c, "ports")).enumerate() {
            let host_port = int(port, "hostPort").unwrap_or(0);
            let container_port = int(port, "containerPort").unwrap_or(0);
            // Defaulting has set a pod's host ports to the container ports, so only a
            // differing one set by hand remains.
            if host_port != 0 && host_port != container_port {
                errs.push(FieldError::invalid(
                    &path
                        .child("containers")
                        .index(i)
                        .child("ports")
                        .index(j)
                        .child("hostPort"),
                    BadValue::Int(host_port),
                    "must match `containerPort` when `hostNetwork` is true",
                ));
            }
        }
    }
    errs
}

/// The start of `validatePodDNSConfig`: `dnsPolicy: None` needs a configuration with a name
/// server.
fn dns_config(spec: &Value, path: &FieldPath) -> Vec<FieldError> {
    if str_at(spec, &["dnsPolicy"]) != "None" {
        return Vec::new();
    }
    match member(spec, "dnsConfig").filter(|v| !v.is_null()) {
        None => vec![FieldError::required(
            path,
            "must provide `dnsConfig` when `dnsPolicy` is None",
        )],
        Some(config) if string_list(member(config, "nameservers")).is_empty() => {
            vec![FieldError::required(
                &path.child("nameservers"),
                "must provide at least one DNS nameserver when `dnsPolicy` is None",
            )]
        }
        Some(_) => Vec::new(),
    }
}

/// `ValidateTolerations` with the options of a 1.37 server.
pub(super) fn tolerations(tolerations: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, t) in list(tolerations).enumerate() {
        let p = path.index(i);
        let key = str_at(t, &["key"]);
        let operator = str_at(t, &["operator"]);
        let effect = str_at(t, &["effect"]);
        let value = str_at(t, &["value"]);
        if !key.is_empty() {
            errs.extend(validate_label_name(key, &p.child("key")));
        }
        if key.is_empty() && operator != "Exists" {
            errs.push(FieldError::invalid(
                &p.child("operator"),
                BadValue::str(operator),
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if member(t, "tolerationSeconds").is_some_and(|v| !v.is_null()) && effect != "NoExecute" {
            errs.push(FieldError::invalid(
                &p.child("effect"),
                BadValue::str(effect),
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match operator {
            "Equal" | "" => {
                let problems = names::is_label_value(value);
                if !problems.is_empty() {
                    errs.push(FieldError::invalid(
                        &p.child("operator"),
                        BadValue::str(value),
                        problems.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errs.push(FieldError::invalid(
                        &p.child("operator"),
                        BadValue::str(value),
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            // The numeric comparisons are behind a feature gate a 1.37 server keeps off.
            "Lt" | "Gt" => errs.push(FieldError::not_supported(
                &p.child("operator"),
                BadValue::str(operator),
                &["Equal", "Exists", "Lt", "Gt"],
            )),
            other => errs.push(FieldError::not_supported(
                &p.child("operator"),
                BadValue::str(other),
                &["Equal", "Exists"],
            )),
        }
        if !effect.is_empty() && !TAINT_EFFECTS.contains(&effect) {
            errs.push(FieldError::not_supported(
                &p.child("effect"),
                BadValue::str(effect),
                TAINT_EFFECTS,
            ));
        }
    }
    errs
}
