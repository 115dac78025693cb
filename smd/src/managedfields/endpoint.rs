//! One API endpoint as the API server serves it around the field manager: the request checks
//! before it, the registry's work after it (values of reset fields restored, `uid` and
//! `creationTimestamp`), the `scale` subresource's round trip through a Scale object, and
//! kubectl's client-side-apply upgrade sent as an update.
//!
//! Where the field manager ([`FieldManager`]) answers "who owns what", an [`Endpoint`] answers
//! "what would the API server store": the object `kubectl get` shows after the request.

use std::collections::BTreeMap;

use smd_fieldpath::{Map, PathElement, Set, Value};
use smd_schema::gvk::GroupVersionKind;

use super::csa::{find_fields_owners, upgrade_managed_fields};
use super::entry::{Entry, entries_or_none, entry_to_value, set_entries};
use super::error::{Cause, Error};
use super::identity::Operation;
use super::last_applied::LAST_APPLIED_ANNOTATION;
use super::manager::FieldManager;
use super::object::{describe, group_version, nested_str};
use super::reset::{
    ReplicasPaths, ResetFields, custom_resource_replicas_paths, kubernetes_replicas_paths,
};
use super::reset_table::RESET;
use super::scale::{SCALE_API_VERSION, ScaleHandler};
use super::scale_object::{scale_metadata, scale_object};
use super::time::Timestamp;
use super::types::TypeResolver;
use super::validate::{Request, validate_manager};

/// The replicas a custom resource's Scale shows when the resource has none
/// (`AE/registry/customresource/etcd.go`, refused after the update).
const CR_MISSING_REPLICAS: i64 = i32::MIN as i64;

/// A write the API server accepted: the object it stores, and, for updates, the error the
/// field manager swallowed (the API server logs it and keeps the stored managedFields).
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The stored object, `metadata.managedFields` included.
    pub object: Value,
    /// Why the field manager could not record the update, if it could not.
    pub managed_fields_error: Option<Error>,
}

/// What an endpoint does about the scale subresource.
#[derive(Debug, Clone)]
struct ScaleSubresource {
    /// Per parent apiVersion, the replicas path (`ResourcePathMappings`).
    mappings: ReplicasPaths,
    /// Where this version keeps the desired and observed replicas (field names).
    spec_replicas: Vec<String>,
    status_replicas: Vec<String>,
    /// Custom resources: the CRD's `labelSelectorPath` and `specReplicasPath` as written.
    custom: Option<(Option<Vec<String>>, String)>,
}

/// The API server's endpoint for one kind: its main resource and the subresources it serves.
///
/// ```
/// use smd::fieldpath::yaml;
/// use smd::managedfields::{Endpoint, Timestamp};
/// use smd::GroupVersionKind;
///
/// let deployments = Endpoint::kubernetes(GroupVersionKind::new("apps", "v1", "Deployment"));
/// let manifest = yaml::from_str("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, \
///     spec: {replicas: 2}, status: {replicas: 9}}")?;
/// let created = deployments.apply(None, &manifest, "kubectl", false, "", Timestamp::from_unix(0))?;
/// // The main resource resets the status, as the registry strategy does.
/// assert!(created.as_map().unwrap().get("status").is_none());
/// // An HPA scales it through the scale subresource.
/// let scaled = deployments.scale(&created, 5, "hpa", Timestamp::from_unix(60))?;
/// assert_eq!(scaled.object.as_map().unwrap().get("spec").unwrap().as_map().unwrap()
///     .get("replicas"), Some(&smd::fieldpath::Value::Int(5)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Endpoint {
    kind: GroupVersionKind,
    /// Field managers by subresource: `""` always, `status` when served.
    managers: BTreeMap<String, FieldManager>,
    /// The paths whose values the registry restores, by subresource.
    reset_paths: BTreeMap<String, Vec<Vec<String>>>,
    scale: Option<(ScaleSubresource, FieldManager)>,
    uid: Option<String>,
}

impl Endpoint {
    /// The endpoint of a built-in kind of Kubernetes 1.37, typed by the embedded schema: the
    /// reset fields and subresources of its registry (a kind the table does not list has a
    /// main resource only, resetting nothing).
    pub fn kubernetes(kind: GroupVersionKind) -> Endpoint {
        Endpoint::kubernetes_with_types(kind, TypeResolver::kubernetes())
    }

