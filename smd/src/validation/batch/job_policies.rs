//! A Job's failure, success and replacement policies (`validatePodFailurePolicy`,
//! `validatePodFailurePolicyRule`, `validateSuccessPolicy`, `validatePodReplacementPolicy`)
//! and the index lists they and the status use (`validateIndexesFormat`).

use smd_fieldpath::Value;

use super::super::generic::{list_at, nonnegative, opt_int_at, set_at, typed_str};
use super::super::render::internal_json;
use super::super::{BadValue, FieldError, FieldPath, json, member, names, str_at};

const MAX_RULES: usize = 20;
const MAX_EXIT_CODES: usize = 255;
const MAX_CONDITION_PATTERNS: usize = 20;
const MAX_SUCCEEDED_INDEXES_LEN: usize = 64 * 1024;
const MAX_SUCCESS_RULES: usize = 20;

/// The three policies of `validateJobSpec`, in Go's order.
pub(super) fn policies(spec: &Value, path: &FieldPath, indexed: bool) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if let Some(policy) = set_at(spec, &["podFailurePolicy"]) {
        errs.extend(pod_failure_policy(
            spec,
            policy,
            &path.child("podFailurePolicy"),
        ));
    }
    if let Some(policy) = set_at(spec, &["successPolicy"]) {
        let p = path.child("successPolicy");
        if !indexed {
            errs.push(FieldError::invalid(
                &p,
                BadValue::Json(internal_json("io.k8s.api.batch.v1.SuccessPolicy", policy)),
                "requires indexed completion mode",
            ));
        } else {
            errs.extend(success_policy(spec, policy, &p));
        }
    }
    if let Some(r) = member(spec, "podReplacementPolicy").and_then(Value::as_str) {
        let p = path.child("podReplacementPolicy");
        if set_at(spec, &["podFailurePolicy"]).is_some() {
            if r != "Failed" {
                errs.push(FieldError::not_supported(&p, typed_str(r), &["Failed"]));
            }
        } else if r != "Failed" && r != "TerminatingOrFailed" {
            errs.push(FieldError::not_supported(
                &p,
                typed_str(r),
                &["Failed", "TerminatingOrFailed"],
            ));
        }
    }
    errs
}

fn pod_failure_policy(spec: &Value, policy: &Value, path: &FieldPath) -> Vec<FieldError> {
    let rules_path = path.child("rules");
    let rules = list_at(policy, &["rules"]);
    let mut errs = Vec::new();
    if rules.len() > MAX_RULES {
        errs.push(FieldError::too_many(
            &rules_path,
            rules.len() as i64,
            MAX_RULES as i64,
        ));
    }
    let mut containers: Vec<&str> = Vec::new();
    for list in ["containers", "initContainers"] {
        containers.extend(
            list_at(spec, &["template", "spec", list])
                .iter()
                .map(|c| str_at(c, &["name"])),
        );
    }
    let per_index = set_at(spec, &["backoffLimitPerIndex"]).is_some();
    for (i, rule) in rules.iter().enumerate() {
        errs.extend(pod_failure_rule(
            rule,
            &rules_path.index(i),
            per_index,
            &containers,
        ));
    }
    errs
}

const ACTIONS: [&str; 4] = ["Count", "FailIndex", "FailJob", "Ignore"];

fn pod_failure_rule(
    rule: &Value,
    path: &FieldPath,
    per_index: bool,
    containers: &[&str],
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let action_path = path.child("action");
    match str_at(rule, &["action"]) {
        "" => errs.push(FieldError::required(
            &action_path,
            format!("valid values: {}", go_string_list(&ACTIONS)),
        )),
        "FailIndex" if !per_index => errs.push(FieldError::invalid(
            &action_path,
            typed_str("FailIndex"),
            "requires the backoffLimitPerIndex to be set",
        )),
        a if !ACTIONS.contains(&a) => errs.push(FieldError::not_supported(
            &action_path,
            typed_str(a),
            &ACTIONS,
        )),
        _ => {}
    }
    let exit_codes = set_at(rule, &["onExitCodes"]);
    let conditions = list_at(rule, &["onPodConditions"]);
    if let Some(e) = exit_codes {
        errs.extend(on_exit_codes(e, &path.child("onExitCodes"), containers));
    }
    if !conditions.is_empty() {
        errs.extend(on_pod_conditions(
            conditions,
            &path.child("onPodConditions"),
        ));
    }
    if exit_codes.is_some() && !conditions.is_empty() {
        errs.push(FieldError::invalid(
            path,
            BadValue::Omit,
            "specifying both OnExitCodes and OnPodConditions is not supported",
        ));
    }
    if exit_codes.is_none() && conditions.is_empty() {
        errs.push(FieldError::invalid(
            path,
            BadValue::Omit,
            "specifying one of OnExitCodes and OnPodConditions is required",
        ));
    }
    errs
}

