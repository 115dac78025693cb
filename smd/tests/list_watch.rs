//! List and watch on the in-memory API server: what the watch cache delivers for each kind of
//! write, selectors followed through changes, pages, and a history that runs out. The real
//! server's answers to the same requests are in `conformance/apiserver/scenarios/` (replayed
//! by `conformance/tests/apiserver.rs`); these tests pin the mechanisms on small cases.

use smd::apiserver::{APPLY_PATCH, ApiServer, Request};
use smd::fieldpath::Value;

const CONFIGMAPS: &str = "/api/v1/namespaces/demo/configmaps";

fn apply(server: &mut ApiServer, name: &str, labels: &str, data: &str) -> u16 {
    let body = format!(
        "{{apiVersion: v1, kind: ConfigMap, metadata: {{name: {name}, labels: {{{labels}}}}}, data: {{{data}}}}}"
    );
    let request = Request::new("PATCH", format!("{CONFIGMAPS}/{name}"))
        .with_query("fieldManager", "test")
        .with_body(APPLY_PATCH, body);
    server.handle(&request).code
}

fn field<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter()
        .try_fold(value, |v, k| v.as_map().and_then(|m| m.get(k)))
}

fn text(value: &Value, path: &[&str]) -> String {
    field(value, path)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// (type, object name) of each event.
fn events(server: &mut ApiServer, query: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut request = Request::new("GET", CONFIGMAPS).with_query("watch", "true");
    for (k, v) in query {
        request = request.with_query(*k, *v);
    }
    let response = server.handle(&request);
    assert_eq!(response.code, 200, "{:?}", response.body);
    response
        .body
        .as_list()
        .unwrap_or_default()
        .iter()
        .map(|e| (text(e, &["type"]), text(e, &["object", "metadata", "name"])))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

#[test]
fn a_watch_replays_the_writes_after_its_revision_in_order() {
    let mut server = ApiServer::new();
    apply(&mut server, "a", "", "k: '1'");
    let start = server.revision().to_string();
    apply(&mut server, "b", "", "k: '1'");
    apply(&mut server, "a", "", "k: '2'");
    // An apply that changes nothing writes nothing, and nothing is seen.
    apply(&mut server, "a", "", "k: '2'");
    let deleted = server.handle(&Request::new("DELETE", format!("{CONFIGMAPS}/b")));
    assert_eq!(deleted.code, 200);
    assert_eq!(
        events(&mut server, &[("resourceVersion", &start)]),
        pairs(&[("ADDED", "b"), ("MODIFIED", "a"), ("DELETED", "b")])
    );
    // Without a revision: the current state as ADDED events.
    assert_eq!(events(&mut server, &[]), pairs(&[("ADDED", "a")]));
}

#[test]
fn a_selective_watch_sees_objects_enter_and_leave() {
    let mut server = ApiServer::new();
    apply(&mut server, "a", "tier: web", "k: '1'");
    let start = server.revision().to_string();
    apply(&mut server, "a", "tier: db", "k: '1'");
    apply(&mut server, "a", "tier: web", "k: '1'");
    let seen = events(
        &mut server,
        &[("resourceVersion", &start), ("labelSelector", "tier=web")],
    );
    assert_eq!(seen, pairs(&[("DELETED", "a"), ("ADDED", "a")]));
}

#[test]
fn a_revision_older_than_the_history_is_gone() {
    let mut server = ApiServer::new();
    server.set_event_history(2);
    apply(&mut server, "a", "", "k: '1'");
    let start = server.revision().to_string();
    for i in 2..5 {
        apply(&mut server, "a", "", &format!("k: '{i}'"));
    }
    let response = server.handle(
        &Request::new("GET", CONFIGMAPS)
            .with_query("watch", "1")
            .with_query("resourceVersion", start.as_str()),
    );
    let list = response.body.as_list().unwrap_or_default();
    assert_eq!(list.len(), 1);
    assert_eq!(text(&list[0], &["type"]), "ERROR");
    assert_eq!(field(&list[0], &["object", "code"]), Some(&Value::Int(410)));
}

#[test]
fn lists_page_with_continue_tokens() {
    let mut server = ApiServer::new();
    for name in ["c", "a", "b"] {
        apply(&mut server, name, "", "k: '1'");
    }
    let first = server.handle(&Request::new("GET", CONFIGMAPS).with_query("limit", "2"));
    assert_eq!(first.code, 200);
    assert_eq!(text(&first.body, &["kind"]), "ConfigMapList");
    let items = field(&first.body, &["items"])
        .and_then(Value::as_list)
        .unwrap_or_default();
    let names: Vec<String> = items
        .iter()
        .map(|i| text(i, &["metadata", "name"]))
        .collect();
    assert_eq!(names, ["a", "b"]);
    // A built-in list's items do not repeat their kind.
    assert_eq!(field(&items[0], &["kind"]), None);
    assert_eq!(
        field(&first.body, &["metadata", "remainingItemCount"]),
        Some(&Value::Int(1))
    );
    let token = text(&first.body, &["metadata", "continue"]);
    apply(&mut server, "d", "", "k: '1'");
    let rest =
        server.handle(&Request::new("GET", CONFIGMAPS).with_query("continue", token.as_str()));
    let items = field(&rest.body, &["items"])
        .and_then(Value::as_list)
        .unwrap_or_default();
    let names: Vec<String> = items
        .iter()
        .map(|i| text(i, &["metadata", "name"]))
        .collect();
    // The second page is read at the first page's revision: `d` came later.
    assert_eq!(names, ["c"]);
}

#[test]
fn selectors_refuse_what_apimachinery_refuses() {
    let mut server = ApiServer::new();
    let bad_label =
        server.handle(&Request::new("GET", CONFIGMAPS).with_query("labelSelector", "a in b"));
    assert_eq!(bad_label.code, 400);
    let bad_field = server
        .handle(&Request::new("GET", CONFIGMAPS).with_query("fieldSelector", "spec.nodeName=x"));
    assert_eq!(bad_field.code, 400);
    assert_eq!(
        bad_field.message(),
        Some(
            "\"spec.nodeName\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
        )
    );
}

#[test]
fn delete_collection_deletes_what_its_selectors_select() {
    let mut server = ApiServer::new();
    apply(&mut server, "a", "tier: web", "k: '1'");
    apply(&mut server, "b", "tier: db", "k: '1'");
    let start = server.revision().to_string();
    let deleted =
        server.handle(&Request::new("DELETE", CONFIGMAPS).with_query("labelSelector", "tier=web"));
    assert_eq!(deleted.code, 200, "{:?}", deleted.body);
    assert_eq!(text(&deleted.body, &["kind"]), "ConfigMapList");
    assert_eq!(
        events(&mut server, &[("resourceVersion", &start)]),
        pairs(&[("DELETED", "a")])
    );
    let left = server.handle(&Request::new("GET", CONFIGMAPS));
    let items = field(&left.body, &["items"])
        .and_then(Value::as_list)
        .unwrap_or_default();
    assert_eq!(items.len(), 1);
}
