//! Lists and maps: owned ones (literals, results) and host ones (an object's data adapted
//! lazily, so that a rule run once per item of a big list does not copy it).

use super::Value;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// A list-like host value: indexed elements, adapted on access.
pub trait HostList: fmt::Debug + Send + Sync {
    /// The number of elements.
    fn len(&self) -> usize;
    /// Whether the list is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The element at `index` (< `len()`).
    fn get(&self, index: usize) -> Option<Value>;
    /// Equality with another list where the host's differs from CEL's element by element
    /// (Kubernetes' `x-kubernetes-list-type: set` and `map` lists ignore order); `None`: CEL's.
    fn equals(&self, _other: &List) -> Option<bool> {
        None
    }
    /// The host value as `any`, for a host to recognise its own lists.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A map-like host value: an object (declared properties behave as a message's fields: an
/// absent one is `no such key`, `has()` tests presence) or a map.
pub trait HostMap: fmt::Debug + Send + Sync {
    /// The number of present entries.
    fn len(&self) -> usize;
    /// Whether no entry is present.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The value at `key`, when present.
    fn get(&self, key: &Value) -> Option<Value>;
    /// The present keys, in the host's order.
    fn keys(&self) -> Box<dyn Iterator<Item = Value> + '_>;
}

/// A list value.
#[derive(Clone, Debug)]
pub enum List {
    /// Elements held by the interpreter.
    Owned(Arc<Vec<Value>>),
    /// Elements adapted from host data.
    Host(Arc<dyn HostList>),
}

impl From<Vec<Value>> for List {
    fn from(items: Vec<Value>) -> Self {
        List::Owned(Arc::new(items))
    }
}

impl List {
    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            List::Owned(v) => v.len(),
            List::Host(h) => h.len(),
        }
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at `index`.
    pub fn get(&self, index: usize) -> Option<Value> {
        match self {
            List::Owned(v) => v.get(index).cloned(),
            List::Host(h) => h.get(index),
        }
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        (0..self.len()).filter_map(move |i| self.get(i))
    }

    /// The elements as a vector.
    pub fn to_vec(&self) -> Vec<Value> {
        match self {
            List::Owned(v) => v.as_ref().clone(),
            List::Host(_) => self.iter().collect(),
        }
    }
}

/// A key a map indexes by hash: cel-go's key types. Numeric keys of the same value are the same
/// key (`{1: x}[1u]`, `[1.0]` find it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// A `bool` key.
    Bool(bool),
    /// A numeric key whose value fits an `i64`.
    Int(i64),
    /// A numeric key above `i64::MAX`.
    Uint(u64),
    /// A `string` key.
    String(Arc<str>),
}

impl Key {
    /// The hashable key a value stands for, if any.
    pub fn of(v: &Value) -> Option<Key> {
        Some(match v {
            Value::Bool(b) => Key::Bool(*b),
            Value::Int(i) => Key::Int(*i),
            Value::Uint(u) => match i64::try_from(*u) {
                Ok(i) => Key::Int(i),
                Err(_) => Key::Uint(*u),
            },
            Value::Double(d) => {
                if d.fract() != 0.0 || !d.is_finite() {
                    return None;
                }
                if *d >= -9.223_372_036_854_776e18 && *d < 9.223_372_036_854_776e18 {
                    Key::Int(*d as i64)
                } else if *d >= 0.0 && *d < 1.844_674_407_370_955_2e19 {
                    Key::Uint(*d as u64)
                } else {
                    return None;
                }
            }
            Value::String(s) => Key::String(s.clone()),
            _ => return None,
        })
    }
}

/// A map value.
#[derive(Clone, Debug)]
pub enum Map {
    /// Entries held by the interpreter, in insertion order.
    Owned(Arc<OwnedMap>),
    /// Entries adapted from host data.
    Host(Arc<dyn HostMap>),
}

/// A map the interpreter built: entries in insertion order, indexed by key.
#[derive(Debug, Default, Clone)]
pub struct OwnedMap {
    entries: Vec<(Value, Value)>,
    index: HashMap<Key, usize>,
    /// Whether some key is of no hashable type (a literal's `{1.5: x}`), found by scanning.
    unhashed: bool,
}

impl OwnedMap {
    /// Adds an entry; false when the key is already there (the entry is replaced).
    pub fn insert(&mut self, key: Value, value: Value) -> bool {
        match Key::of(&key) {
            Some(k) if !matches!(key, Value::Double(_)) => {
                if let Some(&i) = self.index.get(&k) {
                    self.entries[i].1 = value;
                    return false;
                }
                self.index.insert(k, self.entries.len());
            }
            _ => {
                if let Some(i) = self
                    .entries
                    .iter()
                    .position(|(k, _)| super::equals(k, &key))
                {
                    self.entries[i].1 = value;
                    return false;
                }
                self.unhashed = true;
            }
        }
        self.entries.push((key, value));
        true
    }

    fn get(&self, key: &Value) -> Option<&Value> {
        if let Some(k) = Key::of(key)
            && let Some(&i) = self.index.get(&k)
        {
            return Some(&self.entries[i].1);
        }
        if self.unhashed {
            return self
                .entries
                .iter()
                .find(|(k, _)| super::equals(k, key))
                .map(|(_, v)| v);
        }
        None
    }
}

impl Map {
    /// A map of the entries, later duplicates replacing earlier ones.
    pub fn from_entries(entries: impl IntoIterator<Item = (Value, Value)>) -> Map {
        let mut m = OwnedMap::default();
        for (k, v) in entries {
            m.insert(k, v);
        }
        Map::Owned(Arc::new(m))
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        match self {
            Map::Owned(m) => m.entries.len(),
            Map::Host(h) => h.len(),
        }
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value at `key`.
    pub fn get(&self, key: &Value) -> Option<Value> {
        match self {
            Map::Owned(m) => m.get(key).cloned(),
            Map::Host(h) => h.get(key),
        }
    }

    /// The keys in order.
    pub fn keys(&self) -> Box<dyn Iterator<Item = Value> + '_> {
        match self {
            Map::Owned(m) => Box::new(m.entries.iter().map(|(k, _)| k.clone())),
            Map::Host(h) => h.keys(),
        }
    }

    /// The entries in order.
    pub fn iter(&self) -> Box<dyn Iterator<Item = (Value, Value)> + '_> {
        match self {
            Map::Owned(m) => Box::new(m.entries.iter().cloned()),
            Map::Host(h) => Box::new(h.keys().filter_map(|k| h.get(&k).map(|v| (k, v)))),
        }
    }
}
