//! The three patch types of `smd::patch` on hostile JSON: a type byte (`m` merge, `j` JSON
//! patch, anything else strategic merge patch of a Pod), the current object, a line `%%`, the
//! patch.
//!
//! Invariants: nothing panics; an error's status is one the server answers (400, 413, 422,
//! 500); a patch that changes nothing (`{}` merge and strategic, `[]` JSON) gives the object
//! back; JSON patch's result has its keys sorted, as Go writes them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd::fieldpath::Value;
use smd::patch::{GoTypes, PatchError};

fn check(result: &Result<Value, PatchError>) {
    if let Err(e) = result {
        assert!(
            matches!(e.status(), 400 | 413 | 422 | 500),
            "{e}: status {}",
            e.status()
        );
        assert!(!e.to_string().is_empty());
    }
}

fn sorted(v: &Value) -> bool {
    match v {
        Value::Map(m) => {
            m.keys()
                .zip(m.keys().skip(1))
                .all(|(a, b)| a.as_bytes() < b.as_bytes())
                && m.values().all(sorted)
        }
        Value::List(items) => items.iter().all(sorted),
        _ => true,
    }
}

fuzz_target!(|data: &[u8]| {
    let [kind, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (original, patch) = text.split_once("\n%%\n").unwrap_or((text, "{}"));
    let (Ok(original), Ok(patch)) = (Value::from_json(original), Value::from_json(patch)) else {
        return;
    };
    let is_object = matches!(original, Value::Map(_));
    let empty_map = Value::Map(Default::default());
    match kind {
        b'm' => {
            check(&smd::patch::merge(&original, &patch));
            if is_object {
                let same = smd::patch::merge(&original, &empty_map);
                assert!(
                    same.as_ref() == Ok(&original),
                    "merge of {{}} changed the object"
                );
            }
        }
        b'j' => {
            let result = smd::patch::json(&original, &patch);
            check(&result);
            if let Ok(v) = &result {
                assert!(sorted(v), "JSON patch result with unsorted keys");
            }
            if is_object {
                let same = smd::patch::json(&original, &Value::List(Vec::new()));
                assert!(
                    same.as_ref() == Ok(&original),
                    "JSON patch [] changed the object"
                );
            }
        }
        _ => {
            let Some(meta) = GoTypes::builtin().and_then(|t| t.kind("", "v1", "Pod")) else {
                panic!("no Pod in the built-in Go types");
            };
            check(&smd::patch::strategic(&original, &patch, &meta));
            if is_object {
                let same = smd::patch::strategic(&original, &empty_map, &meta);
                assert!(
                    same.as_ref() == Ok(&original),
                    "strategic {{}} changed the object"
                );
            }
        }
    }
});
