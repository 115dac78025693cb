//! JSON text as Go's value.FromJSON reads it: never panics; what is read writes as JSON that
//! reads back to an equal value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_value::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = Value::from_json_floats(data) else {
        return;
    };
    let text = value.to_json().expect("a value read from JSON is finite");
    let again = Value::from_json_floats(text.as_bytes()).expect("written JSON reads back");
    assert!(again == value, "JSON round trip changed the value");
});
