//! [`ApiServer`]: requests answered as a kube-apiserver answers them, objects kept as it keeps
//! them. Each verb is one method; the per-kind work (the field manager, reset fields, the
//! scale round trip) is the kind's [`Endpoint`].

use std::collections::BTreeMap;
use std::sync::Arc;

use smd_fieldpath::{Map, Value};
use smd_schema::gvk::GroupVersionKind;

use super::convert;
use super::decode::{self, Target as DecodeTarget, content_type};
use super::http::{APPLY_PATCH, MAX_REQUEST_BODY_BYTES, Request, Response};
use super::patch::{self, PatchFailure};
use super::routes::{self, Resource, Target};
use super::status::{self, Details};
use super::store::{EventType, ObjectKey, ServerChoice, Store};
use crate::customresource::{self, Structural, Validation};
use crate::validation;

// DELETE, in its own file: the generic store's deletion and the registries' choices.
#[path = "delete.rs"]
mod delete;
#[path = "fieldlabels.rs"]
mod fieldlabels;
#[path = "list.rs"]
mod list;
#[path = "selector.rs"]
mod selector;
pub use list::Watch;
// What runs between the field manager and the strategy (a Pod's admission plugins, the
// Service REST and its allocators), in files of their own.
#[path = "admission.rs"]
mod admission;
#[path = "allocate.rs"]
mod allocate;
#[path = "service.rs"]
mod service;
use crate::managedfields::{
    Cause, Endpoint, Error, Request as OptionsKind, Timestamp, TypeResolver, gvk_of,
    manager_or_user_agent, validate_manager,
};
pub use admission::{POD_SERVER_CHOSEN_FIELDS, ServiceAccounts};
pub use allocate::ServiceNetwork;
pub use service::SERVICE_SERVER_CHOSEN_FIELDS;

/// Why a CRD cannot be served.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// The CRD does not convert to a schema smd types objects with.
    #[error("CustomResourceDefinition {name}: {message}")]
    Crd {
        /// The CRD's name.
        name: String,
        /// What is wrong.
        message: String,
    },
}

/// An in-memory Kubernetes API server: the resources of Kubernetes 1.37 (and of the CRDs
/// added), the objects created through it, and one revision counter.
///
/// Times: each request is stamped with the server's clock ([`ApiServer::set_time`]), or with
/// the time given to [`ApiServer::handle_at`]. Uids are a counter written as a UUID, so runs
/// are reproducible.
///
/// A clone shares the resources and the endpoints built so far, and copies the store: a
/// server prepared once (CRDs added, endpoints built) serves many independent requests.
#[derive(Debug, Clone)]
pub struct ApiServer {
    resources: Arc<Vec<Resource>>,
    pub(super) crds: Vec<Value>,
    /// The structural schema of each custom resource version that has one, by group,
    /// plural and version.
    schemas: BTreeMap<(String, String, String), Arc<Structural>>,
    /// The validation of each custom resource version, by group, plural and version.
    validations: BTreeMap<(String, String, String), Arc<Validation>>,
    types: TypeResolver,
    endpoints: BTreeMap<(String, String, String), Arc<Endpoint>>,
    store: Store,
    now: Timestamp,
    /// The field manager's error behind the last refusal, for [`ApiServer::exchange`].
    refusal: Option<Error>,
    /// The cluster's service network (what Services are allocated from).
    network: ServiceNetwork,
    /// Which ServiceAccounts a Pod may name.
    accounts: ServiceAccounts,
}

/// A request's answer, with the field-manager layer's error behind a refusal kept whole
/// (its conflicts, the managedFields entry at fault) for callers that report it.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    /// What the server answers.
    pub response: Response,
    /// The error behind the answer when the field manager (or the kind's endpoint) refused.
    pub error: Option<Error>,
    /// The values this server made up while answering (a new object's uid and creation
    /// time, a generated name, allocated addresses and ports): a real server chooses its
    /// own, so an offline answer shows where they go, not what they are.
    pub server_chosen: Vec<ServerChoice>,
}

impl Default for ApiServer {
    fn default() -> Self {
        ApiServer::new()
    }
}

/// What one request asks, once routed.
struct Call<'a> {
    request: &'a Request,
    /// The body already parsed by the caller ([`ApiServer::exchange_parsed`]).
    parsed: Option<&'a Value>,
    resource: Resource,
    target: Target,
    key: ObjectKey,
    dry_run: bool,
    now: Timestamp,
}

impl ApiServer {
    /// A server of the built-in resources, typing objects with the embedded Kubernetes 1.37
    /// schema, its clock at the Unix epoch.
    pub fn new() -> ApiServer {
        ApiServer::with_types(TypeResolver::kubernetes())
    }

    /// A server typing objects with `types` (a served OpenAPI document, a schema extended
    /// with CRDs).
    pub fn with_types(types: TypeResolver) -> ApiServer {
        ApiServer {
            resources: Arc::new(routes::builtin()),
            crds: Vec::new(),
            schemas: BTreeMap::new(),
            validations: BTreeMap::new(),
            types,
            endpoints: BTreeMap::new(),
            store: Store::default(),
            now: Timestamp::from_unix(0),
            refusal: None,
            network: ServiceNetwork::default(),
            accounts: ServiceAccounts::default(),
        }
    }

    /// Sets the service network Services are allocated from.
    pub fn set_service_network(&mut self, network: ServiceNetwork) {
        self.network = network;
    }

    /// Keeps the latest `writes` writes for watches (by default [`DEFAULT_EVENT_HISTORY`]):
    /// a watch resuming from an older `resourceVersion`, or an exact list at one, is answered
    /// `410 Gone`, as a real server answers one its watch cache no longer reaches.
    ///
    /// [`DEFAULT_EVENT_HISTORY`]: super::DEFAULT_EVENT_HISTORY
    pub fn set_event_history(&mut self, writes: usize) {
        self.store.set_history(writes);
    }

    /// The revision of the latest write (the `resourceVersion` a list answers now).
    pub fn revision(&self) -> u64 {
        self.store.revision()
    }

    /// Sets how the ServiceAccount admission plugin finds the account a Pod names.
    pub fn set_service_accounts(&mut self, accounts: ServiceAccounts) {
        self.accounts = accounts;
    }

    /// Serves the custom resources of `crd` (an `apiextensions.k8s.io/v1`
    /// `CustomResourceDefinition`), as the server does once the CRD is established.
    pub fn add_crd(&mut self, crd: &Value) -> Result<(), SetupError> {
        let name = nested_str(crd, &["metadata", "name"]).to_owned();
        let converted = smd_schema::crd::convert(crd).map_err(|e| SetupError::Crd {
            name: name.clone(),
            message: e.to_string(),
        })?;
        self.types = self
            .types
            .clone()
            .with_crds([converted])
            .map_err(|e| SetupError::Crd {
                name: name.clone(),
                message: e.to_string(),
            })?;
        let served = routes::custom(crd);
        let resources = Arc::make_mut(&mut self.resources);
        resources.retain(|r| {
            !served
                .iter()
                .any(|s| s.group == r.group && s.plural == r.plural)
        });
        resources.extend(served);
        let group = nested_str(crd, &["spec", "group"]).to_owned();
        let plural = nested_str(crd, &["spec", "names", "plural"]).to_owned();
        self.schemas
            .retain(|(g, p, _), _| !(*g == group && *p == plural));
        self.validations
            .retain(|(g, p, _), _| !(*g == group && *p == plural));
        let versions = get(crd, &["spec", "versions"])
            .and_then(Value::as_list)
            .unwrap_or_default();
        for version in versions {
            let version = nested_str(version, &["name"]);
            self.validations.insert(
                (group.clone(), plural.clone(), version.to_owned()),
                Arc::new(Validation::of_version(crd, version)),
            );
            if let Some(schema) = Structural::of_version(crd, version) {
                self.schemas.insert(
                    (group.clone(), plural.clone(), version.to_owned()),
                    Arc::new(schema),
                );
            }
        }
        self.crds.push(crd.clone());
        // What is stored is read with the new schema (its defaults), as the storage decodes
        // every object it reads.
        let stored: Vec<(ObjectKey, Value)> = self
            .store
            .iter()
            .filter(|(k, _)| k.group == group && k.plural == plural)
            .filter_map(|(k, _)| self.store.written(k).map(|w| (k.clone(), w.clone())))
            .collect();
        for (key, written) in stored {
            let version = gvk_of(&written).version;
            let mut read = written.clone();
            let schema = self.schema_of(&group, &plural, &version);
            customresource::read(&mut read, schema.as_deref());
            self.store.insert_written(key, read, written);
        }
        // Every endpoint types with the new schema.
        self.endpoints.clear();
        Ok(())
    }

    /// Sets the clock: the time the next requests are stamped with.
    pub fn set_time(&mut self, now: Timestamp) {
        self.now = now;
    }

