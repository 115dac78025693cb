//! SMD schema YAML: reading never panics; a schema that reads, with unique keys in its keyed
//! lists (`Schema::has_unique_keys`: a null key and an empty one are two keys, in Go too, and
//! both decode to "", so such a schema cannot be written back), writes back to YAML that reads
//! to an equal schema.
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
    if !schema.has_unique_keys() {
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
