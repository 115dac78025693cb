//! Writing values as YAML byte for byte as `kubectl get -o yaml` prints them (sigs.k8s.io/yaml,
//! that is yaml.v2: two-space indents, list items at their key's indentation, its quoting and
//! folding of strings in `scalar.rs`), such that [`from_str`](super::from_str) reads back the
//! value written: strings that would read as something else are quoted; a float reads back as
//! the same number, an integral one as an integer (kubectl's objects went through JSON).

use std::fmt::Write as _;

use super::scalar::{is_simple_key, write_explicit_key, write_float, write_string};
use crate::Value;
#[cfg(test)]
use crate::is_terminal_control;

/// The YAML text of `value`: one document, ending with a line break.
///
/// Map keys are written in the map's order; a caller wanting kubectl's sorted keys sorts them
/// first. Nesting is written recursively: values deeper than the readers' limits are not
/// expected here (every reader of this crate refuses them).
///
/// ```
/// use smd_value::yaml;
/// let value = yaml::from_str("{b: 'yes', a: [1, 2.5, {c: null}], d: \"two\\nlines\\n\"}")?;
/// let text = yaml::to_string(&value);
/// assert_eq!(text, "b: \"yes\"\na:\n- 1\n- 2.5\n- c: null\nd: |\n  two\n  lines\n");
/// assert_eq!(yaml::from_str(&text)?, value);
/// # Ok::<(), smd_value::Error>(())
/// ```
pub fn to_string(value: &Value) -> String {
    write_document(value, false)
}

/// The YAML text of `value` with the keys of every map in the order `kubectl get -o yaml`
/// writes them: what [`to_string`] writes of [`sorted`](super::sorted)`(value)`, without
/// making that sorted copy.
///
/// ```
/// use smd_value::yaml;
/// let value = yaml::from_str("{b: {d: 1, c: 2}, a10: 3, a9: 4}")?;
/// assert_eq!(yaml::to_string_sorted(&value), yaml::to_string(&yaml::sorted(&value)));
/// assert_eq!(yaml::to_string_sorted(&value), "a9: 4\na10: 3\nb:\n  c: 2\n  d: 1\n");
/// # Ok::<(), smd_value::Error>(())
/// ```
pub fn to_string_sorted(value: &Value) -> String {
    write_document(value, true)
}

fn write_document(value: &Value, sort: bool) -> String {
    let mut out = String::new();
    match value {
        Value::Map(m) if !m.is_empty() => write_map(&mut out, value, 0, sort),
        Value::List(l) if !l.is_empty() => write_list(&mut out, value, 0, sort),
        scalar => {
            // yaml.v2 indents a root scalar's continuation lines by two.
            write_inline(&mut out, scalar, 2);
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
fn write_map(out: &mut String, value: &Value, at: usize, sort: bool) {
    let Value::Map(map) = value else { return };
    if sort {
        write_entries(out, super::order::sorted_entries(map), at, sort);
    } else {
        write_entries(out, map.iter(), at, sort);
    }
}

fn write_entries<'a>(
    out: &mut String,
    entries: impl IntoIterator<Item = (&'a str, &'a Value)>,
    at: usize,
    sort: bool,
) {
    for (i, (key, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            indent(out, at);
        }
        if is_simple_key(key) {
            write_string(out, key, at + 2, true);
            out.push(':');
        } else {
            // yaml.v2 writes a key of several lines, or longer than 128 bytes, explicitly.
            out.push_str("? ");
            write_explicit_key(out, key, at + 2);
            out.push('\n');
            indent(out, at);
            out.push(':');
            if matches!(v, Value::List(l) if !l.is_empty()) {
                out.push('\n');
                indent(out, at + 2);
                write_list(out, v, at + 2, sort);
                continue;
            }
        }
        write_after_key(out, v, at, sort);
    }
}

/// The value of a map entry whose key is written at column `at`.
fn write_after_key(out: &mut String, v: &Value, at: usize, sort: bool) {
    match v {
        Value::Map(m) if !m.is_empty() => {
            out.push('\n');
            indent(out, at + 2);
            write_map(out, v, at + 2, sort);
        }
        Value::List(l) if !l.is_empty() => {
            out.push('\n');
            indent(out, at);
            write_list(out, v, at, sort);
        }
        scalar => {
            out.push(' ');
            write_inline(out, scalar, at + 2);
            out.push('\n');
        }
    }
}

/// A list's items, each `- ` at column `at`.
fn write_list(out: &mut String, value: &Value, at: usize, sort: bool) {
    let Value::List(items) = value else { return };
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            indent(out, at);
        }
        out.push_str("- ");
        match item {
            Value::Map(m) if !m.is_empty() => write_map(out, item, at + 2, sort),
            Value::List(l) if !l.is_empty() => write_list(out, item, at + 2, sort),
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
                from_str(&written).unwrap_or_else(|e| panic!("{s:?} written as {written:?}: {e}")),
                value,
                "{s:?} written as {written:?}"
            );
            let mut map = crate::Map::new();
            map.insert(s, Value::from("v"));
            map.insert("k", Value::String(s.to_owned()));
            let value = Value::Map(map);
            let written = to_string(&value);
            assert_eq!(
                from_str(&written).unwrap_or_else(|e| panic!("{s:?} written as {written:?}: {e}")),
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
