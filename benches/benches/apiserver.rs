//! `apiserver/*`: one request through smd's in-memory API server (`smd::apiserver`, body
//! bytes parsed, routed, checked, stored) against the same work as a direct call of the kind's
//! `Endpoint`, which is what the server calls inside. The goal (issue 12): a request costs at
//! most twice the endpoint call. Both sides run here, so the ratio is measured in one run:
//!
//! ```sh
//! cargo bench -p smd-benches --bench apiserver
//! ```
//!
//! The object is `data/fieldmanager/Deployment.json`'s manifest (a Deployment of one
//! container, labels, annotations), applied by `kubectl` to the object it already applied
//! (the field manager's whole apply; nothing changes, so the store keeps one object), and
//! updated (PUT) with a changed image by `editor`.

#![allow(
    clippy::panic,
    reason = "a benchmark binary: bad data must stop it loudly"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use smd::apiserver::{APPLY_PATCH, ApiServer, Request};
use smd::fieldpath::Value;
use smd::managedfields::{Endpoint, Timestamp};
use smd_schema::gvk::GroupVersionKind;
use std::hint::black_box;
use std::time::Duration;

const PATH: &str = "/apis/apps/v1/namespaces/shop/deployments/web";

fn manifest() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/fieldmanager/Deployment.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let data = Value::from_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    data.as_map()
        .and_then(|m| m.get("manifest"))
        .cloned()
        .unwrap_or_else(|| panic!("{path}: no manifest"))
}

fn apiserver(c: &mut Criterion) {
    let manifest = manifest();
    let body = manifest.to_json().unwrap_or_else(|e| panic!("{e}"));
    let now = Timestamp::from_unix(1_700_000_000);
    let apply = Request::new("PATCH", PATH)
        .with_query("fieldManager", "kubectl")
        .with_body(APPLY_PATCH, body.clone());
    let mut server = ApiServer::new();
    let created = server.handle_at(&apply, now);
    assert_eq!(created.code, 201, "{:?}", created.body);
    let live = created.body;

    // The PUT body: the stored object with another image.
    let mut changed = live.clone();
    let image = changed
        .as_map_mut()
        .and_then(|m| m.get_mut("spec"))
        .and_then(Value::as_map_mut)
        .and_then(|m| m.get_mut("template"))
        .and_then(Value::as_map_mut)
        .and_then(|m| m.get_mut("spec"))
        .and_then(Value::as_map_mut)
        .and_then(|m| m.get_mut("containers"))
        .and_then(Value::as_list_mut)
        .and_then(|l| l.first_mut())
        .and_then(Value::as_map_mut)
        .unwrap_or_else(|| panic!("no container"));
    image.insert("image", Value::from("nginx:changed"));
    let put_body = changed.to_json().unwrap_or_else(|e| panic!("{e}"));
    let put = Request::new("PUT", PATH)
        .with_query("fieldManager", "editor")
        .with_body("application/json", put_body);

    let endpoint = Endpoint::kubernetes(GroupVersionKind::new("apps", "v1", "Deployment"));
    let mut group = c.benchmark_group("apiserver");
    group.bench_function("apply/endpoint", |b| {
        b.iter(|| black_box(endpoint.apply(Some(&live), &manifest, "kubectl", false, "", now)))
    });
    group.bench_function("apply/request", |b| {
        b.iter(|| black_box(server.handle_at(&apply, now)))
    });
    group.bench_function("update/endpoint", |b| {
        b.iter(|| black_box(endpoint.update(&live, changed.clone(), "editor", "", now)))
    });
    // Each PUT runs against the stored object before it (a copy of the prepared server).
    group.bench_function("update/request", |b| {
        b.iter_batched(
            || server.clone(),
            |mut s| black_box(s.handle_at(&put, now)),
            criterion::BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    targets = apiserver
}
criterion_main!(benches);
