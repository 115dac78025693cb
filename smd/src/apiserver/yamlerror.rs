//! The YAML reader's errors in the words the API server gives them: go.yaml.in/yaml/v2's
//! (`sigs.k8s.io/yaml` reads apply patches with it), whose texts are libyaml's problems,
//! prefixed with `yaml: line N: ` as yaml.v2's `fail` computes the line: a scanner error's
//! problem line counted from 1, a parser error's counted from 0 (its context's when that is
//! 0), and no line at all when the line is the first.
//!
//! smd's reader (on granit-parser) finds the same malformed texts, in its own words and at
//! its own positions; this maps each of its errors to the problem libyaml reports there. An
//! unclosed flow collection is where the two differ most: libyaml fails at the end of the
//! stream on the token it expected next (a node after `{`, `[`, `,` or `:`; else a `,` or the
//! closing bracket), which this finds from the text.

use smd_value::{Error, Location};

/// Whether libyaml's scanner or its parser reports a problem (yaml.v2 counts their lines
/// differently).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Scanner,
    Parser,
}

/// yaml.v2's error text (`yaml: line 3: did not find expected ',' or '}'`) for smd's
/// reader's error `error` on `body`.
pub(super) fn go_yaml_error(body: &[u8], error: &Error) -> String {
    let text = String::from_utf8_lossy(body);
    let message = error.message();
    // The 0-based line smd's reader names.
    let line0 = match error.location() {
        Location::Text { line, .. } => line.saturating_sub(1),
        _ => 0,
    };
    let offset = match error.location() {
        Location::Text { offset, .. } | Location::Byte(offset) => offset,
        _ => 0,
    };
    if let Some(rest) = message.strip_prefix("found an alias to an unknown anchor") {
        // yaml.v2 resolves aliases itself, and names the anchor without a line.
        let name = rest.trim().trim_matches('`');
        return format!("yaml: unknown anchor '{name}' referenced");
    }
    if message.starts_with("found a tab character") {
        // libyaml fails at the tab itself, as indentation.
        let tab = text
            .get(offset..)
            .and_then(|t| t.find('\t'))
            .map_or(offset, |i| offset + i);
        return with_line(
            Stage::Scanner,
            line_of(&text, tab),
            "found a tab character that violates indentation",
        );
    }
    if message.starts_with("found ':' where it is not allowed") {
        // In a flow collection: libyaml reads the `:` as a value its entry cannot have.
        let head = text.get(..offset).unwrap_or(&text);
        let problem = expected_next(Some('x'), innermost_open(head).unwrap_or('{'));
        return with_line(Stage::Parser, line0, &problem);
    }
    if let Some(open) = unclosed_opening(message) {
        let before = last_significant(&text, text.len());
        let problem = expected_next(before, innermost_open(&text).unwrap_or(open));
        return with_line(Stage::Parser, end_line(&text), &problem);
    }
    if let Some(open) = mismatched_opening(message) {
        // libyaml fails on the closing bracket, on what the collection expected there.
        let close = closing_of(&text, offset).unwrap_or(offset);
        let before = last_significant(&text, close);
        let problem = expected_next(before, open);
        return with_line(Stage::Parser, line_of(&text, close), &problem);
    }
    let (stage, problem) = problem_of(message);
    // An unclosed quoted scalar fails at the end of the stream, whose line the scanner
    // counts by the line breaks read.
    let line = if problem == "found unexpected end of stream" {
        text.matches('\n').count()
    } else {
        line0
    };
    with_line(stage, line, &problem)
}

/// `yaml: line N: problem`, the line as yaml.v2 prints it from the 0-based `line0`.
fn with_line(stage: Stage, line0: usize, problem: &str) -> String {
    let shown = match stage {
        Stage::Scanner if line0 != 0 => line0 + 1,
        _ => line0,
    };
    if shown == 0 {
        format!("yaml: {problem}")
    } else {
        format!("yaml: line {shown}: {problem}")
    }
}

