//! OpenAPI documents (JSON, or YAML when the input does not start with `{`): reading never
//! panics; a document that reads converts to a schema or to an error, and a converted schema
//! with unique keys (`Schema::has_unique_keys`) writes as SMD schema YAML that reads back to an
//! equal schema.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_schema::Schema;
use smd_schema::openapi::Document;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = Document::from_slice(data) else {
        return;
    };
    let _ = doc.gvk_index();
    let Ok(schema) = doc.to_schema() else {
        return;
    };
    // A definition named like a common type (`__untyped_atomic_`) is kept next to it, as in
    // Go: such a schema has duplicate names, which SMD schema YAML (an associative list keyed
    // by name) refuses, in Go too. Only schemas with unique keys must round-trip.
    if !schema.has_unique_keys() {
        return;
    }
    let yaml = schema.to_yaml();
    let again = Schema::from_yaml(&yaml)
        .unwrap_or_else(|e| panic!("converted schema does not read back: {e}\n{yaml}"));
    assert!(
        again == schema,
        "converted schema changed through YAML:\n{yaml}"
    );
});