/// Go's `%q` of a `[]string`: `["a" "b"]`.
fn go_string_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|s| smd_fieldpath::value::go_quote(s))
        .collect();
    format!("[{}]", quoted.join(" "))
}

fn on_pod_conditions(patterns: &[Value], path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if patterns.len() > MAX_CONDITION_PATTERNS {
        errs.push(FieldError::too_many(
            path,
            patterns.len() as i64,
            MAX_CONDITION_PATTERNS as i64,
        ));
    }
    const STATUSES: [&str; 3] = ["False", "True", "Unknown"];
    for (j, pattern) in patterns.iter().enumerate() {
        let p = path.index(j);
        let kind = str_at(pattern, &["type"]);
        errs.extend(
            names::is_qualified_name(kind)
                .into_iter()
                .map(|m| FieldError::invalid(&p.child("type"), BadValue::str(kind), m)),
        );
        match str_at(pattern, &["status"]) {
            "" => errs.push(FieldError::required(
                &p.child("status"),
                format!("valid values: {}", go_string_list(&STATUSES)),
            )),
            s if !STATUSES.contains(&s) => errs.push(FieldError::not_supported(
                &p.child("status"),
                typed_str(s),
                &STATUSES,
            )),
            _ => {}
        }
    }
    errs
}

fn on_exit_codes(req: &Value, path: &FieldPath, containers: &[&str]) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let operator = str_at(req, &["operator"]);
    const OPERATORS: [&str; 2] = ["In", "NotIn"];
    match operator {
        "" => errs.push(FieldError::required(
            &path.child("operator"),
            format!("valid values: {}", go_string_list(&OPERATORS)),
        )),
        o if !OPERATORS.contains(&o) => errs.push(FieldError::not_supported(
            &path.child("operator"),
            typed_str(o),
            &OPERATORS,
        )),
        _ => {}
    }
    if let Some(name) = member(req, "containerName").and_then(Value::as_str) {
        if !containers.contains(&name) {
            errs.push(FieldError::invalid(
                &path.child("containerName"),
                BadValue::str(name),
                "must be one of the container or initContainer names in the pod template",
            ));
        }
    }
    let values_path = path.child("values");
    let values: Vec<i64> = list_at(req, &["values"])
        .iter()
        .filter_map(Value::as_int)
        .collect();
    let shown = || {
        member(req, "values")
            .filter(|v| !v.is_null())
            .map(|v| BadValue::Json(json(v)))
            .unwrap_or_else(BadValue::null)
    };
    if values.is_empty() {
        errs.push(FieldError::invalid(
            &values_path,
            shown(),
            "at least one value is required",
        ));
    } else if values.len() > MAX_EXIT_CODES {
        errs.push(FieldError::too_many(
            &values_path,
            values.len() as i64,
            MAX_EXIT_CODES as i64,
        ));
    }
    let mut seen = std::collections::HashSet::new();
    let mut ordered = true;
    for (j, v) in values.iter().enumerate() {
        let p = values_path.index(j);
        if operator == "In" && *v == 0 {
            errs.push(FieldError::invalid(
                &p,
                BadValue::Int(0),
                "must not be 0 for the In operator",
            ));
        }
        if !seen.insert(*v) {
            errs.push(FieldError::duplicate(&p, BadValue::Int(*v)));
        }
        if j > 0 && values[j - 1] > *v {
            ordered = false;
        }
    }
    if !ordered {
        errs.push(FieldError::invalid(
            &values_path,
            shown(),
            "must be ordered",
        ));
    }
    errs
}

