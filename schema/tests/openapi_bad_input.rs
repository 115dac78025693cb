//! Hostile OpenAPI input: every case ends in an error (or a schema) within bounds, never a
//! panic or a stack overflow.

use smd_schema::openapi::{Document, ErrorKind};

fn nested_properties(depth: usize) -> String {
    let mut s = String::from(r#"{"swagger": "2.0", "definitions": {"t": "#);
    for _ in 0..depth {
        s.push_str(r#"{"type": "object", "properties": {"a": "#);
    }
    s.push_str(r#"{"type": "string"}"#);
    for _ in 0..depth {
        s.push_str("}}");
    }
    s.push_str("}}");
    s
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    // 400 levels of properties (800 JSON levels) convert; 600 levels exceed the reader's limit.
    let doc = Document::from_slice(nested_properties(400).as_bytes()).expect("reads");
    assert!(doc.to_schema().is_ok());
    let err = Document::from_slice(nested_properties(600).as_bytes()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Read);

    let yaml = format!(
        "swagger: '2.0'\ndefinitions: {}1{}",
        "[".repeat(900),
        "]".repeat(900)
    );
    assert_eq!(
        Document::from_slice(yaml.as_bytes()).unwrap_err().kind(),
        ErrorKind::Read
    );
}

#[test]
fn reference_cycles_terminate() {
    let doc = Document::from_slice(
        br##"{"swagger": "2.0", "definitions": {
            "a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"},
            "c": {"type": "object", "properties": {"self": {"$ref": "#/definitions/c"}}}}}"##,
    )
    .expect("reads");
    let schema = doc.to_schema().expect("converts");
    assert!(schema.find("a").is_none() && schema.find("c").is_some());
}

#[test]
fn errors_name_the_json_pointer() {
    let doc = Document::from_slice(
        br#"{"openapi": "3.0.0", "components": {"schemas": {"io.k8s.api.core.v1.Pod": {
            "type": "object", "properties": {"spec": {"type": "object", "properties": {
              "ports": {"type": "array", "items": {"type": "object"}, "x-kubernetes-list-type": "bogus"}}}}}}}}"#,
    )
    .expect("reads");
    let err = doc.to_schema().unwrap_err();
    assert_eq!(
        err.problems()[0].pointer(),
        "#/components/schemas/io.k8s.api.core.v1.Pod/properties/spec/properties/ports"
    );
    assert_eq!(
        err.go_message(),
        "inlined in inlined in io.k8s.api.core.v1.Pod: unknown list type bogus"
    );

    let err = Document::from_slice(
        br#"{"swagger": "2.0", "definitions": {"t": {"properties": {"a": {"maxLength": 1.5}}}}}"#,
    )
    .unwrap_err();
    assert_eq!(
        err.problems()[0].pointer(),
        "#/definitions/t/properties/a/maxLength"
    );
}

#[test]
fn garbage_is_an_error() {
    for input in [
        &b""[..],
        b"{",
        b"null",
        b"\xff\xfe",
        b"{\"swagger\": \"2.0\", \"definitions\": {\"t\": {\"type\": \"string\"}}} trailing",
        b"- a\n- b",
        b"a: [",
        b"{\"openapi\": \"3.0.0\", \"components\": {\"schemas\": {\"t\": null}}}",
    ] {
        assert!(
            Document::from_slice(input).is_err(),
            "{}",
            String::from_utf8_lossy(input)
        );
    }
}
