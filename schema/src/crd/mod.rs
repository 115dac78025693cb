//! CustomResourceDefinitions → SMD schema, as the API server builds the schema of its field
//! manager for custom resources (`k8s.io/apiextensions-apiserver` v0.37.2,
//! `customresource_handler.go`: `buildOpenAPIModelsForApply`, then
//! `managedfields.NewTypeConverter`).
//!
//! For every version of a `apiextensions.k8s.io/v1` CRD the API server's builder
//! (`builder.BuildOpenAPIV3`) turns the structural schema into an OpenAPI v3 definition named
//! after the reversed group, the version and the kind (`com.example.v1.Widget`): only what a
//! structural schema holds survives (`type`, `format`, `properties`, `items`,
//! `additionalProperties`, `default`, `nullable` and the `x-kubernetes-*` markers), `metadata`
//! becomes a reference to `ObjectMeta`, `apiVersion` and `kind` are added, and so are they in
//! every object marked `x-kubernetes-embedded-resource`. These definitions, with the built-in
//! `ObjectMeta` (from the embedded
//! Kubernetes 1.37 schema), are converted as [`crate::openapi`] converts any document.
//!
//! The result holds the types reachable from the CRD's kinds, sorted by name, and the
//! group/version/kind index of those kinds. The builder also defines a list type
//! (`com.example.v1.WidgetList`), but its `x-kubernetes-group-version-kind` is a
//! `[]map[string]string` in memory, which the type converter's index does not recognise (it
//! reads `[]interface{}`), so no list kind is indexed and nothing refers to the list type: smd
//! leaves it out.
//!
//! A CRD whose schemas the API server would refuse (an object field without a `type`, list-map
//! keys that are not item properties, ...) is refused with Go's field errors, each with the JSON
//! pointer of the schema at fault ([`Error::invalid`]); see `validate.rs` for what is checked.
//! So is one whose versions it would refuse (none or two storage versions, duplicate or
//! non-DNS-1035 names, a storage version missing from `status.storedVersions`). The rest of the
//! API server's validation (names, group, scope, CEL rules) is not done.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;

use smd_value::{Map, Value};

use crate::gvk::GroupVersionKind;
use crate::openapi::Document;
use crate::openapi::node::Node;
use crate::{Atom, Schema, TypeDef, TypeRef};

mod cost;
mod internal;
mod rules;
mod validate;
pub use rules::normalize_rule_field_path;
pub use validate::FieldError;

/// How deep a CRD schema may nest, in schemas (`properties`, `items`, `additionalProperties`
/// each go one level down): the readers' one nesting limit, [`smd_value::MAX_DEPTH`]. A
/// schema level is at least one map of the document, so a CRD read from YAML or JSON meets the
/// reader's limit first (which says it is smd's); a value built in memory may reach this one,
/// refused with the same words. The API server has no such limit.
const MAX_DEPTH: usize = smd_value::MAX_DEPTH;

const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// A CRD smd cannot convert, with the JSON pointer of the part at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pointer: String,
    message: String,
    name: String,
    invalid: Vec<FieldError>,
}

impl Error {
    fn new(pointer: impl Into<String>, message: impl Into<String>) -> Error {
        Error {
            pointer: pointer.into(),
            message: message.into(),
            name: String::new(),
            invalid: Vec::new(),
        }
    }

    /// The API server would refuse the CRD: each problem with Go's text and its pointer.
    /// Empty for a CRD smd cannot read at all.
    pub fn invalid(&self) -> &[FieldError] {
        &self.invalid
    }

    /// `metadata.name` of the CRD, when it was read.
    pub fn crd_name(&self) -> &str {
        &self.name
    }

