//! YAML text: reading never panics, overflows the stack or runs away with memory (aliases and
//! nesting are bounded); a value that was read has a Go text and, when finite, a JSON form.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(documents) = smd_fieldpath::yaml::documents_from_slice(data) {
        for value in documents {
            let _ = value.to_string();
            let _ = value.to_json();
        }
    }
});
