//! The API server's managedFields layer (`k8s.io/apimachinery/pkg/util/managedfields` at
//! v0.37.2): server-side apply and update of whole Kubernetes objects, with
//! `metadata.managedFields` read and written as Kubernetes stores them.
//!
//! A [`FieldManager`] serves one kind (and subresource) as `NewDefaultFieldManager` builds it.
//! Objects are [`Value`](smd_fieldpath::Value)s as the API server reads them (JSON numbers:
//! integers that fit are ints; [`normalize_numbers`] makes a YAML manifest's `1.0` the `1` the
//! server reads); their types come from a [`TypeResolver`] (the embedded
//! Kubernetes 1.37 schema, your own, CRDs); the time each call stamps is the `now` you pass.
//!
//! ```
//! use smd::fieldpath::yaml;
//! use smd::managedfields::{FieldManager, Timestamp, entries};
//! use smd::GroupVersionKind;
//!
//! let deployments = FieldManager::kubernetes(GroupVersionKind::new("apps", "v1", "Deployment"), "");
//! // As `kubectl get -o yaml --show-managed-fields` prints it: the autoscaler owns the replicas.
//! let live = yaml::from_str(r#"
//! apiVersion: apps/v1
//! kind: Deployment
//! metadata:
//!   name: web
//!   managedFields:
//!   - {manager: hpa, operation: Update, apiVersion: apps/v1, time: "2024-05-01T10:00:00Z",
//!      fieldsType: FieldsV1, fieldsV1: {f:spec: {f:replicas: {}}}}
//! spec: {replicas: 5}
//! "#)?;
//! let manifest = yaml::from_str("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 3}}")?;
//! let now = Timestamp::parse("2024-05-02T09:00:00Z")?;
//! let err = deployments.apply(&live, &manifest, "kubectl", false, now).unwrap_err();
//! assert_eq!(err.to_string(), r#"Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas"#);
//! // Forced, kubectl takes the field; the autoscaler, left with nothing, loses its entry.
//! let applied = deployments.apply(&live, &manifest, "kubectl", true, now)?;
//! let owners: Vec<_> = entries(&applied)?.unwrap_or_default().into_iter()
//!     .map(|e| (e.manager, e.operation, e.time)).collect();
//! assert_eq!(owners, [("kubectl".to_owned(), "Apply".to_owned(), Some(now))]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The parts, each after its Go file: [`Entry`] and [`entries`]/[`set_entries`] (the wire
//! form), [`Managed`] (decoded sets and times, `IN/managedfields.go`), [`ManagerId`] (manager
//! identity), [`ConflictError`] (`IN/conflict.go`), [`ResetFields`] and the replicas paths
//! (the 1.37 registry), [`ScaleHandler`] (`MF/scalehandler.go`), [`validate_manager`] (the
//! request checks made before the field manager runs), [`upgrade_managed_fields`] (kubectl's
//! client-side rewrite when it moves to server-side apply, client-go's `csaupgrade`),
//! [`extract`] (the applied configuration a manager owns, `MF/extract.go`).

mod cap;
mod conflict;
mod csa;
mod endpoint;
pub(crate) mod entry;
mod error;
mod extract;
mod identity;
mod last_applied;
mod managed;
mod manager;
mod object;
mod pipeline;
mod reset;
mod reset_table;
mod scale;
mod scale_object;
mod time;
mod types;
mod validate;

pub use cap::{ANCIENT_CHANGES, MAX_UPDATE_MANAGERS};
pub use conflict::ConflictError;
pub use csa::{
    KUBECTL_CLIENT_SIDE_APPLY, UpgradeError, find_fields_owners, upgrade_managed_fields,
};
pub use endpoint::{Endpoint, Written};
pub use entry::{Entry, EntryError, entries, entries_or_none, fields_v1_value, set_entries};
pub use error::{Cause, Error};
pub use extract::{ExtractError, extract};
pub use identity::{ManagerId, Operation};
pub use last_applied::LAST_APPLIED_ANNOTATION;
pub use managed::{DecodeError, MANAGED_FIELDS_NESTING, MAX_MANAGED_PATH, Managed, sort_entries};
pub use manager::FieldManager;
pub(crate) use object::gvk_of;
pub use object::{ReadError, normalize_numbers, read_object};
pub use pipeline::BEFORE_FIRST_APPLY;
pub use reset::{
    ReplicasPaths, ResetFields, custom_resource_replicas_paths, kubernetes_replicas_paths,
};
pub use scale::{SCALE_API_VERSION, ScaleHandler};
pub use scale_object::scale_object;
pub use time::{TimeError, Timestamp};
pub use types::{TypeResolver, TypingError};
pub use validate::{MAX_MANAGER_LENGTH, Request, manager_or_user_agent, validate_manager};
