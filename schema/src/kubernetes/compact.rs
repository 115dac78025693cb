//! Decoding the compact form of the embedded schema that `build.rs` derives from the
//! canonical JSON (its layout is described there). The bytes are built with the crate, but
//! the decoder still checks every length and index and bounds its nesting: no panic, ever.

use smd_value::{Map, Value};

use crate::gvk::{GroupVersionKind, GvkIndex};
use crate::{Atom, ElementRelationship, ListType, MapType, Scalar, Schema, StructField};
use crate::{TypeDef, TypeRef};

/// Inlined atoms and default values nest far less than this in any real schema.
const MAX_DEPTH: usize = 64;

/// Why the bytes do not decode (never expected: they are built with the crate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Corrupt;

type R<T> = Result<T, Corrupt>;

pub(crate) fn decode(bytes: &'static [u8]) -> R<(Schema, GvkIndex)> {
    let mut c = Cursor {
        bytes,
        at: 0,
        strings: Vec::new(),
    };
    if c.take(4)? != b"SMDK" || c.u32()? != 1 {
        return Err(Corrupt);
    }
    let n = c.len()?;
    c.strings.reserve(n);
    for _ in 0..n {
        let len = c.len()?;
        let s = std::str::from_utf8(c.take(len)?).map_err(|_| Corrupt)?;
        c.strings.push(s);
    }
    let n = c.len()?;
    let mut types = Vec::with_capacity(n);
    for _ in 0..n {
        let name = c.string()?;
        let atom = c.atom(0)?;
        types.push(TypeDef::new(name, atom));
    }
    let n = c.len()?;
    let mut gvks = Vec::with_capacity(n);
    for _ in 0..n {
        let (g, v, k, t) = (c.string()?, c.string()?, c.string()?, c.string()?);
        gvks.push((GroupVersionKind::new(g, v, k), t.to_owned()));
    }
    if c.at != bytes.len() {
        return Err(Corrupt);
    }
    Ok((Schema::new(types), GvkIndex::from_entries(gvks)))
}

struct Cursor {
    bytes: &'static [u8],
    at: usize,
    strings: Vec<&'static str>,
}

impl Cursor {
    fn take(&mut self, n: usize) -> R<&'static [u8]> {
        let end = self.at.checked_add(n).ok_or(Corrupt)?;
        let s = self.bytes.get(self.at..end).ok_or(Corrupt)?;
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> R<u8> {
        Ok(*self.take(1)?.first().ok_or(Corrupt)?)
    }

    fn u32(&mut self) -> R<u32> {
        let b: [u8; 4] = self.take(4)?.try_into().map_err(|_| Corrupt)?;
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> R<u64> {
        let b: [u8; 8] = self.take(8)?.try_into().map_err(|_| Corrupt)?;
        Ok(u64::from_le_bytes(b))
    }

    /// A count, bounded by the bytes left (every counted item takes at least one byte).
    fn len(&mut self) -> R<usize> {
        let n = self.u32()? as usize;
        if n > self.bytes.len() - self.at {
            return Err(Corrupt);
        }
        Ok(n)
    }

    fn string(&mut self) -> R<&'static str> {
        let i = self.u32()? as usize;
        self.strings.get(i).copied().ok_or(Corrupt)
    }

    fn atom(&mut self, depth: usize) -> R<Atom> {
        if depth > MAX_DEPTH {
            return Err(Corrupt);
        }
        let flags = self.u8()?;
        let mut atom = Atom::default();
        if flags & 1 != 0 {
            atom = atom.with_scalar(Scalar::from_name(self.string()?));
        }
        if flags & 2 != 0 {
            let element = self.type_ref(depth)?;
            let relationship = ElementRelationship::from_name(self.string()?);
            let n = self.len()?;
            let keys = (0..n)
                .map(|_| self.string().map(str::to_owned))
                .collect::<R<Vec<_>>>()?;
            atom = atom.with_list(
                ListType::new(element)
                    .with_element_relationship(relationship)
                    .with_keys(keys),
            );
        }
        if flags & 4 != 0 {
            let n = self.len()?;
            let mut fields = Vec::with_capacity(n);
            for _ in 0..n {
                let name = self.string()?;
                let ty = self.type_ref(depth)?;
                let mut field = StructField::new(name, ty);
                if self.bytes.get(self.at) == Some(&0xFF) {
                    self.at += 1;
                } else {
                    field = field.with_default(self.value(depth)?);
                }
                fields.push(field);
            }
            let element = self.type_ref(depth)?;
            let relationship = ElementRelationship::from_name(self.string()?);
            atom = atom.with_map(
                MapType::new()
                    .with_fields(fields)
                    .with_element_type(element)
                    .with_element_relationship(relationship),
            );
        }
        Ok(atom)
    }

    fn type_ref(&mut self, depth: usize) -> R<TypeRef> {
        let flags = self.u8()?;
        let named = if flags & 1 != 0 {
            Some(self.string()?)
        } else {
            None
        };
        let atom = self.atom(depth + 1)?;
        let mut tr = match named {
            Some(name) => TypeRef::named(name).with_inlined(atom),
            None => TypeRef::inlined(atom),
        };
        if flags & 2 != 0 {
            tr = tr.with_element_relationship(ElementRelationship::from_name(self.string()?));
        }
        Ok(tr.with_nullable(flags & 4 != 0))
    }

    fn value(&mut self, depth: usize) -> R<Value> {
        if depth > MAX_DEPTH {
            return Err(Corrupt);
        }
        Ok(match self.u8()? {
            0 => Value::Null,
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => Value::Int(self.u64()? as i64),
            4 => Value::Float(f64::from_bits(self.u64()?)),
            5 => Value::String(self.string()?.to_owned()),
            6 => {
                let n = self.len()?;
                Value::List((0..n).map(|_| self.value(depth + 1)).collect::<R<_>>()?)
            }
            7 => {
                let n = self.len()?;
                let mut m = Map::with_capacity(n);
                for _ in 0..n {
                    let k = self.string()?;
                    m.insert(k, self.value(depth + 1)?);
                }
                Value::Map(m)
            }
            _ => return Err(Corrupt),
        })
    }
}
