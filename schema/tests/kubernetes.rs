//! The embedded Kubernetes schema: its compact form (derived by build.rs) and its canonical
//! JSON (written by the Go generator) give the same schema and index.

use smd_schema::Schema;
use smd_schema::gvk::{GroupVersionKind, GvkIndex};
use smd_schema::kubernetes;

#[test]
fn compact_form_agrees_with_the_canonical_json() {
    let (schema, gvks) = kubernetes::decode_v1_37().expect("the compact form decodes");
    let canonical = Schema::from_yaml(kubernetes::V1_37_SCHEMA_JSON).expect("the JSON reads");
    assert_eq!(schema.types().len(), canonical.types().len());
    for (a, b) in schema.types().iter().zip(canonical.types()) {
        assert_eq!(a, b, "type {}", b.name());
    }
    assert_eq!(schema, canonical);

    let entries: Vec<serde_json::Value> =
        serde_json::from_str(kubernetes::V1_37_GVK_JSON).expect("the GVK JSON reads");
    let index = GvkIndex::from_entries(entries.iter().map(|e| {
        let s = |k: &str| e[k].as_str().expect("a string").to_owned();
        (
            GroupVersionKind::new(s("group"), s("version"), s("kind")),
            s("type"),
        )
    }));
    assert_eq!(gvks, index);
}

#[test]
fn built_in_types_are_found_by_api_version_and_kind() {
    let schema = kubernetes::v1_37();
    let gvk = kubernetes::v1_37_gvk();
    assert!(schema.types().len() > 800);
    for (api_version, kind, name) in [
        ("apps/v1", "Deployment", "io.k8s.api.apps.v1.Deployment"),
        ("v1", "Pod", "io.k8s.api.core.v1.Pod"),
        ("batch/v1", "CronJob", "io.k8s.api.batch.v1.CronJob"),
        (
            "apps/v1",
            "DeleteOptions",
            "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
        ),
    ] {
        assert_eq!(gvk.lookup(api_version, kind), Some(name));
        assert!(schema.find(name).is_some(), "{name}");
    }
    assert_eq!(gvk.lookup("apps/v1", "Pod"), None);

    // Container ports are a list-map keyed by port and protocol; protocol defaults to TCP.
    let container = schema.type_ref("io.k8s.api.core.v1.Container");
    let container = schema
        .resolve(&container)
        .and_then(|a| a.map())
        .expect("a map");
    let ports = container.find_field("ports").expect("ports").type_ref();
    let ports = schema
        .resolve(ports)
        .and_then(|a| a.list())
        .expect("a list");
    assert_eq!(ports.keys(), ["containerPort", "protocol"]);
    let port = schema
        .resolve(ports.element_type())
        .and_then(|a| a.map())
        .expect("a map");
    let protocol = port.find_field("protocol").expect("protocol");
    assert_eq!(
        protocol.default_value().and_then(|v| v.as_str()),
        Some("TCP")
    );
}

#[test]
fn shared_across_threads() {
    let here = kubernetes::v1_37() as *const Schema as usize;
    let there = std::thread::spawn(|| kubernetes::v1_37() as *const Schema as usize)
        .join()
        .expect("the thread ends");
    assert_eq!(here, there);
}
