//! A pod's containers (`validateContainers`, `validateInitContainers`,
//! `validateContainerCommon`): names, images, ports, environment, mounts, pull policy,
//! resources, probes and lifecycle handlers.

use smd_fieldpath::Value;

use super::super::names;
use super::super::{BadValue, ErrorType, FieldError, FieldPath, member, str_at};
use super::{has, int, list, resources, security};

/// `IsRelaxedEnvVarName`'s words.
const RELAXED_ENV_NAME: &str = "a valid environment variable name must consist only of printable ASCII characters other than '='";

/// `supportedPortProtocols`, sorted.
const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];
/// `supportedPullPolicies`, sorted.
const PULL_POLICIES: &[&str] = &["Always", "IfNotPresent", "Never"];
/// The termination message policies, in Go's order.
const MESSAGE_POLICIES: &[&str] = &["File", "FallbackToLogsOnError"];

/// `validateContainers`: at least one, each valid, names unique, probes and lifecycle, host
/// ports unique across them.
pub(super) fn validate_containers(
    containers: Option<&Value>,
    volumes: &[&str],
    host_users: bool,
    path: &FieldPath,
) -> Vec<FieldError> {
    let items: Vec<&Value> = list(containers).collect();
    if items.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let mut errs = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (i, c) in items.iter().enumerate() {
        let p = path.index(i);
        errs.extend(common(c, volumes, host_users, &p));
        let name = str_at(c, &["name"]);
        if seen.contains(&name) {
            errs.push(FieldError::duplicate(&p.child("name"), BadValue::str(name)));
        } else {
            seen.push(name);
        }
        errs.extend(probes_and_lifecycle(c, &p));
        errs.extend(restart_policy(c, &p));
    }
    errs.extend(host_port_conflicts(&items, path));
    errs
}

