//! What a server-side apply of one manifest would do: the pair sent as an apply request to
//! smd's in-memory API server holding the live object ([`super::batch`] streams a run's
//! manifests through it), and the consequences worked out for the reports: ownership gained
//! and lost, fields removed or kept by other owners, conflicts with both values.

use smd::apiserver::{
    APPLY_PATCH, ApiServer, ObjectKey, Request as HttpRequest, Response, ServerChoice,
};
use smd::fieldpath::{Path, Set, Value};
use smd::managedfields::{Error, Managed, ManagerId, Operation, Timestamp, entries};
use smd_schema::gvk::GroupVersionKind;

use super::Failure;
use super::endpoints::Prepared;
use super::objects::{Identity, Object};
use super::paths::value_at;

/// The request every manifest is sent with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Request<'a> {
    pub(crate) manager: &'a str,
    pub(crate) force: bool,
    pub(crate) subresource: &'a str,
    pub(crate) now: Timestamp,
    /// Documents processed at once.
    pub(crate) jobs: usize,
    /// With conflicts, also work out what a forced apply would store.
    pub(crate) preview_forced: bool,
    /// What a key set twice in a manifest does (`--validate`).
    pub(crate) validation: super::objects::Validation,
    /// Answer with the field manager's result alone (`--field-manager-only`).
    pub(crate) field_manager_only: bool,
}

/// A manifest and the live object it applies to (none: a create).
#[derive(Debug)]
pub(crate) struct Pair {
    pub(crate) live: Option<Object>,
    pub(crate) applied: Object,
    /// What paired them (a cluster-scoped kind's without the namespace its manifest names).
    pub(crate) identity: Identity,
}

/// What the API server answers to one apply, and what a forced apply would store when it
/// refuses with conflicts.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub(crate) pair: Pair,
    /// The stored object, or the refusal (an error that is not the server's: the kind has no
    /// type, in `Err(Unserved)`).
    pub(crate) result: Result<Value, Refusal>,
    /// With conflicts: the object a `--force-conflicts` apply would store.
    pub(crate) forced: Option<Value>,
    /// The fields a real server would set to values of its own choosing (left out of
    /// `result` and `forced`), as paths.
    pub(crate) server_set: Vec<String>,
}

/// Why an apply gives no object.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// The API server's refusal by its field manager.
    Server(Error),
    /// The API server's refusal by its request handling (a resourceVersion that is not the
    /// live object's, a namespace that is not the URL's, ...): its Status.
    Status(Response),
    /// smd cannot serve the kind (no type for it).
    Unserved(String),
}

/// Sends `pair`'s manifest as an apply request to a server holding its live object.
pub(crate) fn one(prepared: &Prepared<'_>, pair: Pair, request: Request<'_>) -> Outcome {
    // The request goes to the manifest's version: a live object at another version of the
    // same group and kind is held at its own and converted, as the server converts it (an
    // HPA's autoscaling/v1 and v2, a CRD's versions). A live object of another group (a
    // cohabiting resource) or kind, or a manifest at a version not served, keeps the live
    // object's resource, and the field manager refuses the manifest as the server does.
    let applied = pair.applied.gvk();
    let gvk = match &pair.live {
        Some(live) => {
            let held = live.gvk();
            if held.group == applied.group
                && held.kind == applied.kind
                && prepared.get(&applied).is_ok()
            {
                applied
            } else {
                held
            }
        }
        None => applied,
    };
    let refused = |pair, message| Outcome {
        pair,
        result: Err(Refusal::Unserved(message)),
        forced: None,
        server_set: Vec::new(),
    };
    // kubectl refuses a manifest without a name before any request: there is no URL to send
    // it to.
    let unnamed = pair
        .live
        .as_ref()
        .unwrap_or(&pair.applied)
        .identity()
        .name
        .is_empty();
    let no_name = || "resource name may not be empty (kubectl refuses to send it)".to_owned();
    if request.field_manager_only {
        return match prepared.field_manager(&gvk) {
            Ok(_) if unnamed => refused(pair, no_name()),
            Ok(endpoint) => super::fieldmanager::outcome(endpoint, pair, request),
            Err(message) => refused(pair, message),
        };
    }
    let (resource, server) = match prepared.get(&gvk) {
        Ok(r) => r,
        Err(message) => return refused(pair, message),
    };
    if unnamed {
        return refused(pair, no_name());
    }
    let mut server_set = Vec::new();
    let mut apply = |force: bool| {
        send(server.clone(), resource, &pair, request, force).map(|(mut object, chosen)| {
            let removed = super::chosen::strip(&mut object, &chosen);
            if server_set.is_empty() {
                server_set = removed;
            }
            object
        })
    };
    let result = apply(request.force);
    let forced = match &result {
        Err(Refusal::Server(Error::Conflict(_))) if request.preview_forced => apply(true).ok(),
        _ => None,
    };
    Outcome {
        result,
        forced,
        server_set,
        pair,
    }
}

