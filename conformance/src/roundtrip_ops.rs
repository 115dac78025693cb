//! kind `roundtrip`: a body decoded into its Go type and encoded back by
//! `smd::builtin::round_trip`, in the shape of gogen's results.

use serde_json::{Value as Json, json};
use smd::builtin::round_trip;
use smd::fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

use crate::Malformed;
use crate::canonical;
use crate::inputs::{Failure, Outcome, input_bytes};

pub(crate) fn run(op: &str, case: &Json) -> Outcome {
    if op != "decode" {
        return Err(malformed(format!(
            "unknown op {op:?} for kind \"roundtrip\""
        )));
    }
    let bytes = input_bytes(case)?;
    let text =
        std::str::from_utf8(&bytes).map_err(|_| malformed("the input is not UTF-8".into()))?;
    let object = smd::managedfields::read_object(text)
        .map_err(|e| malformed(format!("the input is not an object: {e}")))?;
    // The server (and gogen) make a YAML body JSON with sigs.k8s.io/yaml, which sorts every
    // map's keys: the decoder meets them, its first error and its unknown fields in that order.
    let object = sorted(&object);
    let field = |name: &str| match &object {
        Value::Map(m) => m.get(name).and_then(Value::as_str).unwrap_or("").to_owned(),
        _ => String::new(),
    };
    let gvk = GroupVersionKind::from_api_version(&field("apiVersion"), &field("kind"));
    if !smd::builtin::is_builtin(&gvk) {
        return Err(malformed(format!("not a built-in kind: {gvk:?}")));
    }
    Ok(match round_trip(&gvk, &object) {
        Ok(decoded) => json!({
            "object": canonical::value(&decoded.object),
            "unknownFields": decoded.unknown_fields,
        }),
        Err(e) => json!({ "error": { "stable": e.message } }),
    })
}

fn malformed(message: String) -> Failure {
    Failure::Malformed(Malformed(message))
}

fn sorted(v: &Value) -> Value {
    match v {
        Value::Map(m) => {
            let mut entries: Vec<(&str, &Value)> = m.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            let mut out = smd::fieldpath::value::Map::with_capacity(entries.len());
            for (k, v) in entries {
                out.insert(k, sorted(v));
            }
            Value::Map(out)
        }
        Value::List(items) => Value::List(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}
