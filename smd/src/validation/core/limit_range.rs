//! LimitRanges (`ValidateLimitRange`, which the strategy runs on create and update alike):
//! limit types, resource names, and how min, max, defaults and ratios must order.

use std::cmp::Ordering;

use smd_fieldpath::Value;

use super::resources::{
    canonical, container_resource_name, is_native, quantities, resource_name, shown,
};
use super::{object_meta, present, typed};
use crate::builtin::quantity;
use crate::validation::{FieldError, FieldPath, Rules, at, member, names, str_at};

/// The LimitRange strategy's rules.
pub(super) const RULES: Rules = Rules {
    create: limit_range,
    update,
};

fn limit_range(object: &Value) -> Vec<FieldError> {
    let mut errs = object_meta(object, true, names::name_is_dns_subdomain);
    let path = FieldPath::new("spec").child("limits");
    let limits: &[Value] = at(object, &["spec", "limits"])
        .and_then(Value::as_list)
        .unwrap_or(&[]);
    let mut types: Vec<&str> = Vec::new();
    for (i, limit) in limits.iter().enumerate() {
        errs.extend(limit_item(limit, &mut types, &path.index(i)));
    }
    errs
}

fn update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    // The strategy validates the new object as on create; no update rules.
    let _ = old;
    limit_range(new)
}

/// One `spec.limits[i]`.
fn limit_item<'a>(limit: &'a Value, types: &mut Vec<&'a str>, p: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let kind = str_at(limit, &["type"]);
    let type_errs: Vec<FieldError> = names::is_qualified_name(kind)
        .into_iter()
        .map(|msg| FieldError::invalid(&p.child("type"), typed(kind), msg))
        .collect();
    let standard = ["Pod", "Container", "PersistentVolumeClaim"].contains(&kind);
    if type_errs.is_empty() && !kind.contains('/') && !standard {
        errs.push(FieldError::invalid(
            &p.child("type"),
            typed(kind),
            "must be a standard limit type or fully qualified",
        ));
    }
    errs.extend(type_errs);
    if types.contains(&kind) {
        errs.push(FieldError::duplicate(&p.child("type"), typed(kind)));
    }
    types.push(kind);
    let name_check = |name: &str, path: &FieldPath| match kind {
        "Pod" | "Container" => container_resource_name(name, path),
        _ => resource_name(name, path),
    };
    let field = |name: &str| quantities(present(member(limit, name)));
    let (max, min) = (field("max"), field("min"));
    let mut keys: Vec<String> = Vec::new();
    for (name, entries) in [("max", &max), ("min", &min)] {
        for (k, _) in entries {
            errs.extend(name_check(k, &p.child(name).key(k)));
            keys.push(k.clone());
        }
    }
    let (mut defaults, mut requests) = (Vec::new(), Vec::new());
    if kind == "Pod" {
        for name in ["default", "defaultRequest"] {
            if !field(name).is_empty() {
                errs.push(FieldError::forbidden(
                    &p.child(name),
                    "may not be specified when `type` is 'Pod'",
                ));
            }
        }
    } else {
        defaults = field("default");
        requests = field("defaultRequest");
        for (name, entries) in [("default", &defaults), ("defaultRequest", &requests)] {
            for (k, _) in entries {
                errs.extend(name_check(k, &p.child(name).key(k)));
                keys.push(k.clone());
            }
        }
    }
    if kind == "PersistentVolumeClaim" {
        let has = |e: &[(String, String)]| e.iter().any(|(k, _)| k == "storage");
        if !has(&min) && !has(&max) {
            errs.push(FieldError::required(
                &p.child("limits"),
                "either minimum or maximum storage value is required, but neither was provided",
            ));
        }
    }
    let ratios = field("maxLimitRequestRatio");
    for (k, _) in &ratios {
        errs.extend(name_check(k, &p.child("maxLimitRequestRatio").key(k)));
        keys.push(k.clone());
    }
    keys.sort();
    keys.dedup();
    let get =
        |e: &[(String, String)], k: &str| e.iter().find(|(n, _)| n == k).map(|(_, q)| q.clone());
    for k in &keys {
        errs.extend(limit_bounds(
            k,
            [
                get(&min, k),
                get(&max, k),
                get(&defaults, k),
                get(&requests, k),
                get(&ratios, k),
            ],
            p,
        ));
    }
    errs
}