/// libyaml's problem (and its stage) for smd's reader's message.
fn problem_of(message: &str) -> (Stage, String) {
    const TABLE: &[(&str, Stage, &str)] = &[
        (
            "mapping values are not allowed in this context",
            Stage::Scanner,
            "mapping values are not allowed in this context",
        ),
        (
            "found character that cannot start any token",
            Stage::Scanner,
            "found character that cannot start any token",
        ),
        (
            "found unknown escape character",
            Stage::Scanner,
            "found unknown escape character",
        ),
        (
            "found unexpected end of input in a quoted scalar",
            Stage::Scanner,
            "found unexpected end of stream",
        ),
        (
            "found a tab character that violates indentation",
            Stage::Scanner,
            "found a tab character that violates indentation",
        ),
        (
            "block sequence entries are not allowed in this context",
            Stage::Scanner,
            "block sequence entries are not allowed in this context",
        ),
        (
            "could not find expected ':'",
            Stage::Scanner,
            "could not find expected ':'",
        ),
        (
            "found unexpected document indicator",
            Stage::Scanner,
            "found unexpected document indicator",
        ),
        (
            "did not find expected hexadecimal number",
            Stage::Scanner,
            "did not find expected hexdecimal number",
        ),
        (
            "did not find expected '-' indicator",
            Stage::Parser,
            "did not find expected '-' indicator",
        ),
        (
            "did not find expected key",
            Stage::Parser,
            "did not find expected key",
        ),
        (
            "did not find expected node content",
            Stage::Parser,
            "did not find expected node content",
        ),
        (
            "did not find expected ',' or '}'",
            Stage::Parser,
            "did not find expected ',' or '}'",
        ),
        (
            "did not find expected ',' or ']'",
            Stage::Parser,
            "did not find expected ',' or ']'",
        ),
        (
            "did not find expected <document start>",
            Stage::Parser,
            "did not find expected <document start>",
        ),
        (
            "found undefined tag handle",
            Stage::Parser,
            "found undefined tag handle",
        ),
    ];
    TABLE
        .iter()
        .find(|(ours, _, _)| message.starts_with(ours))
        .map_or_else(
            || (Stage::Scanner, message.to_owned()),
            |(_, stage, theirs)| (*stage, (*theirs).to_owned()),
        )
}

/// The opening bracket of smd's "never closed" error.
fn unclosed_opening(message: &str) -> Option<char> {
    let rest = message.strip_prefix("found a flow collection opened by `")?;
    rest.strip_suffix("` that is never closed")?.chars().next()
}

/// The opening bracket of smd's "closing a flow collection opened by" error.
fn mismatched_opening(message: &str) -> Option<char> {
    let (_, rest) = message.split_once("closing a flow collection opened by `")?;
    rest.chars().next()
}

/// What libyaml expected where the flow collection `open` went on after `before` (the last
/// character that is not blank or comment): a node after an opening bracket, a `,` or a
/// `:`; else a `,` or the closing bracket.
fn expected_next(before: Option<char>, open: char) -> String {
    match before {
        Some('{' | '[' | ',' | ':') | None => "did not find expected node content".to_owned(),
        _ if open == '[' => "did not find expected ',' or ']'".to_owned(),
        _ => "did not find expected ',' or '}'".to_owned(),
    }
}

/// The last character of `text[..end]` that is neither blank nor in a comment.
fn last_significant(text: &str, end: usize) -> Option<char> {
    let head = text.get(..end).unwrap_or(text);
    head.lines()
        .rev()
        .map(strip_comment)
        .find_map(|line| line.trim_end().chars().last())
}

/// A line without its comment (a `#` at its start or after a blank, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut previous_blank = true;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && previous_blank => return line.get(..i).unwrap_or(line),
            None => {}
        }
        previous_blank = c == ' ' || c == '\t';
    }
    line
}