    /// Serves `resource` (a kind a schema types that no discovery document lists, such as a
    /// custom resource known only from a cluster's OpenAPI), in place of one of the same group,
    /// version and plural.
    pub fn add_resource(&mut self, resource: Resource) {
        let resources = Arc::make_mut(&mut self.resources);
        resources.retain(|r| {
            !(r.group == resource.group
                && r.version == resource.version
                && r.plural == resource.plural)
        });
        resources.push(resource);
        self.endpoints.clear();
    }

    /// The clock.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// The resource served at `group`/`version` as `plural`.
    pub fn resource(&self, group: &str, version: &str, plural: &str) -> Option<&Resource> {
        self.resources
            .iter()
            .find(|r| r.group == group && r.version == version && r.plural == plural)
    }

    /// The resource whose objects are of `kind`.
    pub fn resource_of_kind(&self, kind: &GroupVersionKind) -> Option<&Resource> {
        self.resources
            .iter()
            .find(|r| r.group == kind.group && r.version == kind.version && r.kind == kind.kind)
    }

    /// The URL path of the object `name` of `resource` in `namespace` (ignored for a
    /// cluster-scoped resource).
    /// Each part is percent-encoded, so a name holding `/` stays one segment.
    pub fn object_path(resource: &Resource, namespace: &str, name: &str) -> String {
        let e = routes::encode_segment;
        let mut path = if resource.group.is_empty() {
            format!("/api/{}", e(&resource.version))
        } else {
            format!("/apis/{}/{}", e(&resource.group), e(&resource.version))
        };
        if resource.namespaced {
            path.push_str(&format!("/namespaces/{}", e(namespace)));
        }
        path.push('/');
        path.push_str(&e(&resource.plural));
        if !name.is_empty() {
            path.push('/');
            path.push_str(&e(name));
        }
        path
    }

    /// The key of the object a URL path names (its subresource, if any, ignored); `None` when
    /// the path names no object of a served resource.
    pub fn key_of(&self, path: &str) -> Option<ObjectKey> {
        let target = routes::parse(path, |g, v, p| self.resource(g, v, p).map(|r| r.namespaced))?;
        (!target.name.is_empty()).then(|| {
            ObjectKey::new(
                &target.group,
                &target.plural,
                &target.namespace,
                &target.name,
            )
        })
    }

    /// The stored object at `key`.
    pub fn object(&self, key: &ObjectKey) -> Option<&Value> {
        self.store.get(key)
    }

    /// Every stored object, by key.
    pub fn objects(&self) -> impl Iterator<Item = (&ObjectKey, &Value)> {
        self.store.iter()
    }

    /// Puts `object` in the store at `key` (an object read from a cluster): later writes take
    /// revisions after its `resourceVersion`. A built-in kind's object is held as the server
    /// reads one from storage, decoded into its Go type and defaulted ([`crate::builtin::decode`]):
    /// an object a cluster returned comes back unchanged, a hand-written one gains what the
    /// server would have added (so that a diff does not show defaults as changes). An object
    /// that does not decode is kept as it is; the write that meets it reports it.
    pub fn put_object(&mut self, key: ObjectKey, object: Value) {
        self.store
            .observe_revision(nested_str(&object, &["metadata", "resourceVersion"]));
        let kind = gvk_of(&object);
        if !crate::builtin::is_builtin(&kind) {
            // A custom resource is held as the storage reads one: coerced and defaulted by its
            // version's schema.
            let schema = self.schema_of(&key.group, &key.plural, &kind.version);
            if schema.is_some() || self.serves_custom(&key.group, &key.plural) {
                let mut read = object.clone();
                customresource::read(&mut read, schema.as_deref());
                self.store.insert_written(key, read, object);
            } else {
                self.store.insert(key, object);
            }
            return;
        }
        // What a read gives is what decoding gives (`builtin::decode`: the round trip, the
        // defaults, the internal version's round trip); what the storage wrote is the round
        // trip and the internal version's alone. The round trip is made once for both.
        let (read, written) = match crate::builtin::round_trip(&kind, &object) {
            Err(_) => (object.clone(), object),
            Ok(d) => {
                let mut written = d.object.clone();
                // The conversion's refusal is decode's too: then `read` is the object as given.
                let _ = crate::builtin::round_trip_internal(&kind, &mut written);
                let mut read = d.object;
                crate::builtin::default(&kind, &mut read);
                match crate::builtin::round_trip_internal(&kind, &mut read) {
                    Ok(()) => (read, written),
                    Err(_) => (object, written),
                }
            }
        };
        self.store.insert_written(key, read, written);
    }

    /// The structural schema of a custom resource's version.
    fn schema_of(&self, group: &str, plural: &str, version: &str) -> Option<Arc<Structural>> {
        self.schemas
            .get(&(group.to_owned(), plural.to_owned(), version.to_owned()))
            .cloned()
    }

    /// The validation of a custom resource's version.
    fn validation_of(&self, group: &str, plural: &str, version: &str) -> Option<Arc<Validation>> {
        self.validations
            .get(&(group.to_owned(), plural.to_owned(), version.to_owned()))
            .cloned()
    }

    /// Whether a CRD serves `group`/`plural`.
    fn serves_custom(&self, group: &str, plural: &str) -> bool {
        self.resources
            .iter()
            .any(|r| r.custom && r.group == group && r.plural == plural)
    }

    /// What a read of `written` (an object as the storage wrote it) gives: a built-in one is
    /// decoded again, so defaulted (a claim's empty status reads as `phase: Pending`); a
    /// custom resource is coerced and defaulted by its schema.
    pub(super) fn read_back(&self, resource: &Resource, written: &Value) -> Value {
        let mut read = written.clone();
        if resource.custom {
            let schema = self.schema_of(&resource.group, &resource.plural, &resource.version);
            customresource::read(&mut read, schema.as_deref());
            return read;
        }
        if !resource.custom && crate::builtin::is_builtin(&resource.gvk()) {
            let kind = resource.gvk();
            crate::builtin::default(&kind, &mut read);
            if crate::builtin::round_trip_internal(&kind, &mut read).is_err() {
                return written.clone();
            }
            if core_plural(resource) == "services" {
                service::default_on_read(&mut read);
            }
        }
        read
    }

    /// Removes the object at `key` from the store, without a request.
    pub fn remove_object(&mut self, key: &ObjectKey) -> Option<Value> {
        self.store.remove(key)
    }

    /// The endpoint (field managers, reset fields, scale) of `resource`, as this server uses
    /// it: a built-in kind's with [`Endpoint::with_builtin_decoding`].
    pub fn endpoint(&mut self, resource: &Resource) -> Option<&Endpoint> {
        let key = (
            resource.group.clone(),
            resource.version.clone(),
            resource.plural.clone(),
        );
        if !self.endpoints.contains_key(&key) {
            let endpoint = self.field_manager_endpoint(resource)?;
            let decodes =
                self.crd_of(resource).is_none() && crate::builtin::is_builtin(&resource.gvk());
            let endpoint = if decodes {
                endpoint.with_builtin_decoding()
            } else {
                endpoint
            };
            self.endpoints.insert(key.clone(), Arc::new(endpoint));
        }
        self.endpoints.get(&key).map(AsRef::as_ref)
    }

    /// The endpoint of `resource` as the field-manager layer serves it alone: the field
    /// managers of its main resource and subresources, its reset fields, its scale round trip,
    /// without the decoding and defaulting this server adds to a built-in kind's merged
    /// object. What [`Endpoint::apply`] answers with it is the field manager's own result,
    /// as Go's field manager gives it (the `kind: fieldmanager` goldens), under the rest of
    /// the server's pipeline. `None` when the resource's CRD does not serve its version.
    pub fn field_manager_endpoint(&self, resource: &Resource) -> Option<Endpoint> {
        // A resource added without its CRD (known from a schema alone) has the built-in
        // kinds' endpoint: its main resource, resetting nothing.
        match self.crd_of(resource) {
            Some(crd) => Endpoint::custom_resource(crd, &resource.version, self.types.clone()),
            None => Some(Endpoint::kubernetes_with_types(
                resource.gvk(),
                self.types.clone(),
            )),
        }
    }

    /// Answers `request` at the server's clock.
    pub fn handle(&mut self, request: &Request) -> Response {
        let now = self.now;
        self.handle_at(request, now)
    }

    /// Answers `request` as the API server would at `now`.
    pub fn handle_at(&mut self, request: &Request, now: Timestamp) -> Response {
        self.exchange(request, now).response
    }

    /// [`ApiServer::handle_at`], with the field manager's error behind a refusal.
    pub fn exchange(&mut self, request: &Request, now: Timestamp) -> Exchange {
        self.refusal = None;
        self.store.take_chosen();
        let response = self.route(request, None, now);
        Exchange {
            response,
            error: self.refusal.take(),
            server_chosen: self.store.take_chosen(),
        }
    }

    /// The Status of an error of the field-manager layer, the error kept for
    /// [`ApiServer::exchange`].
    fn refuse(&mut self, error: Error) -> Response {
        let response = status::from_error(&error);
        self.refusal = Some(error);
        response
    }

