//! Serialized path elements: parsing never panics; a parsed element serializes to text that
//! parses back to an equal element and serializes identically.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_fieldpath::PathElement;

fuzz_target!(|data: &[u8]| {
    let Ok(element) = PathElement::from_fields_v1(data) else {
        return;
    };
    let text = element
        .to_fields_v1()
        .expect("a parsed element can be written");
    let again = PathElement::from_fields_v1(&text).expect("written element parses");
    assert_eq!(again.compare(&element), std::cmp::Ordering::Equal);
    assert_eq!(again.to_fields_v1().expect("written again"), text);
});
