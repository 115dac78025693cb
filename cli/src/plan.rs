//! One manifest and its live object, sent as an apply request through the library's preview
//! (`smd::preview`: the dry run against smd's in-memory API server and the consequences
//! worked out from it); [`super::batch`] streams a run's manifests through here. What stays
//! here is the command line's: the files the objects came from, the flags, and the words of a
//! refusal naming the file at fault.

use smd::apiserver::Response;
use smd::fieldpath::Value;
use smd::managedfields::{Error, Timestamp};

pub(crate) use smd::preview::{
    Conflict, Dropped, OwnerChange, Refusal, at_version, conflicts, managers,
};

use super::Failure;
use super::endpoints::Prepared;
use super::objects::{Identity, Object};

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

impl Request<'_> {
    /// The library's request of the same apply.
    pub(crate) fn preview(&self) -> smd::preview::Request<'_> {
        smd::preview::Request {
            manager: self.manager,
            force: self.force,
            subresource: self.subresource,
            now: self.now,
            preview_forced: self.preview_forced,
        }
    }
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

/// Sends `pair`'s manifest as an apply request to a server holding its live object.
pub(crate) fn one(prepared: &Prepared<'_>, pair: Pair, request: Request<'_>) -> Outcome {
    let live = pair.live.as_ref().map(|l| &l.value);
    let gvk = smd::preview::kind_for(live, &pair.applied.value, |k| prepared.get(k).is_ok());
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
    let answer = smd::preview::answer_at(
        server,
        resource,
        live,
        &pair.applied.value,
        &request.preview(),
    );
    Outcome {
        result: answer.result,
        forced: answer.forced,
        server_set: answer.server_set,
        pair,
    }
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
