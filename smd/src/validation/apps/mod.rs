//! The `apps` group's strategy validation (k8s.io/kubernetes v1.37.2 `pkg/apis/apps/validation`
//! and the strategies of `pkg/registry/apps`): one module per kind, with the template and
//! rolling-update checks they share here.

mod controller_revision;
mod daemonset;
mod deployment;
mod statefulset;
mod status;

use smd_fieldpath::Value;

use super::generic::typed_str;
use super::selector::{self, Converted};
use super::{BadValue, FieldError, FieldPath, Rules};

/// The rules of `kind`, if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    match kind {
        "Deployment" => Some(deployment::DEPLOYMENT),
        "ReplicaSet" => Some(deployment::REPLICA_SET),
        "DaemonSet" => Some(daemonset::RULES),
        "StatefulSet" => Some(statefulset::RULES),
        "ControllerRevision" => Some(controller_revision::RULES),
        _ => None,
    }
}

/// The template's labels as a message shows them (`map[string]string`, `null` when nil).
fn labels_shown(template: &Value) -> BadValue {
    super::at(template, &["metadata", "labels"])
        .map(BadValue::of)
        .unwrap_or_else(BadValue::null)
}

/// The selector checks Deployment, ReplicaSet and StatefulSet share: required, valid, not
/// empty (`what` names the kind in the message), then the template's labels matched against
/// it; `invalid_detail` is what the kind says of a selector that does not convert.
fn selector_and_labels(
    spec: &Value,
    spec_path: &FieldPath,
    what: &str,
    invalid_detail: &str,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let sel_path = spec_path.child("selector");
    let sel = generic_selector(spec);
    match sel {
        None => errs.push(FieldError::required(&sel_path, "")),
        Some(s) => {
            errs.extend(selector::validate_label_selector(Some(s), false, &sel_path));
            if selector::is_empty(s) {
                errs.push(FieldError::invalid(
                    &sel_path,
                    selector::shown(Some(s)),
                    format!("empty selector is invalid for {what}"),
                ));
            }
        }
    }
    if selector::convert(sel) == Converted::Invalid {
        errs.push(FieldError::invalid(
            &sel_path,
            selector::shown(sel),
            invalid_detail,
        ));
    } else {
        errs.extend(template_labels_match(spec, spec_path));
    }
    errs
}

/// `spec.selector` unless absent or `null`.
fn generic_selector(spec: &Value) -> Option<&Value> {
    super::generic::set_at(spec, &["selector"])
}

/// The template's labels against a selector that converted and is not empty.
fn template_labels_match(spec: &Value, spec_path: &FieldPath) -> Vec<FieldError> {
    let sel = generic_selector(spec);
    let template = super::member(spec, "template").unwrap_or(&Value::Null);
    if selector::convert(sel) == Converted::Everything {
        return Vec::new();
    }
    match selector::matches(sel, super::at(template, &["metadata", "labels"])) {
        Some(false) => vec![FieldError::invalid(
            &spec_path
                .child("template")
                .child("metadata")
                .child("labels"),
            labels_shown(template),
            "`selector` does not match template `labels`",
        )],
        _ => Vec::new(),
    }
}

/// The pod template's own validation and the restart policy and deadline a controller's
/// pods may have (`kind` as the message names it).
fn template_checks(spec: &Value, spec_path: &FieldPath, kind: &str) -> Vec<FieldError> {
    let template = super::member(spec, "template").unwrap_or(&Value::Null);
    let t_path = spec_path.child("template");
    let mut errs = super::pod::validate_pod_template_spec(template, &t_path);
    errs.extend(restart_policy_always(template, &t_path, kind));
    errs
}

/// `restartPolicy` must be `Always`, `activeDeadlineSeconds` unset.
fn restart_policy_always(template: &Value, t_path: &FieldPath, kind: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let policy = super::str_at(template, &["spec", "restartPolicy"]);
    if policy != "Always" {
        errs.push(FieldError::not_supported(
            &t_path.child("spec").child("restartPolicy"),
            typed_str(policy),
            &["Always"],
        ));
    }
    if super::generic::set_at(template, &["spec", "activeDeadlineSeconds"]).is_some() {
        errs.push(FieldError::forbidden(
            &t_path.child("spec").child("activeDeadlineSeconds"),
            format!("activeDeadlineSeconds in {kind} is not Supported"),
        ));
    }
    errs
}

/// `ValidateImmutableField(spec.selector)`.
fn selector_immutable(new: &Value, old: &Value) -> Vec<FieldError> {
    let new_sel = super::generic::set_at(new, &["spec", "selector"]);
    super::generic::immutable(
        new_sel,
        super::generic::set_at(old, &["spec", "selector"]),
        &FieldPath::new("spec").child("selector"),
        || selector::shown(new_sel),
    )
}

/// `metadata` of a namespaced apps object on create.
fn meta_create(object: &Value, name_fn: super::meta::NameFn) -> Vec<FieldError> {
    super::meta::validate_object_meta(object, true, name_fn, &FieldPath::new("metadata"))
}

/// `ValidateObjectMetaUpdate` of two apps objects.
fn meta_update(new: &Value, old: &Value) -> Vec<FieldError> {
    super::meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"))
}
