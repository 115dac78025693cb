//! The dynamic value of an object: null, bool, int64, float64, string, list or map.
//!
//! Maps keep insertion order so that what is written looks like what was read. Equality and the
//! total order are Go structured-merge-diff's (`value.Equals`, `value.Compare`): an int and a float
//! are equal when numerically equal, and kinds sort numbers < string < bool < list < map < null.
//!
//! ```
//! use smd_value::Value;
//! let a = Value::Int(1);
//! let b = Value::Float(1.0);
//! assert!(a == b);
//! assert_eq!(a.compare(&b), std::cmp::Ordering::Equal);
//! ```

pub(crate) mod float;
pub mod gofmt;
pub mod gojson;
mod isprint;
mod order;
mod serde_impl;
mod text;

pub use serde_impl::FROM_JSON_MAX_DEPTH;
pub use text::{go_float, go_quote, is_go_printable};

use indexmap::IndexMap;
use std::sync::Arc;

/// A dynamic value, as Kubernetes objects are made of.
#[derive(Debug, Clone, Default)]
pub enum Value {
    /// `null`, also what an absent value reads as.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number that fits in 64 bits.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// A string.
    String(String),
    /// A list of values.
    List(Vec<Value>),
    /// A map from string keys to values, in insertion order.
    Map(Map),
}

/// The kinds of [`Value`], in the order Go sorts them (numbers share one rank).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `null`.
    Null,
    /// A boolean.
    Bool,
    /// An int64.
    Int,
    /// A float64.
    Float,
    /// A string.
    String,
    /// A list.
    List,
    /// A map.
    Map,
}

impl Value {
    /// This value's kind.
    pub fn kind(&self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Int(_) => Kind::Int,
            Value::Float(_) => Kind::Float,
            Value::String(_) => Kind::String,
            Value::List(_) => Kind::List,
            Value::Map(_) => Kind::Map,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The int, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The number as a float, if this is an int or a float.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The list, if this is one.
    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    /// The map, if this is one.
    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The map, mutably, if this is one.
    pub fn as_map_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The list, mutably, if this is one.
    pub fn as_list_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    /// Whether this is an int or a float.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Int(_) | Value::Float(_))
    }

    /// The value at `path`, a key of a map at each step (`["metadata", "name"]`); `None`
    /// where a step is not a map holding the key.
    pub fn at(&self, path: &[&str]) -> Option<&Value> {
        path.iter()
            .try_fold(self, |at, key| at.as_map().and_then(|m| m.get(key)))
    }

    /// The string at `path` ([`Value::at`]), or `""` when there is none (an object's
    /// `metadata.namespace`, as Go's unstructured accessors read it).
    pub fn str_at(&self, path: &[&str]) -> &str {
        self.at(path).and_then(Value::as_str).unwrap_or("")
    }
}

/// A map of a [`Value`]: string keys in insertion order.
///
/// The entries are shared, copied on the first write: cloning a map is a reference count,
/// which is what merging objects (a big atomic list kept from one side) and keeping several
/// versions of an object cost; Go shares them alike (its values are references).
#[derive(Debug, Clone, Default)]
pub struct Map {
    // Behind one pointer, so that a `Value` stays four words.
    entries: Arc<IndexMap<String, Value>>,
}

impl Map {
    /// An empty map.
    pub fn new() -> Self {
        Map::default()
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        Map {
            entries: Arc::new(IndexMap::with_capacity(n)),
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.get(key)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        Arc::make_mut(&mut self.entries).get_mut(key)
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    /// Sets `key` to `value`, returning the old value. A new key goes last; an existing key keeps
    /// its place.
    pub fn insert(&mut self, key: impl Into<String>, value: Value) -> Option<Value> {
        Arc::make_mut(&mut self.entries).insert(key.into(), value)
    }

    /// The map at `key`, made (empty, last) where the key is absent or holds another kind of
    /// value, as Go makes a nil map or struct pointer before writing into it.
    ///
    /// ```
    /// use smd_value::{Map, Value};
    /// let mut m = Map::new();
    /// m.map_entry("spec").insert("replicas", Value::Int(1));
    /// assert_eq!(m.get("spec").and_then(|s| s.as_map()).map(Map::len), Some(1));
    /// ```
    pub fn map_entry(&mut self, key: &str) -> &mut Map {
        let slot = Arc::make_mut(&mut self.entries)
            .entry(key.to_owned())
            .or_insert(Value::Null);
        if !matches!(slot, Value::Map(_)) {
            *slot = Value::Map(Map::new());
        }
        match slot {
            Value::Map(m) => m,
            // The slot was made a map just above.
            _ => unreachable!("a map was just stored"),
        }
    }

    /// Removes `key`, keeping the order of the others.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        Arc::make_mut(&mut self.entries).shift_remove(key)
    }

    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value)> + DoubleEndedIterator {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The entries in order, values mutably.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (&str, &mut Value)> {
        Arc::make_mut(&mut self.entries)
            .iter_mut()
            .map(|(k, v)| (k.as_str(), v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// The values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> {
        self.entries.values()
    }

    /// Sorts the entries by key, byte-wise.
    pub fn sort_keys(&mut self) {
        Arc::make_mut(&mut self.entries).sort_keys();
    }
}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Map {
            entries: Arc::new(iter.into_iter().collect()),
        }
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = indexmap::map::IntoIter<String, Value>;
    fn into_iter(self) -> Self::IntoIter {
        Arc::unwrap_or_clone(self.entries).into_iter()
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i)
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Self {
        Value::Float(f)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}

impl From<Vec<Value>> for Value {
    fn from(l: Vec<Value>) -> Self {
        Value::List(l)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Self {
        Value::Map(m)
    }
}
