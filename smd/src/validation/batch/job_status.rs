//! The Job status strategy's checks (`ValidateJobStatusUpdate`, `validateJobStatus`) with the
//! options `getStatusValidationOptions` derives (the `JobManagedBy` gate is locked on in
//! 1.37): most transition rules apply only when the fields they concern changed.

use smd_fieldpath::Value;

use super::super::generic::{int_at, list_at, nonnegative, opt_int_at, semantic_eq, set_at};
use super::super::{BadValue, FieldError, FieldPath, json, member, str_at};
use super::job::spec_of;
use super::job_policies::indexes_format;

/// Whether the Job has a condition of `kind` with status `True` (`IsConditionTrue`).
pub(super) fn condition_true(job: &Value, kind: &str) -> bool {
    condition_is(job, kind, "True")
}

fn condition_is(job: &Value, kind: &str, status: &str) -> bool {
    list_at(job, &["status", "conditions"])
        .iter()
        .any(|c| str_at(c, &["type"]) == kind && str_at(c, &["status"]) == status)
}

fn finished(job: &Value) -> bool {
    condition_true(job, "Complete") || condition_true(job, "Failed")
}

fn status_field<'a>(job: &'a Value, field: &str) -> Option<&'a Value> {
    set_at(job, &["status", field])
}

fn changed(new: &Value, old: &Value, field: &str) -> bool {
    let null = Value::Null;
    !semantic_eq(
        status_field(new, field).unwrap_or(&null),
        status_field(old, field).unwrap_or(&null),
    )
}

fn shown(v: Option<&Value>) -> BadValue {
    v.map(|v| BadValue::Json(json(v)))
        .unwrap_or_else(BadValue::null)
}

