//! DaemonSet (`ValidateDaemonSet`, `ValidateDaemonSetSpec`, `ValidateDaemonSetUpdateStrategy`,
//! `ValidateRollingUpdateDaemonSet`, `ValidateDaemonSetSpecUpdate`).

use smd_fieldpath::Value;

use super::super::generic::{
    int_at, int_or_percent_value, int_or_string_value, nonnegative, nonnegative_opt,
    not_more_than_100_percent, opt_int_at, positive_int_or_percent, semantic_eq, set_at,
};
use super::super::names::name_is_dns_subdomain;
use super::super::render::internal_json;
use super::super::selector::{self, Converted};
use super::super::{BadValue, FieldError, FieldPath, Rules, member, str_at};
use super::status;

/// DaemonSet's strategy rules.
pub(super) const RULES: Rules = Rules { create, update };

fn spec_of(object: &Value) -> &Value {
    member(object, "spec").unwrap_or(&Value::Null)
}

fn create(object: &Value) -> Vec<FieldError> {
    let mut errs = super::meta_create(object, name_is_dns_subdomain);
    errs.extend(spec(spec_of(object), template_generation(object), false));
    errs
}

fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    let mut errs = super::meta_update(new, old);
    if subresource == "status" {
        errs.extend(status::daemon_set(new, old));
        return errs;
    }
    errs.extend(spec_update(new, old));
    // An old selector's invalid values are tolerated in the new one.
    let tolerate = selector::has_invalid_label_value(set_at(old, &["spec", "selector"]));
    errs.extend(spec(spec_of(new), template_generation(new), tolerate));
    errs
}

/// The internal `spec.templateGeneration`, which apps/v1 carries in the
/// `deprecated.daemonset.template.generation` annotation (0 when absent or not a number, as
/// the conversion leaves it).
fn template_generation(object: &Value) -> i64 {
    super::super::at(object, &["metadata", "annotations"])
        .and_then(|a| member(a, "deprecated.daemonset.template.generation"))
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// `ValidateDaemonSetSpecUpdate`: the template generation moves with the template, the
/// selector stays.
fn spec_update(new_ds: &Value, old_ds: &Value) -> Vec<FieldError> {
    let path = FieldPath::new("spec").child("templateGeneration");
    let (n, o) = (template_generation(new_ds), template_generation(old_ds));
    let (new, old) = (spec_of(new_ds), spec_of(old_ds));
    let mut errs = Vec::new();
    if n < o {
        errs.push(FieldError::invalid(
            &path,
            BadValue::Int(n),
            "must not be decremented",
        ));
    }
    let null = Value::Null;
    let changed = !semantic_eq(
        member(new, "template").unwrap_or(&null),
        member(old, "template").unwrap_or(&null),
    );
    if n == o && changed {
        errs.push(FieldError::invalid(
            &path,
            BadValue::Int(n),
            "must be incremented upon template update",
        ));
    } else if n > o && !changed {
        errs.push(FieldError::invalid(
            &path,
            BadValue::Int(n),
            "must not be incremented without template update",
        ));
    }
    let new_sel = set_at(new, &["selector"]);
    errs.extend(super::super::generic::immutable(
        new_sel,
        set_at(old, &["selector"]),
        &FieldPath::new("spec").child("selector"),
        || selector::shown(new_sel),
    ));
    errs
}

/// `ValidateDaemonSetSpec`.
fn spec(spec: &Value, generation: i64, tolerate_invalid_values: bool) -> Vec<FieldError> {
    let path = FieldPath::new("spec");
    let sel = set_at(spec, &["selector"]);
    let mut errs =
        selector::validate_label_selector(sel, tolerate_invalid_values, &path.child("selector"));
    if selector::convert(sel) != Converted::Invalid {
        errs.extend(super::template_labels_match(spec, &path));
    }
    if let Some(s) = sel.filter(|s| selector::is_empty(s)) {
        errs.push(FieldError::invalid(
            &path.child("selector"),
            selector::shown(Some(s)),
            "empty selector is invalid for daemonset",
        ));
    }
    errs.extend(super::template_checks(spec, &path, "DaemonSet"));
    errs.extend(nonnegative(
        int_at(spec, &["minReadySeconds"]),
        &path.child("minReadySeconds"),
    ));
    errs.extend(nonnegative(generation, &path.child("templateGeneration")));
    errs.extend(update_strategy(spec, &path.child("updateStrategy")));
    errs.extend(nonnegative_opt(
        opt_int_at(spec, &["revisionHistoryLimit"]),
        &path.child("revisionHistoryLimit"),
    ));
    errs
}

/// `ValidateDaemonSetUpdateStrategy`.
fn update_strategy(spec: &Value, path: &FieldPath) -> Vec<FieldError> {
    let strategy = member(spec, "updateStrategy").unwrap_or(&Value::Null);
    match str_at(strategy, &["type"]) {
        "OnDelete" => Vec::new(),
        "RollingUpdate" => match set_at(strategy, &["rollingUpdate"]) {
            None => vec![FieldError::required(&path.child("rollingUpdate"), "")],
            Some(r) => rolling_update(r, &path.child("rollingUpdate")),
        },
        _ => vec![FieldError::not_supported(
            path,
            BadValue::Json(internal_json(
                "io.k8s.api.apps.v1.DaemonSetUpdateStrategy",
                strategy,
            )),
            &["RollingUpdate", "OnDelete"],
        )],
    }
}

/// `ValidateRollingUpdateDaemonSet`: one of `maxUnavailable` and `maxSurge` non-zero.
fn rolling_update(r: &Value, path: &FieldPath) -> Vec<FieldError> {
    let zero = Value::Int(0);
    let unavailable = set_at(r, &["maxUnavailable"]).unwrap_or(&zero);
    let surge = set_at(r, &["maxSurge"]).unwrap_or(&zero);
    let (un_path, surge_path) = (path.child("maxUnavailable"), path.child("maxSurge"));
    let mut errs = positive_int_or_percent(unavailable, &un_path);
    errs.extend(positive_int_or_percent(surge, &surge_path));
    errs.extend(not_more_than_100_percent(unavailable, &un_path));
    errs.extend(not_more_than_100_percent(surge, &surge_path));
    let has_unavailable = int_or_percent_value(unavailable) != 0;
    let has_surge = int_or_percent_value(surge) != 0;
    if has_unavailable && has_surge {
        errs.push(FieldError::invalid(
            &surge_path,
            int_or_string_value(surge),
            "may not be set when maxUnavailable is non-zero",
        ));
    } else if !has_unavailable && !has_surge {
        errs.push(FieldError::required(
            &un_path,
            "cannot be 0 when maxSurge is 0",
        ));
    }
    errs
}
