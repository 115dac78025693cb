//! Job on create and the spec checks every Job and job template gets (`ValidateJobCreate`,
//! `validateGeneratedSelector`, `ValidateJobSpec`, `validateJobSpec`,
//! `validateNameAllowsCompletions`).

use smd_fieldpath::Value;

use super::super::generic::{nonnegative, opt_int_at, set_at, typed_str};
use super::super::names::{self, name_is_dns_subdomain};
use super::super::selector::{self, Converted};
use super::super::{BadValue, FieldError, FieldPath, Rules, member, str_at};
use super::{job_policies, job_update};

/// Job's strategy rules (the status subresource's too).
pub(super) const RULES: Rules = Rules {
    create,
    update: job_update::update,
};

/// The labels the strategy puts on a Job's pods and selects them by.
pub(super) const LEGACY_CONTROLLER_UID: &str = "controller-uid";
pub(super) const LEGACY_JOB_NAME: &str = "job-name";
pub(super) const CONTROLLER_UID: &str = "batch.kubernetes.io/controller-uid";
pub(super) const JOB_NAME: &str = "batch.kubernetes.io/job-name";

pub(super) fn spec_of(object: &Value) -> &Value {
    member(object, "spec").unwrap_or(&Value::Null)
}

fn create(object: &Value) -> Vec<FieldError> {
    let mut errs = super::super::meta::validate_object_meta(
        object,
        true,
        name_is_dns_subdomain,
        &FieldPath::new("metadata"),
    );
    errs.extend(generated_selector(object, true));
    let spec = spec_of(object);
    errs.extend(job_spec(spec, &FieldPath::new("spec"), false));
    errs.extend(name_allows_completions(object));
    errs
}

/// `validateGeneratedSelector`: unless the selector is manual, the pods carry the labels the
/// strategy generated and the selector selects them (`prefixed`: the
/// `batch.kubernetes.io/` labels too).
pub(super) fn generated_selector(object: &Value, prefixed: bool) -> Vec<FieldError> {
    let spec = spec_of(object);
    if member(spec, "manualSelector").and_then(Value::as_bool) == Some(true) {
        return Vec::new();
    }
    let Some(sel) = set_at(spec, &["selector"]) else {
        return Vec::new();
    };
    let mut errs = Vec::new();
    let uid = str_at(object, &["metadata", "uid"]);
    let name = str_at(object, &["metadata", "name"]);
    if uid.is_empty() {
        errs.push(FieldError::required(
            &FieldPath::new("metadata").child("uid"),
            "",
        ));
    }
    let labels = super::super::at(spec, &["template", "metadata", "labels"]);
    let mut expected = vec![(LEGACY_CONTROLLER_UID, uid), (LEGACY_JOB_NAME, name)];
    if prefixed {
        expected.extend([(CONTROLLER_UID, uid), (JOB_NAME, name)]);
    }
    let labels_path = FieldPath::new("spec")
        .child("template")
        .child("metadata")
        .child("labels");
    for (key, want) in &expected {
        let p = labels_path.key(key);
        match labels.and_then(|l| member(l, key)).and_then(Value::as_str) {
            None => errs.push(FieldError::required(&p, format!("must be '{want}'"))),
            Some(have) if have != *want => errs.push(FieldError::invalid(
                &p,
                labels.map(BadValue::of).unwrap_or_else(BadValue::null),
                format!("must be '{want}'"),
            )),
            Some(_) => {}
        }
    }
    let mut set = smd_fieldpath::value::Map::new();
    for (k, v) in &expected {
        set.insert(*k, Value::String((*v).to_owned()));
    }
    if selector::matches(Some(sel), Some(&Value::Map(set))) == Some(false) {
        errs.push(FieldError::invalid(
            &FieldPath::new("spec").child("selector"),
            selector::shown(Some(sel)),
            "`selector` not auto-generated",
        ));
    }
    errs
}