    /// [`ApiServer::exchange`] of a request whose body the caller holds parsed (`body`; the
    /// request's bytes are not read, nor their length limited): what a client that built
    /// the object sends, without writing and reading it back.
    pub fn exchange_parsed(&mut self, request: &Request, body: &Value, now: Timestamp) -> Exchange {
        self.refusal = None;
        self.store.take_chosen();
        let response = self.route(request, Some(body), now);
        Exchange {
            response,
            error: self.refusal.take(),
            server_chosen: self.store.take_chosen(),
        }
    }

    fn route(&mut self, request: &Request, parsed: Option<&Value>, now: Timestamp) -> Response {
        if let Some(watch) = list::legacy_watch(request) {
            return self.route(&watch, parsed, now);
        }
        let resources = &self.resources;
        let Some(target) = routes::parse(&request.path, |g, v, p| {
            resources
                .iter()
                .find(|r| r.group == g && r.version == v && r.plural == p)
                .map(|r| r.namespaced)
        }) else {
            return status::no_route();
        };
        let Some(resource) = self
            .resource(&target.group, &target.version, &target.plural)
            .cloned()
        else {
            return status::no_route();
        };
        let served = match target.subresource.as_str() {
            "" => true,
            "status" => resource.status,
            "scale" => resource.scale,
            _ => false,
        };
        if !served {
            return self.other_subresource(request, &resource, &target);
        }
        if request.method == "DELETE" && target.name.is_empty() && target.subresource.is_empty() {
            if !resource.takes("deletecollection")
                || (resource.namespaced && target.namespace.is_empty())
            {
                return status::method_not_allowed();
            }
            let dry_run = request.query_values("dryRun");
            if let Some(refusal) = check_options(request, "delete", &dry_run) {
                return refusal;
            }
            return self.delete_collection(request, &resource, &target, now);
        }
        if resource.namespaced && target.namespace.is_empty() && request.method != "GET" {
            // Across namespaces the router serves reads of the collection only.
            return status::no_route();
        }
        let verb = match (request.method.as_str(), target.name.is_empty()) {
            ("GET", false) => "get",
            ("GET", true) if target.subresource.is_empty() => {
                let watch = matches!(
                    request.query_value("watch"),
                    "1" | "t" | "T" | "true" | "TRUE" | "True"
                );
                let verb = if watch { "watch" } else { "list" };
                if !resource.takes(verb) {
                    return status::method_not_allowed();
                }
                let deprecation = deprecation_warning(&resource);
                let response = if watch {
                    self.watch_now(request, &resource, &target)
                } else {
                    self.list(request, &resource, &target)
                };
                return match deprecation {
                    Some(w) => with_warnings(vec![w], response),
                    None => response,
                };
            }
            ("POST", true) => "create",
            ("PUT", false) => "update",
            ("PATCH", false) => "patch",
            ("DELETE", false) => "delete",
            _ => return status::method_not_allowed(),
        };
        if !target.subresource.is_empty() && !matches!(verb, "get" | "update" | "patch") {
            return status::method_not_allowed();
        }
        if target.subresource.is_empty() && !resource.takes(verb) {
            return status::method_not_allowed();
        }
        // A deprecated kind's handler warns first, whatever the request then answers.
        let deprecation = deprecation_warning(&resource);
        let response = self.serve(request, parsed, now, resource, target, verb);
        match deprecation {
            Some(w) => with_warnings(vec![w], response),
            None => response,
        }
    }

    /// The handler of a served resource's verb, once the route is found.
    fn serve(
        &mut self,
        request: &Request,
        parsed: Option<&Value>,
        now: Timestamp,
        resource: Resource,
        target: Target,
        verb: &str,
    ) -> Response {
        if parsed.is_none() && request.body.len() > MAX_REQUEST_BODY_BYTES {
            return status::too_large(MAX_REQUEST_BODY_BYTES);
        }
        let dry_run = request.query_values("dryRun");
        // A deletion's options are its body's when it has one (delete.rs reads and checks them).
        if verb != "delete"
            && let Some(refusal) = check_options(request, verb, &dry_run)
        {
            return refusal;
        }
        let key = ObjectKey::new(
            &target.group,
            &target.plural,
            &target.namespace,
            &target.name,
        );
        let call = Call {
            request,
            parsed,
            resource,
            target,
            key,
            dry_run: !dry_run.is_empty(),
            now,
        };
        match verb {
            "get" => self.get(&call),
            "create" => self.create(call),
            "update" => self.update(call),
            "patch" if content_type(request) == APPLY_PATCH => self.apply(call),
            "patch" => self.patch(call),
            _ => self.delete(&call),
        }
    }

    /// A request to a subresource the real server has and smd does not serve (a
    /// ServiceAccount's `token`, a Pod's `log`): a verb it does not take is refused (405); of
    /// an object that does not exist, the server's handler answers 404 naming the object,
    /// which smd can answer too. Of an existing object smd has no answer, and says that it
    /// finds no such resource.
    fn other_subresource(
        &self,
        request: &Request,
        resource: &Resource,
        target: &Target,
    ) -> Response {
        let Some(verbs) = routes::other_subresource_verbs(resource, &target.subresource) else {
            return status::no_route();
        };
        let verb = match request.method.as_str() {
            "GET" => "get",
            "POST" => "create",
            "PUT" => "update",
            "PATCH" => "patch",
            "DELETE" => "delete",
            _ => return status::method_not_allowed(),
        };
        if target.name.is_empty() || !verbs.contains(&verb) {
            return status::method_not_allowed();
        }
        let key = ObjectKey::new(
            &target.group,
            &target.plural,
            &target.namespace,
            &target.name,
        );
        if self.store.contains(&key) {
            return status::no_route();
        }
        status::not_found(&resource.group, &resource.plural, &target.name)
    }

    fn get(&mut self, call: &Call<'_>) -> Response {
        let stored = match self.held_for(&call.resource, &call.key) {
            Some(Ok(held)) => held,
            Some(Err(refusal)) => return refusal,
            None => return not_found(call),
        };
        if call.target.subresource == "scale" {
            let resource = call.resource.clone();
            return match self.endpoint(&resource).map(|e| e.scale_of(&stored)) {
                Some(Ok(scale)) => ok(200, scale),
                Some(Err(e)) => self.refuse(e),
                None => status::no_route(),
            };
        }
        ok(200, stored)
    }

    /// What a resource's create and update bodies are decoded into; a custom resource's
    /// with the versions its CRD has schemas for.
    fn decode_target(&self, resource: &Resource) -> DecodeTarget {
        let custom_versions = self
            .crds
            .iter()
            .rev()
            .find(|crd| {
                resource.custom
                    && nested_str(crd, &["spec", "group"]) == resource.group
                    && nested_str(crd, &["spec", "names", "plural"]) == resource.plural
            })
            .and_then(|crd| get(crd, &["spec", "versions"]))
            .and_then(Value::as_list)
            .map(|versions| {
                versions
                    .iter()
                    .map(|v| nested_str(v, &["name"]).to_owned())
                    .collect()
            })
            .unwrap_or_default();
        let structural = if resource.custom {
            self.schema_of(&resource.group, &resource.plural, &resource.version)
        } else {
            None
        };
        DecodeTarget {
            gvk: resource.gvk(),
            custom: resource.custom,
            scheme_group: resource.group.clone(),
            custom_versions,
            structural,
        }
    }

    fn create(&mut self, call: Call<'_>) -> Response {
        let manager = manager_of(call.request);
        if let Err(e) = validate_manager(&manager, OptionsKind::Create) {
            return self.refuse(e);
        }
        let target = self.decode_target(&call.resource);
        let (body, warnings) = match read_and_decode(&call, &target) {
            Ok(d) => d,
            Err(r) => return r,
        };
        // The decoder's warnings go out with whatever the request is answered.
        with_warnings(
            warnings,
            self.create_decoded(&call, &target, body, &manager),
        )
    }

