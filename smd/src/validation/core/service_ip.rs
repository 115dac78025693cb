//! IP addresses and CIDRs as the legacy Service fields check them (apimachinery's
//! `IsValidIPForLegacyField`/`IsValidCIDRForLegacyField` with strict validation, 1.37's
//! default, and core's `ValidateEndpointIP`), and the cluster-IP/IP-family rules of
//! `ValidateServiceClusterIPsRelatedFields` and its update checks.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use smd_fieldpath::Value;

use super::{pointer, strings, typed};
use crate::validation::{BadValue, FieldError, FieldPath, json, member, str_at};

/// `netutils.ParseIPSloppy`: IPv4 octets may carry leading zeros (read as decimal).
pub(super) fn parse_sloppy(text: &str) -> Option<IpAddr> {
    if text.contains(':') {
        return text.parse::<Ipv6Addr>().ok().map(IpAddr::V6);
    }
    let mut octets = [0u8; 4];
    let mut parts = text.split('.');
    for o in &mut octets {
        let part = parts.next()?;
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = part.parse::<u8>().ok()?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some(IpAddr::V4(Ipv4Addr::from(octets)))
}

/// The IPv4 address an IPv6 address maps (`::ffff:a.b.c.d`), as Go's `To4` reads it.
fn mapped_v4(ip: &Ipv6Addr) -> Option<Ipv4Addr> {
    ip.to_ipv4_mapped()
}

/// Whether Go counts the address as IPv6 (`netutils.IsIPv6`: not representable as IPv4).
pub(super) fn is_ipv6(text: &str) -> bool {
    matches!(parse_sloppy(text), Some(IpAddr::V6(v6)) if mapped_v4(&v6).is_none())
}

/// `IsValidIPForLegacyField(path, value, strict, old)`.
pub(super) fn legacy_ip(path: &FieldPath, value: &str, old: &[&str]) -> Vec<FieldError> {
    if old.contains(&value) {
        return Vec::new();
    }
    let bad = |msg: &str| FieldError::invalid(path, BadValue::str(value), msg);
    let Some(ip) = parse_sloppy(value) else {
        return vec![bad(
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
        )];
    };
    let mut errs = Vec::new();
    match ip {
        IpAddr::V4(_) => {
            if value.parse::<Ipv4Addr>().is_err() {
                errs.push(bad("must not have leading 0s"));
            }
        }
        IpAddr::V6(v6) => {
            if mapped_v4(&v6).is_some() {
                errs.push(bad("must not be an IPv4-mapped IPv6 address"));
            }
        }
    }
    errs
}

/// `ValidateEndpointIP`: no unspecified, loopback or link-local address.
pub(super) fn endpoint_ip(path: &FieldPath, value: &str) -> Vec<FieldError> {
    let bad = |msg: String| FieldError::invalid(path, BadValue::str(value), msg);
    let Some(ip) = parse_sloppy(value) else {
        return vec![bad("must be a valid IP address".into())];
    };
    let ip = match ip {
        IpAddr::V6(v6) => mapped_v4(&v6).map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    };
    let (unspecified, loopback, link_local, link_local_multicast) = match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            (
                v4.is_unspecified(),
                o[0] == 127,
                o[0] == 169 && o[1] == 254,
                o[0] == 224 && o[1] == 0 && o[2] == 0,
            )
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            (
                v6.is_unspecified(),
                v6.is_loopback(),
                s[0] & 0xffc0 == 0xfe80,
                s[0] & 0xff0f == 0xff02,
            )
        }
    };
    let mut errs = Vec::new();
    if unspecified {
        errs.push(bad(format!("may not be unspecified ({value})")));
    }
    if loopback {
        errs.push(bad(
            "may not be in the loopback range (127.0.0.0/8, ::1/128)".into(),
        ));
    }
    if link_local {
        errs.push(bad(
            "may not be in the link-local range (169.254.0.0/16, fe80::/10)".into(),
        ));
    }
    if link_local_multicast {
        errs.push(bad(
            "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)".into(),
        ));
    }
    errs
}

