//! Writing values as YAML in the block style `kubectl get -o yaml` prints (two-space indents,
//! list items at their key's indentation), such that [`from_str`](super::from_str) reads back
//! exactly the value written: strings that would read as something else are quoted, floats
//! keep a fraction or an exponent.

use std::fmt::Write as _;

use super::resolve::{TagKind, resolves_to_str};
use crate::{Value, is_terminal_control};

/// The YAML text of `value`: one document, ending with a line break.
///
/// Map keys are written in the map's order; a caller wanting kubectl's sorted keys sorts them
/// first. Nesting is written recursively: values deeper than the readers' limits are not
/// expected here (every reader of this crate refuses them).
///
/// ```
/// use smd_fieldpath::yaml;
/// let value = yaml::from_str("{b: 'yes', a: [1, 2.0, {c: null}], d: \"two\\nlines\\n\"}")?;
/// let text = yaml::to_string(&value);
/// assert_eq!(text, "b: \"yes\"\na:\n- 1\n- 2.0\n- c: null\nd: |\n  two\n  lines\n");
/// assert_eq!(yaml::from_str(&text)?, value);
/// # Ok::<(), smd_fieldpath::Error>(())
/// ```
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Map(m) if !m.is_empty() => write_map(&mut out, value, 0),
        Value::List(l) if !l.is_empty() => write_list(&mut out, value, 0),
        scalar => {
            write_inline(&mut out, scalar, 0);
            out.push('\n');
        }
    }
    out
}

fn indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// A map's entries, each starting at column `at` (the first on the current line when the caller
/// has already indented it).
fn write_map(out: &mut String, value: &Value, at: usize) {
    let Value::Map(map) = value else { return };
    for (i, (key, v)) in map.iter().enumerate() {
        if i > 0 {
            indent(out, at);
        }
        let start = out.len();
        write_string(out, key, at, true);
        if out.len() - start > MAX_IMPLICIT_KEY {
            // An implicit key may not be longer than 1024 characters: write it explicitly.
            let key_text = out.split_off(start);
            out.push_str("? ");
            out.push_str(&key_text);
            out.push('\n');
            indent(out, at);
            out.push(':');
            if matches!(v, Value::List(l) if !l.is_empty()) {
                out.push('\n');
                indent(out, at + 2);
                write_list(out, v, at + 2);
                continue;
            }
        } else {
            out.push(':');
        }
        write_after_key(out, v, at);
    }
}

/// The longest key written as an implicit key (YAML allows 1024 characters).
const MAX_IMPLICIT_KEY: usize = 1000;

/// The value of a map entry whose key is written at column `at`.
fn write_after_key(out: &mut String, v: &Value, at: usize) {
    match v {
        Value::Map(m) if !m.is_empty() => {
            out.push('\n');
            indent(out, at + 2);
            write_map(out, v, at + 2);
        }
        Value::List(l) if !l.is_empty() => {
            out.push('\n');
            indent(out, at);
            write_list(out, v, at);
        }
        scalar => {
            out.push(' ');
            write_inline(out, scalar, at + 2);
            out.push('\n');
        }
    }
}

/// A list's items, each `- ` at column `at`.
fn write_list(out: &mut String, value: &Value, at: usize) {
    let Value::List(items) = value else { return };
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            indent(out, at);
        }
        out.push_str("- ");
        match item {
            Value::Map(m) if !m.is_empty() => write_map(out, item, at + 2),
            Value::List(l) if !l.is_empty() => write_list(out, item, at + 2),
            scalar => {
                write_inline(out, scalar, at + 2);
                out.push('\n');
            }
        }
    }
}

/// A scalar, or an empty map or list, on the current line; a block scalar's lines are indented
/// to `block_indent`.
fn write_inline(out: &mut String, value: &Value, block_indent: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => write_float(out, *f),
        Value::String(s) => write_string(out, s, block_indent, false),
        Value::List(_) => out.push_str("[]"),
        Value::Map(_) => out.push_str("{}"),
    }
}