/// The innermost flow bracket still open at the end of `text` (quotes and comments skipped).
fn innermost_open(text: &str) -> Option<char> {
    let mut stack = Vec::new();
    for line in text.lines() {
        let mut quote: Option<char> = None;
        for c in strip_comment(line).chars() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '"' | '\'' => quote = Some(c),
                    '{' | '[' => stack.push(c),
                    '}' | ']' => {
                        stack.pop();
                    }
                    _ => {}
                },
            }
        }
    }
    stack.pop()
}

/// The 0-based line of the byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).unwrap_or(text).matches('\n').count()
}

/// The byte offset of the bracket that closes the one opened at `open` (quotes skipped).
fn closing_of(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, c) in text.get(open..)?.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' => quote = Some(c),
                '{' | '[' => depth += 1,
                '}' | ']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(open + i);
                    }
                }
                _ => {}
            },
        }
    }
    None
}

/// The 0-based line of the end of the stream, where libyaml's scanner puts it: a last line
/// without a line break ends on the next.
fn end_line(text: &str) -> usize {
    let breaks = text.matches('\n').count();
    if text.is_empty() || text.ends_with('\n') {
        breaks
    } else {
        breaks + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bodies sent to a kube-apiserver v1.37.2 as apply patches, and yaml.v2's words it
    /// answered with.
    #[test]
    fn matches_the_real_servers_words() {
        let cases: &[(&str, &str)] = &[
            (
                "{\"metadata\": ",
                "yaml: line 1: did not find expected node content",
            ),
            ("{", "yaml: line 1: did not find expected node content"),
            ("{a", "yaml: line 1: did not find expected ',' or '}'"),
            ("{a: 1", "yaml: line 1: did not find expected ',' or '}'"),
            ("{a: 1,", "yaml: line 1: did not find expected node content"),
            ("[1, 2", "yaml: line 1: did not find expected ',' or ']'"),
            (
                "{a: [1, 2",
                "yaml: line 1: did not find expected ',' or ']'",
            ),
            ("{a: 1]", "yaml: did not find expected ',' or '}'"),
            ("{a: 1,]", "yaml: did not find expected node content"),
            (
                "apiVersion: v1\nkind: ConfigMap\ndata: {a: 1\n",
                "yaml: line 3: did not find expected ',' or '}'",
            ),
            (
                "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: \"x",
                "yaml: line 4: found unexpected end of stream",
            ),
            (
                "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: \"x\n",
                "yaml: line 5: found unexpected end of stream",
            ),
            (
                "apiVersion: v1\n kind: ConfigMap\n",
                "yaml: line 2: mapping values are not allowed in this context",
            ),
            (
                "apiVersion: v1\nkind: ConfigMap\n  data: x\n",
                "yaml: line 3: mapping values are not allowed in this context",
            ),
            (
                "a: b: c\n",
                "yaml: mapping values are not allowed in this context",
            ),
            (
                "a: @x\n",
                "yaml: found character that cannot start any token",
            ),
            ("a: *unknown\n", "yaml: unknown anchor 'unknown' referenced"),
            ("a: \"\\q\"\n", "yaml: found unknown escape character"),
            (
                "- a\nb: c\n",
                "yaml: line 1: did not find expected '-' indicator",
            ),
            (
                "a:\n  - x\n  y: z\n",
                "yaml: line 2: did not find expected '-' indicator",
            ),
            (
                "a: 1\n\tb: 2\n",
                "yaml: line 2: found a tab character that violates indentation",
            ),
            (
                "a: [1, 2\nb: 3\n",
                "yaml: line 1: did not find expected ',' or ']'",
            ),
            (
                "key: value\n- item\n",
                "yaml: line 1: did not find expected key",
            ),
            ("a: 'x", "yaml: found unexpected end of stream"),
            ("a: !foo!bar x\n", "yaml: found undefined tag handle"),
        ];
        let mut wrong = Vec::new();
        for (body, want) in cases {
            let got = match smd_fieldpath::yaml::documents_from_slice(body.as_bytes()) {
                Ok(_) => "no error".to_owned(),
                Err(e) => go_yaml_error(body.as_bytes(), &e),
            };
            if got != *want {
                wrong.push(format!("{body:?}: got {got:?}, want {want:?}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