/// `IsValidCIDRForLegacyField(path, value, strict, old)`.
pub(super) fn legacy_cidr(path: &FieldPath, value: &str, old: &[String]) -> Vec<FieldError> {
    if old.iter().any(|o| o == value) {
        return Vec::new();
    }
    let bad = |msg: &str| vec![FieldError::invalid(path, BadValue::str(value), msg)];
    let Some((addr, len)) = value.split_once('/') else {
        return bad("must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)");
    };
    let ip = parse_sloppy(addr);
    let max = match ip {
        Some(IpAddr::V4(_)) => 32,
        Some(IpAddr::V6(_)) => 128,
        None => 0,
    };
    let bits = if !len.is_empty() && len.bytes().all(|b| b.is_ascii_digit()) && len.len() <= 3 {
        len.parse::<u32>().ok()
    } else {
        None
    };
    let (Some(ip), Some(bits)) = (ip, bits.filter(|b| *b <= max)) else {
        return bad("must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)");
    };
    let strict_addr = match ip {
        IpAddr::V4(_) => addr.parse::<Ipv4Addr>().is_ok(),
        IpAddr::V6(_) => true,
    };
    if !strict_addr || (len.len() > 1 && len.starts_with('0')) {
        return bad("must not have leading 0s in IP or prefix length");
    }
    let host_bits_set = match ip {
        IpAddr::V4(v4) => {
            let n = u32::from(v4);
            bits < 32 && n & (u32::MAX >> bits) != 0
        }
        IpAddr::V6(v6) => {
            if mapped_v4(&v6).is_some() {
                return bad("must not have an IPv4-mapped IPv6 address");
            }
            let n = u128::from(v6);
            bits < 128 && n & (u128::MAX >> bits) != 0
        }
    };
    if host_bits_set {
        return bad("must not have bits set beyond the prefix length");
    }
    Vec::new()
}

/// A list of strings as Go's error body shows a `[]string` (or a named string slice).
fn list(items: &[&str]) -> BadValue {
    let values = items
        .iter()
        .map(|s| Value::String((*s).to_owned()))
        .collect();
    if items.is_empty() {
        return BadValue::null();
    }
    BadValue::Json(json(&Value::List(values)))
}

/// `isHeadlessService`: exactly one cluster IP, `None`.
pub(super) fn headless(cluster_ips: &[&str]) -> bool {
    cluster_ips == ["None"]
}

