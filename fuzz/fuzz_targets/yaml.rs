//! YAML text: reading never panics, overflows the stack or runs away with memory (aliases and
//! nesting are bounded); a value that was read has a Go text and, when finite, a JSON form; and
//! the YAML smd writes for it reads back as the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smd_value::Value;
use smd_value::yaml;

/// Equality with NaN equal to itself (YAML's `.nan` round-trips as a NaN).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        _ => a == b,
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(documents) = yaml::documents_from_slice(data) {
        for value in documents {
            let _ = value.to_string();
            let _ = value.to_json();
            let written = yaml::to_string(&value);
            match yaml::from_str(&written) {
                Ok(back) => assert!(
                    same(&back, &value),
                    "{value:?} written as {written:?} reads back as {back:?}"
                ),
                Err(e) => panic!("{value:?} written as {written:?} does not read back: {e}"),
            }
        }
    }
});
