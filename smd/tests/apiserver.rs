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
    // The name reaches the registry whole, which refuses it as an object's name (a real
    // server answers 422 for it too).
    assert_eq!(answer.code, 422, "{:?}", answer.body);
    let body = format!("{:?}", answer.body);
    assert!(body.contains("a/b"), "{body}");
    assert!(
        server
            .object(&ObjectKey::new("", "configmaps", "default", "a/b"))
            .is_none()
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

/// A Pod bound to a node is deleted gracefully, which the real-server goldens cannot carry (a
/// deletion time seconds after the request's). The times and grace periods are those a real
/// kube-apiserver v1.37.2 answered to the same requests at the same offsets: marked 30 s
/// ahead; deleted again, unchanged; a shorter period moves the time nearer (not before now,
/// the period then 1); 0 removes it, answering the Pod at its deletion's revision.
#[test]
fn a_pod_on_a_node_is_deleted_gracefully() {
    let mut server = ApiServer::new();
    let pods = "/api/v1/namespaces/default/pods";
    let at = |t: &str| Timestamp::parse(&format!("2026-12-03T21:00:{t}Z")).unwrap();
    let created = server.handle_at(
        &Request::new("POST", pods).with_body(
            "application/json",
            r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"nodeName":"node-a","containers":[{"name":"c","image":"nginx"}]}}"#,
        ),
        at("15"),
    );
    assert_eq!(created.code, 201);
    let delete = |server: &mut ApiServer, query: Option<&str>, t: &str| {
        let mut request = Request::new("DELETE", format!("{pods}/p"));
        if let Some(g) = query {
            request = request.with_query("gracePeriodSeconds", g);
        }
        server.handle_at(&request, at(t))
    };
    let marking = |answer: &smd::apiserver::Response| {
        (
            answer.code,
            meta(&answer.body, "deletionTimestamp").cloned(),
            meta(&answer.body, "deletionGracePeriodSeconds").cloned(),
            meta(&answer.body, "resourceVersion").cloned(),
        )
    };
    let stamp = |t: &str| Some(Value::from(format!("2026-12-03T21:00:{t}Z")));
    let first = marking(&delete(&mut server, None, "15"));
    assert_eq!(
        first,
        (
            200,
            stamp("45"),
            Some(Value::Int(30)),
            Some(Value::from("1002"))
        )
    );
    assert_eq!(marking(&delete(&mut server, None, "17")), first);
    assert_eq!(
        marking(&delete(&mut server, Some("10"), "19")),
        (
            200,
            stamp("25"),
            Some(Value::Int(10)),
            Some(Value::from("1003"))
        )
    );
    assert_eq!(
        marking(&delete(&mut server, Some("1"), "21")),
        (
            200,
            stamp("21"),
            Some(Value::Int(1)),
            Some(Value::from("1004"))
        )
    );
    assert_eq!(
        marking(&delete(&mut server, Some("0"), "22")),
        (
            200,
            stamp("22"),
            Some(Value::Int(0)),
            Some(Value::from("1006"))
        )
    );
    let key = ObjectKey::new("", "pods", "default", "p");
    assert!(server.object(&key).is_none());
}

// Services and Pods: what the REST allocates and admission adds, beyond what the real-server
// scenarios check (their cluster has one network and makes no ServiceAccount by itself).

fn post(path: &str, body: &str) -> Request {
    Request::new("POST", path).with_body("application/json", body.to_owned())
}

fn spec<'a>(object: &'a Value, key: &str) -> Option<&'a Value> {
    object.as_map()?.get("spec")?.as_map()?.get(key)
}

const SERVICES: &str = "/api/v1/namespaces/default/services";
const PODS: &str = "/api/v1/namespaces/default/pods";
const POD: &str = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}"#;

fn service(name: &str, extra: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Service","metadata":{{"name":"{name}"}},"spec":{{{extra}"ports":[{{"port":80}}]}}}}"#
    )
}

