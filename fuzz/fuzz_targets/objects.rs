//! The CLI's object reader: JSON or YAML sniffed as kubectl sniffs it, JSON streams, YAML
//! streams cut into pieces at `---` lines and read in parallel batches, `kind: List` unpacked,
//! each object with its origin (document, line, item) and its document's repeated keys.
//!
//! Invariants: nothing panics; reading in small batches on four threads gives exactly what the
//! serial reading gives, origins and errors included; every object is a map with `apiVersion`
//! and `kind`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd::fieldpath::Value;
use smd_cli::fuzzing::read_objects;

fuzz_target!(|data: &[u8]| {
    let serial = read_objects(data, 1, false);
    let parallel = read_objects(data, 4, true);
    // Compared as text: a NaN read twice is the same reading, though not an equal value.
    assert_eq!(
        format!("{serial:?}"),
        format!("{parallel:?}"),
        "the parallel reading differs"
    );
    for (origin, object, _) in serial.into_iter().flatten() {
        let text = |key: &str| {
            object
                .as_map()
                .and_then(|m| m.get(key))
                .and_then(Value::as_str)
        };
        assert!(
            text("apiVersion").is_some_and(|s| !s.is_empty())
                && text("kind").is_some_and(|s| !s.is_empty()),
            "{origin}: an object without apiVersion or kind"
        );
    }
});
