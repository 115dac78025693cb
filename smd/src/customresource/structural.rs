//! The structural schema of one version of a CRD, as far as pruning and defaulting read it
//! (apiextensions-apiserver v0.37.2 `pkg/apiserver/schema`: `NewStructural`, then
//! `defaulting.PruneDefaults` when the CRD is served).

use smd_fieldpath::{Map, Value};

/// One node of a structural schema: the parts that say which fields exist
/// (`properties`, `items`, `additionalProperties`) and the ones pruning and defaulting obey.
/// Validation-only parts (`enum`, `pattern`, `anyOf`, ...) are not kept: they never declare a
/// field in a structural schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Structural {
    /// `properties`, in the schema's order.
    pub(crate) properties: Vec<(String, Structural)>,
    /// `items`.
    pub(crate) items: Option<Box<Structural>>,
    /// `additionalProperties`: `Some(None)` for the boolean form (a map whose values have no
    /// schema), `Some(Some(_))` for a schema.
    pub(crate) additional: Option<Option<Box<Structural>>>,
    /// `default` (never `null`: a `null` default is no default).
    pub(crate) default: Option<Value>,
    /// `nullable`.
    pub(crate) nullable: bool,
    /// `x-kubernetes-preserve-unknown-fields`.
    pub(crate) preserve_unknown: bool,
    /// `x-kubernetes-embedded-resource`.
    pub(crate) embedded: bool,
}

impl Structural {
    /// The structural schema of `version` of `crd` (an `apiextensions.k8s.io/v1`
    /// `CustomResourceDefinition`), its defaults pruned as the server prunes them before it
    /// serves the version; `None` when the version has no schema (then every field but the
    /// type and metadata is unknown).
    pub fn of_version(crd: &Value, version: &str) -> Option<Structural> {
        let versions = get(crd, &["spec", "versions"]).and_then(Value::as_list)?;
        let served = versions
            .iter()
            .find(|v| get(v, &["name"]).and_then(Value::as_str) == Some(version))?;
        let schema = get(served, &["schema", "openAPIV3Schema"]).filter(|s| !s.is_null())?;
        let mut structural = Structural::from_schema(schema, 0);
        super::pruning::prune_defaults(&mut structural);
        Some(structural)
    }

    /// A JSON schema (already accepted by the CRD checks) read as a structural node. Deeper
    /// than the readers' nesting limit nothing is read (no schema gets there).
    fn from_schema(schema: &Value, depth: usize) -> Structural {
        let mut out = Structural::default();
        let Some(map) = schema.as_map() else {
            return out;
        };
        if depth >= smd_fieldpath::MAX_DEPTH {
            return out;
        }
        let flag = |key: &str| map.get(key) == Some(&Value::Bool(true));
        out.nullable = flag("nullable");
        out.preserve_unknown = flag("x-kubernetes-preserve-unknown-fields");
        out.embedded = flag("x-kubernetes-embedded-resource");
        out.default = map.get("default").filter(|d| !d.is_null()).cloned();
        if let Some(props) = map.get("properties").and_then(Value::as_map) {
            out.properties = props
                .iter()
                .map(|(k, v)| (k.to_owned(), Structural::from_schema(v, depth + 1)))
                .collect();
        }
        if let Some(items) = map.get("items").filter(|i| i.as_map().is_some()) {
            out.items = Some(Box::new(Structural::from_schema(items, depth + 1)));
        }
        out.additional = match map.get("additionalProperties") {
            Some(Value::Bool(_)) => Some(None),
            Some(v @ Value::Map(_)) => Some(Some(Box::new(Structural::from_schema(v, depth + 1)))),
            _ => None,
        };
        out
    }

    /// The schema of the property `name`.
    pub(crate) fn property(&self, name: &str) -> Option<&Structural> {
        self.properties
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, s)| s)
    }

    /// The schema a map member `name` is read with: its property's, else the map values'
    /// (`None` both for "no such field" and "values without a schema"; see
    /// [`Structural::member`] where the two differ).
    pub(crate) fn field(&self, name: &str) -> Option<&Structural> {
        self.property(name)
            .or_else(|| self.additional.as_ref().and_then(|a| a.as_deref()))
    }

    /// How a map member `name` is declared: by a property, by `additionalProperties` (with
    /// its schema, if any), or not at all.
    pub(crate) fn member(&self, name: &str) -> Member<'_> {
        match (self.property(name), &self.additional) {
            (Some(p), _) => Member::Declared(Some(p)),
            (None, Some(a)) => Member::Declared(a.as_deref()),
            (None, None) => Member::Unknown,
        }
    }
}

/// A map member as a schema declares it.
pub(crate) enum Member<'a> {
    /// Declared, with its schema (`None`: a map value of the boolean `additionalProperties`).
    Declared(Option<&'a Structural>),
    /// Not declared: pruned.
    Unknown,
}

fn get<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut at = value;
    for key in path {
        at = at.as_map()?.get(key)?;
    }
    Some(at)
}

/// A map's keys sorted, recursively (Go writes a map's JSON so, and reads it back in that
/// order).
pub(crate) fn sorted(value: &Value) -> Value {
    match value {
        Value::Map(m) => {
            let mut keys: Vec<(&str, &Value)> = m.iter().collect();
            keys.sort_by(|a, b| a.0.cmp(b.0));
            let mut out = Map::with_capacity(keys.len());
            for (k, v) in keys {
                out.insert(k, sorted(v));
            }
            Value::Map(out)
        }
        Value::List(l) => Value::List(l.iter().map(sorted).collect()),
        other => other.clone(),
    }
}
