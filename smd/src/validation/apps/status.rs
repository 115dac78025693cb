//! The status strategies' checks of the apps kinds (`ValidateDeploymentStatusUpdate`,
//! `ValidateReplicaSetStatusUpdate`, `ValidateDaemonSetStatusUpdate`,
//! `ValidateStatefulSetStatusUpdate`): counters not negative, not above the replicas they
//! count among, the collision count never decremented.

use smd_fieldpath::Value;

use super::super::generic::{int_at, nonnegative, opt_int_at};
use super::super::{BadValue, FieldError, FieldPath};

const ABOVE_REPLICAS: &str = "cannot be greater than status.replicas";

fn path() -> FieldPath {
    FieldPath::new("status")
}

fn get(object: &Value, field: &str) -> i64 {
    int_at(object, &["status", field])
}

fn nonneg(object: &Value, fields: &[&str]) -> Vec<FieldError> {
    fields
        .iter()
        .flat_map(|f| nonnegative(get(object, f), &path().child(f)))
        .collect()
}

fn nonneg_opt(object: &Value, fields: &[&str]) -> Vec<FieldError> {
    fields
        .iter()
        .filter_map(|f| {
            opt_int_at(object, &["status", f]).map(|v| nonnegative(v, &path().child(f)))
        })
        .flatten()
        .collect()
}

/// `field` greater than `than` (another counter): Invalid with `detail`.
fn above(object: &Value, field: &str, than: &str, detail: &str) -> Option<FieldError> {
    let v = get(object, field);
    (v > get(object, than))
        .then(|| FieldError::invalid(&path().child(field), BadValue::Int(v), detail))
}

/// `IsDecremented(new.status.collisionCount, old.status.collisionCount)`.
pub(super) fn collision_count_decremented(new: &Value, old: &Value) -> Vec<FieldError> {
    let n = opt_int_at(new, &["status", "collisionCount"]);
    let o = opt_int_at(old, &["status", "collisionCount"]);
    let decremented = match (n, o) {
        (None, Some(_)) => true,
        (Some(n), Some(o)) => n < o,
        _ => false,
    };
    if decremented {
        vec![FieldError::invalid(
            &path().child("collisionCount"),
            BadValue::Int(n.unwrap_or(0)),
            "cannot be decremented",
        )]
    } else {
        Vec::new()
    }
}

/// `ValidateDeploymentStatus` and the collision count.
pub(super) fn deployment(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = nonneg(
        new,
        &[
            "observedGeneration",
            "replicas",
            "updatedReplicas",
            "readyReplicas",
            "availableReplicas",
            "unavailableReplicas",
        ],
    );
    errs.extend(nonneg_opt(new, &["terminatingReplicas", "collisionCount"]));
    errs.extend(above(new, "updatedReplicas", "replicas", ABOVE_REPLICAS));
    errs.extend(above(new, "readyReplicas", "replicas", ABOVE_REPLICAS));
    errs.extend(above(new, "availableReplicas", "replicas", ABOVE_REPLICAS));
    errs.extend(above(
        new,
        "availableReplicas",
        "readyReplicas",
        "cannot be greater than readyReplicas",
    ));
    errs.extend(collision_count_decremented(new, old));
    errs
}

/// `ValidateReplicaSetStatus`.
pub(super) fn replica_set(new: &Value) -> Vec<FieldError> {
    let mut errs = nonneg(
        new,
        &[
            "replicas",
            "fullyLabeledReplicas",
            "readyReplicas",
            "availableReplicas",
            "observedGeneration",
        ],
    );
    errs.extend(nonneg_opt(new, &["terminatingReplicas"]));
    errs.extend(above(
        new,
        "fullyLabeledReplicas",
        "replicas",
        ABOVE_REPLICAS,
    ));
    errs.extend(above(new, "readyReplicas", "replicas", ABOVE_REPLICAS));
    errs.extend(above(new, "availableReplicas", "replicas", ABOVE_REPLICAS));
    errs.extend(above(
        new,
        "availableReplicas",
        "readyReplicas",
        "cannot be greater than readyReplicas",
    ));
    errs
}

/// `validateDaemonSetStatus` and the collision count.
pub(super) fn daemon_set(new: &Value, old: &Value) -> Vec<FieldError> {
    let mut errs = nonneg(
        new,
        &[
            "currentNumberScheduled",
            "numberMisscheduled",
            "desiredNumberScheduled",
            "numberReady",
            "observedGeneration",
            "updatedNumberScheduled",
            "numberAvailable",
            "numberUnavailable",
        ],
    );
    errs.extend(nonneg_opt(new, &["collisionCount"]));
    errs.extend(collision_count_decremented(new, old));
    errs
}

/// `ValidateStatefulSetStatus` and the collision count.
pub(super) fn stateful_set(new: &Value) -> Vec<FieldError> {
    let mut errs = nonneg(
        new,
        &[
            "replicas",
            "readyReplicas",
            "currentReplicas",
            "updatedReplicas",
            "availableReplicas",
        ],
    );
    errs.extend(nonneg_opt(new, &["observedGeneration", "collisionCount"]));
    errs.extend(above(new, "readyReplicas", "replicas", ABOVE_REPLICAS));
    errs.extend(above(new, "currentReplicas", "replicas", ABOVE_REPLICAS));
    errs.extend(above(new, "updatedReplicas", "replicas", ABOVE_REPLICAS));
    errs.extend(above(new, "availableReplicas", "replicas", ABOVE_REPLICAS));
    errs.extend(above(
        new,
        "availableReplicas",
        "readyReplicas",
        "cannot be greater than status.readyReplicas",
    ));
    errs
}
