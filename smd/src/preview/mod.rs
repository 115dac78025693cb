//! What a server-side apply would do, before it is sent: the manifest sent as an apply
//! request (a dry run) to an in-memory API server holding the live object, and the
//! consequences worked out from the answer: the object it would store, each manager's
//! ownership gained and lost, the fields removed and those kept because others own them,
//! conflicts with both values (and what a forced apply would store), what the status
//! subresource ignores, and the values only a real server would choose. `smd diff` renders
//! exactly this.
//!
//! ```
//! use smd::apiserver::ApiServer;
//! use smd::managedfields::Timestamp;
//! use smd::preview::{self, Request};
//!
//! let live = smd::fieldpath::yaml::from_str(r#"
//! apiVersion: v1
//! kind: ConfigMap
//! metadata:
//!   name: web
//!   namespace: default
//!   managedFields:
//!   - {manager: ops, operation: Apply, apiVersion: v1, time: "2024-05-01T10:00:00Z",
//!      fieldsType: FieldsV1, fieldsV1: {f:data: {f:mode: {}}}}
//! data: {mode: fast}
//! "#)?;
//! let manifest = smd::fieldpath::yaml::from_str(
//!     "{apiVersion: v1, kind: ConfigMap, metadata: {name: web, namespace: default}, data: {mode: slow}}")?;
//! let request = Request {
//!     manager: "app",
//!     force: false,
//!     subresource: "",
//!     now: Timestamp::parse("2024-05-02T00:00:00Z")?,
//!     preview_forced: true,
//! };
//! let server = ApiServer::new();
//! let answer = preview::answer(&server, Some(&live), &manifest, &request);
//! let preview = preview::preview(Some(&live), &manifest, &answer, &request)?;
//! // Refused: ops owns `.data.mode`; forced, app would take it over.
//! assert_eq!(preview.conflicts[0].path.to_string(), ".data.mode");
//! assert_eq!(preview.conflicts[0].owner.as_ref().map(|o| o.manager.as_str()), Some("ops"));
//! let paths = |s: &smd::fieldpath::Set| s.leaves().iter().map(|p| p.to_string()).collect::<Vec<_>>();
//! let owners: Vec<_> = preview.owners.iter()
//!     .map(|c| (c.id.manager.as_str(), paths(&c.gained), paths(&c.lost))).collect();
//! assert_eq!(owners, [("app", vec![".data.mode".to_owned()], vec![]), ("ops", vec![], vec![".data.mode".to_owned()])]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod analysis;
mod chosen;
mod identity;

pub use analysis::{
    Conflict, Dropped, OwnerChange, at_version, conflicts, dropped, ignored_by_status, managers,
    names_item, owner_changes, value_at,
};
pub use chosen::strip_server_chosen;
pub use identity::{Identity, Paired, Pairing, pair};

use smd_fieldpath::{Path, Value};
use smd_schema::gvk::GroupVersionKind;

use crate::apiserver::{
    APPLY_PATCH, ApiServer, ObjectKey, Request as HttpRequest, Resource, Response, ServerChoice,
};
use crate::managedfields::{Error, Timestamp};

/// How a manifest is applied.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The field manager (`fieldManager`).
    pub manager: &'a str,
    /// `force`: take over conflicting fields.
    pub force: bool,
    /// The subresource applied through (`status`, `scale`); empty for the main resource.
    pub subresource: &'a str,
    /// The time the server stamps.
    pub now: Timestamp,
    /// With conflicts, also work out what a forced apply would store.
    pub preview_forced: bool,
}

/// Why an apply gives no object.
#[derive(Debug, Clone)]
pub enum Refusal {
    /// The API server's refusal by its field manager (conflicts among them).
    Server(Error),
    /// The API server's refusal by its request handling (a resourceVersion that is not the
    /// live object's, a namespace that is not the URL's, ...): its Status.
    Status(Response),
    /// smd cannot serve the kind (no type for it).
    Unserved(String),
}

/// What the API server answers to one apply.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The stored object, or the refusal.
    pub result: Result<Value, Refusal>,
    /// With conflicts (when [`Request::preview_forced`]): what a forced apply would store.
    pub forced: Option<Value>,
    /// The fields a real server would set to values of its own choosing, left out of
    /// `result` and `forced` (`.metadata.uid`), as paths.
    pub server_set: Vec<String>,
}

/// The kind an apply of `applied` to `live` goes to: the manifest's, when it is `served` and
/// the live object (if any) is of its group and kind (another version is held at its own and
/// converted, as the server converts it); otherwise the live object's, whose field manager
/// then refuses the manifest as the server does.
pub fn kind_for(
    live: Option<&Value>,
    applied: &Value,
    served: impl Fn(&GroupVersionKind) -> bool,
) -> GroupVersionKind {
    let applied_kind = kind_of(applied);
    match live {
        Some(live) => {
            let held = kind_of(live);
            if held.group == applied_kind.group
                && held.kind == applied_kind.kind
                && served(&applied_kind)
            {
                applied_kind
            } else {
                held
            }
        }
        None => applied_kind,
    }
}

/// The resource of `server` that [`kind_for`] chooses; `None` when it serves none.
pub fn resource_for(server: &ApiServer, live: Option<&Value>, applied: &Value) -> Option<Resource> {
    let kind = kind_for(live, applied, |k| server.resource_of_kind(k).is_some());
    server.resource_of_kind(&kind).cloned()
}

