//! DELETE, as the generic registry store of kube-apiserver v1.37.2 deletes
//! (`k8s.io/apiserver` `pkg/registry/generic/registry/store.go`), with each registry's choices
//! kept as data ([`Registry::of`]): the garbage-collection policy a deletion without a
//! propagation policy follows (a `batch/v1` Job orphans its dependents: the object stays, marked,
//! with the `orphan` finalizer), whether the answer is the deleted object or a Success Status,
//! the Pod's graceful deletion, and the Namespace registry's own deletion (phase `Terminating`,
//! kept while `spec.finalizers` remain).
//!
//! The request's DeleteOptions are its JSON body, or, without a body, its query; they are
//! validated before the object is read. A deletion that leaves the object (finalizers to wait
//! for) is an update of it: a new revision unless nothing changed. The finalizers a propagation
//! policy adds (`orphan`, `foregroundDeletion`) are only recorded: no garbage collector runs
//! here, as on a server without kube-controller-manager.

use smd_fieldpath::Value;

use super::{ApiServer, Call, get, nested_str, not_found, ok, remove, set};
use crate::apiserver::http::{Request, Response};
use crate::apiserver::routes::Resource;
use crate::apiserver::status::{self, Details};
use crate::apiserver::store::{EventType, ObjectKey};
use crate::managedfields::{Cause, Timestamp};

/// The finalizer of a deletion whose dependents are orphaned.
const ORPHAN: &str = "orphan";
/// The finalizer of a deletion that waits for its dependents to go first.
const FOREGROUND: &str = "foregroundDeletion";

/// The finalizer of a Namespace's `spec` that its registry adds at creation.
const NAMESPACE_FINALIZER: &str = "kubernetes";

/// The warning the Job registry gives a deletion that names no propagation policy.
const JOB_ORPHANS_PODS: &str = "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning";

/// What a deletion without a propagation policy does with the object's dependents
/// (`rest.GarbageCollectionPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GcPolicy {
    /// Dependents go too, in the background: no finalizer is added.
    DeleteDependents,
    /// Dependents are orphaned: the `orphan` finalizer is added.
    OrphanDependents,
    /// The registry takes no part in garbage collection: propagation policies are ignored.
    Unsupported,
}

/// The registries whose deletions orphan dependents by default: (group, version, plural).
/// Each chose it for the first version of its kind, so that clients of it keep their meaning.
const ORPHAN_BY_DEFAULT: &[(&str, &str, &str)] = &[
    ("batch", "v1", "jobs"),
    ("", "v1", "replicationcontrollers"),
];

/// Registries without garbage collection: (group, plural).
const NO_GARBAGE_COLLECTION: &[(&str, &str)] = &[("", "events"), ("events.k8s.io", "events")];

/// Registries that answer a deletion with the object deleted, not a Success Status
/// (`ReturnDeletedObject`): (group, plural). (DeviceTaintRule does so only before v1, which
/// v1.37 does not serve.)
const ANSWER_THE_DELETED_OBJECT: &[(&str, &str)] = &[
    ("", "namespaces"),
    ("", "persistentvolumeclaims"),
    ("", "persistentvolumes"),
    ("", "pods"),
    ("", "podtemplates"),
    ("", "resourcequotas"),
    ("", "serviceaccounts"),
    ("", "services"),
    ("resource.k8s.io", "deviceclasses"),
    ("resource.k8s.io", "resourceclaims"),
    ("resource.k8s.io", "resourceclaimtemplates"),
    ("resource.k8s.io", "resourcepoolstatusrequests"),
    ("resource.k8s.io", "resourceslices"),
    ("storage.k8s.io", "csidrivers"),
    ("storage.k8s.io", "csinodes"),
    ("storage.k8s.io", "storageclasses"),
    ("storage.k8s.io", "volumeattachments"),
    ("storage.k8s.io", "volumeattributesclasses"),
];

