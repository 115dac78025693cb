//! The API server's refusals as `meta/v1` `Status` objects (`apimachinery/pkg/api/errors`):
//! the code, the reason, the message and the details a client reads.

use smd_fieldpath::{Map, Value};

use super::http::Response;
use crate::managedfields::{Cause, Error};

/// What a Status's `details` name: the object's name, its group and its kind (the resource's
/// plural for the errors the registry raises, the Kind for others), its uid on a deletion.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Details {
    pub name: String,
    pub group: String,
    pub kind: String,
    pub uid: String,
    pub causes: Vec<Cause>,
}

impl Details {
    pub fn of(group: &str, kind: &str, name: &str) -> Details {
        Details {
            name: name.to_owned(),
            group: group.to_owned(),
            kind: kind.to_owned(),
            ..Details::default()
        }
    }
}

fn details_value(d: &Details) -> Value {
    let mut m = Map::new();
    let mut put = |k: &str, v: &str| {
        if !v.is_empty() {
            m.insert(k, Value::from(v));
        }
    };
    put("name", &d.name);
    put("group", &d.group);
    put("kind", &d.kind);
    put("uid", &d.uid);
    if !d.causes.is_empty() {
        let causes = d
            .causes
            .iter()
            .map(|c| {
                // A cause's members are omitted when empty (an internal error's names no
                // reason and no field).
                let mut cm = Map::new();
                for (key, value) in [
                    ("reason", &c.kind),
                    ("message", &c.message),
                    ("field", &c.field),
                ] {
                    if !value.is_empty() {
                        cm.insert(key, Value::from(value.as_str()));
                    }
                }
                Value::Map(cm)
            })
            .collect();
        m.insert("causes", Value::List(causes));
    }
    Value::Map(m)
}

fn status_object(
    status: &str,
    message: &str,
    reason: &str,
    details: Option<&Details>,
    code: Option<u16>,
) -> Value {
    let mut m = Map::new();
    m.insert("kind", Value::from("Status"));
    m.insert("apiVersion", Value::from("v1"));
    m.insert("metadata", Value::Map(Map::new()));
    m.insert("status", Value::from(status));
    if !message.is_empty() {
        m.insert("message", Value::from(message));
    }
    if !reason.is_empty() {
        m.insert("reason", Value::from(reason));
    }
    if let Some(d) = details {
        m.insert("details", details_value(d));
    }
    if let Some(code) = code {
        m.insert("code", Value::Int(i64::from(code)));
    }
    Value::Map(m)
}

/// A refusal: `code`, `reason` (empty for a 500, which has none), the message and details
/// (`None`: the Status has no `details`; `Some` of an empty one: `details: {}`).
pub(super) fn failure(
    code: u16,
    reason: &str,
    message: &str,
    details: Option<&Details>,
) -> Response {
    Response {
        code,
        body: status_object("Failure", message, reason, details, Some(code)),
        warnings: Vec::new(),
    }
}

/// The answer of a deletion that removed the object (`status: Success`).
pub(super) fn deleted(details: &Details) -> Response {
    Response {
        code: 200,
        body: status_object("Success", "", "", Some(details), None),
        warnings: Vec::new(),
    }
}

/// `resource "name" not found`, the resource qualified by its group (`widgets.example.com`).
pub(super) fn not_found(group: &str, plural: &str, name: &str) -> Response {
    failure(
        404,
        "NotFound",
        &format!("{} {} not found", qualified(plural, group), quote(name)),
        Some(&Details::of(group, plural, name)),
    )
}

/// The router's 404: no such resource or subresource.
pub(super) fn no_route() -> Response {
    failure(
        404,
        "NotFound",
        "the server could not find the requested resource",
        Some(&Details::default()),
    )
}

/// 405: the resource does not take this verb.
pub(super) fn method_not_allowed() -> Response {
    failure(
        405,
        "MethodNotAllowed",
        "the server does not allow this method on the requested resource",
        Some(&Details::default()),
    )
}

/// 409 `AlreadyExists`; the storage says so first when the object there is `being_deleted`
/// (it has a `deletionTimestamp`: finalizers hold it).
pub(super) fn already_exists(
    group: &str,
    plural: &str,
    name: &str,
    being_deleted: bool,
) -> Response {
    failure(
        409,
        "AlreadyExists",
        &format!(
            "{}{} {} already exists",
            if being_deleted {
                "object is being deleted: "
            } else {
                ""
            },
            qualified(plural, group),
            quote(name)
        ),
        Some(&Details::of(group, plural, name)),
    )
}

