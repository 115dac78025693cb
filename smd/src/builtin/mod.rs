//! Built-in objects as the API server holds them: a body decoded into the Go type of its kind
//! and version (unknown fields dropped, `omitempty` applied, integers at their Go width,
//! quantities canonical) and defaulted by the scheme (`SetDefaults_*` and the `+default`
//! markers), as `k8s.io/kubernetes` v1.37.2 does on create, update and patch bodies and on the
//! merged result of an apply.
//!
//! Issue 12, item 4. [`round_trip`] is the Go types' round trip ([`gotypes`] holds the types,
//! written by `gogen gotypes`); the defaults are [`default`]'s; [`round_trip_internal`] and
//! [`prepare`] are what the internal version and the strategies do to the fields it alone has.

mod claim;
pub mod conversion;
mod gotime;
pub mod gotypes;
mod identified;
pub(crate) mod internal;
pub mod quantity;
mod roundtrip;
pub(crate) use roundtrip::base64_decode;

pub(crate) use roundtrip::marshal_struct;

pub mod defaults;

pub use claim::normalize_data_sources;
pub use identified::prepare_identified;

use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

/// A body as the Go type holds it, and what decoding noticed on the way (the
/// `fieldValidation` warnings and refusals).
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The object after the round trip through the Go type (and defaulting, from [`decode`]).
    pub object: Value,
    /// Paths of fields the Go type has no field for, as `sigs.k8s.io/json`'s strict decoding
    /// names them (`spec.template.spec.containers[0].foo`), in the order met, each once, at
    /// most 100. The server's warning (and, with `fieldValidation=Strict`, its error) for one
    /// is `unknown field "<path>"`. (Repeated keys cannot reach a [`Value`]; the reader of
    /// the body reports those.)
    pub unknown_fields: Vec<String>,
}

/// Why a body cannot be decoded into its Go type (a string where the type holds an integer):
/// the decoder's first error, in its words (`json: cannot unmarshal string into Go struct
/// field DeploymentSpec.spec.replicas of type int32`, a quantity's or a time's parse error).
/// The server puts it after `<Kind> in version "<v>" cannot be handled as a <Kind>: `.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct DecodeError {
    /// The server's words.
    pub message: String,
}

/// Whether `kind` is a built-in kind of Kubernetes 1.37 with Go types (not a custom resource).
/// Every kind and version of the scheme counts (lists and options kinds too).
pub fn is_builtin(kind: &GroupVersionKind) -> bool {
    gotypes::gotypes().is_ok_and(|t| t.kind(kind).is_some())
}

/// `object` decoded into the Go type of `kind` and encoded back, with no defaulting: unknown
/// fields dropped (and listed), `omitempty` applied, Go's zero values written for the fields
/// that have no `omitempty` (an empty struct as `{}`, a nil slice as `null`), integers checked
/// against their Go width, quantities canonical, times in UTC to the second, bytes re-encoded.
/// An object of a kind that is not built in comes back unchanged.
pub fn round_trip(kind: &GroupVersionKind, object: &Value) -> Result<Decoded, DecodeError> {
    let types = go_types()?;
    match types.kind(kind) {
        Some(t) => round_trip_named(types, &t.name, object),
        None => Ok(Decoded {
            object: object.clone(),
            unknown_fields: Vec::new(),
        }),
    }
}

/// An object's `metadata` through Go's `ObjectMeta` and back, as the API server coerces a
/// custom resource's metadata (its fields' `omitempty`: `managedFields: []` or `labels: {}`
/// go; unknown fields dropped, and listed).
pub fn round_trip_object_meta(metadata: &Value) -> Result<Decoded, DecodeError> {
    round_trip_named(
        go_types()?,
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        metadata,
    )
}

fn go_types() -> Result<&'static gotypes::GoTypes, DecodeError> {
    gotypes::gotypes().map_err(|e| DecodeError {
        message: format!("smd: the table of Go types does not load: {e}"),
    })
}

/// `object` through the Go type named `name` (unchanged when the table lacks it).
fn round_trip_named(
    types: &gotypes::GoTypes,
    name: &str,
    object: &Value,
) -> Result<Decoded, DecodeError> {
    let Some(index) = types.index_of(name) else {
        return Ok(Decoded {
            object: object.clone(),
            unknown_fields: Vec::new(),
        });
    };
    let mut walk = roundtrip::Walk::new(types);
    let decoded = walk.decode(object, &gotypes::Shape::Named(index), name, 0);
    if let Some(failure) = walk.error {
        return Err(DecodeError {
            message: failure.to_string(),
        });
    }
    Ok(Decoded {
        object: walk.encode(decoded),
        unknown_fields: walk.strict,
    })
}

/// The scheme's defaulting of `kind` applied to an object that went through [`round_trip`].
pub fn default(kind: &GroupVersionKind, object: &mut Value) {
    defaults::default(kind, object);
}

/// What the API server makes of a body of `kind`: [`round_trip`], then [`default`], then
/// [`round_trip_internal`].
pub fn decode(kind: &GroupVersionKind, object: &Value) -> Result<Decoded, DecodeError> {
    let mut decoded = round_trip(kind, object)?;
    default(kind, &mut decoded.object);
    round_trip_internal(kind, &mut decoded.object)?;
    Ok(decoded)
}

/// A decoded and defaulted object of `kind` converted to the internal version the server
/// holds and back: what the hand-written conversions add or drop (a DaemonSet's
/// `deprecated.daemonset.template.generation` annotation, a Secret's `stringData` folded into
/// `data`, ...), or their refusal (an annotation that is no integer) in Go's words.
pub fn round_trip_internal(kind: &GroupVersionKind, object: &mut Value) -> Result<(), DecodeError> {
    internal::round_trip_internal(kind, object)
}

/// What the registry strategy of `kind` does with the fields only the internal version holds
/// and the status it sets on create, on a create (`stored` is `None`) or on an update of
/// `stored` through `subresource` (`""`, `status`, `scale`) at `now` (RFC 3339): a DaemonSet's
/// template generation (the annotation) is 1 when created, the stored one when updated,
/// counted up when the pod template changes; a created Pod is `Pending` with its QoS class.
pub fn prepare(
    kind: &GroupVersionKind,
    stored: Option<&Value>,
    object: &mut Value,
    subresource: &str,
    now: &str,
) {
    internal::prepare(kind, stored, object, subresource, now);
}
