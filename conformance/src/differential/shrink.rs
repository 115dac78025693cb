//! Shrinking a mismatch: smaller variants of the case, each asked to Go again, until no smaller
//! variant still differs (in the same places).
//!
//! "Smaller" is the length of the case's JSON, then the number of characters that are not plain
//! (`a-z`, `0-9`), so replacing an odd character with `a` counts as progress and every step
//! makes the case strictly smaller: shrinking ends.

use super::gogen::Gogen;
use super::judge::{Verdict, judge, places, smd_result};
use serde_json::{Map as JsonMap, Value as Json};
use std::collections::HashSet;

/// Keys that are not inputs.
const FIXED: &[&str] = &["kind", "op", "name", "note"];

/// What shrinking found.
#[derive(Debug)]
pub struct Shrunk {
    /// The smallest case that still differs.
    pub case: Json,
    /// Go's answer for it.
    pub go: Json,
    /// smd's result for it.
    pub smd: Json,
    /// The differences.
    pub diffs: Vec<String>,
    /// How many variants were asked to Go.
    pub asked: usize,
}

fn size(case: &Json) -> (usize, usize) {
    let text = case.to_string();
    let odd = text
        .chars()
        .filter(|c| !c.is_ascii_lowercase() && !c.is_ascii_digit())
        .count();
    (text.len(), odd)
}

/// Shrinks `case`, which differs from Go with `diffs`, asking Go at most `budget` times.
pub fn shrink(
    gogen: &mut Gogen,
    case: &Json,
    go: &Json,
    smd: &Json,
    diffs: &[String],
    budget: usize,
) -> Result<Shrunk, String> {
    let wanted = places(diffs);
    let mut best = Shrunk {
        case: case.clone(),
        go: go.clone(),
        smd: smd.clone(),
        diffs: diffs.to_vec(),
        asked: 0,
    };
    let mut best_size = size(case);
    let mut tried: HashSet<String> = HashSet::new();
    // After a success, the next round starts where the last one succeeded (the earlier, bigger
    // cuts rarely work the second time): a round that goes all the way around ends shrinking.
    let mut start = 0;
    if budget == 0 {
        return Ok(best);
    }
    'rounds: loop {
        let all = candidates(&best.case);
        let n = all.len();
        for k in 0..n {
            let at = (start + k) % n;
            let candidate = &all[at];
            let candidate_size = size(candidate);
            if candidate_size >= best_size || !tried.insert(candidate.to_string()) {
                continue;
            }
            if best.asked >= budget {
                break 'rounds;
            }
            let smd = smd_result(candidate);
            if smd.get("smdMalformed").is_some() {
                continue;
            }
            let go = gogen.ask(candidate)?;
            best.asked += 1;
            if let Verdict::Mismatch(d) = judge(candidate, &go, &smd) {
                if same_kind(&places(&d), &wanted) {
                    best = Shrunk {
                        case: candidate.clone(),
                        go,
                        smd,
                        diffs: d,
                        asked: best.asked,
                    };
                    best_size = candidate_size;
                    start = at;
                    continue 'rounds;
                }
            }
        }
        break;
    }
    Ok(best)
}

/// Whether a candidate's differences are the same kind of mismatch as the original's: they
/// share a place, and every place where a result part is missing or unexpected was already so
/// (values may differ in new places: a smaller case often shows the same bug elsewhere).
fn same_kind(found: &[String], wanted: &[String]) -> bool {
    found.iter().any(|p| wanted.contains(p))
        && found
            .iter()
            .all(|p| wanted.contains(p) || p.ends_with(" differs"))
}