    /// A create once its body is decoded: the namespace, the name, the storage.
    fn create_decoded(
        &mut self,
        call: &Call<'_>,
        target: &DecodeTarget,
        mut body: Value,
        manager: &str,
    ) -> Response {
        if let Some(refusal) = set_namespace(&mut body, &call.target) {
            return refusal;
        }
        let mut name = nested_str(&body, &["metadata", "name"]).to_owned();
        if name.is_empty() {
            let prefix = nested_str(&body, &["metadata", "generateName"]).to_owned();
            if prefix.is_empty() {
                return status::invalid(
                    group_if_custom(&call.resource),
                    &call.resource.kind,
                    "",
                    vec![Cause {
                        kind: "FieldValueRequired".into(),
                        message: "Required value: name or generateName is required".into(),
                        field: "metadata.name".into(),
                    }],
                );
            }
            name = format!("{prefix}{}", self.store.next_name_suffix());
            self.store.choose(&name);
            set(&mut body, &["metadata", "name"], Value::from(name.as_str()));
        }
        if let Some(refusal) = decode::custom_kind_invalid(&body, target, &name) {
            return refusal;
        }
        // NamespaceLifecycle admission runs before the storage looks at the object.
        if let Some(refusal) = self.refuse_in_terminating_namespace(call, &name) {
            return refusal;
        }
        let key = ObjectKey::new(
            &call.key.group,
            &call.key.plural,
            &call.key.namespace,
            &name,
        );
        let sent_version = nested_str(&body, &["metadata", "resourceVersion"]).to_owned();
        // The handler wipes these before the field manager sees the body; the storage sets
        // the resourceVersion.
        for field in [
            "resourceVersion",
            "uid",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
        ] {
            remove(&mut body, &["metadata", field]);
        }
        let mut response = self.create_object(call, key, body, manager, "", &sent_version);
        if response.code < 300 {
            dry_run_keeps_version(call, &mut response, &sent_version);
        }
        response
    }

    /// What the storage refuses of a create the strategy accepted: a revision it is asked to
    /// keep (a dry run does not ask it), an object that exists.
    fn refuse_in_storage(
        &self,
        call: &Call<'_>,
        key: &ObjectKey,
        sent_version: &str,
    ) -> Option<Response> {
        if !call.dry_run && sent_version.parse::<u64>().is_ok_and(|v| v != 0) {
            return Some(status::failure(
                500,
                "",
                "resourceVersion should not be set on objects to be created",
                None,
            ));
        }
        let existing = self.store.get(key)?;
        let being_deleted = get(existing, &["metadata", "deletionTimestamp"]).is_some();
        Some(status::already_exists(
            &call.resource.group,
            &call.resource.plural,
            &key.name,
            being_deleted,
        ))
    }

    /// A create of `body` at `key` through `subresource` (`""`, or `status` for an update
    /// that creates): that subresource's field manager records the Update, the main
    /// resource's strategy prepares the object, the storage gives it its uid and revision.
    fn create_object(
        &mut self,
        call: &Call<'_>,
        key: ObjectKey,
        body: Value,
        manager: &str,
        subresource: &str,
        sent_version: &str,
    ) -> Response {
        let resource = call.resource.clone();
        let Some(endpoint) = self.endpoint(&resource) else {
            return status::no_route();
        };
        let written = match endpoint.create_through(body, manager, subresource, call.now) {
            Ok(w) => w,
            Err(e) => return self.refuse(e),
        };
        let mut object = written.object;
        // `BeforeCreate` clears the deletion marks after the field manager saw them.
        remove(&mut object, &["metadata", "deletionTimestamp"]);
        remove(&mut object, &["metadata", "deletionGracePeriodSeconds"]);
        let object = match self.finish_create(call, object) {
            Ok(o) => o,
            Err(refusal) => return refusal,
        };
        let warnings = match validate(self, call, &object, None) {
            Ok(w) => w,
            Err(refusal) => return refusal,
        };
        // The strategy's warnings go out with the storage's refusal too.
        let mut response = match self.refuse_in_storage(call, &key, sent_version) {
            Some(refusal) => refusal,
            None => self.store_answer(call, key, object, 201),
        };
        response.warnings.extend(warnings);
        response
    }

    fn update(&mut self, call: Call<'_>) -> Response {
        let manager = manager_of(call.request);
        if let Err(e) = validate_manager(&manager, OptionsKind::Update) {
            return self.refuse(e);
        }
        if call.target.subresource == "scale" {
            return self.update_scale(&call, None, &manager);
        }
        let target = self.decode_target(&call.resource);
        let (body, warnings) = match read_and_decode(&call, &target) {
            Ok(d) => d,
            Err(r) => return r,
        };
        with_warnings(
            warnings,
            self.update_decoded(&call, &target, body, &manager),
        )
    }

    /// An update once its body is decoded: the namespace and name, the stored object (or a
    /// create where the registry allows it), the preconditions, the write.
    fn update_decoded(
        &mut self,
        call: &Call<'_>,
        target: &DecodeTarget,
        mut body: Value,
        manager: &str,
    ) -> Response {
        if let Some(refusal) = set_namespace(&mut body, &call.target) {
            return refusal;
        }
        if let Some(refusal) = check_name(&body, &call.target) {
            return refusal;
        }
        let held = match self.held_for(&call.resource, &call.key) {
            Some(Ok(held)) => Some(held),
            Some(Err(refusal)) => return refusal,
            None => None,
        };
        let Some(stored) = held else {
            if !creates_on_update(&call.resource) {
                return not_found(call);
            }
            // The registry creates what an update does not find; the storage's uid
            // precondition meets an object with none.
            if let Some(refusal) = uid_precondition(call, &body, "") {
                return refusal;
            }
            if let Some(refusal) = self.refuse_in_terminating_namespace(call, &call.target.name) {
                return refusal;
            }
            let sent_version = nested_str(&body, &["metadata", "resourceVersion"]).to_owned();
            remove(&mut body, &["metadata", "resourceVersion"]);
            let key = call.key.clone();
            let subresource = call.target.subresource.clone();
            let mut response = self.create_object(call, key, body, manager, &subresource, "");
            if response.code < 300 {
                dry_run_keeps_version(call, &mut response, &sent_version);
            }
            return response;
        };
        if let Some(refusal) = preconditions(call, &body, &stored) {
            return refusal;
        }
        if let Some(refusal) = decode::custom_kind_invalid(&body, target, &call.target.name) {
            return refusal;
        }
        let resource = call.resource.clone();
        let Some(endpoint) = self.endpoint(&resource) else {
            return status::no_route();
        };
        let written =
            match endpoint.update(&stored, body, manager, &call.target.subresource, call.now) {
                Ok(w) => w,
                Err(e) => return self.refuse(e),
            };
        self.finish_update(call, &stored, written.object)
    }

    /// An update of the scale subresource: the body (the request's, or a patch's result in
    /// `patched`) decoded as an `autoscaling/v1` Scale, its namespace and name checked, then
    /// the parent found and its replicas set.
    fn update_scale(
        &mut self,
        call: &Call<'_>,
        patched: Option<&Value>,
        manager: &str,
    ) -> Response {
        let (body, warnings) = match patched {
            Some(p) => (p.clone(), Vec::new()),
            None => match self.read_scale(call) {
                Ok(decoded) => decoded,
                Err(r) => return r,
            },
        };
        with_warnings(warnings, self.scale_decoded(call, body, manager))
    }

    /// An update of the scale subresource once its Scale is decoded.
    fn scale_decoded(&mut self, call: &Call<'_>, mut body: Value, manager: &str) -> Response {
        if let Some(refusal) = set_namespace(&mut body, &call.target) {
            return refusal;
        }
        if let Some(refusal) = check_name(&body, &call.target) {
            return refusal;
        }
        let stored = match self.held_for(&call.resource, &call.key) {
            Some(Ok(held)) => held,
            Some(Err(refusal)) => return refusal,
            None => return not_found(call),
        };
        let rv = nested_str(&body, &["metadata", "resourceVersion"]);
        if !rv.is_empty() && rv != nested_str(&stored, &["metadata", "resourceVersion"]) {
            return status::conflict(
                &call.resource.group,
                &call.resource.plural,
                &call.target.name,
                MODIFIED,
            );
        }
        let replicas = match get(&body, &["spec", "replicas"]) {
            None | Some(Value::Null) => 0,
            Some(Value::Int(n)) => *n,
            Some(other) => {
                return status::bad_request(&format!(
                    "Scale in version \"v1\" cannot be handled as a Scale: json: cannot unmarshal {} into Go struct field ScaleSpec.spec.replicas of type int32",
                    smd_fieldpath::value::gofmt::type_name(other)
                ));
            }
        };
        let resource = call.resource.clone();
        let Some(endpoint) = self.endpoint(&resource) else {
            return status::no_route();
        };
        let written = match endpoint.scale(&stored, replicas, manager, call.now) {
            Ok(w) => w,
            Err(e) => return self.refuse(e),
        };
        self.finish_update(call, &stored, written.object)
    }

    /// A PUT's Scale body as the scale endpoint decodes it: an `autoscaling/v1` Scale of
    /// the parent's scheme; a custom resource's endpoint cannot name the Scale type in its
    /// errors, and says so in place of any decoding error.
    fn read_scale(&self, call: &Call<'_>) -> Result<(Value, Vec<String>), Response> {
        let target = DecodeTarget {
            gvk: GroupVersionKind::new("autoscaling", "v1", "Scale"),
            custom: false,
            scheme_group: call.resource.group.clone(),
            custom_versions: Vec::new(),
            structural: None,
        };
        let decoded = read_and_decode(call, &target);
        if call.resource.custom {
            return decoded.map_err(|_| {
                status::bad_request(
                    "no kind is registered for the type v1.Scale in scheme \"pkg/runtime/scheme.go:111\"",
                )
            });
        }
        decoded
    }