fn success_policy(spec: &Value, policy: &Value, path: &FieldPath) -> Vec<FieldError> {
    let rules_path = path.child("rules");
    let rules = list_at(policy, &["rules"]);
    let mut errs = Vec::new();
    if rules.is_empty() {
        errs.push(FieldError::required(
            &rules_path,
            "at least one rules must be specified when the successPolicy is specified",
        ));
    }
    if rules.len() > MAX_SUCCESS_RULES {
        errs.push(FieldError::too_many(
            &rules_path,
            rules.len() as i64,
            MAX_SUCCESS_RULES as i64,
        ));
    }
    let completions = opt_int_at(spec, &["completions"]).unwrap_or(0);
    for (i, rule) in rules.iter().enumerate() {
        let p = rules_path.index(i);
        let indexes = member(rule, "succeededIndexes").and_then(Value::as_str);
        let count = opt_int_at(rule, &["succeededCount"]);
        if indexes.is_none() && count.is_none() {
            errs.push(FieldError::required(
                &p,
                "at least one of succeededCount or succeededIndexes must be specified",
            ));
        }
        let mut total = 0;
        if let Some(ix) = indexes {
            let ip = p.child("succeededIndexes");
            if ix.len() > MAX_SUCCEEDED_INDEXES_LEN {
                errs.push(FieldError::too_long(&ip, MAX_SUCCEEDED_INDEXES_LEN as i64));
            }
            match indexes_format(ix, completions) {
                Ok(t) => total = t,
                Err(e) => errs.push(FieldError::invalid(
                    &ip,
                    BadValue::str(ix),
                    format!("error parsing succeededIndexes: {e}"),
                )),
            }
        }
        if let Some(c) = count {
            let cp = p.child("succeededCount");
            errs.extend(nonnegative(c, &cp));
            if c > completions {
                errs.push(FieldError::invalid(
                    &cp,
                    BadValue::Int(c),
                    format!("must be less than or equal to {completions} (the number of specified completions)"),
                ));
            }
            if indexes.is_some() && c > total {
                errs.push(FieldError::invalid(
                    &cp,
                    BadValue::Int(c),
                    format!("must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)"),
                ));
            }
        }
    }
    errs
}

/// `strconv.Atoi`'s refusal as the index parser reports it.
fn atoi(s: &str) -> Result<i64, String> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "cannot convert string to integer for index: {}",
            smd_fieldpath::value::go_quote(s)
        ));
    }
    // Go's int is 64 bits: an overflow is an error too.
    s.parse::<i64>().map_err(|_| {
        format!(
            "cannot convert string to integer for index: {}",
            smd_fieldpath::value::go_quote(s)
        )
    })
}

/// `parseIndexInterval`: `x` or `x-y` below `completions`.
fn index_interval(s: &str, completions: i64) -> Result<(i64, i64), String> {
    let parts: Vec<&str> = s.split('-').collect();
    if parts.len() > 2 {
        return Err(format!(
            "the fragment {} violates the requirement that an index interval can have at most two parts separated by '-'",
            smd_fieldpath::value::go_quote(s)
        ));
    }
    let too_large = |p: &str| format!("too large index: {}", smd_fieldpath::value::go_quote(p));
    let x = atoi(parts[0])?;
    if x >= completions {
        return Err(too_large(parts[0]));
    }
    let Some(second) = parts.get(1) else {
        return Ok((x, x));
    };
    let y = atoi(second)?;
    if y >= completions {
        return Err(too_large(second));
    }
    if x >= y {
        return Err(format!("non-increasing order, previous: {x}, current: {y}"));
    }
    Ok((x, y))
}

/// `validateIndexesFormat`: comma-separated increasing intervals; their total size.
pub(super) fn indexes_format(s: &str, completions: i64) -> Result<i64, String> {
    if s.is_empty() {
        return Ok(0);
    }
    let mut last: Option<i64> = None;
    let mut total = 0;
    for part in s.split(',') {
        let (x, y) = index_interval(part, completions)?;
        if let Some(l) = last.filter(|l| *l >= x) {
            return Err(format!("non-increasing order, previous: {l}, current: {x}"));
        }
        total += y - x + 1;
        last = Some(y);
    }
    Ok(total)
}