/// 409 `Conflict` of an optimistic-concurrency failure, `why` after the colon.
pub(super) fn conflict(group: &str, kind: &str, name: &str, why: &str) -> Response {
    failure(
        409,
        "Conflict",
        &format!(
            "Operation cannot be fulfilled on {} {}: {why}",
            qualified(kind, group),
            quote(name)
        ),
        Some(&Details::of(group, kind, name)),
    )
}

/// 400 `BadRequest` with no details.
pub(super) fn bad_request(message: &str) -> Response {
    failure(400, "BadRequest", message, None)
}

/// 415 `UnsupportedMediaType`: the patch types the resource takes, in the server's order.
pub(super) fn unsupported_media_type(accepted: &[&str]) -> Response {
    failure(
        415,
        "UnsupportedMediaType",
        &format!(
            "the body of the request was in an unknown format - accepted media types include: {}",
            accepted.join(", ")
        ),
        None,
    )
}

/// 413: the body is longer than the server reads.
pub(super) fn too_large(limit: usize) -> Response {
    failure(
        413,
        "RequestEntityTooLarge",
        &format!("Request entity too large: limit is {limit}"),
        None,
    )
}

/// 422 `Invalid` of `kind`.`group` `name`, one cause per problem, the message as Go's
/// `NewInvalid` writes it.
pub(super) fn invalid(group: &str, kind: &str, name: &str, causes: Vec<Cause>) -> Response {
    // The message names each distinct error once (`ToAggregate`); the causes keep them all.
    let mut seen = std::collections::HashSet::new();
    let errors: Vec<String> = causes
        .iter()
        .map(|c| format!("{}: {}", c.field, c.message))
        .filter(|e| seen.insert(e.clone()))
        .collect();
    let list = match errors.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    };
    let message = format!(
        "{} {} is invalid: {list}",
        qualified(kind, group),
        quote(name)
    );
    let mut details = Details::of(group, kind, name);
    details.causes = causes;
    failure(422, "Invalid", &message, Some(&details))
}

/// The Status of an error of the field-manager layer. Its `Invalid` errors carry the
/// qualified kind and name at the head of their message (`NewInvalid`'s
/// `Kind.group "name" is invalid: ...`), which the details repeat.
pub(super) fn from_error(error: &Error) -> Response {
    let message = error.to_string();
    let code = error.code();
    let reason = error.reason().unwrap_or_default();
    let details = match error {
        Error::Conflict(_) => Some(Details {
            causes: error.causes(),
            ..Details::default()
        }),
        Error::Invalid { causes, .. } => {
            let (kind, group, name) = invalid_subject(&message);
            let mut d = Details::of(&group, &kind, &name);
            d.causes = causes.clone();
            Some(d)
        }
        _ => None,
    };
    failure(code, reason, &message, details.as_ref())
}

/// `Kind.group "name" is invalid: ...` taken apart: (kind, group, name).
fn invalid_subject(message: &str) -> (String, String, String) {
    let Some((head, _)) = message.split_once(" is invalid: ") else {
        return Default::default();
    };
    let Some((qualified, quoted)) = head.split_once(' ') else {
        return Default::default();
    };
    let name = serde_json::from_str::<String>(quoted).unwrap_or_default();
    let (kind, group) = qualified.split_once('.').unwrap_or((qualified, ""));
    (kind.to_owned(), group.to_owned(), name)
}

/// `plural.group`, or the plural alone for the core group.
pub(super) fn qualified(name: &str, group: &str) -> String {
    if group.is_empty() {
        name.to_owned()
    } else {
        format!("{name}.{group}")
    }
}

/// Go's `%q` of a string.
pub(super) fn quote(s: &str) -> String {
    Value::from(s).to_string()
}

/// A patch the server could not apply: 400 `BadRequest` and 413 with the patch code's words;
/// 422 as the server wraps it (`Invalid`, its generic message, empty details); 500 with no
/// reason.
pub(super) fn patch_refused(code: u16, message: &str) -> Response {
    match code {
        400 => bad_request(message),
        413 => failure(413, "RequestEntityTooLarge", message, None),
        422 => failure(
            422,
            "Invalid",
            "the server rejected our request due to an error in our request",
            Some(&Details::default()),
        ),
        other => failure(other, "", message, None),
    }
}
