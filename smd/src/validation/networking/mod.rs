//! The `networking.k8s.io` group's strategy validation (k8s.io/kubernetes v1.37.2
//! `pkg/apis/networking/validation`): Ingress and IngressClass (`ingress.rs`),
//! NetworkPolicy (`network_policy.rs`).

mod ingress;
mod network_policy;

use super::Rules;

/// The rules of `kind`, if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    match kind {
        "Ingress" => Some(ingress::INGRESS),
        "IngressClass" => Some(ingress::INGRESS_CLASS),
        "NetworkPolicy" => Some(network_policy::RULES),
        _ => None,
    }
}

/// `IsValidPortNum`.
fn port_num_problems(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        Vec::new()
    } else {
        vec![super::names::inclusive_range_error(1, 65535)]
    }
}

/// `IsValidPortName`: at most 15 of `[-a-z0-9]`, a letter, no `--`, no hyphen at either end.
fn port_name_problems(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(super::names::max_len_error(15));
    }
    if port.is_empty()
        || !port
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_owned(),
        );
    }
    if !port.bytes().any(|b| b.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_owned());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".to_owned());
    }
    if port.starts_with('-') || port.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_owned());
    }
    errs
}