fn write_float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str(".nan");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { ".inf" } else { "-.inf" });
    } else {
        // Rust's shortest round-trip digits; `2.0` and `1e300` keep a mark of a float.
        let text = format!("{f:?}");
        out.push_str(&text);
    }
}

/// A string as a plain scalar when it reads back as the same string, else a literal block
/// (several lines, values only), single quotes, or double quotes with escapes.
fn write_string(out: &mut String, s: &str, block_indent: usize, is_key: bool) {
    let printable_line = s.chars().all(|c| is_printable(c) && c != '\n' && c != '\t');
    if !s.is_empty() && !resolves_to_str(s, TagKind::None) && printable_line {
        // What would read as another value is double-quoted, as yaml.v2 (and kubectl) write
        // `"2026-01-01T00:00:00Z"` and `"yes"`.
        write_double_quoted(out, s);
    } else if is_plain_safe(s) {
        out.push_str(s);
    } else if !is_key && is_block_safe(s) {
        write_block(out, s, block_indent);
    } else if s.chars().all(|c| is_printable(c) && c != '\n') {
        out.push('\'');
        out.push_str(&s.replace('\'', "''"));
        out.push('\'');
    } else {
        write_double_quoted(out, s);
    }
}

/// YAML's printable characters, less those a terminal would act on ([`is_terminal_control`]):
/// a string holding one is double-quoted with the character escaped, so that printing an object
/// cannot move the cursor or reorder text, and reading it back gives the same string.
fn is_printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
        && c != '\u{feff}'
        && (matches!(c, '\t' | '\n') || !is_terminal_control(c))
}

/// Whether `s` may be written unquoted: the reader's resolution gives a string, and nothing in
/// it is YAML syntax.
fn is_plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if s.starts_with(' ') || s.ends_with(' ') || !resolves_to_str(s, TagKind::None) {
        return false;
    }
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        // `-x` and `:x` are plain in YAML, but only a handful of readers agree; quote them.
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.ends_with(':') {
        return false;
    }
    // `{`, `[` and `,` after the first character are plain in block context (kubectl writes
    // `k:{"name":"nginx"}:` unquoted); this writer never writes flow collections.
    if s == "<<" || s.starts_with("---") || s.starts_with("...") {
        return false;
    }
    s.chars().all(|c| {
        is_printable(c) && !matches!(c, '\t' | '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
    })
}