/// `validateInitContainers`: each valid, names unique among all containers, host ports
/// unique within each, probes and lifecycle only for a sidecar (`restartPolicy: Always`).
pub(super) fn validate_init_containers(
    containers: Option<&Value>,
    regular: Option<&Value>,
    volumes: &[&str],
    host_users: bool,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut seen: Vec<&str> = list(regular).map(|c| str_at(c, &["name"])).collect();
    let mut errs = Vec::new();
    for (i, c) in list(containers).enumerate() {
        let p = path.index(i);
        errs.extend(common(c, volumes, host_users, &p));
        errs.extend(restart_policy(c, &p));
        let name = str_at(c, &["name"]);
        if seen.contains(&name) {
            errs.push(FieldError::duplicate(&p.child("name"), BadValue::str(name)));
        } else if !name.is_empty() {
            seen.push(name);
        }
        // Go checks each init container alone, always at the list's first index.
        errs.extend(host_port_conflicts(&[c], path));
        if str_at(c, &["restartPolicy"]) == "Always" {
            errs.extend(probes_and_lifecycle(c, &p));
        } else {
            for key in [
                "lifecycle",
                "livenessProbe",
                "readinessProbe",
                "startupProbe",
            ] {
                if has(c, key) {
                    errs.push(FieldError::forbidden(
                        &p.child(key),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
    }
    errs
}

/// A container's restart policy, sorted (`supportedContainerRestartPolicies`).
const CONTAINER_RESTART_POLICIES: &[&str] = &["Always", "Never", "OnFailure"];
/// The restart rules' actions a 1.37 server takes (both gates on), sorted.
const RESTART_RULE_ACTIONS: &[&str] = &["Restart", "RestartAllContainers"];
/// The exit code operators, sorted.
const EXIT_CODE_OPERATORS: &[&str] = &["In", "NotIn"];

/// `validateContainerRestartPolicy` (container restart rules are on by default in 1.37): a
/// known policy, which rules need; at most 20 rules, each with a known action and exit codes.
fn restart_policy(c: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let rules: Vec<&Value> = list(member(c, "restartPolicyRules")).collect();
    match member(c, "restartPolicy").and_then(Value::as_str) {
        None if rules.is_empty() => return errs,
        None => errs.push(FieldError::required(
            &path.child("restartPolicy"),
            "must specify restartPolicy when restart rules are used",
        )),
        Some(policy) if !CONTAINER_RESTART_POLICIES.contains(&policy) => {
            errs.push(FieldError::not_supported(
                &path.child("restartPolicy"),
                BadValue::str(policy),
                CONTAINER_RESTART_POLICIES,
            ));
        }
        Some(_) => {}
    }
    let rules_path = path.child("restartPolicyRules");
    if rules.len() > 20 {
        errs.push(FieldError::too_many(
            &rules_path,
            i64::try_from(rules.len()).unwrap_or(i64::MAX),
            20,
        ));
    }
    for (i, rule) in rules.iter().enumerate() {
        let p = rules_path.index(i);
        let action = str_at(rule, &["action"]);
        if !RESTART_RULE_ACTIONS.contains(&action) {
            errs.push(FieldError::not_supported(
                &p.child("action"),
                BadValue::str(action),
                RESTART_RULE_ACTIONS,
            ));
        }
        match member(rule, "exitCodes").filter(|v| !v.is_null()) {
            Some(codes) => {
                let operator = str_at(codes, &["operator"]);
                if !EXIT_CODE_OPERATORS.contains(&operator) {
                    errs.push(FieldError::not_supported(
                        &p.child("exitCodes").child("operator"),
                        BadValue::str(operator),
                        EXIT_CODE_OPERATORS,
                    ));
                }
                let values = list(member(codes, "values")).count();
                if values > 255 {
                    errs.push(FieldError::too_many(
                        &p.child("exitCodes").child("values"),
                        i64::try_from(values).unwrap_or(i64::MAX),
                        255,
                    ));
                }
            }
            None => errs.push(FieldError::required(
                &p.child("exitCodes"),
                "must be specified",
            )),
        }
    }
    errs
}

/// `validateContainerCommon`.
fn common(c: &Value, volumes: &[&str], host_users: bool, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name = str_at(c, &["name"]);
    if name.is_empty() {
        errs.push(FieldError::required(&path.child("name"), ""));
    } else {
        errs.extend(dns1123_label(name, &path.child("name")));
    }
    if str_at(c, &["image"]).is_empty() {
        errs.push(FieldError::required(&path.child("image"), ""));
    }
    errs.extend(enum_value(
        str_at(c, &["terminationMessagePolicy"]),
        MESSAGE_POLICIES,
        &path.child("terminationMessagePolicy"),
    ));
    errs.extend(ports(member(c, "ports"), &path.child("ports")));
    errs.extend(env(member(c, "env"), &path.child("env")));
    errs.extend(env_from(member(c, "envFrom"), &path.child("envFrom")));
    errs.extend(volume_mounts(
        member(c, "volumeMounts"),
        volumes,
        &path.child("volumeMounts"),
    ));
    errs.extend(enum_value(
        str_at(c, &["imagePullPolicy"]),
        PULL_POLICIES,
        &path.child("imagePullPolicy"),
    ));
    errs.extend(resources::container_resources(
        member(c, "resources"),
        &path.child("resources"),
    ));
    errs.extend(security::container_security_context(
        member(c, "securityContext"),
        host_users,
        &path.child("securityContext"),
    ));
    errs
}

/// `ValidateEnvFrom`: a relaxed prefix and exactly one source, named.
fn env_from(sources: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, source) in list(sources).enumerate() {
        let p = path.index(i);
        let prefix = str_at(source, &["prefix"]);
        if prefix
            .chars()
            .any(|r| !(' '..='~').contains(&r) || r == '=')
        {
            errs.push(FieldError::invalid(
                &p.child("prefix"),
                BadValue::str(prefix),
                RELAXED_ENV_NAME,
            ));
        }
        let mut count = 0;
        for key in ["configMapRef", "secretRef"] {
            let Some(reference) = member(source, key).filter(|v| !v.is_null()) else {
                continue;
            };
            count += 1;
            let name = str_at(reference, &["name"]);
            let name_path = p.child(key).child("name");
            if name.is_empty() {
                errs.push(FieldError::required(&name_path, ""));
            } else {
                for msg in names::name_is_dns_subdomain(name, true) {
                    errs.push(FieldError::invalid(&name_path, BadValue::str(name), msg));
                }
            }
        }
        if count == 0 {
            errs.push(FieldError::invalid(
                path,
                BadValue::str(""),
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if count > 1 {
            errs.push(FieldError::invalid(
                path,
                BadValue::str(""),
                "may not have more than one field specified at a time",
            ));
        }
    }
    errs
}

/// `ValidateDNS1123Label` of a value at `path`.
pub(super) fn dns1123_label(value: &str, path: &FieldPath) -> Vec<FieldError> {
    names::is_dns1123_label(value)
        .into_iter()
        .map(|msg| FieldError::invalid(path, BadValue::str(value), msg))
        .collect()
}

/// An enum string field Go requires: `Required` when empty, `NotSupported` when unknown.
pub(super) fn enum_value(value: &str, valid: &[&str], path: &FieldPath) -> Vec<FieldError> {
    if value.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    if valid.contains(&value) {
        return Vec::new();
    }
    vec![FieldError::not_supported(path, BadValue::str(value), valid)]
}

/// `IsValidPortName`.
pub(super) fn port_name_problems(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(names::max_len_error(15));
    }
    let b = port.as_bytes();
    if b.is_empty()
        || !b
            .iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
    {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_owned(),
        );
    }
    if !b.iter().any(u8::is_ascii_lowercase) {
        errs.push("must contain at least one letter (a-z)".to_owned());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".to_owned());
    }
    if b.first() == Some(&b'-') || b.last() == Some(&b'-') {
        errs.push("must not begin or end with a hyphen".to_owned());
    }
    errs
}

/// `IsValidPortNum`.
fn port_number_problems(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        return Vec::new();
    }
    vec![names::inclusive_range_error(1, 65535)]
}

/// `validateContainerPorts`.
fn ports(ports: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (i, port) in list(ports).enumerate() {
        let p = path.index(i);
        let name = str_at(port, &["name"]);
        if !name.is_empty() {
            let problems = port_name_problems(name);
            if !problems.is_empty() {
                for msg in problems {
                    errs.push(FieldError::invalid(
                        &p.child("name"),
                        BadValue::str(name),
                        msg,
                    ));
                }
            } else if seen.contains(&name) {
                errs.push(FieldError::duplicate(&p.child("name"), BadValue::str(name)));
            } else {
                seen.push(name);
            }
        }
        match int(port, "containerPort").unwrap_or(0) {
            0 => errs.push(FieldError::required(&p.child("containerPort"), "")),
            n => {
                for msg in port_number_problems(n) {
                    errs.push(FieldError::invalid(
                        &p.child("containerPort"),
                        BadValue::Int(n),
                        msg,
                    ));
                }
            }
        }
        let host_port = int(port, "hostPort").unwrap_or(0);
        if host_port != 0 {
            for msg in port_number_problems(host_port) {
                errs.push(FieldError::invalid(
                    &p.child("hostPort"),
                    BadValue::Int(host_port),
                    msg,
                ));
            }
        }
        let protocol = str_at(port, &["protocol"]);
        if protocol.is_empty() {
            errs.push(FieldError::required(&p.child("protocol"), ""));
        } else if !PROTOCOLS.contains(&protocol) {
            errs.push(FieldError::not_supported(
                &p.child("protocol"),
                BadValue::str(protocol),
                PROTOCOLS,
            ));
        }
    }
    errs
}

/// `AccumulateUniqueHostPorts` over `containers`: a host port is taken once per protocol
/// and host IP.
fn host_port_conflicts(containers: &[&Value], path: &FieldPath) -> Vec<FieldError> {
    let mut taken: Vec<String> = Vec::new();
    let mut errs = Vec::new();
    for (ci, c) in containers.iter().enumerate() {
        for (pi, port) in list(member(c, "ports")).enumerate() {
            let host_port = int(port, "hostPort").unwrap_or(0);
            if host_port == 0 {
                continue;
            }
            let key = format!(
                "{}/{}/{host_port}",
                str_at(port, &["protocol"]),
                str_at(port, &["hostIP"])
            );
            if taken.contains(&key) {
                errs.push(FieldError::duplicate(
                    &path.index(ci).child("ports").index(pi).child("hostPort"),
                    BadValue::Str(key),
                ));
            } else {
                taken.push(key);
            }
        }
    }
    errs
}

/// `ValidateEnv` with relaxed names: each named with printable ASCII other than `=`, and at
/// most one source.
fn env(vars: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (i, var) in list(vars).enumerate() {
        let p = path.index(i);
        let name = str_at(var, &["name"]);
        if name.is_empty() {
            errs.push(FieldError::required(&p.child("name"), ""));
        } else if name.chars().any(|r| !(' '..='~').contains(&r) || r == '=') {
            errs.push(FieldError::invalid(
                &p.child("name"),
                BadValue::str(name),
                RELAXED_ENV_NAME,
            ));
        }
        errs.extend(env_value_from(var, &p.child("valueFrom")));
    }
    errs
}

/// `validateEnvVarValueFrom`: exactly one source, and no `value` beside it.
fn env_value_from(var: &Value, path: &FieldPath) -> Vec<FieldError> {
    let Some(from) = member(var, "valueFrom").filter(|v| !v.is_null()) else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    let mut sources = 0;
    if let Some(field_ref) = member(from, "fieldRef").filter(|v| !v.is_null()) {
        sources += 1;
        errs.extend(field_ref_problems(field_ref, &path.child("fieldRef")));
    }
    if has(from, "resourceFieldRef") {
        sources += 1;
    }
    for key in ["configMapKeyRef", "secretKeyRef"] {
        if let Some(selector) = member(from, key).filter(|v| !v.is_null()) {
            sources += 1;
            errs.extend(key_selector(selector, &path.child(key)));
        }
    }
    if has(from, "fileKeyRef") {
        sources += 1;
    }
    let value = str_at(var, &["value"]);
    if sources == 0 {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(""),
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`",
        ));
    } else if !value.is_empty() {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(""),
            "may not be specified when `value` is not empty",
        ));
    } else if sources > 1 {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(""),
            "may not have more than one field specified at a time",
        ));
    }
    errs
}

/// The field paths the downward API gives an environment variable without a subscript.
const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// The labels `ConvertDownwardAPIFieldLabel` knows for `v1` pods.
const DOWNWARD_LABELS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.serviceAccountName",
    "spec.schedulerName",
    "status.phase",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['app']` to the path and the key.
fn split_subscript(field_path: &str) -> Option<(&str, &str)> {
    let inner = field_path.strip_suffix("']")?;
    let (path, key) = inner.split_once("['")?;
    (!path.is_empty()).then_some((path, key))
}

/// `ConvertDownwardAPIFieldLabel`: the internal field path, or Go's error text.
fn convert_downward_label(version: &str, label: &str) -> Result<String, String> {
    if version != "v1" {
        return Err(format!("unsupported pod version: {version}"));
    }
    if let Some((path, _)) = split_subscript(label) {
        return match path {
            "metadata.annotations" | "metadata.labels" => Ok(label.to_owned()),
            _ => Err(format!("field label does not support subscript: {label}")),
        };
    }
    match label {
        "spec.host" => Ok("spec.nodeName".to_owned()),
        l if DOWNWARD_LABELS.contains(&l) => Ok(l.to_owned()),
        _ => Err(format!("field label not supported: {label}")),
    }
}

/// `validateObjectFieldSelector` with the paths an environment variable may read.
fn field_ref_problems(selector: &Value, path: &FieldPath) -> Vec<FieldError> {
    let api_version = str_at(selector, &["apiVersion"]);
    let field_path = str_at(selector, &["fieldPath"]);
    if api_version.is_empty() {
        return vec![FieldError::required(&path.child("apiVersion"), "")];
    }
    if field_path.is_empty() {
        return vec![FieldError::required(&path.child("fieldPath"), "")];
    }
    let internal = match convert_downward_label(api_version, field_path) {
        Ok(internal) => internal,
        Err(e) => {
            return vec![FieldError::invalid(
                &path.child("fieldPath"),
                BadValue::str(field_path),
                format!("error converting fieldPath: {e}"),
            )];
        }
    };
    if let Some((subscripted, key)) = split_subscript(&internal) {
        let key = match subscripted {
            "metadata.annotations" => key.to_lowercase(),
            "metadata.labels" => key.to_owned(),
            other => {
                return vec![FieldError::invalid(
                    path,
                    BadValue::str(other),
                    "does not support subscript",
                )];
            }
        };
        return names::is_qualified_name(&key)
            .into_iter()
            .map(|msg| FieldError::invalid(path, BadValue::str(key.as_str()), msg))
            .collect();
    }
    if ENV_FIELD_PATHS.contains(&internal.as_str()) {
        return Vec::new();
    }
    vec![FieldError::not_supported(
        &path.child("fieldPath"),
        BadValue::str(internal),
        ENV_FIELD_PATHS,
    )]
}

/// `validateConfigMapKeySelector` / `validateSecretKeySelector`: a subdomain name and a
/// config key.
fn key_selector(selector: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name = str_at(selector, &["name"]);
    for msg in names::is_dns1123_subdomain(name) {
        errs.push(FieldError::invalid(
            &path.child("name"),
            BadValue::str(name),
            msg,
        ));
    }
    let key = str_at(selector, &["key"]);
    if key.is_empty() {
        errs.push(FieldError::required(&path.child("key"), ""));
    } else {
        for msg in config_map_key_problems(key) {
            errs.push(FieldError::invalid(
                &path.child("key"),
                BadValue::str(key),
                msg,
            ));
        }
    }
    errs
}

/// `IsConfigMapKey`.
fn config_map_key_problems(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if key.len() > names::DNS1123_SUBDOMAIN_MAX {
        errs.push(names::max_len_error(names::DNS1123_SUBDOMAIN_MAX));
    }
    if key.is_empty()
        || !key
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'))
    {
        errs.push(names::regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    match key {
        "." => errs.push("must not be '.'".to_owned()),
        ".." => errs.push("must not be '..'".to_owned()),
        k if k.starts_with("..") => errs.push("must not start with '..'".to_owned()),
        _ => {}
    }
    errs
}

/// `ValidateVolumeMounts`: each names a volume of the pod and a unique mount path.
fn volume_mounts(mounts: Option<&Value>, volumes: &[&str], path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut points: Vec<&str> = Vec::new();
    for (i, m) in list(mounts).enumerate() {
        let p = path.index(i);
        let name = str_at(m, &["name"]);
        if name.is_empty() {
            errs.push(FieldError::required(&p.child("name"), ""));
        }
        if !volumes.contains(&name) {
            errs.push(FieldError::not_found(&p.child("name"), BadValue::str(name)));
        }
        let mount_path = str_at(m, &["mountPath"]);
        if mount_path.is_empty() {
            errs.push(FieldError::required(&p.child("mountPath"), ""));
        }
        if points.contains(&mount_path) {
            errs.push(FieldError::invalid(
                &p.child("mountPath"),
                BadValue::str(mount_path),
                "must be unique",
            ));
        }
        points.push(mount_path);
        // Go names the list, not the item, for these two.
        let sub_path = str_at(m, &["subPath"]);
        if !sub_path.is_empty() {
            errs.extend(super::volumes::local_descending_path(
                sub_path,
                &path.child("subPath"),
            ));
        }
        let sub_path_expr = str_at(m, &["subPathExpr"]);
        if !sub_path_expr.is_empty() {
            if !sub_path.is_empty() {
                errs.push(FieldError::invalid(
                    &p.child("subPathExpr"),
                    BadValue::str(sub_path_expr),
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            errs.extend(super::volumes::local_descending_path(
                sub_path_expr,
                &path.child("subPathExpr"),
            ));
        }
    }
    errs
}

/// The probes and the lifecycle a regular container or a sidecar may have.
fn probes_and_lifecycle(c: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(lifecycle) = member(c, "lifecycle").filter(|v| !v.is_null()) {
        for hook in ["postStart", "preStop"] {
            if let Some(handler) = member(lifecycle, hook).filter(|v| !v.is_null()) {
                errs.extend(handler_problems(
                    handler,
                    &path.child("lifecycle").child(hook),
                ));
            }
        }
    }
    for key in ["livenessProbe", "readinessProbe", "startupProbe"] {
        let Some(probe) = member(c, key).filter(|v| !v.is_null()) else {
            continue;
        };
        let p = path.child(key);
        errs.extend(probe_problems(probe, &p));
        if key == "readinessProbe" {
            if let Some(grace) =
                member(probe, "terminationGracePeriodSeconds").and_then(Value::as_int)
            {
                errs.push(FieldError::invalid(
                    &p.child("terminationGracePeriodSeconds"),
                    BadValue::Int(grace),
                    "must not be set for readinessProbes",
                ));
            }
        } else {
            let success = int(probe, "successThreshold").unwrap_or(0);
            if success != 1 {
                errs.push(FieldError::invalid(
                    &p.child("successThreshold"),
                    BadValue::Int(success),
                    "must be 1",
                ));
            }
        }
    }
    errs
}

/// `validateProbe`: one handler, non-negative timings, a positive grace period.
fn probe_problems(probe: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = handler_problems(probe, path);
    for key in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        let n = int(probe, key).unwrap_or(0);
        if n < 0 {
            errs.push(FieldError::new(
                ErrorType::Invalid,
                &path.child(key),
                BadValue::Int(n),
                super::super::meta::IS_NEGATIVE,
            ));
        }
    }
    if let Some(grace) = int(probe, "terminationGracePeriodSeconds")
        && grace <= 0
    {
        errs.push(FieldError::invalid(
            &path.child("terminationGracePeriodSeconds"),
            BadValue::Int(grace),
            "must be greater than 0",
        ));
    }
    errs
}

/// `validateHandler`: exactly one of the handler types, each valid.
fn handler_problems(handler: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut count = 0;
    for key in ["exec", "httpGet", "tcpSocket", "grpc", "sleep"] {
        let Some(action) = member(handler, key).filter(|v| !v.is_null()) else {
            continue;
        };
        let p = path.child(key);
        if count > 0 {
            errs.push(FieldError::forbidden(
                &p,
                "may not specify more than 1 handler type",
            ));
            continue;
        }
        count += 1;
        match key {
            "exec" if list(member(action, "command")).next().is_none() => {
                errs.push(FieldError::required(&p.child("command"), ""));
            }
            "httpGet" => errs.extend(http_get_problems(action, &p)),
            "tcpSocket" => errs.extend(port_num_or_name(member(action, "port"), &p.child("port"))),
            "grpc" => {
                let port = int(action, "port").unwrap_or(0);
                for msg in port_number_problems(port) {
                    errs.push(FieldError::invalid(
                        &p.child("port"),
                        BadValue::Int(port),
                        msg,
                    ));
                }
            }
            _ => {}
        }
    }
    if count == 0 {
        errs.push(FieldError::required(path, "must specify a handler type"));
    }
    errs
}

/// `validateHTTPGetAction` (path, port, scheme).
fn http_get_problems(action: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if str_at(action, &["path"]).is_empty() {
        errs.push(FieldError::required(&path.child("path"), ""));
    }
    errs.extend(port_num_or_name(
        member(action, "port"),
        &path.child("port"),
    ));
    let scheme = str_at(action, &["scheme"]);
    if !["HTTP", "HTTPS"].contains(&scheme) {
        errs.push(FieldError::not_supported(
            &path.child("scheme"),
            BadValue::str(scheme),
            &["HTTP", "HTTPS"],
        ));
    }
    errs
}

/// `ValidatePortNumOrName` of an int-or-string port.
fn port_num_or_name(port: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    match port {
        Some(Value::String(name)) => port_name_problems(name)
            .into_iter()
            .map(|msg| FieldError::invalid(path, BadValue::str(name.as_str()), msg))
            .collect(),
        other => {
            let n = other.and_then(Value::as_int).unwrap_or(0);
            port_number_problems(n)
                .into_iter()
                .map(|msg| FieldError::invalid(path, BadValue::Int(n), msg))
                .collect()
        }
    }
}