#[test]
fn accounts_are_assumed_unless_the_server_holds_them_all() {
    use smd::apiserver::ServiceAccounts;
    // By default the `default` account a cluster's controller makes is taken to exist.
    let mut server = ApiServer::new();
    let answer = server.handle(&post(PODS, POD));
    assert_eq!(answer.code, 201, "{:?}", answer.body);
    assert_eq!(
        spec(&answer.body, "serviceAccountName"),
        Some(&Value::from("default"))
    );
    let volumes = spec(&answer.body, "volumes").and_then(Value::as_list);
    assert_eq!(volumes.map(<[Value]>::len), Some(1));

    // A server that holds every account refuses a Pod whose account it lacks...
    let mut strict = ApiServer::new();
    strict.set_service_accounts(ServiceAccounts::Stored);
    assert_eq!(strict.handle(&post(PODS, POD)).code, 403);
    // ...and follows a stored account's settings.
    let account = Value::from_json(
        r#"{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default","namespace":"default"},"automountServiceAccountToken":false}"#,
    )
    .unwrap();
    strict.put_object(
        ObjectKey::new("", "serviceaccounts", "default", "default"),
        account,
    );
    let answer = strict.handle(&post(PODS, POD));
    assert_eq!(answer.code, 201, "{:?}", answer.body);
    assert_eq!(spec(&answer.body, "volumes"), None);
}

#[test]
fn a_service_put_into_the_store_holds_its_address_and_node_port() {
    let mut server = ApiServer::new();
    let live = Value::from_json(
        r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"live","namespace":"default","resourceVersion":"5"},"spec":{"type":"NodePort","clusterIP":"10.96.0.50","clusterIPs":["10.96.0.50"],"ports":[{"port":80,"nodePort":30500}]}}"#,
    )
    .unwrap();
    let key = ObjectKey::new("", "services", "default", "live");
    server.put_object(key.clone(), live);
    let same_ip = service("a", r#""clusterIP":"10.96.0.50","#);
    assert_eq!(server.handle(&post(SERVICES, &same_ip)).code, 422);
    let same_port = r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"b"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30500}]}}"#;
    assert_eq!(server.handle(&post(SERVICES, same_port)).code, 422);
    // Once the object is gone, so is what it held.
    server.remove_object(&key);
    assert_eq!(server.handle(&post(SERVICES, &same_ip)).code, 201);
    assert_eq!(server.handle(&post(SERVICES, same_port)).code, 201);
}

#[test]
fn services_are_allocated_from_the_network_set_and_not_reused_at_once() {
    use smd::apiserver::ServiceNetwork;
    use std::net::Ipv4Addr;
    let mut server = ApiServer::new();
    server.set_service_network(ServiceNetwork {
        cluster_ip_network: Ipv4Addr::new(172, 20, 0, 0),
        cluster_ip_prefix: 16,
        node_ports: (31000, 31010),
    });
    let node_port = r#"{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"},"spec":{"type":"NodePort","ports":[{"port":80}]}}"#;
    let a = server.handle(&post(SERVICES, node_port)).body;
    let ip = spec(&a, "clusterIP")
        .and_then(Value::as_str)
        .unwrap_or_default();
    assert!(ip.starts_with("172.20."), "{ip}");
    let port = spec(&a, "ports")
        .and_then(Value::as_list)
        .and_then(|l| l.first())
        .and_then(|p| p.as_map()?.get("nodePort")?.as_int());
    assert!(
        port.is_some_and(|p| (31000..=31010).contains(&p)),
        "{port:?}"
    );
    // A deleted Service's address is free, yet the next Service gets another one, as a
    // real server (which draws at random) almost always gives.
    let first = ip.to_owned();
    assert_eq!(
        server
            .handle(&Request::new("DELETE", format!("{SERVICES}/a")))
            .code,
        200
    );
    let b = server.handle(&post(SERVICES, &service("b", ""))).body;
    let second = spec(&b, "clusterIP").and_then(Value::as_str);
    assert!(second.is_some_and(|s| s != first), "{second:?}");
}
