//! Syntax that libyaml (so yaml.v2) refuses and granit-parser, a YAML 1.2 parser, accepts:
//! refused here too, where it can be told exactly from the events and the text.

use granit_parser::Span;

use super::{input, syntax};
use crate::{Error, ErrorKind, Result};

/// Checks the text before a document's start (or before the end of a stream): comments,
/// blank lines, directives and `...` markers, one a line, starting at byte `at` of `text`.
///
/// libyaml knows the `%YAML` and `%TAG` directives only ("found unknown directive name"), where
/// YAML 1.2 ignores others; and it refuses a `...` marker before the first document
/// (`parserc.go`: the stream's first document may not begin with one).
pub(super) fn check_prefix(text: &str, prefix: &str, at: usize, first: bool) -> Result<()> {
    let mut offset = at;
    for line in prefix.split_inclusive('\n') {
        if let Some(directive) = line.strip_prefix('%') {
            let name = directive
                .split([' ', '\t', '\r', '\n'])
                .next()
                .unwrap_or_default();
            if name != "YAML" && name != "TAG" {
                return Err(Error::new(
                    ErrorKind::Yaml,
                    format!("found unknown directive name `%{name}`"),
                    input::location(text, offset),
                ));
            }
        }
        let marker = line
            .strip_prefix("...")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\r', '\n']));
        if first && marker {
            return Err(Error::new(
                ErrorKind::Yaml,
                "did not find expected node content (a document end marker before any document)",
                input::location(text, offset),
            ));
        }
        offset += line.len();
    }
    Ok(())
}

/// libyaml knows the escapes of YAML 1.1 only: `\/` is unknown to it, and it takes no
/// surrogate (`\ud83d`), not even in a pair, as a character (`scannerc.go:2379-2446`).
pub(super) fn check_escapes(text: &str, span: &Span) -> Result<()> {
    let Some(raw) = span.slice(text) else {
        return Ok(());
    };
    if !raw.contains('\\') {
        return Ok(());
    }
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let digits = match bytes.get(i + 1) {
            Some(b'/') => return Err(error(text, span, "found unknown escape character `\\/`")),
            Some(b'u') => 4,
            Some(b'U') => 8,
            _ => 0,
        };
        let code = raw
            .get(i + 2..i + 2 + digits)
            .and_then(|hex| u32::from_str_radix(hex, 16).ok());
        if digits > 0 && code.is_some_and(|c| (0xD800..=0xDFFF).contains(&c)) {
            return Err(error(
                text,
                span,
                "found invalid Unicode character escape code (a surrogate)",
            ));
        }
        i += 2;
    }
    Ok(())
}

/// libyaml has no implicit empty key: `: v` (block or flow) is refused, where YAML 1.2 reads a
/// null key. An explicit empty key (`?` alone, then `: v`) is fine.
///
/// `span` is an empty untagged plain key; `started_here` says whether its map starts at the
/// same place (`- : v`, `? : v`: a map opened by the `:` itself).
pub(super) fn check_empty_key(text: &str, span: &Span, started_here: bool) -> Result<()> {
    let Some(offset) = span.start.byte_offset() else {
        return Ok(());
    };
    if !text.get(offset..).is_some_and(|rest| rest.starts_with(':')) {
        return Ok(());
    }
    if started_here || !after_question_mark(text, offset) {
        return Err(error(
            text,
            span,
            "did not find expected key (an empty key needs `?`)",
        ));
    }
    Ok(())
}

/// Whether the last token before `offset` is a `?` indicator (comments and blank lines skipped).
fn after_question_mark(text: &str, offset: usize) -> bool {
    let mut end = offset;
    loop {
        let before = text.get(..end).unwrap_or_default();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = &before[line_start..];
        // A comment starts with `#` at the line start or after a blank.
        let comment = line
            .char_indices()
            .find(|&(i, c)| c == '#' && (i == 0 || line[..i].ends_with([' ', '\t'])))
            .map_or(line.len(), |(i, _)| i);
        let content = line[..comment].trim_end_matches([' ', '\t', '\r']);
        if let Some(rest) = content.strip_suffix('?') {
            return rest.is_empty() || rest.ends_with([' ', '\t', '{', '[', ',']);
        }
        if !content.is_empty() || line_start == 0 {
            return false;
        }
        end = line_start - 1;
    }
}

/// libyaml skips a tab before a token only where no simple key may start (`scannerc.go:1464`):
/// in block context, a tab at the start of a line or after a `-` or `?` indicator is "found
/// character that cannot start any token" (`a:\tb` is fine, `-\tb` is not). `span` is a node
/// in block context (not an empty scalar, which has no token).
pub(super) fn check_tab_before(text: &str, span: &Span) -> Result<()> {
    let Some(offset) = span.start.byte_offset() else {
        return Ok(());
    };
    let before = text.get(..offset).unwrap_or_default();
    // Only a tab among the blanks right before the node can be refused: without one, the
    // line need not be looked at (this runs for every node of every document).
    let tab_before = before
        .bytes()
        .rev()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .any(|b| b == b'\t');
    if !tab_before {
        return Ok(());
    }
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let content = line.trim_end_matches([' ', '\t']);
    let blanks = &line[content.len()..];
    // The line so far is indentation and indicators (`-`, `?`, or the `:` of an explicit key),
    // each followed by a blank; a document marker (`---`) is not one.
    let content = content.strip_prefix('\u{feff}').unwrap_or(content);
    let mut chars = content.chars().peekable();
    let mut indicators = true;
    while let Some(c) = chars.next() {
        let indicator = matches!(c, '-' | '?' | ':') && chars.peek().is_none_or(|&n| n == ' ');
        if c != ' ' && !indicator {
            indicators = false;
            break;
        }
    }
    if blanks.contains('\t') && indicators {
        let tab = offset - blanks.len() + blanks.find('\t').unwrap_or_default();
        return Err(Error::new(
            ErrorKind::Yaml,
            "found character that cannot start any token (a tab where a key may start)",
            input::location(text, tab),
        ));
    }
    Ok(())
}

fn error(text: &str, span: &Span, message: &str) -> Error {
    Error::new(
        ErrorKind::Yaml,
        message,
        syntax::location(text, &span.start),
    )
}