/// The finalizers admission (StorageObjectInUseProtection) gives each new object of these
/// resources: (group, plural, finalizer).
const PROTECTION_FINALIZERS: &[(&str, &str, &str)] = &[
    ("", "persistentvolumeclaims", "kubernetes.io/pvc-protection"),
    ("", "persistentvolumes", "kubernetes.io/pv-protection"),
    (
        "storage.k8s.io",
        "volumeattributesclasses",
        "kubernetes.io/vac-protection",
    ),
];

/// How one resource's registry deletes.
#[derive(Debug, Clone, Copy)]
struct Registry {
    gc: GcPolicy,
    /// The answer is the deleted object (else a Success Status naming it).
    answers_object: bool,
    /// A graceful deletion (a Pod's): marked first, removed when its grace period is 0.
    graceful: bool,
    /// The Namespace registry's own deletion.
    namespace: bool,
    /// The warning given when the request names no propagation policy.
    unset_policy_warning: Option<&'static str>,
}

impl Registry {
    fn of(resource: &Resource) -> Registry {
        let (group, version, plural) = (
            resource.group.as_str(),
            resource.version.as_str(),
            resource.plural.as_str(),
        );
        let core = group.is_empty() && !resource.custom;
        let gc = if resource.custom {
            GcPolicy::DeleteDependents
        } else if ORPHAN_BY_DEFAULT.contains(&(group, version, plural)) {
            GcPolicy::OrphanDependents
        } else if NO_GARBAGE_COLLECTION.contains(&(group, plural)) {
            GcPolicy::Unsupported
        } else {
            GcPolicy::DeleteDependents
        };
        let jobs = !resource.custom && group == "batch" && plural == "jobs";
        Registry {
            gc,
            answers_object: !resource.custom
                && ANSWER_THE_DELETED_OBJECT.contains(&(group, plural)),
            graceful: core && plural == "pods",
            namespace: core && plural == "namespaces",
            unset_policy_warning: (jobs && gc == GcPolicy::OrphanDependents)
                .then_some(JOB_ORPHANS_PODS),
        }
    }
}

/// A request's DeleteOptions.
#[derive(Debug, Default)]
struct DeleteOptions {
    uid: Option<String>,
    resource_version: Option<String>,
    propagation: Option<String>,
    orphan_dependents: Option<bool>,
    grace_period: Option<i64>,
    dry_run: Vec<String>,
}