    /// [`Endpoint::kubernetes`] typing objects with `types` (a served OpenAPI document, the
    /// embedded schema extended with CRDs).
    pub fn kubernetes_with_types(kind: GroupVersionKind, types: TypeResolver) -> Endpoint {
        let mut resets = BTreeMap::new();
        resets.insert(
            String::new(),
            ResetFields::kubernetes(&kind.group, &kind.kind, ""),
        );
        let has_status = RESET.iter().any(|(g, k, s, _)| {
            (*g, *k, *s) == (kind.group.as_str(), kind.kind.as_str(), "status")
        });
        if has_status {
            resets.insert(
                "status".to_owned(),
                ResetFields::kubernetes(&kind.group, &kind.kind, "status"),
            );
        }
        let mappings = kubernetes_replicas_paths(&kind.group, &kind.kind);
        let scale = (!mappings.is_empty()).then(|| ScaleSubresource {
            mappings,
            spec_replicas: vec!["spec".to_owned(), "replicas".to_owned()],
            status_replicas: vec!["status".to_owned(), "replicas".to_owned()],
            custom: None,
        });
        let scale_kind = GroupVersionKind::new("autoscaling", "v1", "Scale");
        let scale_manager = FieldManager::new(types.clone(), scale_kind).with_subresource("scale");
        Endpoint::assemble(kind, &types, resets, scale.map(|s| (s, scale_manager)))
    }

    /// The endpoint of a custom resource: `crd` (an `apiextensions.k8s.io/v1`
    /// `CustomResourceDefinition`) serving `version`, typed by `types` (which must know the
    /// CRD's kinds: [`TypeResolver::with_crds`]). Its subresources and reset fields are the
    /// CRD's (`AE/apiserver/customresource_handler.go`). `None` when the CRD does not serve
    /// `version`.
    pub fn custom_resource(crd: &Value, version: &str, types: TypeResolver) -> Option<Endpoint> {
        let group = nested_str(crd, &["spec", "group"]);
        let kind_name = nested_str(crd, &["spec", "names", "kind"]);
        let versions = crd
            .as_map()
            .and_then(|m| m.get("spec"))
            .and_then(Value::as_map)
            .and_then(|s| s.get("versions"))
            .and_then(Value::as_list)
            .unwrap_or_default();
        let served = versions.iter().find(|v| {
            nested_str(v, &["name"]) == version
                && v.as_map().and_then(|m| m.get("served")) == Some(&Value::Bool(true))
        })?;
        let kind = GroupVersionKind::new(group, version, kind_name);
        let subresource = |name: &str| {
            served
                .as_map()
                .and_then(|m| m.get("subresources"))
                .and_then(Value::as_map)
                .and_then(|s| s.get(name))
                .filter(|s| !s.is_null())
        };
        let mut resets = BTreeMap::new();
        resets.insert(
            String::new(),
            ResetFields::custom_resource(crd, version, ""),
        );
        if subresource("status").is_some() {
            resets.insert(
                "status".to_owned(),
                ResetFields::custom_resource(crd, version, "status"),
            );
        }
        let scale = subresource("scale").map(|s| {
            let path = |key: &str| nested_str(s, &[key]).to_owned();
            let spec_path = path("specReplicasPath");
            let selector = s
                .as_map()
                .and_then(|m| m.get("labelSelectorPath"))
                .and_then(Value::as_str)
                .map(split_replicas_path);
            ScaleSubresource {
                mappings: custom_resource_replicas_paths(crd),
                spec_replicas: split_replicas_path(&spec_path),
                status_replicas: split_replicas_path(&path("statusReplicasPath")),
                custom: Some((selector, spec_path)),
            }
        });
        // The scale scope is a copy of the CR's: the CRD's types; its hub is the CR's
        // version, which only matters for conversion, and smd converts nothing.
        let scale_kind = GroupVersionKind::new("autoscaling", "v1", "Scale");
        let scale_manager = FieldManager::new(types.clone(), scale_kind).with_subresource("scale");
        Some(Endpoint::assemble(
            kind,
            &types,
            resets,
            scale.map(|s| (s, scale_manager)),
        ))
    }

