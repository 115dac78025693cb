//! Go's `encoding/json` output for values: what `json.Marshal` writes for a
//! `map[string]interface{}` (keys sorted byte-wise, `<`, `>`, `&`, U+2028 and U+2029 escaped,
//! floats in Go's two forms). The API server writes manager identifiers and the
//! `last-applied-configuration` annotation this way; `fieldsV1` read from an unstructured
//! object is re-serialised this way before Go parses it; the API server's CRD validation
//! messages quote values this way.

use crate::Value;

/// A value with no JSON form (Go's `json: unsupported value: NaN`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("json: unsupported value: {0}")]
pub struct UnsupportedValue(String);

/// Appends `value` as Go's `json.Marshal` writes it.
pub fn write_value(out: &mut String, value: &Value) -> Result<(), UnsupportedValue> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) => write_float(out, *f)?,
        Value::String(s) => write_string(out, s),
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item)?;
            }
            out.push(']');
        }
        Value::Map(map) => {
            let mut entries: Vec<(&str, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_value(out, v)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// Appends `s` as a Go JSON string with HTML escaping (`encoding/json.appendString`).
pub fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&') => {
                let b = c as u32 as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[b >> 4]));
                out.push(char::from(HEX[b & 0xf]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go's `floatEncoder`: the shortest text that reads back, `%f`-like unless the magnitude is
/// below 1e-6 or at least 1e21, then `%e`-like with a sign and no padding below ten
/// (`1e-7`, `1e+21`).
pub fn write_float(out: &mut String, f: f64) -> Result<(), UnsupportedValue> {
    if !f.is_finite() {
        return Err(UnsupportedValue(Value::Float(f).to_string()));
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let text = format!("{f:e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((text.as_str(), "0"));
        out.push_str(mantissa);
        out.push('e');
        match exponent.strip_prefix('-') {
            Some(digits) => {
                out.push('-');
                out.push_str(digits);
            }
            None => {
                out.push('+');
                if exponent.len() < 2 {
                    out.push('0');
                }
                out.push_str(exponent);
            }
        }
    } else {
        out.push_str(&f.to_string());
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn go(v: &Value) -> String {
        let mut out = String::new();
        write_value(&mut out, v).unwrap();
        out
    }

    #[test]
    fn strings_escape_html_and_separators() {
        // encoding/json appendString (Go 1.26 src/encoding/json/encode.go:999-1060).
        let mut out = String::new();
        write_string(&mut out, "a<b>&\"\\\n\t\u{1}\u{8}\u{c}\u{2028}é");
        assert_eq!(out, r#""a\u003cb\u003e\u0026\"\\\n\t\u0001\b\f\u2028é""#);
    }

    #[test]
    fn maps_sorted_floats_as_go() {
        let v =
            Value::from_json(r#"{"b": 1, "a": [1.5, 1e-7, 1e21, 123456789.0, -0.0], "B": null}"#)
                .unwrap();
        assert_eq!(
            go(&v),
            r#"{"B":null,"a":[1.5,1e-7,1e+21,123456789,-0],"b":1}"#
        );
        assert_eq!(go(&Value::Float(1.5e-10)), "1.5e-10");
        assert_eq!(go(&Value::Float(2.5e300)), "2.5e+300");
        assert_eq!(go(&Value::Float(1e20)), "100000000000000000000");
        assert!(write_value(&mut String::new(), &Value::Float(f64::NAN)).is_err());
    }
}
