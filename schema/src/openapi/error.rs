//! Errors of reading and converting OpenAPI documents. Each names the JSON pointer of the
//! schema at fault; conversion problems also carry Go's text.

use std::fmt;

/// What failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not JSON or YAML, or not an OpenAPI document kube-openapi reads (a part of
    /// the wrong JSON type, a duplicate member name, neither `definitions` nor `components`).
    Read,
    /// The document reads, but `schemaconv` refuses it (an unknown list type, list-map keys
    /// missing, an array without `items`, ...). Every problem is reported.
    Convert,
    /// Documents merged into one define a type differently.
    Merge,
}

/// One problem: where in the document, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pointer: String,
    message: String,
    go_scope: String,
}

impl Problem {
    /// The JSON pointer of the schema at fault, as a URI fragment
    /// (`#/definitions/io.k8s.api.core.v1.Pod/properties/spec`).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// What is wrong (for conversion problems, Go's words: `missing map keys`).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Go's line for this problem: the definition it is in, prefixed by one `inlined in ` per
    /// level of nesting, then the message. Empty for problems Go does not report this way.
    pub fn go_text(&self) -> String {
        if self.go_scope.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.go_scope, self.message)
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

/// An error reading or converting an OpenAPI document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    problems: Vec<Problem>,
}

impl Error {
    pub(crate) fn read(pointer: impl Into<String>, message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Read,
            problems: vec![Problem {
                pointer: pointer.into(),
                message: message.into(),
                go_scope: String::new(),
            }],
        }
    }

    pub(crate) fn merge(pointer: impl Into<String>, message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Merge,
            ..Error::read(pointer, message)
        }
    }

    pub(crate) fn convert(problems: Vec<Problem>) -> Error {
        Error {
            kind: ErrorKind::Convert,
            problems,
        }
    }

    /// What failed.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Every problem, in the order found.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The text Go's `schemaconv.ToSchemaFromOpenAPI` returns for a conversion error: one
    /// line per problem. Go joins them in its map iteration order; this sorts them (by bytes),
    /// as smd's conformance goldens do.
    pub fn go_message(&self) -> String {
        let mut lines: Vec<String> = self.problems.iter().map(Problem::go_text).collect();
        lines.sort();
        lines.join("\n")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::Read => "cannot read the OpenAPI document",
            ErrorKind::Convert => "cannot convert the OpenAPI schemas",
            ErrorKind::Merge => "cannot merge the OpenAPI documents",
        };
        match self.problems.as_slice() {
            [one] => write!(f, "{what}: {one}"),
            problems => {
                write!(f, "{what}: {} problems", problems.len())?;
                for p in problems {
                    write!(f, "\n  {p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Error {}

/// A reading failure inside the crate, before it becomes an [`Error`]: the pointer and the
/// message, boxed so that a `Result` carrying it stays one word wider than its value (the
/// reader recurses once per level of the document, and every `?` reserves room for the error).
#[derive(Debug)]
pub(crate) struct ReadError(Box<(String, String)>);

impl ReadError {
    pub(crate) fn new(pointer: String, message: String) -> ReadError {
        ReadError(Box::new((pointer, message)))
    }
}

impl From<ReadError> for Error {
    fn from(e: ReadError) -> Error {
        let (pointer, message) = *e.0;
        Error::read(pointer, message)
    }
}

pub(crate) fn problem(pointer: String, go_scope: &str, message: String) -> Problem {
    Problem {
        pointer,
        message,
        go_scope: go_scope.to_owned(),
    }
}