/// `ValidateJobSpec`: the common spec checks, then the selector (required) and the
/// template's labels against it. `tolerate_invalid_values`: the old selector held values
/// that are not label values.
pub(super) fn job_spec(
    spec: &Value,
    path: &FieldPath,
    tolerate_invalid_values: bool,
) -> Vec<FieldError> {
    let mut errs = common_spec(spec, path);
    let sel_path = path.child("selector");
    let sel = set_at(spec, &["selector"]);
    match sel {
        None => errs.push(FieldError::required(&sel_path, "")),
        Some(s) => errs.extend(selector::validate_label_selector(
            Some(s),
            tolerate_invalid_values,
            &sel_path,
        )),
    }
    if selector::convert(sel) != Converted::Invalid {
        let labels = super::super::at(spec, &["template", "metadata", "labels"]);
        if selector::matches(sel, labels) == Some(false) {
            errs.push(FieldError::invalid(
                &path.child("template").child("metadata").child("labels"),
                labels.map(BadValue::of).unwrap_or_else(BadValue::null),
                "`selector` does not match template `labels`",
            ));
        }
    }
    errs
}

const MAX_PARALLELISM_INDEXED: i64 = 100_000;
const MAX_FAILED_INDEXES: i64 = 100_000;
const COMPLETIONS_SOFT_LIMIT: i64 = 100_000;
const PARALLELISM_LIMIT_HIGH_COMPLETIONS: i64 = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS: i64 = 10_000;
const MAX_MANAGED_BY: usize = 63;

