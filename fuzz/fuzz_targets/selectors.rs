//! LIST and WATCH of the in-memory API server on hostile queries: `labelSelector` (apimachinery's
//! lexer and parser), `fieldSelector` (terms, escapes, each kind's field labels), `continue`
//! tokens (base64url and JSON), `resourceVersion`, `limit` and the watch options, against a
//! collection of labelled objects. The input is up to eight query values, one per line, in the
//! order of `QUERY` below.
//!
//! Invariants: nothing panics; every answer has an HTTP code from 200 to 599; a refusal is a
//! `Status` whose `code` is the answer's; a list's items are at most the objects there are.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use smd::apiserver::{APPLY_PATCH, ApiServer, Request};
use smd::fieldpath::Value;
use smd::managedfields::Timestamp;

const QUERY: [&str; 8] = [
    "labelSelector",
    "fieldSelector",
    "continue",
    "resourceVersion",
    "limit",
    "resourceVersionMatch",
    "sendInitialEvents",
    "allowWatchBookmarks",
];

/// Objects in the collections the requests read: built once, cloned per input.
fn prepared() -> &'static Option<ApiServer> {
    static SERVER: OnceLock<Option<ApiServer>> = OnceLock::new();
    SERVER.get_or_init(|| {
        let mut server = ApiServer::new();
        let now = Timestamp::from_unix(1_780_000_000);
        for (i, labels) in ["app: web, tier: front", "app: db", "n: '5'", ""].iter().enumerate() {
            let body = format!(
                "{{apiVersion: v1, kind: ConfigMap, metadata: {{name: c{i}, labels: {{{labels}}}}}}}"
            );
            let request = Request::new("PATCH", format!("/api/v1/namespaces/ns/configmaps/c{i}"))
                .with_query("fieldManager", "seed")
                .with_body(APPLY_PATCH, body);
            if !server.handle_at(&request, now).is_success() {
                return None;
            }
        }
        Some(server)
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(server) = prepared() else {
        return;
    };
    let mut server = server.clone();
    let values: Vec<&str> = text.split('\n').collect();
    for (path, watch) in [
        ("/api/v1/namespaces/ns/configmaps", false),
        ("/api/v1/namespaces/ns/configmaps", true),
        ("/api/v1/pods", false),
    ] {
        let mut request = Request::new("GET", path);
        if watch {
            request = request.with_query("watch", "true");
        }
        for (name, value) in QUERY.iter().zip(&values) {
            if !value.is_empty() {
                request = request.with_query(*name, *value);
            }
        }
        let response = server.handle(&request);
        assert!(
            (200..600).contains(&response.code),
            "code {}",
            response.code
        );
        let body = response.body.as_map();
        let field = |k: &str| body.and_then(|m| m.get(k));
        if response.code >= 400 {
            assert_eq!(field("kind").and_then(Value::as_str), Some("Status"));
            assert_eq!(
                field("code").and_then(Value::as_int),
                Some(i64::from(response.code))
            );
        } else if !watch {
            let items = field("items")
                .and_then(Value::as_list)
                .map_or(0, <[Value]>::len);
            assert!(items <= 4, "{items} items of 4 objects");
        }
    }
    // A deletion by the same selectors leaves the server answering.
    let mut delete = Request::new("DELETE", "/api/v1/namespaces/ns/configmaps");
    for (name, value) in QUERY.iter().zip(&values).take(2) {
        if !value.is_empty() {
            delete = delete.with_query(*name, *value);
        }
    }
    let response = server.handle(&delete);
    assert!(
        (200..600).contains(&response.code),
        "code {}",
        response.code
    );
});
