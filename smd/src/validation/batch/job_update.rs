//! Job updates (`ValidateJobUpdate`, `ValidateJobSpecUpdate`, `validateCompletions`,
//! `validatePodTemplateUpdate`, `validatePodResourceUpdatesOnly`) with the options the
//! strategy derives from the old Job: a suspended Job that has not started (or is marked
//! suspended) and runs no pods may change its pods' scheduling directives and resources.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::super::generic::{immutable, int_at, semantic_eq, set_at, typed_str};
use super::super::render::internal_json;
use super::super::selector;
use super::super::{BadValue, FieldError, FieldPath, member};
use super::job::{self, spec_of};
use super::job_status;

/// The strategy's `ValidateUpdate` (main resource) and the status strategy's.
pub(super) fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    let mut errs =
        super::super::meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"));
    if subresource == "status" {
        errs.extend(job_status::status_update(new, old));
        return errs;
    }
    errs.extend(spec_update(new, old));
    errs.extend(job::name_allows_completions(new));
    errs
}

/// Whether the old Job lets its pod template change (`shouldAllowMutablePodTemplate`).
fn template_mutable(old: &Value) -> bool {
    let suspended = member(spec_of(old), "suspend").and_then(Value::as_bool) == Some(true);
    let not_started = set_at(old, &["status", "startTime"]).is_none();
    let suspended_condition = job_status::condition_true(old, "Suspended");
    suspended && (not_started || suspended_condition) && int_at(old, &["status", "active"]) == 0
}

fn spec_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let (spec, old_spec) = (spec_of(new), spec_of(old));
    let path = FieldPath::new("spec");
    let tolerate = selector::has_invalid_label_value(set_at(old_spec, &["selector"]));
    let mut errs = job::job_spec(spec, &path, tolerate);
    errs.extend(completions(spec, old_spec, &path.child("completions")));
    let sel = set_at(spec, &["selector"]);
    errs.extend(immutable(
        sel,
        set_at(old_spec, &["selector"]),
        &path.child("selector"),
        || selector::shown(sel),
    ));
    errs.extend(template_update(
        spec,
        old_spec,
        template_mutable(old),
        &path,
    ));
    let shown_json = |type_name: &'static str, v: Option<&Value>| match v {
        Some(v) => BadValue::Json(internal_json(type_name, v)),
        None => BadValue::null(),
    };
    let mode = set_at(spec, &["completionMode"]);
    errs.extend(immutable(
        mode,
        set_at(old_spec, &["completionMode"]),
        &path.child("completionMode"),
        || {
            mode.and_then(Value::as_str)
                .map(typed_str)
                .unwrap_or_else(BadValue::null)
        },
    ));
    let pfp = set_at(spec, &["podFailurePolicy"]);
    errs.extend(immutable(
        pfp,
        set_at(old_spec, &["podFailurePolicy"]),
        &path.child("podFailurePolicy"),
        || shown_json("io.k8s.api.batch.v1.PodFailurePolicy", pfp),
    ));
    let per_index = set_at(spec, &["backoffLimitPerIndex"]);
    errs.extend(immutable(
        per_index,
        set_at(old_spec, &["backoffLimitPerIndex"]),
        &path.child("backoffLimitPerIndex"),
        || per_index.map(BadValue::of).unwrap_or_else(BadValue::null),
    ));
    let managed = set_at(spec, &["managedBy"]);
    errs.extend(immutable(
        managed,
        set_at(old_spec, &["managedBy"]),
        &path.child("managedBy"),
        || {
            managed
                .map(|v| BadValue::Json(super::super::json(v)))
                .unwrap_or_else(BadValue::null)
        },
    ));
    let success = set_at(spec, &["successPolicy"]);
    errs.extend(immutable(
        success,
        set_at(old_spec, &["successPolicy"]),
        &path.child("successPolicy"),
        || shown_json("io.k8s.api.batch.v1.SuccessPolicy", success),
    ));
    errs
}

