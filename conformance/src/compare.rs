//! Comparing smd's result with Go's, under the rules of `conformance/README.md`.

use serde_json::Value as Json;

/// Keys whose object is an error: only its `stable` text is compared. (Besides these, a
/// `KEYError` next to a set of kind `typed` is the error of writing that set.)
const ERROR_KEYS: [&str; 4] = ["error", "jsonError", "serializeError", "partialError"];

fn is_error_key(key: &str) -> bool {
    ERROR_KEYS.contains(&key) || (key.len() > 5 && key.ends_with("Error"))
}

/// The differences between Go's result (`expected`) and smd's (`actual`) for `case`, one line
/// each; empty when they agree.
pub fn compare(case: &Json, expected: &Json, actual: &Json) -> Vec<String> {
    if case.get("kind").and_then(Json::as_str) == Some("openapi") {
        return crate::openapi_ops::compare(case, expected, actual);
    }
    if case.get("kind").and_then(Json::as_str) == Some("crd") && expected.get("readError").is_some()
    {
        // Only the failure is compared: the texts are Go's decoders'.
        return match actual.get("readError") {
            Some(_) => Vec::new(),
            None => vec![format!("Go could not read the CRDs; smd: {actual}")],
        };
    }
    compare_plain(case, expected, actual)
}

/// [`compare`] for every kind but `openapi`, and for `openapi` results that are not schemas.
pub(crate) fn compare_plain(case: &Json, expected: &Json, actual: &Json) -> Vec<String> {
    let mut diffs = Vec::new();
    if expected.get("panic").is_some() || contains_uint64(expected) {
        // Go panicked, or produced a value Go's own value package cannot use: smd must refuse.
        if actual.get("error").is_none() {
            diffs.push(format!(
                "Go refused this input ({expected}); smd accepted it: {actual}"
            ));
        }
        return diffs;
    }
    let yaml_failure_only = is_yaml_case(case, expected) && expected.get("error").is_some();
    if yaml_failure_only {
        if actual.get("error").is_none() {
            diffs.push(format!(
                "Go rejected the YAML ({}); smd accepted it: {actual}",
                expected["error"]["stable"]
            ));
        }
        return diffs;
    }
    walk("", expected, actual, &mut diffs);
    diffs
}

/// A case whose failure, if any, comes from reading YAML (our messages are our own).
fn is_yaml_case(case: &Json, expected: &Json) -> bool {
    case.get("op").and_then(Json::as_str) == Some("parseYAML")
        || mentions_yaml(case)
        || is_schema_yaml_error(case, expected)
}

/// A `schema` case whose schema text yaml.v2 refused (`unable to validate schema: yaml: …`,
/// or `yaml: …` from the decoding step).
fn is_schema_yaml_error(case: &Json, expected: &Json) -> bool {
    let stable = expected
        .get("error")
        .and_then(|e| e.get("stable"))
        .and_then(Json::as_str)
        .unwrap_or_default();
    case.get("kind").and_then(Json::as_str) == Some("schema")
        && (stable.starts_with("unable to validate schema: yaml: ") || stable.starts_with("yaml: "))
}

fn mentions_yaml(j: &Json) -> bool {
    match j {
        Json::Object(m) => m.contains_key("yaml") || m.values().any(mentions_yaml),
        Json::Array(a) => a.iter().any(mentions_yaml),
        _ => false,
    }
}

fn contains_uint64(j: &Json) -> bool {
    match j {
        Json::Object(m) => m.contains_key("$uint64") || m.values().any(contains_uint64),
        Json::Array(a) => a.iter().any(contains_uint64),
        _ => false,
    }
}

fn walk(at: &str, expected: &Json, actual: &Json, diffs: &mut Vec<String>) {
    if expected.get("panic").is_some() {
        // Go panicked inside this part (a step of a sequence): smd must refuse it.
        if actual.get("error").is_none() {
            diffs.push(format!(
                "{at}: Go panicked ({}); smd did not refuse: {actual}",
                expected["panic"]
            ));
        }
        return;
    }
    match (expected, actual) {
        (Json::Object(e), Json::Object(a)) => {
            for (key, ev) in e {
                let here = format!("{at}.{key}");
                match a.get(key) {
                    None => diffs.push(format!("{here}: missing; Go has {ev}")),
                    Some(av) if is_error_key(key) => compare_error(&here, ev, av, diffs),
                    Some(av) => walk(&here, ev, av, diffs),
                }
            }
            for (key, av) in a {
                if !e.contains_key(key) {
                    diffs.push(format!("{at}.{key}: unexpected; smd has {av}"));
                }
            }
        }
        (Json::Array(e), Json::Array(a)) => {
            if e.len() != a.len() {
                diffs.push(format!(
                    "{at}: Go has {} items, smd {}: Go {expected}, smd {actual}",
                    e.len(),
                    a.len()
                ));
                return;
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                walk(&format!("{at}[{i}]"), ev, av, diffs);
            }
        }
        (Json::Number(e), Json::Number(a)) => {
            let same = match (e.as_i64(), a.as_i64(), e.is_f64(), a.is_f64()) {
                (Some(x), Some(y), false, false) => x == y,
                (_, _, true, true) => e.as_f64().map(f64::to_bits) == a.as_f64().map(f64::to_bits),
                _ => e.as_u64().is_some() && e.as_u64() == a.as_u64(),
            };
            if !same {
                diffs.push(format!(
                    "{at}: Go {e}, smd {a} (int and float are distinct)"
                ));
            }
        }
        _ => {
            if expected != actual {
                diffs.push(format!("{at}: Go {expected}, smd {actual}"));
            }
        }
    }
}

/// An error matches when smd's text equals Go's stable text. Go's text may carry bytes that are
/// not UTF-8 (json-iterator quotes the raw byte it found); smd's messages are UTF-8, so those
/// bytes are compared as U+FFFD.
fn compare_error(at: &str, expected: &Json, actual: &Json, diffs: &mut Vec<String>) {
    let go = match expected.get("stable") {
        Some(Json::String(s)) => s.clone(),
        Some(other) => match other
            .get("$base64")
            .and_then(Json::as_str)
            .and_then(crate::canonical::base64_decode)
        {
            Some(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            None => other.to_string(),
        },
        None => expected.to_string(),
    };
    let ours = actual
        .get("stable")
        .and_then(Json::as_str)
        .unwrap_or_default();
    if go.starts_with("yaml: ") && actual.get("stable").is_some() {
        // yaml.v2's own words for text it refuses: only the refusal is compared.
        return;
    }
    if expected.get("prefix") == Some(&Json::Bool(true)) {
        // Only the start is Go's own; the rest is a decoder's words or Go's rendering.
        if !ours.starts_with(&go) {
            diffs.push(format!("{at}: Go says {go:?}..., smd says {ours:?}"));
        }
        return;
    }
    if go != ours {
        diffs.push(format!("{at}: Go says {go:?}, smd says {ours:?}"));
    }
}