impl DeleteOptions {
    /// The options of `request`: its body when it has one, else its query (which the server
    /// then does not read at all).
    fn read(request: &Request) -> Result<DeleteOptions, Response> {
        if request.body.is_empty() {
            let text = |name: &str| {
                let v = request.query_value(name);
                (!v.is_empty()).then(|| v.to_owned())
            };
            let orphan_dependents = match text("orphanDependents") {
                None => None,
                Some(v) => Some(parse_bool(&v).ok_or_else(|| {
                    status::bad_request(&format!(
                        "strconv.ParseBool: parsing {}: invalid syntax",
                        status::quote(&v)
                    ))
                })?),
            };
            let grace_period = match text("gracePeriodSeconds") {
                None => None,
                Some(v) => Some(v.parse::<i64>().map_err(|_| {
                    status::bad_request(&format!(
                        "strconv.ParseInt: parsing {}: invalid syntax",
                        status::quote(&v)
                    ))
                })?),
            };
            return Ok(DeleteOptions {
                propagation: text("propagationPolicy"),
                orphan_dependents,
                grace_period,
                dry_run: request
                    .query_values("dryRun")
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
                ..DeleteOptions::default()
            });
        }
        let body = Value::from_json(&String::from_utf8_lossy(&request.body))
            .map_err(|e| status::bad_request(&format!("error decoding DeleteOptions: {e}")))?;
        let text = |path: &[&str]| get(&body, path).and_then(Value::as_str).map(str::to_owned);
        Ok(DeleteOptions {
            uid: text(&["preconditions", "uid"]),
            resource_version: text(&["preconditions", "resourceVersion"]),
            propagation: text(&["propagationPolicy"]),
            orphan_dependents: get(&body, &["orphanDependents"]).and_then(Value::as_bool),
            grace_period: get(&body, &["gracePeriodSeconds"]).and_then(Value::as_int),
            dry_run: get(&body, &["dryRun"])
                .and_then(Value::as_list)
                .map(|l| {
                    l.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
        })
    }

    /// The handler's validation of the options (422, before the object is read).
    fn refusal(&self) -> Option<Response> {
        let mut causes = Vec::new();
        if let (Some(_), Some(p)) = (self.orphan_dependents, &self.propagation) {
            causes.push(Cause {
                kind: "FieldValueInvalid".into(),
                message: format!(
                    "Invalid value: {}: orphanDependents and deletionPropagation cannot be both set",
                    status::quote(p)
                ),
                field: "propagationPolicy".into(),
            });
        }
        if let Some(p) = &self.propagation
            && !matches!(p.as_str(), "Foreground" | "Background" | "Orphan")
        {
            causes.push(Cause {
                kind: "FieldValueNotSupported".into(),
                message: format!(
                    "Unsupported value: {}: supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"",
                    status::quote(p)
                ),
                field: "propagationPolicy".into(),
            });
        }
        if self.dry_run.iter().any(|v| v != "All") {
            let values: Vec<String> = self.dry_run.iter().map(|v| status::quote(v)).collect();
            causes.push(Cause {
                kind: "FieldValueNotSupported".into(),
                message: format!(
                    "Unsupported value: [{}]: supported values: \"All\"",
                    values.join(",")
                ),
                field: "dryRun".into(),
            });
        }
        (!causes.is_empty()).then(|| status::invalid("meta.k8s.io", "DeleteOptions", "", causes))
    }

    fn dry_run(&self) -> bool {
        !self.dry_run.is_empty()
    }

    /// What becomes of the dependents: the finalizer this deletion puts on the object
    /// (`orphan`, `foregroundDeletion`) or `None` for background deletion. The options decide
    /// first (`orphanDependents`, then `propagationPolicy`), then the first of those two
    /// finalizers the object has, then the registry's default (`shouldOrphanDependents` and
    /// `shouldDeleteDependentsInForeground` answer together).
    fn dependents(&self, gc: GcPolicy, finalizers: &[String]) -> Option<&'static str> {
        if gc == GcPolicy::Unsupported {
            return None;
        }
        if let Some(orphan) = self.orphan_dependents {
            return orphan.then_some(ORPHAN);
        }
        match self.propagation.as_deref() {
            Some("Orphan") => return Some(ORPHAN),
            Some("Foreground") => return Some(FOREGROUND),
            Some("Background") => return None,
            _ => {}
        }
        if let Some(f) = finalizers.iter().find(|f| *f == ORPHAN || *f == FOREGROUND) {
            return if f == ORPHAN {
                Some(ORPHAN)
            } else {
                Some(FOREGROUND)
            };
        }
        (gc == GcPolicy::OrphanDependents).then_some(ORPHAN)
    }

    /// The object's finalizers as this deletion leaves them: the others kept in order, then
    /// `orphan` and `foregroundDeletion` as the policy asks; `None` when the set is unchanged.
    fn finalizers(&self, gc: GcPolicy, current: &[String]) -> Option<Vec<String>> {
        let mut new: Vec<String> = current
            .iter()
            .filter(|f| *f != ORPHAN && *f != FOREGROUND)
            .cloned()
            .collect();
        if let Some(f) = self.dependents(gc, current) {
            new.push(f.to_owned());
        }
        let set = |l: &[String]| l.iter().cloned().collect::<std::collections::BTreeSet<_>>();
        (set(&new) != set(current)).then_some(new)
    }

    /// The Namespace registry's finalizers: `orphan` and `foregroundDeletion` set only as
    /// the options say, else kept as they are; `None` when unchanged.
    fn namespace_finalizers(&self, current: &[String]) -> Option<Vec<String>> {
        let has = |f: &str| current.iter().any(|c| c == f);
        let orphan = match (self.orphan_dependents, self.propagation.as_deref()) {
            (Some(o), _) => o,
            (None, Some(p)) => p == "Orphan",
            (None, None) => has(ORPHAN),
        };
        let foreground = match (self.orphan_dependents, self.propagation.as_deref()) {
            (Some(o), _) => !o,
            (None, Some(p)) => p == "Foreground",
            (None, None) => has(FOREGROUND),
        };
        if orphan == has(ORPHAN) && foreground == has(FOREGROUND) {
            return None;
        }
        let mut new: Vec<String> = current
            .iter()
            .filter(|f| *f != ORPHAN && *f != FOREGROUND)
            .cloned()
            .collect();
        if orphan {
            new.push(ORPHAN.to_owned());
        }
        if foreground {
            new.push(FOREGROUND.to_owned());
        }
        Some(new)
    }
}

/// "true"/"false" as Go's `strconv.ParseBool` reads them.
fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

fn finalizers_of(object: &Value) -> Vec<String> {
    get(object, &["metadata", "finalizers"])
        .and_then(Value::as_list)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Sets the object's finalizers; none left, the field goes (Go's `omitempty`).
fn set_finalizers(object: &mut Value, finalizers: &[String]) {
    if finalizers.is_empty() {
        remove(object, &["metadata", "finalizers"]);
        return;
    }
    let list = finalizers.iter().map(|f| Value::from(f.as_str())).collect();
    set(object, &["metadata", "finalizers"], Value::List(list));
}

fn deletion_timestamp(object: &Value) -> Option<&Value> {
    get(object, &["metadata", "deletionTimestamp"]).filter(|t| !t.is_null())
}

/// The object marked for a deletion that waits for its finalizers (`markAsDeleting`): the
/// generation counted up the first time, the time of the request, no grace period.
fn mark_as_deleting(object: &mut Value, now: &str) {
    if deletion_timestamp(object).is_none() {
        if let Some(g) = get(object, &["metadata", "generation"]).and_then(Value::as_int)
            && g > 0
        {
            set(object, &["metadata", "generation"], Value::Int(g + 1));
        }
        set(object, &["metadata", "deletionTimestamp"], Value::from(now));
    }
    set(
        object,
        &["metadata", "deletionGracePeriodSeconds"],
        Value::Int(0),
    );
}

/// A Pod's grace period for this deletion (the Pod strategy's `CheckGracefulDelete`): the
/// request's, else the Pod's own; none for a Pod no node runs, or one that has ended.
fn pod_grace_period(options: &DeleteOptions, pod: &Value) -> i64 {
    let mut period = options.grace_period.unwrap_or_else(|| {
        get(pod, &["spec", "terminationGracePeriodSeconds"])
            .and_then(Value::as_int)
            .unwrap_or(0)
    });
    if nested_str(pod, &["spec", "nodeName"]).is_empty()
        || matches!(
            nested_str(pod, &["status", "phase"]),
            "Failed" | "Succeeded"
        )
    {
        period = 0;
    }
    if period < 0 { 1 } else { period }
}

/// Whether an update of an object being deleted removes it (`ShouldDeleteDuringUpdate`): the
/// update leaves no finalizer, the stored object was marked with no grace period left, and a
/// Namespace has no `spec.finalizers` left either.
pub(super) fn goes_on_update(resource: &Resource, stored: &Value, updated: &Value) -> bool {
    if !finalizers_of(updated).is_empty() || deletion_timestamp(stored).is_none() {
        return false;
    }
    if Registry::of(resource).namespace
        && get(updated, &["spec", "finalizers"])
            .and_then(Value::as_list)
            .is_some_and(|l| !l.is_empty())
    {
        return false;
    }
    get(stored, &["metadata", "deletionGracePeriodSeconds"])
        .and_then(Value::as_int)
        .is_none_or(|g| g == 0)
}

/// The finalizers a new object of `resource` gets before it is stored: those admission
/// (StorageObjectInUseProtection) gives PersistentVolumeClaims, PersistentVolumes and
/// VolumeAttributesClasses, and a Namespace's `kubernetes` in `spec.finalizers`, which its
/// registry adds (the Namespace then waits for it when deleted).
pub(super) fn prepare_create(resource: &Resource, object: &mut Value) {
    if resource.custom {
        return;
    }
    if let Some((_, _, finalizer)) = PROTECTION_FINALIZERS
        .iter()
        .find(|(g, p, _)| *g == resource.group && *p == resource.plural)
    {
        let mut finalizers = finalizers_of(object);
        if !finalizers.iter().any(|f| f == finalizer) {
            finalizers.push((*finalizer).to_owned());
            set_finalizers(object, &finalizers);
        }
    }
    if Registry::of(resource).namespace {
        let mut list: Vec<Value> = get(object, &["spec", "finalizers"])
            .and_then(Value::as_list)
            .map(<[Value]>::to_vec)
            .unwrap_or_default();
        if !list.iter().any(|f| f.as_str() == Some(NAMESPACE_FINALIZER)) {
            list.push(Value::from(NAMESPACE_FINALIZER));
            set(object, &["spec", "finalizers"], Value::List(list));
        }
    }
}

/// What an update cannot change that deletion depends on: the marking of an object being
/// deleted (its `deletionTimestamp`, and its `deletionGracePeriodSeconds` when the update
/// has none), and a Namespace's `spec.finalizers` (changed only through its `finalize`
/// subresource) stay as stored.
pub(super) fn prepare_update(resource: &Resource, stored: &Value, object: &mut Value) {
    if let Some(t) = deletion_timestamp(stored) {
        set(object, &["metadata", "deletionTimestamp"], t.clone());
        let grace = ["metadata", "deletionGracePeriodSeconds"];
        if let Some(g) = get(stored, &grace).filter(|g| !g.is_null())
            && get(object, &grace).is_none_or(Value::is_null)
        {
            set(object, &grace, g.clone());
        }
    }
    if !Registry::of(resource).namespace {
        return;
    }
    match get(stored, &["spec", "finalizers"]) {
        Some(f) => set(object, &["spec", "finalizers"], f.clone()),
        None => remove(object, &["spec", "finalizers"]),
    }
}

impl ApiServer {
    /// The NamespaceLifecycle admission of a create: nothing new goes into a Namespace this
    /// server holds in phase `Terminating` (403). A Namespace it does not hold is not
    /// checked (namespaces need not exist here).
    pub(super) fn refuse_in_terminating_namespace(
        &self,
        call: &Call<'_>,
        name: &str,
    ) -> Option<Response> {
        let namespace = &call.target.namespace;
        if !call.resource.namespaced || namespace.is_empty() {
            return None;
        }
        let key = ObjectKey::new("", "namespaces", "", namespace);
        let held = self.store.get(&key)?;
        if nested_str(held, &["status", "phase"]) != "Terminating" {
            return None;
        }
        let mut details = Details::of(&call.resource.group, &call.resource.plural, name);
        details.causes.push(Cause {
            kind: "NamespaceTerminating".into(),
            message: format!("namespace {namespace} is being terminated"),
            field: "metadata.namespace".into(),
        });
        let what = status::qualified(&call.resource.plural, &call.resource.group);
        let subject = if name.is_empty() {
            what
        } else {
            format!("{what} {}", status::quote(name))
        };
        Some(status::failure(
            403,
            "Forbidden",
            &format!(
                "{subject} is forbidden: unable to create new content in namespace {namespace} because it is being terminated"
            ),
            Some(&details),
        ))
    }

