//! Writing a set as `fieldsV1` bytes.

use super::element::write_element;
use crate::error::Result;
use crate::set::Set;
use smd_value::json::write_key_string;
use std::cmp::Ordering;

impl Set {
    /// The set as the `fieldsV1` bytes the API server would store, byte for byte as Go writes
    /// them. Fails only for a value with no JSON form (a NaN or infinite float).
    ///
    /// The bytes are UTF-8 unless a field name read from another `fieldsV1` document was not.
    pub fn to_fields_v1(&self) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(64);
        self.write_fields_v1(&mut out)?;
        Ok(out)
    }

    /// Appends the `fieldsV1` bytes of this set to `out`; see [`Set::to_fields_v1`].
    pub fn write_fields_v1(&self, out: &mut Vec<u8>) -> Result<()> {
        let mut scratch = Vec::new();
        out.push(b'{');
        write_node(self, false, out, &mut scratch)?;
        out.push(b'}');
        Ok(())
    }
}

/// Writes the keys of one node: `"."` if asked and the node is not empty, then members and
/// children merged in element order. `scratch` holds one element's text before it is escaped
/// again as an object key.
fn write_node(set: &Set, member: bool, out: &mut Vec<u8>, scratch: &mut Vec<u8>) -> Result<()> {
    let members = set.members();
    let mut children = set.children().peekable();
    let mut first = true;
    let mut comma = |out: &mut Vec<u8>| {
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
    };
    if member && !(members.is_empty() && children.len() == 0) {
        comma(out);
        out.extend_from_slice(br#"".":{}"#);
    }
    let mut members = members.iter().peekable();
    loop {
        let order = match (members.peek(), children.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(m), Some((c, _))) => m.compare(c),
        };
        comma(out);
        match order {
            Ordering::Less => {
                if let Some(element) = members.next() {
                    write_key(element, out, scratch)?;
                    out.extend_from_slice(b"{}");
                }
            }
            _ => {
                if let Some((element, child)) = children.next() {
                    let is_member = order == Ordering::Equal;
                    if is_member {
                        members.next();
                    }
                    write_key(element, out, scratch)?;
                    out.push(b'{');
                    write_node(child, is_member, out, scratch)?;
                    out.push(b'}');
                }
            }
        }
    }
    Ok(())
}

fn write_key(element: &crate::PathElement, out: &mut Vec<u8>, scratch: &mut Vec<u8>) -> Result<()> {
    scratch.clear();
    write_element(element, scratch)?;
    write_key_string(out, scratch);
    out.push(b':');
    Ok(())
}
