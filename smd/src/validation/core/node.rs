//! Nodes, their basics (`ValidateNode`, `ValidateNodeUpdate`; the status subresource runs
//! the update checks alone): taints, pod CIDRs, capacity and allocatable quantities, status
//! addresses, and what an update may not change (pod CIDRs once set, provider ID, external
//! ID). Not yet: the taint and avoid-pods annotations, declared features, swap status, the
//! deprecated config source.

use std::net::IpAddr;

use smd_fieldpath::Value;

use super::service_ip::{legacy_cidr, parse_sloppy};
use super::{invalid_each, object_meta, object_meta_update, strings, typed};
use crate::validation::{BadValue, FieldError, FieldPath, Rules, at, json, member, names, str_at};

/// The Node strategies' rules (main resource and `status`).
pub(super) const RULES: Rules = Rules { create, update };

fn create(object: &Value) -> Vec<FieldError> {
    let mut errs = object_meta(object, false, names::name_is_dns_subdomain);
    errs.extend(taints(object));
    errs.extend(resources(object));
    errs.extend(pod_cidrs(object));
    errs
}

fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    let mut errs = if subresource == "status" {
        Vec::new()
    } else {
        create(new)
    };
    errs.extend(object_meta_update(new, old));
    errs.extend(resources(new));
    errs.extend(duplicate_addresses(new));
    let old_cidrs = strings(at(old, &["spec", "podCIDRs"]));
    let new_cidrs = strings(at(new, &["spec", "podCIDRs"]));
    if !old_cidrs.is_empty() {
        const MSG: &str = "node updates may not change podCIDR except from \"\" to valid";
        let path = FieldPath::new("spec").child("podCIDRs");
        if old_cidrs.len() != new_cidrs.len() {
            errs.push(FieldError::forbidden(&path, MSG));
        } else {
            for (o, n) in old_cidrs.iter().zip(&new_cidrs) {
                if o != n {
                    errs.push(FieldError::forbidden(&path, MSG));
                }
            }
        }
    }
    let (old_id, new_id) = (
        str_at(old, &["spec", "providerID"]),
        str_at(new, &["spec", "providerID"]),
    );
    let id_path = FieldPath::new("spec").child("providerID");
    if !old_id.is_empty() && !new_id.is_empty() && old_id != new_id {
        errs.push(FieldError::invalid(
            &id_path,
            BadValue::null(),
            "field cannot be modified once set",
        ));
    }
    if !old_id.is_empty() && new_id.is_empty() {
        errs.push(FieldError::invalid(
            &id_path,
            BadValue::null(),
            "field cannot be cleared once set",
        ));
    }
    // Go checks the taints again in the update half (a main update reports them twice).
    errs.extend(taints(new));
    if str_at(new, &["spec", "externalID"]) != str_at(old, &["spec", "externalID"]) {
        errs.push(FieldError::forbidden(
            &FieldPath::new("spec").child("externalID"),
            "may not be updated",
        ));
    }
    errs
}

/// `validateNodeTaints` at Go's path, `metadata.taints` (the parent path it is handed).
fn taints(object: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let list: &[Value] = at(object, &["spec", "taints"])
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    let path = FieldPath::new("metadata").child("taints");
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (i, taint) in list.iter().enumerate() {
        let p = path.index(i);
        let key = str_at(taint, &["key"]);
        errs.extend(invalid_each(
            &p.child("key"),
            key,
            names::is_qualified_name(key),
        ));
        let value = str_at(taint, &["value"]);
        let problems = names::is_label_value(value);
        if !problems.is_empty() {
            errs.push(FieldError::invalid(
                &p.child("value"),
                BadValue::str(value),
                problems.join(";"),
            ));
        }
        let effect = str_at(taint, &["effect"]);
        const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
        if effect.is_empty() {
            errs.push(FieldError::required(&p.child("effect"), ""));
        } else if !EFFECTS.contains(&effect) {
            errs.push(FieldError::not_supported(
                &p.child("effect"),
                typed(effect),
                &EFFECTS,
            ));
        }
        if seen.contains(&(effect, key)) {
            let shown = format!(
                "{{\"Key\":{},\"Value\":{},\"Effect\":{},\"TimeAdded\":{}}}",
                json(&Value::String(key.to_owned())),
                json(&Value::String(value.to_owned())),
                json(&Value::String(effect.to_owned())),
                super::present(member(taint, "timeAdded")).map_or_else(|| "null".to_owned(), json),
            );
            errs.push(FieldError::new(
                crate::validation::ErrorType::Duplicate,
                &p,
                BadValue::Json(shown),
                "taints must be unique by key and effect pair",
            ));
            continue;
        }
        seen.push((effect, key));
    }
    errs
}

/// `ValidateNodeResources`: each capacity and allocatable quantity (at a dotted path).
fn resources(object: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for name in ["capacity", "allocatable"] {
        let mut entries: Vec<(&str, &str)> = at(object, &["status", name])
            .and_then(Value::as_map)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k, v.as_str().unwrap_or("")))
                    .collect()
            })
            .unwrap_or_default();
        entries.sort_unstable();
        for (k, q) in entries {
            let p = FieldPath::new("status").child(name).child(k);
            errs.extend(super::resources::quantity_value(k, q, &p));
        }
    }
    errs
}

/// Pod CIDRs: each a strict CIDR, at most one per IP family.
fn pod_cidrs(object: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let cidrs = strings(at(object, &["spec", "podCIDRs"]));
    let path = FieldPath::new("spec").child("podCIDRs");
    for (i, c) in cidrs.iter().enumerate() {
        errs.extend(legacy_cidr(&path.index(i), c, &[]));
    }
    if cidrs.len() > 1 {
        let v6 = cidrs
            .iter()
            .filter(|c| {
                let addr = c.split('/').next().unwrap_or("");
                matches!(parse_sloppy(addr), Some(IpAddr::V6(_)))
            })
            .count();
        if cidrs.len() > 2 || v6 != 1 {
            let items = cidrs
                .iter()
                .map(|s| Value::String((*s).to_owned()))
                .collect();
            errs.push(FieldError::invalid(
                &path,
                BadValue::Json(json(&Value::List(items))),
                "may specify no more than one CIDR for each IP family",
            ));
        }
    }
    errs
}

/// A status address listed twice (the internal `NodeAddress` shown).
fn duplicate_addresses(object: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let list: &[Value] = at(object, &["status", "addresses"])
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (i, address) in list.iter().enumerate() {
        let key = (str_at(address, &["type"]), str_at(address, &["address"]));
        if seen.contains(&key) {
            let shown = format!(
                "{{\"Type\":{},\"Address\":{}}}",
                json(&Value::String(key.0.to_owned())),
                json(&Value::String(key.1.to_owned()))
            );
            errs.push(FieldError::duplicate(
                &FieldPath::new("status").child("addresses").index(i),
                BadValue::Json(shown),
            ));
        }
        seen.push(key);
    }
    errs
}
