//! JSON out, as json-iterator writes it in the `ConfigCompatibleWithStandardLibrary`
//! configuration Go's structured-merge-diff uses (`value.ToJSON`, `fieldsV1` path elements).
//!
//! Two string escapers are involved. Object keys written by hand (`Stream.WriteObjectField`, as
//! the fieldsV1 writer does for its keys and for the field names inside `k:{…}`) go through the
//! plain one; strings reached through `WriteVal` — string values, and the keys of a map value —
//! go through the HTML-safe one.
//!
//! json-iterator keeps writing after a float it cannot write (NaN, ±Inf) and reports an error at
//! the end; its message depends on the nesting (each enclosing non-empty list prefixes
//! `[]interface {}: `). [`write_value_stream`] reproduces that message; the bytes written before
//! such an error are of no use.

use crate::value::{Map, Value, float};
use crate::{Error, ErrorKind, Location};
use smallvec::SmallVec;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// What Go's `%v` prints for the type of a list value in a json-iterator error.
const LIST_TYPE_PREFIX: &str = "[]interface {}: ";

/// Appends `\u00XX` for a byte below 0x20 other than `\n`, `\r`, `\t`, or the two-byte escape of
/// those and of `"` and `\`.
fn escape_ascii(out: &mut Vec<u8>, b: u8) {
    match b {
        b'"' | b'\\' => out.extend_from_slice(&[b'\\', b]),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        _ => out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(b >> 4)],
            HEX[usize::from(b & 0xf)],
        ]),
    }
}

/// json-iterator's plain `WriteString`: only `"`, `\` and bytes below 0x20 are escaped (`\n`,
/// `\r`, `\t` short, the others as `\u00XX`); everything else — `<`, DEL, U+2028, any byte from
/// 0x80 up, even one that is not valid UTF-8 — is copied as it is.
pub fn write_key_string(out: &mut Vec<u8>, s: &[u8]) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    let mut plain_from = 0;
    for (at, &b) in s.iter().enumerate() {
        if b >= 0x20 && b != b'"' && b != b'\\' {
            continue;
        }
        out.extend_from_slice(s.get(plain_from..at).unwrap_or_default());
        escape_ascii(out, b);
        plain_from = at + 1;
    }
    out.extend_from_slice(s.get(plain_from..).unwrap_or_default());
    out.push(b'"');
}

/// json-iterator's `WriteStringWithHTMLEscaped`: as [`write_key_string`], and also `<`, `>`, `&`
/// as `\u003c`, `\u003e`, `\u0026` and U+2028, U+2029 as `\u2028`, `\u2029`. (Go also turns each
/// byte of invalid UTF-8 into `\ufffd`; a `&str` has none.)
pub(crate) fn write_html_string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut plain_from = 0;
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        let escaped_len = match b {
            0x20..=0x7f if !matches!(b, b'"' | b'\\' | b'<' | b'>' | b'&') => {
                at += 1;
                continue;
            }
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            0xe2 if matches!(bytes.get(at + 1..at + 3), Some([0x80, 0xa8 | 0xa9])) => 3,
            0x80.. => {
                at += 1;
                continue;
            }
            _ => 1,
        };
        out.extend_from_slice(bytes.get(plain_from..at).unwrap_or_default());
        match b {
            b'<' | b'>' | b'&' => {
                out.extend_from_slice(b"\\u00");
                out.extend_from_slice(&[HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]]);
            }
            0xe2 => {
                let last = if bytes.get(at + 2) == Some(&0xa8) {
                    b'8'
                } else {
                    b'9'
                };
                out.extend_from_slice(&[b'\\', b'u', b'2', b'0', b'2', last]);
            }
            _ => escape_ascii(out, b),
        }
        at += escaped_len;
        plain_from = at;
    }
    out.extend_from_slice(bytes.get(plain_from..).unwrap_or_default());
    out.push(b'"');
}

