//! Ingress (`ValidateIngressCreate`, `ValidateIngressUpdate`, `ValidateIngressSpec`, the rules,
//! paths, backends and TLS) and IngressClass (`ValidateIngressClass`, the immutable
//! controller). An update tolerates what the old object already held: an invalid TLS secret
//! name, a wildcard host's invalid rule.

use smd_fieldpath::Value;

use super::super::generic::{immutable, list_at, set_at, typed_str};
use super::super::names::{
    self, is_dns1123_subdomain, is_path_segment_name, name_is_dns_label, name_is_dns_subdomain,
};
use super::super::{BadValue, FieldError, FieldPath, Rules, json, member, str_at};
use super::{port_name_problems, port_num_problems};

/// Ingress's strategy rules (its status strategy's checks of load balancer addresses are not
/// held yet).
pub(super) const INGRESS: Rules = Rules {
    create: ingress_create,
    update: ingress_update,
};

/// IngressClass's strategy rules.
pub(super) const INGRESS_CLASS: Rules = Rules {
    create: class_create,
    update: class_update,
};

#[derive(Clone, Copy, Default)]
struct Options {
    allow_invalid_secret_name: bool,
    allow_invalid_wildcard_host_rule: bool,
}

fn spec_of(object: &Value) -> &Value {
    member(object, "spec").unwrap_or(&Value::Null)
}

fn ingress_create(object: &Value) -> Vec<FieldError> {
    let mut errs = validate(object, Options::default());
    let annotation = super::super::at(object, &["metadata", "annotations"])
        .and_then(|a| member(a, "kubernetes.io/ingress.class"))
        .and_then(Value::as_str);
    let class = member(spec_of(object), "ingressClassName").and_then(Value::as_str);
    if let (Some(a), Some(c)) = (annotation, class) {
        if a != c {
            errs.push(FieldError::invalid(
                &FieldPath::new("annotations").child("kubernetes.io/ingress.class"),
                BadValue::str(a),
                "must match `ingressClassName` when both are specified",
            ));
        }
    }
    errs
}

fn ingress_update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    let mut errs =
        super::super::meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"));
    if subresource == "status" {
        return errs;
    }
    let old_spec = spec_of(old);
    let opts = Options {
        allow_invalid_secret_name: list_at(old_spec, &["tls"])
            .iter()
            .any(|t| !secret_name_problems(str_at(t, &["secretName"])).is_empty()),
        allow_invalid_wildcard_host_rule: list_at(old_spec, &["rules"]).iter().any(|r| {
            str_at(r, &["host"]).contains('*') && !rule_value(r, &FieldPath::default()).is_empty()
        }),
    };
    errs.extend(validate(new, opts));
    errs
}

/// `validateIngress`: the metadata, then `ValidateIngressSpec`.
fn validate(object: &Value, opts: Options) -> Vec<FieldError> {
    let mut errs = super::super::meta::validate_object_meta(
        object,
        true,
        name_is_dns_subdomain,
        &FieldPath::new("metadata"),
    );
    let spec = spec_of(object);
    let path = FieldPath::new("spec");
    let rules = list_at(spec, &["rules"]);
    let default_backend = set_at(spec, &["defaultBackend"]);
    if rules.is_empty() && default_backend.is_none() {
        let shown = member(spec, "rules")
            .filter(|v| !v.is_null())
            .map(|v| BadValue::Json(json(v)))
            .unwrap_or_else(BadValue::null);
        errs.push(FieldError::invalid(
            &path,
            shown,
            "either `defaultBackend` or `rules` must be specified",
        ));
    }
    if let Some(b) = default_backend {
        errs.extend(backend(b, &path.child("defaultBackend")));
    }
    let rules_path = path.child("rules");
    for (i, rule) in rules.iter().enumerate() {
        let p = rules_path.index(i);
        let host = str_at(rule, &["host"]);
        let mut wildcard = false;
        if !host.is_empty() {
            if is_ip(host) {
                errs.push(FieldError::invalid(
                    &p.child("host"),
                    BadValue::str(host),
                    "must be a DNS name, not an IP address",
                ));
            }
            let problems = if host.contains('*') {
                wildcard = true;
                wildcard_subdomain_problems(host)
            } else {
                is_dns1123_subdomain(host)
            };
            errs.extend(
                problems
                    .into_iter()
                    .map(|m| FieldError::invalid(&p.child("host"), BadValue::str(host), m)),
            );
        }
        if !wildcard || !opts.allow_invalid_wildcard_host_rule {
            errs.extend(rule_value(rule, &p));
        }
    }
    let tls_path = path.child("tls");
    for (t, tls) in list_at(spec, &["tls"]).iter().enumerate() {
        for (i, host) in list_at(tls, &["hosts"]).iter().enumerate() {
            let host = host.as_str().unwrap_or("");
            let problems = if host.contains('*') {
                wildcard_subdomain_problems(host)
            } else {
                is_dns1123_subdomain(host)
            };
            let p = tls_path.index(t).child("hosts").index(i);
            errs.extend(
                problems
                    .into_iter()
                    .map(|m| FieldError::invalid(&p, BadValue::str(host), m)),
            );
        }
        if !opts.allow_invalid_secret_name {
            let secret = str_at(tls, &["secretName"]);
            errs.extend(secret_name_problems(secret).into_iter().map(|m| {
                FieldError::invalid(
                    &tls_path.index(t).child("secretName"),
                    BadValue::str(secret),
                    m,
                )
            }));
        }
    }
    if let Some(class) = member(spec, "ingressClassName").and_then(Value::as_str) {
        errs.extend(name_is_dns_subdomain(class, false).into_iter().map(|m| {
            FieldError::invalid(&path.child("ingressClassName"), BadValue::str(class), m)
        }));
    }
    errs
}

