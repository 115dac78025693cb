//! CRDs (a YAML or JSON stream of documents, UTF-8) through `crd::convert_stream`: never
//! panics; every error names a JSON pointer (`#...`), as does every field error of a refused
//! CRD; every converted schema with unique type names writes as SMD schema YAML that reads back
//! to an equal schema, and every kind it indexes names one of its types.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_schema::Schema;
use smd_schema::crd::{Error, convert_stream};

fn check_error(e: &Error) {
    assert!(
        e.pointer().starts_with('#'),
        "error pointer {:?} is not a URI fragment: {e}",
        e.pointer()
    );
    for f in e.invalid() {
        assert!(
            f.pointer.starts_with('#'),
            "field error pointer {:?} is not a URI fragment: {}",
            f.pointer,
            f.go_text
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let results = match convert_stream(text) {
        Ok(results) => results,
        Err(e) => {
            check_error(&e);
            return;
        }
    };
    for result in results {
        let converted = match result {
            Ok(c) => c,
            Err(e) => {
                check_error(&e);
                continue;
            }
        };
        let schema = converted.schema;
        for (gvk, type_name) in &converted.index {
            assert!(
                schema.find_named_type(type_name).is_some(),
                "{gvk:?} indexes {type_name}, which the schema lacks"
            );
        }
        // A type named like a common type (`__untyped_atomic_`) is kept next to it, as in Go:
        // such a schema has duplicate names, which SMD schema YAML (an associative list keyed
        // by name) refuses, in Go too. Only schemas with unique names must round-trip.
        let mut names: Vec<&str> = schema.types().iter().map(|t| t.name()).collect();
        names.sort_unstable();
        if names.windows(2).any(|w| w[0] == w[1]) {
            continue;
        }
        let yaml = schema.to_yaml();
        let again = Schema::from_yaml(&yaml)
            .unwrap_or_else(|e| panic!("converted schema does not read back: {e}\n{yaml}"));
        assert!(
            again == schema,
            "converted schema changed through YAML:\n{yaml}"
        );
    }
});
