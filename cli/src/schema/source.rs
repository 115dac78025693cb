//! What a schema input is: an OpenAPI v2 or v3 document, SMD schema YAML, or CRDs — found from
//! the document itself, never from the file name.
//!
//! The OpenAPI reader runs first (it is the common case and reads large specs in one pass).
//! Only when it refuses the document as a whole is the text read again as plain YAML/JSON to
//! see whether it is something else.

use crate::Failure;
use crate::input::Input;
use smd::fieldpath::Value;
use smd_schema::Schema;
use smd_schema::gvk::{GroupVersionKind, GvkIndex};
use smd_schema::openapi::{Document, ErrorKind};

/// A schema input, recognized.
#[derive(Debug)]
pub(crate) enum Source {
    /// An OpenAPI v2 (`swagger`, `definitions`) or v3 (`openapi`, `components`) document.
    OpenApi(Document),
    /// SMD's own schema format (a top-level `types` list), in YAML or JSON, and the GVK index
    /// `smd schema convert` writes after it as a second document (empty when there is none).
    Smd(Schema, GvkIndex),
    /// One or more `CustomResourceDefinition` documents (a multi-document YAML stream may hold
    /// several, and so may a `List` as `kubectl get crd -o yaml` prints them).
    Crds(Vec<Value>),
}

impl Source {
    /// Recognizes and reads `input`.
    pub(crate) fn read(input: &Input) -> Result<Source, Failure> {
        let openapi_error = match Document::from_slice(&input.bytes) {
            Ok(doc) => return Ok(Source::OpenApi(doc)),
            Err(e) => e,
        };
        // A problem inside the document is an OpenAPI problem; only a refusal of the
        // document as a whole ("#") may mean it is another format.
        let whole = openapi_error.kind() == ErrorKind::Read
            && openapi_error.problems().iter().all(|p| p.pointer() == "#");
        if whole {
            if let Ok(documents) = read_tree(&input.bytes) {
                if let [Value::Map(m), rest @ ..] = documents.as_slice() {
                    if m.contains_key("types") && rest.len() <= 1 {
                        // The schema reader takes a YAML stream's first document; a JSON stream
                        // of two values (`-o json` with its index) is no YAML document, so its
                        // first value is given alone, still as JSON.
                        let whole = String::from_utf8_lossy(&input.bytes);
                        let json_stream = !rest.is_empty() && whole.trim_start().starts_with('{');
                        let text = if json_stream {
                            serde_json::to_string(&Value::Map(m.clone()))
                                .map_err(|e| Failure::new(format!("{}: {e}", input.name)))?
                        } else {
                            whole.into_owned()
                        };
                        let schema = Schema::from_yaml(&text)
                            .map_err(|e| Failure::new(format!("{}: {e}", input.name)))?;
                        let index = match rest.first() {
                            None => GvkIndex::default(),
                            Some(index) => read_index(index)
                                .map_err(|e| Failure::new(format!("{}: {e}", input.name)))?,
                        };
                        return Ok(Source::Smd(schema, index));
                    }
                }
                let items = unpack_lists(documents);
                if !items.is_empty() && items.iter().all(is_crd) {
                    return Ok(Source::Crds(items));
                }
            }
        }
        Err(Failure::new(format!("{}: {openapi_error}", input.name)))
    }

    /// The schema and its group/version/kind index.
    pub(crate) fn into_schema(self, name: &str) -> Result<(Schema, GvkIndex), Failure> {
        match self {
            Source::OpenApi(doc) => {
                let schema = doc
                    .to_schema()
                    .map_err(|e| Failure::new(format!("{name}: {e}")))?;
                Ok((schema, doc.gvk_index()))
            }
            Source::Smd(schema, index) => Ok((schema, index)),
            Source::Crds(crds) => {
                let parts = convert_crds(name, &crds)?;
                union(parts)
            }
        }
    }
}

/// Whether a document is a `CustomResourceDefinition`.
pub(crate) fn is_crd(document: &Value) -> bool {
    document
        .as_map()
        .and_then(|m| m.get("kind"))
        .and_then(Value::as_str)
        == Some("CustomResourceDefinition")
}

/// The key of the document `smd schema convert` writes after the types: the GVK index, a list
/// of `{group, version, kind, type}` (a second document, so that Go's schema reader, which
/// reads the first document only and refuses undeclared keys, still reads the file).
pub(crate) const INDEX_KEY: &str = "gvkIndex";

/// The GVK index document as `smd schema convert` writes it: `gvkIndex:` and one entry per
/// apiVersion/kind, in the index's order.
pub(crate) fn index_document(index: &GvkIndex) -> Value {
    let entries: Vec<Value> = index
        .entries()
        .into_iter()
        .map(|(gvk, ty)| {
            let mut entry = smd::fieldpath::Map::new();
            entry.insert("group", Value::from(gvk.group.as_str()));
            entry.insert("version", Value::from(gvk.version.as_str()));
            entry.insert("kind", Value::from(gvk.kind.as_str()));
            entry.insert("type", Value::from(ty));
            Value::Map(entry)
        })
        .collect();
    let mut document = smd::fieldpath::Map::new();
    document.insert(INDEX_KEY, Value::List(entries));
    Value::Map(document)
}

