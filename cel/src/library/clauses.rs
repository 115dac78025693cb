//! The grammar of strings v2's format strings, shared by the runtime `format` and the
//! checker's validator of literal format strings, so that both refuse a string with the same
//! error, in the same order, as cel-go's parser: a `%` at the end, then a clause beyond the
//! arguments, then a bad precision, then an unknown verb.
//!
//! cel-go reads the string byte by byte; `%` being ASCII, the text between clauses is whole
//! UTF-8, and only an unknown verb can be part of a character (it prints as that byte's
//! Latin-1 character, as Go's `%c` of `rune(byte)` does).

use std::fmt;

/// One piece of a format string, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    /// Text copied as it is.
    Text(&'a str),
    /// `%%`: a `%`, taking no argument.
    Percent,
    /// A clause, formatting argument `index`.
    Clause {
        /// The argument's position in the list.
        index: usize,
        /// `s`, `d`, `f`, `e`, `b`, `x`, `X` or `o`.
        verb: u8,
        /// `%.3f`'s 3; cel-go parses it for every verb and uses it for `f` only.
        precision: Option<i64>,
    },
}

/// A format string cel-go's parser refuses, printed as cel-go prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ClauseError {
    /// A `%` ends the string.
    UnexpectedEnd,
    /// A clause past the last argument.
    OutOfRange(usize),
    /// `%.` followed by digits up to the end of the string.
    PrecisionEnd,
    /// The digits after `%.` are none or too many for an `int` (Go's `strconv.Atoi` error).
    PrecisionNumber {
        /// The digits.
        digits: String,
        /// Too large rather than empty.
        overflow: bool,
    },
    /// A verb that is none of the clauses.
    Unrecognized(u8),
}

impl fmt::Display for ClauseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CLAUSE: &str = "could not parse formatting clause";
        const PRECISION: &str = "error while parsing precision";
        match self {
            ClauseError::UnexpectedEnd => f.write_str("unexpected end of string"),
            ClauseError::OutOfRange(i) => write!(f, "index {i} out of range"),
            ClauseError::PrecisionEnd => {
                write!(
                    f,
                    "{CLAUSE}: {PRECISION}: could not find end of precision specifier"
                )
            }
            ClauseError::PrecisionNumber { digits, overflow } => {
                let why = if *overflow {
                    "value out of range"
                } else {
                    "invalid syntax"
                };
                write!(
                    f,
                    "{CLAUSE}: {PRECISION}: error while converting precision to integer: \
                     strconv.Atoi: parsing {digits:?}: {why}"
                )
            }
            ClauseError::Unrecognized(b) => write!(
                f,
                "{CLAUSE}: unrecognized formatting clause \"{}\"",
                char::from(*b)
            ),
        }
    }
}

/// The pieces of `text` formatting `args` arguments; after an error, nothing more.
pub(crate) fn pieces(text: &str, args: usize) -> Pieces<'_> {
    Pieces {
        text,
        at: 0,
        next: 0,
        args,
        failed: false,
    }
}

/// The iterator [`pieces`] returns.
pub(crate) struct Pieces<'a> {
    text: &'a str,
    at: usize,
    next: usize,
    args: usize,
    failed: bool,
}

impl<'a> Pieces<'a> {
    fn clause(&mut self) -> Result<Piece<'a>, ClauseError> {
        let bytes = self.text.as_bytes();
        // `self.at` is on the `%`.
        let mut i = self.at + 1;
        if i >= bytes.len() {
            return Err(ClauseError::UnexpectedEnd);
        }
        if self.next >= self.args {
            return Err(ClauseError::OutOfRange(self.next));
        }
        let mut precision = None;
        if bytes[i] == b'.' {
            let start = i + 1;
            let digits = bytes[start..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            i = start + digits;
            if i >= bytes.len() {
                return Err(ClauseError::PrecisionEnd);
            }
            let digits = &self.text[start..i];
            match digits.parse::<i64>() {
                Ok(p) => precision = Some(p),
                Err(_) => {
                    return Err(ClauseError::PrecisionNumber {
                        digits: digits.to_string(),
                        overflow: !digits.is_empty(),
                    });
                }
            }
        }
        let verb = bytes[i];
        if !matches!(verb, b's' | b'd' | b'f' | b'e' | b'b' | b'x' | b'X' | b'o') {
            return Err(ClauseError::Unrecognized(verb));
        }
        self.at = i + 1;
        let index = self.next;
        self.next += 1;
        Ok(Piece::Clause {
            index,
            verb,
            precision,
        })
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = Result<Piece<'a>, ClauseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.at >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.at..];
        if !rest.starts_with('%') {
            let len = rest.find('%').unwrap_or(rest.len());
            self.at += len;
            return Some(Ok(Piece::Text(&rest[..len])));
        }
        if rest.starts_with("%%") {
            self.at += 2;
            return Some(Ok(Piece::Percent));
        }
        let piece = self.clause();
        self.failed = piece.is_err();
        Some(piece)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_error(text: &str, args: usize) -> Option<String> {
        pieces(text, args)
            .find_map(|p| p.err())
            .map(|e| e.to_string())
    }

    #[test]
    fn pieces_in_order() {
        let got: Vec<_> = pieces("a%%b%.2fé%s", 2).collect();
        assert_eq!(
            got,
            vec![
                Ok(Piece::Text("a")),
                Ok(Piece::Percent),
                Ok(Piece::Text("b")),
                Ok(Piece::Clause {
                    index: 0,
                    verb: b'f',
                    precision: Some(2)
                }),
                Ok(Piece::Text("é")),
                Ok(Piece::Clause {
                    index: 1,
                    verb: b's',
                    precision: None
                }),
            ]
        );
    }

    #[test]
    fn errors_in_cel_go_order() {
        assert_eq!(
            first_error("%", 0).as_deref(),
            Some("unexpected end of string")
        );
        assert_eq!(
            first_error("%z", 0).as_deref(),
            Some("index 0 out of range")
        );
        assert!(first_error("%.", 1).is_some_and(|e| e.ends_with("specifier")));
        assert!(first_error("%.f", 1).is_some_and(|e| e.ends_with("\"\": invalid syntax")));
        assert!(first_error("%.99999999999999999999f", 1).is_some_and(|e| e.ends_with("range")));
        assert!(first_error("%é", 1).is_some_and(|e| e.ends_with("\"Ã\"")));
    }
}
