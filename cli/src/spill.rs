//! Values kept out of memory: written once to an anonymous temp file (created unlinked, mode
//! 0600, gone when the process ends) in a compact binary form, and read back by the range
//! [`Spill::put`] gave. A live dump of thousands of objects then costs an index in memory, not
//! its parsed values.

use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::Mutex;

use smd::fieldpath::{Map, Value};

/// Where one value lies in the spill file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Range {
    start: u64,
    len: usize,
}

/// A spill file being written, then read.
#[derive(Debug)]
pub(crate) struct Spill {
    writer: std::io::BufWriter<std::fs::File>,
    written: u64,
    buf: Vec<u8>,
}

impl Spill {
    /// A new, empty spill file in the temp dir (`$TMPDIR`).
    pub(crate) fn new() -> std::io::Result<Spill> {
        Ok(Spill {
            writer: std::io::BufWriter::with_capacity(1 << 20, tempfile::tempfile()?),
            written: 0,
            buf: Vec::new(),
        })
    }

    /// Writes `value`; where it lies.
    pub(crate) fn put(&mut self, value: &Value) -> std::io::Result<Range> {
        self.buf.clear();
        encode(value, &mut self.buf);
        self.writer.write_all(&self.buf)?;
        let range = Range {
            start: self.written,
            len: self.buf.len(),
        };
        self.written += self.buf.len() as u64;
        Ok(range)
    }

    /// The file, written, for reading.
    pub(crate) fn finish(self) -> std::io::Result<Spilled> {
        let file = self.writer.into_inner().map_err(|e| e.into_error())?;
        Ok(Spilled {
            file: Mutex::new(file),
        })
    }
}

/// A spill file written, shared by the threads that read it.
#[derive(Debug)]
pub(crate) struct Spilled {
    file: Mutex<std::fs::File>,
}

impl Spilled {
    /// The value written at `range`.
    pub(crate) fn get(&self, range: Range) -> std::io::Result<Value> {
        let mut bytes = vec![0; range.len];
        {
            let mut file = self
                .file
                .lock()
                .map_err(|_| std::io::Error::other("spill file lock poisoned"))?;
            file.seek(SeekFrom::Start(range.start))?;
            file.read_exact(&mut bytes)?;
        }
        let mut at = bytes.as_slice();
        decode(&mut at).ok_or_else(|| std::io::Error::other("spill file: a value does not read"))
    }
}

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const INT: u8 = 3;
const FLOAT: u8 = 4;
const STRING: u8 = 5;
const LIST: u8 = 6;
const MAP: u8 = 7;

// Values come from the readers, which bound their nesting (`MAX_DEPTH`), so recursion here is
// bounded too.
fn encode(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Null => out.push(NULL),
        Value::Bool(false) => out.push(FALSE),
        Value::Bool(true) => out.push(TRUE),
        Value::Int(i) => {
            out.push(INT);
            out.extend_from_slice(&i.to_le_bytes());
        }
        Value::Float(f) => {
            out.push(FLOAT);
            out.extend_from_slice(&f.to_bits().to_le_bytes());
        }
        Value::String(s) => {
            out.push(STRING);
            text(s, out);
        }
        Value::List(items) => {
            out.push(LIST);
            out.extend_from_slice(&(items.len() as u64).to_le_bytes());
            for item in items {
                encode(item, out);
            }
        }
        Value::Map(map) => {
            out.push(MAP);
            out.extend_from_slice(&(map.len() as u64).to_le_bytes());
            for (key, item) in map.iter() {
                text(key, out);
                encode(item, out);
            }
        }
    }
}

fn text(s: &str, out: &mut Vec<u8>) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn take<'a>(at: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (head, rest) = at.split_at_checked(n)?;
    *at = rest;
    Some(head)
}

fn word(at: &mut &[u8]) -> Option<[u8; 8]> {
    take(at, 8)?.try_into().ok()
}

fn count(at: &mut &[u8]) -> Option<usize> {
    let n = usize::try_from(u64::from_le_bytes(word(at)?)).ok()?;
    // Every element takes at least a byte: a count past the bytes left is not ours.
    (n <= at.len()).then_some(n)
}

fn decode_text(at: &mut &[u8]) -> Option<String> {
    let n = count(at)?;
    String::from_utf8(take(at, n)?.to_vec()).ok()
}

fn decode(at: &mut &[u8]) -> Option<Value> {
    let tag = *take(at, 1)?.first()?;
    Some(match tag {
        NULL => Value::Null,
        FALSE => Value::Bool(false),
        TRUE => Value::Bool(true),
        INT => Value::Int(i64::from_le_bytes(word(at)?)),
        FLOAT => Value::Float(f64::from_bits(u64::from_le_bytes(word(at)?))),
        STRING => Value::String(decode_text(at)?),
        LIST => {
            let n = count(at)?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(decode(at)?);
            }
            Value::List(items)
        }
        MAP => {
            let n = count(at)?;
            let mut map = Map::with_capacity(n);
            for _ in 0..n {
                let key = decode_text(at)?;
                map.insert(key, decode(at)?);
            }
            Value::Map(map)
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_as_written() {
        let values = [
            "{}",
            "{a: 1, b: [1.5, -2, null, true, false, \"x\"], c: {d: {}}, e: []}",
            "[{name: a, ports: [{containerPort: 80}]}]",
            "\"ünïcode\"",
        ];
        let mut spill = Spill::new().unwrap();
        let mut ranges = Vec::new();
        for text in values {
            let value = smd::fieldpath::yaml::from_str(text).unwrap();
            ranges.push((spill.put(&value).unwrap(), value));
        }
        let spilled = spill.finish().unwrap();
        for (range, value) in ranges.iter().rev() {
            let back = spilled.get(*range).unwrap();
            assert_eq!(&back, value);
            assert_eq!(format!("{back:?}"), format!("{value:?}"));
        }
    }

    #[test]
    fn a_cut_value_does_not_read() {
        let value = smd::fieldpath::yaml::from_str("{a: [1, 2, {b: c}]}").unwrap();
        let mut bytes = Vec::new();
        encode(&value, &mut bytes);
        for n in 0..bytes.len() {
            assert_eq!(decode(&mut &bytes[..n]), None, "cut at {n}");
        }
    }
}
