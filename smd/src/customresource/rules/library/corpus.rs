//! The Kubernetes CEL libraries smd registers (quantity, IP, CIDR, URL, semver, format)
//! against cel-go: every case of `data/cel_k8s.json` (written by `gogen celk8s`) that cel-go
//! compiles is evaluated from its parsed tree with smd's functions and compared, value and
//! error text, and cost. Disagreements fail unless listed, with their reason, in
//! `KNOWN_DIFFERENCES`.

use super::{convert_to_string, kubernetes_functions};
use serde_json::Value as Json;
use smd_cel::evaluate;
use smd_cel::time::{Duration, Timestamp};
use smd_cel::value::{Map, Value};
use std::collections::HashMap;

/// A class of cases whose answer differs from cel-go's: which (by expression and cel-go's
/// value), whether the value or only the cost differs, and why.
struct Known {
    applies: fn(&str, &Json, &Json) -> bool,
    cost_only: bool,
    why: &'static str,
}

static KNOWN_DIFFERENCES: &[Known] = &[
    Known {
        applies: |e, _, _| {
            [
                r#"quantity("70k") == quantity("50k").add(quantity("20k"))"#,
                r#"dyn(quantity("1")) == 1"#,
                r#"dyn(ip("1.2.3.4")) == "1.2.3.4""#,
            ]
            .contains(&e)
        },
        cost_only: false,
        why: "cel-go's `==` on a library value answers `no such overload` when the right operand \
              is of another Go type (another CEL type, or a quantity from `add`/`sub`, which the \
              library returns as a pointer); smd-cel's `Opaque::equals` can only answer a bool",
    },
    Known {
        applies: |_, want, _| want.get("error").is_some(),
        cost_only: true,
        why: "when an argument is an error, cel-go still charges the call's cost from the \
              estimator (the error's size counting 1); smd-cel's interpreter charges 1",
    },
    Known {
        applies: |_, _, got| got.to_string().contains('\u{fffd}'),
        cost_only: false,
        why: "a URL host whose escapes decode to bytes that are not UTF-8: cel-go's answer \
              reads as \"\"; smd-cel's strings are UTF-8, so smd holds the text with \
              replacement characters",
    },
];

/// The first known difference that covers a case.
fn known(expr: &str, want: &Json, got: &Json, cost: bool) -> Option<&'static Known> {
    KNOWN_DIFFERENCES
        .iter()
        .find(|k| (k.applies)(expr, want, got) && (cost || !k.cost_only))
}

fn s(j: &Json) -> &str {
    j.as_str().unwrap_or_default()
}

fn b64(text: &str) -> Vec<u8> {
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        let v = alphabet.iter().position(|&a| a == c).unwrap_or(0) as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

fn value(j: &Json) -> Value {
    let (tag, v) = j
        .as_object()
        .and_then(|o| o.iter().next())
        .expect("tagged value");
    match tag.as_str() {
        "null" => Value::Null,
        "bool" => Value::Bool(v.as_bool().unwrap_or_default()),
        "int" => Value::Int(s(v).parse().expect("int")),
        "uint" => Value::Uint(s(v).parse().expect("uint")),
        "double" => Value::Double(s(v).parse().expect("double")),
        "string" => Value::from(s(v)),
        "bytes" => Value::Bytes(b64(s(v)).into()),
        "list" => Value::list(v.as_array().into_iter().flatten().map(value).collect()),
        "map" => Value::Map(Map::from_entries(
            v.as_array()
                .into_iter()
                .flatten()
                .map(|e| (value(&e[0]), value(&e[1]))),
        )),
        "duration" => Value::Duration(Duration::parse(s(v)).expect("duration")),
        "timestamp" => Value::Timestamp(Timestamp::parse(s(v)).expect("timestamp")),
        other => panic!("value tag {other}"),
    }
}

/// A value in the corpus's tagged form, maps sorted by their key's form.
fn tagged(v: &Value) -> Json {
    use serde_json::json;
    match v {
        Value::Null => json!({"null": true}),
        Value::Bool(b) => json!({"bool": b}),
        Value::Int(i) => json!({"int": i.to_string()}),
        Value::Uint(u) => json!({"uint": u.to_string()}),
        Value::Double(d) => json!({"double": d}),
        Value::String(s) => json!({"string": s.as_ref()}),
        Value::Bytes(b) => json!({"bytes": b.to_vec()}),
        Value::List(l) => json!({"list": l.iter().map(|e| tagged(&e)).collect::<Vec<_>>()}),
        Value::Map(m) => {
            let mut entries: Vec<(String, Json)> = m
                .iter()
                .map(|(k, v)| (tagged(&k).to_string(), json!([tagged(&k), tagged(&v)])))
                .collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            json!({"map": entries.into_iter().map(|e| e.1).collect::<Vec<_>>()})
        }
        Value::Duration(d) => json!({"duration": d.to_string()}),
        Value::Timestamp(t) => json!({"timestamp": t.to_string()}),
        Value::Type(t) => json!({"type": t.name()}),
        Value::Optional(None) => json!({"optional": null}),
        Value::Optional(Some(v)) => json!({"optional": tagged(v)}),
        Value::Opaque(o) => json!({"opaque": {
            "type": o.type_name(),
            "string": convert_to_string(v).unwrap_or_default(),
        }}),
    }
}

/// The expected value in the same form (doubles and bytes decoded the same way).
fn expected(j: &Json) -> Json {
    use serde_json::json;
    let Some((tag, v)) = j.as_object().and_then(|o| o.iter().next()) else {
        return j.clone();
    };
    match tag.as_str() {
        "error" | "type" | "optional" if v.is_null() => j.clone(),
        "error" | "type" | "opaque" => j.clone(),
        "optional" => json!({"optional": expected(v)}),
        "list" => {
            json!({"list": v.as_array().into_iter().flatten().map(expected).collect::<Vec<_>>()})
        }
        "map" => {
            let mut entries: Vec<(String, Json)> = v
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| {
                    let k = expected(&e[0]);
                    (k.to_string(), json!([k, expected(&e[1])]))
                })
                .collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            json!({"map": entries.into_iter().map(|e| e.1).collect::<Vec<_>>()})
        }
        _ => tagged(&value(j)),
    }
}