    fn apply(&mut self, call: Call<'_>) -> Response {
        let manager = call.request.query_value("fieldManager").to_owned();
        // The PatchOptions are validated first: an apply names its manager.
        if let Err(e) = validate_manager(&manager, OptionsKind::Apply) {
            return self.refuse(e);
        }
        // A body that does not open with `{` is converted from YAML before anything else;
        // one that does is read by the YAML reader only once the object is looked up.
        let json_prefix = call.parsed.is_none()
            && call
                .request
                .body
                .iter()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|b| *b == b'{');
        let parsed = match call.parsed {
            Some(v) => Ok(v.clone()),
            None => read_apply_patch(&call.request.body),
        };
        if let Err(e) = &parsed
            && !json_prefix
        {
            return status::bad_request(&format!("error encoding patch: {e}"));
        }
        let stored = match self.held_for(&call.resource, &call.key) {
            Some(Ok(held)) => Some(held),
            Some(Err(refusal)) => return refusal,
            None => None,
        };
        // Only the main resource's apply creates (and a subresource's of a registry whose
        // update creates).
        let creates = call.target.subresource.is_empty()
            || (call.target.subresource == "status" && creates_on_update(&call.resource));
        if stored.is_none() && !creates {
            return not_found(&call);
        }
        let patch = match parsed {
            // An empty body is `null`, which decodes as an object of no kind.
            Ok(Value::Null) => Value::Map(Map::new()),
            Ok(
                ref v @ (Value::List(_)
                | Value::String(_)
                | Value::Bool(_)
                | Value::Int(_)
                | Value::Float(_)),
            ) => {
                let go_type = match v {
                    Value::List(_) => "array",
                    Value::String(_) => "string",
                    Value::Bool(_) => "bool",
                    _ => "number",
                };
                return status::bad_request(&format!(
                    "error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {go_type} into Go value of type map[string]interface {{}}"
                ));
            }
            Ok(mut v) => {
                crate::managedfields::normalize_numbers(&mut v);
                v
            }
            Err(e) => {
                return status::bad_request(&format!(
                    "error decoding patch: error converting YAML to JSON: {e}"
                ));
            }
        };
        let force = call.request.query_value("force") == "true";
        let resource = call.resource.clone();
        let Some(endpoint) = self.endpoint(&resource) else {
            return status::no_route();
        };
        let applied = match (&stored, call.target.subresource.as_str()) {
            (None, "status") => {
                endpoint.apply_create_through(&patch, &manager, force, "status", call.now)
            }
            _ => endpoint.apply(
                stored.as_ref(),
                &patch,
                &manager,
                force,
                &call.target.subresource,
                call.now,
            ),
        };
        let mut object = match applied {
            Ok(o) => o,
            Err(e) => return self.refuse(e),
        };
        // The field manager defaults the merged object (a custom resource's by its schema;
        // a built-in kind's endpoint did it).
        if call.resource.custom {
            let schema = self.schema_of(
                &call.resource.group,
                &call.resource.plural,
                &call.resource.version,
            );
            customresource::default(&mut object, schema.as_deref());
        }
        // The server reads the patch again strictly only once the field manager has applied
        // it: a key set twice is then refused (Strict) or named in warnings (Warn, the default).
        let mut warnings = Vec::new();
        let validation = call.request.query_value("fieldValidation");
        if call.parsed.is_none() && validation != "Ignore" {
            let lines = repeated_yaml_keys(&call.request.body);
            if !lines.is_empty() {
                if validation == "Strict" {
                    return status::bad_request(&format!(
                        "error strict decoding patch: error converting YAML to JSON: yaml: \
                         unmarshal errors:\n  {}",
                        lines.join("\n  ")
                    ));
                }
                warnings = lines;
            }
        }
        // Then the object the patch made: a uid no stored object has, its namespace and its
        // name against the URL's, and (of a stored object) the resourceVersion it names.
        let uid = nested_str(&patch, &["metadata", "uid"]);
        if stored.is_none() && !uid.is_empty() {
            return status::conflict(
                &call.resource.group,
                &call.resource.plural,
                &call.target.name,
                &format!(
                    "uid mismatch: the provided object specified uid {uid}, and no existing object was found"
                ),
            );
        }
        let namespace = nested_str(&patch, &["metadata", "namespace"]);
        if call.resource.namespaced && !namespace.is_empty() && namespace != call.target.namespace {
            return status::bad_request(NAMESPACE_MISMATCH);
        }
        // A cluster-scoped object keeps no namespace its patch names: the server clears it
        // (`EnsureObjectNamespaceMatchesRequestNamespace`, AS/registry/rest/meta.go), before
        // the update's validation would call it immutable.
        if !call.resource.namespaced {
            remove(&mut object, &["metadata", "namespace"]);
        }
        if let Some(refusal) = check_name(&object, &call.target) {
            return refusal;
        }
        if let Some(stored) = &stored {
            let rv = nested_str(&patch, &["metadata", "resourceVersion"]);
            if !rv.is_empty() && rv != nested_str(stored, &["metadata", "resourceVersion"]) {
                return status::conflict(
                    &call.resource.group,
                    &call.resource.plural,
                    &call.target.name,
                    MODIFIED,
                );
            }
        }
        let mut response = match &stored {
            Some(stored) => self.finish_update(&call, stored, object),
            None => {
                if let Some(refusal) =
                    self.refuse_in_terminating_namespace(&call, &call.target.name)
                {
                    return refusal;
                }
                if call.resource.namespaced {
                    set(
                        &mut object,
                        &["metadata", "namespace"],
                        Value::from(call.target.namespace.as_str()),
                    );
                }
                remove(&mut object, &["metadata", "deletionTimestamp"]);
                remove(&mut object, &["metadata", "deletionGracePeriodSeconds"]);
                let object = match self.finish_create(&call, object) {
                    Ok(o) => o,
                    Err(refusal) => return refusal,
                };
                let strategy_warnings = match validate(self, &call, &object, None) {
                    Ok(w) => w,
                    Err(refusal) => return refusal,
                };
                let key = call.key.clone();
                let mut response = self.store_answer(&call, key, object, 201);
                let sent_version = nested_str(&patch, &["metadata", "resourceVersion"]);
                dry_run_keeps_version(&call, &mut response, sent_version);
                response.warnings = strategy_warnings;
                response
            }
        };
        // The patch's repeated keys were warned of while the field manager ran, before the
        // strategy's warnings.
        response.warnings.splice(0..0, warnings);
        response
    }

    fn patch(&mut self, call: Call<'_>) -> Response {
        let content_type = content_type(call.request);
        if !call.resource.patch_types().contains(&content_type) {
            // A built-in resource's handler does not know the type at all; a custom
            // resource's lists what it takes.
            if !call.resource.custom && !super::http::PATCH_TYPES.contains(&content_type) {
                return status::failure(
                    415,
                    "UnsupportedMediaType",
                    "415: Unsupported Media Type",
                    Some(&Details::default()),
                );
            }
            return status::unsupported_media_type(&call.resource.patch_types());
        }
        let manager = manager_of(call.request);
        if let Err(e) = validate_manager(&manager, OptionsKind::Patch) {
            return self.refuse(e);
        }
        // The patch must be JSON before anything is looked up.
        if call.parsed.is_none()
            && serde_json::from_str::<serde_json::Value>(&String::from_utf8_lossy(
                &call.request.body,
            ))
            .is_err()
        {
            return status::bad_request("invalid JSON patch");
        }
        let stored = match self.held_for(&call.resource, &call.key) {
            Some(Ok(held)) => held,
            Some(Err(refusal)) => return refusal,
            None => return not_found(&call),
        };
        let original = if call.target.subresource == "scale" {
            let resource = call.resource.clone();
            match self.endpoint(&resource).map(|e| e.scale_of(&stored)) {
                Some(Ok(scale)) => scale,
                Some(Err(e)) => return self.refuse(e),
                None => return status::no_route(),
            }
        } else {
            stored.clone()
        };
        let kind = if call.target.subresource == "scale" {
            GroupVersionKind::new("autoscaling", "v1", "Scale")
        } else {
            call.resource.gvk()
        };
        let patched = match patch::apply(&kind, content_type, &original, &call.request.body) {
            Ok(p) => p,
            Err(PatchFailure::Refused { code, message }) => {
                return status::patch_refused(code, &message);
            }
            Err(PatchFailure::Unsupported(m)) => return status::failure(500, "", &m, None),
        };
        if call.target.subresource == "scale" {
            return self.update_scale(&call, Some(&patched), &manager);
        }
        if let Some(refusal) = check_name(&patched, &call.target) {
            return refusal;
        }
        // A patch that sets the resourceVersion makes it a precondition.
        let rv = nested_str(&patched, &["metadata", "resourceVersion"]);
        if !rv.is_empty() && rv != nested_str(&stored, &["metadata", "resourceVersion"]) {
            return status::conflict(
                &call.resource.group,
                &call.resource.plural,
                &call.target.name,
                MODIFIED,
            );
        }
        let target = self.decode_target(&call.resource);
        let (body, warnings) =
            match decode::decode_builtin(call.request, call.parsed, &target, patched, false) {
                Ok(d) => d,
                Err(r) => return r,
            };
        let resource = call.resource.clone();
        let mut response = match self.endpoint(&resource).map(|endpoint| {
            endpoint.update(&stored, body, &manager, &call.target.subresource, call.now)
        }) {
            None => status::no_route(),
            Some(Ok(written)) => self.finish_update(&call, &stored, written.object),
            Some(Err(e)) => self.refuse(e),
        };
        response.warnings.splice(0..0, warnings);
        response
    }

    /// What admission and the storage add to a created object: a Pod's admission plugins, a
    /// Service's allocations (`admission.rs`), the protection finalizers of the kinds that have one, its
    /// uid, its revision, generation 1 for the kinds that count generations; or the
    /// refusal of a plugin or an allocator.
    fn finish_create(&mut self, call: &Call<'_>, mut object: Value) -> Result<Value, Response> {
        self.before_create(call, &mut object)?;
        delete::prepare_create(&call.resource, &mut object);
        let created = nested_str(&object, &["metadata", "creationTimestamp"]).to_owned();
        if !created.is_empty() {
            self.store.choose(&created);
        }
        let uid = self.store.next_uid();
        set(&mut object, &["metadata", "uid"], Value::from(uid));
        if !call.resource.custom {
            crate::builtin::prepare_identified(&call.resource.gvk(), &mut object);
        }
        remove(&mut object, &["metadata", "resourceVersion"]);
        // The kinds that count generations start at 1; the others keep a body's own.
        if counts_generations(&call.resource) {
            set(&mut object, &["metadata", "generation"], Value::Int(1));
        }
        Ok(object)
    }

    /// Stores a created object under a new revision (unless a dry run) and answers it.
    fn store_answer(
        &mut self,
        call: &Call<'_>,
        key: ObjectKey,
        mut object: Value,
        code: u16,
    ) -> Response {
        if call.resource.custom {
            sort_entry_fields(&mut object);
        }
        if !call.dry_run {
            let rv = self.store.next_revision();
            set(
                &mut object,
                &["metadata", "resourceVersion"],
                Value::from(rv),
            );
        }
        let stored = self.stored_forms(&call.resource, object);
        if !call.dry_run {
            let previous = self.store.get(&key).cloned();
            let kind = match previous {
                Some(_) => EventType::Modified,
                None => EventType::Added,
            };
            self.store
                .record(kind, &key, &stored.held, previous.as_ref());
            self.store.insert_written(key, stored.held, stored.written);
        }
        ok(code, stored.answer)
    }

    /// An updated object stored: unchanged, the stored one (no new revision); else a new
    /// revision, the generation counted up when more than metadata and status changed.
    fn finish_update(&mut self, call: &Call<'_>, stored: &Value, mut object: Value) -> Response {
        if call.resource.custom {
            sort_entry_fields(&mut object);
        }
        match get(stored, &["metadata", "resourceVersion"]) {
            Some(rv) => set(&mut object, &["metadata", "resourceVersion"], rv.clone()),
            None => remove(&mut object, &["metadata", "resourceVersion"]),
        }
        let generation = get(stored, &["metadata", "generation"]).cloned();
        match &generation {
            Some(g) => set(&mut object, &["metadata", "generation"], g.clone()),
            None => remove(&mut object, &["metadata", "generation"]),
        }
        delete::prepare_update(&call.resource, stored, &mut object);
        if let Err(refusal) = self.before_update(call, stored, &mut object) {
            return refusal;
        }
        // The strategy validates every update, one that changes nothing too, and warns.
        let warnings = match validate(self, call, &object, Some(stored)) {
            Ok(w) => w,
            Err(refusal) => return refusal,
        };
        let mut response = self.store_update(call, stored, object, generation.as_ref());
        response.warnings.extend(warnings);
        response
    }

    /// An update the strategy accepted, written: unchanged, the stored object; else at a new
    /// revision (the generation, `generation` before, counted up when the spec changed), or
    /// removed when it leaves a deleted object no finalizer.
    fn store_update(
        &mut self,
        call: &Call<'_>,
        stored: &Value,
        mut object: Value,
        generation: Option<&Value>,
    ) -> Response {
        let answer = |server: &mut ApiServer, object: Value| {
            if call.target.subresource == "scale" {
                let resource = call.resource.clone();
                match server.endpoint(&resource).map(|e| e.scale_of(&object)) {
                    Some(Ok(scale)) => ok(200, scale),
                    Some(Err(e)) => server.refuse(e),
                    None => status::no_route(),
                }
            } else {
                ok(200, object)
            }
        };
        // A write that gives the bytes the storage holds changes nothing; the answer is the
        // object as read.
        let written = match self.store.written(&call.key) {
            Some(w) => {
                let version = convert::api_version_of(&call.resource);
                crate::builtin::conversion::convert(w, &version)
            }
            None => stored.clone(),
        };
        keep_entry_times_of_a_no_op(&written, &mut object);
        // Compared as the storage holds both (a write at another version is converted).
        let same = if self.storage_api_version(&call.resource).is_some() {
            self.to_storage(&call.resource, object.clone())
                == self.to_storage(&call.resource, written)
        } else {
            object == written
        };
        if same {
            return answer(self, stored.clone());
        }
        // An object the server wrote has its generation; one put in without (a hand-made
        // live object) gets none invented.
        if let Some(current) = generation.and_then(Value::as_int)
            && counts_generations(&call.resource)
            && spec_changed(
                &call.resource,
                &call.target.subresource,
                stored,
                &self.read_back(&call.resource, &object),
            )
        {
            set(
                &mut object,
                &["metadata", "generation"],
                Value::Int(current + 1),
            );
        }
        // An object being deleted goes once its last finalizer does; the answer is the
        // object as that update left it.
        if delete::goes_on_update(&call.resource, stored, &object) {
            if !call.dry_run {
                let rv = self.store.next_revision();
                if let Some(held) = self.store.remove(&call.key) {
                    // The storage deletes what it held: a watch sees that, at the deletion's
                    // revision.
                    let mut last = held.clone();
                    set(&mut last, &["metadata", "resourceVersion"], Value::from(rv));
                    self.store
                        .record(EventType::Deleted, &call.key, &last, Some(&held));
                }
            }
            let read = self.read_back(&call.resource, &object);
            return answer(self, read);
        }
        if !call.dry_run {
            let rv = self.store.next_revision();
            set(
                &mut object,
                &["metadata", "resourceVersion"],
                Value::from(rv),
            );
        }
        let stored = self.stored_forms(&call.resource, object);
        if !call.dry_run {
            let previous = self.store.get(&call.key).cloned();
            self.store.record(
                EventType::Modified,
                &call.key,
                &stored.held,
                previous.as_ref(),
            );
            self.store
                .insert_written(call.key.clone(), stored.held, stored.written);
        }
        answer(self, stored.answer)
    }
}

