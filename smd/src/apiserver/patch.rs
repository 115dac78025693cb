//! The seam between the request layer and the patch algorithms of [`crate::patch`]: the body
//! read as the server reads it, the patch applied, its refusals answered with the server's
//! status. Strategic merge patch takes the patch metadata of the kind's Go type.

use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

use super::http::{JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH};
use crate::patch::GoTypes;
use crate::patch::PatchError;

/// Why a patch could not be applied, as the server answers it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum PatchFailure {
    /// The server's refusal: its status code and message.
    Refused { code: u16, message: String },
    /// smd cannot apply this patch type yet.
    Unsupported(String),
}

/// `patch` (the body's bytes, of `content_type`) applied to `original`, an object of `kind`.
pub(super) fn apply(
    kind: &GroupVersionKind,
    content_type: &str,
    original: &Value,
    patch: &[u8],
) -> Result<Value, PatchFailure> {
    // The body is read as JSON before any patch algorithm runs, with the server's words.
    let parsed = std::str::from_utf8(patch)
        .ok()
        .and_then(|text| Value::from_json(text).ok())
        .ok_or_else(|| PatchFailure::Refused {
            code: 400,
            message: "invalid JSON patch".to_owned(),
        })?;
    let result = match content_type {
        MERGE_PATCH => crate::patch::merge(original, &parsed),
        JSON_PATCH => {
            if !matches!(parsed, Value::List(_) | Value::Null) {
                let go_type = match parsed {
                    Value::Map(_) => "object",
                    Value::String(_) => "string",
                    Value::Bool(_) => "bool",
                    _ => "number",
                };
                return Err(PatchFailure::Refused {
                    code: 400,
                    message: format!(
                        "error decoding patch: json: cannot unmarshal {go_type} into Go value of type []handlers.jsonPatchOp"
                    ),
                });
            }
            crate::patch::json(original, &parsed)
        }
        STRATEGIC_MERGE_PATCH => {
            let meta = GoTypes::builtin()
                .and_then(|types| types.kind(&kind.group, &kind.version, &kind.kind))
                .ok_or_else(|| {
                    PatchFailure::Unsupported(format!(
                        "no Go type for {}/{} {}, whose patch metadata a strategic merge patch needs",
                        kind.group, kind.version, kind.kind
                    ))
                })?;
            crate::patch::strategic(original, &parsed, &meta)
        }
        other => {
            return Err(PatchFailure::Unsupported(format!(
                "smd does not apply a patch of type {other}"
            )));
        }
    };
    result.map_err(|e: PatchError| PatchFailure::Refused {
        code: e.status(),
        message: e.to_string(),
    })
}