    /// The JSON pointer (as a URI fragment, `#/spec/versions/0/schema`) of the part at fault.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

impl std::error::Error for Error {}

/// The schema of one CRD's custom resources.
#[derive(Debug, Clone)]
pub struct Converted {
    /// `metadata.name` of the CRD.
    pub name: String,
    /// The types reachable from the CRD's kinds (its kind in every version, `ObjectMeta` and
    /// what they use), sorted by name.
    pub schema: Schema,
    /// Group/version/kind → type name, sorted.
    pub index: Vec<(GroupVersionKind, String)>,
}

/// Converts every CRD of a YAML (or JSON) stream of documents; empty documents are skipped.
pub fn convert_stream(text: &str) -> Result<Vec<Result<Converted, Error>>, Error> {
    let docs = smd_value::yaml::documents(text).map_err(|e| Error::new("#", e.to_string()))?;
    Ok(docs
        .iter()
        .filter(|d| !matches!(d, Value::Null))
        .map(convert)
        .collect())
}

/// Converts one CRD, given as a value (an `apiextensions.k8s.io/v1` `CustomResourceDefinition`).
pub fn convert(crd: &Value) -> Result<Converted, Error> {
    let top = as_map(crd, "#")?;
    let api_version = opt_str(top, "apiVersion", "#")?.unwrap_or_default();
    let kind = opt_str(top, "kind", "#")?.unwrap_or_default();
    if api_version != "apiextensions.k8s.io/v1" || kind != "CustomResourceDefinition" {
        return Err(Error::new(
            "#",
            format!(
                "not an apiextensions.k8s.io/v1 CustomResourceDefinition (apiVersion {api_version:?}, kind {kind:?})"
            ),
        ));
    }
    let name = match top.get("metadata") {
        Some(m) => opt_str(as_map(m, "#/metadata")?, "name", "#/metadata")?.unwrap_or_default(),
        None => String::new(),
    };
    let spec = as_map(need(top, "spec", "#")?, "#/spec")?;
    let group = opt_str(spec, "group", "#/spec")?.unwrap_or_default();
    let names = as_map(need(spec, "names", "#/spec")?, "#/spec/names")?;
    let kind = opt_str(names, "kind", "#/spec/names")?.unwrap_or_default();
    if let Some(Value::Bool(true)) = spec.get("preserveUnknownFields") {
        return Err(Error::new(
            "#/spec/preserveUnknownFields",
            "must be false in apiextensions.k8s.io/v1",
        ));
    }
    let versions: &[Value] = match spec.get("versions") {
        Some(Value::List(l)) => l,
        None | Some(Value::Null) => &[],
        Some(_) => return Err(Error::new("#/spec/versions", "expected a list")),
    };

    // The API server validates the internal version, which holds one shared schema in
    // `spec.validation` when every version has the same one.
    let mut invalid = Vec::new();
    let first = versions.first().and_then(version_schema);
    let shared = versions.iter().all(|v| version_schema(v) == first);
    let stored = top
        .get("status")
        .and_then(Value::as_map)
        .and_then(|s| s.get("storedVersions"));
    validate::versions(versions, stored, &mut invalid);
    for (i, v) in versions.iter().enumerate() {
        let Some(schema) = version_schema(v) else {
            continue;
        };
        let pointer = format!("#/spec/versions/{i}/schema/openAPIV3Schema");
        let path = match shared {
            true => "spec.validation.openAPIV3Schema".to_owned(),
            false => format!("spec.versions[{i}].schema.openAPIV3Schema"),
        };
        let before = invalid.len();
        validate::validate(schema, &path, &pointer, &mut invalid);
        // The server compiles rules only where the schema itself is valid.
        if invalid.len() == before {
            rules::validate(schema, &path, &pointer, &mut invalid);
        }
        if shared {
            break;
        }
    }
    if !invalid.is_empty() {
        invalid.sort_by(|a, b| a.go_text.cmp(&b.go_text));
        let first = &invalid[0];
        return Err(Error {
            pointer: first.pointer.clone(),
            message: format!("the API server refuses this CRD: {}", first.go_text),
            name,
            invalid,
        });
    }

    let mut schemas: Vec<(String, Node<'_>)> = Vec::new();
    let mut index = Vec::new();
    for (i, v) in versions.iter().enumerate() {
        let at = format!("#/spec/versions/{i}");
        let v = as_map(v, &at)?;
        let version = opt_str(v, "name", &at)?.unwrap_or_default();
        let schema = match v.get("schema") {
            Some(Value::Map(s)) => s.get("openAPIV3Schema"),
            Some(Value::Null) | None => None,
            Some(_) => return Err(Error::new(format!("{at}/schema"), "expected an object")),
        };
        let at = format!("{at}/schema/openAPIV3Schema");
        let type_name = model_name(&group, &version, &kind);
        let mut root = match schema {
            None | Some(Value::Null) => obj(vec![("type", Node::Str("object".into()))]),
            Some(s) => {
                let mut root = structural(s, &at, 0).map_err(|e| *e)?;
                set_property(&mut root, "metadata", reference(OBJECT_META));
                set_property(&mut root, "apiVersion", string_type());
                set_property(&mut root, "kind", string_type());
                add_embedded_properties(&mut root, 0);
                root
            }
        };
        set_member(
            &mut root,
            "x-kubernetes-group-version-kind",
            gvk_node(&group, &version, &kind),
        );
        index.push((
            GroupVersionKind::new(&group, &version, &kind),
            type_name.clone(),
        ));
        schemas.push((type_name, root));
    }

    let doc = obj(vec![
        ("openapi", Node::Str("3.0.0".into())),
        (
            "components",
            obj(vec![(
                "schemas",
                Node::Obj(
                    schemas
                        .into_iter()
                        .map(|(k, v)| (Cow::Owned(k), v))
                        .collect(),
                ),
            )]),
        ),
    ]);
    let converted = Document::from_crd_node(&doc)
        .and_then(|d| d.to_schema())
        .map_err(|e| Error::new("#/spec/versions", e.to_string()))?;

    // The static spec: the built-in types the definitions refer to.
    let mut types: Vec<TypeDef> = converted.types().to_vec();
    let mut have: HashSet<String> = types.iter().map(|t| t.name().to_owned()).collect();
    for t in crate::kubernetes::v1_37().types() {
        if !have.contains(t.name()) {
            have.insert(t.name().to_owned());
            types.push(t.clone());
        }
    }
    index.sort();
    index.dedup_by(|a, b| a.0 == b.0);
    let roots: Vec<&str> = index.iter().map(|(_, t)| t.as_str()).collect();
    let kept = reachable(&types, &roots);
    let mut types: Vec<TypeDef> = types
        .into_iter()
        .enumerate()
        .filter(|(i, _)| kept.contains(i))
        .map(|(_, t)| t)
        .collect();
    // Stable: a definition named like a common type stays before it, as in Go.
    types.sort_by(|a, b| a.name().cmp(b.name()));
    Ok(Converted {
        name,
        schema: Schema::new(types),
        index,
    })
}

fn version_schema(v: &Value) -> Option<&Value> {
    match v {
        Value::Map(m) => match m.get("schema") {
            Some(Value::Map(s)) => s
                .get("openAPIV3Schema")
                .filter(|s| !matches!(s, Value::Null)),
            _ => None,
        },
        _ => None,
    }
}

/// `gvkToModelName`: the group reversed, then the version and the kind.
fn model_name(group: &str, version: &str, kind: &str) -> String {
    let mut parts: Vec<&str> = group.split('.').collect();
    parts.reverse();
    format!("{}.{version}.{kind}", parts.join("."))
}

/// The indices of the types reachable from `roots` (the first type of each name).
fn reachable(types: &[TypeDef], roots: &[&str]) -> HashSet<usize> {
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, t) in types.iter().enumerate() {
        by_name.entry(t.name()).or_insert(i);
    }
    let mut seen_names: HashSet<&str> = HashSet::new();
    let mut stack: Vec<&str> = roots.to_vec();
    let mut refs: Vec<&str> = Vec::new();
    while let Some(n) = stack.pop() {
        if !seen_names.insert(n) {
            continue;
        }
        if let Some(&i) = by_name.get(n) {
            refs.clear();
            atom_refs(types[i].atom(), &mut refs, 0);
            stack.extend(refs.iter().copied());
        }
    }
    let names: HashSet<&str> = seen_names;
    types
        .iter()
        .enumerate()
        .filter(|(_, t)| names.contains(t.name()))
        .map(|(i, _)| i)
        .collect()
}

fn atom_refs<'a>(a: &'a Atom, out: &mut Vec<&'a str>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(l) = a.as_list() {
        ref_refs(l.element_type(), out, depth + 1);
    }
    if let Some(m) = a.as_map() {
        for f in m.fields() {
            ref_refs(f.type_ref(), out, depth + 1);
        }
        if let Some(e) = m.element_type() {
            ref_refs(e, out, depth + 1);
        }
    }
}