/// The strategy's validation of an object (`rest.BeforeCreate` with no `old`,
/// `rest.BeforeUpdate` with the stored object): the registry's 422 for one it refuses, else
/// the warnings it gives one it accepts (a custom resource's new finalizers; the status
/// strategy gives none).
fn validate(
    server: &ApiServer,
    call: &Call<'_>,
    object: &Value,
    old: Option<&Value>,
) -> Result<Vec<String>, Response> {
    if call.resource.custom {
        // A custom resource is validated at the request's version, by that version's schema.
        let schema = server.validation_of(
            &call.resource.group,
            &call.resource.plural,
            &call.resource.version,
        );
        let checked = validation::validate_custom_resource(
            call.resource.namespaced,
            object,
            old,
            schema.as_deref(),
            &call.target.subresource,
        );
        // The rules' ratcheted errors are warnings recorded while validating: they go out
        // with the answer, a refusal too.
        if !checked.errors.is_empty() {
            let mut refusal = status::invalid(
                &call.resource.group,
                &call.resource.kind,
                nested_str(object, &["metadata", "name"]),
                causes_of(&checked.errors),
            );
            refusal.warnings.splice(0..0, checked.warnings);
            return Err(refusal);
        }
        let mut warnings = checked.warnings;
        if call.target.subresource != "status" {
            warnings.extend(validation::custom_resource_warnings(object, old));
        }
        return Ok(warnings);
    }
    // Go validates the internal object: a kind served at several versions is validated at its
    // storage version, whichever version the request wrote.
    let object = &server.to_storage(&call.resource, object.clone());
    let old = old.map(|o| server.to_storage(&call.resource, o.clone()));
    let old = old.as_ref();
    // A scale update writes the parent through the main resource's strategy.
    let subresource = match call.target.subresource.as_str() {
        "scale" => "",
        other => other,
    };
    let subject = validation::Subject {
        group: &call.resource.group,
        kind: &call.resource.kind,
        namespaced: call.resource.namespaced,
        subresource,
    };
    let errors = match old {
        None => validation::validate_create(&subject, object),
        Some(old) => validation::validate_update(&subject, object, old),
    };
    if errors.is_empty() {
        return Ok(Vec::new());
    }
    Err(status::invalid(
        &call.resource.group,
        &call.resource.kind,
        nested_str(object, &["metadata", "name"]),
        causes_of(&errors),
    ))
}

