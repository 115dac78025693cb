//! The text of one path element inside a `fieldsV1` document.

use crate::element::PathElement;
use crate::error::{Error, ErrorKind, Result};
use smd_value::Location;
use smd_value::json::{write_key_string, write_value, write_value_stream};

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
            if let Some(message) = stream_error {
                return Err(Error::new(
                    ErrorKind::Unsupported,
                    message,
                    Location::Unknown,
                ));
            }
        }
        PathElement::Value(value) => {
            out.extend_from_slice(b"v:");
            write_value(out, value)?;
        }
        PathElement::Index(index) => {
            out.extend_from_slice(b"i:");
            // Writing to a Vec cannot fail.
            let _ = std::io::Write::write_fmt(out, format_args!("{index}"));
        }
    }
    Ok(())
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
