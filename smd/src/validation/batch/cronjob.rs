//! CronJob (`ValidateCronJobCreate`, `ValidateCronJobUpdate`, `validateCronJobSpec`,
//! `validateScheduleFormat`, `validateTimeZone`, `validateConcurrencyPolicy`,
//! `ValidateJobTemplateSpec`). Its status strategy validates nothing.

use smd_fieldpath::Value;

use super::super::generic::{nonnegative, opt_int_at, set_at, typed_str};
use super::super::names::name_is_dns_subdomain;
use super::super::selector;
use super::super::{BadValue, FieldError, FieldPath, Rules, json, member, str_at};
use super::{cron, job};

/// CronJob's strategy rules.
pub(super) const RULES: Rules = Rules { create, update };

/// `DNS1035LabelMaxLength - 11`: room for the suffix of the Jobs' names.
const MAX_NAME: usize = 52;

fn create(object: &Value) -> Vec<FieldError> {
    let mut errs = super::super::meta::validate_object_meta(
        object,
        true,
        name_is_dns_subdomain,
        &FieldPath::new("metadata"),
    );
    errs.extend(spec(job::spec_of(object), None));
    let name = str_at(object, &["metadata", "name"]);
    if name.len() > MAX_NAME {
        errs.push(FieldError::invalid(
            &FieldPath::new("metadata").child("name"),
            BadValue::str(name),
            "must be no more than 52 characters",
        ));
    }
    errs.extend(required_schedule(job::spec_of(object)));
    errs
}

/// The schedule's declarative `+k8s:required` (beta, enforced in 1.37): the server appends
/// its error after the hand-written ones.
fn required_schedule(spec: &Value) -> Vec<FieldError> {
    if str_at(spec, &["schedule"]).is_empty() {
        vec![FieldError::required(
            &FieldPath::new("spec").child("schedule"),
            "",
        )]
    } else {
        Vec::new()
    }
}

fn update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    if subresource == "status" {
        return Vec::new();
    }
    let mut errs =
        super::super::meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"));
    errs.extend(spec(job::spec_of(new), Some(job::spec_of(old))));
    errs.extend(required_schedule(job::spec_of(new)));
    errs
}

/// `validateCronJobSpec`.
fn spec(spec: &Value, old: Option<&Value>) -> Vec<FieldError> {
    let path = FieldPath::new("spec");
    let mut errs = Vec::new();
    let schedule = str_at(spec, &["schedule"]);
    let time_zone = member(spec, "timeZone").and_then(Value::as_str);
    // An empty schedule is refused by the declarative rule (`required_schedule`).
    if !schedule.is_empty() {
        let allow_tz = old.is_some_and(|o| str_at(o, &["schedule"]).contains("TZ"));
        errs.extend(schedule_format(
            schedule,
            allow_tz,
            time_zone,
            &path.child("schedule"),
        ));
    }
    if let Some(d) = opt_int_at(spec, &["startingDeadlineSeconds"]) {
        errs.extend(nonnegative(d, &path.child("startingDeadlineSeconds")));
    }
    let old_tz = old
        .and_then(|o| member(o, "timeZone"))
        .and_then(Value::as_str);
    if old.is_none() || old_tz != time_zone {
        errs.extend(validate_time_zone(time_zone, &path.child("timeZone")));
    }
    let policy = str_at(spec, &["concurrencyPolicy"]);
    match policy {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errs.push(FieldError::required(&path.child("concurrencyPolicy"), "")),
        other => errs.push(FieldError::not_supported(
            &path.child("concurrencyPolicy"),
            typed_str(other),
            &["Allow", "Forbid", "Replace"],
        )),
    }
    errs.extend(job_template(spec, &path.child("jobTemplate")));
    for f in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"] {
        if let Some(v) = opt_int_at(spec, &[f]) {
            errs.extend(nonnegative(v, &path.child(f)));
        }
    }
    errs
}

/// `validateScheduleFormat`.
fn schedule_format(
    schedule: &str,
    allow_tz: bool,
    time_zone: Option<&str>,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(e) = cron::parse_error(schedule) {
        errs.push(FieldError::invalid(path, BadValue::str(schedule), e));
    }
    let has_tz = schedule.contains("TZ");
    if allow_tz && has_tz && time_zone.is_some() {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(schedule),
            "cannot use both timeZone field and TZ or CRON_TZ in schedule",
        ));
    } else if !allow_tz && has_tz {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(schedule),
            "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
        ));
    }
    errs
}

/// `validateTimeZone`: the name's shape and `Local`. Whether the zone exists is
/// `time.LoadLocation`'s answer from the time zone database, which smd does not hold.
fn validate_time_zone(time_zone: Option<&str>, path: &FieldPath) -> Vec<FieldError> {
    let Some(tz) = time_zone else {
        return Vec::new();
    };
    let shown = BadValue::Json(json(&Value::String(tz.to_owned())));
    if tz.is_empty() {
        return vec![FieldError::invalid(
            path,
            shown,
            "timeZone must be nil or non-empty string",
        )];
    }
    let part_ok = |p: &str| {
        p != "."
            && p != ".."
            && !p.starts_with('-')
            && (1..=14).contains(&p.len())
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-_+".contains(c))
    };
    if !tz.split('/').all(part_ok) {
        return vec![FieldError::invalid(
            path,
            shown,
            format!("unknown time zone {tz}"),
        )];
    }
    if tz.eq_ignore_ascii_case("Local") {
        return vec![FieldError::invalid(
            path,
            shown,
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
        )];
    }
    Vec::new()
}

/// `ValidateJobTemplateSpec`: the Job spec's common checks; the selector is generated.
fn job_template(spec: &Value, path: &FieldPath) -> Vec<FieldError> {
    let template = member(spec, "jobTemplate").unwrap_or(&Value::Null);
    let job_spec = member(template, "spec").unwrap_or(&Value::Null);
    let spec_path = path.child("spec");
    let mut errs = job::common_spec(job_spec, &spec_path);
    if let Some(sel) = set_at(job_spec, &["selector"]) {
        errs.push(FieldError::invalid(
            &spec_path.child("selector"),
            selector::shown(Some(sel)),
            "`selector` will be auto-generated",
        ));
    }
    if member(job_spec, "manualSelector").and_then(Value::as_bool) == Some(true) {
        errs.push(FieldError::not_supported(
            &spec_path.child("manualSelector"),
            BadValue::Bool(true),
            &["nil", "false"],
        ));
    }
    errs
}
