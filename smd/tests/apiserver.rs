//! `smd::apiserver` on what the real-server scenarios cannot carry (a body over the size
//! limit) and on its own contracts (deterministic uids and revisions, a clone's independent
//! store, names that hold `/`). The request layer's answers are otherwise checked against a
//! real kube-apiserver v1.37.2 by `conformance/tests/apiserver.rs`.

use smd::apiserver::{APPLY_PATCH, ApiServer, MAX_REQUEST_BODY_BYTES, ObjectKey, Request};
use smd::fieldpath::Value;
use smd::managedfields::Timestamp;

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

fn create(name: &str) -> Request {
    Request::new("POST", CONFIGMAPS).with_body(
        "application/json",
        format!(r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}"}}}}"#),
    )
}

fn meta<'a>(object: &'a Value, key: &str) -> Option<&'a Value> {
    object.as_map()?.get("metadata")?.as_map()?.get(key)
}

#[test]
fn a_body_over_the_limit_is_refused_with_413() {
    let mut server = ApiServer::new();
    let big = format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"big"}},"data":{{"a":"{}"}}}}"#,
        "x".repeat(MAX_REQUEST_BODY_BYTES)
    );
    let answer =
        server.handle(&Request::new("POST", CONFIGMAPS).with_body("application/json", big));
    // The whole answer is compared with the real server's in the real-server goldens
    // (conformance/apiserver/scenarios/refusals.yaml); here: refused, and nothing stored.
    assert_eq!(answer.code, 413);
    assert!(server.objects().next().is_none());
}

#[test]
fn uids_and_revisions_are_counters_and_a_clone_has_its_own_store() {
    let mut server = ApiServer::new();
    server.set_time(Timestamp::parse("2024-05-01T10:00:00Z").unwrap());
    let a = server.handle(&create("a")).body;
    let b = server.handle(&create("b")).body;
    assert_eq!(
        meta(&a, "uid"),
        Some(&Value::from("00000000-0000-4000-8000-000000000001"))
    );
    assert_eq!(
        meta(&b, "uid"),
        Some(&Value::from("00000000-0000-4000-8000-000000000002"))
    );
    assert_eq!(meta(&a, "resourceVersion"), Some(&Value::from("1001")));
    assert_eq!(meta(&b, "resourceVersion"), Some(&Value::from("1002")));
    assert_eq!(
        meta(&a, "creationTimestamp"),
        Some(&Value::from("2024-05-01T10:00:00Z"))
    );

    let mut copy = server.clone();
    let deleted = copy.handle(&Request::new("DELETE", format!("{CONFIGMAPS}/a")));
    assert_eq!(deleted.code, 200);
    let key = ObjectKey::new("", "configmaps", "default", "a");
    assert!(copy.object(&key).is_none());
    assert!(
        server.object(&key).is_some(),
        "the original keeps its object"
    );
}

#[test]
fn a_name_holding_a_slash_stays_one_path_segment() {
    let mut server = ApiServer::new();
    let resource = server
        .resource("", "v1", "configmaps")
        .cloned()
        .expect("configmaps are served");
    let path = ApiServer::object_path(&resource, "default", "a/b");
    assert_eq!(path, "/api/v1/namespaces/default/configmaps/a%2Fb");
    let answer = server.handle(
        &Request::new("PATCH", path)
            .with_query("fieldManager", "m")
            .with_body(
                APPLY_PATCH,
                "{apiVersion: v1, kind: ConfigMap, metadata: {name: a/b}}",
            ),
    );
    assert_eq!(answer.code, 201, "{:?}", answer.body);
    assert!(
        server
            .object(&ObjectKey::new("", "configmaps", "default", "a/b"))
            .is_some()
    );
}

#[test]
fn a_malformed_path_is_not_routed() {
    let mut server = ApiServer::new();
    for path in [
        "/",
        "/api",
        "/api/v1/namespaces/default/configmaps/a/b/c/d",
        "/api/v1//configmaps",
        "/api/v1/namespaces/default/configmaps/%zz",
    ] {
        let answer = server.handle(&Request::new("GET", path));
        assert_eq!(answer.code, 404, "{path}: {:?}", answer.body);
        assert_eq!(
            answer.message(),
            Some("the server could not find the requested resource")
        );
    }
}