/// The apply of `pair.applied` (PATCH, `application/apply-patch+yaml`) to a server holding
/// `pair.live`: the object it would store, and the values the server made up for it. A dry
/// run (as `kubectl diff` sends it), except through the scale subresource, whose answer is a
/// Scale: that one is stored and read back.
fn send(
    mut server: ApiServer,
    resource: &smd::apiserver::Resource,
    pair: &Pair,
    request: Request<'_>,
    force: bool,
) -> Result<(Value, Vec<ServerChoice>), Refusal> {
    let identity = pair.live.as_ref().unwrap_or(&pair.applied).identity();
    let namespace = match (resource.namespaced, identity.namespace.as_str()) {
        (false, _) => "",
        (true, "") => "default",
        (true, ns) => ns,
    };
    let key = ObjectKey::new(&resource.group, &resource.plural, namespace, &identity.name);
    if let Some(live) = &pair.live {
        server.put_object(key.clone(), live.value.clone());
    }
    let mut path = ApiServer::object_path(resource, namespace, &identity.name);
    if !request.subresource.is_empty() {
        path.push('/');
        path.push_str(request.subresource);
    }
    let dry_run = request.subresource != "scale";
    let mut http = HttpRequest::new("PATCH", path)
        .with_query("fieldManager", request.manager)
        .with_body(APPLY_PATCH, Vec::new());
    if force {
        http = http.with_query("force", "true");
    }
    if dry_run {
        http = http.with_query("dryRun", "All");
    }
    let exchange = server.exchange_parsed(&http, &pair.applied.value, request.now);
    if let Some(e) = exchange.error {
        return Err(Refusal::Server(e));
    }
    if !exchange.response.is_success() {
        return Err(Refusal::Status(exchange.response));
    }
    let chosen = exchange.server_chosen;
    if dry_run {
        Ok((exchange.response.body, chosen))
    } else {
        server
            .object(&key)
            .cloned()
            .map(|object| (object, chosen))
            .ok_or_else(|| Refusal::Status(exchange.response))
    }
}

/// One manager's ownership before and after.
#[derive(Debug, Clone)]
pub(crate) struct OwnerChange {
    pub(crate) id: ManagerId,
    pub(crate) gained: Set,
    pub(crate) lost: Set,
    /// The manager has no entry before / after.
    pub(crate) arrives: bool,
    pub(crate) leaves: bool,
}

/// A field this apply stops managing that was in the live object.
#[derive(Debug, Clone)]
pub(crate) struct Dropped {
    pub(crate) path: Path,
    /// Who still owns it (the field stays); empty: the field is removed.
    pub(crate) owners: Vec<ManagerId>,
    /// A removed field's other owners before the apply (of the field or of fields in it): SMD
    /// removes an item the applier no longer lists with everything in it, even what others set.
    pub(crate) co_owners: Vec<ManagerId>,
}

/// One conflict, with both values.
#[derive(Debug, Clone)]
pub(crate) struct Conflict {
    pub(crate) owner: Option<ManagerId>,
    pub(crate) path: Path,
    pub(crate) live: Option<Value>,
    pub(crate) applied: Option<Value>,
}

/// The managers' sets of an object (none when it has no readable managedFields).
pub(crate) fn managers(object: &Value) -> Result<Managed, String> {
    let list = entries(object)
        .map_err(|e| e.to_string())?
        .unwrap_or_default();
    Managed::decode(&list).map_err(|e| format!("managedFields[{}]: {e}", e.index()))
}

