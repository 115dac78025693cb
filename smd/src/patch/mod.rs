//! The patch types of the API server's PATCH requests, applied as Kubernetes 1.37.2 applies
//! them (`k8s.io/apiserver` v0.37.2, `pkg/endpoints/handlers/patch.go`):
//!
//! * [`merge`]: JSON merge patch (RFC 7386, `application/merge-patch+json`), as
//!   `gopkg.in/evanphx/json-patch.v4` v4.13.0's `MergePatch` does it, quirks included;
//! * [`json`]: JSON patch (RFC 6902, `application/json-patch+json`), as that module's
//!   `DecodePatch` and `Apply` do it with the server's settings (negative indices, copies limited
//!   to 3 MiB in all, at most 10,000 operations);
//! * strategic merge patch (`application/strategic-merge-patch+json`), as
//!   `k8s.io/apimachinery/pkg/util/strategicpatch` does it with the patch metadata of the Go
//!   types, is to come.
//!
//! Each takes the current object and the patch body as values and returns the patched object.
//! Decoding the result into the Go type (and the errors that may bring) is the caller's step, as
//! it is the server's.
//!
//! ```
//! use smd::fieldpath::Value;
//!
//! let live = Value::from_json(r#"{"metadata": {"name": "a", "labels": {"x": "1"}}}"#)?;
//! let patch = Value::from_json(r#"{"metadata": {"labels": {"x": null, "y": "2"}}}"#)?;
//! let merged = smd::patch::merge(&live, &patch)?;
//! assert_eq!(merged, Value::from_json(r#"{"metadata": {"labels": {"y": "2"}, "name": "a"}}"#)?);
//!
//! let ops = Value::from_json(r#"[{"op": "remove", "path": "/metadata/labels/z"}]"#)?;
//! let err = smd::patch::json(&live, &ops).unwrap_err();
//! assert_eq!(err.to_string(), "error in remove for path: '/metadata/labels/z': \
//!     Unable to remove nonexistent key: z: missing value");
//! assert_eq!(err.status(), 422);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod json_patch;
mod merge_patch;
mod node;
mod strconv;

pub use error::PatchError;
pub use json_patch::{MAX_COPY_BYTES, MAX_OPERATIONS, json};
pub use merge_patch::merge;
