//! The one error type of this crate: a path element or a `fieldsV1` document that cannot be
//! read, or a set that cannot be written, in Go's words, and where in the input it went wrong.
//!
//! Its kinds extend smd-value's: the readers here are built on smd-value's JSON reader, whose
//! errors become this crate's with their message and location unchanged (`From`), so that a
//! caller reading values and sets together keeps one error type without losing either.

use smd_value::Location;
use std::fmt;

/// A `Result` whose error is this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What kind of input an [`Error`] was about: smd-value's kinds, and the two of this crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// JSON text that is not well formed, or not of the expected shape
    /// ([`smd_value::ErrorKind::Json`]).
    Json,
    /// YAML text that is not well formed or cannot become a [`crate::Value`]
    /// ([`smd_value::ErrorKind::Yaml`]).
    Yaml,
    /// A serialized path element (`f:name`, `k:{…}`, `v:…`, `i:3`) that cannot be read.
    PathElement,
    /// A `fieldsV1` document that cannot be read.
    FieldsV1,
    /// The input went past one of the limits that protect against hostile input
    /// (nesting depth, alias expansion, size) ([`smd_value::ErrorKind::Limit`]).
    Limit,
    /// A value that has no representation in the requested form (NaN in JSON, …)
    /// ([`smd_value::ErrorKind::Unsupported`]).
    Unsupported,
}

impl From<smd_value::ErrorKind> for ErrorKind {
    fn from(kind: smd_value::ErrorKind) -> Self {
        match kind {
            smd_value::ErrorKind::Json => ErrorKind::Json,
            smd_value::ErrorKind::Yaml => ErrorKind::Yaml,
            smd_value::ErrorKind::Limit => ErrorKind::Limit,
            smd_value::ErrorKind::Unsupported => ErrorKind::Unsupported,
        }
    }
}

/// An error of this crate.
///
/// [`Error::message`] is the text without location; where Go's structured-merge-diff reports the
/// same failure it is Go's text up to the point where Go starts printing its own byte-offset
/// context (`, error found in #N byte of …`), so the two can be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    location: Location,
}

impl Error {
    /// A new error.
    pub fn new(kind: ErrorKind, message: impl Into<String>, location: Location) -> Self {
        Error {
            kind,
            message: message.into(),
            location,
        }
    }

    /// What kind of input the error is about.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message without location.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where the error was found.
    pub fn location(&self) -> Location {
        self.location
    }

    /// The same error, said to be about another kind of input (a JSON error inside a
    /// `fieldsV1` document is a `fieldsV1` error to the caller). Limit errors stay limit errors.
    pub(crate) fn with_kind(mut self, kind: ErrorKind) -> Self {
        if self.kind != ErrorKind::Limit {
            self.kind = kind;
        }
        self
    }
}

/// A value's error as this crate's: same message and location, the kind of the same name.
impl From<smd_value::Error> for Error {
    fn from(error: smd_value::Error) -> Self {
        Error::new(error.kind().into(), error.message(), error.location())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Byte(offset) => write!(f, "{} (at byte {})", self.message, offset),
            Location::Text { line, column, .. } => {
                write!(f, "line {line} column {column}: {}", self.message)
            }
            // Unknown, and any place smd-value may learn to name later.
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use smd_value::Value;

    /// A value's error keeps everything when it becomes this crate's: the conformance runner
    /// compares the message with Go's, and people read the position.
    fn converts_whole(value_error: smd_value::Error, kind: ErrorKind) {
        let converted = Error::from(value_error.clone());
        assert_eq!(converted.kind(), kind);
        assert_eq!(converted.message(), value_error.message());
        assert_eq!(converted.location(), value_error.location());
        assert_eq!(converted.to_string(), value_error.to_string());
    }

    #[test]
    fn a_value_error_converts_with_its_kind_message_and_location() {
        let yaml = smd_value::yaml::from_str("a: 1\nb: [1,\n").unwrap_err();
        assert!(matches!(yaml.location(), Location::Text { .. }), "{yaml:?}");
        converts_whole(yaml, ErrorKind::Yaml);

        let json = Value::from_json_floats(b"[1,2,]").unwrap_err();
        assert!(matches!(json.location(), Location::Byte(_)), "{json:?}");
        converts_whole(json, ErrorKind::Json);

        let deep = "[".repeat(smd_value::MAX_DEPTH + 1);
        converts_whole(
            Value::from_json_floats(deep.as_bytes()).unwrap_err(),
            ErrorKind::Limit,
        );

        converts_whole(
            Value::Float(f64::NAN).to_json().unwrap_err(),
            ErrorKind::Unsupported,
        );
    }

    #[test]
    fn relabelling_keeps_limits() {
        let error = Error::new(ErrorKind::Json, "m", Location::Byte(3));
        assert_eq!(
            error.with_kind(ErrorKind::FieldsV1).kind(),
            ErrorKind::FieldsV1
        );
        let limit = Error::new(ErrorKind::Limit, "m", Location::Byte(3));
        assert_eq!(
            limit.with_kind(ErrorKind::FieldsV1).kind(),
            ErrorKind::Limit
        );
    }
}
