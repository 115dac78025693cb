//! Field errors as apimachinery's `util/validation/field` words them: the error types, the
//! path text (`spec.containers[0].image`, `metadata.labels[app]`), the offending value's
//! text, and the aggregate a 422's message carries.

use std::fmt;

use smd_fieldpath::Value;
use smd_fieldpath::value::{go_float, go_quote, gojson};

/// Why a field is refused (`field.ErrorType`); `reason` is the cause's `reason` in a Status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorType {
    /// `FieldValueNotFound`.
    NotFound,
    /// `FieldValueRequired`.
    Required,
    /// `FieldValueDuplicate`.
    Duplicate,
    /// `FieldValueInvalid`.
    Invalid,
    /// `FieldValueNotSupported`.
    NotSupported,
    /// `FieldValueForbidden`.
    Forbidden,
    /// `FieldValueTooLong`.
    TooLong,
    /// `FieldValueTooMany`.
    TooMany,
    /// `FieldValueTooShort`.
    TooShort,
    /// `FieldValueTooFew`.
    TooFew,
    /// `InternalError`.
    Internal,
    /// `FieldValueTypeInvalid`.
    TypeInvalid,
}

impl ErrorType {
    /// The cause's `reason` (`FieldValueInvalid`).
    pub fn reason(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooShort => "FieldValueTooShort",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
        }
    }

    /// The words the message opens with (`ErrorType.String()`).
    pub fn words(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TooShort => "Too short",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
            ErrorType::TypeInvalid => "Invalid value",
        }
    }

    /// Whether the message shows the offending value (`ErrorBody`'s second case).
    fn shows_value(self) -> bool {
        !matches!(
            self,
            ErrorType::Required
                | ErrorType::Forbidden
                | ErrorType::TooLong
                | ErrorType::TooShort
                | ErrorType::Internal
        )
    }
}

/// The offending value as Go's `ErrorBody` prints it: simple types with `%v`, strings with
/// `%q`, anything else as its `json.Marshal` text (which the caller renders, since a Go
/// struct's field order and names are the type's, not the object's).
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    /// `field.OmitValueType`: no value shown.
    Omit,
    /// An int64/int32 (`%v`).
    Int(i64),
    /// A float64 (`%v`).
    Float(f64),
    /// A bool (`%v`).
    Bool(bool),
    /// A string (`%q`).
    Str(String),
    /// The `json.Marshal` text of a composite value (a map, a slice, a struct, a nil pointer
    /// as `null`).
    Json(String),
}

impl BadValue {
    /// A string value.
    pub fn str(s: impl Into<String>) -> BadValue {
        BadValue::Str(s.into())
    }

    /// A plain value as Go holds it after decoding into a type whose shape is the value's
    /// own: strings, numbers and bools as themselves, `null`, maps (keys sorted, as Go's
    /// maps marshal) and lists as JSON. A struct's JSON must be rendered by its type.
    pub fn of(value: &Value) -> BadValue {
        match value {
            Value::String(s) => BadValue::Str(s.clone()),
            Value::Int(i) => BadValue::Int(*i),
            Value::Float(f) => BadValue::Float(*f),
            Value::Bool(b) => BadValue::Bool(*b),
            other => BadValue::Json(json(other)),
        }
    }

    /// A nil pointer, slice or map (`null`).
    pub fn null() -> BadValue {
        BadValue::Json("null".to_owned())
    }
}

/// `json.Marshal` of a plain value (maps with sorted keys).
pub fn json(value: &Value) -> String {
    let mut out = String::new();
    // NaN and infinities cannot come from a decoded object.
    if gojson::write_value(&mut out, value).is_err() {
        out = "null".to_owned();
    }
    out
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::Omit => Ok(()),
            BadValue::Int(i) => write!(f, "{i}"),
            BadValue::Float(x) => f.write_str(&go_float(*x)),
            BadValue::Bool(b) => write!(f, "{b}"),
            BadValue::Str(s) => f.write_str(&go_quote(s)),
            BadValue::Json(j) => f.write_str(j),
        }
    }
}

/// A field path as `field.Path` writes it: `spec.containers[0].image`,
/// `metadata.annotations[example.com/x]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldPath(String);

impl FieldPath {
    /// A path of one field (`field.NewPath`).
    pub fn new(name: &str) -> FieldPath {
        FieldPath(name.to_owned())
    }

    /// The path's child field.
    pub fn child(&self, name: &str) -> FieldPath {
        if self.0.is_empty() {
            return FieldPath::new(name);
        }
        FieldPath(format!("{}.{name}", self.0))
    }

    /// The path's list item.
    pub fn index(&self, i: usize) -> FieldPath {
        FieldPath(format!("{}[{i}]", self.0))
    }

