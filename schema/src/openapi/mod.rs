//! OpenAPI v2 and v3 documents to SMD schemas, as Kubernetes converts them.
//!
//! The reference is what the API server does for its built-in types: apimachinery's
//! `managedfields.NewTypeConverter(definitions, false)`, which calls kube-openapi's
//! `schemaconv.ToSchemaFromOpenAPI(definitions, false)` (apimachinery v0.37.2, kube-openapi
//! as it pins). The definitions are a v2 document's `definitions` (swagger.json) or a v3
//! document's `components.schemas` (one document per group-version, as the API server serves
//! `/openapi/v3/apis/GROUP/VERSION`). Every marker the reference reads is honoured, and only
//! those: `x-kubernetes-list-type` (atomic, set, map), `x-kubernetes-list-map-keys`,
//! `x-kubernetes-map-type` (atomic, granular), the `x-kubernetes-patch-strategy` /
//! `x-kubernetes-patch-merge-key` fallback, `x-kubernetes-preserve-unknown-fields`,
//! `format: int-or-string` (and every other string format but `byte`: an untyped scalar),
//! `$ref`, a single-element `allOf` around a `$ref`, `additionalProperties`, `nullable`,
//! `default`. The two common types `__untyped_atomic_` and `__untyped_deduced_` are added.
//!
//! Go builds its output from maps; smd's is canonical: types and the fields of each map
//! sorted by name.
//!
//! ```
//! use smd_schema::openapi::Document;
//!
//! let doc = Document::from_slice(br#"{"swagger": "2.0", "definitions": {
//!   "io.k8s.api.apps.v1.Deployment": {
//!     "type": "object",
//!     "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Deployment"}],
//!     "properties": {"spec": {"type": "object", "properties": {
//!       "replicas": {"type": "integer", "format": "int32"}}}}}}}"#)?;
//! let schema = doc.to_schema()?;
//! assert!(schema.find("io.k8s.api.apps.v1.Deployment").is_some());
//! assert_eq!(doc.gvk_index().lookup("apps/v1", "Deployment"), Some("io.k8s.api.apps.v1.Deployment"));
//!
//! // A list-map without keys: the error names the schema.
//! let bad = Document::from_slice(br#"{"swagger": "2.0", "definitions": {"t": {"type": "object",
//!   "properties": {"l": {"type": "array", "items": {"type": "object"}, "x-kubernetes-list-type": "map"}}}}}"#)?;
//! let err = bad.to_schema().unwrap_err();
//! assert_eq!(err.to_string(), "cannot convert the OpenAPI schemas: #/definitions/t/properties/l: missing map keys");
//! assert_eq!(err.go_message(), "inlined in t: missing map keys");
//! # Ok::<(), smd_schema::openapi::Error>(())
//! ```

mod convert;
mod error;
mod gofmt;
pub(crate) mod node;
mod reference;
mod spec;

pub use convert::{UNTYPED_ATOMIC, UNTYPED_DEDUCED};
pub use error::{Error, ErrorKind, Problem};

use crate::Schema;
use crate::gvk::GvkIndex;
use node::Node;
use spec::{Reader, SpecSchema};
use std::borrow::Cow;

/// A `Result` whose error is an OpenAPI [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Which OpenAPI a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Version {
    /// Swagger 2.0: the types are the `definitions`.
    V2,
    /// OpenAPI 3: the types are the `components.schemas`.
    V3,
}

/// The named schemas of an OpenAPI document, read as kube-openapi reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    version: Version,
    definitions: Vec<(String, SpecSchema)>,
}

impl Document {
    /// Reads a document in JSON (when its first non-blank byte is `{`) or YAML.
    ///
    /// The version is found from the top-level keys: `openapi` makes it v3, `swagger` v2;
    /// lacking both, `components` makes it v3 and `definitions` v2.
    pub fn from_slice(input: &[u8]) -> Result<Document> {
        let first = input.iter().find(|b| !b" \t\r\n".contains(b));
        if first == Some(&b'{') {
            return Document::from_json(input);
        }
        let text = std::str::from_utf8(input)
            .map_err(|e| Error::read("#", format!("the YAML text is not UTF-8: {e}")))?;
        Document::from_yaml(text)
    }

    /// Reads a JSON document as Go's strict reader does: duplicate member names, invalid
    /// UTF-8 and parts of the wrong JSON type are refused.
    pub fn from_json(input: &[u8]) -> Result<Document> {
        let node = Node::from_json(input).map_err(|e| Error::read("#", e.to_string()))?;
        Document::from_node(&node)
    }

    /// Reads a YAML document (YAML 1.1, as Kubernetes reads manifests), converted to JSON
    /// as `sigs.k8s.io/yaml` converts it for Go.
    pub fn from_yaml(text: &str) -> Result<Document> {
        let value = smd_value::yaml::from_str(text).map_err(|e| Error::read("#", e.to_string()))?;
        let node = Node::from_value(&value, 0).map_err(|e| Error::read("#", e))?;
        Document::from_node(&node)
    }

    fn from_node(node: &Node) -> Result<Document> {
        Document::from_node_with(node, false)
    }

    /// A v3 document built in memory from a CRD: defaults keep their integers.
    pub(crate) fn from_crd_node(node: &Node) -> Result<Document> {
        Document::from_node_with(node, true)
    }