    /// This endpoint with [`FieldManager::with_builtin_decoding`] on its main resource and
    /// status: an apply's merged object of a built-in kind goes through its Go type and the
    /// scheme's defaults, as on a real API server. Off by default (the Go-library goldens'
    /// test field manager neither decodes nor defaults). The scale subresource's manager
    /// works on the Scale object, whose merged result only lends its replicas to the parent,
    /// and is left as it is.
    pub fn with_builtin_decoding(mut self) -> Endpoint {
        self.managers = std::mem::take(&mut self.managers)
            .into_iter()
            .map(|(k, m)| (k, m.with_builtin_decoding()))
            .collect();
        self
    }

    fn assemble(
        kind: GroupVersionKind,
        types: &TypeResolver,
        resets: BTreeMap<String, ResetFields>,
        scale: Option<(ScaleSubresource, FieldManager)>,
    ) -> Endpoint {
        let mut managers = BTreeMap::new();
        let mut reset_paths = BTreeMap::new();
        for (subresource, reset) in &resets {
            managers.insert(
                subresource.clone(),
                FieldManager::new(types.clone(), kind.clone())
                    .with_subresource(subresource.clone())
                    .with_reset_fields(reset),
            );
            reset_paths.insert(subresource.clone(), reset.field_paths());
        }
        Endpoint {
            kind,
            managers,
            reset_paths,
            scale,
            uid: None,
        }
    }

    /// This endpoint giving the objects it creates `uid` (the API server draws a random one;
    /// by default smd sets none).
    pub fn with_uid(mut self, uid: impl Into<String>) -> Endpoint {
        self.uid = Some(uid.into());
        self
    }

    /// The kind served.
    pub fn kind(&self) -> &GroupVersionKind {
        &self.kind
    }

    /// The field manager of `subresource` (`""`, `status` or `scale`).
    pub fn field_manager(&self, subresource: &str) -> Result<&FieldManager, Error> {
        let found = match subresource {
            "scale" => self.scale.as_ref().map(|(_, m)| m),
            other => self.managers.get(other),
        };
        found.ok_or_else(|| self.not_served(subresource))
    }

    fn not_served(&self, subresource: &str) -> Error {
        Error::NotFound(format!(
            "{} has no {subresource} subresource",
            kind_text(&self.kind)
        ))
    }

    /// A server-side apply of `patch` by `manager` (`force` takes conflicting fields) on the
    /// stored object, or a create when `stored` is `None`; `subresource` is `""`, `status` or
    /// `scale` (then `patch` is an `autoscaling/v1` Scale, whose `spec.replicas` becomes an
    /// int32 as Go's `FromUnstructured` makes it and is then validated, with the server's
    /// errors). The object the API server stores.
    pub fn apply(
        &self,
        stored: Option<&Value>,
        patch: &Value,
        manager: &str,
        force: bool,
        subresource: &str,
        now: Timestamp,
    ) -> Result<Value, Error> {
        if subresource == "scale" {
            let stored = stored.ok_or_else(|| not_found_object(&self.kind))?;
            return self
                .scale_request(stored, ScaleRequest::Apply { patch, force }, manager, now)
                .map(|w| w.object);
        }
        let field_manager = self.field_manager(subresource)?;
        if !subresource.is_empty() && stored.is_none() {
            return Err(not_found_object(&self.kind));
        }
        validate_manager(manager, Request::Apply)?;
        let new_object;
        let live = match stored {
            Some(s) => s,
            None => {
                new_object = field_manager.new_object();
                &new_object
            }
        };
        let out = field_manager.apply(live, patch, manager, force, now)?;
        Ok(self.finish(stored, out, subresource, now))
    }

    /// A create (POST) of `body` by `manager` (empty: the User-Agent's product, as
    /// [`manager_or_user_agent`](super::manager_or_user_agent) takes it, then `unknown`).
    pub fn create(&self, body: Value, manager: &str, now: Timestamp) -> Result<Written, Error> {
        validate_manager(manager, Request::Create)?;
        let field_manager = self.field_manager("")?;
        let live = field_manager.new_object();
        Ok(self.write(field_manager, None, &live, body, manager, now))
    }

