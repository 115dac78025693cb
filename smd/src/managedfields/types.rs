//! Where objects get their types: the API server's type converter (`IN/typeconverter.go`),
//! a schema with a group/version/kind index, and the version converter the merge uses
//! (`IN/versionconverter.go`).

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use smd_fieldpath::Value;
use smd_schema::gvk::{GroupVersionKind, GvkIndex};
use smd_schema::{Schema, TypeRef, UnionError};

use super::object::{gvk_of, parse_group_version};
use crate::merge::{ConversionError, Converter};
use crate::typed::{DEDUCED_TYPE, TypedValue, ValidationErrors, deduced_schema};

/// Types objects by their `apiVersion` and `kind`: the embedded Kubernetes 1.37 schema, a
/// schema of your own, either extended with CRDs, or the deduced type for everything (the
/// API server's converter for CRDs with no schema). Cheap to clone.
///
/// ```
/// use smd::managedfields::TypeResolver;
/// use smd::GroupVersionKind;
/// let types = TypeResolver::kubernetes();
/// assert!(types.type_ref(&GroupVersionKind::new("apps", "v1", "Deployment")).is_some());
/// assert!(types.type_ref(&GroupVersionKind::new("example.com", "v1", "Widget")).is_none());
/// ```
#[derive(Debug, Clone)]
pub struct TypeResolver {
    schema: Arc<Schema>,
    index: Option<Arc<GvkIndex>>,
}

/// Why an object has no typed value (Go's `ObjectToTyped` errors).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TypingError {
    /// No type is known for the object's group, version and kind.
    #[error("no corresponding type for {0}")]
    NoType(GroupVersionKind),
    /// The object does not fit its type.
    #[error("{0}")]
    Invalid(ValidationErrors),
}

impl TypeResolver {
    /// The embedded Kubernetes 1.37 schema and its group/version/kind index (built once).
    pub fn kubernetes() -> TypeResolver {
        static EMBEDDED: OnceLock<TypeResolver> = OnceLock::new();
        EMBEDDED
            .get_or_init(|| {
                TypeResolver::new(
                    smd_schema::kubernetes::v1_37_shared(),
                    smd_schema::kubernetes::v1_37_gvk().clone(),
                )
            })
            .clone()
    }

    /// Types from `schema`, found through `index`.
    pub fn new(schema: Arc<Schema>, index: GvkIndex) -> TypeResolver {
        TypeResolver {
            schema,
            index: Some(Arc::new(index)),
        }
    }

    /// Types from OpenAPI documents (merge several with [`Document::merge`]), such as those
    /// a cluster serves (`kubectl get --raw /openapi/v3/apis/apps/v1`), converted as the API
    /// server converts its own.
    ///
    /// [`Document::merge`]: smd_schema::openapi::Document::merge
    pub fn from_openapi(
        document: &smd_schema::openapi::Document,
    ) -> Result<TypeResolver, smd_schema::openapi::Error> {
        Ok(TypeResolver::new(
            Arc::new(document.to_schema()?),
            document.gvk_index(),
        ))
    }

    /// The deduced type for every object (Go's `NewDeducedTypeConverter`): maps are
    /// granular, lists atomic, nothing is refused.
    pub fn deduced() -> TypeResolver {
        TypeResolver {
            schema: deduced_schema(),
            index: None,
        }
    }

