//! An in-memory Kubernetes API server: the request layer around the field manager, answering
//! HTTP-shaped [`Request`]s with what a kube-apiserver v1.37.2 answers ([`Response`]: the
//! object, or a `Status` with its code, reason, details and message) and keeping the objects
//! as it keeps them (`resourceVersion` from one revision counter, `uid`, `generation`,
//! `creationTimestamp`).
//!
//! ```
//! use smd::apiserver::{ApiServer, Request, APPLY_PATCH};
//! use smd::managedfields::Timestamp;
//!
//! let mut server = ApiServer::new();
//! server.set_time(Timestamp::parse("2024-05-01T10:00:00Z")?);
//! let path = "/api/v1/namespaces/default/configmaps/web";
//! let apply = |data: &str, manager: &str| {
//!     Request::new("PATCH", path)
//!         .with_query("fieldManager", manager)
//!         .with_body(APPLY_PATCH, format!(
//!             "{{apiVersion: v1, kind: ConfigMap, metadata: {{name: web}}, data: {data}}}"))
//! };
//! let created = server.handle(&apply("{a: '1'}", "kubectl"));
//! assert_eq!(created.code, 201);
//! // Another manager applying another value conflicts, as the server says it.
//! let refused = server.handle(&apply("{a: '2'}", "helm"));
//! assert_eq!(refused.code, 409);
//! assert_eq!(refused.message(), Some("Apply failed with 1 conflict: conflict with \"kubectl\": .data.a"));
//! // A read of a missing object.
//! let missing = server.handle(&Request::new("GET", "/api/v1/namespaces/default/configmaps/db"));
//! assert_eq!((missing.code, missing.message()), (404, Some("configmaps \"db\" not found")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The parts: [`http`](Request) (the request and the answer), routing (the resources a real
//! server's discovery lists, [`Resource`]; CRDs through [`ApiServer::add_crd`]), the store
//! ([`ObjectKey`]), the refusals as `Status` objects, and the verbs ([`ApiServer::handle`]).
//! The per-kind work is the kind's [`Endpoint`](crate::managedfields::Endpoint); bodies of
//! built-in kinds go through [`crate::builtin::decode`], those of custom resources through
//! their CRD's structural schema ([`crate::customresource`]: pruned, defaulted, on every read
//! too).
//!
//! A Service gets its IP families, cluster IPs and node ports as the Service REST allocates
//! them ([`ServiceNetwork`]); a Pod goes through the ServiceAccount, Priority and
//! DefaultTolerationSeconds admission plugins ([`ServiceAccounts`]). The values only a
//! server chooses are listed ([`SERVICE_SERVER_CHOSEN_FIELDS`], [`POD_SERVER_CHOSEN_FIELDS`]).
//!
//! An object is held at its resource's storage version (an HPA at autoscaling/v2, a custom
//! resource at its CRD's storage version) and read and written at the others converted, as the
//! server converts it; a CRD whose versions convert through a webhook is refused with the
//! `kubectl get` that exports the object at the version wanted (`convert.rs`).
//!
//! A collection answers LIST (label and field selectors, `limit`/`continue`, exact and
//! not-older-than revisions) and WATCH: through [`ApiServer::handle`] a watch answers, as a
//! list of events, what it would have received once every write so far was delivered;
//! [`ApiServer::watch`] and [`ApiServer::poll_watch`] follow one as writes happen (the
//! [`crate::cluster`] streams them). The latest writes are kept for watches
//! ([`ApiServer::set_event_history`]); an older revision is `410 Gone`.
//!
//! DELETE of a collection deletes what its selectors select, each as a DELETE would.
//!
//! Namespaces need not exist; the other admission plugins (LimitRanger, webhooks) are not
//! run.

mod convert;
mod decode;
mod duplicates;
mod gojson;
pub(crate) use gojson::syntax_error as json_syntax_error;
mod http;
mod patch;
mod resources_table;
mod routes;
mod server;
mod status;
mod store;
mod yamlerror;

pub use convert::needs_conversion_webhook;
pub use http::{
    APPLY_PATCH, JSON_PATCH, MAX_REQUEST_BODY_BYTES, MERGE_PATCH, PATCH_TYPES, Request, Response,
    STRATEGIC_MERGE_PATCH,
};
pub use routes::Resource;
pub use server::{
    ApiServer, Exchange, POD_SERVER_CHOSEN_FIELDS, SERVICE_SERVER_CHOSEN_FIELDS, ServiceAccounts,
    ServiceNetwork, SetupError, Watch,
};
pub use store::{DEFAULT_EVENT_HISTORY, EventType, ObjectKey, ServerChoice};
