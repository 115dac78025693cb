//! `Value`'s order, equality, text and JSON against Go: `tests/data/values.jsonl`, written by
//! `tests/data/gen_values.go`, holds random pairs of values with Go's `value.Compare` (both ways),
//! `value.Equals`, `value.ToString` and `value.ToJSON` of them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value as J;
use smd_value::{ErrorKind, Map, Value};
use std::cmp::Ordering;

const GOLDEN: &str = include_str!("data/values.jsonl");

/// The typed encoding of gen_values.go.
fn decode(j: &J) -> Value {
    match j {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::String(s) => Value::String(s.clone()),
        J::Array(items) => Value::List(items.iter().map(decode).collect()),
        J::Object(o) => {
            if let Some(J::String(i)) = o.get("i") {
                Value::Int(i.parse().unwrap())
            } else if let Some(J::String(f)) = o.get("f") {
                Value::Float(f64::from_bits(u64::from_str_radix(f, 16).unwrap()))
            } else if let Some(J::Array(entries)) = o.get("m") {
                let mut m = Map::new();
                for entry in entries {
                    let (J::String(k), v) = (&entry[0], &entry[1]) else {
                        panic!("bad entry {entry}");
                    };
                    m.insert(k.clone(), decode(v));
                }
                Value::Map(m)
            } else {
                panic!("bad value {j}")
            }
        }
        J::Number(_) => panic!("bad value {j}"),
    }
}

fn ordering(j: &J) -> Ordering {
    match j.as_i64() {
        Some(-1) => Ordering::Less,
        Some(0) => Ordering::Equal,
        Some(1) => Ordering::Greater,
        _ => panic!("bad ordering {j}"),
    }
}

#[test]
fn values_match_go() {
    let mut failures = Vec::new();
    let (mut lines, mut strs, mut jsons, mut errs) = (0, 0, 0, 0);
    for (n, line) in GOLDEN.lines().enumerate() {
        let case: J = serde_json::from_str(line).unwrap();
        let a = decode(&case["a"]);
        let b = decode(&case["b"]);
        let mut fail = |what: &str, go: String, smd: String| {
            failures.push(format!(
                "line {}: {what}: Go {go}, smd {smd}\n  a = {a:?}\n  b = {b:?}",
                n + 1
            ))
        };
        lines += 1;
        let (cmp, rcmp) = (ordering(&case["cmp"]), ordering(&case["rcmp"]));
        if a.compare(&b) != cmp {
            fail(
                "compare",
                format!("{cmp:?}"),
                format!("{:?}", a.compare(&b)),
            );
        }
        if b.compare(&a) != rcmp {
            fail(
                "reverse compare",
                format!("{rcmp:?}"),
                format!("{:?}", b.compare(&a)),
            );
        }
        if a.partial_cmp(&b) != Some(cmp) {
            fail(
                "partial_cmp",
                format!("{cmp:?}"),
                format!("{:?}", a.partial_cmp(&b)),
            );
        }
        let eq = case["eq"].as_bool().unwrap();
        if (a == b) != eq {
            fail("equals", eq.to_string(), (a == b).to_string());
        }
        if (b == a) != eq {
            fail("reverse equals", eq.to_string(), (b == a).to_string());
        }
        if let Some(go) = case["str"].as_str() {
            strs += 1;
            if a.to_string() != go {
                fail("to_string", go.to_owned(), a.to_string());
            }
        }
        let smd_json = a.to_json();
        if let Some(go) = case["json"].as_str() {
            jsons += 1;
            match &smd_json {
                Ok(s) if s == go => {}
                other => fail("to_json", go.to_owned(), format!("{other:?}")),
            }
        }
        if let Some(go) = case["err"].as_str() {
            errs += 1;
            match &smd_json {
                Err(e) if e.message() == go && e.kind() == ErrorKind::Unsupported => {}
                other => fail("to_json error", go.to_owned(), format!("{other:?}")),
            }
        }
    }
    assert!(
        lines >= 1500 && strs > 1000 && jsons > 1000 && errs > 50,
        "{lines} lines, {strs} texts, {jsons} JSON texts, {errs} errors"
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
