//! A custom resource's JSON as its rules see it (apiserver v0.37.2
//! `common.UnstructuredToVal`), typed by the schema: integers and numbers as `int` and
//! `double` (a whole number under `type: number` too), strings with the formats `date-time`,
//! `date`, `duration` and `byte` as timestamps, durations and bytes, int-or-string as either;
//! objects whose schema declares properties as maps keyed by the names a rule writes
//! (`smd_cel::check::escape_property`), without their null members; `x-kubernetes-list-type: set` and
//! `map` lists equal to another list regardless of order.

use std::sync::Arc;

use smd_cel::Value as Cel;
use smd_cel::time::{Duration, Timestamp};
use smd_cel::value::{HostList, List, Map};
use smd_fieldpath::Value;

use super::schema::RuleNode;
use smd_cel::check::escape_property as escape;

/// The CEL value of `value` under `node`.
pub(crate) fn to_cel(value: &Value, node: &RuleNode) -> Cel {
    match value {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Int(i) if node.kind == "number" => Cel::Double(*i as f64),
        Value::Int(i) => Cel::Int(*i),
        Value::Float(f) => Cel::Double(*f),
        Value::String(s) => string(s, node),
        Value::List(items) => {
            let Some(item) = node.items.as_deref() else {
                return Cel::list(items.iter().map(dynamic).collect());
            };
            let elements: Vec<Cel> = items.iter().map(|i| to_cel(i, item)).collect();
            match node.list_type.as_str() {
                "set" => host(Unordered::Set, elements, items),
                "map" => host(Unordered::MapList(node.map_keys.clone()), elements, items),
                _ => Cel::list(elements),
            }
        }
        Value::Map(m) => {
            if node.declares_properties() {
                Cel::Map(Map::from_entries(m.iter().filter_map(|(k, v)| {
                    let property = node.property(k)?;
                    if v.is_null() {
                        return None;
                    }
                    Some((Cel::from(escape(k)?), to_cel(v, property)))
                })))
            } else if let Some(values) = node.additional() {
                Cel::Map(Map::from_entries(
                    m.iter().map(|(k, v)| (Cel::from(k), to_cel(v, values))),
                ))
            } else {
                // No properties and no value schema: a map whose members no rule can read.
                Cel::Map(Map::from_entries(std::iter::empty()))
            }
        }
    }
}

fn string(s: &str, node: &RuleNode) -> Cel {
    if node.int_or_string {
        return Cel::from(s);
    }
    let parsed = match node.format.as_str() {
        // strfmt reads a few more layouts than RFC 3339 and more duration units than Go's
        // `time.ParseDuration`; a value only those read stays a string here.
        "date-time" => Timestamp::parse(s).ok().map(Cel::Timestamp),
        "date" if s.len() == 10 => Timestamp::parse(&format!("{s}T00:00:00Z"))
            .ok()
            .map(Cel::Timestamp),
        "duration" => Duration::parse(s).map(Cel::Duration),
        "byte" => base64(s).map(|b| Cel::Bytes(Arc::from(b))),
        _ => None,
    };
    parsed.unwrap_or_else(|| Cel::from(s))
}

/// A value without a schema (below `x-kubernetes-preserve-unknown-fields`, or a list's items
/// without one) as plain JSON.
fn dynamic(value: &Value) -> Cel {
    match value {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Int(i) => Cel::Int(*i),
        Value::Float(f) => Cel::Double(*f),
        Value::String(s) => Cel::from(s.as_str()),
        Value::List(items) => Cel::list(items.iter().map(dynamic).collect()),
        Value::Map(m) => Cel::Map(Map::from_entries(
            m.iter().map(|(k, v)| (Cel::from(k), dynamic(v))),
        )),
    }
}

/// How a list's equality ignores order.
#[derive(Debug)]
enum Unordered {
    /// Equal to a list holding the same scalars, compared as Go compares their raw values
    /// (`1` is not `1.0`; a list or map element is an error, taken here as unequal).
    Set,
    /// Equal to another map list of the object holding the same items, paired by their keys;
    /// Go reads the keys from the raw items under their escaped names (a key named `x-y` is
    /// looked up as `x__dash__y`, so never found), and a list of another origin (a literal)
    /// pairs with nothing.
    MapList(Vec<String>),
}

