//! SMD schema YAML: reading never panics; a schema that reads, with unique type names, writes
//! back to YAML that reads to an equal schema. (Names must be unique to round-trip: a null
//! name and an empty one are two keys of the list of types, in Go too, and both decode to "",
//! which written back is a duplicate key; `schema/validation.yaml`,
//! `null-name-and-empty-name-are-two-keys`.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_schema::Schema;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(schema) = Schema::from_yaml(text) else {
        return;
    };
    let mut names: Vec<&str> = schema.types().iter().map(|t| t.name()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        return;
    }
    let yaml = schema.to_yaml();
    let again = Schema::from_yaml(&yaml)
        .unwrap_or_else(|e| panic!("written schema does not read back: {e}\n{yaml}"));
    assert!(
        again == schema,
        "schema YAML round trip changed the schema:\n{yaml}"
    );
});