/// Smaller variants of a case, biggest cuts first.
fn candidates(case: &Json) -> Vec<Json> {
    let mut out = Vec::new();
    let Json::Object(m) = case else {
        return out;
    };
    // Whole optional inputs.
    for key in ["has", "withPrefix"] {
        if m.contains_key(key) {
            let mut c = m.clone();
            c.remove(key);
            out.push(Json::Object(c));
        }
    }
    // Then every input, by its own variants.
    for (key, value) in m {
        if FIXED.contains(&key.as_str()) {
            continue;
        }
        if key == "inputBase64" {
            for bytes in value
                .as_str()
                .and_then(crate::canonical::base64_decode)
                .map(|b| byte_variants(&b))
                .unwrap_or_default()
            {
                let mut c = m.clone();
                match String::from_utf8(bytes) {
                    Ok(text) => {
                        c.remove("inputBase64");
                        c.insert("input".into(), Json::String(text));
                    }
                    Err(e) => {
                        c.insert(
                            "inputBase64".into(),
                            Json::String(crate::canonical::base64_encode(e.as_bytes())),
                        );
                    }
                }
                out.push(Json::Object(c));
            }
            continue;
        }
        for variant in input_variants(value) {
            let mut c = m.clone();
            c.insert(key.clone(), variant);
            out.push(Json::Object(c));
        }
    }
    out
}

/// Variants of an input of a case: lists lose items, objects lose entries (manager maps), and
/// strings (JSON texts, fieldsV1, PE strings) get smaller.
fn input_variants(value: &Json) -> Vec<Json> {
    let mut out = Vec::new();
    match value {
        Json::Array(items) => {
            for i in 0..items.len() {
                let mut v = items.clone();
                v.remove(i);
                out.push(Json::Array(v));
            }
            for (i, item) in items.iter().enumerate() {
                for variant in input_variants(item) {
                    let mut v = items.clone();
                    v[i] = variant;
                    out.push(Json::Array(v));
                }
            }
        }
        Json::Object(m) => {
            // Manager maps lose managers; value specs and structured elements keep their one key.
            if m.len() > 1 && !m.contains_key("fieldsV1") {
                for key in m.keys() {
                    let mut c = m.clone();
                    c.remove(key);
                    out.push(Json::Object(c));
                }
            }
            for (key, item) in m {
                if key == "apiVersion" {
                    continue;
                }
                for variant in input_variants(item) {
                    let mut c = m.clone();
                    c.insert(key.clone(), variant);
                    out.push(Json::Object(c));
                }
            }
        }
        Json::String(s) => out.extend(text_variants(s).into_iter().map(Json::String)),
        Json::Number(n) if n.as_i64().is_some_and(|i| i != 0) => {
            out.push(Json::from(0));
            out.push(Json::from(n.as_i64().unwrap_or(0) / 2));
        }
        Json::Bool(true) => out.push(Json::Bool(false)),
        _ => {}
    }
    out
}

/// Smaller texts: JSON edits when the text is JSON (or a `v:`/`k:` element holding JSON),
/// then cut characters, then plain characters for odd ones.
pub fn text_variants(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(tree) = serde_json::from_str::<Json>(s) {
        out.push(tree.to_string());
        out.extend(tree_variants(&tree).iter().map(Json::to_string));
    }
    for prefix in ["v:", "k:"] {
        if let Some(inner) = s.strip_prefix(prefix) {
            if let Ok(tree) = serde_json::from_str::<Json>(inner) {
                out.push(format!("{prefix}{tree}"));
                for v in tree_variants(&tree) {
                    out.push(format!("{prefix}{v}"));
                }
            }
        }
    }
    let chars: Vec<char> = s.chars().collect();
    let mut chunk = chars.len() / 2;
    while chunk >= 1 {
        let mut start = 0;
        while start < chars.len() {
            let end = (start + chunk).min(chars.len());
            out.push(chars[..start].iter().chain(&chars[end..]).collect());
            start += chunk;
        }
        chunk /= 2;
    }
    for (i, c) in chars.iter().enumerate() {
        if !c.is_ascii_lowercase() && !c.is_ascii_digit() {
            let mut v = chars.clone();
            v[i] = 'a';
            out.push(v.into_iter().collect());
        }
    }
    out
}