/// `ValidateServiceClusterIPsRelatedFields` on the spec as the registry normalised it
/// (`cluster_ip`, `cluster_ips`).
pub(super) fn cluster_ip_fields(
    spec: &Value,
    cluster_ip: &str,
    cluster_ips: &[&str],
    old_cluster_ips: &[&str],
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if str_at(spec, &["type"]) == "ExternalName" {
        return errs;
    }
    let spec_path = FieldPath::new("spec");
    let ips_path = spec_path.child("clusterIPs");
    if !cluster_ip.is_empty() {
        if cluster_ips.is_empty() {
            errs.push(FieldError::required(&ips_path, ""));
        } else if cluster_ips.first() != Some(&cluster_ip) {
            errs.push(FieldError::invalid(
                &ips_path,
                list(cluster_ips),
                "first value must match `clusterIP`",
            ));
        }
    } else if !cluster_ips.is_empty() {
        errs.push(FieldError::invalid(
            &ips_path,
            list(cluster_ips),
            "must be empty when `clusterIP` is not specified",
        ));
    }
    let families = strings(member(spec, "ipFamilies"));
    let families_path = spec_path.child("ipFamilies");
    for (i, family) in families.iter().enumerate() {
        if *family != "IPv4" && *family != "IPv6" {
            errs.push(FieldError::not_supported(
                &families_path.index(i),
                typed(family),
                &["IPv4", "IPv6"],
            ));
        }
        if families.get(..i).is_some_and(|seen| seen.contains(family)) {
            errs.push(FieldError::duplicate(
                &families_path.index(i),
                typed(family),
            ));
        }
    }
    if let Some(policy) = super::present(member(spec, "ipFamilyPolicy")) {
        let p = policy.as_str().unwrap_or("");
        if !["PreferDualStack", "RequireDualStack", "SingleStack"].contains(&p) {
            errs.push(FieldError::not_supported(
                &spec_path.child("ipFamilyPolicy"),
                pointer(Some(policy)),
                &["PreferDualStack", "RequireDualStack", "SingleStack"],
            ));
        }
    }
    let mut invalid_ips = false;
    for (i, ip) in cluster_ips.iter().enumerate() {
        if i == 0 && *ip == "None" {
            if cluster_ips.len() > 1 {
                invalid_ips = true;
                errs.push(FieldError::invalid(
                    &ips_path,
                    list(cluster_ips),
                    "'None' must be the first and only value",
                ));
            }
            continue;
        }
        let ip_errs = legacy_ip(&ips_path.index(i), ip, old_cluster_ips);
        invalid_ips |= !ip_errs.is_empty();
        errs.extend(ip_errs);
    }
    if cluster_ips.len() > 2 {
        errs.push(FieldError::invalid(
            &ips_path,
            list(cluster_ips),
            "may only hold up to 2 values",
        ));
    }
    if invalid_ips {
        return errs;
    }
    if cluster_ips.len() > 1 {
        let v6 = cluster_ips.iter().filter(|ip| is_ipv6(ip)).count();
        let dual = cluster_ips.len() == 2 && v6 == 1;
        if !dual {
            errs.push(FieldError::invalid(
                &ips_path,
                list(cluster_ips),
                "may specify no more than one IP for each IP family",
            ));
        }
    }
    if !headless(cluster_ips) {
        for (i, (ip, family)) in cluster_ips.iter().zip(&families).enumerate() {
            let want = match (*family, is_ipv6(ip)) {
                ("IPv4", true) => "IPv4",
                ("IPv6", false) => "IPv6",
                _ => continue,
            };
            errs.push(FieldError::invalid(
                &ips_path.index(i),
                BadValue::str(*ip),
                format!("expected an {want} value as indicated by `ipFamilies[{i}]`"),
            ));
        }
    }
    errs
}

