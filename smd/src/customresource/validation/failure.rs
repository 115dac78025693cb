//! kube-openapi's validation errors as the API server turns them into field errors
//! (apiextensions-apiserver v0.37.2 `kubeOpenAPIResultToFieldErrors`).

use std::collections::HashSet;

use smd_fieldpath::Value;

use crate::validation::{BadValue, ErrorType, FieldError, FieldPath, json};

/// Which field error a failed check becomes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Code {
    /// `RequiredFailCode`: `Required value`.
    Required,
    /// `EnumFailCode`: `Unsupported value`, with the enum's members.
    Enum(Vec<Value>),
    /// `TooLongFailCode`: `Too long`.
    TooLong { max: i64 },
    /// `MaxItemsFailCode` and `TooManyPropertiesCode`: `Too many`.
    TooMany { actual: i64, max: i64 },
    /// `InvalidTypeCode`: `Invalid value`, typed (`FieldValueTypeInvalid`).
    InvalidType,
    /// Every other check: `Invalid value` with the check's message.
    Other,
}

/// One failure, as kube-openapi reports it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Failure {
    /// A failed check (`*errors.Validation`): where (Go's dotted name), the value it carries
    /// (`Null` for none) and its message.
    Check {
        code: Code,
        name: String,
        value: Value,
        message: String,
    },
    /// Any other error (a composition's, a number out of its type's range): reported at the
    /// validation's root.
    Other(String),
}

impl Failure {
    fn message(&self) -> &str {
        match self {
            Failure::Check { message, .. } | Failure::Other(message) => message,
        }
    }
}

/// The field errors of `failures`, each message once (Go's results drop a message already
/// reported), `root` being the path the schema validates (`None` for the object itself,
/// which Go writes `<nil>`).
pub(crate) fn field_errors(failures: Vec<Failure>, root: Option<&FieldPath>) -> Vec<FieldError> {
    let nil = FieldPath::new("<nil>");
    let base = root.unwrap_or(&nil);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for failure in failures {
        if !seen.insert(failure.message().to_owned()) {
            continue;
        }
        out.push(match failure {
            Failure::Other(text) => FieldError::invalid(base, BadValue::str(""), text),
            Failure::Check {
                code,
                name,
                value,
                message,
            } => {
                let name = name.strip_prefix('.').unwrap_or(&name);
                let path = if name.is_empty() {
                    base.clone()
                } else {
                    match root {
                        Some(r) => r.child(name),
                        None => FieldPath::new(name),
                    }
                };
                match code {
                    Code::Required => FieldError::required(&path, ""),
                    Code::Enum(members) => {
                        let shown = if value.is_null() {
                            BadValue::null()
                        } else {
                            BadValue::of(&value)
                        };
                        let members: Vec<String> = members
                            .iter()
                            .map(|m| match m {
                                Value::String(s) => s.clone(),
                                other => json(other),
                            })
                            .collect();
                        let members: Vec<&str> = members.iter().map(String::as_str).collect();
                        FieldError::not_supported(&path, shown, &members)
                    }
                    Code::TooLong { max } => FieldError::too_long(&path, max),
                    Code::TooMany { actual, max } => FieldError::too_many(&path, actual, max),
                    Code::InvalidType => {
                        FieldError::new(ErrorType::TypeInvalid, &path, shown(&value), message)
                    }
                    Code::Other => FieldError::invalid(&path, shown(&value), message),
                }
            }
        });
    }
    out
}

/// The value an error shows: Go shows `""` where the check carried none.
fn shown(value: &Value) -> BadValue {
    if value.is_null() {
        BadValue::str("")
    } else {
        BadValue::of(value)
    }
}
