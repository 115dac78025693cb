//! The interpreter against cel-go: every case of `data/cel_eval.json` (written by
//! `gogen celeval`) that cel-go compiles is evaluated from its parsed tree and compared: the
//! value or error text, and the actual cost; a case whose program cel-go refuses to build
//! (`programError`) must be refused with the same text. Disagreements fail unless listed, with
//! their reason, in `KNOWN_DIFFERENCES`.

#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

use serde_json::Value as Json;
use smd_cel::ast::{Comprehension, Expr, ExprKind, Literal, MapEntry, StructField};
use smd_cel::time::{Duration, Timestamp};
use smd_cel::value::{Map, Value};
use smd_cel::{Functions, evaluate};
use std::collections::HashMap;

/// Expressions whose answer differs from cel-go's, and why.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    (
        r#"timestamp("2020-03-04T05:06:07.089Z").getHours("America/New_York")"#,
        "named IANA time zones need the tz database; smd answers that it cannot evaluate them offline",
    ),
    (
        r#"timestamp("2020-03-04T05:06:07.089Z").getHours("bogus")"#,
        "the same: an unknown zone name is not told from a real one without the tz database",
    ),
    (
        r#""true".matches("[a-c]+".charAt([].sum()))"#,
        "regexp compile errors carry the regex crate's text, not Go's regexp/syntax text",
    ),
    (
        r#""abc".find("(")"#,
        "the same, when the planner compiles the constant regex (a program error)",
    ),
    (
        r#""abc".matches(dyn("["))"#,
        "the same, when the planner compiles the constant regex (a program error)",
    ),
    (
        r#"[42, [42]["-5".lastIndexOf("1s")]].sort()"#,
        "cel-go answers an internal error (the sort cost tracker asserts a list on an error value, \
         and panics before costing the call); smd the index error, with the sort costed",
    ),
];

fn s(j: &Json) -> &str {
    j.as_str().unwrap_or_default()
}

fn expr(j: &Json) -> Expr {
    let id = j["id"].as_i64().unwrap_or_default();
    let kind = if let Some(l) = j.get("literal") {
        ExprKind::Literal(match value(l) {
            Value::Null => Literal::Null,
            Value::Bool(b) => Literal::Bool(b),
            Value::Int(i) => Literal::Int(i),
            Value::Uint(u) => Literal::Uint(u),
            Value::Double(d) => Literal::Double(d),
            Value::String(s) => Literal::String(s.to_string()),
            Value::Bytes(b) => Literal::Bytes(b.to_vec()),
            other => panic!("literal {other:?}"),
        })
    } else if let Some(i) = j.get("ident") {
        ExprKind::Ident(s(i).to_string())
    } else if let Some(sel) = j.get("select") {
        ExprKind::Select {
            operand: Box::new(expr(&sel["operand"])),
            field: s(&sel["field"]).to_string(),
            test_only: sel["testOnly"].as_bool().unwrap_or_default(),
        }
    } else if let Some(c) = j.get("call") {
        ExprKind::Call {
            target: c.get("target").map(|t| Box::new(expr(t))),
            function: s(&c["function"]).to_string(),
            args: c["args"]
                .as_array()
                .into_iter()
                .flatten()
                .map(expr)
                .collect(),
        }
    } else if let Some(l) = j.get("list") {
        ExprKind::List {
            elements: l["elements"]
                .as_array()
                .into_iter()
                .flatten()
                .map(expr)
                .collect(),
            optional_indices: l["optionalIndices"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|i| i.as_u64().unwrap_or_default() as usize)
                .collect(),
        }
    } else if let Some(m) = j.get("map") {
        ExprKind::Map {
            entries: m["entries"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| MapEntry {
                    id: e["id"].as_i64().unwrap_or_default(),
                    key: expr(&e["key"]),
                    value: expr(&e["value"]),
                    optional: e["optional"].as_bool().unwrap_or_default(),
                })
                .collect(),
        }
    } else if let Some(st) = j.get("struct") {
        ExprKind::Struct {
            type_name: s(&st["typeName"]).to_string(),
            fields: st["fields"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|f| StructField {
                    id: f["id"].as_i64().unwrap_or_default(),
                    field: s(&f["field"]).to_string(),
                    value: expr(&f["value"]),
                    optional: f["optional"].as_bool().unwrap_or_default(),
                })
                .collect(),
        }
    } else if let Some(c) = j.get("comprehension") {
        ExprKind::Comprehension(Box::new(Comprehension {
            iter_range: expr(&c["iterRange"]),
            iter_var: s(&c["iterVar"]).to_string(),
            iter_var2: s(&c["iterVar2"]).to_string(),
            accu_var: s(&c["accuVar"]).to_string(),
            accu_init: expr(&c["accuInit"]),
            loop_condition: expr(&c["loopCondition"]),
            loop_step: expr(&c["loopStep"]),
            result: expr(&c["result"]),
        }))
    } else {
        panic!("unknown node {j}")
    };
    Expr { id, kind }
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
        Value::Opaque(o) => json!({"opaque": format!("{o:?}")}),
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
        "error" | "type" => j.clone(),
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
        "/tests/data/cel_eval.json"
    ))
    .expect("corpus");
    let corpus: Json = serde_json::from_str(&text).expect("json");
    let functions = Functions::kubernetes();
    let known: HashMap<&str, &str> = KNOWN_DIFFERENCES.iter().copied().collect();
    let (mut evaluated, mut agree, mut cost_agree) = (0, 0, 0);
    let (mut refused, mut refused_agree) = (0, 0);
    let mut failures = Vec::new();
    for case in corpus["cases"].as_array().expect("cases") {
        let src = s(&case["expr"]);
        let program_error = case.get("programError").and_then(Json::as_str);
        let Some(want) = case.get("value").or(case.get("programError")) else {
            continue;
        };
        let tree = expr(&case["ast"]);
        let vars: HashMap<String, Value> = case
            .get("vars")
            .and_then(Json::as_object)
            .map(|o| o.iter().map(|(k, v)| (k.clone(), value(v))).collect())
            .unwrap_or_default();
        let limit = case
            .get("costLimit")
            .and_then(Json::as_u64)
            .or(Some(1_000_000));
        let out = evaluate(&functions, &tree, &vars, limit);
        if let Some(text) = program_error {
            refused += 1;
            let got = match &out.value {
                Err(smd_cel::Error::Program(e)) => Some(e.as_str()),
                _ => None,
            };
            if got == Some(text) {
                refused_agree += 1;
            } else if !known.contains_key(src) {
                failures.push(format!(
                    "{src}\n    cel-go: program error {want}\n    smd:    {:?}",
                    out.value
                ));
            }
            continue;
        }
        evaluated += 1;
        let got = match &out.value {
            Ok(v) => tagged(v),
            Err(e) => serde_json::json!({"error": e.to_string()}),
        };
        let want = expected(want);
        let cost_ok = case["cost"].as_u64() == Some(out.cost);
        if got == want {
            agree += 1;
        }
        if cost_ok {
            cost_agree += 1;
        }
        if (got != want || !cost_ok) && !known.contains_key(src) {
            failures.push(format!(
                "{src}\n    cel-go: {want} cost {}\n    smd:    {got} cost {}",
                case["cost"], out.cost
            ));
        }
    }
    eprintln!(
        "{agree}/{evaluated} values agree; costs {cost_agree}/{evaluated}; \
         program errors {refused_agree}/{refused}"
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
