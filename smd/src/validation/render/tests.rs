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

const SERVED: &str = include_str!("../../../../conformance/apiserver/scheme/goldens/served.json");

/// The two generated tables agree: every kind a real server serves (its discovery, as
/// `smd-scheme served` wrote it) has a versioned Go type that the internal table pairs with
/// an internal one, so any of its values can be rendered.
#[test]
fn every_served_kind_has_an_internal_type() {
    use crate::builtin::gotypes::{gotypes, internal_types};
    use smd_schema::gvk::GroupVersionKind;
    let served: serde_json::Value = serde_json::from_str(SERVED).unwrap();
    let kinds = served["kinds"].as_array().unwrap();
    assert!(kinds.len() > 50, "served.json lost its kinds");
    let (versioned, internal) = (gotypes().unwrap(), internal_types().unwrap());
    let mut missing = Vec::new();
    for k in kinds {
        let s = |key: &str| k[key].as_str().unwrap().to_owned();
        let gvk = GroupVersionKind {
            group: s("group"),
            version: s("version"),
            kind: s("kind"),
        };
        let paired = versioned
            .kind(&gvk)
            .and_then(|t| internal.internal_of(&t.name))
            .and_then(|name| internal.by_name(name));
        if paired.is_none() {
            missing.push(format!("{gvk:?}"));
        }
    }
    assert!(missing.is_empty(), "no internal type for {missing:?}");
}
