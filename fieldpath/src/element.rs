//! Path elements: one step into a value.
//!
//! A step is a field name (`.spec`), the key of an item of an associative list
//! (`[name="nginx"]`), the value of an item of a set (`[=80]`) or the index of an item of an
//! atomic list (`[3]`). Elements have a total order, Go's: all field names (byte-wise) before all
//! keys, before all values, before all indexes. That order is the order of `fieldsV1` documents
//! and of every [`crate::Set`].
//!
//! ```
//! use smd_fieldpath::{PathElement, Value};
//! let port = PathElement::key([("containerPort", Value::Int(80)), ("protocol", Value::from("TCP"))]);
//! assert_eq!(port.to_string(), r#"[containerPort=80,protocol="TCP"]"#);
//! assert!(PathElement::field("zzz") < port);
//! ```

use crate::name::Name;
use crate::value::Value;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// One step into a value.
#[derive(Clone, Debug)]
pub enum PathElement {
    /// A field of a map or struct: `.name`.
    Field(Name),
    /// An item of an associative list, by the values of its key fields: `[name="a"]`.
    Key(Key),
    /// An item of a set (a list of scalars that is a set), by its value: `[=80]`.
    Value(Arc<Value>),
    /// An item of a list that is neither, by position: `[3]`.
    Index(i64),
}

/// The key of an associative-list item: field names and their values, sorted by name.
///
/// Names may repeat (a `fieldsV1` document may say `k:{"a":1,"a":2}`, and Go keeps both).
#[derive(Clone, Debug)]
pub struct Key(Arc<[KeyField]>);

/// One field of a [`Key`].
#[derive(Clone, Debug)]
pub struct KeyField {
    /// The key field's name.
    pub name: Name,
    /// The key field's value in the item.
    pub value: Value,
}

impl Key {
    /// A key from fields in any order; they are sorted by name (stably, so repeated names keep
    /// their relative order), as Go sorts them.
    pub fn new(fields: impl IntoIterator<Item = KeyField>) -> Key {
        let mut rest = fields.into_iter();
        let mut fields: Vec<KeyField> = match rest.next() {
            None => Vec::new(),
            // Most lists have one key field: one allocation, not a vector copied into one.
            Some(only) if rest.size_hint() == (0, Some(0)) => return Key(Arc::new([only])),
            Some(first) => {
                let mut fields = Vec::with_capacity(1 + rest.size_hint().0);
                fields.push(first);
                fields.extend(rest);
                fields
            }
        };
        // Stable sort on names only: names are plain bytes, so the order is total.
        fields.sort_by(|a, b| a.name.cmp(&b.name));
        Key(fields.into())
    }

    /// A key from fields that are already in the order to keep.
    pub(crate) fn from_sorted(fields: Vec<KeyField>) -> Key {
        Key(fields.into())
    }

    /// A key from fields already shared and in the order to keep (sorted by name, stably).
    pub(crate) fn from_shared(fields: Arc<[KeyField]>) -> Key {
        Key(fields)
    }

    /// The fields, sorted by name.
    pub fn fields(&self) -> &[KeyField] {
        &self.0
    }

    /// The value of the field `name` (the first, if it repeats).
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.0.iter().find(|f| f.name == name).map(|f| &f.value)
    }

    /// Go's `FieldList.Compare`: field by field, name then value; a prefix sorts first.
    pub fn compare(&self, other: &Key) -> Ordering {
        for (a, b) in self.0.iter().zip(other.0.iter()) {
            let order = a.name.cmp(&b.name).then_with(|| a.value.compare(&b.value));
            if order != Ordering::Equal {
                return order;
            }
        }
        self.0.len().cmp(&other.0.len())
    }
}

impl PartialEq for Key {
    /// Go's `FieldList.Equals`: same names and equal values, position by position.
    fn eq(&self, other: &Key) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(other.0.iter())
                .all(|(a, b)| a.name == b.name && a.value == b.value)
    }
}

impl PathElement {
    /// A field element.
    pub fn field(name: impl Into<Name>) -> PathElement {
        PathElement::Field(name.into())
    }

    /// A key element from name/value pairs in any order (sorted by name, as Go's
    /// `KeyByFields`).
    pub fn key<N: Into<Name>>(fields: impl IntoIterator<Item = (N, Value)>) -> PathElement {
        PathElement::Key(Key::new(fields.into_iter().map(|(name, value)| KeyField {
            name: name.into(),
            value,
        })))
    }

    /// A value element.
    pub fn value(value: Value) -> PathElement {
        PathElement::Value(Arc::new(value))
    }

    /// An index element.
    pub fn index(index: i64) -> PathElement {
        PathElement::Index(index)
    }

    /// Go's `PathElement.Compare`: field < key < value < index, then within the kind.
    pub fn compare(&self, other: &PathElement) -> Ordering {
        use PathElement::*;
        crate::count_work(1);
        match (self, other) {
            (Field(a), Field(b)) => a.cmp(b),
            (Key(a), Key(b)) => a.compare(b),
            (Value(a), Value(b)) => a.compare(b),
            (Index(a), Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }

    /// The field name, if this is a field element.
    pub fn as_field(&self) -> Option<&Name> {
        match self {
            PathElement::Field(name) => Some(name),
            _ => None,
        }
    }
}

impl PartialEq for PathElement {
    /// Go's `PathElement.Equals`: like [`PathElement::compare`] being equal, except that values
    /// are compared with `Value`'s equality (where NaN differs from itself).
    fn eq(&self, other: &PathElement) -> bool {
        use PathElement::*;
        match (self, other) {
            (Field(a), Field(b)) => a == b,
            (Key(a), Key(b)) => a == b,
            (Value(a), Value(b)) => **a == **b,
            (Index(a), Index(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &PathElement) -> Option<Ordering> {
        Some(self.compare(other))
    }
}

impl fmt::Display for PathElement {
    /// Go's `PathElement.String`: `.name`, `[k=v,…]`, `[=v]`, `[3]`, values in Go's
    /// `value.ToString` text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(key) => {
                f.write_str("[")?;
                for (i, field) in key.fields().iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}={}", field.name, field.value)?;
                }
                f.write_str("]")
            }
            PathElement::Value(value) => write!(f, "[={value}]"),
            PathElement::Index(index) => write!(f, "[{index}]"),
        }
    }
}
