//! An in-memory cluster for tests: [`ApiServer`] (the write path a kube-apiserver v1.37.2
//! runs, list and watch included) shared between threads and clients, preloaded with CRDs and
//! objects from YAML, its watches woken by every write. With the `kube` feature,
//! `Cluster::service` is a `tower::Service` that `kube::Client::new` runs application code
//! against unchanged.
//!
//! ```
//! use smd::cluster::Cluster;
//!
//! let cluster = Cluster::from_yaml(r#"
//! apiVersion: v1
//! kind: ConfigMap
//! metadata: {name: settings, namespace: default}
//! data: {mode: fast}
//! "#)?;
//! // Another manager applies its own value of the same field: refused, as a server refuses it.
//! let applied = cluster.apply_yaml(
//!     "{apiVersion: v1, kind: ConfigMap, metadata: {name: settings, namespace: default}, data: {mode: slow}}",
//!     "my-controller",
//!     false,
//! )?;
//! assert_eq!(applied.code, 409);
//! assert_eq!(
//!     applied.message(),
//!     Some("Apply failed with 1 conflict: conflict with \"smd-preload\" using v1: .data.mode")
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "kube")]
mod service;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::Waker;

use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

use crate::apiserver::{APPLY_PATCH, ApiServer, Request, Response, SetupError, Watch};
use crate::managedfields::Timestamp;

#[cfg(feature = "kube")]
pub use service::{ClusterService, ResponseBody};

/// The manager (User-Agent) of the objects [`Cluster::load`] creates.
pub const PRELOAD_MANAGER: &str = "smd-preload";

/// Why YAML could not be loaded into a cluster.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The text is not YAML.
    #[error("document {document}: {source}")]
    Yaml {
        /// The document, counted from 1 (0: the stream as a whole).
        document: usize,
        /// The reader's error.
        source: smd_value::Error,
    },
    /// A CRD the server cannot serve.
    #[error("document {document}: {source}")]
    Crd {
        /// The document, counted from 1.
        document: usize,
        /// Why.
        source: SetupError,
    },
    /// The server refused to create an object.
    #[error("document {document}: {kind} {name}: {code} {message}")]
    Refused {
        /// The document, counted from 1.
        document: usize,
        /// The object's kind.
        kind: String,
        /// The object's name.
        name: String,
        /// The server's status code.
        code: u16,
        /// The server's message.
        message: String,
    },
}

/// An in-memory cluster: one [`ApiServer`] behind a lock, shared by its clones.
#[derive(Debug, Clone, Default)]
pub struct Cluster {
    shared: Arc<Mutex<Shared>>,
}

#[derive(Debug, Default)]
struct Shared {
    server: ApiServer,
    /// A fixed clock; `None`: the system's.
    clock: Option<Timestamp>,
    /// The watches waiting for a write, by id.
    waiting: BTreeMap<u64, Waker>,
    #[cfg(feature = "kube")]
    next_watch: u64,
}

impl Cluster {
    /// An empty cluster serving the built-in resources of Kubernetes 1.37.
    pub fn new() -> Cluster {
        Cluster::default()
    }

    /// A cluster around a prepared server.
    pub fn from_server(server: ApiServer) -> Cluster {
        Cluster {
            shared: Arc::new(Mutex::new(Shared {
                server,
                ..Shared::default()
            })),
        }
    }

