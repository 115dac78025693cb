//! The replica counts and selector a CRD's scale subresource reads, checked on every write
//! (apiextensions-apiserver v0.37.2 `customResourceValidator.ValidateScaleSpec` and
//! `ValidateScaleStatus`).

use smd_fieldpath::Value;
use smd_fieldpath::value::gofmt;

use crate::validation::{BadValue, FieldError, FieldPath};

/// The paths of a version's `subresources.scale`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Scale {
    pub(crate) spec_replicas: String,
    pub(crate) status_replicas: String,
    pub(crate) label_selector: Option<String>,
}

impl Scale {
    /// The spec's replica count: an integer within 0 and 2^31 − 1 (absent is 0).
    pub(crate) fn spec(&self, object: &Value) -> Vec<FieldError> {
        replicas(object, &self.spec_replicas).into_iter().collect()
    }

    /// The status's replica count, and the selector a string.
    pub(crate) fn status(&self, object: &Value) -> Vec<FieldError> {
        let mut out: Vec<FieldError> = replicas(object, &self.status_replicas)
            .into_iter()
            .collect();
        if let Some(path) = self.label_selector.as_deref().filter(|p| !p.is_empty())
            && let Err(why) = nested(object, path, "string", |v| matches!(v, Value::String(_)))
        {
            out.push(FieldError::invalid(
                &FieldPath::new(path),
                BadValue::str(""),
                why,
            ));
        }
        out
    }
}

fn replicas(object: &Value, path: &str) -> Option<FieldError> {
    let at = FieldPath::new(path);
    match nested(object, path, "int64", |v| matches!(v, Value::Int(_))) {
        Err(why) => Some(FieldError::invalid(&at, BadValue::Int(0), why)),
        Ok(Some(Value::Int(n))) if *n < 0 => Some(FieldError::invalid(
            &at,
            BadValue::Int(*n),
            "should be a non-negative integer",
        )),
        Ok(Some(Value::Int(n))) if *n > i64::from(i32::MAX) => Some(FieldError::invalid(
            &at,
            BadValue::Int(*n),
            format!("should be less than or equal to {}", i32::MAX),
        )),
        _ => None,
    }
}

/// `unstructured.NestedInt64`/`NestedString` at a scale path (`.spec.replicas`): the value
/// (`None` when absent), or Go's accessor error.
fn nested<'a>(
    object: &'a Value,
    path: &str,
    expected: &str,
    is_expected: impl Fn(&Value) -> bool,
) -> Result<Option<&'a Value>, String> {
    let fields: Vec<&str> = path.strip_prefix('.').unwrap_or(path).split('.').collect();
    let mut at = object;
    for (i, field) in fields.iter().enumerate() {
        let Some(map) = at.as_map() else {
            return Err(accessor_error(&fields[..=i], at, "map[string]interface{}"));
        };
        match map.get(field) {
            Some(v) => at = v,
            None => return Ok(None),
        }
    }
    if is_expected(at) {
        Ok(Some(at))
    } else {
        Err(accessor_error(&fields, at, expected))
    }
}

fn accessor_error(fields: &[&str], value: &Value, expected: &str) -> String {
    let mut shown = String::new();
    gofmt::write_plain(&mut shown, value);
    format!(
        ".{} accessor error: {shown} is of the type {}, expected {expected}",
        fields.join("."),
        gofmt::type_name(value)
    )
}
