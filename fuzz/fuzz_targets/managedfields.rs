//! The API server's managedFields layer on arbitrary objects: the input is a YAML stream whose
//! first document is the stored object (its managedFields may be anything) and whose next
//! documents are requests to its kind's endpoint — applies, forced applies, updates (main and
//! status), scales and kubectl's client-side-apply upgrades, by a few managers in turn.
//!
//! Nothing panics; every object the endpoint stores has managedFields the API server can decode
//! again, each manager once, none with an empty set.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd::fieldpath::Value;
use smd::fieldpath::yaml;
use smd::managedfields::{Endpoint, Managed, Timestamp, entries, normalize_numbers};
use smd_schema::gvk::GroupVersionKind;

const KINDS: [(&str, &str); 5] = [
    ("v1", "ConfigMap"),
    ("apps/v1", "Deployment"),
    ("v1", "Service"),
    ("v1", "Pod"),
    ("apps/v1", "StatefulSet"),
];
const MANAGERS: [&str; 4] = ["kubectl", "kube-controller-manager", "helm", "hpa"];

fn kind_of(object: &Value) -> (&str, &str) {
    let text = |key: &str| {
        object
            .as_map()
            .and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    KINDS
        .iter()
        .copied()
        .find(|(a, k)| *a == text("apiVersion") && *k == text("kind"))
        .unwrap_or(KINDS[0])
}

/// The stored object's managedFields decode, and no manager owns nothing.
fn check(object: &Value) {
    let list = entries(object)
        .expect("a stored object's managedFields are a list of entries")
        .unwrap_or_default();
    let managed = Managed::decode(&list).expect("stored managedFields decode");
    assert_eq!(
        managed.fields.len(),
        list.len(),
        "one entry per manager: {list:?}"
    );
    for (manager, set) in managed.fields.iter() {
        assert!(
            !set.set().is_empty(),
            "{manager} is stored with an empty set"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(mut documents) = yaml::documents_from_slice(data) else {
        return;
    };
    documents.iter_mut().for_each(normalize_numbers);
    let Some((first, requests)) = documents.split_first() else {
        return;
    };
    let (api_version, kind) = kind_of(first);
    let endpoint = Endpoint::kubernetes(GroupVersionKind::from_api_version(api_version, kind));
    let mut stored: Option<Value> = matches!(first, Value::Map(_)).then(|| first.clone());
    for (i, request) in requests.iter().enumerate() {
        let now = Timestamp::from_unix(1_800_000_000 + i as i64);
        let manager = MANAGERS[i % MANAGERS.len()];
        let subresource = if i % 5 == 4 { "status" } else { "" };
        let written = match (i % 6, &stored) {
            (0 | 1 | 2, live) => endpoint
                .apply(
                    live.as_ref(),
                    request,
                    manager,
                    i % 6 == 1,
                    subresource,
                    now,
                )
                .ok(),
            (3, Some(live)) => endpoint
                .update(live, request.clone(), manager, subresource, now)
                .ok()
                .map(|w| w.object),
            (4, Some(live)) => {
                let replicas = request.as_int().unwrap_or(i as i64);
                endpoint
                    .scale(live, replicas, manager, now)
                    .ok()
                    .map(|w| w.object)
            }
            (_, Some(live)) => endpoint
                .upgrade_client_side_apply(live, "kubectl", None, now)
                .ok()
                .flatten()
                .map(|(_, w)| w.object),
            (_, None) => endpoint
                .create(request.clone(), manager, now)
                .ok()
                .map(|w| w.object),
        };
        if let Some(object) = written {
            // An update that could not record its managers keeps the stored entries, which may
            // be the input's corrupt ones; only what the field manager wrote must decode.
            if i % 6 <= 2 {
                check(&object);
            }
            stored = Some(object);
        }
    }
});
