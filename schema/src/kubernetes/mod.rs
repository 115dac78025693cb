//! The schema of every Kubernetes 1.37 built-in type, embedded: smd works with no cluster.
//!
//! It is the reference conversion (`schemaconv.ToSchemaFromOpenAPI`, as the API server's
//! `managedfields.NewTypeConverter` calls it) of the OpenAPI v3 documents published in the
//! `k8s.io/kubernetes` v1.37.2 module (`api/openapi-spec/v3`), merged: the API server converts
//! OpenAPI v3 definitions for its built-in types (`BuildOpenAPIDefinitionsForResources` with
//! its v3 config), not the v2 spec, and the v3 definitions carry `default`s (such as a
//! container port's protocol, `TCP`) that the v2 spec lacks and that fill in missing list-map
//! keys. The Go generator writes it (`conformance/gogen`, `gogen embed`); the build derives a
//! compact form from it, decoded once on first use.
//!
//! The published spec is generated with **every alpha and beta API on**, so it has types
//! your cluster may not serve, and a type may differ from the one a cluster with other
//! feature gates serves. To use your cluster's own schema, fetch its documents
//! (`kubectl get --raw /openapi/v3/apis/apps/v1`) and convert them with
//! [`openapi::Document`](crate::openapi::Document).
//!
//! ```
//! let schema = smd_schema::kubernetes::v1_37();
//! let deployment = smd_schema::kubernetes::v1_37_gvk().lookup("apps/v1", "Deployment");
//! assert_eq!(deployment, Some("io.k8s.api.apps.v1.Deployment"));
//! let tr = schema.type_ref("io.k8s.api.apps.v1.Deployment");
//! let spec = schema.resolve(&tr).and_then(|a| a.map()).and_then(|m| m.find_field("spec"));
//! assert!(spec.is_some());
//! ```

mod compact;

use std::sync::{Arc, OnceLock};

use crate::Schema;
use crate::gvk::GvkIndex;

/// The Kubernetes release smd answers for: its embedded schema, and the API server whose
/// answers it gives (`smd version` prints it). The Go generator and the real-server build pin
/// the same release (`conformance/gogen/openapi.go`, `conformance/apiserver/build`); a test of
/// the CLI checks the three agree.
pub const KUBERNETES_VERSION: &str = "1.37.2";

static COMPACT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/v1_37.bin"));

/// The canonical form the Go generator writes: SMD's schema format as JSON (a YAML document,
/// so [`Schema::from_yaml`] reads it too).
pub const V1_37_SCHEMA_JSON: &str = include_str!("v1_37.schema.json");

/// The group/version/kind index the Go generator writes, as JSON.
pub const V1_37_GVK_JSON: &str = include_str!("v1_37.gvk.json");

fn embedded() -> &'static (Arc<Schema>, GvkIndex) {
    static EMBEDDED: OnceLock<(Arc<Schema>, GvkIndex)> = OnceLock::new();
    // The bytes are built with the crate and a test decodes them: an empty schema here would
    // be a build defect, never an input's fault.
    EMBEDDED.get_or_init(|| {
        let (schema, index) = compact::decode(COMPACT).unwrap_or_default();
        (Arc::new(schema), index)
    })
}

/// The built-in Kubernetes 1.37 schema, decoded on first use (a few milliseconds) and
/// shared by every thread.
pub fn v1_37() -> &'static Schema {
    &embedded().0
}

/// [`v1_37`] as a shared handle, for values typed by it (`smd`'s typed values hold an
/// `Arc<Schema>`), without copying the schema.
pub fn v1_37_shared() -> Arc<Schema> {
    embedded().0.clone()
}

/// The group/version/kind → type index of the built-in Kubernetes 1.37 types.
pub fn v1_37_gvk() -> &'static GvkIndex {
    &embedded().1
}

/// Decodes the embedded schema afresh, bypassing the shared copy (for benchmarks and tests).
#[doc(hidden)]
pub fn decode_v1_37() -> Option<(Schema, GvkIndex)> {
    compact::decode(COMPACT).ok()
}
