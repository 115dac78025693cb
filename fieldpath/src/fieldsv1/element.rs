//! The text of one path element inside a `fieldsV1` document.

use crate::element::PathElement;
use crate::error::Result;
use crate::value::Value;
use smd_value::json::{
    stream_result, write_int, write_key_string, write_value, write_value_stream,
};

/// Appends the serialized form of `element`: `f:` and the raw name, `k:` and a JSON object of
/// the key fields (names plain, values HTML-escaped), `v:` and the value as JSON, `i:` and the
/// index.
pub(crate) fn write_element(element: &PathElement, out: &mut Vec<u8>) -> Result<()> {
    match element {
        PathElement::Field(name) => {
            out.extend_from_slice(b"f:");
            out.extend_from_slice(name.as_bytes());
        }
        PathElement::Key(key) => {
            // Go writes all key fields into one stream and reports the stream's error once.
            let mut stream_error = None;
            out.extend_from_slice(b"k:{");
            for (i, field) in key.fields().iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_key_string(out, field.name.as_bytes());
                out.push(b':');
                write_value_stream(out, &field.value, &mut stream_error);
            }
            out.push(b'}');
            stream_result(stream_error)?;
        }
        PathElement::Value(value) => {
            out.extend_from_slice(b"v:");
            write_value(out, value)?;
        }
        PathElement::Index(index) => {
            out.extend_from_slice(b"i:");
            write_int(out, *index);
        }
    }
    Ok(())
}