/// `validateJobSpec`: what a Job and a CronJob's job template share.
pub(super) fn common_spec(spec: &Value, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let int = |f: &str| opt_int_at(spec, &[f]);
    for f in [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
        "backoffLimitPerIndex",
    ] {
        if let Some(v) = int(f) {
            errs.extend(nonnegative(v, &path.child(f)));
        }
    }
    let (parallelism, completions) = (int("parallelism"), int("completions"));
    let (per_index, max_failed) = (int("backoffLimitPerIndex"), int("maxFailedIndexes"));
    if let Some(m) = max_failed {
        errs.extend(nonnegative(m, &path.child("maxFailedIndexes")));
        // The declarative `dependentRequired` rule that covers this one is not enforced for
        // Jobs: the server answers with this text.
        if per_index.is_none() {
            errs.push(FieldError::required(
                &path.child("backoffLimitPerIndex"),
                "when maxFailedIndexes is specified",
            ));
        }
    }
    if let Some(managed_by) = member(spec, "managedBy").and_then(Value::as_str) {
        errs.extend(super::super::generic::domain_prefixed_path(
            &path.child("managedBy"),
            managed_by,
        ));
        if managed_by.len() > MAX_MANAGED_BY {
            errs.push(FieldError::too_long(
                &path.child("managedBy"),
                MAX_MANAGED_BY as i64,
            ));
        }
    }
    let mode = member(spec, "completionMode").and_then(Value::as_str);
    if let Some(mode) = mode {
        if mode != "NonIndexed" && mode != "Indexed" {
            errs.push(FieldError::not_supported(
                &path.child("completionMode"),
                typed_str(mode),
                &["NonIndexed", "Indexed"],
            ));
        }
        if mode == "Indexed" {
            if completions.is_none() {
                errs.push(FieldError::required(
                    &path.child("completions"),
                    "when completion mode is Indexed",
                ));
            }
            if let Some(p) = parallelism.filter(|p| *p > MAX_PARALLELISM_INDEXED) {
                errs.push(FieldError::invalid(
                    &path.child("parallelism"),
                    BadValue::Int(p),
                    format!("must be less than or equal to {MAX_PARALLELISM_INDEXED} when completion mode is Indexed"),
                ));
            }
            if let (Some(c), Some(m)) = (completions, max_failed) {
                if m > c {
                    errs.push(FieldError::invalid(
                        &path.child("maxFailedIndexes"),
                        BadValue::Int(m),
                        "must be less than or equal to completions",
                    ));
                }
            }
            if let Some(m) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES) {
                errs.push(FieldError::invalid(
                    &path.child("maxFailedIndexes"),
                    BadValue::Int(m),
                    format!("must be less than or equal to {MAX_FAILED_INDEXES}"),
                ));
            }
            if completions.is_some_and(|c| c > COMPLETIONS_SOFT_LIMIT) && per_index.is_some() {
                let high = format!(
                    "when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"
                );
                if max_failed.is_none() {
                    errs.push(FieldError::required(
                        &path.child("maxFailedIndexes"),
                        format!(
                            "must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}"
                        ),
                    ));
                }
                if let Some(p) = parallelism.filter(|p| *p > PARALLELISM_LIMIT_HIGH_COMPLETIONS) {
                    errs.push(FieldError::invalid(
                        &path.child("parallelism"),
                        BadValue::Int(p),
                        format!("must be less than or equal to {PARALLELISM_LIMIT_HIGH_COMPLETIONS} {high}"),
                    ));
                }
                if let Some(m) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES_HIGH_COMPLETIONS) {
                    errs.push(FieldError::invalid(
                        &path.child("maxFailedIndexes"),
                        BadValue::Int(m),
                        format!("must be less than or equal to {MAX_FAILED_INDEXES_HIGH_COMPLETIONS} {high}"),
                    ));
                }
            }
        }
    }
    if mode.is_none_or(|m| m == "NonIndexed") {
        if let Some(b) = per_index {
            errs.push(FieldError::invalid(
                &path.child("backoffLimitPerIndex"),
                BadValue::Int(b),
                "requires indexed completion mode",
            ));
        }
        if let Some(m) = max_failed {
            errs.push(FieldError::invalid(
                &path.child("maxFailedIndexes"),
                BadValue::Int(m),
                "requires indexed completion mode",
            ));
        }
    }
    errs.extend(job_policies::policies(spec, path, mode == Some("Indexed")));
    let template = member(spec, "template").unwrap_or(&Value::Null);
    errs.extend(super::super::pod::validate_pod_template_spec(
        template,
        &path.child("template"),
    ));
    let restart = str_at(template, &["spec", "restartPolicy"]);
    let restart_path = path.child("template").child("spec").child("restartPolicy");
    if restart == "Always" || restart.is_empty() {
        errs.push(FieldError::required(
            &restart_path,
            "valid values: \"OnFailure\", \"Never\"",
        ));
    } else if restart != "OnFailure" && restart != "Never" {
        errs.push(FieldError::not_supported(
            &restart_path,
            typed_str(restart),
            &["OnFailure", "Never"],
        ));
    } else if set_at(spec, &["podFailurePolicy"]).is_some() && restart != "Never" {
        errs.push(FieldError::invalid(
            &restart_path,
            typed_str(restart),
            "only \"Never\" is supported when podFailurePolicy is specified",
        ));
    }
    errs
}

/// `validateNameAllowsCompletions`: an indexed Job's last pod's hostname
/// (`<name>-<completions-1>`) must be a DNS label.
pub(super) fn name_allows_completions(object: &Value) -> Vec<FieldError> {
    let spec = spec_of(object);
    let indexed = member(spec, "completionMode").and_then(Value::as_str) == Some("Indexed");
    let Some(c) = opt_int_at(spec, &["completions"]).filter(|c| *c > 0 && indexed) else {
        return Vec::new();
    };
    let name = str_at(object, &["metadata", "name"]);
    let hostname = format!("{name}-{}", c - 1);
    if names::is_dns1123_label(&hostname).is_empty() {
        return Vec::new();
    }
    vec![FieldError::invalid(
        &FieldPath::new("metadata").child("name"),
        BadValue::str(name),
        format!("will not able to create pod with invalid DNS label: {hostname}"),
    )]
}
