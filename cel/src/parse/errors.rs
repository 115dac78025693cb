//! A parse's errors, printed as cel-go prints them (`iss.Err().Error()`): one
//! `ERROR: <input>:LINE:COLUMN: message` per error, sorted by position, each followed by the
//! source line and a caret under the column.

use std::fmt;

/// Where an error is: cel-go's 1-based line and 0-based column in code points, or no place
/// (cel-go's `NoLocation`, printed as `-1:0`), for errors about the whole expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// The 1-based line, -1 for no place.
    pub line: i64,
    /// The 0-based column in code points, -1 for no place.
    pub column: i64,
}

impl Location {
    /// cel-go's `NoLocation`.
    pub const NONE: Location = Location {
        line: -1,
        column: -1,
    };
}

/// One error of a parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location:?}: {message}")]
pub struct ParseError {
    /// Where the error is.
    pub location: Location,
    /// cel-go's message, e.g. `Syntax error: mismatched input ')' expecting <EOF>`.
    pub message: String,
}

/// The errors of a refused expression, with its text for printing the offending lines.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ParseErrors {
    errors: Vec<ParseError>,
    text: String,
}

/// cel-go's `common.Errors` reports at most this many errors and then counts the rest.
const MAX_REPORTED: usize = 100;
/// cel-go prints no source line longer than this.
const MAX_SNIPPET: usize = 16384;

impl ParseErrors {
    pub(crate) fn new(mut errors: Vec<ParseError>, text: &str) -> ParseErrors {
        errors.sort_by_key(|e| (e.location.line, e.location.column));
        ParseErrors {
            errors,
            text: text.to_string(),
        }
    }

    /// The errors, sorted by position as cel-go prints them.
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    fn snippet(&self, line: i64) -> Option<&str> {
        if self.text.is_empty() || line < 1 {
            return None;
        }
        self.text.split('\n').nth(usize::try_from(line - 1).ok()?)
    }
}

impl fmt::Display for ParseErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().take(MAX_REPORTED).enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            let Location { line, column } = e.location;
            write!(f, "ERROR: <input>:{line}:{}: {}", column + 1, e.message)?;
            let Some(snippet) = self.snippet(line) else {
                continue;
            };
            if snippet.len() > MAX_SNIPPET {
                continue;
            }
            let snippet = snippet.replace('\t', " ");
            write!(f, "\n | {snippet}\n | ")?;
            let mut chars = snippet.chars();
            for _ in 0..column.max(0) {
                match chars.next() {
                    Some(c) if c.len_utf8() > 1 => f.write_str("\u{ff0e}")?,
                    Some(_) => f.write_str(".")?,
                    None => break,
                }
            }
            match chars.next() {
                Some(c) if c.len_utf8() > 1 => f.write_str("\u{ff3e}")?,
                _ => f.write_str("^")?,
            }
        }
        if self.errors.len() > MAX_REPORTED {
            write!(
                f,
                "\n{} more errors were truncated",
                self.errors.len() - MAX_REPORTED
            )?;
        }
        Ok(())
    }
}
