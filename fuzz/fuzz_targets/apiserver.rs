//! The in-memory API server (`smd::apiserver`) on hostile request sequences: the whole write
//! path of a built-in or custom object (decoding, the field manager, admission, the Service
//! allocators, the strategies, validation, CRD pruning and defaulting, version conversion).
//! Requests are separated by a line `%%`; each is a first line `METHOD PATH [CONTENT-TYPE]`
//! (the path may carry a query) and the body after it. One CRD (two versions, defaults) is
//! served, and `default` ServiceAccounts are assumed, as a cluster's controller makes them.
//!
//! Invariants: nothing panics; every answer has an HTTP code from 200 to 599; a refusal is a
//! `Status` whose `code` is the answer's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd::apiserver::{ApiServer, Request};
use smd::fieldpath::Value;
use smd::managedfields::Timestamp;

const CRD: &str = r#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"widgets.example.com"},
 "spec":{"group":"example.com","scope":"Namespaced",
  "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
  "versions":[
   {"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
    "schema":{"openAPIV3Schema":{"type":"object","properties":{
     "spec":{"type":"object","properties":{
      "replicas":{"type":"integer","default":1},
      "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port"],
       "items":{"type":"object","required":["port"],"properties":{
        "port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"}}}},
      "labels":{"type":"object","additionalProperties":{"type":"string"}}}},
     "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}},
   {"name":"v2","served":true,"storage":false,
    "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}"#;

fn server() -> Option<ApiServer> {
    let mut server = ApiServer::new();
    let crd = Value::from_json(CRD).ok()?;
    server.add_crd(&crd).ok()?;
    Some(server)
}

fn request(text: &str) -> Option<Request> {
    let (head, body) = text.split_once('\n').unwrap_or((text, ""));
    let mut words = head.split(' ');
    let method = words.next()?;
    let target = words.next()?;
    let content_type = words.next().unwrap_or("application/json");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut request = Request::new(method, path);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        request = request.with_query(k, v);
    }
    if !body.is_empty() {
        request = request.with_body(content_type, body.as_bytes().to_vec());
    }
    Some(request)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(mut server) = server() else {
        return;
    };
    let now = Timestamp::from_unix(1_780_000_000);
    for part in text.split("\n%%\n").take(6) {
        let Some(request) = request(part) else {
            continue;
        };
        let response = server.handle_at(&request, now);
        assert!(
            (200..600).contains(&response.code),
            "code {}",
            response.code
        );
        if response.code >= 400 {
            let body = response.body.as_map();
            let field = |k: &str| body.and_then(|m| m.get(k));
            assert_eq!(field("kind").and_then(Value::as_str), Some("Status"));
            assert_eq!(
                field("code").and_then(Value::as_int),
                Some(i64::from(response.code))
            );
        }
    }
});
