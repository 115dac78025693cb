//! `--field-manager-only`: each manifest answered by the field manager alone, the layer under
//! the API server (`smd::managedfields`, checked against Go's field manager by the
//! `kind: fieldmanager` goldens and the examples): the merged object and its managedFields as
//! structured-merge-diff's apply leaves them, before the server decodes and defaults the
//! result, runs the registry strategy, validation and admission, and stores it. What the
//! endpoint does around the field manager stays (Go's imitation does it too): the values of
//! the fields it resets are the live object's, a create gets its `creationTimestamp`.
//!
//! The live object is taken as given, not decoded or defaulted as a cluster holds it; one at
//! another version of the manifest's kind is read at the manifest's, as the server converts
//! it before its field manager runs.

use smd::fieldpath::Value;
use smd::managedfields::{Endpoint, Error};

use super::plan::{Outcome, Pair, Refusal, Request, at_version};

/// The field manager's answer to `pair`'s apply, and with conflicts (when the request asks
/// for it) what a forced apply would give.
pub(crate) fn outcome(endpoint: &Endpoint, pair: Pair, request: Request<'_>) -> Outcome {
    let live = pair
        .live
        .as_ref()
        .map(|l| at_version(&l.value, &pair.applied.value));
    let apply = |force: bool| -> Result<Value, Refusal> {
        endpoint
            .apply(
                live.as_ref(),
                &pair.applied.value,
                request.manager,
                force,
                request.subresource,
                request.now,
            )
            .map_err(Refusal::Server)
    };
    let result = apply(request.force);
    let forced = match &result {
        Err(Refusal::Server(Error::Conflict(_))) if request.preview_forced => apply(true).ok(),
        _ => None,
    };
    Outcome {
        result,
        forced,
        server_set: Vec::new(),
        pair,
    }
}
