//! Writing a set as `fieldsV1` bytes.

use super::element::write_element_key;
use crate::element::PathElement;
use crate::error::Result;
use crate::set::Set;
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
        let mut keys = Keys::default();
        out.push(b'{');
        write_node(self, false, out, &mut keys)?;
        out.push(b'}');
        Ok(())
    }
}

/// Writes the keys of one node: `"."` if asked and the node is not empty, then members and
/// children merged in element order, a member that is also a child written once, as the child.
/// Each key is written with a comma after it, and the node's last comma is taken back.
fn write_node(set: &Set, member: bool, out: &mut Vec<u8>, keys: &mut Keys) -> Result<()> {
    let members = set.members();
    let mut children = set.children().peekable();
    if member && !(members.is_empty() && children.len() == 0) {
        out.extend_from_slice(br#"".":{},"#);
    }
    for member in members {
        let mut written = false;
        while let Some(&(element, child)) = children.peek() {
            let order = member.compare(element);
            if order == Ordering::Less {
                break;
            }
            written = order == Ordering::Equal;
            write_child(element, child, written, out, keys)?;
            children.next();
            if written {
                break;
            }
        }
        if !written {
            keys.write(member, out)?;
            out.extend_from_slice(b"{},");
        }
    }
    for (element, child) in children {
        write_child(element, child, false, out, keys)?;
    }
    // The node's keys start right after its `{`: a comma there is the last key's.
    if out.last() == Some(&b',') {
        out.pop();
    }
    Ok(())
}

fn write_child(
    element: &PathElement,
    child: &Set,
    member: bool,
    out: &mut Vec<u8>,
    keys: &mut Keys,
) -> Result<()> {
    keys.write(element, out)?;
    out.push(b'{');
    write_node(child, member, out, keys)?;
    out.extend_from_slice(b"},");
    Ok(())
}

/// Where the key texts of the `k:` and `v:` elements written so far lie in the output, by the
/// address of what they share: a set read from `fieldsV1` shares one key or value among the
/// elements spelled alike (see `fast.rs`), and so do sets made from it, so the text of a list
/// item or set member met under many nodes is escaped once and copied after. The element is
/// borrowed for the whole write, so an address stands for one key or value throughout, and the
/// output only grows (but for a node's last comma, never part of a key). A small
/// open-addressing table over the first [`Keys::ENTRIES`] addresses, looked for in at most
/// [`Keys::PROBES`] slots.
struct Keys {
    /// For [`write_element_key`].
    scratch: Vec<u8>,
    /// Entry index + 1 for each slot, 0 for an empty one.
    slots: [u16; Keys::SLOTS],
    /// Each entry's address and where its text lies in the output.
    entries: Vec<(usize, usize, usize)>,
}

impl Default for Keys {
    fn default() -> Keys {
        Keys {
            scratch: Vec::new(),
            slots: [0; Keys::SLOTS],
            entries: Vec::new(),
        }
    }
}

impl Keys {
    const SLOTS: usize = 1024;
    const ENTRIES: usize = 512;
    const PROBES: usize = 8;

    /// [`write_element_key`], copied from earlier in `out` when the element's key or value was
    /// written before.
    fn write(&mut self, element: &PathElement, out: &mut Vec<u8>) -> Result<()> {
        let address = match element {
            PathElement::Key(key) => key.fields().as_ptr() as usize,
            PathElement::Value(value) => std::sync::Arc::as_ptr(value) as usize,
            PathElement::Field(_) | PathElement::Index(_) => {
                return write_element_key(element, out, &mut self.scratch);
            }
        };
        // Blocks are at least 8-byte aligned: the low bits say nothing.
        let start = ((address >> 3).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 54) as usize;
        let mut free = None;
        for probe in 0..Keys::PROBES {
            let slot = (start + probe) % Keys::SLOTS;
            let index = match self.slots.get(slot) {
                Some(0) | None => {
                    free = Some(slot);
                    break;
                }
                Some(&index) => usize::from(index) - 1,
            };
            if let Some(&(seen, from, to)) = self.entries.get(index) {
                if seen == address && to <= out.len() {
                    out.extend_from_within(from..to);
                    return Ok(());
                }
            }
        }
        let from = out.len();
        write_element_key(element, out, &mut self.scratch)?;
        if let Some(slot) = free {
            if self.entries.len() < Keys::ENTRIES {
                if self.entries.capacity() == 0 {
                    self.entries.reserve(32);
                }
                self.entries.push((address, from, out.len()));
                if let Some(s) = self.slots.get_mut(slot) {
                    *s = self.entries.len() as u16;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_keys_and_values_are_written_as_any_other() {
        // More distinct items and members than the table holds, each under many nodes, in
        // the order Go writes them (numbers before strings): reading shares them, writing must
        // give the text back.
        let mut text = String::from("{");
        for i in 0..4000 {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&format!(
                r#""f:n{i:05}":{{"k:{{\"name\":\"\\u003cv{}\\u003e\"}}":{{}},"v:{}":{{}},"v:\"s{}\"":{{"f:x":{{}}}}}}"#,
                i % 700,
                i % 3,
                i % 900
            ));
        }
        text.push('}');
        let set = Set::from_fields_v1(text.as_bytes()).unwrap_or_default();
        assert_eq!(set.size(), 12_000);
        let written = set.to_fields_v1().unwrap_or_default();
        assert!(written == text.as_bytes(), "written differently");
    }
}