    /// The path's map entry (the key as it is, unquoted).
    pub fn key(&self, key: &str) -> FieldPath {
        FieldPath(format!("{}[{key}]", self.0))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One refused field (`field.Error`).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// Why.
    pub kind: ErrorType,
    /// Where.
    pub field: FieldPath,
    /// The value, where the type shows one.
    pub value: BadValue,
    /// The explanation after the value (may be empty).
    pub detail: String,
}

impl FieldError {
    /// `field.Required(path, detail)`.
    pub fn required(field: &FieldPath, detail: impl Into<String>) -> FieldError {
        FieldError::new(ErrorType::Required, field, BadValue::str(""), detail)
    }

    /// `field.Invalid(path, value, detail)`.
    pub fn invalid(field: &FieldPath, value: BadValue, detail: impl Into<String>) -> FieldError {
        FieldError::new(ErrorType::Invalid, field, value, detail)
    }

    /// `field.Forbidden(path, detail)`.
    pub fn forbidden(field: &FieldPath, detail: impl Into<String>) -> FieldError {
        FieldError::new(ErrorType::Forbidden, field, BadValue::str(""), detail)
    }

    /// `field.Duplicate(path, value)`.
    pub fn duplicate(field: &FieldPath, value: BadValue) -> FieldError {
        FieldError::new(ErrorType::Duplicate, field, value, "")
    }

    /// `field.NotFound(path, value)`.
    pub fn not_found(field: &FieldPath, value: BadValue) -> FieldError {
        FieldError::new(ErrorType::NotFound, field, value, "")
    }

    /// `field.TooLong(path, value, max)`: Go's detail for a known maximum, or none for
    /// `max < 0`.
    pub fn too_long(field: &FieldPath, max: i64) -> FieldError {
        let detail = match max {
            1 => "may not be more than 1 byte".to_owned(),
            m if m >= 0 => format!("may not be more than {m} bytes"),
            _ => "value is too long".to_owned(),
        };
        FieldError::new(ErrorType::TooLong, field, BadValue::Omit, detail)
    }

    /// `field.TooMany(path, actual, max)`: the count shown unless negative.
    pub fn too_many(field: &FieldPath, actual: i64, max: i64) -> FieldError {
        let detail = match max {
            1 => "must have at most 1 item".to_owned(),
            m if m >= 0 => format!("must have at most {m} items"),
            _ => "has too many items".to_owned(),
        };
        let value = if actual >= 0 {
            BadValue::Int(actual)
        } else {
            BadValue::Omit
        };
        FieldError::new(ErrorType::TooMany, field, value, detail)
    }

    /// `field.NotSupported(path, value, valid)`: the valid values quoted and joined as Go
    /// does (in the order given, which Go's callers sort or keep).
    pub fn not_supported(field: &FieldPath, value: BadValue, valid: &[&str]) -> FieldError {
        let detail = if valid.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = valid.iter().map(|v| go_quote(v)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        FieldError::new(ErrorType::NotSupported, field, value, detail)
    }

    /// Any type, value and detail.
    pub fn new(
        kind: ErrorType,
        field: &FieldPath,
        value: BadValue,
        detail: impl Into<String>,
    ) -> FieldError {
        FieldError {
            kind,
            field: field.clone(),
            value,
            detail: detail.into(),
        }
    }

    /// `ErrorBody()`: the type's words, the value where the type shows one, the detail.
    pub fn body(&self) -> String {
        let mut s = self.kind.words().to_owned();
        if self.kind.shows_value() && self.value != BadValue::Omit {
            s.push_str(": ");
            s.push_str(&self.value.to_string());
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

/// `ErrorList.ToAggregate().Error()`: each distinct error once, in order; one alone, several
/// in brackets joined by `, `.
pub fn aggregate(errors: &[FieldError]) -> String {
    let mut seen = std::collections::HashSet::new();
    let texts: Vec<String> = errors
        .iter()
        .map(ToString::to_string)
        .filter(|t| seen.insert(t.clone()))
        .collect();
    match texts.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_go_s() {
        let p = FieldPath::new("spec")
            .child("containers")
            .index(0)
            .child("image");
        assert_eq!(p.as_str(), "spec.containers[0].image");
        let e = FieldError::required(&p, "");
        assert_eq!(e.to_string(), "spec.containers[0].image: Required value");
        let e = FieldError::invalid(
            &FieldPath::new("metadata").child("labels").key("a/b"),
            BadValue::str("x y"),
            "bad",
        );
        assert_eq!(
            e.to_string(),
            "metadata.labels[a/b]: Invalid value: \"x y\": bad"
        );
        let e = FieldError::not_supported(
            &FieldPath::new("spec").child("restartPolicy"),
            BadValue::str("Sometimes"),
            &["Always", "Never"],
        );
        assert_eq!(
            e.body(),
            "Unsupported value: \"Sometimes\": supported values: \"Always\", \"Never\""
        );
        let twice = vec![e.clone(), e.clone()];
        assert_eq!(aggregate(&twice), e.to_string());
    }
}