    /// A DELETE of one object.
    pub(super) fn delete(&mut self, call: &Call<'_>) -> Response {
        let options = match DeleteOptions::read(call.request) {
            Ok(o) => o,
            Err(r) => return r,
        };
        if let Some(refusal) = options.refusal() {
            return refusal;
        }
        let registry = Registry::of(&call.resource);
        let warning = registry
            .unset_policy_warning
            .filter(|_| options.propagation.is_none() && options.orphan_dependents.is_none());
        // The object as the request's version reads it (the answer is at that version).
        let mut response = match self.held_for(&call.resource, &call.key) {
            None => not_found(call),
            Some(Err(refusal)) => refusal,
            Some(Ok(stored)) if registry.namespace => {
                self.delete_namespace(call, &options, registry, stored)
            }
            Some(Ok(stored)) => self.delete_stored(call, &options, registry, stored),
        };
        response.warnings.extend(warning.map(str::to_owned));
        response
    }

    /// The generic store's deletion of `stored`.
    fn delete_stored(
        &mut self,
        call: &Call<'_>,
        options: &DeleteOptions,
        registry: Registry,
        stored: Value,
    ) -> Response {
        let uid = nested_str(&stored, &["metadata", "uid"]).to_owned();
        let rv = nested_str(&stored, &["metadata", "resourceVersion"]).to_owned();
        let (group, kind, name) = (&call.resource.group, &call.resource.kind, &call.target.name);
        if let Some(want) = &options.uid
            && *want != uid
        {
            return status::conflict(
                group,
                kind,
                name,
                &format!(
                    "the UID in the precondition ({want}) does not match the UID in record ({uid}). The object might have been deleted and then recreated"
                ),
            );
        }
        if let Some(want) = &options.resource_version
            && *want != rv
        {
            return status::conflict(
                group,
                kind,
                name,
                &format!(
                    "the ResourceVersion in the precondition ({want}) does not match the ResourceVersion in record ({rv}). The object might have been modified"
                ),
            );
        }
        let now = call.now.to_string();
        let mut object = stored.clone();
        // A graceful deletion (a Pod's) marks the object with its grace period; one already
        // marked with time left only waits.
        let mut graceful = None;
        if registry.graceful {
            let marked_grace = get(&stored, &["metadata", "deletionGracePeriodSeconds"])
                .and_then(Value::as_int)
                .unwrap_or(0);
            if let Some(marked_at) = deletion_timestamp(&stored) {
                if marked_grace > 0 {
                    // A shorter grace period moves the deletion nearer (not before now);
                    // any other request waits for the one under way.
                    let Some(period) = options.grace_period.filter(|p| *p < marked_grace) else {
                        return self.answer_kept(options, stored);
                    };
                    let marked_at = marked_at
                        .as_str()
                        .and_then(|t| Timestamp::parse(t).ok())
                        .map_or(call.now.unix(), Timestamp::unix);
                    let mut at = marked_at - marked_grace + period;
                    let mut period = period;
                    if at < call.now.unix() {
                        at = call.now.unix();
                        if period != 0 {
                            period = 1;
                        }
                    }
                    set(
                        &mut object,
                        &["metadata", "deletionTimestamp"],
                        Value::from(Timestamp::from_unix(at).to_string()),
                    );
                    set(
                        &mut object,
                        &["metadata", "deletionGracePeriodSeconds"],
                        Value::Int(period),
                    );
                    graceful = Some(period);
                }
            } else {
                let period = pod_grace_period(options, &stored);
                let at = Timestamp::from_unix(call.now.unix() + period);
                set(
                    &mut object,
                    &["metadata", "deletionTimestamp"],
                    Value::from(at.to_string()),
                );
                set(
                    &mut object,
                    &["metadata", "deletionGracePeriodSeconds"],
                    Value::Int(period),
                );
                if let Some(g) = get(&object, &["metadata", "generation"]).and_then(Value::as_int)
                    && g > 0
                {
                    set(&mut object, &["metadata", "generation"], Value::Int(g + 1));
                }
                graceful = Some(period);
            }
        }
        let current = finalizers_of(&stored);
        let changed = options.finalizers(registry.gc, &current);
        let mut deleted = stored;
        if graceful.is_some() || !current.is_empty() || changed.is_some() {
            if let Some(f) = &changed {
                set_finalizers(&mut object, f);
            }
            let pending = !finalizers_of(&object).is_empty();
            match graceful {
                None if !pending => {
                    // Nothing to wait for: deleted at once, the update not written.
                    return self.remove(call, options, registry, deleted);
                }
                None => mark_as_deleting(&mut object, &now),
                Some(_) => {}
            }
            let object = self.write(call, options, object);
            if pending || graceful.is_some_and(|p| p > 0) {
                return self.answer_kept(options, object);
            }
            if options.dry_run() {
                return ok(200, object);
            }
            deleted = object;
        }
        self.remove(call, options, registry, deleted)
    }