    /// A create of `body` by `manager` through `subresource` (`""` or `status`): an update the
    /// registry turns into a create because it found no object (its strategy's
    /// `AllowCreateOnUpdate`). The subresource's field manager records the Update; the
    /// object is prepared by the main resource's strategy, as every create is.
    pub fn create_through(
        &self,
        body: Value,
        manager: &str,
        subresource: &str,
        now: Timestamp,
    ) -> Result<Written, Error> {
        validate_manager(manager, Request::Update)?;
        let field_manager = self.field_manager(subresource)?;
        let live = field_manager.new_object();
        let (object, managed_fields_error) =
            match field_manager.update(&live, body.clone(), manager, now) {
                Ok(object) => (object, None),
                Err(e) => (
                    field_manager.update_no_errors(&live, body, manager, now),
                    Some(e),
                ),
            };
        Ok(Written {
            object: self.finish(None, object, "", now),
            managed_fields_error,
        })
    }

    /// A server-side apply of `patch` through `subresource` (`status`) that creates the
    /// object (a registry whose update creates what it does not find): the subresource's
    /// field manager applies to an empty object, the main strategy prepares the create.
    pub fn apply_create_through(
        &self,
        patch: &Value,
        manager: &str,
        force: bool,
        subresource: &str,
        now: Timestamp,
    ) -> Result<Value, Error> {
        let field_manager = self.field_manager(subresource)?;
        validate_manager(manager, Request::Apply)?;
        let live = field_manager.new_object();
        let out = field_manager.apply(&live, patch, manager, force, now)?;
        Ok(self.finish(None, out, "", now))
    }

    /// An update (PUT of the whole object) of `stored` into `body` by `manager` through
    /// `subresource` (`""` or `status`).
    pub fn update(
        &self,
        stored: &Value,
        body: Value,
        manager: &str,
        subresource: &str,
        now: Timestamp,
    ) -> Result<Written, Error> {
        if subresource == "scale" {
            return Err(Error::BadRequest(
                "an update of the scale subresource takes replicas: use Endpoint::scale".into(),
            ));
        }
        let field_manager = self.field_manager(subresource)?;
        validate_manager(manager, Request::Update)?;
        Ok(self.write(field_manager, Some(stored), stored, body, manager, now))
    }

    /// `UpdateNoErrors` through `field_manager`, then the registry's work; the field manager's
    /// own error, if any, is kept beside the result.
    fn write(
        &self,
        field_manager: &FieldManager,
        stored: Option<&Value>,
        live: &Value,
        body: Value,
        manager: &str,
        now: Timestamp,
    ) -> Written {
        let (object, managed_fields_error) =
            match field_manager.update(live, body.clone(), manager, now) {
                Ok(object) => (object, None),
                Err(e) => (
                    field_manager.update_no_errors(live, body, manager, now),
                    Some(e),
                ),
            };
        Written {
            object: self.finish(stored, object, field_manager.subresource(), now),
            managed_fields_error,
        }
    }

    /// An update of the scale subresource setting the replicas to `replicas` (what an
    /// autoscaler or `kubectl scale` sends), by `manager`. As the API server: replicas outside
    /// int32 are refused as its JSON decoder refuses them (400), negative ones as its validation
    /// does (422: the Scale's for built-in kinds, the custom resource's for CRs).
    pub fn scale(
        &self,
        stored: &Value,
        replicas: i64,
        manager: &str,
        now: Timestamp,
    ) -> Result<Written, Error> {
        self.scale_request(stored, ScaleRequest::Update { replicas }, manager, now)
    }

