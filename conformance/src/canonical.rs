//! The canonical JSON of goldens: values that keep Go's kinds, byte strings that may not be
//! UTF-8, errors.

use serde_json::{Map as JsonMap, Number, Value as Json, json};
use smd_fieldpath::{Error, Value};

/// A value as goldens write it: ints as integers, floats as floats, non-finite floats as
/// `{"$float": …}`, map keys starting with `$` with one more `$`.
pub(crate) fn value(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::Number(Number::from(*i)),
        Value::Float(f) => match Number::from_f64(*f) {
            Some(n) => Json::Number(n),
            None => {
                let name = if f.is_nan() {
                    "NaN"
                } else if *f > 0.0 {
                    "+Inf"
                } else {
                    "-Inf"
                };
                json!({ "$float": name })
            }
        },
        Value::String(s) => Json::String(s.clone()),
        Value::List(items) => Json::Array(items.iter().map(value).collect()),
        Value::Map(map) => {
            let mut out = JsonMap::new();
            for (k, v) in map.iter() {
                let key = if k.starts_with('$') {
                    format!("${k}")
                } else {
                    k.to_owned()
                };
                out.insert(key, value(v));
            }
            Json::Object(out)
        }
    }
}

/// Bytes as a string when they are UTF-8, else as `{"$base64": …}`.
pub(crate) fn bytes(b: &[u8]) -> Json {
    match std::str::from_utf8(b) {
        Ok(s) => Json::String(s.to_owned()),
        Err(_) => json!({ "$base64": base64_encode(b) }),
    }
}

/// An error as the runner reports it: only the text that is compared with Go's `stable`.
pub(crate) fn error(e: &Error) -> Json {
    json!({ "stable": e.message() })
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard, padded base64.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes standard, padded base64.
pub(crate) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let digit = ALPHABET.iter().position(|&a| a == c)? as u32;
        acc = acc << 6 | digit;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for input in [&b""[..], b"f", b"fo", b"foo", b"foob", b"\xff\x00\xef"] {
            let encoded = base64_encode(input);
            assert_eq!(base64_decode(&encoded).as_deref(), Some(input));
        }
        assert_eq!(base64_encode(b"foob"), "Zm9vYg==");
    }
}
