//! A CRD version's structural schema as its CEL rules see it: each node's type (which CEL
//! value a JSON value becomes, `apiserver/pkg/cel/common.UnstructuredToVal`), its list and map
//! semantics, and its `x-kubernetes-validations` rules (with those of its `allOf` entries).

use std::collections::BTreeMap;

use smd_fieldpath::{MAX_DEPTH, Map, Value};

use super::program::Rule;

/// One node of the schema.
#[derive(Debug, Default)]
pub(crate) struct RuleNode {
    /// `type` (empty when unset).
    pub(crate) kind: String,
    /// `format`, which turns strings into timestamps, durations or bytes.
    pub(crate) format: String,
    pub(crate) nullable: bool,
    pub(crate) int_or_string: bool,
    pub(crate) preserve_unknown: bool,
    pub(crate) embedded: bool,
    /// `x-kubernetes-list-type` (`atomic` when unset).
    pub(crate) list_type: String,
    pub(crate) map_keys: Vec<String>,
    /// `x-kubernetes-map-type` (`granular` when unset).
    pub(crate) map_type: String,
    pub(crate) properties: BTreeMap<String, RuleNode>,
    pub(crate) additional: Option<Box<RuleNode>>,
    pub(crate) items: Option<Box<RuleNode>>,
    /// The node's own rules.
    pub(crate) rules: Vec<Rule>,
    /// The rules of its `allOf` entries (one list per entry that has any), run after its own
    /// and never ratcheted.
    pub(crate) all_of: Vec<Vec<Rule>>,
    /// Whether this node or one below holds a rule: the walk skips subtrees without.
    pub(crate) has_rules: bool,
}

impl RuleNode {
    /// The tree of `schema` (a version's `openAPIV3Schema`), its root a resource's.
    pub(crate) fn read(schema: &Value) -> RuleNode {
        let mut root = RuleNode::read_at(schema, 0);
        root.with_type_and_object_meta();
        root
    }

    fn read_at(schema: &Value, depth: usize) -> RuleNode {
        let mut node = RuleNode::default();
        let Some(m) = schema.as_map() else {
            return node;
        };
        if depth >= MAX_DEPTH {
            return node;
        }
        node.kind = text(m, "type").to_owned();
        node.format = text(m, "format").to_owned();
        node.nullable = flag(m, "nullable");
        node.int_or_string = flag(m, "x-kubernetes-int-or-string");
        node.preserve_unknown = flag(m, "x-kubernetes-preserve-unknown-fields");
        node.embedded = flag(m, "x-kubernetes-embedded-resource");
        node.list_type = text(m, "x-kubernetes-list-type").to_owned();
        node.map_type = text(m, "x-kubernetes-map-type").to_owned();
        node.map_keys = strings(m, "x-kubernetes-list-map-keys");
        if let Some(props) = m.get("properties").and_then(Value::as_map) {
            for (k, v) in props.iter() {
                node.properties
                    .insert(k.to_owned(), RuleNode::read_at(v, depth + 1));
            }
        }
        if let Some(v @ Value::Map(_)) = m.get("additionalProperties") {
            node.additional = Some(Box::new(RuleNode::read_at(v, depth + 1)));
        }
        if let Some(items) = m.get("items").filter(|i| i.as_map().is_some()) {
            node.items = Some(Box::new(RuleNode::read_at(items, depth + 1)));
        }
        if node.embedded {
            node.with_type_and_object_meta();
        }
        node.rules = Rule::read_all(m);
        if let Some(entries) = m.get("allOf").and_then(Value::as_list) {
            for entry in entries {
                if let Some(e) = entry.as_map() {
                    let rules = Rule::read_all(e);
                    if !rules.is_empty() {
                        node.all_of.push(rules);
                    }
                }
            }
        }
        node.has_rules = !node.rules.is_empty()
            || !node.all_of.is_empty()
            || node.properties.values().any(|p| p.has_rules)
            || node.additional.as_ref().is_some_and(|a| a.has_rules)
            || node.items.as_ref().is_some_and(|i| i.has_rules);
        node
    }

    /// A resource's root as rules see it (`WithTypeAndObjectMeta`): `apiVersion` and `kind`
    /// strings, and of `metadata` only `name` and `generateName`.
    fn with_type_and_object_meta(&mut self) {
        let string = || RuleNode {
            kind: "string".to_owned(),
            ..RuleNode::default()
        };
        self.properties.insert("apiVersion".to_owned(), string());
        self.properties.insert("kind".to_owned(), string());
        let mut meta = RuleNode {
            kind: "object".to_owned(),
            ..RuleNode::default()
        };
        meta.properties.insert("name".to_owned(), string());
        meta.properties.insert("generateName".to_owned(), string());
        self.properties.insert("metadata".to_owned(), meta);
    }

    /// Whether the node declares properties (an object read field by field).
    pub(crate) fn declares_properties(&self) -> bool {
        !self.properties.is_empty()
    }

    /// The schema of property `name`.
    pub(crate) fn property(&self, name: &str) -> Option<&RuleNode> {
        self.properties.get(name)
    }

    /// The schema of the values of a map (`additionalProperties`).
    pub(crate) fn additional(&self) -> Option<&RuleNode> {
        self.additional.as_deref()
    }

    /// Whether a map's members pair with the old object's by key (`MapIsCorrelatable`).
    pub(crate) fn map_correlatable(&self) -> bool {
        matches!(self.map_type.as_str(), "" | "granular" | "atomic")
    }
}

fn text<'a>(m: &'a Map, key: &str) -> &'a str {
    m.get(key).and_then(Value::as_str).unwrap_or("")
}

fn flag(m: &Map, key: &str) -> bool {
    m.get(key) == Some(&Value::Bool(true))
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
