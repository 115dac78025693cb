//! A CRD version's `openAPIV3Schema` as the server's schema validator reads it
//! (apiextensions-apiserver v0.37.2 `ConvertJSONSchemaPropsWithPostProcess`, then kube-openapi's
//! `spec.Schema`): every value validation, with formats the version does not support dropped
//! and patterns compiled once.

use std::collections::BTreeMap;

use smd_fieldpath::{MAX_DEPTH, Map, Value};

use super::formats;
use super::pattern::{Pattern, PatternError};

/// One schema node: the parts that lead to other nodes, and its own checks behind a box (the
/// reading and the walks recurse once per level, with frames kept small: see *Depth* in
/// docs/ARCHITECTURE.md). Parts a CRD may not use (`uniqueItems`, `patternProperties`,
/// `additionalItems`, `dependencies`, `$ref`) are refused when the CRD is created and are not
/// read.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// `type` (`["integer", "string"]` for `x-kubernetes-int-or-string`), in Go's order: the
    /// order its messages join them in.
    pub(crate) types: Vec<String>,
    pub(crate) checks: Box<Checks>,
    pub(crate) all_of: Vec<Node>,
    pub(crate) one_of: Vec<Node>,
    pub(crate) any_of: Vec<Node>,
    pub(crate) not: Option<Box<Node>>,
    pub(crate) properties: BTreeMap<String, Node>,
    pub(crate) additional: Additional,
    pub(crate) items: Option<Box<Node>>,
}

/// A node's own checks and markers.
#[derive(Debug, Default)]
pub(crate) struct Checks {
    pub(crate) nullable: bool,
    /// `format`, or `""` where the server strips it (unsupported for the node's type).
    pub(crate) format: String,
    pub(crate) maximum: Option<f64>,
    pub(crate) exclusive_maximum: bool,
    pub(crate) minimum: Option<f64>,
    pub(crate) exclusive_minimum: bool,
    pub(crate) multiple_of: Option<f64>,
    pub(crate) max_length: Option<i64>,
    pub(crate) min_length: Option<i64>,
    /// `pattern`: its source, and how it is checked.
    pub(crate) pattern: Option<(String, PatternCheck)>,
    pub(crate) max_items: Option<i64>,
    pub(crate) min_items: Option<i64>,
    pub(crate) max_properties: Option<i64>,
    pub(crate) min_properties: Option<i64>,
    pub(crate) required: Vec<String>,
    /// `enum` (empty: none, as Go's `len(Enum) > 0` reads it).
    pub(crate) enumeration: Vec<Value>,
    /// `x-kubernetes-list-type` and `x-kubernetes-list-map-keys`: how ratcheting pairs a
    /// list's items with the old object's, and which duplicates are refused.
    pub(crate) list_type: Option<String>,
    pub(crate) map_keys: Vec<String>,
    /// `x-kubernetes-embedded-resource`: the object is a resource, checked as one.
    pub(crate) embedded: bool,
}

/// How a `pattern` is checked.
#[derive(Debug)]
pub(crate) enum PatternCheck {
    /// Compiled.
    Compiled(Pattern),
    /// Go refuses to compile it: every string fails, the message quoting Go's reason.
    Invalid(String),
    /// Go compiles it, but it is past smd's bounds (thousands of counted repetitions): not
    /// checked, a value is taken as matching.
    Unchecked,
}

impl PatternCheck {
    fn of(source: &str) -> PatternCheck {
        match Pattern::compile(source) {
            Ok(p) => PatternCheck::Compiled(p),
            Err(PatternError::Invalid(why)) => PatternCheck::Invalid(why),
            Err(PatternError::TooComplex(_)) => PatternCheck::Unchecked,
        }
    }
}

/// `additionalProperties`.
#[derive(Debug, Default)]
pub(crate) enum Additional {
    /// Not set.
    #[default]
    Unset,
    /// The boolean form.
    Allows(bool),
    /// A schema for the values.
    Schema(Box<Node>),
}

impl Node {
    /// The node for a JSON schema the CRD checks accepted. Deeper than the readers' nesting
    /// limit nothing is read (no accepted schema gets there).
    pub(crate) fn read(schema: &Value) -> Node {
        Node::read_at(schema, 0)
    }