fn ref_refs<'a>(tr: &'a TypeRef, out: &mut Vec<&'a str>, depth: usize) {
    if let Some(n) = tr.named_type() {
        out.push(n);
    }
    atom_refs(tr.inlined_atom(), out, depth);
}

/// The parts of a CRD schema that a structural schema keeps and that its OpenAPI form
/// (`Structural.ToKubeOpenAPI`) carries to schemaconv.
///
/// Schemas nest as deep as the document, so this recursion keeps a small frame, unoptimised
/// builds included: the members that hold no schema are read out of line, in
/// [`structural_leaf`].
///
/// Errors are boxed: every `?` on the way down reserves room for one.
fn structural<'a>(v: &'a Value, at: &str, depth: usize) -> Result<Node<'a>, Box<Error>> {
    if depth >= MAX_DEPTH {
        return Err(Box::new(Error::new(
            at,
            format!(
                "schemas nest deeper than {MAX_DEPTH} levels (smd's limit, not the API \
                 server's)"
            ),
        )));
    }
    let Value::Map(m) = v else {
        return Err(Box::new(Error::new(at, "expected an object")));
    };
    let mut out: Vec<(Cow<'a, str>, Node<'a>)> = Vec::new();
    for (k, val) in m.iter() {
        let here = format!("{at}/{}", escape(k));
        let node = match (k, val) {
            ("properties", Value::Map(props)) => Some(structural_properties(props, &here, depth)?),
            ("items" | "additionalProperties", Value::Map(_)) => {
                Some(structural(val, &here, depth + 1)?)
            }
            _ => structural_leaf(k, val, &here)?,
        };
        if let Some(node) = node {
            out.push((Cow::Borrowed(k), node));
        }
    }
    Ok(Node::Obj(out))
}