/// Reads the document [`index_document`] writes; anything else in its place is refused.
fn read_index(document: &Value) -> Result<GvkIndex, String> {
    let expected = || {
        format!(
            "document 2: expected the GVK index `smd schema convert` writes ({INDEX_KEY}: a list of \
             {{group, version, kind, type}})"
        )
    };
    let Some(map) = document.as_map().filter(|m| m.len() == 1) else {
        return Err(expected());
    };
    let Some(items) = map.get(INDEX_KEY).and_then(Value::as_list) else {
        return Err(expected());
    };
    let mut entries = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let field = |name: &str| {
            item.as_map()
                .and_then(|m| m.get(name))
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| format!("document 2: {INDEX_KEY}[{i}]: {name} must be a string"))
        };
        let gvk = GroupVersionKind::new(field("group")?, field("version")?, field("kind")?);
        let ty = field("type")?;
        if item.as_map().is_some_and(|m| m.len() != 4) {
            return Err(format!(
                "document 2: {INDEX_KEY}[{i}]: only group, version, kind and type are known"
            ));
        }
        entries.push((gvk, ty));
    }
    Ok(GvkIndex::from_entries(entries))
}

/// The documents with each `List` (`kind: List` or `...List` with `items`, as `kubectl get -o
/// yaml` prints several objects) replaced by its items.
pub(crate) fn unpack_lists(documents: Vec<Value>) -> Vec<Value> {
    let mut out = Vec::with_capacity(documents.len());
    for document in documents {
        let list_items = document.as_map().and_then(|m| {
            let kind = m.get("kind").and_then(Value::as_str)?;
            if !kind.ends_with("List") {
                return None;
            }
            m.get("items")
                .and_then(Value::as_list)
                .map(<[Value]>::to_vec)
        });
        match list_items {
            Some(items) => out.extend(items),
            None => out.push(document),
        }
    }
    out
}

/// Every document of a JSON or YAML stream (empty documents left out), as plain values, read
/// as objects are (one reader, one nesting limit, one size limit per document); UTF-16 text,
/// which the YAML reader also takes after its byte-order mark, is read whole by it.
pub(crate) fn read_tree(bytes: &[u8]) -> Result<Vec<Value>, String> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        let documents =
            smd::fieldpath::yaml::documents_from_slice(bytes).map_err(|e| e.to_string())?;
        return Ok(documents.into_iter().filter(|d| !d.is_null()).collect());
    }
    crate::objects::values(bytes)
}

/// A schema with its GVK index, and where it came from (for messages).
pub(crate) struct Part {
    pub(crate) origin: String,
    pub(crate) schema: Schema,
    pub(crate) gvk: Vec<(GroupVersionKind, String)>,
}

/// Each CRD of a file converted as the API server builds its schema; a CRD the server would
/// refuse is refused with every reason and its JSON pointer.
pub(crate) fn convert_crds(name: &str, crds: &[Value]) -> Result<Vec<Part>, Failure> {
    let mut parts = Vec::with_capacity(crds.len());
    for (i, crd) in crds.iter().enumerate() {
        match smd_schema::crd::convert(crd) {
            Ok(converted) => parts.push(Part {
                origin: format!("{name}: CRD {}", converted.name),
                schema: converted.schema,
                gvk: converted.index,
            }),
            Err(e) => {
                let which = match e.crd_name() {
                    "" => format!("document {}", i + 1),
                    crd => format!("CRD {crd}"),
                };
                let message = match e.invalid() {
                    [] | [_] => e.to_string(),
                    many => {
                        let lines: Vec<String> = many
                            .iter()
                            .map(|f| format!("  {}: {}", f.pointer, f.go_text))
                            .collect();
                        format!(
                            "the API server refuses this CRD: {} problems\n{}",
                            many.len(),
                            lines.join("\n")
                        )
                    }
                };
                return Err(Failure::new(format!("{name}: {which}: {message}")));
            }
        }
    }
    Ok(parts)
}

/// One schema of all `parts`: their types united by name (a type several define must be the
/// same in all), their GVK indexes joined.
pub(crate) fn union(parts: Vec<Part>) -> Result<(Schema, GvkIndex), Failure> {
    let origins: Vec<String> = parts.iter().map(|p| p.origin.clone()).collect();
    let mut entries = Vec::new();
    let mut schemas = Vec::with_capacity(parts.len());
    for part in parts {
        entries.extend(part.gvk);
        schemas.push(part.schema);
    }
    let schema = Schema::union(schemas).map_err(|e| union_failure(&origins, &e))?;
    Ok((schema, GvkIndex::from_entries(entries)))
}

/// A type two parts define differently, named with where the parts came from.
pub(crate) fn union_failure(origins: &[String], e: &smd_schema::UnionError) -> Failure {
    let origin = |i: usize| origins.get(i).map(String::as_str).unwrap_or_default();
    Failure::new(format!(
        "type {} is defined differently by {} and by {}",
        e.name,
        origin(e.parts.0),
        origin(e.parts.1)
    ))
}
