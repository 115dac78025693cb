//! Small checks many kinds' rules share (k8s.io/apimachinery v0.37.2 `api/validation`
//! `ValidateNonnegativeField`, `ValidateImmutableField`; k8s.io/kubernetes
//! `apps/validation`'s int-or-percent checks, which policy reuses), and readers of the
//! versioned object's fields with Go's zero values.

use smd_fieldpath::Value;

use super::{BadValue, FieldError, FieldPath, json, names};

/// `IsNegativeErrorMsg`.
pub(crate) const NEGATIVE_MSG: &str = "must be greater than or equal to 0";
/// `FieldImmutableErrorMsg`.
pub(crate) const IMMUTABLE_MSG: &str = "field is immutable";

/// The integer at `path` (Go's zero, `0`, when absent).
pub(crate) fn int_at(value: &Value, path: &[&str]) -> i64 {
    super::at(value, path).and_then(Value::as_int).unwrap_or(0)
}

/// The integer at `path` when the field is set (a Go pointer that is not nil).
pub(crate) fn opt_int_at(value: &Value, path: &[&str]) -> Option<i64> {
    super::at(value, path).and_then(Value::as_int)
}

/// The value at `path` unless it is absent or `null` (a Go pointer that is not nil).
pub(crate) fn set_at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    super::at(value, path).filter(|v| !v.is_null())
}

/// The list at `path` (empty when absent).
pub(crate) fn list_at<'a>(value: &'a Value, path: &[&str]) -> &'a [Value] {
    super::at(value, path)
        .and_then(Value::as_list)
        .unwrap_or(&[])
}

/// A Go string of a named string type (`apps.PodManagementPolicyType`): `ErrorBody` does not
/// take it for a `string`, so it shows its `json.Marshal` text rather than `%q`.
pub(crate) fn typed_str(s: &str) -> BadValue {
    BadValue::Json(json(&Value::String(s.to_owned())))
}

/// `ValidateNonnegativeField(value, path)`.
pub(crate) fn nonnegative(value: i64, path: &FieldPath) -> Vec<FieldError> {
    if value < 0 {
        vec![FieldError::invalid(
            path,
            BadValue::Int(value),
            NEGATIVE_MSG,
        )]
    } else {
        Vec::new()
    }
}

/// `ValidateNonnegativeField` of an optional integer field (checked only when set).
pub(crate) fn nonnegative_opt(value: Option<i64>, path: &FieldPath) -> Vec<FieldError> {
    value.map(|v| nonnegative(v, path)).unwrap_or_default()
}

/// `apiequality.Semantic.DeepEqual` of two versioned values: Go's reflection treats a nil
/// and an empty map or slice alike, and a zero struct is what an absent or empty object
/// decodes to, so absent, `null`, `{}` and `[]` are one value here; numbers compare by value.
pub(crate) fn semantic_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            let present =
                |m: &smd_fieldpath::value::Map, k: &str| m.get(k).is_some_and(|v| !is_zero(v));
            x.keys()
                .chain(y.keys())
                .all(|k| match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => semantic_eq(p, q),
                    _ => !present(x, k) && !present(y, k),
                })
        }
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| semantic_eq(p, q))
        }
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => (*x as f64) == *y,
        _ if is_zero(a) && is_zero(b) => true,
        _ => a == b,
    }
}

/// Whether a value reads as Go's nil (absent, `null`, an empty map or list).
fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Map(m) => m.is_empty(),
        Value::List(l) => l.is_empty(),
        _ => false,
    }
}

/// `ValidateImmutableField(new, old, path)`: `shown` is the new value as the message shows it.
pub(crate) fn immutable(
    new: Option<&Value>,
    old: Option<&Value>,
    path: &FieldPath,
    shown: impl FnOnce() -> BadValue,
) -> Vec<FieldError> {
    let null = Value::Null;
    if semantic_eq(new.unwrap_or(&null), old.unwrap_or(&null)) {
        Vec::new()
    } else {
        vec![FieldError::invalid(path, shown(), IMMUTABLE_MSG)]
    }
}

/// An `intstr.IntOrString` as `json.Marshal` writes it (`5` or `"5%"`).
pub(crate) fn int_or_string_value(v: &Value) -> BadValue {
    BadValue::Json(json(v))
}