/// Appends `element` as a key of a `fieldsV1` object, colon included: the quoted, escaped text
/// of [`write_element`] followed by `:`. Go writes the element's text and then escapes it as a
/// string; the two escapes are done here in one pass, straight into `out`, and `scratch` is
/// used only for a value that is a list or a map.
pub(crate) fn write_element_key(
    element: &PathElement,
    out: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
) -> Result<()> {
    match element {
        PathElement::Field(name) => {
            let name = name.as_bytes();
            out.reserve(name.len() + 6);
            out.extend_from_slice(b"\"f:");
            push_escaped(out, name, Escaper::Plain, 1);
        }
        PathElement::Key(key) => {
            let mut stream_error = None;
            out.extend_from_slice(b"\"k:{");
            for (i, field) in key.fields().iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let name = field.name.as_bytes();
                out.reserve(name.len() + 6);
                out.extend_from_slice(br#"\""#);
                push_escaped(out, name, Escaper::Plain, 2);
                out.extend_from_slice(br#"\":"#);
                write_value_key(&field.value, out, scratch, &mut stream_error);
            }
            out.push(b'}');
            stream_result(stream_error)?;
        }
        PathElement::Value(value) => {
            let mut stream_error = None;
            out.extend_from_slice(b"\"v:");
            write_value_key(value, out, scratch, &mut stream_error);
            stream_result(stream_error)?;
        }
        PathElement::Index(index) => {
            out.extend_from_slice(b"\"i:");
            write_int(out, *index);
        }
    }
    out.extend_from_slice(b"\":");
    Ok(())
}

/// Appends the JSON text of `value` as it reads once escaped again inside a key. Scalars other
/// than strings have no byte either escape touches; a string is escaped twice in one pass; a
/// list or a map (rare in a path element) is written to `scratch` and escaped from there.
fn write_value_key(
    value: &Value,
    out: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
    stream_error: &mut Option<String>,
) {
    match value {
        Value::String(s) => {
            out.reserve(s.len() + 6);
            out.extend_from_slice(br#"\""#);
            push_escaped(out, s.as_bytes(), Escaper::Html, 2);
            out.extend_from_slice(br#"\""#);
        }
        Value::List(_) | Value::Map(_) => {
            scratch.clear();
            write_value_stream(scratch, value, stream_error);
            push_escaped(out, scratch, Escaper::Plain, 1);
        }
        Value::Float(f) if write_short_float(out, *f) => {}
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) => {
            write_value_stream(out, value, stream_error)
        }
    }
}

/// The two string escapers of json-iterator (see `smd_value::json`): `Plain` for object keys
/// written by hand, `Html` for strings written as values.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Escaper {
    Plain,
    Html,
}

/// For each byte, whether the plain escaper touches it (`"`, `\`, below 0x20); bit 2 also
/// marks what only the HTML escaper touches (`<`, `>`, `&`, and 0xE2, the lead byte of U+2028
/// and U+2029).
const PLAIN: u8 = 1;
const HTML: u8 = 2;
const CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        class[b] = PLAIN;
        b += 1;
    }
    class[b'"' as usize] = PLAIN;
    class[b'\\' as usize] = PLAIN;
    class[b'<' as usize] = HTML;
    class[b'>' as usize] = HTML;
    class[b'&' as usize] = HTML;
    class[0xe2] = HTML;
    class
};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `bytes` escaped by `escaper` and then, `times - 1` more times, by the plain escaper
/// (`times` is 1 or 2), without the quotes either escape would add: a field name in a key is
/// escaped once (`"f:<name>"`), a name or a string inside `k:{…}` or `v:…` twice.
#[inline(always)]
fn push_escaped(out: &mut Vec<u8>, bytes: &[u8], escaper: Escaper, times: u8) {
    let mask = match escaper {
        Escaper::Plain => PLAIN,
        Escaper::Html => PLAIN | HTML,
    };
    let mut plain_from = 0;
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        if CLASS[usize::from(b)] & mask == 0 {
            at += 1;
            continue;
        }
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; any other E2 sequence is copied.
        let separator = match (b, bytes.get(at + 1..at + 3)) {
            (0xe2, Some([0x80, last @ (0xa8 | 0xa9)])) => Some(*last),
            (0xe2, _) => {
                at += 1;
                continue;
            }
            _ => None,
        };
        out.extend_from_slice(bytes.get(plain_from..at).unwrap_or_default());
        let mut once = [0u8; 6];
        let text: &[u8] = match (b, separator) {
            (_, Some(last)) => {
                once = [
                    b'\\',
                    b'u',
                    b'2',
                    b'0',
                    b'2',
                    if last == 0xa8 { b'8' } else { b'9' },
                ];
                &once
            }
            (b'"' | b'\\', _) => {
                once[..2].copy_from_slice(&[b'\\', b]);
                &once[..2]
            }
            (b'\n', _) => b"\\n",
            (b'\r', _) => b"\\r",
            (b'\t', _) => b"\\t",
            _ => {
                once = [
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 0xf)],
                ];
                &once
            }
        };
        if times > 1 {
            // The second escape: of the first escape's bytes only `\` and `"` are touched.
            for &e in text {
                if e == b'\\' || e == b'"' {
                    out.push(b'\\');
                }
                out.push(e);
            }
        } else {
            out.extend_from_slice(text);
        }
        at += if separator.is_some() { 3 } else { 1 };
        plain_from = at;
    }
    out.extend_from_slice(bytes.get(plain_from..).unwrap_or_default());
}

/// Below this, a float times the power of ten that makes it an integer is exact enough for
/// [`write_short_float`]: its ulp is at most 1/4, and so is the rounding error of the product.
const SHORT_LIMIT: f64 = (1u64 << 50) as f64;

