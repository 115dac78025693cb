//! The `rbac.authorization.k8s.io` group's strategy validation (k8s.io/kubernetes v1.37.2
//! `pkg/apis/rbac/validation`): the roles' rules, a cluster role's aggregation selectors, the
//! bindings' role reference (immutable) and subjects. Names are path segments.

use smd_fieldpath::Value;

use super::generic::{immutable, list_at, set_at};
use super::names::{is_path_segment_name, name_is_dns_subdomain};
use super::render::internal_json;
use super::{BadValue, FieldError, FieldPath, Rules, json, member, selector, str_at};

const GROUP: &str = "rbac.authorization.k8s.io";

/// The rules of `kind`, if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    match kind {
        "Role" => Some(Rules {
            create: |o| role(o, true),
            update: |n, o, _| {
                let (errs, declarative) = role_parts(n, true);
                let mut errs = with_meta_update(errs, n, o);
                errs.extend(declarative);
                errs
            },
        }),
        "ClusterRole" => Some(Rules {
            create: |o| {
                let (mut errs, declarative) = cluster_role(o, false);
                errs.extend(declarative);
                errs
            },
            update: |n, o, _| {
                let tolerate = list_at(o, &["aggregationRule", "clusterRoleSelectors"])
                    .iter()
                    .any(|s| selector::has_invalid_label_value(Some(s)));
                let (errs, declarative) = cluster_role(n, tolerate);
                let mut errs = with_meta_update(errs, n, o);
                errs.extend(declarative);
                errs
            },
        }),
        "RoleBinding" => Some(Rules {
            create: |o| binding(o, true),
            update: |n, o, _| binding_update(n, o, true),
        }),
        "ClusterRoleBinding" => Some(Rules {
            create: |o| binding(o, false),
            update: |n, o, _| binding_update(n, o, false),
        }),
        _ => None,
    }
}

/// `ValidateRBACName`.
fn rbac_name(name: &str, _prefix: bool) -> Vec<String> {
    is_path_segment_name(name)
}

fn meta(object: &Value, namespaced: bool) -> Vec<FieldError> {
    super::meta::validate_object_meta(object, namespaced, rbac_name, &FieldPath::new("metadata"))
}

fn with_meta_update(mut errs: Vec<FieldError>, new: &Value, old: &Value) -> Vec<FieldError> {
    errs.extend(super::meta::validate_object_meta_update(
        new,
        old,
        &FieldPath::new("metadata"),
    ));
    errs
}

fn role(object: &Value, namespaced: bool) -> Vec<FieldError> {
    let (mut errs, declarative) = role_parts(object, namespaced);
    errs.extend(declarative);
    errs
}

/// A role's hand-written errors and, apart, those of its declarative rules (`+k8s:` tags,
/// beta and enforced in 1.37), which the server appends after the hand-written ones.
fn role_parts(object: &Value, namespaced: bool) -> (Vec<FieldError>, Vec<FieldError>) {
    let mut errs = meta(object, namespaced);
    let mut declarative = Vec::new();
    let path = FieldPath::new("rules");
    for (i, rule) in list_at(object, &["rules"]).iter().enumerate() {
        let p = path.index(i);
        if list_at(rule, &["verbs"]).is_empty() {
            declarative.push(FieldError::required(&p.child("verbs"), ""));
        }
        errs.extend(policy_rule(rule, namespaced, &p));
    }
    (errs, declarative)
}

/// `ValidateClusterRole`: the hand-written errors and, apart, the declarative ones.
fn cluster_role(
    object: &Value,
    tolerate_invalid_values: bool,
) -> (Vec<FieldError>, Vec<FieldError>) {
    let (mut errs, declarative) = role_parts(object, false);
    if let Some(rule) = set_at(object, &["aggregationRule"]) {
        let path = FieldPath::new("aggregationRule").child("clusterRoleSelectors");
        let selectors = list_at(rule, &["clusterRoleSelectors"]);
        if selectors.is_empty() {
            errs.push(FieldError::required(
                &path,
                "at least one clusterRoleSelector required if aggregationRule is non-nil",
            ));
        }
        for (i, s) in selectors.iter().enumerate() {
            let p = path.index(i);
            errs.extend(selector::validate_label_selector(
                Some(s),
                tolerate_invalid_values,
                &p,
            ));
            if selector::convert(Some(s)) == selector::Converted::Invalid {
                // Go shows the nil selector the failed conversion returned.
                errs.push(FieldError::invalid(
                    &p,
                    BadValue::null(),
                    "invalid label selector.",
                ));
            }
        }
    }
    (errs, declarative)
}

