//! NetworkPolicy (`ValidateNetworkPolicy`, `ValidateNetworkPolicySpec`, the ports, peers and
//! IP blocks, `ValidateNetworkPolicyUpdate`). CIDRs are read as `netutils.ParseCIDRSloppy`
//! does, then held to the strict checks of the `StrictIPCIDRValidation` gate (beta, on in
//! 1.37): no leading zeros, no IPv4-mapped IPv6 address, no bits beyond the prefix. An update
//! keeps CIDRs the old object held.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use smd_fieldpath::Value;

use super::super::generic::{list_at, set_at, typed_str};
use super::super::names::name_is_dns_subdomain;
use super::super::{BadValue, FieldError, FieldPath, Rules, json, member, selector, str_at};
use super::{port_name_problems, port_num_problems};

/// NetworkPolicy's strategy rules.
pub(super) const RULES: Rules = Rules { create, update };

fn spec_of(object: &Value) -> &Value {
    member(object, "spec").unwrap_or(&Value::Null)
}

fn create(object: &Value) -> Vec<FieldError> {
    let mut errs = super::super::meta::validate_object_meta(
        object,
        true,
        name_is_dns_subdomain,
        &FieldPath::new("metadata"),
    );
    errs.extend(spec(spec_of(object), false, &[]));
    errs
}

fn update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    let old_spec = spec_of(old);
    let mut existing: Vec<&str> = Vec::new();
    for (rules, peers) in [("ingress", "from"), ("egress", "to")] {
        for rule in list_at(old_spec, &[rules]) {
            for peer in list_at(rule, &[peers]) {
                if let Some(block) = set_at(peer, &["ipBlock"]) {
                    existing.push(str_at(block, &["cidr"]));
                    existing.extend(list_at(block, &["except"]).iter().filter_map(Value::as_str));
                }
            }
        }
    }
    // An old pod selector that no longer validates lets the new one keep invalid values.
    let tolerate = !selector::validate_label_selector(
        Some(member(old_spec, "podSelector").unwrap_or(&Value::Null)),
        false,
        &FieldPath::default(),
    )
    .is_empty();
    let mut errs =
        super::super::meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"));
    errs.extend(spec(spec_of(new), tolerate, &existing));
    errs
}

/// `ValidateNetworkPolicySpec`.
fn spec(spec: &Value, tolerate: bool, existing: &[&str]) -> Vec<FieldError> {
    let path = FieldPath::new("spec");
    let mut errs = selector::validate_label_selector(
        member(spec, "podSelector"),
        tolerate,
        &path.child("podSelector"),
    );
    for (rules, peers) in [("ingress", "from"), ("egress", "to")] {
        for (i, rule) in list_at(spec, &[rules]).iter().enumerate() {
            let rp = path.child(rules).index(i);
            for (j, port) in list_at(rule, &["ports"]).iter().enumerate() {
                errs.extend(port_checks(port, &rp.child("ports").index(j)));
            }
            for (j, peer) in list_at(rule, &[peers]).iter().enumerate() {
                errs.extend(peer_checks(
                    peer,
                    &rp.child(peers).index(j),
                    tolerate,
                    existing,
                ));
            }
        }
    }
    let types = list_at(spec, &["policyTypes"]);
    let tp = path.child("policyTypes");
    if types.len() > 2 {
        errs.push(FieldError::invalid(
            &tp,
            BadValue::Json(json(member(spec, "policyTypes").unwrap_or(&Value::Null))),
            "may not specify more than two policyTypes",
        ));
        return errs;
    }
    for (i, t) in types.iter().enumerate() {
        let t = t.as_str().unwrap_or("");
        if t != "Ingress" && t != "Egress" {
            errs.push(FieldError::not_supported(
                &tp.index(i),
                typed_str(t),
                &["Ingress", "Egress"],
            ));
        }
    }
    errs
}

