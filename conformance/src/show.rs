//! A case and the answers to it as a person reads them (the `case` command): goldens and smd's
//! results as indented text, field sets as paths per manager instead of `fieldsV1` strings,
//! and nothing from the data that a terminal would act on.

use serde_json::Value as Json;
use smd_fieldpath::{Set, is_terminal_control};
use std::borrow::Cow;
use std::fmt::Write as _;

use crate::cases::{Checked, Found, ServerFound, StepVerdict, Verdict, case_name};

/// `text` with every terminal control, line breaks and tabs included, written as `\u001b`: a
/// name or value from a case stays on its line and cannot act on the terminal.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_but(text, false)
}

/// `text` as [`escape`] writes it, but with its line breaks kept: for text of several lines.
pub fn clean(text: &str) -> Cow<'_, str> {
    escape_but(text, true)
}

fn escape_but(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let escaped = |c: char| is_terminal_control(c) && !(keep_lines && c == '\n');
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if escaped(c) {
            // `\u` and four digits read the same in a message, a JSON string and a YAML
            // double-quoted string.
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Keys whose string is a field set in `fieldsV1` form in the goldens (a set description's
/// `fieldsV1` and `leaves`, the algebra's results, a filter's `result`, a typed value's `set`,
/// a comparison's `added`/`modified`/`removed`, a manager's `fieldsV1`).
const SET_KEYS: [&str; 14] = [
    "fieldsV1",
    "leaves",
    "partial",
    "union",
    "intersection",
    "difference",
    "recursiveDifference",
    "reverseDifference",
    "reverseRecursiveDifference",
    "result",
    "set",
    "added",
    "modified",
    "removed",
];

/// The set a `fieldsV1` text or object stands for, when it reads as one.
fn as_set(value: &Json) -> Option<Set> {
    let bytes = match value {
        Json::String(text) => text.as_bytes().to_vec(),
        Json::Object(_) => serde_json::to_vec(value).ok()?,
        _ => return None,
    };
    Set::from_fields_v1(&bytes).ok()
}

/// A set's paths, one a line, sorted (a path before the paths under it) so that what a
/// manager owns in one part of an object reads together.
fn path_lines(set: &Set) -> Vec<String> {
    if set.is_empty() {
        return vec!["(no paths)".to_owned()];
    }
    let mut paths: Vec<_> = set.iter().collect();
    paths.sort_by(|a, b| a.compare(b));
    paths
        .iter()
        .map(|p| escape(&p.to_string()).into_owned())
        .collect()
}

/// A string as a person reads it: plain when it cannot be taken for anything else, else as a
/// JSON string.
fn string_text(s: &str) -> String {
    let plain = !s.is_empty()
        && s.trim() == s
        && !s.chars().any(is_terminal_control)
        && !matches!(s, "true" | "false" | "null" | "~")
        && s.parse::<f64>().is_err()
        && !s.starts_with([
            '"', '\'', '{', '[', '-', '&', '*', '!', '|', '>', '%', '@', '`', '#',
        ])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':');
    if plain {
        s.to_owned()
    } else {
        // serde_json escapes the C0 controls; the rest a terminal acts on is escaped after.
        escape(&Json::String(s.to_owned()).to_string()).into_owned()
    }
}

/// A scalar or an empty container on one line.
fn inline(value: &Json) -> Option<String> {
    match value {
        Json::Null => Some("null".to_owned()),
        Json::Bool(b) => Some(b.to_string()),
        Json::Number(n) => Some(n.to_string()),
        Json::String(s) => Some(string_text(s)),
        Json::Array(items) if items.is_empty() => Some("[]".to_owned()),
        Json::Object(map) if map.is_empty() => Some("{}".to_owned()),
        // A short list of scalars (a comparison matrix's row) on one line.
        Json::Array(items) => {
            let parts: Option<Vec<String>> = items
                .iter()
                .map(|i| match i {
                    Json::Array(_) | Json::Object(_) => None,
                    scalar => inline(scalar),
                })
                .collect();
            let text = format!("[{}]", parts?.join(", "));
            (text.len() <= 80).then_some(text)
        }
        Json::Object(_) => None,
    }
}

fn indented(lines: Vec<String>, by: &str) -> impl Iterator<Item = String> + '_ {
    lines.into_iter().map(move |l| format!("{by}{l}"))
}

/// A managedFields list: one heading per entry (the manager, operation, API version,
/// subresource, time) and the paths it owns under it; `None` when it is not such a list.
fn managed_fields(value: &Json) -> Option<Vec<String>> {
    let entries = value.as_array()?;
    if entries.is_empty() || !entries.iter().all(|e| e.get("manager").is_some()) {
        return None;
    }
    let mut lines = Vec::new();
    for entry in entries {
        let map = entry.as_object()?;
        let text = |key: &str| map.get(key).and_then(inline);
        let mut heading = text("manager").unwrap_or_default();
        let mut parts = Vec::new();
        let op_version = [text("operation"), text("apiVersion")]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        if !op_version.is_empty() {
            parts.push(op_version);
        }
        if let Some(sub) = text("subresource") {
            parts.push(format!("subresource {sub}"));
        }
        if let Some(time) = text("time") {
            parts.push(time);
        }
        if !parts.is_empty() {
            let _ = write!(heading, " ({})", parts.join(", "));
        }
        lines.push(heading);
        // What the heading does not say: a fieldsType other than FieldsV1, keys Go would not
        // write.
        for (key, v) in map {
            let shown = matches!(
                key.as_str(),
                "manager" | "operation" | "apiVersion" | "subresource" | "time" | "fieldsV1"
            ) || (key == "fieldsType" && v == "FieldsV1");
            if !shown {
                lines.extend(indented(entry_line(key, v), "  "));
            }
        }
        match map.get("fieldsV1") {
            None => lines.push("  (no fieldsV1)".to_owned()),
            Some(fields) => match as_set(fields) {
                Some(set) => lines.extend(indented(path_lines(&set), "  ")),
                None => lines.extend(indented(entry_line("fieldsV1", fields), "  ")),
            },
        }
    }
    Some(lines)
}

/// `key: value` of a map, the value on the same line when it fits there.
fn entry_line(key: &str, value: &Json) -> Vec<String> {
    let key_text = string_text(key);
    if key == "managedFields" {
        if let Some(lines) = managed_fields(value) {
            let mut out = vec![format!("{key_text}: (paths per manager)")];
            out.extend(indented(lines, "  "));
            return out;
        }
    }
    if SET_KEYS.contains(&key) && value.is_string() {
        if let Some(set) = as_set(value) {
            let mut out = vec![format!("{key_text}: (as paths)")];
            out.extend(indented(path_lines(&set), "  "));
            return out;
        }
    }
    match inline(value) {
        Some(text) => vec![format!("{key_text}: {text}")],
        None => {
            let mut out = vec![format!("{key_text}:")];
            out.extend(indented(lines(value), "  "));
            out
        }
    }
}

/// `value` as indented lines, YAML-like.
fn lines(value: &Json) -> Vec<String> {
    if let Some(text) = inline(value) {
        return vec![text];
    }
    match value {
        // Keys sorted, as the goldens are written: Go's answer and smd's read alike.
        Json::Object(map) => {
            let mut entries: Vec<(&String, &Json)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            entries
                .into_iter()
                .flat_map(|(k, v)| entry_line(k, v))
                .collect()
        }
        Json::Array(items) => items
            .iter()
            .flat_map(|item| {
                lines(item).into_iter().enumerate().map(|(i, l)| {
                    if i == 0 {
                        format!("- {l}")
                    } else {
                        format!("  {l}")
                    }
                })
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A golden or a result as indented text, field sets as paths.
pub fn render(value: &Json) -> String {
    let mut out = String::new();
    for line in lines(value) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The lines of the `index`th case of a scenario file, as written there (its comments and
/// layout kept): from its `- name:` line to the next case, without the comment lines that
/// introduce the next one. `None` when the file is not laid out one case per `- ` line.
pub fn case_text(file_text: &str, index: usize, name: &str) -> Option<String> {
    let lines: Vec<&str> = file_text.lines().collect();
    let cases_at = lines.iter().position(|l| l.trim_end() == "cases:")?;
    let starts: Vec<usize> = (cases_at + 1..lines.len())
        .filter(|&i| lines[i].starts_with("- "))
        .collect();
    let start = *starts.get(index)?;
    if !lines[start].contains(name) {
        return None;
    }
    let mut end = starts.get(index + 1).copied().unwrap_or(lines.len());
    while end > start + 1 && {
        let l = lines[end - 1].trim_start();
        l.is_empty() || l.starts_with('#')
    } {
        end -= 1;
    }
    let mut text = lines[start..end].join("\n");
    text.push('\n');
    Some(clean(&text).into_owned())
}

/// The whole printout of one case: the case as its file has it, Go's answer, smd's answer, and
/// the verdict (where they differ, or why the case did not run).
pub fn report(found: &Found, checked: &Checked, file_text: Option<&str>) -> String {
    let mut out = String::new();
    let name = case_name(&found.case);
    let file = escape(&found.file);
    let _ = writeln!(out, "{file}{}{}", crate::cases::SEPARATOR, escape(name));
    let _ = writeln!(out, "\n== the case (conformance/scenarios/{file})");
    match file_text.and_then(|t| case_text(t, found.index, name)) {
        Some(text) => out.push_str(&text),
        None => out.push_str(&render(&found.case)),
    }
    let golden = std::path::Path::new(&found.file).with_extension("json");
    let _ = writeln!(
        out,
        "\n== Go's answer (conformance/goldens/{})",
        escape(&golden.to_string_lossy())
    );
    out.push_str(&render(&found.expected));
    out.push_str("\n== smd's answer\n");
    match &checked.actual {
        Some(actual) => out.push_str(&render(actual)),
        None => out.push_str("(none: the case did not run)\n"),
    }
    out.push('\n');
    let listed = |out: &mut String, lines: &[String]| {
        for line in lines {
            let _ = writeln!(out, "  {}", escape(line));
        }
    };
    match &checked.verdict {
        Verdict::Agree => out.push_str("== verdict: smd agrees with Go\n"),
        Verdict::Differs(differences) => {
            let _ = writeln!(
                out,
                "== verdict: smd differs from Go ({} difference{}):",
                differences.len(),
                if differences.len() == 1 { "" } else { "s" }
            );
            listed(&mut out, differences);
        }
        Verdict::KnownDeviation {
            reason,
            differences,
        } => {
            let _ = writeln!(
                out,
                "== verdict: smd differs from Go, a known deviation (KNOWN_DEVIATIONS): {reason}"
            );
            listed(&mut out, differences);
        }
        Verdict::ListedButAgrees => out.push_str(
            "== verdict: smd agrees with Go, but the case is listed in KNOWN_DEVIATIONS: remove it there\n",
        ),
        Verdict::Skipped(reason) => {
            let _ = writeln!(out, "== verdict: not run on this machine: {}", escape(reason));
        }
    }
    out
}

/// The printout of one real-server case: the case as its file has it, the real server's
/// answers, and for each step smd's verdict (where smd's answer differs, and how).
pub fn server_report(
    found: &ServerFound,
    steps: &Result<Vec<(usize, StepVerdict)>, String>,
    file_text: Option<&str>,
) -> String {
    let mut out = String::new();
    let name = case_name(&found.case);
    let file = escape(&found.file);
    let bare = file
        .strip_prefix(crate::cases::SERVER_PREFIX)
        .unwrap_or(&file);
    let _ = writeln!(out, "{file}{}{}", crate::cases::SEPARATOR, escape(name));
    let _ = writeln!(
        out,
        "\n== the case (conformance/apiserver/scenarios/{bare})"
    );
    match file_text.and_then(|t| case_text(t, found.index, name)) {
        Some(text) => out.push_str(&text),
        None => out.push_str(&render(&found.case)),
    }
    let golden = std::path::Path::new(bare).with_extension("json");
    let _ = writeln!(
        out,
        "\n== the real kube-apiserver's answers (conformance/apiserver/goldens/{})",
        escape(&golden.to_string_lossy())
    );
    for (i, step) in found.expected.iter().enumerate() {
        let _ = writeln!(out, "step {}:", i + 1);
        for line in lines(step) {
            let _ = writeln!(out, "  {line}");
        }
    }
    out.push_str("\n== smd, step by step (what differs from the server's answer)\n");
    let steps = match steps {
        Ok(steps) => steps,
        Err(e) => {
            let _ = writeln!(out, "the case cannot be replayed: {}", escape(e));
            out.push_str("\n== verdict: the case did not run\n");
            return out;
        }
    };
    for (step, verdict) in steps {
        let _ = match verdict {
            StepVerdict::Agree => writeln!(out, "step {step}: agrees"),
            StepVerdict::Differs(d) => writeln!(out, "step {step}: differs: {}", escape(d)),
            StepVerdict::Known(category, d) => writeln!(
                out,
                "step {step}: differs, a known disagreement ({category}): {}",
                escape(d)
            ),
            StepVerdict::ListedButAgrees => writeln!(
                out,
                "step {step}: agrees, but is listed in KNOWN_DISAGREEMENTS: remove it there"
            ),
        };
    }
    let failing = steps.iter().filter(|(_, v)| v.is_failure()).count();
    let known = steps
        .iter()
        .filter(|(_, v)| matches!(v, StepVerdict::Known(..)))
        .count();
    out.push('\n');
    let _ = match (failing, known) {
        (0, 0) => writeln!(out, "== verdict: smd agrees with the server on every step"),
        (0, k) => writeln!(
            out,
            "== verdict: smd agrees with the server but on {k} step{} KNOWN_DISAGREEMENTS lists",
            if k == 1 { "" } else { "s" }
        ),
        (f, _) => writeln!(
            out,
            "== verdict: smd differs from the server on {f} step{} (see above)",
            if f == 1 { "" } else { "s" }
        ),
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_that_could_be_read_otherwise_are_quoted() {
        for plain in ["v1", "web", ".data.a", "<step 1>", "conflict with \"x\""] {
            assert_eq!(string_text(plain), plain);
        }
        for (quoted, shown) in [
            ("8080", "\"8080\""),
            ("true", "\"true\""),
            ("", "\"\""),
            (" a", "\" a\""),
            ("a: b", "\"a: b\""),
            ("{}", "\"{}\""),
            ("a\nb", "\"a\\nb\""),
            ("\u{1b}[31m", "\"\\u001b[31m\""),
            ("\u{202e}x", "\"\\u202ex\""),
        ] {
            assert_eq!(string_text(quoted), shown, "{quoted:?}");
        }
    }

    #[test]
    fn set_strings_become_paths_and_other_strings_stay() {
        let text = render(&json!({
            "set": "{\"f:a\":{\"f:b\":{}},\"f:c\":{}}",
            "result": "not a set",
            "empty": {"fieldsV1": "{}"},
        }));
        assert_eq!(
            text,
            "empty:\n  fieldsV1: (as paths)\n    (no paths)\nresult: not a set\n\
             set: (as paths)\n  .a.b\n  .c\n"
        );
    }

    #[test]
    fn a_managed_fields_entry_that_does_not_read_is_shown_as_it_is() {
        let text = render(&json!({"managedFields": [
            {"manager": "m", "operation": "Apply", "fieldsV1": {"x": {}}, "fieldsType": "Other"},
        ]}));
        assert_eq!(
            text,
            "managedFields: (paths per manager)\n  m (Apply)\n    fieldsType: Other\n    \
             fieldsV1:\n      x: {}\n"
        );
    }

    #[test]
    fn a_case_is_cut_from_its_file_without_the_next_ones_comments() {
        let file =
            "format: x\ncases:\n# intro\n- name: a\n  op: b\n\n# about c\n- name: c\n  op: d\n";
        assert_eq!(
            case_text(file, 0, "a").as_deref(),
            Some("- name: a\n  op: b\n")
        );
        assert_eq!(
            case_text(file, 1, "c").as_deref(),
            Some("- name: c\n  op: d\n")
        );
        // Not the layout looked for: the caller renders the case instead.
        assert_eq!(case_text(file, 1, "other"), None);
        assert_eq!(case_text(file, 2, "c"), None);
    }
}
