//! Judging one case: smd's result against Go's answer.

use crate::compare;
use serde_json::{Map as JsonMap, Value as Json};

/// The outcome of one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// smd and Go agree.
    Agree,
    /// They differ only where smd knowingly differs from Go: bytes that are not UTF-8 inside
    /// strings (see `KNOWN_DEVIATIONS`). The differences, for the record.
    Known(Vec<String>),
    /// Go could not answer (`generatorError`: a result that varies between replays, e.g. the
    /// text of a map with several keys). Not a comparison.
    Skipped(String),
    /// They differ.
    Mismatch(Vec<String>),
}

/// smd's result for `case`, or a description of how smd failed to give one.
pub fn smd_result(case: &Json) -> Json {
    match std::panic::catch_unwind(|| crate::run_case(case)) {
        Ok(Ok(result)) => result,
        Ok(Err(malformed)) => serde_json::json!({ "smdMalformed": malformed.0 }),
        Err(payload) => {
            let text = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            serde_json::json!({ "smdPanic": text })
        }
    }
}

/// Judges smd's result (`smd`) against Go's answer (`go`) for `case`.
pub fn judge(case: &Json, go: &Json, smd: &Json) -> Verdict {
    if let Some(reason) = go.get("generatorError") {
        return Verdict::Skipped(reason.as_str().unwrap_or_default().to_owned());
    }
    let mut diffs = compare(case, go, smd);
    if case.get("kind").and_then(Json::as_str) == Some("updater") {
        // The invariants the fuzz target checks on smd must hold in Go's answers too.
        for broken in crate::updater_ops::invariant_violations(case, go) {
            diffs.push(format!(
                "Go breaks an invariant of the updater fuzz target: {broken}"
            ));
        }
    }
    if diffs.is_empty() {
        return Verdict::Agree;
    }
    if has_invalid_utf8_input(case) {
        let (go, smd) = (lossy(go), lossy(smd));
        // U+FFFD also sorts elsewhere than the bytes it stands for: compare without order too.
        if compare(case, &go, &smd).is_empty()
            || compare(case, &unordered(&go), &unordered(&smd)).is_empty()
        {
            return Verdict::Known(diffs);
        }
    }
    Verdict::Mismatch(diffs)
}

/// Whether the case feeds bytes that are not UTF-8 (`inputBase64`).
fn has_invalid_utf8_input(case: &Json) -> bool {
    case.get("inputBase64")
        .and_then(Json::as_str)
        .and_then(crate::canonical::base64_decode)
        .is_some_and(|b| std::str::from_utf8(&b).is_err())
}

/// `j` as smd would have it if Go's strings were UTF-8: every byte string (`{"$base64": …}`,
/// map keys `"$base64:…"`) read with U+FFFD for what is not UTF-8, and what Go made of such
/// bytes written back as one U+FFFD: json-iterator writes each invalid byte as the escape
/// `\ufffd` (at any level of quoting: `\\ufffd` in fieldsV1), Go's `%q` and `strconv.Quote`
/// write it as `\xNN`; runs of U+FFFD count as one (Go has one per byte, smd one per maximal
/// invalid sequence).
fn lossy(j: &Json) -> Json {
    let decode = |b64: &str| {
        crate::canonical::base64_decode(b64).map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    match j {
        Json::Object(m) => {
            if let (1, Some(text)) = (m.len(), m.get("$base64").and_then(Json::as_str)) {
                if let Some(s) = decode(text) {
                    return Json::String(replacement_runs(&s));
                }
            }
            let mut out = JsonMap::new();
            for (k, v) in m {
                let key = k
                    .strip_prefix("$base64:")
                    .and_then(decode)
                    .unwrap_or_else(|| k.clone());
                out.insert(replacement_runs(&key), lossy(v));
            }
            Json::Object(out)
        }
        Json::Array(items) => Json::Array(items.iter().map(lossy).collect()),
        Json::String(s) => Json::String(replacement_runs(s)),
        other => other.clone(),
    }
}

/// `j` with lists sorted and fieldsV1 texts (strings that are JSON objects) rewritten with
/// sorted keys: the same content in any order compares equal.
fn unordered(j: &Json) -> Json {
    match j {
        Json::Array(items) => {
            let mut items: Vec<Json> = items.iter().map(unordered).collect();
            items.sort_by_cached_key(Json::to_string);
            Json::Array(items)
        }
        Json::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = JsonMap::new();
            for k in keys {
                out.insert(k.clone(), unordered(&m[k]));
            }
            Json::Object(out)
        }
        Json::String(s) if s.starts_with('{') => match serde_json::from_str::<Json>(s) {
            Ok(tree) => Json::String(unordered(&tree).to_string()),
            Err(_) => j.clone(),
        },
        other => other.clone(),
    }
}