/// `validateCompletions`: immutable, except an indexed Job's, which may change together with
/// its parallelism.
fn completions(spec: &Value, old_spec: &Value, path: &FieldPath) -> Vec<FieldError> {
    let new = set_at(spec, &["completions"]);
    let shown = || new.map(BadValue::of).unwrap_or_else(BadValue::null);
    let indexed = member(spec, "completionMode").and_then(Value::as_str) == Some("Indexed");
    if !indexed {
        return immutable(new, set_at(old_spec, &["completions"]), path, shown);
    }
    let old = set_at(old_spec, &["completions"]);
    let Some(n) = new.and_then(Value::as_int) else {
        return Vec::new();
    };
    if old.and_then(Value::as_int) == Some(n) {
        return Vec::new();
    }
    // Go dereferences parallelism here: the defaulting always sets it.
    let parallelism = set_at(spec, &["parallelism"]).and_then(Value::as_int);
    if parallelism != Some(n) {
        return vec![FieldError::invalid(
            path,
            shown(),
            "can only be modified in tandem with spec.parallelism",
        )];
    }
    Vec::new()
}

/// `validatePodTemplateUpdate`.
fn template_update(
    spec: &Value,
    old_spec: &Value,
    mutable: bool,
    path: &FieldPath,
) -> Vec<FieldError> {
    let null = Value::Null;
    let template = member(spec, "template").unwrap_or(&null);
    let mut old_template = member(old_spec, "template")
        .cloned()
        .unwrap_or(Value::Map(Map::new()));
    if mutable {
        take_scheduling_directives(&mut old_template, template);
    }
    let suspended = member(old_spec, "suspend").and_then(Value::as_bool) == Some(true);
    let t_path = path.child("template");
    if !suspended || !mutable {
        return immutable(Some(template), Some(&old_template), &t_path, || {
            BadValue::Json(internal_json(
                "io.k8s.api.core.v1.PodTemplateSpec",
                template,
            ))
        });
    }
    // Only the containers' resources may change besides the directives.
    let pod = member(template, "spec").unwrap_or(&null);
    let mut old_pod = member(&old_template, "spec")
        .cloned()
        .unwrap_or(Value::Null);
    for list in ["containers", "initContainers"] {
        let new_list = super::super::generic::list_at(pod, &[list]);
        if let Some(old_list) = old_pod
            .as_map_mut()
            .and_then(|m| m.get_mut(list))
            .and_then(Value::as_list_mut)
        {
            if old_list.len() == new_list.len() {
                for (o, n) in old_list.iter_mut().zip(new_list) {
                    let same_name = member(o, "name") == member(n, "name");
                    if let (true, Some(m)) = (same_name, o.as_map_mut()) {
                        match member(n, "resources") {
                            Some(r) => m.insert("resources", r.clone()),
                            None => m.remove("resources"),
                        };
                    }
                }
            }
        }
    }
    if semantic_eq(pod, &old_pod) {
        return Vec::new();
    }
    vec![FieldError::invalid(
        &t_path.child("spec"),
        BadValue::Json(internal_json("io.k8s.api.core.v1.PodSpec", pod)),
        super::super::generic::IMMUTABLE_MSG,
    )]
}

/// The old template takes the new one's node affinity, node selector, tolerations,
/// annotations, labels and scheduling gates (the fields a suspended Job may change).
fn take_scheduling_directives(old: &mut Value, new: &Value) {
    let Some(old_map) = old.as_map_mut() else {
        return;
    };
    let copy = |m: &mut Map, key: &str, from: Option<&Value>| match from {
        Some(v) => {
            m.insert(key, v.clone());
        }
        None => {
            m.remove(key);
        }
    };
    if !matches!(old_map.get("metadata"), Some(Value::Map(_))) {
        old_map.insert("metadata", Value::Map(Map::new()));
    }
    if let Some(meta) = old_map.get_mut("metadata").and_then(Value::as_map_mut) {
        for key in ["annotations", "labels"] {
            copy(meta, key, super::super::at(new, &["metadata", key]));
        }
    }
    if !matches!(old_map.get("spec"), Some(Value::Map(_))) {
        old_map.insert("spec", Value::Map(Map::new()));
    }
    if let Some(pod) = old_map.get_mut("spec").and_then(Value::as_map_mut) {
        for key in ["nodeSelector", "tolerations", "schedulingGates"] {
            copy(pod, key, super::super::at(new, &["spec", key]));
        }
        if !matches!(pod.get("affinity"), Some(Value::Map(_))) {
            pod.insert("affinity", Value::Map(Map::new()));
        }
        if let Some(affinity) = pod.get_mut("affinity").and_then(Value::as_map_mut) {
            copy(
                affinity,
                "nodeAffinity",
                super::super::at(new, &["spec", "affinity", "nodeAffinity"]),
            );
        }
    }
}