    /// These types and those of `crds` (converted with [`smd_schema::crd::convert`]), as one
    /// schema ([`Schema::union`]); a type defined differently by two parts is an error. The
    /// CRDs' kinds win over the existing ones.
    pub fn with_crds(
        &self,
        crds: impl IntoIterator<Item = smd_schema::crd::Converted>,
    ) -> Result<TypeResolver, UnionError> {
        let mut schemas = vec![(*self.schema).clone()];
        let mut entries: Vec<(GroupVersionKind, String)> = self
            .index
            .as_deref()
            .map(|i| {
                i.entries()
                    .into_iter()
                    .map(|(g, t)| (g.clone(), t.to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        for crd in crds {
            schemas.push(crd.schema);
            entries.extend(crd.index);
        }
        Ok(TypeResolver::new(
            Arc::new(Schema::union(schemas)?),
            GvkIndex::from_entries(entries),
        ))
    }

    /// The schema.
    pub fn schema(&self) -> &Arc<Schema> {
        &self.schema
    }

    /// The type of objects of `gvk`.
    pub fn type_ref(&self, gvk: &GroupVersionKind) -> Option<TypeRef> {
        match &self.index {
            None => Some(self.schema.type_ref(DEDUCED_TYPE)),
            Some(index) => index.get(gvk).map(|name| self.schema.type_ref(name)),
        }
    }

    /// Every kind with a type, sorted (empty for the deduced resolver, which types all).
    pub fn kinds(&self) -> Vec<&GroupVersionKind> {
        self.index
            .as_deref()
            .map(|i| i.entries().into_iter().map(|(g, _)| g).collect())
            .unwrap_or_default()
    }

    /// `object` typed by its own `apiVersion` and `kind`, checked (Go's `ObjectToTyped`);
    /// `allow_duplicates` lets sets and keyed lists hold an item twice (as updates may).
    pub fn to_typed(
        &self,
        object: &Value,
        allow_duplicates: bool,
    ) -> Result<TypedValue, TypingError> {
        self.to_typed_owned(object.clone(), allow_duplicates)
    }

    /// [`TypeResolver::to_typed`], taking the object.
    pub fn to_typed_owned(
        &self,
        object: Value,
        allow_duplicates: bool,
    ) -> Result<TypedValue, TypingError> {
        let gvk = gvk_of(&object);
        let Some(type_ref) = self.type_ref(&gvk) else {
            return Err(TypingError::NoType(gvk));
        };
        TypedValue::new(object, self.schema.clone(), type_ref, allow_duplicates)
            .map_err(TypingError::Invalid)
    }
}

/// The converter the field manager gives the merge (`versionConverter`): an object already at
/// the asked version is itself; at another version of its group that the types know, it is
/// converted as the server's codec converts it ([`crate::builtin::conversion`]: an HPA between
/// autoscaling/v1 and v2 through the internal version, any other kind by its `apiVersion`, as
/// a CRD's `None` strategy does) and typed at that version; otherwise it is retyped by its own
/// kind (the identity object converter Go's own test field manager uses; now without
/// duplicates allowed), and a kind with no type means the version is not served.
#[derive(Debug, Clone)]
pub(crate) struct VersionConverter {
    pub(crate) types: TypeResolver,
}

impl Converter for VersionConverter {
    fn convert<'a>(
        &self,
        object: &'a TypedValue,
        version: &str,
    ) -> Result<Cow<'a, TypedValue>, ConversionError> {
        let fail = |message: String, missing_version: bool| ConversionError {
            message,
            missing_version,
        };
        let wanted = parse_group_version(version).map_err(|e| fail(e, false))?;
        let value = object.value();
        let api_version = value
            .as_map()
            .and_then(|m| m.get("apiVersion"))
            .and_then(Value::as_str);
        if let Some(Ok(have)) = api_version.map(parse_group_version) {
            if have == wanted {
                return Ok(Cow::Borrowed(object));
            }
        }
        // Another version of the same group's kind, when the types know it: converted as
        // the server converts it (through the internal version; a custom resource's
        // `apiVersion` rewritten, its CRD's `None` strategy), then typed at that version.
        if let Some(Ok(have)) = api_version.map(parse_group_version)
            && have.0 == wanted.0
            && let Some(kind) = value
                .as_map()
                .and_then(|m| m.get("kind"))
                .and_then(Value::as_str)
            && self
                .types
                .type_ref(&GroupVersionKind::new(wanted.0, wanted.1, kind))
                .is_some()
        {
            let converted = crate::builtin::conversion::convert(value, version);
            return match self.types.to_typed(&converted, false) {
                Ok(typed) => Ok(Cow::Owned(typed)),
                Err(e @ TypingError::NoType(_)) => Err(fail(e.to_string(), true)),
                Err(e) => Err(fail(e.to_string(), false)),
            };
        }
        if value.as_map().is_none() {
            return Err(fail(
                format!(
                    "failed to convert value to unstructured for type {}",
                    smd_fieldpath::value::gofmt::type_name(value)
                ),
                false,
            ));
        }
        match self.types.to_typed(value, false) {
            Ok(typed) => Ok(Cow::Owned(typed)),
            Err(e @ TypingError::NoType(_)) => Err(fail(e.to_string(), true)),
            Err(e) => Err(fail(e.to_string(), false)),
        }
    }
}