    fn scale_request(
        &self,
        stored: &Value,
        request: ScaleRequest<'_>,
        manager: &str,
        now: Timestamp,
    ) -> Result<Written, Error> {
        let Some((scale, field_manager)) = &self.scale else {
            return Err(self.not_served("scale"));
        };
        let (kind, force) = match request {
            ScaleRequest::Apply { force, .. } => (Request::Apply, force),
            ScaleRequest::Update { .. } => (Request::Update, false),
        };
        validate_manager(manager, kind)?;
        if let ScaleRequest::Update { replicas } = request {
            // The body is decoded into the Go type before anything else: replicas is an int32.
            if i32::try_from(replicas).is_err() {
                return Err(Error::BadRequest(match scale.custom {
                    None => format!(
                        "Scale in version \"v1\" cannot be handled as a Scale: json: cannot \
                         unmarshal number {replicas} into Go struct field ScaleSpec.spec.replicas \
                         of type int32"
                    ),
                    // The custom resource's scale endpoint decodes with a scheme that lacks
                    // the v1 Scale, and says so instead.
                    Some(_) => "no kind is registered for the type v1.Scale in scheme \
                                \"pkg/runtime/scheme.go:111\""
                        .to_owned(),
                }));
            }
        }
        let mut parent = stored.clone();
        let handler = ScaleHandler::new(
            entries_or_none(&parent).unwrap_or_default(),
            group_version(&self.kind),
            scale.mappings.clone(),
        );
        let mut old_scale = match &scale.custom {
            None => scale_object(&parent)?,
            Some((selector, _)) => custom_scale_object(&parent, scale, selector.as_deref())?,
        };
        let entries = handler.to_subresource()?;
        // An apply to a Scale nobody manages first records the existing fields under
        // `before-first-apply` (once the patch's kind passed the version check), by an update
        // from an empty object the endpoint's creater makes; a custom resource's creater makes
        // it unstructured, which its converter refuses.
        let is_scale = |patch: &Value| {
            nested_str(patch, &["apiVersion"]) == SCALE_API_VERSION
                && nested_str(patch, &["kind"]) == "Scale"
        };
        if matches!(request, ScaleRequest::Apply { patch, .. } if is_scale(patch))
            && scale.custom.is_some()
            && entries.as_deref().is_none_or(<[Entry]>::is_empty)
        {
            return Err(Error::internal(format!(
                "failed to create manager for existing fields: failed to convert live object \
                 (/; {SCALE_API_VERSION}, Kind=Scale) to proper version: request to convert CR \
                 to an invalid group/version: {SCALE_API_VERSION}"
            )));
        }
        set_entries(&mut old_scale, entries.as_deref())
            .map_err(|e| Error::internal(e.to_string()))?;
        let mut managed_fields_error = None;
        let new_scale = match request {
            ScaleRequest::Apply { patch, .. } => {
                field_manager.apply(&old_scale, patch, manager, force, now)?
            }
            ScaleRequest::Update { replicas } => {
                let mut body = old_scale.clone();
                set_scale_replicas(&mut body, replicas);
                match field_manager.update(&old_scale, body.clone(), manager, now) {
                    Ok(object) => object,
                    Err(e) => {
                        managed_fields_error = Some(e);
                        field_manager.update_no_errors(&old_scale, body, manager, now)
                    }
                }
            }
        };
        let replicas = match request {
            ScaleRequest::Apply { patch, .. } => {
                let unconverted = || {
                    format!(
                        "failed to convert new object ({}) to proper version",
                        describe(patch)
                    )
                };
                // A changed Scale goes back to its Go type through the scale endpoint's
                // converter; a custom resource's converts only between the CRD's versions.
                if scale.custom.is_some() && changed(&old_scale, &new_scale) {
                    return Err(Error::internal(format!(
                        "{}: request to convert CR to an invalid group/version: \
                         {SCALE_API_VERSION}",
                        unconverted()
                    )));
                }
                scale_replicas(&new_scale).ok_or_else(|| {
                    Error::internal(format!(
                        "{}: unable to convert unstructured object to {SCALE_API_VERSION}, \
                         Kind=Scale: cannot convert float64 to int32",
                        unconverted()
                    ))
                })?
            }
            ScaleRequest::Update { replicas } => replicas,
        };
        let name = nested_str(stored, &["metadata", "name"]);
        match &scale.custom {
            Some((_, spec_path)) if replicas == CR_MISSING_REPLICAS => {
                return Err(Error::BadRequest(format!(
                    "the spec replicas field {} cannot be empty",
                    super::identity::quote(spec_path)
                )));
            }
            // The custom resource is validated after the replicas are copied in.
            Some((_, spec_path)) if replicas < 0 => {
                let detail = format!("Invalid value: {replicas}: should be a non-negative integer");
                return Err(Error::Invalid {
                    message: format!(
                        "{}.{} {} is invalid: {spec_path}: {detail}",
                        self.kind.kind,
                        self.kind.group,
                        super::identity::quote(name)
                    ),
                    causes: vec![Cause {
                        kind: "FieldValueInvalid".into(),
                        message: detail,
                        field: spec_path.clone(),
                    }],
                });
            }
            // ValidateScale, on the Scale before the parent is touched.
            None if replicas < 0 => {
                let detail =
                    format!("Invalid value: {replicas}: must be greater than or equal to 0");
                return Err(Error::Invalid {
                    message: format!(
                        "Scale.autoscaling {} is invalid: spec.replicas: {detail}",
                        super::identity::quote(name)
                    ),
                    causes: vec![Cause {
                        kind: "FieldValueInvalid".into(),
                        message: detail,
                        field: "spec.replicas".into(),
                    }],
                });
            }
            _ => {}
        }
        set_path(&mut parent, &scale.spec_replicas, Value::Int(replicas));
        let updated = handler.to_parent(entries_or_none(&new_scale).as_deref())?;
        set_entries(&mut parent, updated.as_deref()).map_err(|e| Error::internal(e.to_string()))?;
        Ok(Written {
            object: self.finish(Some(stored), parent, "scale", now),
            managed_fields_error,
        })
    }