    fn from_node_with(node: &Node, int_defaults: bool) -> Result<Document> {
        let Node::Obj(members) = node else {
            return Err(Error::read(
                "#",
                format!("expected an object, got a JSON {}", node.kind()),
            ));
        };
        let has = |k: &str| members.iter().any(|(m, _)| m == k);
        let get = |k: &str| members.iter().find(|(m, _)| m == k).map(|(_, v)| v);
        let version = if has("openapi") || (!has("swagger") && has("components")) {
            Version::V3
        } else if has("swagger") || has("definitions") {
            Version::V2
        } else {
            return Err(Error::read(
                "#",
                "neither an OpenAPI v2 document (swagger, definitions) nor a v3 one (openapi, components)",
            ));
        };
        let mut r = Reader::new();
        r.int_defaults = int_defaults;
        let types_key = match version {
            Version::V2 => "definitions",
            Version::V3 => "components",
        };
        check_top_level(version, members)?;
        let definitions = match (version, get(types_key)) {
            (_, None) => Vec::new(),
            (Version::V2, Some(defs)) => r.at("definitions", |r| r.schema_map(defs, true))?,
            (Version::V3, Some(Node::Null)) => Vec::new(),
            (Version::V3, Some(Node::Obj(parts))) => {
                match parts.iter().find(|(k, _)| k == "schemas") {
                    None => Vec::new(),
                    Some((_, schemas)) => r.at("components", |r| {
                        r.at("schemas", |r| r.schema_map(schemas, false))
                    })?,
                }
            }
            (Version::V3, Some(other)) => {
                return Err(Error::read(
                    "#/components",
                    format!("expected an object, got a JSON {}", other.kind()),
                ));
            }
        };
        Ok(Document {
            version,
            definitions,
        })
    }

    /// Which OpenAPI the document is.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The names of the definitions, in document order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.definitions.iter().map(|(n, _)| n.as_str())
    }

    /// One document holding the definitions of all: the v3 documents of one API server (one
    /// per group-version) make the schema of the whole server. A name defined in several
    /// documents must be defined alike, except for its `x-kubernetes-group-version-kind`
    /// list (the server lists, in each group's document, the kinds of that group that use a
    /// shared type such as `DeleteOptions`): the union lists them all.
    pub fn merge(documents: impl IntoIterator<Item = Document>) -> Result<Document> {
        let mut version = None;
        let mut out: Vec<(String, SpecSchema)> = Vec::new();
        let mut index = std::collections::HashMap::new();
        for doc in documents {
            version.get_or_insert(doc.version);
            for (name, s) in doc.definitions {
                match index.get(&name).and_then(|&i: &usize| out.get_mut(i)) {
                    None => {
                        index.insert(name.clone(), out.len());
                        out.push((name, s));
                    }
                    Some((_, prev)) => merge_definition(&name, prev, s)?,
                }
            }
        }
        Ok(Document {
            version: version.unwrap_or(Version::V3),
            definitions: out,
        })
    }

    /// The SMD schema of the definitions: `schemaconv.ToSchemaFromOpenAPI(definitions, false)`,
    /// canonically ordered. Every problem is reported, each with its JSON pointer and Go's text.
    pub fn to_schema(&self) -> Result<Schema> {
        let base: &[&str] = match self.version {
            Version::V2 => &["definitions"],
            Version::V3 => &["components", "schemas"],
        };
        convert::to_schema(&self.definitions, base)
    }

    /// The group/version/kind index of the definitions, from their
    /// `x-kubernetes-group-version-kind`, as the API server's type converter builds it.
    pub fn gvk_index(&self) -> GvkIndex {
        GvkIndex::from_extensions(
            self.definitions
                .iter()
                .filter_map(|(n, s)| Some((n.as_str(), s.extensions.group_version_kind.as_ref()?))),
        )
    }
}

/// The JSON kind of each top-level part Go's document structs declare (only the shape at the
/// top: the parts smd does not read are not checked further).
fn check_top_level(version: Version, members: &[(Cow<'_, str>, Node<'_>)]) -> Result<()> {
    for (key, value) in members {
        let expected = match (version, key.as_ref()) {
            (Version::V2, "swagger" | "host" | "basePath" | "id") | (Version::V3, "openapi") => {
                "string"
            }
            (Version::V2, "consumes" | "produces" | "schemes" | "security" | "tags")
            | (Version::V3, "servers" | "security") => "array",
            (Version::V2, "info" | "paths" | "definitions" | "parameters" | "responses")
            | (Version::V2, "securityDefinitions" | "externalDocs")
            | (Version::V3, "info" | "paths" | "components" | "externalDocs") => "object",
            _ => continue,
        };
        if !matches!(
            (expected, value),
            (_, Node::Null)
                | ("string", Node::Str(_))
                | ("array", Node::Arr(_))
                | ("object", Node::Obj(_))
        ) {
            return Err(Error::read(
                spec::pointer(std::slice::from_ref(key)),
                format!(
                    "expected {} {expected}, got a JSON {}",
                    if expected == "array" { "an" } else { "a" },
                    value.kind()
                ),
            ));
        }
    }
    Ok(())
}

fn merge_definition(name: &str, prev: &mut SpecSchema, next: SpecSchema) -> Result<()> {
    let strip = |s: &SpecSchema| {
        let mut s = s.clone();
        s.extensions.group_version_kind = None;
        s
    };
    if strip(prev) != strip(&next) {
        return Err(Error::merge(
            spec::pointer(&[name.to_owned()]),
            "defined differently in two documents",
        ));
    }
    use smd_value::Value;
    let mut list = match prev.extensions.group_version_kind.take() {
        Some(Value::List(l)) => l,
        _ => Vec::new(),
    };
    if let Some(Value::List(more)) = next.extensions.group_version_kind {
        for g in more {
            if !list.contains(&g) {
                list.push(g);
            }
        }
    }
    if !list.is_empty() {
        prev.extensions.group_version_kind = Some(Value::List(list));
    }
    Ok(())
}
