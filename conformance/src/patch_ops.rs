//! Cases of kind `patch`: the PATCH types of `smd::patch`, each case's `original` and `patch`
//! read as JSON (integers stay integers, as the server's readers keep them).

use crate::Malformed;
use crate::canonical;
use crate::inputs::{self, Failure, Outcome};
use serde_json::{Value as Json, json};
use smd::patch::PatchError;
use smd_fieldpath::Value;

pub(crate) fn run(op: &str, case: &Json) -> Outcome {
    let original = json_input(case, "original")?;
    let patch = json_input(case, "patch")?;
    let result = match op {
        "merge" => smd::patch::merge(&original, &patch),
        "json" => smd::patch::json(&original, &patch),
        _ => {
            return Err(Failure::Malformed(Malformed(format!(
                "unknown patch op {op:?}"
            ))));
        }
    };
    Ok(outcome(result))
}

fn json_input(case: &Json, name: &str) -> Result<Value, Failure> {
    let text = inputs::str_field(case, name)?;
    Value::from_json(text)
        .map_err(|e| Failure::Malformed(Malformed(format!("{name} is not JSON: {e}"))))
}

/// The result as gogen writes it: the patched object, or the error and the server's status.
pub(crate) fn outcome(result: Result<Value, PatchError>) -> Json {
    match result {
        Ok(value) => json!({ "result": canonical::value(&value) }),
        Err(e) => json!({ "error": { "stable": e.to_string() }, "status": e.status() }),
    }
}