    /// A cluster holding what `yaml` holds ([`Cluster::load`]).
    pub fn from_yaml(yaml: &str) -> Result<Cluster, LoadError> {
        let cluster = Cluster::new();
        cluster.load(yaml)?;
        Ok(cluster)
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        // A panic while holding the lock (in a caller's closure) leaves the server as it was
        // between requests: it stays usable.
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Loads a YAML stream: its CustomResourceDefinitions are served (and stored), then its
    /// other objects are created in order, each by a POST from [`PRELOAD_MANAGER`], so that
    /// they hold what a server gives a new object (uid, resourceVersion, managedFields). An
    /// object already holding a `resourceVersion` (one exported from a cluster) is put in as
    /// it is instead.
    pub fn load(&self, yaml: &str) -> Result<(), LoadError> {
        let documents = smd_fieldpath::yaml::documents(yaml).map_err(|source| LoadError::Yaml {
            document: 0,
            source,
        })?;
        let mut shared = self.lock();
        let now = shared.now();
        for (i, object) in documents.iter().enumerate() {
            let document = i + 1;
            if object.is_null() {
                continue;
            }
            let gvk = kind_of(object);
            if gvk.group == "apiextensions.k8s.io" && gvk.kind == "CustomResourceDefinition" {
                shared
                    .server
                    .add_crd(object)
                    .map_err(|source| LoadError::Crd { document, source })?;
            }
            let name = object.str_at(&["metadata", "name"]).to_owned();
            let refused = |code: u16, message: &str| LoadError::Refused {
                document,
                kind: gvk.kind.clone(),
                name: name.clone(),
                code,
                message: message.to_owned(),
            };
            let Some(resource) = shared.server.resource_of_kind(&gvk).cloned() else {
                return Err(refused(404, "no resource serves this kind"));
            };
            let namespace = match object.str_at(&["metadata", "namespace"]) {
                "" if resource.namespaced => "default",
                ns => ns,
            };
            if !object.str_at(&["metadata", "resourceVersion"]).is_empty() {
                let path = ApiServer::object_path(&resource, namespace, &name);
                if let Some(key) = shared.server.key_of(&path) {
                    shared.server.put_object(key, object.clone());
                }
                continue;
            }
            let path = ApiServer::object_path(&resource, namespace, "");
            let request = Request::new("POST", path)
                .with_user_agent(PRELOAD_MANAGER)
                .with_json("application/json", object);
            let response = shared.server.handle_at(&request, now);
            if !response.is_success() {
                return Err(refused(response.code, response.message().unwrap_or("")));
            }
        }
        shared.wake();
        Ok(())
    }

    /// Answers `request` as the API server would now, waking the watches a write concerns.
    pub fn handle(&self, request: &Request) -> Response {
        let mut shared = self.lock();
        let before = shared.server.revision();
        let now = shared.now();
        let response = shared.server.handle_at(request, now);
        if shared.server.revision() != before {
            shared.wake();
        }
        response
    }

    /// Applies `object` (Server-Side Apply) as `manager`, forcing conflicts when `force`.
    pub fn apply(&self, object: &Value, manager: &str, force: bool) -> Response {
        let mut request = Request::new("PATCH", self.path_of(object))
            .with_query("fieldManager", manager)
            .with_json(APPLY_PATCH, object);
        if force {
            request = request.with_query("force", "true");
        }
        self.handle(&request)
    }

    /// [`Cluster::apply`] of a typed object (a k8s-openapi struct, a `DynamicObject`, a CRD's
    /// struct), serialised as a client sends it. Check such a body with
    /// [`crate::object::apply_warnings`] for the defaults it may carry.
    pub fn apply_object<T: serde::Serialize>(
        &self,
        object: &T,
        manager: &str,
        force: bool,
    ) -> Result<Response, crate::object::ObjectError> {
        Ok(self.apply(&crate::object::to_value(object)?, manager, force))
    }

    /// [`Cluster::apply`] of an object written in YAML.
    pub fn apply_yaml(
        &self,
        yaml: &str,
        manager: &str,
        force: bool,
    ) -> Result<Response, smd_value::Error> {
        let object = smd_fieldpath::yaml::from_str(yaml)?;
        Ok(self.apply(&object, manager, force))
    }

    /// The object of `api_version` and `kind` named `name` in `namespace` (ignored for a
    /// cluster-scoped kind), as a GET answers it.
    pub fn get(&self, api_version: &str, kind: &str, namespace: &str, name: &str) -> Option<Value> {
        let gvk = GroupVersionKind::from_api_version(api_version, kind);
        let path = {
            let shared = self.lock();
            let resource = shared.server.resource_of_kind(&gvk)?;
            ApiServer::object_path(resource, namespace, name)
        };
        let response = self.handle(&Request::new("GET", path));
        (response.code == 200).then_some(response.body)
    }

    /// Stamps every request with `now` from here on (by default, the system's clock).
    pub fn set_time(&self, now: Timestamp) {
        self.lock().clock = Some(now);
    }

    /// Runs `f` on the server itself (to add a CRD, set the event history, inspect the
    /// store); watches are woken afterwards when `f` wrote.
    pub fn server<R>(&self, f: impl FnOnce(&mut ApiServer) -> R) -> R {
        let mut shared = self.lock();
        let before = shared.server.revision();
        let result = f(&mut shared.server);
        if shared.server.revision() != before {
            shared.wake();
        }
        result
    }

    /// Begins a watch (`request`: a GET of a collection with `watch=true`).
    pub fn watch(&self, request: &Request) -> Result<Watch, Response> {
        self.lock().server.watch(request)
    }

    /// The events of `watch` since it was last read.
    pub fn poll_watch(&self, watch: &mut Watch) -> Vec<Value> {
        self.lock().server.poll_watch(watch)
    }

    /// Where `object` is: its resource's path, or (a kind no resource serves) the path such
    /// a resource would have, which the router answers 404.
    fn path_of(&self, object: &Value) -> String {
        let gvk = kind_of(object);
        let name = object.str_at(&["metadata", "name"]);
        let namespace = match object.str_at(&["metadata", "namespace"]) {
            "" => "default",
            ns => ns,
        };
        let shared = self.lock();
        match shared.server.resource_of_kind(&gvk) {
            Some(resource) => ApiServer::object_path(resource, namespace, name),
            None => format!(
                "/apis/{}/{}/namespaces/{namespace}/{}/{name}",
                gvk.group,
                gvk.version,
                gvk.kind.to_lowercase()
            ),
        }
    }

    /// Reads `watch`'s events, or registers `waker` (under `id`) to be woken by the next
    /// write when there are none yet.
    #[cfg(feature = "kube")]
    fn poll_or_wait(&self, watch: &mut Watch, id: u64, waker: &Waker) -> Vec<Value> {
        let mut shared = self.lock();
        let events = shared.server.poll_watch(watch);
        if events.is_empty() && !watch.is_ended() {
            shared.waiting.insert(id, waker.clone());
        }
        events
    }

    #[cfg(feature = "kube")]
    fn watch_id(&self) -> u64 {
        let mut shared = self.lock();
        shared.next_watch += 1;
        shared.next_watch
    }

    #[cfg(feature = "kube")]
    fn forget_watch(&self, id: u64) {
        self.lock().waiting.remove(&id);
    }
}

impl Shared {
    fn now(&self) -> Timestamp {
        self.clock.unwrap_or_else(Timestamp::now)
    }

    fn wake(&mut self) {
        for (_, waker) in std::mem::take(&mut self.waiting) {
            waker.wake();
        }
    }
}

fn kind_of(object: &Value) -> GroupVersionKind {
    GroupVersionKind::from_api_version(object.str_at(&["apiVersion"]), object.str_at(&["kind"]))
}