#[inline(never)]
fn structural_properties<'a>(
    props: &'a Map,
    here: &str,
    depth: usize,
) -> Result<Node<'a>, Box<Error>> {
    let mut ps = Vec::with_capacity(props.len());
    for (name, p) in props.iter() {
        let there = format!("{here}/{}", escape(name));
        ps.push((Cow::Borrowed(name), structural(p, &there, depth + 1)?));
    }
    Ok(Node::Obj(ps))
}

/// A member of a CRD schema that holds no schema, as [`structural`] keeps it (`None`: dropped).
#[inline(never)]
fn structural_leaf<'a>(
    k: &str,
    val: &'a Value,
    here: &str,
) -> Result<Option<Node<'a>>, Box<Error>> {
    leaf_member(k, val, here).map_err(Box::new)
}

fn leaf_member<'a>(k: &str, val: &'a Value, here: &str) -> Result<Option<Node<'a>>, Error> {
    Ok(match k {
        "type" | "format" => match val {
            Value::String(s) if !s.is_empty() => Some(Node::Str(Cow::Borrowed(s))),
            Value::String(_) | Value::Null => None,
            _ => return Err(Error::new(here, "expected a string")),
        },
        "nullable"
        | "x-kubernetes-preserve-unknown-fields"
        | "x-kubernetes-embedded-resource"
        | "x-kubernetes-int-or-string" => match val {
            Value::Bool(true) => Some(Node::Bool(true)),
            Value::Bool(false) | Value::Null => None,
            _ => return Err(Error::new(here, "expected a boolean")),
        },
        "x-kubernetes-list-type" | "x-kubernetes-map-type" => match val {
            Value::String(s) => Some(Node::Str(Cow::Borrowed(s))),
            Value::Null => None,
            _ => return Err(Error::new(here, "expected a string")),
        },
        "x-kubernetes-list-map-keys" => match val {
            Value::List(l) if !l.is_empty() => {
                let mut keys = Vec::with_capacity(l.len());
                for (i, key) in l.iter().enumerate() {
                    match key {
                        Value::String(s) => keys.push(Node::Str(Cow::Borrowed(s))),
                        _ => {
                            return Err(Error::new(format!("{here}/{i}"), "expected a string"));
                        }
                    }
                }
                Some(Node::Arr(keys))
            }
            Value::List(_) | Value::Null => None,
            _ => return Err(Error::new(here, "expected a list")),
        },
        "default" if !matches!(val, Value::Null) => {
            Some(Node::from_value(val, 0).map_err(|e| Error::new(here, e))?)
        }
        // A map was read by `structural`.
        "properties" => match val {
            Value::Null => None,
            _ => return Err(Error::new(here, "expected an object")),
        },
        "items" => match val {
            Value::Null => None,
            _ => return Err(Error::new(here, "items must be a schema (an object)")),
        },
        "additionalProperties" => match val {
            Value::Bool(b) => Some(Node::Bool(*b)),
            Value::Null => None,
            _ => return Err(Error::new(here, "expected a boolean or a schema")),
        },
        // Validation only (enum, pattern, anyOf, x-kubernetes-validations, ...):
        // schemaconv reads none of them from a CRD (it has no `$ref`).
        _ => None,
    })
}

