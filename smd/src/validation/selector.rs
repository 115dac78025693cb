//! Label selectors and label maps (k8s.io/apimachinery v0.37.2 `apis/meta/v1/validation`:
//! `ValidateLabelSelector`, `ValidateLabels`; `metav1.LabelSelectorAsSelector` and
//! `labels.Selector.Matches`), over the versioned `LabelSelector` value.

use smd_fieldpath::Value;

use super::{BadValue, FieldError, FieldPath, names, render};

/// The versioned type a selector is, for rendering it in a message.
pub(crate) const LABEL_SELECTOR: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector";

/// A selector as a message shows it (`json.Marshal` of `*metav1.LabelSelector`).
pub(crate) fn shown(selector: Option<&Value>) -> BadValue {
    match selector.filter(|v| !v.is_null()) {
        Some(s) => BadValue::Json(render::internal_json(LABEL_SELECTOR, s)),
        None => BadValue::null(),
    }
}

/// A string-to-string map's entries, sorted by key so that a message listing several
/// problems is stable (Go walks the map in a random order).
fn sorted_entries(map: Option<&Value>) -> Vec<(&str, &str)> {
    let mut out: Vec<(&str, &str)> = map
        .and_then(Value::as_map)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k, v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    out.sort_unstable();
    out
}

/// `ValidateLabelName(key, path)`.
pub(crate) fn validate_label_name(key: &str, path: &FieldPath) -> Vec<FieldError> {
    names::is_qualified_name(key)
        .into_iter()
        .map(|m| FieldError::invalid(path, BadValue::str(key), m))
        .collect()
}

/// `ValidateLabels(labels, path)`: every key a qualified name, every value a label value.
pub(crate) fn validate_labels(labels: Option<&Value>, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    for (k, v) in sorted_entries(labels) {
        errs.extend(validate_label_name(k, path));
        errs.extend(
            names::is_label_value(v)
                .into_iter()
                .map(|m| FieldError::invalid(path, BadValue::str(v), m)),
        );
    }
    errs
}

fn requirements(selector: &Value) -> &[Value] {
    super::member(selector, "matchExpressions")
        .and_then(Value::as_list)
        .unwrap_or(&[])
}

fn strings(v: Option<&Value>) -> Vec<&str> {
    v.and_then(Value::as_list)
        .map(|l| l.iter().map(|x| x.as_str().unwrap_or("")).collect())
        .unwrap_or_default()
}