/// `ValidatePolicyRule` without its `verbs` check (declarative, see `role_parts`).
fn policy_rule(rule: &Value, namespaced: bool, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let len = |f: &str| list_at(rule, &[f]).len();
    if len("nonResourceURLs") > 0 {
        let urls = BadValue::Json(json(
            member(rule, "nonResourceURLs").unwrap_or(&Value::Null),
        ));
        if namespaced {
            errs.push(FieldError::invalid(
                &path.child("nonResourceURLs"),
                urls.clone(),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if len("apiGroups") > 0 || len("resources") > 0 || len("resourceNames") > 0 {
            errs.push(FieldError::invalid(
                &path.child("nonResourceURLs"),
                urls,
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return errs;
    }
    if len("apiGroups") == 0 {
        errs.push(FieldError::required(
            &path.child("apiGroups"),
            "resource rules must supply at least one api group",
        ));
    }
    if len("resources") == 0 {
        errs.push(FieldError::required(
            &path.child("resources"),
            "resource rules must supply at least one resource",
        ));
    }
    errs
}

/// `ValidateRoleBinding` / `ValidateClusterRoleBinding`.
fn binding(object: &Value, namespaced: bool) -> Vec<FieldError> {
    let (mut errs, declarative) = binding_parts(object, namespaced);
    errs.extend(declarative);
    errs
}

/// A binding's hand-written errors and, apart, its declarative ones.
fn binding_parts(object: &Value, namespaced: bool) -> (Vec<FieldError>, Vec<FieldError>) {
    let mut errs = meta(object, namespaced);
    let ref_path = FieldPath::new("roleRef");
    let api_group = str_at(object, &["roleRef", "apiGroup"]);
    if api_group != GROUP {
        errs.push(FieldError::not_supported(
            &ref_path.child("apiGroup"),
            BadValue::str(api_group),
            &[GROUP],
        ));
    }
    let kind = str_at(object, &["roleRef", "kind"]);
    let kinds: &[&str] = if namespaced {
        &["Role", "ClusterRole"]
    } else {
        &["ClusterRole"]
    };
    if !kinds.contains(&kind) {
        errs.push(FieldError::not_supported(
            &ref_path.child("kind"),
            BadValue::str(kind),
            kinds,
        ));
    }
    let mut declarative = Vec::new();
    let name = str_at(object, &["roleRef", "name"]);
    if name.is_empty() {
        declarative.push(FieldError::required(&ref_path.child("name"), ""));
    } else {
        errs.extend(
            is_path_segment_name(name)
                .into_iter()
                .map(|m| FieldError::invalid(&ref_path.child("name"), BadValue::str(name), m)),
        );
    }
    let path = FieldPath::new("subjects");
    for (i, s) in list_at(object, &["subjects"]).iter().enumerate() {
        let p = path.index(i);
        if str_at(s, &["name"]).is_empty() {
            declarative.push(FieldError::required(&p.child("name"), ""));
        }
        errs.extend(subject(s, namespaced, &p));
    }
    (errs, declarative)
}

/// The update of a binding: the declarative rules' errors (beta, enforced) after the
/// hand-written ones, the immutable role reference among the latter.
fn binding_update(new: &Value, old: &Value, namespaced: bool) -> Vec<FieldError> {
    let (errs, declarative) = binding_parts(new, namespaced);
    let mut errs = with_meta_update(errs, new, old);
    let role_ref = member(new, "roleRef");
    errs.extend(immutable(
        role_ref,
        member(old, "roleRef"),
        &FieldPath::new("roleRef"),
        || {
            BadValue::Json(internal_json(
                "io.k8s.api.rbac.v1.RoleRef",
                role_ref.unwrap_or(&Value::Null),
            ))
        },
    ));
    errs.extend(declarative);
    errs
}

/// `ValidateRoleBindingSubject`.
fn subject(s: &Value, namespaced: bool, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let name = str_at(s, &["name"]);
    let api_group = str_at(s, &["apiGroup"]);
    match str_at(s, &["kind"]) {
        "ServiceAccount" => {
            if !name.is_empty() {
                // `ValidateServiceAccountName`: a DNS subdomain.
                errs.extend(
                    name_is_dns_subdomain(name, false)
                        .into_iter()
                        .map(|m| FieldError::invalid(&path.child("name"), BadValue::str(name), m)),
                );
            }
            if !api_group.is_empty() {
                errs.push(FieldError::not_supported(
                    &path.child("apiGroup"),
                    BadValue::str(api_group),
                    &[""],
                ));
            }
            if !namespaced && str_at(s, &["namespace"]).is_empty() {
                errs.push(FieldError::required(&path.child("namespace"), ""));
            }
        }
        "User" | "Group" => {
            if api_group != GROUP {
                errs.push(FieldError::not_supported(
                    &path.child("apiGroup"),
                    BadValue::str(api_group),
                    &[GROUP],
                ));
            }
        }
        other => errs.push(FieldError::not_supported(
            &path.child("kind"),
            BadValue::str(other),
            &["ServiceAccount", "User", "Group"],
        )),
    }
    errs
}