    /// The Scale the scale subresource shows of `parent` (what a GET of `.../scale` and a
    /// write to it answer): `spec.replicas`, `status.replicas`, the selector, the parent's
    /// name, namespace, uid, resourceVersion and creationTimestamp.
    pub fn scale_of(&self, parent: &Value) -> Result<Value, Error> {
        let Some((scale, _)) = &self.scale else {
            return Err(self.not_served("scale"));
        };
        match &scale.custom {
            None => scale_object(parent),
            Some((selector, _)) => custom_scale_object(parent, scale, selector.as_deref()),
        }
    }

    /// kubectl's move of `stored` from client-side to server-side apply by `manager`
    /// (`migrateToSSAIfNecessary`): the Update managers owning the last-applied annotation
    /// (or `csa_managers`, when given) hand their fields to `manager`'s Apply entry, and the
    /// rewritten entries are sent as a JSON patch, which the API server handles as an update.
    /// `None` when there is nothing to rewrite; else the JSON patch and the stored result.
    pub fn upgrade_client_side_apply(
        &self,
        stored: &Value,
        manager: &str,
        csa_managers: Option<&[String]>,
        now: Timestamp,
    ) -> Result<Option<(Value, Written)>, Error> {
        let entries = entries_or_none(stored);
        let mut names: Vec<String> = match csa_managers {
            Some(names) => names.to_vec(),
            None => {
                let mut annotation = Set::new();
                annotation.insert(&[
                    PathElement::field("metadata"),
                    PathElement::field("annotations"),
                    PathElement::field(LAST_APPLIED_ANNOTATION),
                ]);
                find_fields_owners(
                    entries.as_deref().unwrap_or_default(),
                    Operation::Update,
                    &annotation,
                )
                .into_iter()
                .map(|e| e.manager.clone())
                .collect()
            }
        };
        names.sort();
        names.dedup();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let upgraded = upgrade_managed_fields(entries.as_deref(), &names, manager, "")
            .map_err(|e| Error::internal(e.to_string()))?;
        if upgraded == entries {
            return Ok(None);
        }
        let listed = match &upgraded {
            None => Value::Null,
            Some(list) => Value::List(
                list.iter()
                    .map(|e| entry_to_value(e, None))
                    .collect::<Result<_, _>>()
                    .map_err(Error::internal)?,
            ),
        };
        let patch = json_patch(
            listed.clone(),
            nested_str(stored, &["metadata", "resourceVersion"]),
        );
        validate_manager(manager, Request::Patch)?;
        let mut patched = stored.clone();
        if let Some(meta) = patched
            .as_map_mut()
            .and_then(|m| m.get_mut("metadata"))
            .and_then(Value::as_map_mut)
        {
            meta.insert("managedFields", listed);
        }
        let written = self.write(
            self.field_manager("")?,
            Some(stored),
            stored,
            patched,
            manager,
            now,
        );
        Ok(Some((patch, written)))
    }