/// Writes json-iterator's text of `f` (Go's shortest `'f'` form) when `f` is a decimal of at
/// most 15 fraction digits that is below 2^50 and at least 1e-6 in magnitude, and says whether
/// it did; any other float is left to `smd_value`, whose general path costs a formatting of
/// Rust's `{:e}`.
///
/// The shortest digits that read back as `f` have the fewest fraction digits `k` for which some
/// integer `n` makes `n / 10^k` read back as `f`. In this range at most one integer lies near
/// enough to `f·10^k` for that (the float's ulp, scaled, is at most 1/4), and it is the rounded
/// product; `n / 10^k` computed in floating point is the correctly rounded quotient of two exact
/// numbers, which is what reading the decimal text gives.
fn write_short_float(out: &mut Vec<u8>, f: f64) -> bool {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let magnitude = f.abs();
    // Also false for NaN; zero (`0`, `-0`) is left to the general path.
    if !(1e-6..SHORT_LIMIT).contains(&magnitude) {
        return false;
    }
    for (k, &power) in POW10.iter().enumerate() {
        let scaled = magnitude * power;
        if scaled >= SHORT_LIMIT {
            return false;
        }
        let n = scaled.round();
        if n / power != magnitude {
            continue;
        }
        let n = n as u64;
        let unit = 10u64.pow(k as u32);
        if k > 0 && n % 10 == 0 {
            // Not reached (a shorter k would have matched); left to the general path.
            return false;
        }
        if f < 0.0 {
            out.push(b'-');
        }
        write_int(out, (n / unit) as i64);
        if k > 0 {
            out.push(b'.');
            let fraction = n % unit;
            let mut digits = [b'0'; 16];
            let mut rest = fraction;
            for slot in digits.iter_mut().take(k).rev() {
                *slot = b'0' + (rest % 10) as u8;
                rest /= 10;
            }
            out.extend_from_slice(digits.get(..k).unwrap_or_default());
        }
        return true;
    }
    false
}

impl PathElement {
    /// The element as it appears as a key of a `fieldsV1` document (before that key is itself
    /// escaped as a JSON string): `f:spec`, `k:{"name":"a"}`, `v:80`, `i:3`. Fails only for a
    /// value with no JSON form (a NaN or infinite float).
    pub fn to_fields_v1(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        write_element(self, &mut out)?;
        Ok(out)
    }

