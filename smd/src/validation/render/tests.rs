//! The renderings checked against the scheme oracle: `smd-scheme render` converted sample
//! objects to their internal Go values and wrote `json.Marshal`, `json.MarshalIndent` and
//! `diff.Diff` of them (`conformance/apiserver/scheme/render/goldens.json`, from
//! `render/scenarios.yaml`); every case must come out byte for byte.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use smd_fieldpath::Value;

use super::{internal_diff, internal_indent, internal_json};

const GOLDENS: &str = include_str!("../../../../conformance/apiserver/scheme/render/goldens.json");

fn at<'a>(mut v: &'a Value, path: &[serde_json::Value]) -> &'a Value {
    for step in path {
        v = match step {
            serde_json::Value::String(k) => v.as_map().and_then(|m| m.get(k)).expect(k),
            serde_json::Value::Number(n) => {
                let i = n.as_u64().expect("an index") as usize;
                match v {
                    Value::List(items) => items.get(i).expect("an item"),
                    _ => panic!("not a list at {i}"),
                }
            }
            other => panic!("path step {other}"),
        };
    }
    v
}

#[test]
fn renderings_agree_with_go() {
    let golden: serde_json::Value = serde_json::from_str(GOLDENS).unwrap();
    assert_eq!(golden["format"], "smd-scheme-render-goldens/v1");
    let results = golden["results"].as_object().unwrap();
    assert!(results.len() >= 10, "the corpus lost its cases");
    let mut failures = Vec::new();
    for (name, r) in results {
        let type_name = r["type"].as_str().unwrap();
        let path = r["path"].as_array().unwrap();
        let old: Value = serde_json::from_value(r["old"].clone()).unwrap();
        let old = at(&old, path);
        let mut check = |what: &str, got: String, want: &serde_json::Value| {
            let want = want.as_str().unwrap();
            if got != want {
                failures.push(format!("{name} {what}:\n got: {got}\nwant: {want}"));
            }
        };
        check("json", internal_json(type_name, old), &r["json"]);
        check("indent", internal_indent(type_name, old), &r["indent"]);
        if let Some(new) = r.get("new") {
            let new: Value = serde_json::from_value(new.clone()).unwrap();
            let new = at(&new, path);
            check("newJSON", internal_json(type_name, new), &r["newJSON"]);
            check("diff", internal_diff(type_name, old, new), &r["diff"]);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
