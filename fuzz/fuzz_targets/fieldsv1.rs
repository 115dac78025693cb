//! fieldsV1 bytes: reading never panics; the reader's fast path reads what Go's reader, step by
//! step, reads (the same set, the same error); what is read writes back to bytes that read to
//! the same set and write again to the same bytes (writing is a fixed point of reading); and
//! reading the document as a value and the value as a set (the field manager's fast path) gives
//! the set its JSON text gives, whenever the fast path answers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_fieldpath::{Set, Value};

fuzz_target!(|data: &[u8]| {
    if let Ok(value) = Value::from_json_floats(data)
        && let Some(fast) = Set::from_fields_v1_value(&value)
        && let Ok(text) = value.to_json()
    {
        let slow = Set::from_fields_v1(text.as_bytes()).expect("the fast path accepted it");
        assert!(fast == slow, "the fast path read another set");
    }
    let (read, error) = Set::from_fields_v1_partial(data);
    let (stepped, stepped_error) = Set::from_fields_v1_step_by_step(data);
    assert!(read == stepped, "the reader's fast path read another set");
    assert_eq!(
        error.map(|e| e.to_string()),
        stepped_error.map(|e| e.to_string()),
        "the reader's fast path gave another error"
    );
    let Ok(set) = Set::from_fields_v1(data) else {
        return;
    };
    // A set read from JSON holds no NaN or infinite float, so it always has a JSON form.
    let written = set
        .to_fields_v1()
        .expect("a set read from fieldsV1 can be written");
    let reread = Set::from_fields_v1(&written).expect("written fieldsV1 is accepted");
    assert!(reread == set, "re-reading changed the set");
    let rewritten = reread.to_fields_v1().expect("written again");
    assert_eq!(rewritten, written, "writing is not a fixed point");
});
