//! Errors of the typed operations, worded as Go's `typed.ValidationError(s)`.

use std::fmt;

/// One problem, at a path of the value (`.spec.containers[name="nginx"].image`), in Go's
/// words (`expected string, got …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// The path of the value at fault, as Go prints paths; empty for the root.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ValidationError {
    /// Go's text: `PATH: MESSAGE`, or the message alone at the root.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Every problem an operation found, in the order found.
#[derive(Debug, Clone, PartialEq, Eq, Default, thiserror::Error)]
pub struct ValidationErrors(pub Vec<ValidationError>);

impl ValidationErrors {
    /// One error with no path.
    pub(crate) fn one(message: impl Into<String>) -> ValidationErrors {
        ValidationErrors(vec![ValidationError {
            path: String::new(),
            message: message.into(),
        }])
    }

    /// The problems.
    pub fn errors(&self) -> &[ValidationError] {
        &self.0
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for ValidationErrors {
    /// Go's text: a single error as itself; several as `errors:` and one indented line each.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [one] => one.fmt(f),
            many => {
                f.write_str("errors:")?;
                for e in many {
                    write!(f, "\n  {e}")?;
                }
                Ok(())
            }
        }
    }
}