/// `validateTLSSecretName`: empty, or a DNS subdomain.
fn secret_name_problems(name: &str) -> Vec<String> {
    if name.is_empty() {
        return Vec::new();
    }
    name_is_dns_subdomain(name, false)
}

/// Whether `netutils.ParseIPSloppy` reads `s` as an address.
fn is_ip(s: &str) -> bool {
    s.parse::<std::net::Ipv6Addr>().is_ok() || super::network_policy::parse_ipv4_sloppy(s).is_some()
}

/// `IsWildcardDNS1123Subdomain`: `*.` and a DNS subdomain.
fn wildcard_subdomain_problems(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > names::DNS1123_SUBDOMAIN_MAX {
        errs.push(names::max_len_error(names::DNS1123_SUBDOMAIN_MAX));
    }
    let ok = value
        .strip_prefix("*.")
        .is_some_and(names::matches_dns1123_subdomain);
    if !ok {
        errs.push(names::regex_error(
            "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
            &format!("\\*\\.{}", names::DNS1123_SUBDOMAIN_FMT),
            &["*.example.com"],
        ));
    }
    errs
}

/// `validateIngressRuleValue` / `validateHTTPIngressRuleValue`.
fn rule_value(rule: &Value, path: &FieldPath) -> Vec<FieldError> {
    let Some(http) = set_at(rule, &["http"]) else {
        return Vec::new();
    };
    let http_path = path.child("http");
    let paths = list_at(http, &["paths"]);
    let mut errs = Vec::new();
    if paths.is_empty() {
        errs.push(FieldError::required(&http_path.child("paths"), ""));
    }
    for (i, p) in paths.iter().enumerate() {
        errs.extend(http_path_checks(p, &http_path.child("paths").index(i)));
    }
    errs
}

/// `validateHTTPIngressPath`.
fn http_path_checks(p: &Value, path: &FieldPath) -> Vec<FieldError> {
    let Some(kind) = member(p, "pathType").and_then(Value::as_str) else {
        return vec![FieldError::required(
            &path.child("pathType"),
            "pathType must be specified",
        )];
    };
    let mut errs = Vec::new();
    let value = str_at(p, &["path"]);
    let invalid = |msg: String| FieldError::invalid(&path.child("path"), BadValue::str(value), msg);
    match kind {
        "Exact" | "Prefix" => {
            if !value.starts_with('/') {
                errs.push(invalid("must be an absolute path".to_owned()));
            }
            if !value.is_empty() {
                for seq in ["//", "/./", "/../", "%2f", "%2F"] {
                    if value.contains(seq) {
                        errs.push(invalid(format!("must not contain '{seq}'")));
                    }
                }
                for suffix in ["/..", "/."] {
                    if value.ends_with(suffix) {
                        errs.push(invalid(format!("cannot end with '{suffix}'")));
                    }
                }
            }
        }
        "ImplementationSpecific" => {
            if !value.is_empty() && !value.starts_with('/') {
                errs.push(invalid("must be an absolute path".to_owned()));
            }
        }
        other => errs.push(FieldError::not_supported(
            &path.child("pathType"),
            typed_str(other),
            &["Exact", "ImplementationSpecific", "Prefix"],
        )),
    }
    let b = member(p, "backend").unwrap_or(&Value::Null);
    errs.extend(backend(b, &path.child("backend")));
    errs
}

