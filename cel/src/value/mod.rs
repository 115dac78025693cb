//! CEL values: cheap to clone (aggregates and text are shared), with the host data of a
//! Kubernetes object presented through [`HostList`] and [`HostMap`], and library types (quantity,
//! IP, ...) through [`Opaque`].

mod collections;
mod compare;
mod types;

pub use collections::{HostList, HostMap, Key, List, Map};
pub use compare::{compare, equals};
pub use types::Type;

use crate::time::{Duration, Timestamp};
use std::fmt;
use std::sync::Arc;

/// A CEL value.
#[derive(Clone)]
pub enum Value {
    /// `null`.
    Null,
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i64),
    /// `uint`.
    Uint(u64),
    /// `double`.
    Double(f64),
    /// `string`.
    String(Arc<str>),
    /// `bytes`.
    Bytes(Arc<[u8]>),
    /// `list`.
    List(List),
    /// `map`.
    Map(Map),
    /// `google.protobuf.Duration`.
    Duration(Duration),
    /// `google.protobuf.Timestamp`.
    Timestamp(Timestamp),
    /// A type value (`int`, `type(x)`).
    Type(Type),
    /// `optional_type`: present or not.
    Optional(Option<Arc<Value>>),
    /// A library's type.
    Opaque(Arc<dyn Opaque>),
}

/// A library's value type (a Kubernetes quantity, IP, CIDR, URL, semver, ...).
pub trait Opaque: fmt::Debug + Send + Sync {
    /// The type's name, as `type()` and error texts give it.
    fn type_name(&self) -> &str;
    /// Equality with another value of any type (false for another type, as cel-go's).
    fn equals(&self, other: &Value) -> bool;
    /// Ordering with another value, when the type is ordered (`None`: no `<` overload).
    fn compare(&self, _other: &Value) -> Option<std::cmp::Ordering> {
        None
    }
    /// The value as `any`, for a library's functions to downcast.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl Value {
    /// A string value.
    pub fn string(s: impl Into<Arc<str>>) -> Value {
        Value::String(s.into())
    }

    /// A list value of owned elements.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(List::from(items))
    }

    /// An optional value.
    pub fn optional(v: Option<Value>) -> Value {
        Value::Optional(v.map(Arc::new))
    }

    /// The value's type.
    pub fn type_of(&self) -> Type {
        match self {
            Value::Null => Type::Null,
            Value::Bool(_) => Type::Bool,
            Value::Int(_) => Type::Int,
            Value::Uint(_) => Type::Uint,
            Value::Double(_) => Type::Double,
            Value::String(_) => Type::String,
            Value::Bytes(_) => Type::Bytes,
            Value::List(_) => Type::List,
            Value::Map(_) => Type::Map,
            Value::Duration(_) => Type::Duration,
            Value::Timestamp(_) => Type::Timestamp,
            Value::Type(_) => Type::Type,
            Value::Optional(_) => Type::Optional,
            Value::Opaque(o) => Type::Opaque(Arc::from(o.type_name())),
        }
    }

    /// cel-go's size of a value for cost accounting: a sized value's size, else 1.
    pub fn cost_size(&self) -> u64 {
        match self {
            Value::String(s) => s.chars().count() as u64,
            Value::Bytes(b) => b.len() as u64,
            Value::List(l) => l.len() as u64,
            Value::Map(m) => m.len() as u64,
            Value::Optional(Some(v)) => v.cost_size(),
            _ => 1,
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => write!(f, "null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Uint(u) => write!(f, "{u}u"),
            Value::Double(d) => write!(f, "{d:?}"),
            Value::String(s) => write!(f, "{s:?}"),
            Value::Bytes(b) => write!(f, "b{b:?}"),
            Value::List(l) => f.debug_list().entries(l.iter()).finish(),
            Value::Map(m) => f.debug_map().entries(m.iter()).finish(),
            Value::Duration(d) => write!(f, "duration({d})"),
            Value::Timestamp(t) => write!(f, "timestamp({t})"),
            Value::Type(t) => write!(f, "{}", t.name()),
            Value::Optional(None) => write!(f, "optional.none()"),
            Value::Optional(Some(v)) => write!(f, "optional.of({v:?})"),
            Value::Opaque(o) => write!(f, "{o:?}"),
        }
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
impl From<u64> for Value {
    fn from(u: u64) -> Self {
        Value::Uint(u)
    }
}
impl From<f64> for Value {
    fn from(d: f64) -> Self {
        Value::Double(d)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(Arc::from(s))
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(Arc::from(s))
    }
}