    /// Stores a deletion's marking as an update (a new revision unless nothing changed; none
    /// on a dry run), and gives the object as written.
    fn write(&mut self, call: &Call<'_>, options: &DeleteOptions, mut object: Value) -> Value {
        if options.dry_run() || self.store.written(&call.key) == Some(&object) {
            return object;
        }
        let rv = self.store.next_revision();
        set(
            &mut object,
            &["metadata", "resourceVersion"],
            Value::from(rv),
        );
        let previous = self.store.get(&call.key).cloned();
        self.store
            .record(EventType::Modified, &call.key, &object, previous.as_ref());
        self.store.insert(call.key.clone(), object.clone());
        object
    }

    /// Removes `object` (unless a dry run) and answers it, or a Success Status naming it.
    fn remove(
        &mut self,
        call: &Call<'_>,
        options: &DeleteOptions,
        registry: Registry,
        object: Value,
    ) -> Response {
        let mut object = object;
        if !options.dry_run() {
            let last = self.store.remove(&call.key);
            // The deleted object is answered at the revision of its deletion.
            let rv = self.store.next_revision();
            set(
                &mut object,
                &["metadata", "resourceVersion"],
                Value::from(rv.as_str()),
            );
            if let Some(held) = last {
                let mut last = held.clone();
                set(&mut last, &["metadata", "resourceVersion"], Value::from(rv));
                self.store
                    .record(EventType::Deleted, &call.key, &last, Some(&held));
            }
        }
        if registry.answers_object {
            return ok(200, object);
        }
        let mut details = Details::of(
            &call.resource.group,
            &call.resource.plural,
            &call.target.name,
        );
        details.uid = nested_str(&object, &["metadata", "uid"]).to_owned();
        status::deleted(&details)
    }

