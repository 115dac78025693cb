//! A CRD version's `openAPIV3Schema` as the server's schema validator reads it
//! (apiextensions-apiserver v0.37.2 `ConvertJSONSchemaPropsWithPostProcess`, then kube-openapi's
//! `spec.Schema`): every value validation, with formats the version does not support dropped
//! and patterns compiled once.

use std::collections::BTreeMap;

use smd_fieldpath::{MAX_DEPTH, Map, Value};

use super::formats;
use super::pattern::{Pattern, PatternError};

/// One schema node. Parts a CRD may not use (`uniqueItems`, `patternProperties`,
/// `additionalItems`, `dependencies`, `$ref`) are refused when the CRD is created and are not
/// read.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// `type` (`["integer", "string"]` for `x-kubernetes-int-or-string`), in Go's order: the
    /// order its messages join them in.
    pub(crate) types: Vec<String>,
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
    pub(crate) all_of: Vec<Node>,
    pub(crate) one_of: Vec<Node>,
    pub(crate) any_of: Vec<Node>,
    pub(crate) not: Option<Box<Node>>,
    pub(crate) properties: BTreeMap<String, Node>,
    pub(crate) additional: Additional,
    pub(crate) items: Option<Box<Node>>,
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
        if let Some(t) = str_of(m, "type").filter(|t| !t.is_empty()) {
            node.types.push(t.to_owned());
        }
        if flag(m, "x-kubernetes-int-or-string") {
            node.types = vec!["integer".to_owned(), "string".to_owned()];
        }
        node.nullable = flag(m, "nullable");
        let single_type = match node.types.as_slice() {
            [one] => Some(one.as_str()),
            _ => None,
        };
        node.format = formats::supported(str_of(m, "format").unwrap_or(""), single_type)
            .unwrap_or("")
            .to_owned();
        node.maximum = number(m, "maximum");
        node.exclusive_maximum = flag(m, "exclusiveMaximum");
        node.minimum = number(m, "minimum");
        node.exclusive_minimum = flag(m, "exclusiveMinimum");
        node.multiple_of = number(m, "multipleOf");
        node.max_length = integer(m, "maxLength");
        node.min_length = integer(m, "minLength");
        node.pattern = str_of(m, "pattern")
            .filter(|p| !p.is_empty())
            .map(|p| (p.to_owned(), PatternCheck::of(p)));
        node.max_items = integer(m, "maxItems");
        node.min_items = integer(m, "minItems");
        node.max_properties = integer(m, "maxProperties");
        node.min_properties = integer(m, "minProperties");
        node.required = strings(m, "required");
        if let Some(e) = m.get("enum").and_then(Value::as_list) {
            node.enumeration = e.to_vec();
        }
        node.all_of = schemas(m, "allOf", depth);
        node.one_of = schemas(m, "oneOf", depth);
        node.any_of = schemas(m, "anyOf", depth);
        node.not = m
            .get("not")
            .filter(|n| n.as_map().is_some())
            .map(|n| Box::new(Node::read_at(n, depth + 1)));
        if let Some(props) = m.get("properties").and_then(Value::as_map) {
            for (k, v) in props.iter() {
                node.properties
                    .insert(k.to_owned(), Node::read_at(v, depth + 1));
            }
        }
        node.additional = match m.get("additionalProperties") {
            Some(Value::Bool(b)) => Additional::Allows(*b),
            Some(v @ Value::Map(_)) => Additional::Schema(Box::new(Node::read_at(v, depth + 1))),
            _ => Additional::Unset,
        };
        node.items = m
            .get("items")
            .filter(|i| i.as_map().is_some())
            .map(|i| Box::new(Node::read_at(i, depth + 1)));
        node.list_type = str_of(m, "x-kubernetes-list-type").map(str::to_owned);
        node.map_keys = strings(m, "x-kubernetes-list-map-keys");
        node.embedded = flag(m, "x-kubernetes-embedded-resource");
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