/// `validation.IsValidPercent`'s one problem, if any.
fn percent_problem(s: &str) -> Option<String> {
    let digits = s.strip_suffix('%').unwrap_or("");
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        None
    } else {
        Some(names::regex_error(
            "a valid percent string must be a numeric string followed by an ending '%'",
            "[0-9]+%",
            &["1%", "93%"],
        ))
    }
}

/// `ValidatePositiveIntOrPercent`: a percent string, or a non-negative integer.
pub(crate) fn positive_int_or_percent(v: &Value, path: &FieldPath) -> Vec<FieldError> {
    match v {
        Value::String(s) => percent_problem(s)
            .map(|msg| FieldError::invalid(path, int_or_string_value(v), msg))
            .into_iter()
            .collect(),
        Value::Int(i) => nonnegative(*i, path),
        _ => Vec::new(),
    }
}

/// `getPercentValue`: the number of a valid percent string.
fn percent_value(v: &Value) -> Option<i64> {
    let s = v.as_str()?;
    if percent_problem(s).is_some() {
        return None;
    }
    // Go's Atoi saturates nothing: an overflowing number reads as 0.
    Some(s.trim_end_matches('%').parse::<i64>().unwrap_or(0))
}

/// `getIntOrPercentValue`: a percent's number, else `IntValue()` (a string's `Atoi`, 0 when
/// it is not a number).
pub(crate) fn int_or_percent_value(v: &Value) -> i64 {
    if let Some(p) = percent_value(v) {
        return p;
    }
    match v {
        Value::Int(i) => *i,
        Value::String(s) => s.parse::<i64>().unwrap_or(0),
        _ => 0,
    }
}

/// `IsNotMoreThan100Percent`.
pub(crate) fn not_more_than_100_percent(v: &Value, path: &FieldPath) -> Vec<FieldError> {
    match percent_value(v) {
        Some(p) if p > 100 => vec![FieldError::invalid(
            path,
            int_or_string_value(v),
            "must not be greater than 100%",
        )],
        _ => Vec::new(),
    }
}

/// `IsDomainPrefixedPath`: `host/path`, the host a DNS subdomain, the path an HTTP path.
pub(crate) fn domain_prefixed_path(path: &FieldPath, value: &str) -> Vec<FieldError> {
    if value.is_empty() {
        return vec![FieldError::required(path, "")];
    }
    let Some((host, rest)) = value
        .split_once('/')
        .filter(|(h, r)| !h.is_empty() && !r.is_empty())
    else {
        return vec![FieldError::invalid(
            path,
            BadValue::str(value),
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        )];
    };
    let mut errs: Vec<FieldError> = names::is_dns1123_subdomain(host)
        .into_iter()
        .map(|m| FieldError::invalid(path, BadValue::str(host), m))
        .collect();
    if !rest
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(c))
    {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(rest),
            names::regex_error("Invalid path", "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+", &[]),
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_or_percent() {
        let p = FieldPath::new("x");
        assert_eq!(int_or_percent_value(&Value::String("25%".into())), 25);
        assert_eq!(int_or_percent_value(&Value::String("7".into())), 7);
        assert_eq!(int_or_percent_value(&Value::Int(3)), 3);
        assert!(positive_int_or_percent(&Value::String("10%".into()), &p).is_empty());
        assert_eq!(
            positive_int_or_percent(&Value::String("abc".into()), &p)[0].to_string(),
            "x: Invalid value: \"abc\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
        );
        assert_eq!(
            not_more_than_100_percent(&Value::String("101%".into()), &p)[0].to_string(),
            "x: Invalid value: \"101%\": must not be greater than 100%"
        );
    }

    #[test]
    fn semantic_equality() {
        let a = Value::from_json(r#"{"a":{},"b":[],"c":1}"#).unwrap_or(Value::Null);
        let b = Value::from_json(r#"{"c":1.0}"#).unwrap_or(Value::Null);
        assert!(semantic_eq(&a, &b));
        let c = Value::from_json(r#"{"c":2}"#).unwrap_or(Value::Null);
        assert!(!semantic_eq(&a, &c));
        assert_eq!(
            immutable(
                Some(&c),
                Some(&a),
                &FieldPath::new("spec"),
                || BadValue::of(&c)
            )[0]
            .to_string(),
            "spec: Invalid value: {\"c\":2}: field is immutable"
        );
    }
}
