//! The one error type of this crate: what went wrong reading or writing a value's JSON or YAML,
//! in Go's words where Go has words for it, and where in the input it went wrong.

use std::fmt;

/// A `Result` whose error is this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What kind of input an [`Error`] was about.
///
/// Not `#[non_exhaustive]`, unlike the kinds of smd's other crates: `smd_fieldpath::ErrorKind`
/// extends this one (a path or `fieldsV1` error is read through this crate's JSON reader) and
/// maps it variant by variant, so a kind added here must fail to compile there until it is
/// mapped, rather than fall into a catch-all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// JSON text that is not well formed, or not of the expected shape.
    Json,
    /// YAML text that is not well formed or cannot become a [`crate::Value`].
    Yaml,
    /// The input went past one of the limits that protect against hostile input
    /// (nesting depth, alias expansion, size).
    Limit,
    /// A value that has no representation in the requested form (NaN in JSON, …).
    Unsupported,
}

/// Where in the input an [`Error`] was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Location {
    /// Not tied to a place in the input.
    Unknown,
    /// A 0-based byte offset into the input.
    Byte(usize),
    /// A 1-based line and column, with the 0-based byte offset they stand for.
    Text {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// 0-based byte offset.
        offset: usize,
    },
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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Unknown => f.write_str(&self.message),
            Location::Byte(offset) => write!(f, "{} (at byte {})", self.message, offset),
            Location::Text { line, column, .. } => {
                write!(f, "line {line} column {column}: {}", self.message)
            }
        }
    }
}

impl std::error::Error for Error {}
