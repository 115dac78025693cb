//! Bad CRDs are refused with an error that names where, never with a panic or a stack overflow.

use smd_schema::crd::convert_stream;

fn crd(schema: &str) -> String {
    format!(
        "{{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\
         \"metadata\":{{\"name\":\"ws.example.com\"}},\"spec\":{{\"group\":\"example.com\",\
         \"scope\":\"Namespaced\",\"names\":{{\"plural\":\"ws\",\"kind\":\"W\"}},\"versions\":\
         [{{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{{\"openAPIV3Schema\":{schema}}}}}]}}}}"
    )
}

#[test]
fn deep_schemas_are_refused_not_overflowed() {
    // Two maps a level, six around the root schema: 497 levels reach the readers' limit (1000).
    for depth in [498, 900, 5000] {
        let mut s = String::from("{\"type\":\"string\"}");
        for _ in 0..depth {
            s = format!("{{\"type\":\"object\",\"properties\":{{\"a\":{s}}}}}");
        }
        let text = crd(&s);
        match convert_stream(&text) {
            Err(e) => assert!(e.pointer().starts_with('#'), "{e}"),
            Ok(results) => match results.first() {
                Some(Err(e)) => assert!(e.pointer().starts_with("#/spec/versions/0"), "{e}"),
                other => panic!("depth {depth}: expected a refusal, got {other:?}"),
            },
        }
    }
}

#[test]
fn mistyped_parts_name_their_pointer() {
    for (schema, pointer) in [
        (
            "{\"type\":\"object\",\"properties\":[]}",
            "#/spec/versions/0/schema/openAPIV3Schema/properties",
        ),
        (
            // Refused by the schema rules first (no usable type at the root).
            "{\"type\":7}",
            "#/spec/versions/0/schema/openAPIV3Schema",
        ),
        (
            // Refused by the schema rules first: `items: Forbidden: items must be a schema
            // object and not an array`, on the array's schema.
            "{\"type\":\"array\",\"items\":[{\"type\":\"string\"}]}",
            "#/spec/versions/0/schema/openAPIV3Schema",
        ),
        (
            "{\"type\":\"object\",\"properties\":{\"a/b\":{\"type\":\"array\",\"x-kubernetes-list-map-keys\":[1]}}}",
            "#/spec/versions/0/schema/openAPIV3Schema/properties/a~1b",
        ),
    ] {
        let text = crd(schema);
        let results = convert_stream(&text).unwrap_or_default();
        match results.first() {
            Some(Err(e)) => assert!(e.pointer().starts_with(pointer), "{schema}: {e}"),
            other => panic!("{schema}: expected a refusal, got {other:?}"),
        }
    }
}

#[test]
fn not_a_crd_is_refused() {
    for text in [
        "[]",
        "7",
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}",
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\"}",
    ] {
        let results = convert_stream(text).unwrap_or_default();
        assert!(matches!(results.first(), Some(Err(_))), "{text}");
    }
}
