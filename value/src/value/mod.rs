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

mod entries;
pub(crate) mod float;
pub mod gofmt;
pub mod gojson;
mod isprint;
mod map;
mod order;
mod serde_impl;
mod text;

pub use serde_impl::FROM_JSON_MAX_DEPTH;
pub use text::{go_float, go_quote, is_go_printable};

pub use map::{Map, MapIntoIter, MapKey};

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

    /// Whether `self` and `other` are the same data: the same variants, keys in the same order,
    /// floats bit for bit, maps shared or alike all the way down. Stricter than `==` (Go's
    /// equality: an int equals a float of its value, `NaN` equals nothing) and cheap where maps
    /// are shared: a walk that depends only on a value gives both the same answer.
    pub fn same_as(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::List(a), Value::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_as(y))
            }
            (Value::Map(a), Value::Map(b)) => {
                Map::ptr_eq(a, b)
                    || (a.len() == b.len()
                        && a.iter()
                            .zip(b.iter())
                            .all(|((ka, va), (kb, vb))| ka == kb && va.same_as(vb)))
            }
            _ => false,
        }
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