/// How one resource's min, max, default, default request and ratio must order.
fn limit_bounds(k: &str, values: [Option<String>; 5], p: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let [min, max, default, request, ratio] = values;
    let gt = |a: &str, b: &str| quantity::compare(a, b) == Some(Ordering::Greater);
    let mut check = |ok: bool, at: &str, value: &str, msg: String| {
        if ok {
            errs.push(FieldError::invalid(&p.child(at).key(k), shown(value), msg));
        }
    };
    let c = canonical;
    if let (Some(lo), Some(hi)) = (&min, &max) {
        check(
            gt(lo, hi),
            "min",
            lo,
            format!("min value {} is greater than max value {}", c(lo), c(hi)),
        );
    }
    if let (Some(r), Some(lo)) = (&request, &min) {
        check(
            gt(lo, r),
            "defaultRequest",
            r,
            format!(
                "min value {} is greater than default request value {}",
                c(lo),
                c(r)
            ),
        );
    }
    if let (Some(r), Some(hi)) = (&request, &max) {
        check(
            gt(r, hi),
            "defaultRequest",
            r,
            format!(
                "default request value {} is greater than max value {}",
                c(r),
                c(hi)
            ),
        );
    }
    if let (Some(r), Some(d)) = (&request, &default) {
        check(
            gt(r, d),
            "defaultRequest",
            r,
            format!(
                "default request value {} is greater than default limit value {}",
                c(r),
                c(d)
            ),
        );
    }
    if let (Some(d), Some(lo)) = (&default, &min) {
        check(
            gt(lo, d),
            "default",
            lo,
            format!("min value {} is greater than default value {}", c(lo), c(d)),
        );
    }
    if let (Some(d), Some(hi)) = (&default, &max) {
        check(
            gt(d, hi),
            "default",
            hi,
            format!("default value {} is greater than max value {}", c(d), c(hi)),
        );
    }
    if let Some(r) = &ratio {
        let below_one = quantity::compare(r, "1") == Some(Ordering::Less);
        check(
            below_one,
            "maxLimitRequestRatio",
            r,
            format!("ratio {} is less than 1", c(r)),
        );
        if let (Some(lo), Some(hi)) = (&min, &max) {
            if let Some(limit) = ratio_limit(r, lo, hi) {
                check(
                    limit.0 > limit.1,
                    "maxLimitRequestRatio",
                    r,
                    format!("ratio {} is greater than max/min = {:.6}", c(r), limit.1),
                );
            }
        }
    }
    let overcommit = is_native(k) && !k.starts_with("hugepages-");
    if let (false, Some(d), Some(r)) = (overcommit, &default, &request) {
        if quantity::compare(d, r) != Some(Ordering::Equal) {
            check(
                true,
                "defaultRequest",
                r,
                format!(
                    "default value {} must equal to defaultRequest value {} in {k}",
                    c(d),
                    c(r)
                ),
            );
        }
    }
    errs
}

/// The ratio and max/min as Go computes them: in thousandths when all three fit.
fn ratio_limit(ratio: &str, min: &str, max: &str) -> Option<(f64, f64)> {
    const MAX_MILLI: i64 = i64::MAX / 1000;
    let (r, lo, hi) = (
        quantity::value(ratio)?,
        quantity::value(min)?,
        quantity::value(max)?,
    );
    #[allow(clippy::cast_precision_loss)] // Go converts the same int64s to float64
    let values = if r < MAX_MILLI && lo < MAX_MILLI && hi < MAX_MILLI {
        let (r, lo, hi) = (
            quantity::milli_value(ratio)?,
            quantity::milli_value(min)?,
            quantity::milli_value(max)?,
        );
        (r as f64 / 1000.0, hi as f64 / lo as f64)
    } else {
        (r as f64, hi as f64 / lo as f64)
    };
    Some(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio() {
        assert_eq!(ratio_limit("2", "1", "4"), Some((2.0, 4.0)));
    }
}
