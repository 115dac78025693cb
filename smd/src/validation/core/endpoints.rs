//! Endpoints (`ValidateEndpointsCreate`, `ValidateEndpointsUpdate`): each subset's addresses
//! and ports; an update whose subsets are unchanged is not held to today's address rules.

use smd_fieldpath::Value;

use super::service_ip::{endpoint_ip, legacy_ip};
use super::{
    invalid_each, object_meta, object_meta_update, port_num_problems, qualified_name, typed,
};
use crate::validation::{BadValue, FieldError, FieldPath, Rules, member, names, str_at};

/// The Endpoints strategy's rules.
pub(super) const RULES: Rules = Rules { create, update };

fn create(object: &Value) -> Vec<FieldError> {
    let mut errs = object_meta(object, true, names::name_is_dns_subdomain);
    errs.extend(subsets(object));
    errs
}

fn update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    let mut errs = object_meta_update(new, old);
    errs.extend(object_meta(new, true, names::name_is_dns_subdomain));
    let subset_errs = subsets(new);
    // Subsets an older server stored are accepted as long as they do not change.
    let unchanged = super::same(member(new, "subsets"), member(old, "subsets"))
        || (is_empty_list(member(new, "subsets")) && is_empty_list(member(old, "subsets")));
    if !unchanged {
        errs.extend(subset_errs);
    }
    errs
}

fn is_empty_list(v: Option<&Value>) -> bool {
    v.and_then(Value::as_list).is_none_or(<[Value]>::is_empty)
}

/// `validateEndpointSubsets`.
fn subsets(object: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let path = FieldPath::new("subsets");
    let list: &[Value] = member(object, "subsets")
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    for (i, subset) in list.iter().enumerate() {
        let p = path.index(i);
        let items = |name: &str| -> &[Value] {
            member(subset, name).and_then(Value::as_list).unwrap_or(&[])
        };
        if items("addresses").is_empty() && items("notReadyAddresses").is_empty() {
            errs.push(FieldError::required(
                &p,
                "must specify `addresses` or `notReadyAddresses`",
            ));
        }
        for name in ["addresses", "notReadyAddresses"] {
            for (j, address) in items(name).iter().enumerate() {
                errs.extend(endpoint_address(address, &p.child(name).index(j)));
            }
        }
        let ports = items("ports");
        for (j, port) in ports.iter().enumerate() {
            errs.extend(endpoint_port(
                port,
                ports.len() > 1,
                &p.child("ports").index(j),
            ));
        }
    }
    errs
}

/// `validateEndpointAddress`: the IP twice over (legacy format, then the kinds of address
/// Endpoints may not hold), hostname, nodeName.
fn endpoint_address(address: &Value, p: &FieldPath) -> Vec<FieldError> {
    let ip = str_at(address, &["ip"]);
    let mut errs = legacy_ip(&p.child("ip"), ip, &[]);
    let hostname = str_at(address, &["hostname"]);
    if !hostname.is_empty() {
        errs.extend(invalid_each(
            &p.child("hostname"),
            hostname,
            names::is_dns1123_label(hostname),
        ));
    }
    if let Some(node) = super::present(member(address, "nodeName")).and_then(Value::as_str) {
        errs.extend(invalid_each(
            &p.child("nodeName"),
            node,
            names::name_is_dns_subdomain(node, false),
        ));
    }
    errs.extend(endpoint_ip(&p.child("ip"), ip));
    errs
}

/// `validateEndpointPort`.
fn endpoint_port(port: &Value, require_name: bool, p: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name = str_at(port, &["name"]);
    if require_name && name.is_empty() {
        errs.push(FieldError::required(&p.child("name"), ""));
    } else if !name.is_empty() {
        errs.extend(invalid_each(
            &p.child("name"),
            name,
            names::is_dns1123_label(name),
        ));
    }
    let number = member(port, "port").and_then(Value::as_int).unwrap_or(0);
    for msg in port_num_problems(number) {
        errs.push(FieldError::invalid(
            &p.child("port"),
            BadValue::Int(number),
            msg,
        ));
    }
    let protocol = str_at(port, &["protocol"]);
    if protocol.is_empty() {
        errs.push(FieldError::required(&p.child("protocol"), ""));
    } else if !["SCTP", "TCP", "UDP"].contains(&protocol) {
        errs.push(FieldError::not_supported(
            &p.child("protocol"),
            typed(protocol),
            &["SCTP", "TCP", "UDP"],
        ));
    }
    if let Some(app) = super::present(member(port, "appProtocol")).and_then(Value::as_str) {
        errs.extend(qualified_name(app, &p.child("appProtocol")));
    }
    errs
}
