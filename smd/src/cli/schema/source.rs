//! What a schema input is: an OpenAPI v2 or v3 document, SMD schema YAML, or CRDs — found from
//! the document itself, never from the file name.
//!
//! The OpenAPI reader runs first (it is the common case and reads large specs in one pass).
//! Only when it refuses the document as a whole is the text read again as plain YAML/JSON to
//! see whether it is something else.

use crate::cli::Failure;
use crate::cli::input::Input;
use smd::fieldpath::Value;
use smd_schema::Schema;
use smd_schema::gvk::GvkIndex;
use smd_schema::openapi::{Document, ErrorKind};

/// A schema input, recognized.
#[derive(Debug)]
pub(crate) enum Source {
    /// An OpenAPI v2 (`swagger`, `definitions`) or v3 (`openapi`, `components`) document.
    OpenApi(Document),
    /// SMD's own schema format (a top-level `types` list), in YAML or JSON.
    Smd(Schema),
    /// One or more `CustomResourceDefinition` documents (a multi-document YAML stream may hold
    /// several).
    Crds(Vec<Value>),
}

/// The message while CRDs cannot be converted yet.
pub(crate) const CRD_NOT_AVAILABLE: &str = "CRD conversion is not available yet";

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
                if !documents.is_empty() && documents.iter().all(is_crd) {
                    return Ok(Source::Crds(documents));
                }
                if let [Value::Map(m)] = documents.as_slice() {
                    if m.contains_key("types") {
                        let text = String::from_utf8_lossy(&input.bytes);
                        return Schema::from_yaml(&text)
                            .map(Source::Smd)
                            .map_err(|e| Failure::new(format!("{}: {e}", input.name)));
                    }
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
            Source::Smd(schema) => Ok((schema, GvkIndex::default())),
            Source::Crds(crds) => convert_crds(name, &crds),
        }
    }
}

/// The hook for CRD conversion: the schema of these CRDs (every version of each), merged with
/// the static parts the API server adds (ObjectMeta, apiVersion, kind), and their GVK index.
pub(crate) fn convert_crds(name: &str, _crds: &[Value]) -> Result<(Schema, GvkIndex), Failure> {
    Err(Failure::new(format!("{name}: {CRD_NOT_AVAILABLE}")))
}

/// Whether a document is a `CustomResourceDefinition`.
pub(crate) fn is_crd(document: &Value) -> bool {
    document
        .as_map()
        .and_then(|m| m.get("kind"))
        .and_then(Value::as_str)
        == Some("CustomResourceDefinition")
}

/// Every document of a JSON text (one) or a YAML stream (empty documents left out), as plain
/// values.
pub(crate) fn read_tree(bytes: &[u8]) -> Result<Vec<Value>, String> {
    let first = bytes.iter().find(|b| !b" \t\r\n".contains(b));
    if first == Some(&b'{') {
        let json: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        return Ok(vec![Value::from(json)]);
    }
    let documents = smd::fieldpath::yaml::documents_from_slice(bytes).map_err(|e| e.to_string())?;
    Ok(documents.into_iter().filter(|d| !d.is_null()).collect())
}