/// json-iterator's `WriteFloat64`: Go's shortest `'f'` text, or its `'e'` text (two-digit
/// minimum exponent: `1e-07`, `1e+21`) when `0 < |f| < 1e-6` or `|f| >= 1e21`; `-0` for negative
/// zero.
///
/// # Errors
///
/// NaN and the infinities are an [`ErrorKind::Unsupported`] error, `unsupported value: NaN`
/// (`+Inf`, `-Inf`); nothing is written.
pub(crate) fn write_float(out: &mut Vec<u8>, f: f64) -> crate::Result<()> {
    match float::json(f) {
        Some(text) => {
            out.extend_from_slice(text.as_bytes());
            Ok(())
        }
        None => Err(Error::new(
            ErrorKind::Unsupported,
            float::unsupported_message(f),
            Location::Unknown,
        )),
    }
}

/// The value as json-iterator marshals what Go's `Value.Unstructured()` returns: map keys in
/// byte order, keys and string values HTML-escaped, no whitespace.
///
/// # Errors
///
/// A NaN or infinite float anywhere is an [`ErrorKind::Unsupported`] error with json-iterator's
/// message (see [`write_value_stream`]); `out` then holds a partial text.
pub fn write_value(out: &mut Vec<u8>, v: &Value) -> crate::Result<()> {
    let mut stream_error = None;
    write_value_stream(out, v, &mut stream_error);
    stream_result(stream_error)
}

/// The error a stream of [`write_value_stream`] calls reports once it is written: the first
/// message it kept, as an [`ErrorKind::Unsupported`] error.
///
/// # Errors
///
/// When `stream_error` holds a message.
pub fn stream_result(stream_error: Option<String>) -> crate::Result<()> {
    match stream_error {
        None => Ok(()),
        Some(message) => Err(Error::new(
            ErrorKind::Unsupported,
            message,
            Location::Unknown,
        )),
    }
}

/// As [`write_value`], with json-iterator's stream error state made explicit, for writers that
/// write several values into one Go stream (the fields of a `k:{…}` path element) and must
/// report the error Go reports for the whole stream. `stream_error` is that state: a float that
/// cannot be written replaces it, a non-empty list prefixes it with `[]interface {}: ` when it
/// is set at the list's end, and a map sets it — only if it was unset — to the error of its first
/// failing entry (Go's first in random map order; smd's first in key order).
pub fn write_value_stream(out: &mut Vec<u8>, v: &Value, stream_error: &mut Option<String>) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Int(i) => write_int(out, *i),
        Value::Float(f) => {
            if let Err(e) = write_float(out, *f) {
                *stream_error = Some(e.message().to_owned());
            }
        }
        Value::String(s) => write_html_string(out, s),
        Value::List(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value_stream(out, item, stream_error);
            }
            out.push(b']');
            if !items.is_empty() {
                if let Some(message) = stream_error {
                    message.insert_str(0, LIST_TYPE_PREFIX);
                }
            }
        }
        Value::Map(m) => write_map(out, m, stream_error),
    }
}

/// A map, keys sorted. json-iterator writes a map's entries into a separate stream whose error
/// reaches the outer one only when the outer one has none.
fn write_map(out: &mut Vec<u8>, m: &Map, stream_error: &mut Option<String>) {
    out.push(b'{');
    let mut write_entry = |i: usize, k: &str, v: &Value| {
        if i > 0 {
            out.push(b',');
        }
        write_html_string(out, k);
        out.push(b':');
        let mut entry_error = None;
        write_value_stream(out, v, &mut entry_error);
        if stream_error.is_none() {
            *stream_error = entry_error;
        }
    };
    if m.keys().is_sorted() {
        for (i, (k, v)) in m.iter().enumerate() {
            write_entry(i, k, v);
        }
    } else {
        let mut entries: SmallVec<[(&str, &Value); 16]> = m.iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        for (i, (k, v)) in entries.into_iter().enumerate() {
            write_entry(i, k, v);
        }
    }
    out.push(b'}');
}