/// A Status's causes, one per field error.
fn causes_of(errors: &[validation::FieldError]) -> Vec<Cause> {
    errors
        .iter()
        .map(|e| Cause {
            kind: e.kind.reason().to_owned(),
            message: e.body(),
            field: e.field.to_string(),
        })
        .collect()
}

const MODIFIED: &str =
    "the object has been modified; please apply your changes to the latest version and try again";
const NAMESPACE_MISMATCH: &str =
    "the namespace of the provided object does not match the namespace sent on the request";

/// An apply patch read as the server reads it: JSON as it is, anything else as YAML (the
/// first document of several); a YAML reader's error in yaml.v2's words
/// (`error converting YAML to JSON: yaml: line 1: did not find expected node content`).
fn read_apply_patch(body: &[u8]) -> Result<Value, String> {
    if let Some(v) = std::str::from_utf8(body)
        .ok()
        .and_then(|text| Value::from_json(text).ok())
    {
        return Ok(v);
    }
    smd_fieldpath::yaml::documents_from_slice(body)
        .map(|docs| docs.into_iter().next().unwrap_or(Value::Null))
        .map_err(|e| super::yamlerror::go_yaml_error(body, &e))
}

/// yaml.v2's strict words for the keys an apply patch's first document sets twice
/// (`line 7: key "a" already set in map`), none for a text it cannot read.
pub(super) fn repeated_yaml_keys(body: &[u8]) -> Vec<String> {
    let Ok(text) = std::str::from_utf8(body) else {
        return Vec::new();
    };
    match smd_fieldpath::yaml::Documents::new(text).next() {
        Some(Ok(document)) => document
            .duplicates
            .iter()
            .map(|d| format!("line {}: key {} already set in map", d.line, d.key))
            .collect(),
        _ => Vec::new(),
    }
}

/// A custom resource is stored as unstructured JSON, whose maps Go writes with sorted keys:
/// each entry's `fieldsV1` comes back sorted (`k:{"port":443,...}` before `k:{"port":80,...}`),
/// where a built-in object's keeps SMD's order (its `FieldsV1` is raw bytes).
fn sort_entry_fields(object: &mut Value) {
    fn sort_deep(value: &mut Value) {
        if let Some(map) = value.as_map_mut() {
            map.sort_keys();
            for (_, child) in map.iter_mut() {
                sort_deep(child);
            }
        }
    }
    let entries = object
        .as_map_mut()
        .and_then(|m| m.get_mut("metadata"))
        .and_then(Value::as_map_mut)
        .and_then(|m| m.get_mut("managedFields"))
        .and_then(Value::as_list_mut);
    for entry in entries.into_iter().flatten() {
        if let Some(fields) = entry.as_map_mut().and_then(|e| e.get_mut("fieldsV1")) {
            sort_deep(fields);
        }
    }
}

/// The registry's guard against writes that only move managedFields times
/// (`IgnoreManagedFieldsTimestampsTransformer`, apiserver's handlers/fieldmanager): when the
/// entries are the stored ones pairwise but for some times, and the rest of the object is the
/// stored one, the stored times come back, so that nothing is written (an apply whose merged
/// object only differed until decoding and defaulting made it the stored one again).
fn keep_entry_times_of_a_no_op(stored: &Value, object: &mut Value) {
    let entries = |v: &Value| {
        get(v, &["metadata", "managedFields"])
            .and_then(Value::as_list)
            .map(<[Value]>::to_vec)
            .unwrap_or_default()
    };
    let (old, new) = (entries(stored), entries(object));
    if old.len() != new.len() || new.is_empty() {
        return;
    }
    let time = |e: &Value| get(e, &["time"]).cloned();
    if old.iter().zip(&new).all(|(a, b)| time(a) == time(b)) {
        return;
    }
    let without_time = |e: &Value| {
        let mut e = e.clone();
        remove(&mut e, &["time"]);
        e
    };
    if !old
        .iter()
        .zip(&new)
        .all(|(a, b)| without_time(a) == without_time(b))
    {
        return;
    }
    let mut candidate = object.clone();
    set(
        &mut candidate,
        &["metadata", "managedFields"],
        Value::List(old),
    );
    if &candidate == stored {
        *object = candidate;
    }
}

fn ok(code: u16, body: Value) -> Response {
    Response {
        code,
        body,
        warnings: Vec::new(),
    }
}

fn not_found(call: &Call<'_>) -> Response {
    status::not_found(
        &call.resource.group,
        &call.resource.plural,
        &call.target.name,
    )
}

/// The manager of a create, update or patch: `fieldManager`, else the User-Agent's product.
fn manager_of(request: &Request) -> String {
    manager_or_user_agent(request.query_value("fieldManager"), &request.user_agent)
}

/// The options the server validates before anything else (`ValidateCreateOptions` and its
/// siblings): `dryRun` values, `fieldValidation`, `force` on a patch that is not an apply;
/// one 422 with a cause per problem.
fn check_options(request: &Request, verb: &str, dry_run: &[&str]) -> Option<Response> {
    let options = match verb {
        "create" => "CreateOptions",
        "update" => "UpdateOptions",
        "patch" => "PatchOptions",
        "delete" => "DeleteOptions",
        _ => return None,
    };
    let mut causes = Vec::new();
    if dry_run.iter().any(|v| *v != "All") {
        let values: Vec<String> = dry_run.iter().map(|v| status::quote(v)).collect();
        causes.push(Cause {
            kind: "FieldValueNotSupported".into(),
            message: format!(
                "Unsupported value: [{}]: supported values: \"All\"",
                values.join(",")
            ),
            field: "dryRun".into(),
        });
    }
    let validation = request.query_value("fieldValidation");
    if verb != "delete" && !matches!(validation, "" | "Ignore" | "Strict" | "Warn") {
        causes.push(Cause {
            kind: "FieldValueNotSupported".into(),
            message: format!(
                "Unsupported value: {}: supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"",
                status::quote(validation)
            ),
            field: "fieldValidation".into(),
        });
    }
    if verb == "patch"
        && content_type(request) != APPLY_PATCH
        && !request.query_value("force").is_empty()
    {
        causes.push(Cause {
            kind: "FieldValueForbidden".into(),
            message: "Forbidden: may not be specified for non-apply patch".into(),
            field: "force".into(),
        });
    }
    (!causes.is_empty()).then(|| status::invalid("meta.k8s.io", options, "", causes))
}

/// A body is decoded as the endpoint's group and version (which its own equal once
/// defaulted: `/v1` is `v1`), and, without a kind, as the endpoint's kind.
fn set_kind(body: &mut Value, gvk: &GroupVersionKind) {
    let version = if gvk.group.is_empty() {
        gvk.version.clone()
    } else {
        format!("{}/{}", gvk.group, gvk.version)
    };
    set(body, &["apiVersion"], Value::from(version));
    if nested_str(body, &["kind"]).is_empty() {
        set(body, &["kind"], Value::from(gvk.kind.as_str()));
    }
}

/// A create or update body read, its kind checked and decoded as the codec does it (with
/// the `fieldValidation` warnings), before anything looks at the store.
fn read_and_decode(
    call: &Call<'_>,
    target: &DecodeTarget,
) -> Result<(Value, Vec<String>), Response> {
    let mut body = decode::read_body(call.request, call.parsed, target)?;
    decode::check_kind(call.request, call.parsed, &body, target)?;
    set_kind(&mut body, &target.gvk);
    decode::decode_builtin(call.request, call.parsed, target, body, true)
}

/// `deprecation.WarningMessage` of the served kinds k8s.io/api v0.37.2 marks deprecated
/// (`APILifecycleDeprecated`, `...Replacement` in `core/v1/lifecycle.go`).
fn deprecation_warning(resource: &Resource) -> Option<String> {
    match (
        resource.group.as_str(),
        resource.version.as_str(),
        resource.kind.as_str(),
    ) {
        ("", "v1", "Endpoints") => Some(
            "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice".into(),
        ),
        ("", "v1", "ComponentStatus") => Some("v1 ComponentStatus is deprecated in v1.19+".into()),
        _ => None,
    }
}

/// `response` with the decoder's `warnings` before its own.
fn with_warnings(mut warnings: Vec<String>, mut response: Response) -> Response {
    warnings.append(&mut response.warnings);
    response.warnings = warnings;
    response
}