#[test]
fn cel_go_corpus() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/cel_k8s.json"
    ))
    .expect("corpus");
    let corpus: Json = serde_json::from_str(&text).expect("json");
    let functions = kubernetes_functions();
    let (mut evaluated, mut agree, mut cost_agree) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut cost_failures = Vec::new();
    let mut explained = vec![0; KNOWN_DIFFERENCES.len()];
    let index = |k: &Known| KNOWN_DIFFERENCES.iter().position(|x| std::ptr::eq(x, k));
    for case in corpus["cases"].as_array().expect("cases") {
        let Some(want) = case.get("value") else {
            continue;
        };
        let src = s(&case["expr"]);
        evaluated += 1;
        // The parser agrees with cel-go's trees on every expression of its own corpus, so
        // the text stands for the tree the corpus also records.
        let tree = match smd_cel::parse(src) {
            Ok(parsed) => parsed.expr,
            Err(e) => {
                failures.push(format!("{src}\n    does not parse: {e}"));
                continue;
            }
        };
        let vars: HashMap<String, Value> = HashMap::new();
        let out = evaluate(&functions, &tree, &vars, Some(1_000_000));
        let got = match &out.value {
            Ok(v) => tagged(v),
            Err(e) => serde_json::json!({"error": e.to_string()}),
        };
        let want = expected(want);
        if got == want {
            agree += 1;
        } else if let Some(i) = known(src, &want, &got, false).and_then(index) {
            explained[i] += 1;
        } else {
            failures.push(format!("{src}\n    cel-go: {want}\n    smd:    {got}"));
        }
        if case["cost"].as_u64() == Some(out.cost) {
            cost_agree += 1;
        } else if let Some(i) = known(src, &want, &got, true).and_then(index) {
            explained[i] += 1;
        } else {
            cost_failures.push(format!("{src}: cel-go {} smd {}", case["cost"], out.cost));
        }
    }
    eprintln!("{agree}/{evaluated} values agree; costs {cost_agree}/{evaluated}");
    for (k, n) in KNOWN_DIFFERENCES.iter().zip(&explained) {
        eprintln!("known difference ({n} answers): {}", k.why);
    }
    let stale: Vec<&str> = KNOWN_DIFFERENCES
        .iter()
        .zip(&explained)
        .filter(|(_, n)| **n == 0)
        .map(|(k, _)| k.why)
        .collect();
    assert!(
        stale.is_empty(),
        "listed but smd now agrees, remove: {stale:#?}"
    );
    assert!(
        failures.is_empty() && cost_failures.is_empty(),
        "{} value disagreements:\n{}\n{} cost disagreements:\n{}",
        failures.len(),
        failures.join("\n"),
        cost_failures.len(),
        cost_failures.join("\n")
    );
}
