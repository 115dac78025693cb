//! SMD schema YAML: reading never panics; a schema that reads writes back to YAML that reads
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
    let yaml = schema.to_yaml();
    let again = Schema::from_yaml(&yaml)
        .unwrap_or_else(|e| panic!("written schema does not read back: {e}\n{yaml}"));
    assert!(again == schema, "schema YAML round trip changed the schema:\n{yaml}");
});
