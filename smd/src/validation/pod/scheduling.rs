//! Where a pod may run: affinity (`validateAffinity`) and topology spread constraints
//! (`validateTopologySpreadConstraints`).

use smd_fieldpath::Value;

use super::super::meta::{
    selector_operator, string_list, validate_label_name, validate_label_selector,
};
use super::super::names;
use super::super::{BadValue, FieldError, FieldPath, member, str_at};
use super::{int, list};

/// The actions of an unsatisfiable spread constraint, sorted.
const SCHEDULE_ACTIONS: &[&str] = &["DoNotSchedule", "ScheduleAnyway"];
/// The node inclusion policies, sorted.
const INCLUSION_POLICIES: &[&str] = &["Honor", "Ignore"];

/// `validateAffinity`: node affinity, pod affinity, pod anti-affinity.
pub(super) fn affinity(affinity: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let Some(affinity) = affinity.filter(|v| !v.is_null()) else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    if let Some(node) = member(affinity, "nodeAffinity").filter(|v| !v.is_null()) {
        errs.extend(node_affinity(node, &path.child("nodeAffinity")));
    }
    for key in ["podAffinity", "podAntiAffinity"] {
        let Some(pod) = member(affinity, key).filter(|v| !v.is_null()) else {
            continue;
        };
        let p = path.child(key);
        let required = "requiredDuringSchedulingIgnoredDuringExecution";
        for (i, term) in list(member(pod, required)).enumerate() {
            errs.extend(pod_affinity_term(term, &p.child(required).index(i)));
        }
        let preferred = "preferredDuringSchedulingIgnoredDuringExecution";
        for (i, weighted) in list(member(pod, preferred)).enumerate() {
            let wp = p.child(preferred).index(i);
            errs.extend(weight(weighted, &wp));
            errs.extend(pod_affinity_term(
                member(weighted, "podAffinityTerm").unwrap_or(&Value::Null),
                &wp.child("podAffinityTerm"),
            ));
        }
    }
    errs
}

/// A weight within 1-100.
fn weight(weighted: &Value, path: &FieldPath) -> Vec<FieldError> {
    let w = int(weighted, "weight").unwrap_or(0);
    if (1..=100).contains(&w) {
        return Vec::new();
    }
    vec![FieldError::invalid(
        &path.child("weight"),
        BadValue::Int(w),
        "must be in the range 1-100",
    )]
}

/// `validateNodeAffinity`: a required selector has terms; preferred terms are weighted.
fn node_affinity(node: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let required = "requiredDuringSchedulingIgnoredDuringExecution";
    if let Some(selector) = member(node, required).filter(|v| !v.is_null()) {
        let terms_path = path.child(required).child("nodeSelectorTerms");
        let terms: Vec<&Value> = list(member(selector, "nodeSelectorTerms")).collect();
        if terms.is_empty() {
            errs.push(FieldError::required(
                &terms_path,
                "must have at least one node selector term",
            ));
        }
        for (i, term) in terms.iter().enumerate() {
            errs.extend(node_selector_term(term, true, &terms_path.index(i)));
        }
    }
    let preferred = "preferredDuringSchedulingIgnoredDuringExecution";
    for (i, term) in list(member(node, preferred)).enumerate() {
        let p = path.child(preferred).index(i);
        errs.extend(weight(term, &p));
        errs.extend(node_selector_term(
            member(term, "preference").unwrap_or(&Value::Null),
            false,
            &p.child("preference"),
        ));
    }
    errs
}

/// `ValidateNodeSelectorTerm`'s expressions (label values checked for required terms only).
fn node_selector_term(term: &Value, check_values: bool, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (j, requirement) in list(member(term, "matchExpressions")).enumerate() {
        let p = path.child("matchExpressions").index(j);
        let values = string_list(member(requirement, "values"));
        errs.extend(selector_operator(
            str_at(requirement, &["operator"]),
            values.len(),
            true,
            &p,
        ));
        errs.extend(validate_label_name(
            str_at(requirement, &["key"]),
            &p.child("key"),
        ));
        if check_values {
            for (k, value) in values.iter().enumerate() {
                for msg in names::is_label_value(value) {
                    errs.push(FieldError::invalid(
                        &p.child("values").index(k),
                        BadValue::str(*value),
                        msg,
                    ));
                }
            }
        }
    }
    errs
}

/// `validatePodAffinityTerm`: selectors, namespaces, a topology key.
fn pod_affinity_term(term: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs =
        validate_label_selector(member(term, "labelSelector"), &path.child("labelSelector"));
    errs.extend(validate_label_selector(
        member(term, "namespaceSelector"),
        &path.child("namespaceSelector"),
    ));
    for namespace in string_list(member(term, "namespaces")) {
        for msg in names::name_is_dns_label(namespace, false) {
            errs.push(FieldError::invalid(
                &path.child("namespace"),
                BadValue::str(namespace),
                msg,
            ));
        }
    }
    let key = str_at(term, &["topologyKey"]);
    if key.is_empty() {
        errs.push(FieldError::required(
            &path.child("topologyKey"),
            "can not be empty",
        ));
    }
    errs.extend(validate_label_name(key, &path.child("topologyKey")));
    errs
}

/// `validateTopologySpreadConstraints` (not the `matchLabelKeys` rules).
pub(super) fn topology_spread(constraints: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let items: Vec<&Value> = list(constraints).collect();
    let mut errs = Vec::new();
    for (i, c) in items.iter().enumerate() {
        let p = path.index(i);
        let max_skew = int(c, "maxSkew").unwrap_or(0);
        if max_skew <= 0 {
            errs.push(FieldError::invalid(
                &p.child("maxSkew"),
                BadValue::Int(max_skew),
                "must be greater than zero",
            ));
        }
        let key = str_at(c, &["topologyKey"]);
        if key.is_empty() {
            errs.push(FieldError::required(
                &p.child("topologyKey"),
                "can not be empty",
            ));
        }
        let action = str_at(c, &["whenUnsatisfiable"]);
        if !SCHEDULE_ACTIONS.contains(&action) {
            errs.push(FieldError::not_supported(
                &p.child("whenUnsatisfiable"),
                BadValue::str(action),
                SCHEDULE_ACTIONS,
            ));
        }
        let repeated = items[i + 1..].iter().any(|other| {
            str_at(other, &["topologyKey"]) == key
                && str_at(other, &["whenUnsatisfiable"]) == action
        });
        if repeated {
            errs.push(FieldError::duplicate(
                &p.child("{topologyKey, whenUnsatisfiable}"),
                BadValue::Str(format!("{{{key}, {action}}}")),
            ));
        }
        if let Some(min_domains) = int(c, "minDomains") {
            if min_domains <= 0 {
                errs.push(FieldError::invalid(
                    &p.child("minDomains"),
                    BadValue::Int(min_domains),
                    "must be greater than zero",
                ));
            }
            if action != "DoNotSchedule" {
                errs.push(FieldError::invalid(
                    &p.child("minDomains"),
                    BadValue::Int(min_domains),
                    format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"
                    ),
                ));
            }
        }
        for key in ["nodeAffinityPolicy", "nodeTaintsPolicy"] {
            if let Some(policy) = member(c, key).and_then(Value::as_str)
                && !INCLUSION_POLICIES.contains(&policy)
            {
                errs.push(FieldError::not_supported(
                    &p.child(key),
                    BadValue::str(policy),
                    INCLUSION_POLICIES,
                ));
            }
        }
        errs.extend(validate_label_selector(
            member(c, "labelSelector"),
            &p.child("labelSelector"),
        ));
    }
    errs
}