/// `addEmbeddedProperties`: objects marked `x-kubernetes-embedded-resource` get `apiVersion`,
/// `kind` and `metadata`.
fn add_embedded_properties(n: &mut Node<'_>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Node::Obj(members) = n else { return };
    for (k, v) in members.iter_mut() {
        match k.as_ref() {
            "properties" => {
                if let Node::Obj(props) = v {
                    for (_, p) in props.iter_mut() {
                        add_embedded_properties(p, depth + 1);
                    }
                }
            }
            "items" | "additionalProperties" => add_embedded_properties(v, depth + 1),
            _ => {}
        }
    }
    let embedded = members
        .iter()
        .any(|(k, v)| k == "x-kubernetes-embedded-resource" && *v == Node::Bool(true));
    if embedded {
        set_property(n, "apiVersion", string_type());
        set_property(n, "kind", string_type());
        set_property(n, "metadata", reference(OBJECT_META));
    }
}

fn obj<'a>(members: Vec<(&'a str, Node<'a>)>) -> Node<'a> {
    Node::Obj(
        members
            .into_iter()
            .map(|(k, v)| (Cow::Borrowed(k), v))
            .collect(),
    )
}

fn string_type() -> Node<'static> {
    obj(vec![("type", Node::Str("string".into()))])
}

fn reference(name: &str) -> Node<'static> {
    obj(vec![(
        "$ref",
        Node::Str(Cow::Owned(format!("#/components/schemas/{name}"))),
    )])
}

fn gvk_node(group: &str, version: &str, kind: &str) -> Node<'static> {
    Node::Arr(vec![obj(vec![
        ("group", Node::Str(Cow::Owned(group.to_owned()))),
        ("kind", Node::Str(Cow::Owned(kind.to_owned()))),
        ("version", Node::Str(Cow::Owned(version.to_owned()))),
    ])])
}

