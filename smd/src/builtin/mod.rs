//! Built-in objects as the API server holds them: a body decoded into the Go type of its kind
//! and version (unknown fields dropped, `omitempty` applied, integers at their Go width,
//! quantities canonical) and defaulted by the scheme (`SetDefaults_*` and the `+default`
//! markers), as `k8s.io/kubernetes` v1.37.2 does on create, update and patch bodies and on the
//! merged result of an apply.
//!
//! Issue 12, item 4. Until its parts land, [`decode`] is the identity: this module is the seam
//! the request layer (`smd::apiserver`) and the field manager call.

pub mod defaults;

use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

/// A body as the Go type holds it, and what decoding noticed on the way (the
/// `fieldValidation` warnings and refusals).
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The object after the round trip through the Go type (and defaulting, from [`decode`]).
    pub object: Value,
    /// Paths of fields the Go type has no field for, as the server names them
    /// (`.spec.foo`), in the order met.
    pub unknown_fields: Vec<String>,
}

/// Why a body cannot be decoded into its Go type (a string where the type holds an integer).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct DecodeError {
    /// The server's words.
    pub message: String,
}

/// Whether `kind` is a built-in kind of Kubernetes 1.37 with Go types (not a custom resource).
pub fn is_builtin(kind: &GroupVersionKind) -> bool {
    let _ = kind;
    false
}

/// `object` decoded into the Go type of `kind` and encoded back, with no defaulting.
pub fn round_trip(kind: &GroupVersionKind, object: &Value) -> Result<Decoded, DecodeError> {
    let _ = kind;
    Ok(Decoded {
        object: object.clone(),
        unknown_fields: Vec::new(),
    })
}

/// The scheme's defaulting of `kind` applied to an object that went through [`round_trip`].
pub fn default(kind: &GroupVersionKind, object: &mut Value) {
    defaults::default(kind, object);
}

/// What the API server makes of a body of `kind`: [`round_trip`], then [`default`].
pub fn decode(kind: &GroupVersionKind, object: &Value) -> Result<Decoded, DecodeError> {
    let mut decoded = round_trip(kind, object)?;
    default(kind, &mut decoded.object);
    Ok(decoded)
}