/// `ValidateLabelSelector(selector, opts, path)`; `allow_invalid_values` is
/// `AllowInvalidLabelValueInSelector`.
pub(crate) fn validate_label_selector(
    selector: Option<&Value>,
    allow_invalid_values: bool,
    path: &FieldPath,
) -> Vec<FieldError> {
    let Some(selector) = selector.filter(|v| !v.is_null()) else {
        return Vec::new();
    };
    let mut errs = validate_labels(
        super::member(selector, "matchLabels"),
        &path.child("matchLabels"),
    );
    for (i, expr) in requirements(selector).iter().enumerate() {
        let p = path.child("matchExpressions").index(i);
        let operator = super::str_at(expr, &["operator"]);
        let values = strings(super::member(expr, "values"));
        match operator {
            "In" | "NotIn" if values.is_empty() => errs.push(FieldError::required(
                &p.child("values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => errs.push(FieldError::forbidden(
                &p.child("values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => errs.push(FieldError::invalid(
                &p.child("operator"),
                super::generic::typed_str(other),
                "not a valid selector operator",
            )),
        }
        errs.extend(validate_label_name(
            super::str_at(expr, &["key"]),
            &p.child("key"),
        ));
        if !allow_invalid_values {
            for (j, v) in values.iter().enumerate() {
                errs.extend(names::is_label_value(v).into_iter().map(|m| {
                    FieldError::invalid(&p.child("values").index(j), BadValue::str(*v), m)
                }));
            }
        }
    }
    errs
}

/// `LabelSelectorHasInvalidLabelValue`: whether an expression holds a value that is not a
/// label value (an old object's, which an update then tolerates).
pub(crate) fn has_invalid_label_value(selector: Option<&Value>) -> bool {
    selector.is_some_and(|s| {
        requirements(s).iter().any(|e| {
            strings(super::member(e, "values"))
                .iter()
                .any(|v| !names::is_label_value(v).is_empty())
        })
    })
}

/// What `LabelSelectorAsSelector` makes of a selector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Converted {
    /// A nil selector: `labels.Nothing()`, which matches nothing and is not empty.
    Nothing,
    /// No labels and no expressions: `labels.Everything()`, empty.
    Everything,
    /// Requirements that all parsed.
    Requirements,
    /// A requirement `labels.NewRequirement` refuses (the conversion's error).
    Invalid,
}

/// `LabelSelectorAsSelector(selector)`'s outcome.
pub(crate) fn convert(selector: Option<&Value>) -> Converted {
    let Some(selector) = selector.filter(|v| !v.is_null()) else {
        return Converted::Nothing;
    };
    let labels = sorted_entries(super::member(selector, "matchLabels"));
    let exprs = requirements(selector);
    if labels.is_empty() && exprs.is_empty() {
        return Converted::Everything;
    }
    let key_ok = |k: &str| names::is_qualified_name(k).is_empty();
    let value_ok = |v: &str| names::is_label_value(v).is_empty();
    if labels.iter().any(|(k, v)| !key_ok(k) || !value_ok(v)) {
        return Converted::Invalid;
    }
    for e in exprs {
        let values = strings(super::member(e, "values"));
        let ok_count = match super::str_at(e, &["operator"]) {
            "In" | "NotIn" => !values.is_empty(),
            "Exists" | "DoesNotExist" => values.is_empty(),
            _ => false,
        };
        if !ok_count || !key_ok(super::str_at(e, &["key"])) || !values.iter().all(|v| value_ok(v)) {
            return Converted::Invalid;
        }
    }
    Converted::Requirements
}

/// `selector.Matches(labels.Set(labels))` of a selector that converted (`None` for one that
/// did not, which Go's callers skip).
pub(crate) fn matches(selector: Option<&Value>, labels: Option<&Value>) -> Option<bool> {
    let get = |k: &str| {
        labels
            .and_then(|l| super::member(l, k))
            .and_then(Value::as_str)
    };
    match convert(selector) {
        Converted::Nothing => Some(false),
        Converted::Everything => Some(true),
        Converted::Invalid => None,
        Converted::Requirements => {
            let selector = selector?;
            let by_labels = sorted_entries(super::member(selector, "matchLabels"))
                .into_iter()
                .all(|(k, v)| get(k) == Some(v));
            let by_exprs = requirements(selector).iter().all(|e| {
                let key = super::str_at(e, &["key"]);
                let values = strings(super::member(e, "values"));
                let have = get(key);
                match super::str_at(e, &["operator"]) {
                    "In" => have.is_some_and(|h| values.contains(&h)),
                    "NotIn" => have.is_none_or(|h| !values.contains(&h)),
                    "Exists" => have.is_some(),
                    _ => have.is_none(),
                }
            });
            Some(by_labels && by_exprs)
        }
    }
}

/// Whether a selector has neither labels nor expressions (`len(MatchLabels) +
/// len(MatchExpressions) == 0`).
pub(crate) fn is_empty(selector: &Value) -> bool {
    let n = |k: &str| match super::member(selector, k) {
        Some(Value::Map(m)) => m.len(),
        Some(Value::List(l)) => l.len(),
        _ => 0,
    };
    n("matchLabels") + n("matchExpressions") == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(json: &str) -> Value {
        Value::from_json(json).unwrap_or(Value::Null)
    }

    #[test]
    fn conversion_and_matching() {
        assert_eq!(convert(None), Converted::Nothing);
        assert_eq!(convert(Some(&v("{}"))), Converted::Everything);
        let s = v(
            r#"{"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"NotIn","values":["db"]}]}"#,
        );
        assert_eq!(convert(Some(&s)), Converted::Requirements);
        assert_eq!(matches(Some(&s), Some(&v(r#"{"app":"web"}"#))), Some(true));
        assert_eq!(
            matches(Some(&s), Some(&v(r#"{"app":"web","tier":"db"}"#))),
            Some(false)
        );
        assert_eq!(matches(None, Some(&v(r#"{"app":"web"}"#))), Some(false));
        let bad = v(r#"{"matchExpressions":[{"key":"a","operator":"In"}]}"#);
        assert_eq!(convert(Some(&bad)), Converted::Invalid);
        assert_eq!(matches(Some(&bad), None), None);
        let errs =
            validate_label_selector(Some(&bad), false, &FieldPath::new("spec").child("selector"));
        assert_eq!(
            errs[0].to_string(),
            "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
        );
    }
}
