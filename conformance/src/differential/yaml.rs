//! A case written as a scenario case (`smd-scenarios/v1`), ready to paste under `cases:`.
//!
//! Strings are written single-quoted when that is plain printable ASCII, else double-quoted
//! with escapes for everything YAML (1.1 as yaml.v2 reads it, or 1.2) might not keep as is:
//! control characters, line and paragraph separators, the BOM, characters outside the BMP.

use serde_json::Value as Json;
use std::fmt::Write;

/// `case` as a YAML list item (`- name: …`), keys in scenario order.
pub fn case_yaml(case: &Json) -> String {
    let mut out = String::new();
    if let Json::Object(m) = case {
        let order = ["name", "kind", "op"];
        let mut keys: Vec<&String> = m.keys().collect();
        keys.sort_by_key(|k| {
            (
                order.iter().position(|o| o == k).unwrap_or(order.len()),
                *k == "note",
            )
        });
        for (i, key) in keys.into_iter().enumerate() {
            out.push_str(if i == 0 { "- " } else { "  " });
            write_entry(key, &m[key], 1, &mut out);
        }
    }
    out
}

fn indent(level: usize) -> String {
    "  ".repeat(level)
}

fn write_entry(key: &str, value: &Json, level: usize, out: &mut String) {
    out.push_str(&scalar_string(key));
    out.push(':');
    write_value(value, level, out);
}

/// Writes a value after `key:` (on the same line when it is a scalar or a flow collection).
fn write_value(value: &Json, level: usize, out: &mut String) {
    match value {
        Json::Object(m) if !m.is_empty() && !is_flat(value) => {
            out.push('\n');
            for (k, v) in m {
                out.push_str(&indent(level + 1));
                write_entry(k, v, level + 1, out);
            }
        }
        Json::Array(items) if !items.is_empty() && !is_flat(value) => {
            out.push('\n');
            for item in items {
                out.push_str(&indent(level + 1));
                out.push_str("- ");
                match item {
                    Json::Object(m) if !is_flat(item) => {
                        for (i, (k, v)) in m.iter().enumerate() {
                            if i > 0 {
                                out.push_str(&indent(level + 2));
                            }
                            write_entry(k, v, level + 2, out);
                        }
                    }
                    _ => {
                        out.push_str(&flow(item));
                        out.push('\n');
                    }
                }
            }
        }
        _ => {
            out.push(' ');
            out.push_str(&flow(value));
            out.push('\n');
        }
    }
}

/// A collection small enough to write in flow style: only scalars, or one-key maps of scalars
/// (structured path elements), at most two levels.
fn is_flat(value: &Json) -> bool {
    fn scalar(v: &Json) -> bool {
        !v.is_array() && !v.is_object()
    }
    match value {
        Json::Array(items) => items.iter().all(|i| scalar(i) || is_small_map(i)),
        Json::Object(_) => is_small_map(value),
        _ => true,
    }
}

fn is_small_map(v: &Json) -> bool {
    match v {
        Json::Object(m) => {
            m.len() == 1
                && m.values()
                    .all(|x| !x.is_array() && (!x.is_object() || is_small_map(x)))
        }
        _ => false,
    }
}

/// A value in flow style.
fn flow(value: &Json) -> String {
    match value {
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => scalar_string(s),
        Json::Array(items) => {
            let parts: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", parts.join(", "))
        }
        Json::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {}", scalar_string(k), flow(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// Words a plain scalar must not be (they would read as something else than a string).
fn plain_ok(s: &str) -> bool {
    const WORDS: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
        "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~",
    ];
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && !s.ends_with(['-', '.'])
        && !WORDS.contains(&s)
}

/// A string scalar: plain for simple words, single-quoted for printable ASCII, else
/// double-quoted with escapes.
pub fn scalar_string(s: &str) -> String {
    if plain_ok(s) {
        return s.to_owned();
    }
    if s.chars().all(|c| (' '..='~').contains(&c)) && !s.starts_with(' ') && !s.ends_with(' ') {
        return format!("'{}'", s.replace('\'', "''"));
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c if needs_escape(c) => {
                let code = u32::from(c);
                let _ = if code > 0xffff {
                    write!(out, "\\U{code:08X}")
                } else {
                    write!(out, "\\u{code:04X}")
                };
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Characters written as escapes: all but printable text of the BMP that every YAML reader
/// keeps as is.
fn needs_escape(c: char) -> bool {
    let code = u32::from(c);
    code < 0xa0
        || (0xd800..=0xdfff).contains(&code)
        || code >= 0xfffe
        || matches!(code, 0x2028 | 0x2029 | 0xfeff)
        || (0xe000..=0xf8ff).contains(&code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_back(yaml: &str) -> Json {
        let text = format!("format: smd-scenarios/v1\ncases:\n{yaml}");
        let v = smd_fieldpath::yaml::from_str(&text).unwrap();
        let j = Json::try_from(&v).unwrap();
        j["cases"][0].clone()
    }

    #[test]
    fn cases_round_trip_through_smds_yaml_reader() {
        let case = json!({
            "name": "diff-1-2",
            "kind": "fieldset",
            "op": "parse",
            "input": "{\"f:a\\\"\\u2028\":{\"k:{\\\"name\\\":\\\"é😀\\\"}\":{}}}\u{1}\u{2028}\u{feff}\t",
            "has": [["f:a", {"index": -3}, {"key": {"json": "{\"a\":1}"}}], []],
            "withPrefix": ["f:yes", "y", "it's"],
            "note": "seed 1, case 2",
        });
        let yaml = case_yaml(&case);
        assert_eq!(read_back(&yaml), case, "{yaml}");
    }

    #[test]
    fn odd_strings_round_trip() {
        for s in [
            "", " a", "a ", "'", "null", "1", "-", "- a", "a: b", "#", "中文", "\u{85}", "\u{e000}",
        ] {
            let case = json!({"name": "x", "kind": "value", "op": "parseJSON", "input": s});
            let yaml = case_yaml(&case);
            assert_eq!(read_back(&yaml), case, "{yaml}");
        }
    }
}
