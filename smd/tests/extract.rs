//! `smd::extract` on every case of `data/extract-cases.yaml`, against Go's answers in
//! `data/extract.json` (written by `gogen extract`: apimachinery's `managedfields.ExtractInto`
//! and client-go's `ExtractX` identity fields). Where the case names a `deviation`, Go fails
//! (or reads nothing) and smd gives the answer `smd/src/managedfields/extract.rs` documents;
//! the test checks both sides of it. Everywhere else the answers are equal as JSON values
//! (integers and floats distinct), errors included (same kind, Go's text).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value as Json;
use smd::fieldpath::{Value, yaml};
use smd::managedfields::{TypeResolver, read_object};
use smd::{ExtractError, extract};

const CASES: &str = include_str!("data/extract-cases.yaml");
const GOLDEN: &str = include_str!("data/extract.json");

/// A field of a case, as text (absent: empty).
fn text<'a>(case: &'a Value, key: &str) -> &'a str {
    case.as_map()
        .and_then(|m| m.get(key))
        .and_then(Value::as_str)
        .unwrap_or_default()
}

fn go_str<'a>(row: &'a Json, key: &str) -> &'a str {
    row[key].as_str().unwrap_or_default()
}

/// Go's stable error text of a row (`error` or `noType`), if it has one.
fn go_error<'a>(row: &'a Json, key: &str) -> Option<&'a str> {
    row.get(key).and_then(|e| e["stable"].as_str())
}

fn types_for(case: &Value, crds: &Value) -> TypeResolver {
    let name = text(case, "crd");
    if name.is_empty() {
        return TypeResolver::kubernetes();
    }
    let crd_text = crds
        .as_map()
        .and_then(|m| m.get(name))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no CRD {name:?} in the file's crds"));
    let crd = yaml::from_str(crd_text).expect("the CRD reads");
    let converted = smd_schema::crd::convert(&crd).expect("the CRD converts");
    TypeResolver::kubernetes()
        .with_crds([converted])
        .expect("the CRD's types join the built-in ones")
}

/// What must hold of smd's answer, given Go's row: `None` when it holds, else why not.
fn judge(case: &Value, row: &Json, answer: &Result<Value, ExtractError>) -> Option<String> {
    let manager = text(case, "manager");
    let as_json = |v: &Value| serde_json::to_value(v).expect("a value is JSON");
    let expect_value = |want: &Json| match answer {
        Ok(v) if as_json(v) == *want => None,
        Ok(v) => Some(format!("smd: {}\n  Go: {want}", as_json(v))),
        Err(e) => Some(format!("smd failed: {e}\n  Go: {want}")),
    };
    match text(case, "deviation") {
        "" => {}
        "nothing-present" => {
            let go = format!(
                "unable to convert managed fields for {manager} to unstructured, expected map, got <nil>"
            );
            if go_error(row, "error") != Some(go.as_str()) {
                return Some(format!("Go no longer fails with {go:?}: {row}"));
            }
            return expect_value(&row["empty"]);
        }
        "no-fieldsv1" => {
            let go = "error marshalling FieldsV1 to JSON: ReadMapCB: expect { or n, but found \0";
            if go_error(row, "error") != Some(go) {
                return Some(format!("Go no longer fails with {go:?}: {row}"));
            }
            return expect_value(&row["empty"]);
        }
        "malformed-managedfields" => {
            // Go read no entries: its answer is the object's identity alone.
            let result = &row["result"];
            let identity_only = result.as_object().is_some_and(|m| {
                m.keys()
                    .all(|k| ["apiVersion", "kind", "metadata"].contains(&k.as_str()))
                    && m["metadata"]
                        .as_object()
                        .is_some_and(|md| md.keys().all(|k| k == "name" || k == "namespace"))
            });
            if !identity_only {
                return Some(format!("Go now reads the entries: {row}"));
            }
            return match answer {
                Err(ExtractError::ManagedFields(_)) => None,
                other => Some(format!("smd: {other:?}, not a managedFields error")),
            };
        }
        other => return Some(format!("unknown deviation {other:?}")),
    }
    if row.get("result").is_some() {
        return expect_value(&row["result"]);
    }
    if let Some(go) = go_error(row, "noType") {
        return match answer {
            Err(ExtractError::NoType(gvk)) if format!("no corresponding type for {gvk}") == go => {
                None
            }
            other => Some(format!("smd: {other:?}\n  Go: {go}")),
        };
    }
    if let Some(go) = go_error(row, "error") {
        let agrees = match answer {
            Err(ExtractError::Invalid(errors)) => {
                go.strip_prefix("error converting obj to typed: ") == Some(&errors.to_string())
            }
            Err(ExtractError::FieldsV1 { source, .. }) => {
                go.strip_prefix("error marshalling FieldsV1 to JSON: ") == Some(source.message())
            }
            _ => false,
        };
        return (!agrees).then(|| format!("smd: {answer:?}\n  Go: {go}"));
    }
    Some(format!(
        "Go's answer has no result, error or noType (a panic needs a deviation): {row}"
    ))
}

#[test]
fn every_case_agrees_with_go() {
    let file = yaml::from_str(CASES).expect("the case file reads");
    let file = file.as_map().expect("the case file is a map");
    let cases = file
        .get("cases")
        .and_then(Value::as_list)
        .expect("cases is a list");
    let crds = file.get("crds").cloned().unwrap_or(Value::Null);
    let golden: Json = serde_json::from_str(GOLDEN).expect("the golden reads");
    assert_eq!(golden["format"], "smd-extract/v1");
    let rows = golden["cases"].as_array().expect("the golden has cases");
    assert_eq!(
        rows.len(),
        cases.len(),
        "the golden is stale: run conformance/regen"
    );

    let mut failures = Vec::new();
    let mut deviations = 0;
    for (case, row) in cases.iter().zip(rows) {
        let name = text(case, "name");
        for key in ["name", "manager", "subresource", "object", "deviation"] {
            assert_eq!(
                go_str(row, key),
                text(case, key),
                "case {name}: the golden's {key} is stale: run conformance/regen"
            );
        }
        let object = read_object(text(case, "object"))
            .unwrap_or_else(|e| panic!("case {name}: the object reads: {e}"));
        let types = types_for(case, &crds);
        let answer = catch_unwind(AssertUnwindSafe(|| {
            extract(
                &object,
                text(case, "manager"),
                text(case, "subresource"),
                &types,
            )
        }));
        let Ok(answer) = answer else {
            failures.push(format!("{name}: smd panicked"));
            continue;
        };
        if !text(case, "deviation").is_empty() {
            deviations += 1;
        }
        if let Some(why) = judge(case, row, &answer) {
            failures.push(format!("{name}: {why}"));
        }
    }
    println!(
        "extract: {} cases, {} equal to Go's answer, {deviations} where Go fails and smd answers as documented",
        cases.len(),
        cases.len() - deviations
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Go:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