/// Whether `s` can be a literal block: several lines of printable text, the first not starting
/// with a space (which would need an indentation indicator), no line of only spaces.
fn is_block_safe(s: &str) -> bool {
    s.contains('\n')
        && !s.starts_with([' ', '\n'])
        && s.chars().all(|c| {
            is_printable(c) && !matches!(c, '\t' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
        })
        && s.split('\n')
            .all(|line| line.is_empty() || !line.trim().is_empty())
        && !s.split('\n').any(|l| l.ends_with(' '))
}

fn write_block(out: &mut String, s: &str, at: usize) {
    let body = s.trim_end_matches('\n');
    let trailing = s.len() - body.len();
    out.push_str(match trailing {
        0 => "|-",
        1 => "|",
        _ => "|+",
    });
    for line in s
        .split('\n')
        .take(body.split('\n').count() + trailing.saturating_sub(1))
    {
        out.push('\n');
        if !line.is_empty() {
            indent(out, at.max(2));
            out.push_str(line);
        }
    }
}

fn write_double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_printable(c) && c != '\u{85}' && c != '\u{2028}' && c != '\u{2029}' => {
                out.push(c)
            }
            c if (c as u32) <= 0xff => {
                let _ = write!(out, "\\x{:02X}", c as u32);
            }
            c if (c as u32) <= 0xffff => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08X}", c as u32);
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::from_str;
    use super::*;

    fn round_trip(text: &str) {
        let value = from_str(text).unwrap();
        let written = to_string(&value);
        let back = from_str(&written).unwrap_or_else(|e| panic!("{written}\n{e}"));
        assert_eq!(back, value, "{written}");
    }

    #[test]
    fn terminal_controls_are_escaped_in_keys_and_values() {
        // A right-to-left override would make `evil.exe` show as `exe.live`; an escape
        // sequence could clear the screen. Neither may reach the text raw, and both read back.
        for s in [
            "live\u{202e}exe.",
            "a\u{1b}[2Jb",
            "\u{2066}x\u{2069}",
            "line\u{2028}break",
            "del\u{7f}",
            "c1\u{9b}31m",
            "multi\nline\u{200f}\n",
        ] {
            let mut map = crate::value::Map::new();
            map.insert(s, Value::from(s));
            let value = Value::Map(map);
            let text = to_string(&value);
            assert!(
                !text.chars().any(|c| c != '\n' && is_terminal_control(c)),
                "{text:?}"
            );
            assert_eq!(from_str(&text).unwrap(), value, "{text}");
        }
    }

    #[test]
    fn strings_that_would_read_as_other_values_are_quoted() {
        for s in [
            "yes",
            "No",
            "on",
            "~",
            "null",
            "",
            "1",
            "0x1F",
            "1e3",
            ".5",
            "2024-01-01",
            "-",
            "- a",
            "a: b",
            "a #b",
            "#c",
            "*x",
            "&y",
            "!z",
            "|",
            ">",
            "'",
            "\"",
            "%",
            "@",
            "`",
            " a",
            "a ",
            "a\tb",
            "a\nb",
            "a\n",
            "a\n\n",
            "\n",
            " x\ny",
            "a:",
            "<<",
            "---",
            "...",
            "{x}",
            "[1]",
            "a,b",
            "tab\there",
            "\u{1}",
            "\u{feff}",
            "é",
            "日本",
            "x\r\ny",
            "line \nend",
        ] {
            let value = Value::String(s.to_owned());
            let written = to_string(&value);
            assert_eq!(
                from_str(&written).unwrap(),
                value,
                "{s:?} written as {written:?}"
            );
            let mut map = crate::Map::new();
            map.insert(s, Value::String(s.to_owned()));
            let value = Value::Map(map);
            let written = to_string(&value);
            assert_eq!(
                from_str(&written).unwrap(),
                value,
                "{s:?} written as {written:?}"
            );
        }
    }

    #[test]
    fn numbers_keep_their_kind() {
        round_trip("[1, -2, 2.0, 1.5e300, -0.0, .inf, -.inf, 9223372036854775807, 1e-7]");
        let nan = to_string(&Value::Float(f64::NAN));
        assert!(from_str(&nan).unwrap().as_f64().unwrap().is_nan());
    }

    #[test]
    fn long_keys_are_explicit() {
        let long = "k".repeat(1500);
        let mut inner = crate::Map::new();
        inner.insert(long.as_str(), from_str("[1, [2]]").unwrap());
        let mut map = crate::Map::new();
        map.insert(long.as_str(), Value::Int(1));
        map.insert("b", Value::Map(inner.clone()));
        map.insert("c", from_str("{x: y}").unwrap());
        inner.insert(long.as_str(), from_str("{x: y}").unwrap());
        map.insert("d", Value::Map(inner));
        let value = Value::Map(map);
        let written = to_string(&value);
        assert_eq!(from_str(&written).unwrap(), value, "{written}");
    }

    #[test]
    fn nesting() {
        round_trip("a: {b: [{c: 1, d: [x, [y, z], {}]}, [], {}]}\ne: [[1, 2], [3]]\n");
        round_trip("- - a\n  - b\n- c: d\n  e:\n  - f\n");
        assert_eq!(
            to_string(&from_str("a: {b: [{c: 1, d: 2}]}").unwrap()),
            "a:\n  b:\n  - c: 1\n    d: 2\n"
        );
    }

    #[test]
    fn block_scalars_in_lists_and_maps() {
        round_trip("a:\n- |\n  one\n  two\n- k: |-\n    x\n    y\n");
        round_trip("{a: \"x\\n\\ny\\n\\n\\n\"}");
    }
}
