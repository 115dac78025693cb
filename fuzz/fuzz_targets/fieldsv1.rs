//! fieldsV1 bytes: reading never panics; what is read writes back to bytes that read to the same
//! set and write again to the same bytes (writing is a fixed point of reading).
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_fieldpath::Set;

fuzz_target!(|data: &[u8]| {
    let Ok(set) = Set::from_fields_v1(data) else {
        return;
    };
    // A set read from JSON holds no NaN or infinite float, so it always has a JSON form.
    let written = set.to_fields_v1().expect("a set read from fieldsV1 can be written");
    let reread = Set::from_fields_v1(&written).expect("written fieldsV1 is accepted");
    assert!(reread == set, "re-reading changed the set");
    let rewritten = reread.to_fields_v1().expect("written again");
    assert_eq!(rewritten, written, "writing is not a fixed point");
});