/// `validateUpgradeDowngradeClusterIPs` and `validateUpgradeDowngradeIPFamilies`.
pub(super) fn upgrade_downgrade(
    new_spec: &Value,
    old_spec: &Value,
    new_ips: &[&str],
    old_ips: &[&str],
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let external = |s: &Value| str_at(s, &["type"]) == "ExternalName";
    if external(new_spec) || external(old_spec) {
        return errs;
    }
    let ips_path = FieldPath::new("spec").child("clusterIPs");
    let policy_path = FieldPath::new("spec").child("ipFamilyPolicy");
    let policy = member(new_spec, "ipFamilyPolicy");
    let single = super::present(policy).and_then(Value::as_str) == Some("SingleStack");
    let (new_headless, old_headless) = (headless(new_ips), headless(old_ips));
    if !(new_headless && old_headless) {
        use std::cmp::Ordering::{Equal, Greater, Less};
        match old_ips.len().cmp(&new_ips.len()) {
            Equal => {
                for (i, (o, n)) in old_ips.iter().zip(new_ips).enumerate() {
                    if o != n {
                        errs.push(FieldError::invalid(
                            &ips_path.index(i),
                            list(new_ips),
                            "may not change once set",
                        ));
                    }
                }
            }
            Greater => {
                if new_ips.is_empty() {
                    errs.push(FieldError::invalid(
                        &ips_path.index(0),
                        list(new_ips),
                        "primary clusterIP can not be unset",
                    ));
                }
                if !new_ips.is_empty() && new_ips.first() != old_ips.first() {
                    errs.push(FieldError::invalid(
                        &ips_path.index(0),
                        list(new_ips),
                        "may not change once set",
                    ));
                }
                if new_ips.len() == 1 && !single {
                    errs.push(FieldError::invalid(
                        &policy_path,
                        pointer(policy),
                        "must be set to 'SingleStack' when releasing the secondary clusterIP",
                    ));
                }
            }
            Less => {
                if !old_ips.is_empty() && new_ips.first() != old_ips.first() {
                    errs.push(FieldError::invalid(
                        &ips_path.index(0),
                        list(new_ips),
                        "may not change once set",
                    ));
                }
            }
        }
    }
    if new_headless != old_headless || new_headless {
        return errs;
    }
    let families_path = FieldPath::new("spec").child("ipFamilies").index(0);
    let new_families = strings(member(new_spec, "ipFamilies"));
    let old_families = strings(member(old_spec, "ipFamilies"));
    use std::cmp::Ordering::{Equal, Greater, Less};
    match old_families.len().cmp(&new_families.len()) {
        Equal => {
            for (o, n) in old_families.iter().zip(&new_families) {
                if o != n {
                    errs.push(FieldError::invalid(
                        &families_path,
                        list(&new_families),
                        "may not change once set",
                    ));
                }
            }
        }
        Greater => {
            if new_ips.is_empty() {
                errs.push(FieldError::invalid(
                    &families_path,
                    list(&new_families),
                    "primary ipFamily can not be unset",
                ));
            }
            if !new_families.is_empty() && new_families.first() != old_families.first() {
                errs.push(FieldError::invalid(
                    &families_path,
                    list(new_ips),
                    "may not change once set",
                ));
            }
            if new_families.len() == 1 && !single {
                errs.push(FieldError::invalid(
                    &policy_path,
                    pointer(policy),
                    "must be set to 'SingleStack' when releasing the secondary ipFamily",
                ));
            }
        }
        Less => {
            if !old_families.is_empty()
                && !new_families.is_empty()
                && new_families.first() != old_families.first()
            {
                errs.push(FieldError::invalid(
                    &families_path,
                    list(new_ips),
                    "may not change once set",
                ));
            }
        }
    }
    errs
}

/// `ValidateServiceClusterIPsRelatedFields(service, old)` as the Service REST's allocator runs
/// it on its input, once it has settled the policy and before it allocates anything.
pub(crate) fn allocator_prevalidation(svc: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let empty = Value::Map(smd_fieldpath::Map::new());
    let spec = crate::validation::member(svc, "spec").unwrap_or(&empty);
    let ips = super::strings(crate::validation::member(spec, "clusterIPs"));
    let old_ips = old
        .and_then(|o| crate::validation::member(o, "spec"))
        .map(|s| super::strings(crate::validation::member(s, "clusterIPs")))
        .unwrap_or_default();
    cluster_ip_fields(spec, str_at(spec, &["clusterIP"]), &ips, &old_ips)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        let p = FieldPath::new("x");
        assert!(legacy_ip(&p, "10.0.0.1", &[]).is_empty());
        assert_eq!(legacy_ip(&p, "010.0.0.1", &[]).len(), 1);
        assert_eq!(legacy_ip(&p, "::ffff:1.2.3.4", &[]).len(), 1);
        assert!(is_ipv6("2001:db8::1"));
        assert!(!is_ipv6("10.0.0.1"));
        assert_eq!(endpoint_ip(&p, "127.0.0.1").len(), 1);
        assert!(legacy_cidr(&p, "10.0.0.0/8", &[]).is_empty());
        assert_eq!(
            legacy_cidr(&p, "10.0.0.1/8", &[])
                .first()
                .map(|e| e.detail.as_str()),
            Some("must not have bits set beyond the prefix length")
        );
    }
}