/// `ValidateJobStatusUpdate` with the strategy's options.
pub(super) fn status_update(new: &Value, old: &Value) -> Vec<FieldError> {
    let path = FieldPath::new("status");
    let spec = spec_of(new);
    let indexed = str_at(spec, &["completionMode"]) == "Indexed";
    let flips = |kind: &str| condition_true(old, kind) != condition_true(new, kind);
    let finished_changed = finished(old) != finished(new);
    let (complete_changed, failed_changed) = (flips("Complete"), flips("Failed"));
    let (target_changed, criteria_changed) = (flips("FailureTarget"), flips("SuccessCriteriaMet"));
    let completed_changed = changed(new, old, "completedIndexes");
    let failed_ix_changed = changed(new, old, "failedIndexes");
    let active_changed = changed(new, old, "active");
    let start_changed = changed(new, old, "startTime");
    let completion_changed = changed(new, old, "completionTime");
    let uncounted_changed = changed(new, old, "uncountedTerminatedPods");
    let ready_changed = changed(new, old, "ready");
    let terminating_changed = changed(new, old, "terminating");
    let suspended_zero = member(spec, "suspend").and_then(Value::as_bool) == Some(true)
        && opt_int_at(spec, &["completions"]) == Some(0);
    let resuming = condition_true(old, "Suspended") && condition_is(new, "Suspended", "False");

    let mut errs = Vec::new();
    for f in ["active", "succeeded", "failed"] {
        errs.extend(nonnegative(int_at(new, &["status", f]), &path.child(f)));
    }
    for f in ["ready", "terminating"] {
        if let Some(v) = opt_int_at(new, &["status", f]) {
            errs.extend(nonnegative(v, &path.child(f)));
        }
    }
    let uncounted = status_field(new, "uncountedTerminatedPods");
    if let Some(u) = uncounted {
        let up = path.child("uncountedTerminatedPods");
        let mut seen = std::collections::HashSet::new();
        for list in ["succeeded", "failed"] {
            for (i, uid) in list_at(u, &[list]).iter().enumerate() {
                let uid = uid.as_str().unwrap_or("");
                let p = up.child(list).index(i);
                if uid.is_empty() {
                    errs.push(FieldError::invalid(
                        &p,
                        BadValue::str(""),
                        "must not be empty",
                    ));
                } else if !seen.insert(uid) {
                    errs.push(FieldError::duplicate(&p, BadValue::str(uid)));
                }
            }
        }
    }
    let conditions = path.child("conditions");
    let complete = condition_true(new, "Complete");
    let failed = condition_true(new, "Failed");
    let target = condition_true(new, "FailureTarget");
    let criteria = condition_true(new, "SuccessCriteriaMet");
    let cond_err = |msg: &str| FieldError::invalid(&conditions, BadValue::Omit, msg);
    if (complete_changed || failed_changed) && complete && failed {
        errs.push(cond_err(
            "cannot set Complete=True and Failed=true conditions",
        ));
    }
    if (complete_changed || target_changed) && complete && target {
        errs.push(cond_err(
            "cannot set Complete=True and FailureTarget=true conditions",
        ));
    }
    let completion_time = status_field(new, "completionTime");
    let start_time = status_field(new, "startTime");
    if (complete_changed || completion_changed) && completion_time.is_some() && !complete {
        errs.push(FieldError::invalid(
            &path.child("completionTime"),
            shown(completion_time),
            "cannot set completionTime when there is no Complete=True condition",
        ));
    }
    if (complete_changed || completion_changed) && completion_time.is_none() && complete {
        errs.push(FieldError::required(
            &path.child("completionTime"),
            "completionTime is required for Complete jobs",
        ));
    }
    if start_changed || completion_changed {
        if let (Some(s), Some(c)) = (
            start_time.and_then(Value::as_str),
            completion_time.and_then(Value::as_str),
        ) {
            // RFC 3339 times of one zone (the server writes UTC) order as text.
            if c < s {
                errs.push(FieldError::invalid(
                    &path.child("completionTime"),
                    shown(completion_time),
                    "must be equal to or after `startTime`",
                ));
            }
        }
    }
    if (failed_changed || failed_ix_changed) && failed && !target {
        errs.push(cond_err(
            "cannot set Failed=True condition without the FailureTarget=true condition",
        ));
    }
    if (complete_changed || criteria_changed) && complete && !criteria {
        errs.push(cond_err(
            "cannot set Complete=True condition without the SuccessCriteriaMet=true condition",
        ));
    }
    let is_finished = finished(new);
    let active = int_at(new, &["status", "active"]);
    if (finished_changed || active_changed) && active > 0 && is_finished {
        errs.push(FieldError::invalid(
            &path.child("active"),
            BadValue::Int(active),
            "active>0 is invalid for finished job",
        ));
    }
    if (finished_changed || start_changed) && !suspended_zero && start_time.is_none() && is_finished
    {
        errs.push(FieldError::required(
            &path.child("startTime"),
            "startTime is required for finished job",
        ));
    }
    if (finished_changed || uncounted_changed) && is_finished {
        if let Some(u) = uncounted {
            if !list_at(u, &["failed"]).is_empty() || !list_at(u, &["succeeded"]).is_empty() {
                errs.push(FieldError::invalid(
                    &path.child("uncountedTerminatedPods"),
                    BadValue::Json(super::super::render::internal_json(
                        "io.k8s.api.batch.v1.UncountedTerminatedPods",
                        u,
                    )),
                    "must be empty for finished job",
                ));
            }
        }
    }
    let completions = opt_int_at(spec, &["completions"]);
    let completed_ix = str_at(new, &["status", "completedIndexes"]);
    let failed_ix = status_field(new, "failedIndexes").and_then(Value::as_str);
    if completed_changed {
        if let Some(c) = completions {
            if let Err(e) = indexes_format(completed_ix, c) {
                errs.push(FieldError::invalid(
                    &path.child("completedIndexes"),
                    BadValue::str(completed_ix),
                    format!("error parsing completedIndexes: {e}"),
                ));
            }
        }
    }
    let per_index = set_at(spec, &["backoffLimitPerIndex"]).is_some();
    if failed_ix_changed {
        if let (Some(c), true, Some(f)) = (completions, per_index, failed_ix) {
            if let Err(e) = indexes_format(f, c) {
                errs.push(FieldError::invalid(
                    &path.child("failedIndexes"),
                    shown(status_field(new, "failedIndexes")),
                    format!("error parsing failedIndexes: {e}"),
                ));
            }
        }
    }
    if completed_changed && !completed_ix.is_empty() && !indexed {
        errs.push(FieldError::invalid(
            &path.child("completedIndexes"),
            BadValue::str(completed_ix),
            "cannot set non-empty completedIndexes when non-indexed completion mode",
        ));
    }
    if failed_ix_changed && !per_index {
        if let Some(f) = failed_ix {
            errs.push(FieldError::invalid(
                &path.child("failedIndexes"),
                BadValue::str(f),
                "cannot set non-null failedIndexes when backoffLimitPerIndex is null",
            ));
        }
    }
    if failed_ix_changed || completed_changed {
        if let (Some(c), Some(f)) = (completions, failed_ix) {
            if let Some(at) = overlap(completed_ix, f, c) {
                errs.push(FieldError::invalid(
                    &path.child("failedIndexes"),
                    BadValue::str(f),
                    format!("failedIndexes and completedIndexes overlap at index: {at}"),
                ));
            }
        }
    }
    if (finished_changed || terminating_changed) && is_finished {
        if let Some(t) = opt_int_at(new, &["status", "terminating"]).filter(|t| *t > 0) {
            errs.push(FieldError::invalid(
                &path.child("terminating"),
                BadValue::Int(t),
                "terminating>0 is invalid for finished job",
            ));
        }
    }
    if ready_changed || active_changed {
        if let Some(r) = opt_int_at(new, &["status", "ready"]).filter(|r| *r > active) {
            errs.push(FieldError::invalid(
                &path.child("ready"),
                BadValue::Int(r),
                "cannot set more ready pods than active",
            ));
        }
    }
    if criteria && failed {
        errs.push(cond_err(
            "cannot set SuccessCriteriaMet=True and Failed=true conditions",
        ));
    }
    if criteria && target {
        errs.push(cond_err(
            "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions",
        ));
    }
    if set_at(spec, &["successPolicy"]).is_some() && !criteria && complete {
        errs.push(cond_err(
            "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True",
        ));
    }
    // The transitions against the old status.
    for kind in ["Failed", "Complete", "FailureTarget"] {
        if condition_true(old, kind) && !condition_true(new, kind) {
            errs.push(cond_err(&format!(
                "cannot disable the terminal {kind}=True condition"
            )));
        }
    }
    let (failed_n, old_failed) = (
        int_at(new, &["status", "failed"]),
        int_at(old, &["status", "failed"]),
    );
    if failed_n < old_failed {
        errs.push(FieldError::invalid(
            &path.child("failed"),
            BadValue::Int(failed_n),
            "cannot decrease the failed counter",
        ));
    }
    let reject_succeeded =
        !indexed || opt_int_at(spec, &["completions"]) != opt_int_at(spec, &["parallelism"]);
    let (succ, old_succ) = (
        int_at(new, &["status", "succeeded"]),
        int_at(old, &["status", "succeeded"]),
    );
    if reject_succeeded && succ < old_succ {
        errs.push(FieldError::invalid(
            &path.child("succeeded"),
            BadValue::Int(succ),
            "cannot decrease the succeeded counter",
        ));
    }
    if let (Some(n), Some(o)) = (completion_time, status_field(old, "completionTime")) {
        if n != o {
            errs.push(FieldError::invalid(
                &path.child("completionTime"),
                shown(Some(n)),
                super::super::generic::IMMUTABLE_MSG,
            ));
        }
    }
    let unsuspended = member(spec, "suspend").and_then(Value::as_bool) != Some(true);
    if start_changed && !resuming && status_field(old, "startTime").is_some() && unsuspended {
        errs.push(FieldError::invalid(
            &path.child("startTime"),
            shown(start_time),
            "field is immutable for unsuspended job once set",
        ));
    }
    if condition_true(old, "SuccessCriteriaMet") && !criteria {
        errs.push(cond_err(
            "cannot disable the SuccessCriteriaMet=True condition",
        ));
    }
    if condition_true(old, "Complete") && !condition_true(old, "SuccessCriteriaMet") && criteria {
        errs.push(cond_err(
            "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions",
        ));
    }
    errs
}