/// `ValidateNetworkPolicyPort`.
fn port_checks(port: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(p) = member(port, "protocol").and_then(Value::as_str) {
        if !["TCP", "UDP", "SCTP"].contains(&p) {
            errs.push(FieldError::not_supported(
                &path.child("protocol"),
                typed_str(p),
                &["TCP", "UDP", "SCTP"],
            ));
        }
    }
    let end = member(port, "endPort").and_then(Value::as_int);
    let end_path = path.child("endPort");
    match set_at(port, &["port"]) {
        Some(Value::Int(p)) => {
            errs.extend(
                port_num_problems(*p)
                    .into_iter()
                    .map(|m| FieldError::invalid(&path.child("port"), BadValue::Int(*p), m)),
            );
            if let Some(e) = end {
                if e < *p {
                    errs.push(FieldError::invalid(
                        &end_path,
                        BadValue::Int(e),
                        "must be greater than or equal to `port`",
                    ));
                }
                errs.extend(
                    port_num_problems(e)
                        .into_iter()
                        .map(|m| FieldError::invalid(&end_path, BadValue::Int(e), m)),
                );
            }
        }
        Some(p) => {
            if let Some(e) = end {
                errs.push(FieldError::invalid(
                    &end_path,
                    BadValue::Int(e),
                    "may not be specified when `port` is non-numeric",
                ));
            }
            let name = p.as_str().unwrap_or("");
            errs.extend(
                port_name_problems(name)
                    .into_iter()
                    .map(|m| FieldError::invalid(&path.child("port"), BadValue::str(name), m)),
            );
        }
        None => {
            if let Some(e) = end {
                errs.push(FieldError::invalid(
                    &end_path,
                    BadValue::Int(e),
                    "may not be specified when `port` is not specified",
                ));
            }
        }
    }
    errs
}

/// `ValidateNetworkPolicyPeer`: one of a pod selector, a namespace selector (both allowed
/// together) or an IP block.
fn peer_checks(
    peer: &Value,
    path: &FieldPath,
    tolerate: bool,
    existing: &[&str],
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut n = 0;
    for field in ["podSelector", "namespaceSelector"] {
        if let Some(s) = set_at(peer, &[field]) {
            n += 1;
            errs.extend(selector::validate_label_selector(
                Some(s),
                tolerate,
                &path.child(field),
            ));
        }
    }
    let block = set_at(peer, &["ipBlock"]);
    if let Some(b) = block {
        n += 1;
        errs.extend(ip_block(b, &path.child("ipBlock"), existing));
    }
    if n == 0 {
        errs.push(FieldError::required(path, "must specify a peer"));
    } else if n > 1 && block.is_some() {
        errs.push(FieldError::forbidden(
            path,
            "may not specify both ipBlock and another peer",
        ));
    }
    errs
}

const CIDR_MSG: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/// `ValidateIPBlock`: the CIDR, and each exception a valid CIDR strictly inside it.
fn ip_block(block: &Value, path: &FieldPath, existing: &[&str]) -> Vec<FieldError> {
    let cidr = str_at(block, &["cidr"]);
    let cidr_path = path.child("cidr");
    if cidr.is_empty() {
        return vec![FieldError::required(&cidr_path, "")];
    }
    let mut errs = cidr_problems(cidr, &cidr_path, existing);
    let parsed = parse_cidr_sloppy(cidr);
    let Some((net, bits)) = parsed else {
        return errs;
    };
    for (i, except) in list_at(block, &["except"]).iter().enumerate() {
        let except = except.as_str().unwrap_or("");
        let p = path.child("except").index(i);
        errs.extend(cidr_problems(except, &p, existing));
        let inner = parse_cidr_sloppy(except);
        let Some((inner_net, inner_bits)) = inner else {
            continue;
        };
        if !contains(net, bits, inner_net) || bits >= inner_bits {
            errs.push(FieldError::invalid(
                &p,
                BadValue::str(except),
                "must be a strict subset of `cidr`",
            ));
        }
    }
    errs
}

