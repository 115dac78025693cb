//! The one error type of this crate.

use std::fmt;

/// A `Result` whose error is this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text is not YAML (or not YAML this reader accepts).
    Yaml,
    /// The input went past one of the limits that protect against hostile input (nesting
    /// depth, alias expansion).
    Limit,
    /// The document is YAML but not a schema: it fails Go's schema of schemas. The error holds
    /// every [`Problem`] found.
    Invalid,
}

/// One thing wrong in a schema document: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    path: String,
    message: String,
}

impl Problem {
    pub(crate) fn new(path: String, message: String) -> Problem {
        Problem { path, message }
    }

    /// The path in the schema document, as Go prints it
    /// (`.types[name="io.k8s.api.core.v1.Pod"].map.fields[name="spec"]`); empty for the
    /// document itself.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong, in Go's words (`expected string, got …`, `field not declared in schema`).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Problem {
    /// `path: message`, or the message alone at the document's root (Go's `ValidationError`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// An error of this crate.
///
/// Its text is Go's where Go reports the same failure: for a schema that fails validation,
/// `unable to validate schema: ` then one problem as `path: message`, or several as `errors:`
/// followed by one indented line each.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    kind: ErrorKind,
    problems: Vec<Problem>,
    source: Option<smd_value::Error>,
}

impl Error {
    pub(crate) fn invalid(problems: Vec<Problem>) -> Error {
        Error {
            kind: ErrorKind::Invalid,
            problems,
            source: None,
        }
    }

    pub(crate) fn from_yaml(e: smd_value::Error) -> Error {
        let kind = match e.kind() {
            smd_value::ErrorKind::Limit => ErrorKind::Limit,
            _ => ErrorKind::Yaml,
        };
        Error {
            kind,
            problems: Vec::new(),
            source: Some(e),
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The problems of an [`ErrorKind::Invalid`] error, in the order they were found (empty
    /// for other kinds).
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The text after `unable to validate schema: `: Go's `ValidationErrors` text for an
    /// invalid schema, the reader's error (with its line and column) for bad YAML.
    pub fn detail(&self) -> String {
        match (&self.source, self.problems.as_slice()) {
            (Some(e), _) => format!("yaml: {e}"),
            (None, [one]) => one.to_string(),
            (None, problems) => {
                let mut text = String::from("errors:");
                for p in problems {
                    text.push_str("\n  ");
                    text.push_str(&p.to_string());
                }
                text
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unable to validate schema: {}", self.detail())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}
