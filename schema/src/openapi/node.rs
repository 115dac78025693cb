//! A JSON tree as kube-openapi's JSON reader sees it: duplicate member names are refused (Go's
//! `go-json-experiment` decoder refuses them anywhere in a document), numbers keep whether they
//! were written as integers, and maps and lists nest at most [`MAX_DEPTH`] levels, the limit of
//! every smd reader (Go's JSON reader allows 10,000; the message says the limit is smd's).

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use smd_value::{MAX_DEPTH, Value};

/// The refusal of a document nested deeper than [`MAX_DEPTH`], in the YAML reader's words.
fn too_deep() -> String {
    format!(
        "maps and lists nest deeper than {MAX_DEPTH} levels (smd's limit, not the API server's)"
    )
}

/// A JSON value. Its strings borrow the text it was read from where they can (those without
/// escapes): a document is read once into nodes, then into a model that keeps what it needs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node<'a> {
    Null,
    Bool(bool),
    /// A number written with integer syntax that fits an `i64`.
    Int(i64),
    /// A number written with integer syntax beyond `i64` (but within `u64`).
    UInt(u64),
    /// Any other number.
    Float(f64),
    Str(Cow<'a, str>),
    Arr(Vec<Node<'a>>),
    /// Members in document order, names unique.
    Obj(Vec<(Cow<'a, str>, Node<'a>)>),
}

impl<'a> Node<'a> {
    /// Reads one JSON document (trailing whitespace only).
    pub(crate) fn from_json(bytes: &'a [u8]) -> Result<Node<'a>, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        // serde_json's own limit (128) is lower than smd's: the seed counts instead.
        de.disable_recursion_limit();
        let node = NodeSeed {
            depth: 0,
            text: PhantomData,
        }
        .deserialize(&mut de)?;
        de.end()?;
        Ok(node)
    }

    /// Converts a value read from YAML, as `sigs.k8s.io/yaml` turns YAML into JSON for Go:
    /// non-finite floats have no JSON form and are refused. `depth` is the number of maps and
    /// lists around `v`.
    pub(crate) fn from_value(v: &'a Value, depth: usize) -> Result<Node<'a>, String> {
        if depth > MAX_DEPTH {
            return Err(too_deep());
        }
        // Plain loops, no iterator adapters: this recursion runs once per level of the document
        // and must keep a small frame in unoptimised builds too.
        Ok(match v {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Int(i) => Node::Int(*i),
            Value::Float(f) if f.is_finite() => Node::Float(*f),
            Value::Float(f) => return Err(format!("the number {f} has no JSON form")),
            Value::String(s) => Node::Str(Cow::Borrowed(s)),
            Value::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(Node::from_value(item, depth + 1)?);
                }
                Node::Arr(out)
            }
            Value::Map(m) => {
                let mut out = Vec::with_capacity(m.len());
                for (k, v) in m.iter() {
                    out.push((Cow::Borrowed(k), Node::from_value(v, depth + 1)?));
                }
                Node::Obj(out)
            }
        })
    }

    /// The kind of JSON value, as Go's decoder names it in messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "boolean",
            Node::Int(_) | Node::UInt(_) | Node::Float(_) => "number",
            Node::Str(_) => "string",
            Node::Arr(_) => "array",
            Node::Obj(_) => "object",
        }
    }

    /// The value as apimachinery's JSON decoding makes it: integers that fit an `i64` stay
    /// integers, every other number is a float64.
    pub(crate) fn to_go_value(&self) -> Value {
        self.convert(true)
    }

    /// The value Go's decoder makes of this node in an `interface{}`: every number a float64.
    pub(crate) fn to_value(&self) -> Value {
        self.convert(false)
    }

    /// A default may nest as deep as the document: plain loops keep this recursion's frame
    /// small in unoptimised builds.
    fn convert(&self, int: bool) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(*b),
            Node::Int(i) if int => Value::Int(*i),
            Node::Int(i) => Value::Float(*i as f64),
            Node::UInt(u) => Value::Float(*u as f64),
            Node::Float(f) => Value::Float(*f),
            Node::Str(s) => Value::String(s.to_string()),
            Node::Arr(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(item.convert(int));
                }
                Value::List(out)
            }
            Node::Obj(members) => {
                let mut m = smd_value::Map::with_capacity(members.len());
                for (k, v) in members {
                    m.insert(k.as_ref(), v.convert(int));
                }
                Value::Map(m)
            }
        }
    }
}

struct NodeSeed<'de> {
    depth: usize,
    text: PhantomData<&'de str>,
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'de> {
    type Value = Node<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node<'de>, D::Error> {
        d.deserialize_any(NodeVisitor {
            depth: self.depth,
            text: PhantomData,
        })
    }
}

struct NodeVisitor<'de> {
    depth: usize,
    text: PhantomData<&'de str>,
}

impl<'de> NodeVisitor<'de> {
    /// The seed of the values inside a map or list at this depth.
    fn inner<E: de::Error>(&self) -> Result<NodeSeed<'de>, E> {
        let depth = self.depth + 1;
        if depth > MAX_DEPTH {
            return Err(E::custom(too_deep()));
        }
        Ok(NodeSeed {
            depth,
            text: PhantomData,
        })
    }
}

/// A member name, borrowed from the text when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(KeySeed)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

impl<'de> Visitor<'de> for NodeVisitor<'de> {
    type Value = Node<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Node<'de>, E> {
        Ok(Node::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node<'de>, E> {
        Ok(Node::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Node<'de>, E> {
        Ok(Node::Int(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Node<'de>, E> {
        Ok(i64::try_from(v).map_or(Node::UInt(v), Node::Int))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Node<'de>, E> {
        Ok(Node::Float(v))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Node<'de>, E> {
        Ok(Node::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Node<'de>, E> {
        Ok(Node::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Node<'de>, E> {
        Ok(Node::Str(Cow::Owned(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.inner()?)? {
            items.push(item);
        }
        Ok(Node::Arr(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node<'de>, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Node<'de>)> = Vec::new();
        let mut seen: Option<HashSet<Cow<'de, str>>> = None;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            // Small objects are checked by a scan, large ones through a set.
            let duplicate = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None if members.len() < 16 => members.iter().any(|(k, _)| *k == key),
                None => {
                    let mut set: HashSet<Cow<'de, str>> =
                        members.iter().map(|(k, _)| k.clone()).collect();
                    let duplicate = !set.insert(key.clone());
                    seen = Some(set);
                    duplicate
                }
            };
            if duplicate {
                return Err(de::Error::custom(format_args!(
                    "duplicate object member name {key:?}"
                )));
            }
            let value = map.next_value_seed(self.inner()?)?;
            members.push((key, value));
        }
        Ok(Node::Obj(members))
    }
}