/// `validateFailedIndexesNotOverlapCompleted`: the first index both lists hold, if any
/// (intervals that do not parse are skipped).
fn overlap(completed: &str, failed: &str, completions: i64) -> Option<i64> {
    if completed.is_empty() || failed.is_empty() {
        return None;
    }
    let parse = |list: &str| -> Vec<Option<(i64, i64)>> {
        list.split(',')
            .map(|part| {
                indexes_format(part, completions)
                    .ok()
                    .and_then(|_| bounds(part))
            })
            .collect()
    };
    let (c, f) = (parse(completed), parse(failed));
    let (mut i, mut j) = (0, 0);
    while i < c.len() && j < f.len() {
        match (c[i], f[j]) {
            (None, _) => i += 1,
            (_, None) => j += 1,
            (Some((cx, cy)), Some((fx, fy))) => {
                if cx <= fy && fx <= cy {
                    return Some(cx.max(fx));
                }
                if cx <= fx {
                    i += 1;
                } else {
                    j += 1;
                }
            }
        }
    }
    None
}

/// An interval's bounds (`x` or `x-y`) once it parsed.
fn bounds(part: &str) -> Option<(i64, i64)> {
    let mut it = part.split('-');
    let x = it.next()?.parse().ok()?;
    let y = it.next().map(str::parse).transpose().ok()?.unwrap_or(x);
    Some((x, y))
}
