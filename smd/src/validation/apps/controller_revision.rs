//! ControllerRevision (`ValidateControllerRevisionCreate`, `ValidateControllerRevisionUpdate`):
//! a non-negative revision, and data that is a JSON object, which never changes.

use smd_fieldpath::Value;

use super::super::generic::{immutable, int_at, nonnegative};
use super::super::names::name_is_dns_subdomain;
use super::super::{BadValue, FieldError, FieldPath, Rules, json, member};

/// ControllerRevision's strategy rules.
pub(super) const RULES: Rules = Rules { create, update };

/// `validateControllerRevision`: the metadata and the revision.
fn common(object: &Value) -> Vec<FieldError> {
    let mut errs = super::meta_create(object, name_is_dns_subdomain);
    errs.extend(nonnegative(
        int_at(object, &["revision"]),
        &FieldPath::new("revision"),
    ));
    errs
}

fn create(object: &Value) -> Vec<FieldError> {
    let mut errs = common(object);
    let path = FieldPath::new("data");
    match member(object, "data") {
        None | Some(Value::Null) => errs.push(FieldError::required(&path, "data is mandatory")),
        Some(Value::Map(_)) => {}
        Some(_) => errs.push(FieldError::required(
            &path,
            "data must be a valid JSON object",
        )),
    }
    errs
}

fn update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    let mut errs = super::meta_update(new, old);
    errs.extend(common(new));
    let data = member(new, "data");
    // A RawExtension marshals as its bytes: the JSON the object holds.
    errs.extend(immutable(
        data,
        member(old, "data"),
        &FieldPath::new("data"),
        || {
            data.map(|d| BadValue::Json(json(d)))
                .unwrap_or_else(BadValue::null)
        },
    ));
    errs
}
