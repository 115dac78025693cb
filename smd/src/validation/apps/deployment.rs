//! Deployment and ReplicaSet (`ValidateDeployment`, `ValidateDeploymentSpec`,
//! `ValidateDeploymentStrategy`, `ValidateReplicaSet`, `ValidateReplicaSetSpec`,
//! `ValidatePodTemplateSpecForReplicaSet` and their updates).

use smd_fieldpath::Value;

use super::super::generic::{
    int_at, int_or_percent_value, int_or_string_value, nonnegative, nonnegative_opt,
    not_more_than_100_percent, opt_int_at, positive_int_or_percent, set_at,
};
use super::super::names::name_is_dns_subdomain;
use super::super::render::internal_json;
use super::super::{BadValue, FieldError, FieldPath, Rules, member, str_at};
use super::status;

/// Deployment's strategy rules.
pub(super) const DEPLOYMENT: Rules = Rules {
    create: deployment_create,
    update: deployment_update,
};

/// ReplicaSet's strategy rules.
pub(super) const REPLICA_SET: Rules = Rules {
    create: replica_set_create,
    update: replica_set_update,
};

fn spec_of(object: &Value) -> &Value {
    member(object, "spec").unwrap_or(&Value::Null)
}

fn deployment_create(object: &Value) -> Vec<FieldError> {
    let mut errs = super::meta_create(object, name_is_dns_subdomain);
    errs.extend(deployment_spec(spec_of(object)));
    errs
}

fn deployment_update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    let mut errs = super::meta_update(new, old);
    if subresource == "status" {
        errs.extend(status::deployment(new, old));
        return errs;
    }
    errs.extend(deployment_spec(spec_of(new)));
    errs.extend(super::selector_immutable(new, old));
    errs
}

/// `ValidateDeploymentSpec`.
fn deployment_spec(spec: &Value) -> Vec<FieldError> {
    let path = FieldPath::new("spec");
    let mut errs = nonnegative(int_at(spec, &["replicas"]), &path.child("replicas"));
    // A Deployment's template is checked as its ReplicaSets' (and named so).
    errs.extend(replica_set_like(spec, &path, "ReplicaSet"));
    errs.extend(strategy(spec, &path.child("strategy")));
    let min_ready = int_at(spec, &["minReadySeconds"]);
    errs.extend(nonnegative(min_ready, &path.child("minReadySeconds")));
    errs.extend(nonnegative_opt(
        opt_int_at(spec, &["revisionHistoryLimit"]),
        &path.child("revisionHistoryLimit"),
    ));
    if let Some(deadline) = opt_int_at(spec, &["progressDeadlineSeconds"]) {
        let p = path.child("progressDeadlineSeconds");
        errs.extend(nonnegative(deadline, &p));
        if deadline <= min_ready {
            errs.push(FieldError::invalid(
                &p,
                BadValue::Int(deadline),
                "must be greater than minReadySeconds",
            ));
        }
    }
    errs
}

/// The selector and template checks of a Deployment's or ReplicaSet's spec (both say
/// "deployment" of an empty selector).
fn replica_set_like(spec: &Value, path: &FieldPath, kind: &str) -> Vec<FieldError> {
    let mut errs = super::selector_and_labels(spec, path, "deployment", "invalid label selector");
    if super::super::selector::convert(super::generic_selector(spec))
        != super::super::selector::Converted::Invalid
    {
        errs.extend(super::template_checks(spec, path, kind));
    }
    errs
}

/// `ValidateDeploymentStrategy`.
fn strategy(spec: &Value, path: &FieldPath) -> Vec<FieldError> {
    let strategy = member(spec, "strategy").unwrap_or(&Value::Null);
    let rolling = set_at(strategy, &["rollingUpdate"]);
    match str_at(strategy, &["type"]) {
        "Recreate" => rolling
            .map(|_| {
                FieldError::forbidden(
                    &path.child("rollingUpdate"),
                    "may not be specified when strategy `type` is 'Recreate'",
                )
            })
            .into_iter()
            .collect(),
        "RollingUpdate" => match rolling {
            None => vec![FieldError::required(
                &path.child("rollingUpdate"),
                "this should be defaulted and never be nil",
            )],
            Some(r) => rolling_update(r, &path.child("rollingUpdate")),
        },
        _ => vec![FieldError::not_supported(
            path,
            BadValue::Json(internal_json(
                "io.k8s.api.apps.v1.DeploymentStrategy",
                strategy,
            )),
            &["Recreate", "RollingUpdate"],
        )],
    }
}

/// `ValidateRollingUpdateDeployment`.
fn rolling_update(r: &Value, path: &FieldPath) -> Vec<FieldError> {
    let zero = Value::Int(0);
    let unavailable = set_at(r, &["maxUnavailable"]).unwrap_or(&zero);
    let surge = set_at(r, &["maxSurge"]).unwrap_or(&zero);
    let un_path = path.child("maxUnavailable");
    let mut errs = positive_int_or_percent(unavailable, &un_path);
    errs.extend(positive_int_or_percent(surge, &path.child("maxSurge")));
    if int_or_percent_value(unavailable) == 0 && int_or_percent_value(surge) == 0 {
        errs.push(FieldError::invalid(
            &un_path,
            int_or_string_value(unavailable),
            "may not be 0 when `maxSurge` is 0",
        ));
    }
    errs.extend(not_more_than_100_percent(unavailable, &un_path));
    errs
}

fn replica_set_create(object: &Value) -> Vec<FieldError> {
    let mut errs = super::meta_create(object, name_is_dns_subdomain);
    errs.extend(replica_set_spec(spec_of(object)));
    errs
}

fn replica_set_update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    let mut errs = super::meta_update(new, old);
    if subresource == "status" {
        errs.extend(status::replica_set(new));
        return errs;
    }
    errs.extend(replica_set_spec(spec_of(new)));
    errs.extend(super::selector_immutable(new, old));
    errs
}

/// `ValidateReplicaSetSpec`.
fn replica_set_spec(spec: &Value) -> Vec<FieldError> {
    let path = FieldPath::new("spec");
    let mut errs = nonnegative(int_at(spec, &["replicas"]), &path.child("replicas"));
    errs.extend(nonnegative(
        int_at(spec, &["minReadySeconds"]),
        &path.child("minReadySeconds"),
    ));
    errs.extend(replica_set_like(spec, &path, "ReplicaSet"));
    errs
}