/// Whole-tree variants of a JSON tree: each node removed, emptied, replaced by a child, and
/// object keys (element strings in fieldsV1) shrunk.
fn tree_variants(tree: &Json) -> Vec<Json> {
    let mut out = Vec::new();
    match tree {
        Json::Object(m) => {
            for (i, (key, child)) in m.iter().enumerate() {
                let mut c = m.clone();
                c.shift_remove(key);
                out.push(Json::Object(c));
                out.push(child.clone());
                for variant in tree_variants(child) {
                    let mut c = m.clone();
                    c.insert(key.clone(), variant);
                    out.push(Json::Object(c));
                }
                for smaller_key in key_variants(key) {
                    if m.contains_key(&smaller_key) {
                        continue;
                    }
                    let mut c = JsonMap::new();
                    for (j, (k, v)) in m.iter().enumerate() {
                        if i == j {
                            c.insert(smaller_key.clone(), v.clone());
                        } else {
                            c.insert(k.clone(), v.clone());
                        }
                    }
                    out.push(Json::Object(c));
                }
            }
        }
        Json::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let mut v = items.clone();
                v.remove(i);
                out.push(Json::Array(v));
                out.push(item.clone());
                for variant in tree_variants(item) {
                    let mut v = items.clone();
                    v[i] = variant;
                    out.push(Json::Array(v));
                }
            }
        }
        Json::String(s) => {
            let chars: Vec<char> = s.chars().collect();
            if !chars.is_empty() {
                out.push(Json::String(chars[..chars.len() / 2].iter().collect()));
                out.push(Json::String(chars[1..].iter().collect()));
            }
        }
        Json::Number(n) if n.as_f64() != Some(0.0) => {
            out.push(Json::from(0));
            out.push(Json::from(1));
        }
        _ => {}
    }
    if !tree.is_null() {
        out.push(Json::Null);
    }
    out
}

/// Smaller keys of a fieldsV1 object: shorter names, smaller values inside `v:` and `k:`.
fn key_variants(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    for prefix in ["v:", "k:"] {
        if let Some(inner) = key.strip_prefix(prefix) {
            if let Ok(tree) = serde_json::from_str::<Json>(inner) {
                for v in tree_variants(&tree) {
                    out.push(format!("{prefix}{v}"));
                }
            }
        }
    }
    if let Some(name) = key.strip_prefix("f:") {
        let chars: Vec<char> = name.chars().collect();
        if !chars.is_empty() {
            out.push(format!(
                "f:{}",
                chars[..chars.len() / 2].iter().collect::<String>()
            ));
            out.push(format!("f:{}", chars[1..].iter().collect::<String>()));
        }
    }
    out
}

/// Smaller byte strings: cut spans, then plain bytes for odd ones.
fn byte_variants(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut chunk = bytes.len() / 2;
    while chunk >= 1 {
        let mut start = 0;
        while start < bytes.len() {
            let end = (start + chunk).min(bytes.len());
            out.push(
                bytes[..start]
                    .iter()
                    .chain(&bytes[end..])
                    .copied()
                    .collect(),
            );
            start += chunk;
        }
        chunk /= 2;
    }
    for (i, b) in bytes.iter().enumerate() {
        if !b.is_ascii_lowercase() && !b.is_ascii_digit() {
            let mut v = bytes.to_vec();
            v[i] = b'a';
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_variants_are_smaller_or_equal() {
        let s = r#"{"f:a":{"k:{\"name\":\"x\"}":{}},"f:b":null}"#;
        let variants = text_variants(s);
        assert!(variants.contains(&r#"{"f:b":null}"#.to_owned()));
        assert!(variants.contains(&r#"{"f:a":{"k:{}":{}},"f:b":null}"#.to_owned()));
    }

    #[test]
    fn candidates_cover_lists_and_base64() {
        let case = serde_json::json!({
            "kind": "fieldset", "op": "parse", "inputBase64": "/3t9",
            "has": [["f:a"], ["f:b"]],
        });
        let all = candidates(&case);
        assert!(all.iter().any(|c| c.get("has").is_none()));
        assert!(all.iter().any(|c| c["has"] == serde_json::json!([["f:b"]])));
        assert!(
            all.iter()
                .any(|c| c.get("input") == Some(&Json::String("{}".into())))
        );
    }
}