/// An int64 in decimal, as Go writes it (no `fmt` machinery: the writers of JSON and of
/// `fieldsV1` keys call it per number).
pub fn write_int(out: &mut Vec<u8>, i: i64) {
    let mut digits = [0u8; 20];
    let mut n = i.unsigned_abs();
    let mut start = digits.len();
    loop {
        start -= 1;
        if let Some(slot) = digits.get_mut(start) {
            *slot = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(digits.get(start..).unwrap_or_default());
}

impl Value {
    /// The value as JSON, exactly as Go's `value.ToJSON` writes it (json-iterator in its
    /// standard-library-compatible configuration): no whitespace, map keys sorted byte-wise,
    /// `<`, `>`, `&`, U+2028 and U+2029 escaped in keys and strings, floats in Go's shortest form
    /// (`1e-07`, `0.5`, `100000000000000000000`, `1e+21`).
    ///
    /// ```
    /// use smd_value::Value;
    /// let v = Value::from_json(r#"{"b": [1, 1e-7, "<a&b>"], "a": null}"#)?;
    /// assert_eq!(v.to_json()?, r#"{"a":null,"b":[1,1e-07,"\u003ca\u0026b\u003e"]}"#);
    /// # Ok::<(), smd_value::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A NaN or infinite float is an [`ErrorKind::Unsupported`] error with json-iterator's
    /// message: `unsupported value: NaN`, prefixed with `[]interface {}: ` for each non-empty list
    /// it is reported through.
    pub fn to_json(&self) -> crate::Result<String> {
        let mut out = Vec::new();
        write_value(&mut out, self)?;
        String::from_utf8(out).map_err(|_| {
            // Unreachable: the input is UTF-8 and every escape is ASCII.
            Error::new(
                ErrorKind::Unsupported,
                "JSON text is not UTF-8",
                Location::Unknown,
            )
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn key(s: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        write_key_string(&mut out, s);
        out
    }

    fn html(s: &str) -> String {
        let mut out = Vec::new();
        write_html_string(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn plain_escaper() {
        assert_eq!(
            key(b"a\"\\\n\r\t\x08\x01\x7f<>&\xe2\x80\xa8\xc3\xa9\xff"),
            b"\"a\\\"\\\\\\n\\r\\t\\u0008\\u0001\x7f<>&\xe2\x80\xa8\xc3\xa9\xff\"".to_vec()
        );
    }

    #[test]
    fn html_escaper() {
        assert_eq!(
            html("<b>&\u{2028}\u{2029}\u{1}\u{8}\n\u{7f}é\u{2027}"),
            "\"\\u003cb\\u003e\\u0026\\u2028\\u2029\\u0001\\u0008\\n\u{7f}é\u{2027}\""
        );
    }

    /// The plain and HTML escapers against json-iterator, on the strings of
    /// `tests/data/strings.txt` (see `gen_strings.go` there).
    #[test]
    fn escapers_match_go() {
        let golden = include_bytes!("../../tests/data/strings.txt");
        let mut checked = 0;
        for line in golden.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let fields: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
            let [hex, _, go_plain, go_html] = fields[..] else {
                panic!("malformed line {line:?}");
            };
            let hex = std::str::from_utf8(hex).unwrap();
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(key(&bytes), go_plain, "plain {hex}");
            if let Ok(s) = std::str::from_utf8(&bytes) {
                assert_eq!(html(s).as_bytes(), go_html, "html {hex}");
            }
            checked += 1;
        }
        assert!(checked > 2500);
    }

    #[test]
    fn ints() {
        for i in [0, 7, -7, 10, i64::MAX, i64::MIN] {
            let mut out = Vec::new();
            write_int(&mut out, i);
            assert_eq!(out, i.to_string().into_bytes());
        }
    }
}