    fn read_at(schema: &Value, depth: usize) -> Node {
        let mut node = Node::default();
        let Some(m) = schema.as_map() else {
            return node;
        };
        if depth >= MAX_DEPTH {
            return node;
        }
        node.types = types(m);
        node.checks = checks(m, &node.types);
        node.all_of = schemas(m, "allOf", depth);
        node.one_of = schemas(m, "oneOf", depth);
        node.any_of = schemas(m, "anyOf", depth);
        if let Some(not) = m.get("not").filter(|n| n.as_map().is_some()) {
            node.not = Some(Box::new(Node::read_at(not, depth + 1)));
        }
        if let Some(props) = m.get("properties").and_then(Value::as_map) {
            for (k, v) in props.iter() {
                let property = Node::read_at(v, depth + 1);
                node.properties.insert(k.to_owned(), property);
            }
        }
        match m.get("additionalProperties") {
            Some(Value::Bool(b)) => node.additional = Additional::Allows(*b),
            Some(v @ Value::Map(_)) => {
                node.additional = Additional::Schema(Box::new(Node::read_at(v, depth + 1)));
            }
            _ => {}
        }
        if let Some(items) = m.get("items").filter(|i| i.as_map().is_some()) {
            node.items = Some(Box::new(Node::read_at(items, depth + 1)));
        }
        node
    }

    /// The schema a map member `name` is validated with and correlated through: its
    /// property's, else the values' (`None`: undeclared, or values without a schema).
    pub(crate) fn member(&self, name: &str) -> Option<&Node> {
        self.properties.get(name).or(match &self.additional {
            Additional::Schema(s) => Some(s),
            _ => None,
        })
    }

    /// Whether `types` holds `t` (`StringOrArray.Contains`).
    pub(crate) fn has_type(&self, t: &str) -> bool {
        self.types.iter().any(|x| x == t)
    }
}

/// `type`, or `integer` and `string` for `x-kubernetes-int-or-string`.
#[inline(never)]
fn types(m: &Map) -> Vec<String> {
    if flag(m, "x-kubernetes-int-or-string") {
        return vec!["integer".to_owned(), "string".to_owned()];
    }
    str_of(m, "type")
        .filter(|t| !t.is_empty())
        .map(|t| vec![t.to_owned()])
        .unwrap_or_default()
}

/// A node's own checks (out of the recursion's frames).
#[inline(never)]
fn checks(m: &Map, types: &[String]) -> Box<Checks> {
    let single_type = match types {
        [one] => Some(one.as_str()),
        _ => None,
    };
    Box::new(Checks {
        nullable: flag(m, "nullable"),
        format: formats::supported(str_of(m, "format").unwrap_or(""), single_type)
            .unwrap_or("")
            .to_owned(),
        maximum: number(m, "maximum"),
        exclusive_maximum: flag(m, "exclusiveMaximum"),
        minimum: number(m, "minimum"),
        exclusive_minimum: flag(m, "exclusiveMinimum"),
        multiple_of: number(m, "multipleOf"),
        max_length: integer(m, "maxLength"),
        min_length: integer(m, "minLength"),
        pattern: str_of(m, "pattern")
            .filter(|p| !p.is_empty())
            .map(|p| (p.to_owned(), PatternCheck::of(p))),
        max_items: integer(m, "maxItems"),
        min_items: integer(m, "minItems"),
        max_properties: integer(m, "maxProperties"),
        min_properties: integer(m, "minProperties"),
        required: strings(m, "required"),
        enumeration: m
            .get("enum")
            .and_then(Value::as_list)
            .map(<[Value]>::to_vec)
            .unwrap_or_default(),
        list_type: str_of(m, "x-kubernetes-list-type").map(str::to_owned),
        map_keys: strings(m, "x-kubernetes-list-map-keys"),
        embedded: flag(m, "x-kubernetes-embedded-resource"),
    })
}

fn str_of<'a>(m: &'a Map, key: &str) -> Option<&'a str> {
    m.get(key).and_then(Value::as_str)
}

fn flag(m: &Map, key: &str) -> bool {
    m.get(key) == Some(&Value::Bool(true))
}

fn number(m: &Map, key: &str) -> Option<f64> {
    match m.get(key)? {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn integer(m: &Map, key: &str) -> Option<i64> {
    match m.get(key)? {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

fn strings(m: &Map, key: &str) -> Vec<String> {
    m.get(key)
        .and_then(Value::as_list)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

fn schemas(m: &Map, key: &str, depth: usize) -> Vec<Node> {
    m.get(key)
        .and_then(Value::as_list)
        .map(|l| l.iter().map(|s| Node::read_at(s, depth + 1)).collect())
        .unwrap_or_default()
}