/// Each manager whose set changed between `before` and `after`, in the order of their
/// identities.
pub(crate) fn owner_changes(before: &Managed, after: &Managed) -> Vec<OwnerChange> {
    let mut keys: Vec<&str> = before.fields.iter().map(|(k, _)| k).collect();
    keys.extend(after.fields.iter().map(|(k, _)| k));
    keys.sort_unstable();
    keys.dedup();
    let empty = Set::new();
    keys.into_iter()
        .filter_map(|key| {
            let old = before.fields.get(key).map(|s| s.set());
            let new = after.fields.get(key).map(|s| s.set());
            let gained = new.unwrap_or(&empty).difference(old.unwrap_or(&empty));
            let lost = old.unwrap_or(&empty).difference(new.unwrap_or(&empty));
            if gained.is_empty() && lost.is_empty() && old.is_some() == new.is_some() {
                return None;
            }
            Some(OwnerChange {
                id: ManagerId::from_key(key).unwrap_or_default(),
                gained,
                lost,
                arrives: old.is_none(),
                leaves: new.is_none(),
            })
        })
        .collect()
}

/// The fields the applier managed before and does not manage now, that the live object had:
/// removed, or kept because another manager owns them.
pub(crate) fn dropped(
    request: &Request<'_>,
    live: &Value,
    before: &Managed,
    after_object: &Value,
    after: &Managed,
) -> Vec<Dropped> {
    let key = ManagerId::new(request.manager, Operation::Apply, "", request.subresource).key();
    let Some(old) = before.fields.get(&key) else {
        return Vec::new();
    };
    let empty = Set::new();
    let new = after.fields.get(&key).map_or(&empty, |s| s.set());
    let stopped = old.set().difference(new);
    let leaves = stopped.leaves();
    // A field that goes is named once, at its top: an item the applier stops listing goes
    // with everything in it, what other managers set there included (they are named).
    let mut gone = Set::new();
    let mut out = Vec::new();
    // Parents before their fields, whatever order the set walks in.
    let mut paths: Vec<Path> = stopped.iter().collect();
    paths.sort_by_key(|p| p.elements().len());
    for path in paths {
        let elements = path.elements();
        if (1..elements.len()).any(|n| gone.has(&elements[..n]))
            || value_at(live, elements).is_none()
        {
            continue;
        }
        if value_at(after_object, elements).is_none() {
            gone.insert(elements);
            let co_owners = before
                .fields
                .iter()
                .filter(|(k, _)| **k != key)
                .filter(|(_, s)| owns_in(s.set(), elements))
                .filter_map(|(k, _)| ManagerId::from_key(k))
                .collect();
            out.push(Dropped {
                path,
                owners: Vec::new(),
                co_owners,
            });
        } else if leaves.has(elements) {
            let owners = after
                .fields
                .iter()
                .filter(|(_, s)| s.set().has(elements))
                .filter_map(|(k, _)| ManagerId::from_key(k))
                .collect();
            out.push(Dropped {
                path,
                owners,
                co_owners: Vec::new(),
            });
        }
    }
    out.sort_by(|a, b| a.path.compare(&b.path));
    out
}

/// Whether `set` holds `path` or a field below it.
fn owns_in(set: &Set, path: &[smd::fieldpath::PathElement]) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return !set.is_empty();
    };
    let mut at = set;
    for element in parents {
        match at.child(element) {
            Some(child) => at = child,
            None => return false,
        }
    }
    at.has_member(last) || at.child(last).is_some_and(|c| !c.is_empty())
}

/// The fields of a manifest applied through the status subresource that the API server
/// ignores: those outside `.status` whose stored value is not the manifest's (the status
/// strategy keeps the live object's). Maps are walked; a list or scalar is compared whole.
pub(crate) fn ignored_by_status(applied: &Value, stored: &Value) -> Vec<Path> {
    let mut out = Vec::new();
    let Some(map) = applied.as_map() else {
        return out;
    };
    for (key, value) in map.iter() {
        if matches!(key, "apiVersion" | "kind" | "status") {
            continue;
        }
        let mut path = Path::new();
        path.push(smd::fieldpath::PathElement::Field(key.into()));
        ignored_below(
            value,
            stored.as_map().and_then(|m| m.get(key)),
            &mut path,
            &mut out,
        );
    }
    out
}

fn ignored_below(applied: &Value, stored: Option<&Value>, path: &mut Path, out: &mut Vec<Path>) {
    if out.len() >= IGNORED_LIMIT {
        return;
    }
    match (applied, stored) {
        (Value::Map(map), Some(Value::Map(kept))) => {
            for (key, value) in map.iter() {
                path.push(smd::fieldpath::PathElement::Field(key.into()));
                ignored_below(value, kept.get(key), path, out);
                path.pop();
            }
        }
        (value, Some(kept)) if value == kept => {}
        _ => out.push(path.clone()),
    }
}