    /// The answer of a deletion that left the object: the object, 202 when the request asked
    /// for its dependents to go (`orphanDependents: false`).
    fn answer_kept(&self, options: &DeleteOptions, object: Value) -> Response {
        let code = if options.orphan_dependents == Some(false) {
            202
        } else {
            200
        };
        ok(code, object)
    }

    /// The Namespace registry's deletion: its own precondition texts; a Namespace not yet
    /// being deleted is marked (`deletionTimestamp`, phase `Terminating`) and kept; one being
    /// deleted stays while `spec.finalizers` remain, and then goes as any object does.
    fn delete_namespace(
        &mut self,
        call: &Call<'_>,
        options: &DeleteOptions,
        registry: Registry,
        stored: Value,
    ) -> Response {
        let uid = nested_str(&stored, &["metadata", "uid"]).to_owned();
        let rv = nested_str(&stored, &["metadata", "resourceVersion"]).to_owned();
        let name = &call.target.name;
        if let Some(want) = &options.uid
            && *want != uid
        {
            return status::conflict(
                "",
                "namespaces",
                name,
                &format!(
                    "Precondition failed: UID in precondition: {want}, UID in object meta: {uid}"
                ),
            );
        }
        if let Some(want) = &options.resource_version
            && *want != rv
        {
            return status::conflict(
                "",
                "namespaces",
                name,
                &format!(
                    "Precondition failed: ResourceVersion in precondition: {want}, ResourceVersion in object meta: {rv}"
                ),
            );
        }
        if deletion_timestamp(&stored).is_none() {
            let mut object = stored.clone();
            set(
                &mut object,
                &["metadata", "deletionTimestamp"],
                Value::from(call.now.to_string()),
            );
            set(
                &mut object,
                &["status", "phase"],
                Value::from("Terminating"),
            );
            if let Some(f) = options.namespace_finalizers(&finalizers_of(&stored)) {
                set_finalizers(&mut object, &f);
            }
            let object = self.write(call, options, object);
            return self.answer_kept(options, object);
        }
        let spec_finalizers = get(&stored, &["spec", "finalizers"])
            .and_then(Value::as_list)
            .is_some_and(|l| !l.is_empty());
        if spec_finalizers {
            return self.answer_kept(options, stored);
        }
        self.delete_stored(call, options, registry, stored)
    }
}
