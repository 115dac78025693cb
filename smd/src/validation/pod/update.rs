//! `ValidatePodUpdate`: a pod's spec is immutable but for its images, a shorter deadline,
//! added tolerations, removed scheduling gates and a negative grace period set to 1; any
//! other change is refused with the diff of the specs.

use smd_fieldpath::Value;

use super::super::meta;
use super::super::render::internal_diff;
use super::super::{BadValue, FieldError, FieldPath, member, str_at};
use super::{int, list, semantic_eq, spec, validate_pod_metadata_and_spec};

/// The fields a pod update may change, as Go lists them in its refusal.
const UPDATABLE: &str = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// `ValidatePodUpdate(new, old, opts)`.
pub(super) fn validate_pod_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let null = Value::Null;
    let mut errs = meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"));
    errs.extend(validate_pod_metadata_and_spec(new));
    let spec_path = FieldPath::new("spec");
    let new_spec = member(new, "spec").unwrap_or(&null);
    let old_spec = member(old, "spec").unwrap_or(&null);
    for key in ["containers", "initContainers"] {
        let (more, stop) = container_updates(
            member(new_spec, key),
            member(old_spec, key),
            &spec_path.child(key),
        );
        errs.extend(more);
        if stop {
            return errs;
        }
    }
    let deadline_path = spec_path.child("activeDeadlineSeconds");
    match (
        int(new_spec, "activeDeadlineSeconds"),
        int(old_spec, "activeDeadlineSeconds"),
    ) {
        (Some(new_deadline), old_deadline) => {
            if !(0..=i64::from(i32::MAX)).contains(&new_deadline) {
                errs.push(FieldError::invalid(
                    &deadline_path,
                    BadValue::Int(new_deadline),
                    super::names::inclusive_range_error(0, i64::from(i32::MAX)),
                ));
                return errs;
            }
            if old_deadline.is_some_and(|o| o < new_deadline) {
                errs.push(FieldError::invalid(
                    &deadline_path,
                    BadValue::Int(new_deadline),
                    "must be less than or equal to previous value",
                ));
                return errs;
            }
        }
        (None, Some(_)) => errs.push(FieldError::invalid(
            &deadline_path,
            BadValue::null(),
            "must not update from a positive integer to nil value",
        )),
        (None, None) => {}
    }
    errs.extend(only_added_tolerations(
        member(new_spec, "tolerations"),
        member(old_spec, "tolerations"),
        &spec_path.child("tolerations"),
    ));
    errs.extend(only_deleted_gates(
        member(new_spec, "schedulingGates"),
        member(old_spec, "schedulingGates"),
        &spec_path.child("schedulingGates"),
    ));
    if semantic_eq(new_spec, old_spec) {
        return errs;
    }
    let munged = munge(new_spec, old_spec);
    if !semantic_eq(&munged, old_spec) {
        let diff = internal_diff("io.k8s.api.core.v1.PodSpec", old_spec, &munged);
        errs.push(FieldError::forbidden(
            &spec_path,
            format!("pod updates may not change fields other than {UPDATABLE}\n{diff}"),
        ));
    }
    errs
}

/// `ValidateContainerUpdates`: the same number of containers (else stop), each with an
/// image without surrounding space.
fn container_updates(
    new: Option<&Value>,
    old: Option<&Value>,
    path: &FieldPath,
) -> (Vec<FieldError>, bool) {
    if list(new).count() != list(old).count() {
        return (
            vec![FieldError::forbidden(
                path,
                "pod updates may not add or remove containers",
            )],
            true,
        );
    }
    let mut errs = Vec::new();
    for (i, c) in list(new).enumerate() {
        let image = str_at(c, &["image"]);
        if image.is_empty() {
            errs.push(FieldError::required(&path.index(i).child("image"), ""));
        }
        if image.trim().len() != image.len() {
            errs.push(FieldError::invalid(
                &path.index(i).child("image"),
                BadValue::str(image),
                "must not have leading or trailing whitespace",
            ));
        }
    }
    (errs, false)
}

/// `validateOnlyAddedTolerations`: every old toleration is still there (its
/// `tolerationSeconds` aside), then the new ones are valid.
fn only_added_tolerations(
    new: Option<&Value>,
    old: Option<&Value>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let without_seconds = |t: &Value| {
        let mut t = t.clone();
        if let Some(m) = t.as_map_mut() {
            m.remove("tolerationSeconds");
        }
        t
    };
    for o in list(old) {
        let o = without_seconds(o);
        if !list(new).any(|n| without_seconds(n) == o) {
            return vec![FieldError::forbidden(
                path,
                "existing toleration can not be modified except its tolerationSeconds",
            )];
        }
    }
    spec::tolerations(new, path)
}

/// `validateOnlyDeletedSchedulingGates`: no gate the old pod did not have.
fn only_deleted_gates(
    new: Option<&Value>,
    old: Option<&Value>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let old_names: Vec<&str> = list(old).map(|g| str_at(g, &["name"])).collect();
    let mut errs = Vec::new();
    let mut reported: Vec<&str> = Vec::new();
    let gates: Vec<&str> = list(new).map(|g| str_at(g, &["name"])).collect();
    // Go keeps the last index of each name and reports each new name once.
    for (i, name) in gates.iter().enumerate().rev() {
        if old_names.contains(name) || reported.contains(name) {
            continue;
        }
        reported.push(name);
        errs.push(FieldError::forbidden(
            &path.index(i).child("name"),
            format!("only deletion is allowed, but found new scheduling gate '{name}'"),
        ));
    }
    errs.reverse();
    errs
}

/// The new spec with what an update may change taken from the old one.
fn munge(new: &Value, old: &Value) -> Value {
    let mut munged = new.clone();
    let Some(m) = munged.as_map_mut() else {
        return munged;
    };
    for key in ["containers", "initContainers"] {
        let old_images: Vec<Value> = list(member(old, key))
            .map(|c| member(c, "image").cloned().unwrap_or(Value::Null))
            .collect();
        if let Some(items) = m.get_mut(key).and_then(Value::as_list_mut) {
            for (c, image) in items.iter_mut().zip(old_images) {
                if let Some(c) = c.as_map_mut() {
                    if image.is_null() {
                        c.remove("image");
                    } else {
                        c.insert("image", image);
                    }
                }
            }
        }
    }
    for key in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
        match member(old, key) {
            Some(v) => {
                m.insert(key, v.clone());
            }
            None => {
                m.remove(key);
            }
        }
    }
    let grace = |v: &Value| int(v, "terminationGracePeriodSeconds");
    if grace(old).is_some_and(|g| g < 0) && grace(new) == Some(1) {
        if let Some(g) = member(old, "terminationGracePeriodSeconds") {
            m.insert("terminationGracePeriodSeconds", g.clone());
        }
    }
    munged
}
