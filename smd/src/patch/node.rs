//! The document a JSON patch works on, with the three kinds of `null` json-patch v4 tells
//! apart (its `*lazyNode` may be nil, hold no text, or hold the text `null`), since each
//! behaves differently when an operation tests, walks into or copies it.

use super::PatchError;
use smd_fieldpath::value::gojson;
use smd_fieldpath::{MAX_DEPTH, Map, Value};
use std::collections::BTreeMap;

/// One node of the document.
#[derive(Debug, Clone)]
pub(super) enum Node {
    /// A nil node: a `null` of the document or of a value's insides, an absent `value`, a copy
    /// of either.
    Nil,
    /// A node with no text: an operation's `"value": null`.
    NoText,
    /// A node whose text is `null`: a copy of a [`Node::NoText`]. Go reads it as an object with
    /// no map behind it: empty when read, a panic when written.
    NullText,
    /// A boolean, number or string.
    Scalar(Value),
    /// An array.
    List(Vec<Node>),
    /// An object; Go writes its members sorted, so they are kept sorted.
    Map(BTreeMap<String, Node>),
}

/// The texts of Go's panics the server turns into a 500.
pub(super) const NIL_DEREFERENCE: &str =
    "json-patch dereferences a nil value (a missing \"value\", or null inside a compared array)";
pub(super) const NIL_MAP_WRITE: &str =
    "json-patch writes into a copied null it took for an object (assignment to entry in nil map)";

pub(super) fn panic(reason: &'static str) -> PatchError {
    PatchError::ServerPanic { reason }
}

fn too_deep() -> PatchError {
    PatchError::TooDeep { max: MAX_DEPTH }
}

impl Node {
    /// A value of the document, or of an operation's `value` below its top level.
    pub(super) fn from_value(value: &Value, depth: usize) -> Result<Node, PatchError> {
        if depth > MAX_DEPTH {
            return Err(too_deep());
        }
        Ok(match value {
            Value::Null => Node::Nil,
            Value::List(items) => Node::List(
                items
                    .iter()
                    .map(|item| Node::from_value(item, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Map(map) => Node::Map(
                map.iter()
                    .map(|(k, v)| Ok((k.to_owned(), Node::from_value(v, depth + 1)?)))
                    .collect::<Result<_, PatchError>>()?,
            ),
            scalar => Node::Scalar(scalar.clone()),
        })
    }

    /// An operation's `value` member: absent is nil, `null` has no text.
    pub(super) fn from_operand(value: Option<&Value>) -> Result<Node, PatchError> {
        match value {
            None => Ok(Node::Nil),
            Some(Value::Null) => Ok(Node::NoText),
            Some(v) => Node::from_value(v, 1),
        }
    }

    pub(super) fn is_nil(&self) -> bool {
        matches!(self, Node::Nil)
    }

    /// Whether json-patch walks into this node as a container (an array, an object, or the
    /// text `null` read as an object).
    pub(super) fn is_container(&self) -> bool {
        matches!(self, Node::List(_) | Node::Map(_) | Node::NullText)
    }

    /// The value Go writes for this node.
    pub(super) fn to_value(&self, depth: usize) -> Result<Value, PatchError> {
        if depth > MAX_DEPTH {
            return Err(too_deep());
        }
        Ok(match self {
            Node::Nil | Node::NoText | Node::NullText => Value::Null,
            Node::Scalar(v) => v.clone(),
            Node::List(items) => Value::List(
                items
                    .iter()
                    .map(|item| item.to_value(depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
            Node::Map(members) => {
                let mut map = Map::with_capacity(members.len());
                for (k, v) in members {
                    map.insert(k.as_str(), v.to_value(depth + 1)?);
                }
                Value::Map(map)
            }
        })
    }

    /// json-patch's `deepCopy`: the node written and read back, and the size of its text, which
    /// counts against the limit on copies.
    pub(super) fn deep_copy(&self) -> Result<(Node, usize), PatchError> {
        match self {
            Node::Nil => Ok((Node::Nil, 0)),
            Node::NoText | Node::NullText => Ok((Node::NullText, 4)),
            other => {
                let value = other.to_value(1)?;
                let mut text = String::new();
                gojson::write_value(&mut text, &value).map_err(|e| {
                    PatchError::apply(format!("error while performing deep copy: {e}"))
                })?;
                Ok((Node::from_value(&value, 1)?, text.len()))
            }
        }
    }

    /// json-patch's `equal` of a document node with an operation's value: structural for
    /// objects and arrays, the JSON text for the rest. Go dereferences nil on the way when a
    /// compared array holds a `null` on either side.
    pub(super) fn equal(&self, other: &Node, depth: usize) -> Result<bool, PatchError> {
        if depth > MAX_DEPTH {
            return Err(too_deep());
        }
        if other.is_nil() {
            return Err(panic(NIL_DEREFERENCE));
        }
        let empty = BTreeMap::new();
        match self {
            Node::Nil => Err(panic(NIL_DEREFERENCE)),
            Node::NoText => Ok(matches!(other, Node::NoText)),
            Node::Scalar(a) => Ok(match other {
                Node::Scalar(b) => same_text(a, b),
                _ => false,
            }),
            Node::Map(_) | Node::NullText => {
                let mine = match self {
                    Node::Map(m) => m,
                    _ => &empty,
                };
                let theirs = match other {
                    Node::Map(m) => m,
                    Node::NullText => &empty,
                    _ => return Ok(false),
                };
                if mine.len() != theirs.len() {
                    return Ok(false);
                }
                for (key, mine) in mine {
                    let Some(theirs) = theirs.get(key) else {
                        return Ok(false);
                    };
                    match (mine.is_nil(), theirs.is_nil()) {
                        (true, true) => continue,
                        (false, false) => {
                            if !mine.equal(theirs, depth + 1)? {
                                return Ok(false);
                            }
                        }
                        _ => return Ok(false),
                    }
                }
                Ok(true)
            }
            Node::List(mine) => {
                let Node::List(theirs) = other else {
                    return Ok(false);
                };
                if mine.len() != theirs.len() {
                    return Ok(false);
                }
                for (mine, theirs) in mine.iter().zip(theirs) {
                    if mine.is_nil() {
                        return Err(panic(NIL_DEREFERENCE));
                    }
                    if !mine.equal(theirs, depth + 1)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }
}

/// Go compares scalars by their compact JSON text; smd's values have lost the patch's spelling,
/// so both are written as Go writes them.
fn same_text(a: &Value, b: &Value) -> bool {
    let (mut x, mut y) = (String::new(), String::new());
    gojson::write_value(&mut x, a).is_ok() && gojson::write_value(&mut y, b).is_ok() && x == y
}