/// `validateIngressBackend`: a service (name, port name xor number) xor a resource.
fn backend(b: &Value, path: &FieldPath) -> Vec<FieldError> {
    let resource = set_at(b, &["resource"]);
    let service = set_at(b, &["service"]);
    let empty = BadValue::str("");
    match (resource, service) {
        (Some(_), Some(_)) => vec![FieldError::invalid(
            path,
            empty,
            "cannot set both resource and service backends",
        )],
        (Some(r), None) => typed_reference(r, &path.child("resource")),
        (None, Some(s)) => {
            let mut errs = Vec::new();
            let name = str_at(s, &["name"]);
            let name_path = path.child("service").child("name");
            if name.is_empty() {
                errs.push(FieldError::required(&name_path, ""));
            } else {
                // `RelaxedServiceNameValidation` is locked on in 1.37: a DNS label.
                errs.extend(
                    name_is_dns_label(name, false)
                        .into_iter()
                        .map(|m| FieldError::invalid(&name_path, BadValue::str(name), m)),
                );
            }
            let port_name = str_at(s, &["port", "name"]);
            let port_number = super::super::generic::int_at(s, &["port", "number"]);
            let port_path = path.child("service").child("port");
            match (!port_name.is_empty(), port_number != 0) {
                (true, true) => errs.push(FieldError::invalid(
                    path,
                    empty,
                    "cannot set both port name & port number",
                )),
                (true, false) => errs.extend(port_name_problems(port_name).into_iter().map(|m| {
                    FieldError::invalid(&port_path.child("name"), BadValue::str(port_name), m)
                })),
                (false, true) => errs.extend(port_num_problems(port_number).into_iter().map(|m| {
                    FieldError::invalid(&port_path.child("number"), BadValue::Int(port_number), m)
                })),
                (false, false) => errs.push(FieldError::required(
                    path,
                    "port name or number is required",
                )),
            }
            errs
        }
        (None, None) => vec![FieldError::invalid(
            path,
            empty,
            "resource or service backend is required",
        )],
    }
}

/// `validateIngressTypedLocalObjectReference`.
fn typed_reference(r: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(group) = member(r, "apiGroup").and_then(Value::as_str) {
        errs.extend(
            is_dns1123_subdomain(group)
                .into_iter()
                .map(|m| FieldError::invalid(&path.child("apiGroup"), BadValue::str(group), m)),
        );
    }
    for field in ["kind", "name"] {
        let v = str_at(r, &[field]);
        if v.is_empty() {
            errs.push(FieldError::required(&path.child(field), ""));
        } else {
            errs.extend(
                is_path_segment_name(v)
                    .into_iter()
                    .map(|m| FieldError::invalid(&path.child(field), BadValue::str(v), m)),
            );
        }
    }
    errs
}

fn class_create(object: &Value) -> Vec<FieldError> {
    let mut errs = super::super::meta::validate_object_meta(
        object,
        false,
        name_is_dns_subdomain,
        &FieldPath::new("metadata"),
    );
    errs.extend(class_spec(spec_of(object)));
    errs
}

fn class_update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    let mut errs =
        super::super::meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"));
    let controller = str_at(spec_of(new), &["controller"]);
    errs.extend(immutable(
        member(spec_of(new), "controller"),
        member(spec_of(old), "controller"),
        &FieldPath::new("spec").child("controller"),
        || BadValue::str(controller),
    ));
    errs.extend(class_create(new));
    errs
}

/// `validateIngressClassSpec`: the controller (a domain-prefixed path of at most 250 bytes).
/// The parameters reference's checks are not held yet.
fn class_spec(spec: &Value) -> Vec<FieldError> {
    let path = FieldPath::new("spec").child("controller");
    let controller = str_at(spec, &["controller"]);
    let mut errs = Vec::new();
    if controller.len() > 250 {
        errs.push(FieldError::too_long(&path, 250));
    }
    errs.extend(super::super::generic::domain_prefixed_path(
        &path, controller,
    ));
    errs
}