/// The most ignored fields named (a manifest of thousands is summed up by its first ones).
const IGNORED_LIMIT: usize = 100;

/// The conflicts of a refusal, with the live and applied values of each field.
pub(crate) fn conflicts(error: &Error, live: &Value, applied: &Value) -> Vec<Conflict> {
    let Error::Conflict(c) = error else {
        return Vec::new();
    };
    c.conflicts()
        .map(|(owner, path)| Conflict {
            owner,
            path: path.clone(),
            live: value_at(live, path.elements()).cloned(),
            applied: value_at(applied, path.elements()).cloned(),
        })
        .collect()
}

/// What a `diff` or `apply` run reads (see [`super::sources::LiveArgs::inputs`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Inputs {
    /// Files of live objects (`-`: stdin); none: every manifest is a create.
    pub(crate) live: Vec<std::path::PathBuf>,
    /// Files of manifests (`-`: stdin).
    pub(crate) applied: Vec<std::path::PathBuf>,
    /// `-n`.
    pub(crate) namespace: Option<String>,
    /// Report the live objects no manifest names (a LIVE file given with its manifests); a
    /// `--live` dump is a pool to look objects up in, and its other objects are left silent.
    pub(crate) report_unmatched: bool,
    /// Read each manifest's live object from this kubeconfig's cluster (`live` is then empty).
    pub(crate) cluster: Option<super::cluster::ClusterArgs>,
}

/// `live` as a read at `manifest`'s version gives it, when the manifest is another version of
/// the live object's group and kind (converted as the server converts it, a built-in kind
/// defaulted at its new version); otherwise `live` itself.
pub(crate) fn at_version(live: &Value, manifest: &Object) -> Value {
    let (held, wanted) = (
        GroupVersionKind::from_api_version(
            live.as_map()
                .and_then(|m| m.get("apiVersion"))
                .and_then(Value::as_str)
                .unwrap_or(""),
            manifest.text(&["kind"]),
        ),
        manifest.gvk(),
    );
    if held.group != wanted.group || held.version == wanted.version || held.kind != wanted.kind {
        return live.clone();
    }
    let mut converted = smd::builtin::conversion::convert(live, manifest.text(&["apiVersion"]));
    if smd::builtin::is_builtin(&wanted) {
        smd::builtin::default(&wanted, &mut converted);
    }
    converted
}

/// The words for a request the API server's request handling refuses, naming the manifest.
pub(crate) fn status_refusal(pair: &Pair, response: &Response) -> Failure {
    if smd::apiserver::needs_conversion_webhook(response) {
        // The message says what cannot be done offline and how to export the object.
        return Failure::new(format!(
            "{}: {}",
            pair.applied.origin,
            response.message().unwrap_or_default()
        ));
    }
    let message = response.message().unwrap_or_default();
    Failure::new(format!(
        "{}: the API server would refuse this apply ({} {}): {message}{}",
        pair.applied.origin,
        response.code,
        response.reason().unwrap_or("InternalError"),
        super::hints::refusal(&pair.applied, pair.live.as_ref(), message)
    ))
}

/// The words for a request the API server refuses (not for conflicts, which are reported),
/// naming the input at fault: the manifest, or the live object when the fault is in it (its
/// fields or, naming the entry, its managedFields).
pub(crate) fn refusal(pair: &Pair, e: &Error) -> Failure {
    if let Error::Limit(_) = e {
        return Failure::new(format!(
            "{}: smd cannot apply this: {e}",
            pair.applied.origin
        ));
    }
    let status = format!("{} {}", e.code(), e.reason().unwrap_or("InternalError"));
    match (&pair.live, e.is_live_object_fault()) {
        (Some(live), true) => {
            let entry = match e {
                Error::ManagedFields(d) => format!(" (.metadata.managedFields[{}])", d.index()),
                _ => String::new(),
            };
            Failure::new(format!(
                "{}: the live object {}: the API server would refuse to apply {} to it ({status}): {e}{entry}",
                live.origin,
                live.identity(),
                pair.applied.origin
            ))
        }
        _ => Failure::new(format!(
            "{}: the API server would refuse this apply ({status}): {e}{}",
            pair.applied.origin,
            super::hints::refusal(&pair.applied, pair.live.as_ref(), &e.to_string())
        )),
    }
}