    /// [`PathElement::to_fields_v1`] appended to `out`, so that a writer of many elements can
    /// reuse one buffer.
    pub fn write_fields_v1(&self, out: &mut Vec<u8>) -> Result<()> {
        write_element(self, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::{Key, KeyField};
    use crate::name::Name;
    use std::sync::Arc;

    /// What Go does: the element's text, then that text escaped as an object key.
    fn two_passes(element: &PathElement) -> Result<Vec<u8>> {
        let text = element.to_fields_v1()?;
        let mut out = Vec::new();
        write_key_string(&mut out, &text);
        out.push(b':');
        Ok(out)
    }

    fn one_pass(element: &PathElement) -> Result<Vec<u8>> {
        let mut out = b"prefix".to_vec();
        let mut scratch = b"left over".to_vec();
        write_element_key(element, &mut out, &mut scratch)?;
        Ok(out.split_off(6))
    }

    fn same(element: &PathElement) {
        let (one, two) = (one_pass(element), two_passes(element));
        match (&one, &two) {
            (Ok(one), Ok(two)) => assert_eq!(
                String::from_utf8_lossy(one),
                String::from_utf8_lossy(two),
                "{element:?}"
            ),
            (Err(one), Err(two)) => assert_eq!(one.message(), two.message(), "{element:?}"),
            _ => panic!("{element:?}: {one:?} against {two:?}"),
        }
    }

    /// The strings the escapers are checked on against Go (`smd-value`'s
    /// `tests/data/strings.txt`), as bytes.
    fn golden_strings() -> Vec<Vec<u8>> {
        let golden = include_bytes!("../../../value/tests/data/strings.txt");
        golden
            .split(|&b| b == b'\n')
            .filter_map(|line| line.split(|&b| b == b'\t').next())
            .filter_map(|hex| std::str::from_utf8(hex).ok())
            .map(|hex| {
                (0..hex.len() / 2)
                    .filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn keys_in_one_pass_are_the_text_escaped_again() {
        let strings = golden_strings();
        assert!(strings.len() > 2500);
        for bytes in &strings {
            let name = Name::from_bytes(bytes);
            same(&PathElement::Field(name.clone()));
            let text = String::from_utf8_lossy(bytes).into_owned();
            same(&PathElement::value(Value::String(text.clone())));
            same(&PathElement::Key(Key::new([
                KeyField {
                    name: name.clone(),
                    value: Value::String(text.clone()),
                },
                KeyField {
                    name: Name::from("port"),
                    value: Value::Int(80),
                },
            ])));
            same(&PathElement::value(Value::List(vec![
                Value::String(text.clone()),
                Value::Null,
            ])));
        }
        let map = Value::from_json(r#"{"b<":["\u2028&",1.5],"a":{"x\"":null}}"#).unwrap();
        let others = [
            Value::Null,
            Value::Bool(true),
            Value::Bool(false),
            Value::Int(i64::MIN),
            Value::Int(-7),
            Value::Float(2.71),
            Value::Float(-0.0),
            Value::Float(1e-7),
            Value::Float(1e21),
            Value::Float(f64::NAN),
            Value::Float(f64::INFINITY),
            Value::List(vec![Value::Float(f64::NAN), Value::Int(1)]),
            Value::List(vec![Value::List(vec![Value::Float(f64::NEG_INFINITY)])]),
            map,
        ];
        for value in others {
            same(&PathElement::value(value.clone()));
            same(&PathElement::Key(Key::new([
                KeyField {
                    name: Name::from("a"),
                    value: value.clone(),
                },
                KeyField {
                    name: Name::from("b"),
                    value: Value::Float(f64::NAN),
                },
                KeyField {
                    name: Name::from("c"),
                    value,
                },
            ])));
        }
        for index in [0, 7, -1, i64::MAX, i64::MIN] {
            same(&PathElement::Index(index));
        }
        same(&PathElement::Key(Key::new([])));
        same(&PathElement::Value(Arc::new(Value::Map(crate::Map::new()))));
    }

    /// The float's text as `smd_value` writes it (checked against Go there).
    fn general_float(f: f64) -> Vec<u8> {
        let mut out = Vec::new();
        write_value_stream(&mut out, &Value::Float(f), &mut None);
        out
    }

    #[test]
    fn short_floats_are_written_as_go_writes_them() {
        let mut floats: Vec<f64> = vec![
            1.234567,
            0.1,
            0.2,
            0.3,
            1e-6,
            1.5e-6,
            9.999999e-7,
            0.000123,
            1.0,
            2.0,
            10.0,
            100.0,
            123456789012345.0,
            1125899906842623.0,
            1125899906842624.0,
            0.1 + 0.2,
            1.0 / 3.0,
            2.0f64.sqrt(),
            1e15,
            1e16,
            1e20,
            1e21,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
        ];
        // Short decimals of every length, and their neighbours one ulp away.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200_000 {
            let digits = next() % 17;
            let n = next() % 10u64.pow(digits as u32).max(1);
            let k = (next() % 22) as i32;
            let f = n as f64 / 10f64.powi(k);
            floats.push(f);
            floats.push(f64::from_bits(f.to_bits() + 1));
            floats.push(f64::from_bits(f.to_bits().saturating_sub(1)));
            floats.push(f64::from_bits(next()));
        }
        let golden = include_str!("../../../value/tests/data/floats.txt");
        floats.extend(
            golden
                .lines()
                .filter_map(|line| line.split(' ').next())
                .filter_map(|hex| u64::from_str_radix(hex, 16).ok())
                .map(f64::from_bits),
        );
        let mut short = 0;
        for f in floats {
            for f in [f, -f] {
                let mut out = Vec::new();
                if write_short_float(&mut out, f) {
                    short += 1;
                    assert_eq!(
                        String::from_utf8_lossy(&out),
                        String::from_utf8_lossy(&general_float(f)),
                        "{f:e} ({:x})",
                        f.to_bits()
                    );
                } else {
                    assert!(out.is_empty());
                }
            }
        }
        assert!(short > 200_000, "{short} short floats");
        same(&PathElement::Value(Arc::new(Value::Map(crate::Map::new()))));
    }
}