/// The apply of `applied` to `server` holding `live` (a copy of `server` is used), through
/// the resource [`resource_for`] chooses: what it would store, and with conflicts what a
/// forced apply would store.
pub fn answer(
    server: &ApiServer,
    live: Option<&Value>,
    applied: &Value,
    request: &Request<'_>,
) -> Answer {
    let Some(resource) = resource_for(server, live, applied) else {
        let kind = kind_of(applied);
        return Answer {
            result: Err(Refusal::Unserved(format!(
                "{kind}: no resource serves this kind"
            ))),
            forced: None,
            server_set: Vec::new(),
        };
    };
    answer_at(server.clone(), &resource, live, applied, request)
}

/// [`answer`] through a given resource of `server` (taken, as the apply writes to it).
pub fn answer_at(
    server: ApiServer,
    resource: &Resource,
    live: Option<&Value>,
    applied: &Value,
    request: &Request<'_>,
) -> Answer {
    // The live object is put in once: the forced apply (a dry run too) is sent to another
    // copy of the same server (copies share their values), not to a server holding it anew.
    let held = Held::new(server, resource, live, applied);
    let mut server_set = Vec::new();
    let mut apply = |force: bool| {
        send(&held, resource, applied, request, force).map(|(mut object, chosen)| {
            let removed = strip_server_chosen(&mut object, &chosen);
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
    Answer {
        result,
        forced,
        server_set,
    }
}

fn kind_of(object: &Value) -> GroupVersionKind {
    GroupVersionKind::from_api_version(object.str_at(&["apiVersion"]), object.str_at(&["kind"]))
}

/// A server holding the live object an apply goes to, and where it holds it.
struct Held {
    server: ApiServer,
    key: ObjectKey,
}

impl Held {
    fn new(
        mut server: ApiServer,
        resource: &Resource,
        live: Option<&Value>,
        applied: &Value,
    ) -> Held {
        let named = live.unwrap_or(applied);
        let name = named.str_at(&["metadata", "name"]);
        let namespace = match (
            resource.namespaced,
            named.str_at(&["metadata", "namespace"]),
        ) {
            (false, _) => "",
            (true, "") => "default",
            (true, ns) => ns,
        };
        let key = ObjectKey::new(&resource.group, &resource.plural, namespace, name);
        if let Some(live) = live {
            server.put_object(key.clone(), live.clone());
        }
        Held { server, key }
    }
}

/// The apply (PATCH, `application/apply-patch+yaml`) to a copy of `held`'s server: the object
/// it would store, and the values the server made up for it. A dry run (as `kubectl diff`
/// sends it), except through the scale subresource, whose answer is a Scale: that one is
/// stored and read back.
fn send(
    held: &Held,
    resource: &Resource,
    applied: &Value,
    request: &Request<'_>,
    force: bool,
) -> Result<(Value, Vec<ServerChoice>), Refusal> {
    let mut server = held.server.clone();
    let mut path = ApiServer::object_path(resource, &held.key.namespace, &held.key.name);
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
    let exchange = server.exchange_parsed(&http, applied, request.now);
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
            .object(&held.key)
            .cloned()
            .map(|object| (object, chosen))
            .ok_or_else(|| Refusal::Status(exchange.response))
    }
}

/// What an apply's answer means for the live object and its managers.
#[derive(Debug, Clone)]
pub struct Preview {
    /// The live object as a read at the manifest's version gives it (an empty object for a
    /// create).
    pub before: Value,
    /// What the server stores; with conflicts, what a forced apply would store (when it
    /// was worked out); `None` for another refusal.
    pub after: Option<Value>,
    /// The managers whose field sets change, in the order of their identities.
    pub owners: Vec<OwnerChange>,
    /// The fields the applier stops managing: removed, or kept by other owners.
    pub dropped: Vec<Dropped>,
    /// The conflicts, with the live and applied values.
    pub conflicts: Vec<Conflict>,
    /// Whether the stored object differs from the live one.
    pub changed: bool,
    /// Through the status subresource: the manifest's fields outside `.status` that the
    /// server ignores (it keeps the live values).
    pub ignored: Vec<Path>,
}

/// The consequences of `answer` (to the apply of `applied` to `live`). Fails when the
/// stored object's managedFields do not read back (a server bug, not an input's fault).
pub fn preview(
    live: Option<&Value>,
    applied: &Value,
    answer: &Answer,
    request: &Request<'_>,
) -> Result<Preview, String> {
    // The live object as `kubectl diff` reads it: at the manifest's version.
    let before = live.map_or_else(
        || Value::Map(Default::default()),
        |l| at_version(l, applied),
    );
    // Conflicts name paths at the version each manager used, which the live object keeps.
    let held = live.unwrap_or(&before);
    let (after, conflicts) = match &answer.result {
        Ok(object) => (Some(object.clone()), Vec::new()),
        Err(Refusal::Server(e @ Error::Conflict(_))) => {
            (answer.forced.clone(), conflicts(e, held, applied))
        }
        Err(_) => (None, Vec::new()),
    };
    // Entries the API server cannot read count as none, as it counts them.
    let live_managers = live.and_then(|l| managers(l).ok()).unwrap_or_default();
    let (owners, dropped) = match &after {
        Some(after) => {
            let after_managers = managers(after)?;
            (
                owner_changes(&live_managers, &after_managers),
                dropped(
                    request.manager,
                    request.subresource,
                    &before,
                    &live_managers,
                    after,
                    &after_managers,
                ),
            )
        }
        None => (Vec::new(), Vec::new()),
    };
    let changed = after.as_ref().is_some_and(|a| *a != before);
    let ignored = match (&after, request.subresource) {
        (Some(after), "status") => ignored_by_status(applied, after),
        _ => Vec::new(),
    };
    Ok(Preview {
        before,
        after,
        owners,
        dropped,
        conflicts,
        changed,
        ignored,
    })
}