/// `s` with Go's spellings of a byte that is not UTF-8 (`\ufffd` after any number of
/// backslashes, `\x80`–`\xff`) made U+FFFD, and runs of U+FFFD made one.
fn replacement_runs(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < bytes.len() {
        let slashes = bytes[i..].iter().take_while(|&&b| b == b'\\').count();
        if slashes > 0 {
            let rest = &bytes[i + slashes..];
            let escape_len = if rest.len() >= 5 && rest[..5].eq_ignore_ascii_case(b"ufffd") {
                5
            } else if rest.len() >= 3
                && rest[0] == b'x'
                && matches!(rest[1], b'8'..=b'9' | b'a'..=b'f')
                && rest[2].is_ascii_hexdigit()
            {
                3
            } else {
                0
            };
            if escape_len > 0 {
                if !out.ends_with('\u{fffd}') {
                    out.push('\u{fffd}');
                }
                i += slashes + escape_len;
                continue;
            }
        }
        let Some(c) = s[i..].chars().next() else {
            break;
        };
        if !(c == '\u{fffd}' && out.ends_with('\u{fffd}')) {
            out.push(c);
        }
        i += c.len_utf8();
    }
    out
}

/// Where a difference is and what kind it is (`.strings differs`, `.error missing`,
/// `.fieldsV1 unexpected`): the text before the first `: `, list indexes dropped, and the kind.
/// Shrinking uses these to keep to the same mismatch.
pub fn places(diffs: &[String]) -> Vec<String> {
    let mut out: Vec<String> = diffs
        .iter()
        .map(|d| {
            let (at, rest) = d.split_once(": ").unwrap_or((d.as_str(), ""));
            let mut place = String::new();
            let mut depth = 0;
            for c in at.chars() {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    c if depth == 0 => place.push(c),
                    _ => {}
                }
            }
            let kind = if rest.starts_with("missing") {
                "missing"
            } else if rest.starts_with("unexpected") {
                "unexpected"
            } else {
                "differs"
            };
            format!("{place} {kind}")
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lossy_reads_byte_strings() {
        let go = json!({"strings": [{"$base64": "/w=="}], "x": {"$base64:/w==": 1}});
        assert_eq!(
            lossy(&go),
            json!({"strings": ["\u{fffd}"], "x": {"\u{fffd}": 1}})
        );
    }

    #[test]
    fn go_spellings_of_bad_bytes_become_one_replacement() {
        assert_eq!(replacement_runs(r#"a\\ufffd\\ufffdb"#), "a\u{fffd}b");
        assert_eq!(
            replacement_runs(r#"parsing "\xe2\x801""#),
            "parsing \"\u{fffd}1\""
        );
        assert_eq!(replacement_runs("a\u{fffd}\u{fffd}"), "a\u{fffd}");
        assert_eq!(replacement_runs(r#"\n\x41"#), r#"\n\x41"#);
    }

    #[test]
    fn unordered_ignores_order_of_lists_and_fieldsv1_keys() {
        let a = json!({"paths": [["f:b"], ["f:a"]], "fieldsV1": "{\"f:b\":{},\"f:a\":{}}"});
        let b = json!({"paths": [["f:a"], ["f:b"]], "fieldsV1": "{\"f:a\":{},\"f:b\":{}}"});
        assert_eq!(unordered(&a), unordered(&b));
    }

    #[test]
    fn places_drop_indexes() {
        let diffs = vec![
            ".strings[0]: Go \"a\", smd \"b\"".to_owned(),
            ".strings[3]: Go \"a\", smd \"b\"".to_owned(),
            ".error: Go says \"x\", smd says \"y\"".to_owned(),
        ];
        assert_eq!(places(&diffs), vec![".error differs", ".strings differs"]);
        let missing = vec![".size: missing; Go has 1".to_owned()];
        assert_eq!(places(&missing), vec![".size missing"]);
    }

    #[test]
    fn generator_errors_are_skipped() {
        let case = json!({"kind": "value", "op": "string", "a": {"json": "1"}});
        let v = judge(&case, &json!({"generatorError": "varies"}), &json!({}));
        assert_eq!(v, Verdict::Skipped("varies".into()));
    }
}
