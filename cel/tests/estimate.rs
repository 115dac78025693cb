//! The static cost estimate against cel-go's: every case of `cel_estimate.json` (written by
//! `gogen celestimate`) checked with the same declarations and estimated with the same size
//! table must give cel-go's {min, max}, except the documented known differences below.

#![allow(clippy::expect_used)]

mod support;

use serde_json::Value as Json;
use smd_cel::check::{Env, Type};
use smd_cel::{SizeEstimate, SizeEstimator};
use std::collections::HashMap;

/// Cases where we knowingly answer differently, with the reason.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[(
    "google.protobuf.Duration{seconds: 1}",
    "the checker: messages of protobuf's well-known types are not declared (cel/tests/check.rs)",
)];

/// The declarations of `gogen celestimate`: celcheck's variables and `self`, an object.
fn env() -> Env {
    let s = Type::String;
    let object = |n: &str| Type::Object(n.to_string());
    let fields = |fs: &[(&str, Type)]| {
        fs.iter()
            .map(|(n, t)| (n.to_string(), t.clone()))
            .collect::<Vec<_>>()
    };
    support::celcheck_variables(Env::new().schema_types())
        .variable("self", object("Self"))
        .object(
            "Self",
            fields(&[
                ("name", s.clone()),
                ("tags", Type::list(s.clone())),
                ("labels", Type::map(s.clone(), s.clone())),
                ("spec", object("Spec")),
            ]),
        )
        .object(
            "Spec",
            fields(&[
                ("replicas", Type::Int),
                ("host", s.clone()),
                ("ports", Type::list(Type::Int)),
                ("items", Type::list(object("Item"))),
                ("config", Type::map(s.clone(), object("Item"))),
            ]),
        )
        .object("Item", fields(&[("name", s.clone()), ("value", s)]))
}

struct Table(HashMap<Vec<String>, SizeEstimate>);

impl SizeEstimator for Table {
    fn estimate_size(&self, path: &[String]) -> Option<SizeEstimate> {
        self.0.get(path).copied()
    }
}

fn tables(corpus: &Json) -> HashMap<String, Table> {
    let number = |v: &Json| v.as_u64().expect("size");
    let mut out = HashMap::new();
    for (name, rows) in corpus["tables"].as_object().expect("tables") {
        let mut table = HashMap::new();
        for row in rows.as_array().expect("rows") {
            let path = row["path"].as_array().expect("path");
            let path = path.iter().map(|p| p.as_str().expect("name").to_string());
            let size = SizeEstimate {
                min: number(&row["min"]),
                max: number(&row["max"]),
            };
            table.insert(path.collect(), size);
        }
        out.insert(name.clone(), Table(table));
    }
    out
}

fn answer(env: &Env, table: &Table, expr: &str) -> Result<(u64, u64), String> {
    let parsed = smd_cel::parse(expr).map_err(|e| e.to_string())?;
    let checked = smd_cel::check_types(&parsed, env).map_err(|e| e.to_string())?;
    let cost = smd_cel::estimate_cost(&parsed, &checked, table);
    Ok((cost.min, cost.max))
}

#[test]
fn estimate_agrees_with_cel_go() {
    let corpus: Json =
        serde_json::from_str(include_str!("data/cel_estimate.json")).expect("corpus is JSON");
    let env = env();
    let tables = tables(&corpus);
    let (mut total, mut agreed, mut known, mut failures) = (0, 0, 0, Vec::new());
    for case in corpus["cases"].as_array().expect("cases") {
        let expr = case["expr"].as_str().expect("expr");
        let table_name = case["table"].as_str().expect("table");
        let table = &tables[table_name];
        let got = answer(&env, table, expr);
        total += 1;
        let want = match (case.get("min"), case.get("max")) {
            (Some(min), Some(max)) => Ok((min.as_u64().expect("min"), max.as_u64().expect("max"))),
            _ => Err(format!("cel-go: {case}")),
        };
        if got == want {
            agreed += 1;
        } else if KNOWN_DIFFERENCES.iter().any(|(e, _)| *e == expr) {
            known += 1;
        } else {
            failures.push(format!(
                "{expr:?} [{table_name}]\n  want {want:?}\n  got  {got:?}"
            ));
        }
    }
    eprintln!("cel_estimate: {agreed}/{total} agree, {known} known differences");
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