#[derive(Debug)]
struct UnorderedList {
    how: Unordered,
    elements: Vec<Cel>,
    raw: Vec<Value>,
}

fn host(how: Unordered, elements: Vec<Cel>, raw: &[Value]) -> Cel {
    let raw = match how {
        Unordered::MapList(_) => raw.to_vec(),
        Unordered::Set => Vec::new(),
    };
    Cel::List(List::Host(Arc::new(UnorderedList { how, elements, raw })))
}

impl HostList for UnorderedList {
    fn len(&self) -> usize {
        self.elements.len()
    }

    fn get(&self, index: usize) -> Option<Cel> {
        self.elements.get(index).cloned()
    }

    fn equals(&self, other: &List) -> Option<bool> {
        if other.len() != self.elements.len() {
            return Some(false);
        }
        Some(match &self.how {
            Unordered::Set => {
                let theirs: Vec<Cel> = other.iter().collect();
                let same = |a: &Cel, b: &Cel| raw_key(a).is_some_and(|k| Some(k) == raw_key(b));
                theirs
                    .iter()
                    .chain(&self.elements)
                    .all(|e| raw_key(e).is_some())
                    && theirs
                        .iter()
                        .all(|t| self.elements.iter().any(|e| same(e, t)))
                    && self
                        .elements
                        .iter()
                        .all(|e| theirs.iter().any(|t| same(e, t)))
            }
            Unordered::MapList(keys) => {
                let List::Host(h) = other else {
                    return Some(self.elements.is_empty());
                };
                let Some(theirs) = h.as_any().downcast_ref::<UnorderedList>() else {
                    return Some(self.elements.is_empty());
                };
                let mine: Vec<Vec<Option<&Value>>> =
                    self.raw.iter().map(|r| raw_map_key(r, keys)).collect();
                let mut seen = vec![false; mine.len()];
                theirs.raw.iter().zip(&theirs.elements).all(|(r, t)| {
                    let key = raw_map_key(r, keys);
                    // Go's map of the items keeps the last item of each key.
                    match mine.iter().rposition(|k| same_key(k, &key)) {
                        Some(i) => {
                            seen[i] = true;
                            smd_cel::value::equals(&self.elements[i], t)
                        }
                        None => false,
                    }
                }) && distinct_keys(&mine) == seen.iter().filter(|s| **s).count()
            }
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A scalar's raw Go value as a set compares it: its type and its value.
fn raw_key(v: &Cel) -> Option<String> {
    Some(match v {
        Cel::List(_) | Cel::Map(_) => return None,
        other => format!("{:?}:{other:?}", other.type_of()),
    })
}

fn raw_map_key<'a>(item: &'a Value, keys: &[String]) -> Vec<Option<&'a Value>> {
    keys.iter()
        .map(|k| {
            let name = escape(k).unwrap_or_else(|| k.clone());
            item.as_map().and_then(|m| m.get(&name))
        })
        .collect()
}

fn same_key(a: &[Option<&Value>], b: &[Option<&Value>]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => x == y,
            _ => false,
        })
}

fn distinct_keys(keys: &[Vec<Option<&Value>>]) -> usize {
    (0..keys.len())
        .filter(|&i| !keys[..i].iter().any(|k| same_key(k, &keys[i])))
        .count()
}

/// Standard base64 with padding, as `strfmt.Base64.UnmarshalText` reads it.
fn base64(s: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = s.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        let mut pad = 0;
        for (i, &c) in chunk.iter().enumerate() {
            let v = if c == b'=' && i >= 2 {
                pad += 1;
                0
            } else if pad > 0 {
                return None;
            } else {
                ALPHABET.iter().position(|&a| a == c)? as u32
            };
            n = (n << 6) | v;
        }
        let b = n.to_be_bytes();
        out.extend_from_slice(&b[1..4 - pad]);
    }
    Some(out)
}