/// A dry run of a write that creates answers the object as the storage's dry run leaves it:
/// no revision given, the `resourceVersion` the request sent (none if it sent none).
fn dry_run_keeps_version(call: &Call<'_>, response: &mut Response, sent: &str) {
    if call.dry_run && !sent.is_empty() {
        set(
            &mut response.body,
            &["metadata", "resourceVersion"],
            Value::from(sent),
        );
    }
}

/// The registries whose update creates the object it does not find (their strategy's
/// `AllowCreateOnUpdate`, Kubernetes 1.37), by group and plural.
const CREATE_ON_UPDATE: &[(&str, &str)] = &[
    ("", "services"),
    ("", "endpoints"),
    ("", "events"),
    ("events.k8s.io", "events"),
    ("", "limitranges"),
    ("rbac.authorization.k8s.io", "roles"),
    ("rbac.authorization.k8s.io", "rolebindings"),
    ("rbac.authorization.k8s.io", "clusterroles"),
    ("rbac.authorization.k8s.io", "clusterrolebindings"),
    ("coordination.k8s.io", "leases"),
    ("coordination.k8s.io", "leasecandidates"),
    ("node.k8s.io", "runtimeclasses"),
];

fn creates_on_update(resource: &Resource) -> bool {
    !resource.custom
        && CREATE_ON_UPDATE
            .iter()
            .any(|(g, p)| *g == resource.group && *p == resource.plural)
}

/// The body's name against the URL's (an update, a patched object).
fn check_name(body: &Value, target: &Target) -> Option<Response> {
    let name = nested_str(body, &["metadata", "name"]);
    if name.is_empty() {
        return Some(status::bad_request(&format!(
            "the name of the object ({} based on URL) was undeterminable: name must be provided",
            target.name
        )));
    }
    (name != target.name).then(|| {
        status::bad_request(&format!(
            "the name of the object ({name}) does not match the name on the URL ({})",
            target.name
        ))
    })
}

/// The body's namespace: the URL's when it names none, refused when it names another; none
/// for a cluster-scoped resource.
fn set_namespace(body: &mut Value, target: &Target) -> Option<Response> {
    let namespace = nested_str(body, &["metadata", "namespace"]);
    if target.namespace.is_empty() {
        remove(body, &["metadata", "namespace"]);
        return None;
    }
    if !namespace.is_empty() && namespace != target.namespace {
        return Some(status::bad_request(NAMESPACE_MISMATCH));
    }
    set(
        body,
        &["metadata", "namespace"],
        Value::from(target.namespace.as_str()),
    );
    None
}

/// An update's preconditions: the body's `resourceVersion` (required for custom resources)
/// and `uid`.
fn preconditions(call: &Call<'_>, body: &Value, stored: &Value) -> Option<Response> {
    let r = &call.resource;
    let rv = nested_str(body, &["metadata", "resourceVersion"]);
    let stored_rv = nested_str(stored, &["metadata", "resourceVersion"]);
    if rv.is_empty() && r.custom {
        return Some(status::invalid(
            &r.group,
            &r.plural,
            &call.target.name,
            vec![Cause {
                kind: "FieldValueInvalid".into(),
                message: "Invalid value: 0: must be specified for an update".into(),
                field: "metadata.resourceVersion".into(),
            }],
        ));
    }
    if !rv.is_empty() && rv.parse::<u64>().is_err() {
        // The storage parses the version before comparing it.
        return Some(status::failure(
            500,
            "",
            &format!(
                "strconv.ParseUint: parsing {}: invalid syntax",
                status::quote(rv)
            ),
            None,
        ));
    }
    if !rv.is_empty() && rv != stored_rv {
        return Some(status::conflict(
            &r.group,
            &r.plural,
            &call.target.name,
            MODIFIED,
        ));
    }
    uid_precondition(call, body, nested_str(stored, &["metadata", "uid"]))
}

/// The storage's uid precondition: a body's uid against the stored object's (`""` for an
/// object the update is about to create).
fn uid_precondition(call: &Call<'_>, body: &Value, stored_uid: &str) -> Option<Response> {
    let r = &call.resource;
    let uid = nested_str(body, &["metadata", "uid"]);
    if !uid.is_empty() && uid != stored_uid {
        let prefix = if r.custom {
            format!("/registry/{}/{}", r.group, r.plural)
        } else {
            format!("/registry/{}", r.plural)
        };
        let key = if call.target.namespace.is_empty() {
            format!("{prefix}/{}", call.target.name)
        } else {
            format!("{prefix}/{}/{}", call.target.namespace, call.target.name)
        };
        return Some(status::conflict(
            &r.group,
            &r.plural,
            &call.target.name,
            &format!(
                "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {uid}, UID in object meta: {stored_uid}"
            ),
        ));
    }
    None
}

/// The group an `Invalid` of a create names: a custom resource's; a built-in's registry names
/// the kind alone.
fn group_if_custom(resource: &Resource) -> &str {
    if resource.custom { &resource.group } else { "" }
}

/// The built-in resources whose registry sets `metadata.generation` (`Generation = 1` in the
/// strategy's `PrepareForCreate`, Kubernetes 1.37); every custom resource does.
const GENERATIONS: &[(&str, &str)] = &[
    ("admissionregistration.k8s.io", "mutatingadmissionpolicies"),
    (
        "admissionregistration.k8s.io",
        "mutatingadmissionpolicybindings",
    ),
    (
        "admissionregistration.k8s.io",
        "mutatingwebhookconfigurations",
    ),
    (
        "admissionregistration.k8s.io",
        "validatingadmissionpolicies",
    ),
    (
        "admissionregistration.k8s.io",
        "validatingadmissionpolicybindings",
    ),
    (
        "admissionregistration.k8s.io",
        "validatingwebhookconfigurations",
    ),
    ("apiextensions.k8s.io", "customresourcedefinitions"),
    ("apps", "daemonsets"),
    ("apps", "deployments"),
    ("apps", "replicasets"),
    ("apps", "statefulsets"),
    ("autoscaling", "horizontalpodautoscalers"),
    ("batch", "cronjobs"),
    ("batch", "jobs"),
    ("", "pods"),
    ("", "podtemplates"),
    ("", "replicationcontrollers"),
    ("discovery.k8s.io", "endpointslices"),
    ("flowcontrol.apiserver.k8s.io", "flowschemas"),
    (
        "flowcontrol.apiserver.k8s.io",
        "prioritylevelconfigurations",
    ),
    ("networking.k8s.io", "ingresses"),
    ("networking.k8s.io", "ingressclasses"),
    ("networking.k8s.io", "networkpolicies"),
    ("policy", "poddisruptionbudgets"),
    ("resource.k8s.io", "deviceclasses"),
    ("resource.k8s.io", "devicetaintrules"),
    ("resource.k8s.io", "resourceslices"),
    ("scheduling.k8s.io", "priorityclasses"),
];

fn counts_generations(resource: &Resource) -> bool {
    resource.custom
        || GENERATIONS
            .iter()
            .any(|(g, p)| *g == resource.group && *p == resource.plural)
}

/// Whether an update changed more than metadata (and status, where the status is a
/// subresource of its own); a Deployment's annotations count too, outside its status
/// subresource, as its strategy copies them to its ReplicaSets.
fn spec_changed(resource: &Resource, subresource: &str, old: &Value, new: &Value) -> bool {
    let deployment = !resource.custom
        && resource.group == "apps"
        && resource.plural == "deployments"
        && subresource != "status";
    let strip = |v: &Value| -> Map {
        let mut m = v.as_map().cloned().unwrap_or_default();
        let annotations = get(v, &["metadata", "annotations"]).cloned();
        m.remove("metadata");
        if deployment && let Some(a) = annotations {
            m.insert("metadata", a);
        }
        if resource.status {
            m.remove("status");
        }
        m
    };
    strip(old) != strip(new)
}

/// The plural of a built-in resource of the core group, else `""`.
fn core_plural(resource: &Resource) -> &str {
    if resource.custom || !resource.group.is_empty() {
        return "";
    }
    &resource.plural
}

fn get<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut at = value;
    for key in path {
        at = at.as_map()?.get(key)?;
    }
    Some(at)
}

fn nested_str<'a>(value: &'a Value, path: &[&str]) -> &'a str {
    value.str_at(path)
}

fn set(value: &mut Value, path: &[&str], new: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = value;
    for key in parents {
        let Some(map) = at.as_map_mut() else {
            return;
        };
        if !matches!(map.get(key), Some(Value::Map(_))) {
            map.insert(*key, Value::Map(Map::new()));
        }
        match map.get_mut(key) {
            Some(next) => at = next,
            None => return,
        }
    }
    if let Some(map) = at.as_map_mut() {
        map.insert(*last, new);
    }
}

fn remove(value: &mut Value, path: &[&str]) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = value;
    for key in parents {
        match at.as_map_mut().and_then(|m| m.get_mut(key)) {
            Some(next) => at = next,
            None => return,
        }
    }
    if let Some(map) = at.as_map_mut() {
        map.remove(last);
    }
}
