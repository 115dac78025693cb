//! The seam between the request layer and the patch algorithms (JSON merge patch, JSON patch,
//! strategic merge patch), which live in `smd::patch` once it lands: until then a patch of
//! those types is answered with a 500 that says smd does not apply it yet.

use smd_fieldpath::Value;

use super::http::{JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH};

/// Why a patch could not be applied, as the server answers it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum PatchFailure {
    /// 400 `BadRequest` with this message (a malformed patch).
    BadRequest(String),
    /// 422 with the server's generic message (a JSON patch `test` that failed, ...), once
    /// `smd::patch` answers it.
    #[allow(dead_code)]
    Invalid(String),
    /// smd cannot apply this patch type yet.
    Unsupported(String),
}

/// `patch` (the body's bytes, of `content_type`) applied to `original`.
pub(super) fn apply(
    content_type: &str,
    original: &Value,
    patch: &[u8],
) -> Result<Value, PatchFailure> {
    let _ = original;
    // The body is read as JSON before any patch algorithm runs, with the server's words.
    let parsed = Value::from_json(&String::from_utf8_lossy(patch))
        .map_err(|_| PatchFailure::BadRequest("invalid JSON patch".to_owned()))?;
    if content_type == JSON_PATCH && !matches!(parsed, Value::List(_) | Value::Null) {
        let go_type = match parsed {
            Value::Map(_) => "object",
            Value::String(_) => "string",
            Value::Bool(_) => "bool",
            Value::Int(_) | Value::Float(_) => "number",
            Value::Null | Value::List(_) => "array",
        };
        return Err(PatchFailure::BadRequest(format!(
            "error decoding patch: json: cannot unmarshal {go_type} into Go value of type []handlers.jsonPatchOp"
        )));
    }
    let name = match content_type {
        MERGE_PATCH => "JSON merge patch",
        JSON_PATCH => "JSON patch",
        STRATEGIC_MERGE_PATCH => "strategic merge patch",
        other => other,
    };
    Err(PatchFailure::Unsupported(format!(
        "smd does not apply a {name} yet (issue 12)"
    )))
}