    /// What the registry does with the field manager's output before storing it: values under
    /// the reset paths come from the stored object (or go, on a create); the fields only the
    /// internal version has as the strategy sets them ([`crate::builtin::prepare`]); `uid` and
    /// `creationTimestamp` are the stored object's, or set on a create. With built-in decoding
    /// the result is then what the server stores: its Go object encoded, so a reset status is
    /// `status: {}` (with the fields its struct always writes) where smd would drop it, and
    /// the next request's live object has the maps and zeros the server's has.
    fn finish(
        &self,
        stored: Option<&Value>,
        mut out: Value,
        subresource: &str,
        now: Timestamp,
    ) -> Value {
        // The scale subresource writes through the main resource's strategy.
        let strategy = if subresource == "scale" {
            ""
        } else {
            subresource
        };
        let managed = get_path(&out, &["metadata", "managedFields"]).cloned();
        for path in self.reset_paths.get(strategy).into_iter().flatten() {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            match stored.and_then(|s| get_path(s, &path)) {
                Some(old) => set_path(&mut out, &path, old.clone()),
                None => remove_path(&mut out, &path),
            }
        }
        match managed {
            Some(m) => set_path(&mut out, &["metadata", "managedFields"], m),
            None => remove_path(&mut out, &["metadata", "managedFields"]),
        }
        if self.decodes_builtin() {
            crate::builtin::prepare(&self.kind, stored, &mut out, subresource, &now.to_string());
        }
        match stored {
            None => {
                set_path(
                    &mut out,
                    &["metadata", "creationTimestamp"],
                    Value::from(now.to_string()),
                );
                match &self.uid {
                    Some(uid) => {
                        set_path(&mut out, &["metadata", "uid"], Value::from(uid.as_str()))
                    }
                    None => remove_path(&mut out, &["metadata", "uid"]),
                }
            }
            Some(old) => {
                if nested_str(&out, &["metadata", "uid"]).is_empty() {
                    match nested_str(old, &["metadata", "uid"]) {
                        "" => remove_path(&mut out, &["metadata", "uid"]),
                        uid => set_path(&mut out, &["metadata", "uid"], Value::from(uid)),
                    }
                }
                let created = nested_str(old, &["metadata", "creationTimestamp"]);
                if let Ok(t) = Timestamp::parse(created)
                    && !t.is_go_zero()
                {
                    set_path(
                        &mut out,
                        &["metadata", "creationTimestamp"],
                        Value::from(t.to_string()),
                    );
                }
            }
        }
        if self.decodes_builtin()
            && let Ok(stored_form) = crate::builtin::round_trip(&self.kind, &out)
        {
            let mut stored_form = stored_form.object;
            // The entries are the field manager's own encoding (a `fieldsV1` is raw bytes in
            // the Go object, written back as they are), which the round trip would re-sort.
            match get_path(&out, &["metadata", "managedFields"]) {
                Some(m) => set_path(&mut stored_form, &["metadata", "managedFields"], m.clone()),
                None => remove_path(&mut stored_form, &["metadata", "managedFields"]),
            }
            return stored_form;
        }
        out
    }

    /// Whether the main resource's manager decodes as the server does (a built-in kind served
    /// by [`Endpoint::with_builtin_decoding`]).
    fn decodes_builtin(&self) -> bool {
        crate::builtin::is_builtin(&self.kind)
            && self.managers.get("").is_some_and(|m| m.builtin_decoding)
    }
}

/// What a request to the scale subresource asks.
#[derive(Clone, Copy)]
enum ScaleRequest<'a> {
    Apply { patch: &'a Value, force: bool },
    Update { replicas: i64 },
}

/// `apps/v1 Deployment`, `v1 ConfigMap`.
fn kind_text(gvk: &GroupVersionKind) -> String {
    format!("{} {}", group_version(gvk), gvk.kind)
}

fn not_found_object(kind: &GroupVersionKind) -> Error {
    Error::NotFound(format!(
        "a request to a subresource of {} needs a stored object",
        kind_text(kind)
    ))
}

