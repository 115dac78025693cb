//! smd: Kubernetes Server-Side Apply as a library — what a kube-apiserver v1.37.2 answers to
//! an apply (the object it stores, every `metadata.managedFields` entry, the conflicts it
//! refuses), offline.
//!
//! Apply as the API server does it (here an autoscaler owns `spec.replicas`):
//!
//! ```
//! use smd::cluster::Cluster;
//!
//! let cluster = Cluster::new();
//! let deployment = |replicas| format!("{{apiVersion: apps/v1, kind: Deployment, metadata: {{name: web}},
//!     spec: {{replicas: {replicas}, selector: {{matchLabels: {{app: web}}}},
//!     template: {{metadata: {{labels: {{app: web}}}}, spec: {{containers: [{{name: web, image: nginx}}]}}}}}}}}");
//! assert_eq!(cluster.apply_yaml(&deployment(5), "hpa", false)?.code, 201);
//! let refused = cluster.apply_yaml(&deployment(3), "kubectl", false)?;
//! assert_eq!(refused.message(), Some("Apply failed with 1 conflict: conflict with \"hpa\": .spec.replicas"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The same cluster is a test double for a controller built on kube-rs (the `kube` feature):
//! `kube::Client::new(cluster.service(), "default")` runs the application's code unchanged,
//! with real conflicts, list and watch ([`cluster`]; a whole controller and its tests are in
//! the repository's `examples/controller`).
//!
//! * [`fieldpath`]: values, paths, field sets and their `fieldsV1` wire format;
//! * [`typed`]: values paired with their schema type: validate, field sets, compare, merge,
//!   remove and extract, reconcile;
//! * [`merge`]: the Updater: apply and update per manager, with conflicts;
//! * [`managedfields`]: the API server's layer: whole objects, `metadata.managedFields`,
//!   manager identity and times, the cap of Update managers, reset fields, scale;
//! * [`extract`]: the applied configuration a manager owns in an object, ready to change and
//!   apply again (apimachinery's `ExtractInto`, for any kind, custom resources included);
//! * [`builtin`]: built-in objects as the API server decodes and defaults them;
//! * [`patch`]: the PATCH types: JSON merge patch, JSON patch, strategic merge patch;
//! * [`validation`]: what the registry refuses with 422 `Invalid`, in its words;
//! * [`apiserver`]: an in-memory API server answering HTTP-shaped requests as a real one;
//! * [`object`]: typed objects (k8s-openapi, kube's `DynamicObject`, your structs) in and
//!   out, and the check of a typed apply body for values its author did not mean to set;
//! * [`preview`]: what an apply would do, worked out before it is sent (what `smd diff`
//!   renders);
//! * [`cluster`]: that server shared for tests, preloaded from YAML, its watches streamed;
//!   with the `kube` feature a `tower::Service` for `kube::Client`.

#![deny(missing_docs)]

pub use smd_fieldpath as fieldpath;
pub use smd_schema as schema;

pub use smd_fieldpath::Value;
pub use smd_schema::gvk::GroupVersionKind;

pub mod apiserver;
pub mod builtin;
pub mod cluster;
pub mod customresource;
pub mod managedfields;
pub mod merge;
pub mod object;
pub mod patch;
pub mod preview;
pub mod report;
pub mod typed;
pub mod validation;

pub use managedfields::{ExtractError, extract};