/// `IsValidCIDRForLegacyField` with strict validation: a CIDR the old object held passes.
fn cidr_problems(value: &str, path: &FieldPath, existing: &[&str]) -> Vec<FieldError> {
    if existing.contains(&value) {
        return Vec::new();
    }
    let invalid = |msg: &str| vec![FieldError::invalid(path, BadValue::str(value), msg)];
    let Some((net, bits)) = parse_cidr_sloppy(value) else {
        return invalid(CIDR_MSG);
    };
    let (ip, prefix) = value.split_once('/').unwrap_or((value, ""));
    let leading_zero = |p: &str| p.len() > 1 && p.starts_with('0');
    let v4_zeros = matches!(net, IpAddr::V4(_)) && ip.split('.').any(leading_zero);
    if v4_zeros || leading_zero(prefix) {
        return invalid("must not have leading 0s in IP or prefix length");
    }
    if let IpAddr::V6(v6) = net {
        if v6.to_ipv4_mapped().is_some() {
            return invalid("must not have an IPv4-mapped IPv6 address");
        }
    }
    let (value_bits, width) = match net {
        IpAddr::V4(a) => (u128::from(u32::from(a)), 32),
        IpAddr::V6(a) => (u128::from(a), 128),
    };
    let host_mask = if bits >= width {
        0
    } else {
        (1u128 << (width - bits)) - 1
    };
    if value_bits & host_mask != 0 {
        return invalid("must not have bits set beyond the prefix length");
    }
    Vec::new()
}

/// `net.IPNet.Contains`: the address (of either family) inside the network.
fn contains(net: IpAddr, bits: u32, ip: IpAddr) -> bool {
    match (net, ip) {
        (IpAddr::V4(n), IpAddr::V4(a)) => {
            masked(u32::from(n).into(), bits, 32) == masked(u32::from(a).into(), bits, 32)
        }
        (IpAddr::V6(n), IpAddr::V6(a)) => {
            masked(u128::from(n), bits, 128) == masked(u128::from(a), bits, 128)
        }
        _ => false,
    }
}

fn masked(v: u128, bits: u32, width: u32) -> u128 {
    if bits == 0 {
        return 0;
    }
    let keep = width.min(bits);
    v >> (width - keep)
}

/// `netutils.ParseCIDRSloppy`: `ip/prefix`, the network address and the prefix length.
fn parse_cidr_sloppy(s: &str) -> Option<(IpAddr, u32)> {
    let (ip, prefix) = s.split_once('/')?;
    if prefix.is_empty() || !prefix.bytes().all(|b| b.is_ascii_digit()) || prefix.len() > 3 {
        return None;
    }
    let n: u32 = prefix.parse().ok()?;
    if let Some(v4) = parse_ipv4_sloppy(ip) {
        return (n <= 32).then_some((IpAddr::V4(v4), n));
    }
    let v6: Ipv6Addr = ip.parse().ok()?;
    (n <= 128).then_some((IpAddr::V6(v6), n))
}

/// An IPv4 address as Go's sloppy parser reads it: four decimal octets, leading zeros
/// allowed (read as decimal).
pub(super) fn parse_ipv4_sloppy(s: &str) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut octets = [0u8; 4];
    for (o, p) in octets.iter_mut().zip(parts) {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = p.parse().ok()?;
    }
    Some(Ipv4Addr::from(octets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidrs() {
        let p = FieldPath::new("cidr");
        assert!(cidr_problems("10.0.0.0/8", &p, &[]).is_empty());
        assert!(cidr_problems("2001:db8::/32", &p, &[]).is_empty());
        let first = |s: &str| {
            cidr_problems(s, &p, &[])
                .first()
                .map(|e| e.detail.clone())
                .unwrap_or_default()
        };
        assert_eq!(first("10.0.0.0/33"), CIDR_MSG);
        assert_eq!(first("10.0.0.300/8"), CIDR_MSG);
        assert_eq!(
            first("010.0.0.0/8"),
            "must not have leading 0s in IP or prefix length"
        );
        assert_eq!(
            first("10.0.0.1/8"),
            "must not have bits set beyond the prefix length"
        );
        assert_eq!(
            first("::ffff:10.0.0.0/104"),
            "must not have an IPv4-mapped IPv6 address"
        );
        assert!(cidr_problems("010.0.0.0/8", &p, &["010.0.0.0/8"]).is_empty());
        let (net, bits) =
            parse_cidr_sloppy("10.0.0.0/8").unwrap_or((IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0));
        assert!(contains(net, bits, IpAddr::V4(Ipv4Addr::new(10, 1, 0, 0))));
        assert!(!contains(net, bits, IpAddr::V4(Ipv4Addr::new(11, 0, 0, 0))));
    }
}