fn set_member<'a>(n: &mut Node<'a>, key: &str, value: Node<'a>) {
    if let Node::Obj(members) = n {
        match members.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value,
            None => members.push((Cow::Owned(key.to_owned()), value)),
        }
    }
}

fn set_property<'a>(n: &mut Node<'a>, name: &str, value: Node<'a>) {
    let Node::Obj(members) = n else { return };
    if !members.iter().any(|(k, _)| k == "properties") {
        members.push((Cow::Borrowed("properties"), Node::Obj(Vec::new())));
    }
    if let Some((_, props)) = members.iter_mut().find(|(k, _)| k == "properties") {
        if !matches!(props, Node::Obj(_)) {
            *props = Node::Obj(Vec::new());
        }
        set_member(props, name, value);
    }
}

/// A JSON pointer token: `~` as `~0`, `/` as `~1`.
fn escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

fn as_map<'a>(v: &'a Value, at: &str) -> Result<&'a Map, Error> {
    match v {
        Value::Map(m) => Ok(m),
        _ => Err(Error::new(at, "expected an object")),
    }
}

fn need<'a>(m: &'a Map, key: &str, at: &str) -> Result<&'a Value, Error> {
    m.get(key)
        .ok_or_else(|| Error::new(at, format!("{key} is required")))
}

fn opt_str(m: &Map, key: &str, at: &str) -> Result<Option<String>, Error> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(Error::new(
            format!("{at}/{}", escape(key)),
            "expected a string",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              l:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object, properties: {other: {type: string}}}
";

    #[test]
    fn refused_crds_name_go_path_and_json_pointer() {
        let Ok(results) = convert_stream(CRD) else {
            panic!("the stream reads")
        };
        let Some(Err(e)) = results.first() else {
            panic!("the CRD is refused")
        };
        assert_eq!(e.crd_name(), "widgets.example.com");
        assert_eq!(
            e.invalid()[0].go_text,
            "spec.validation.openAPIV3Schema.properties[spec].properties[l].x-kubernetes-list-map-keys: \
             Invalid value: [\"name\"]: entries must all be names of item properties"
        );
        assert_eq!(
            e.pointer(),
            "#/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/l"
        );
    }

    #[test]
    fn defaults_of_the_roots_metadata_and_of_metadata_maps_are_refused() {
        let text = CRD
            .replace("[name]", "[other]")
            .replace(
                "properties: {other",
                "required: [other], properties: {other",
            )
            .replace(
                "          spec:\n",
                "          kind: {type: string, default: W}
          spec:
            type: object
            properties:
              e:
                type: object
                x-kubernetes-embedded-resource: true
                properties:
                  metadata:
                    type: object
                    properties:
                      labels: {type: object, additionalProperties: {type: string, default: v}}
                      name: {type: string, default: a}
          other:\n",
            );
        let Ok(results) = convert_stream(&text) else {
            panic!("the stream reads")
        };
        let Some(Err(e)) = results.first() else {
            panic!("the CRD is refused")
        };
        let texts: Vec<&str> = e.invalid().iter().map(|f| f.go_text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "spec.validation.openAPIV3Schema.properties[kind].default: Forbidden: must not be set in top-level kind",
                "spec.validation.openAPIV3Schema.properties[spec].properties[e].properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata",
            ]
        );
    }

    #[test]
    fn a_valid_crd_indexes_its_kind() {
        let text = CRD.replace("[name]", "[other]").replace(
            "properties: {other",
            "required: [other], properties: {other",
        );
        let Ok(results) = convert_stream(&text) else {
            panic!("the stream reads")
        };
        let Some(Ok(c)) = results.first() else {
            panic!("the CRD converts")
        };
        assert_eq!(c.index.len(), 1);
        assert_eq!(c.index[0].1, "com.example.v1.Widget");
        assert!(
            c.schema
                .find_named_type("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
                .is_some()
        );
    }
}