/// The Scale of a custom resource (`scaleFromCustomResource`): replicas read at the CRD's
/// paths as integers, the missing spec replicas shown as the sentinel.
fn custom_scale_object(
    parent: &Value,
    scale: &ScaleSubresource,
    selector: Option<&[String]>,
) -> Result<Value, Error> {
    let int_at = |path: &[String]| -> Result<Option<i64>, Error> {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        match get_path(parent, &path) {
            None => Ok(None),
            Some(Value::Int(n)) => Ok(Some(*n)),
            Some(other) => Err(Error::internal(format!(
                ".{} accessor error: {} is of the type {}, expected int64",
                path.join("."),
                smd_fieldpath::value::gofmt::value_plain(other),
                smd_fieldpath::value::gofmt::type_name(other)
            ))),
        }
    };
    let spec = int_at(&scale.spec_replicas)?.unwrap_or(CR_MISSING_REPLICAS) as i32;
    let status = int_at(&scale.status_replicas)?.unwrap_or(0) as i32;
    let selector = selector
        .map(|path| {
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            get_path(parent, &path)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        })
        .unwrap_or_default();
    let mut spec_map = Map::new();
    if spec != 0 {
        spec_map.insert("replicas", Value::Int(i64::from(spec)));
    }
    let mut status_map = Map::new();
    status_map.insert("replicas", Value::Int(i64::from(status)));
    if !selector.is_empty() {
        status_map.insert("selector", Value::from(selector));
    }
    let mut object = Map::new();
    object.insert("apiVersion", Value::from(SCALE_API_VERSION));
    object.insert("kind", Value::from("Scale"));
    object.insert("metadata", Value::Map(scale_metadata(parent)));
    object.insert("spec", Value::Map(spec_map));
    object.insert("status", Value::Map(status_map));
    Ok(Value::Map(object))
}

/// `spec.replicas` of an unstructured Scale as `FromUnstructured` sets the `int32` field:
/// integers wrap, an integral float converts as Go on amd64 converts it, absent or null is 0;
/// `None` for a fraction, which Go refuses.
fn scale_replicas(scale: &Value) -> Option<i64> {
    match get_path(scale, &["spec", "replicas"]) {
        Some(Value::Int(n)) => Some(i64::from(*n as i32)),
        Some(Value::Float(f)) if f.trunc() == *f => Some(i64::from(go_float_to_int32(*f))),
        Some(Value::Float(_)) => None,
        _ => Some(0),
    }
}

/// Go's `int32(f)` for an integral float64 on amd64 (the real server's platform): truncated to
/// an int64 (the out-of-range result is the "integer indefinite" 0x8000000000000000), then its
/// low 32 bits.
fn go_float_to_int32(f: f64) -> i32 {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    let wide = if (-TWO_63..TWO_63).contains(&f) {
        f as i64
    } else {
        i64::MIN
    };
    wide as i32
}

/// Whether the apply changed the Scale (Go's merge gives no new object when it did not).
fn changed(old: &Value, new: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        remove_path(&mut v, &["metadata", "managedFields"]);
        v
    };
    strip(old) != strip(new)
}

/// The Scale's desired replicas as its Go type writes them (`omitempty`: 0 is left out).
fn set_scale_replicas(scale: &mut Value, replicas: i64) {
    let replicas = i64::from(replicas as i32);
    if replicas == 0 {
        remove_path(scale, &["spec", "replicas"]);
    } else {
        set_path(scale, &["spec", "replicas"], Value::Int(replicas));
    }
}

/// `splitReplicasPath` (`AE/registry/customresource/etcd.go`).
fn split_replicas_path(path: &str) -> Vec<String> {
    path.strip_prefix('.')
        .unwrap_or(path)
        .split('.')
        .map(str::to_owned)
        .collect()
}

/// client-go's patch: the new entries, and the resourceVersion as a precondition.
fn json_patch(entries: Value, resource_version: &str) -> Value {
    let op = |path: &str, value: Value| {
        let mut m = Map::new();
        m.insert("op", Value::from("replace"));
        m.insert("path", Value::from(path));
        m.insert("value", value);
        Value::Map(m)
    };
    Value::List(vec![
        op("/metadata/managedFields", entries),
        op("/metadata/resourceVersion", Value::from(resource_version)),
    ])
}

fn get_path<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut at = value;
    for key in path {
        at = at.as_map()?.get(key)?;
    }
    Some(at)
}

/// Go's `SetNestedField`: missing (or null) maps on the way are created; a part that is not a
/// map stops it, and nothing is written.
fn set_path<S: AsRef<str>>(value: &mut Value, path: &[S], new: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = value;
    for key in parents {
        let Some(map) = at.as_map_mut() else {
            return;
        };
        let key = key.as_ref();
        if matches!(map.get(key), None | Some(Value::Null)) {
            map.insert(key, Value::Map(Map::new()));
        }
        match map.get_mut(key) {
            Some(next) => at = next,
            None => return,
        }
    }
    if let Some(map) = at.as_map_mut() {
        map.insert(last.as_ref(), new);
    }
}

/// Go's `RemoveNestedField`.
fn remove_path(value: &mut Value, path: &[&str]) {
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
