//! Security contexts: the pod's (`validatePodSpecSecurityContext`) and a container's
//! (`ValidateSecurityContext`): user and group ids, seccomp profiles, the proc mount, and what
//! the cluster's policy forbids.

use smd_fieldpath::Value;

use super::super::names::inclusive_range_error;
use super::super::{BadValue, FieldError, FieldPath, json, member, str_at};
use super::volumes::local_descending_path;
use super::{int, list};

/// The seccomp profile types, in Go's order.
const SECCOMP_TYPES: &[&str] = &["Localhost", "RuntimeDefault", "Unconfined"];
/// The proc mount types, in Go's order.
const PROC_MOUNTS: &[&str] = &["Default", "Unmasked"];
/// `validFSGroupChangePolicies`, sorted.
const FS_GROUP_CHANGE_POLICIES: &[&str] = &["Always", "OnRootMismatch"];

/// `IsValidUserID` / `IsValidGroupID` of an id member, as `Invalid` at `path.key`.
fn id_range(context: &Value, key: &str, path: &FieldPath) -> Vec<FieldError> {
    match int(context, key) {
        Some(id) if !(0..=i64::from(i32::MAX)).contains(&id) => vec![FieldError::invalid(
            &path.child(key),
            BadValue::Int(id),
            inclusive_range_error(0, i64::from(i32::MAX)),
        )],
        _ => Vec::new(),
    }
}

/// `validatePodSpecSecurityContext` (ids, supplemental groups, the fsGroup change policy,
/// the seccomp profile) and `validateShareProcessNamespace`.
pub(super) fn pod_security_context(spec: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let sc_path = path.child("securityContext");
    if let Some(sc) = member(spec, "securityContext").filter(|v| !v.is_null()) {
        errs.extend(id_range(sc, "fsGroup", &sc_path));
        errs.extend(id_range(sc, "runAsUser", &sc_path));
        errs.extend(id_range(sc, "runAsGroup", &sc_path));
        for (i, gid) in list(member(sc, "supplementalGroups")).enumerate() {
            let gid = gid.as_int().unwrap_or(0);
            if !(0..=i64::from(i32::MAX)).contains(&gid) {
                errs.push(FieldError::invalid(
                    &sc_path.child("supplementalGroups").index(i),
                    BadValue::Int(gid),
                    inclusive_range_error(0, i64::from(i32::MAX)),
                ));
            }
        }
        if let Some(policy) = member(sc, "fsGroupChangePolicy").and_then(Value::as_str)
            && !FS_GROUP_CHANGE_POLICIES.contains(&policy)
        {
            errs.push(FieldError::not_supported(
                &sc_path.child("fsGroupChangePolicy"),
                BadValue::str(policy),
                FS_GROUP_CHANGE_POLICIES,
            ));
        }
        errs.extend(seccomp_profile(
            member(sc, "seccompProfile"),
            &sc_path.child("seccompProfile"),
        ));
    }
    let share = member(spec, "shareProcessNamespace").and_then(Value::as_bool);
    if share == Some(true) && member(spec, "hostPID").and_then(Value::as_bool) == Some(true) {
        errs.push(FieldError::invalid(
            &path.child("shareProcessNamespace"),
            BadValue::Bool(true),
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    errs
}

/// `ValidateSecurityContext` of a container (the cluster's default policy forbids
/// privileged containers).
pub(super) fn container_security_context(
    sc: Option<&Value>,
    host_users: bool,
    path: &FieldPath,
) -> Vec<FieldError> {
    let Some(sc) = sc.filter(|v| !v.is_null()) else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    if member(sc, "privileged").and_then(Value::as_bool) == Some(true) {
        errs.push(FieldError::forbidden(
            &path.child("privileged"),
            "disallowed by cluster policy",
        ));
    }
    errs.extend(id_range(sc, "runAsUser", path));
    errs.extend(id_range(sc, "runAsGroup", path));
    if let Some(proc_mount) = member(sc, "procMount").and_then(Value::as_str) {
        if !PROC_MOUNTS.contains(&proc_mount) {
            errs.push(FieldError::not_supported(
                &path.child("procMount"),
                BadValue::str(proc_mount),
                PROC_MOUNTS,
            ));
        }
        if host_users && proc_mount == "Unmasked" {
            errs.push(FieldError::invalid(
                &path.child("procMount"),
                BadValue::str(proc_mount),
                "`hostUsers` must be false to use `Unmasked`",
            ));
        }
    }
    errs.extend(seccomp_profile(
        member(sc, "seccompProfile"),
        &path.child("seccompProfile"),
    ));
    errs
}

/// `validateSeccompProfileField`: a known type; a local profile exactly for `Localhost`.
fn seccomp_profile(profile: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let Some(profile) = profile.filter(|v| !v.is_null()) else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    let kind = str_at(profile, &["type"]);
    if kind.is_empty() {
        errs.push(FieldError::required(
            &path.child("type"),
            "type is required when seccompProfile is set",
        ));
    } else if !SECCOMP_TYPES.contains(&kind) {
        errs.push(FieldError::not_supported(
            &path.child("type"),
            BadValue::str(kind),
            SECCOMP_TYPES,
        ));
    }
    let local = member(profile, "localhostProfile").and_then(Value::as_str);
    match (kind, local) {
        ("Localhost", None) => errs.push(FieldError::required(
            &path.child("localhostProfile"),
            "must be set when seccomp type is Localhost",
        )),
        ("Localhost", Some(local)) => {
            errs.extend(local_descending_path(
                local,
                &path.child("localhostProfile"),
            ));
        }
        (_, Some(local)) => errs.push(FieldError::invalid(
            &path.child("localhostProfile"),
            // The internal SeccompProfile, whose fields carry no JSON names.
            BadValue::Json(format!(
                "{{\"Type\":{},\"LocalhostProfile\":{}}}",
                json(&Value::from(kind)),
                json(&Value::from(local))
            )),
            "can only be set when seccomp type is Localhost",
        )),
        (_, None) => {}
    }
    errs
}
