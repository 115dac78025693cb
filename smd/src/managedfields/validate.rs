//! The checks of the manager name the API server makes before the field manager runs
//! (`META/validation/validation.go:174-231`, `AS/endpoints/handlers/patch.go:125-129`).

use super::error::{Cause, Error};
use super::identity::quote;

/// The most bytes a manager name may have (`FieldManagerMaxLength`).
pub const MAX_MANAGER_LENGTH: usize = 128;

/// The kind of request, which decides the options the API server validates and names in its
/// message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// A create (`CreateOptions`).
    Create,
    /// An update (`UpdateOptions`).
    Update,
    /// A JSON, merge or strategic-merge patch (`PatchOptions`).
    Patch,
    /// A server-side apply (`PatchOptions`; the name is required).
    Apply,
}

/// Checks `manager` as the API server checks the `fieldManager` option of `request`: required
/// for an apply, at most 128 bytes, every character printable. The error is Go's 422 message,
/// e.g. `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required
/// for apply patch`; several problems print as `[e1, e2]`.
///
/// ```
/// use smd::managedfields::{validate_manager, Request};
/// assert!(validate_manager("kubectl", Request::Apply).is_ok());
/// assert!(validate_manager("", Request::Update).is_ok()); // defaulted from the User-Agent
/// let err = validate_manager(&"m".repeat(129), Request::Apply).unwrap_err();
/// assert_eq!(err.to_string(), "PatchOptions.meta.k8s.io \"\" is invalid: \
///     fieldManager: Too long: may not be more than 128 bytes");
/// ```
pub fn validate_manager(manager: &str, request: Request) -> Result<(), Error> {
    let mut causes: Vec<Cause> = Vec::new();
    let mut cause = |kind: &str, message: String| {
        causes.push(Cause {
            kind: kind.to_owned(),
            message,
            field: "fieldManager".to_owned(),
        })
    };
    if request == Request::Apply && manager.is_empty() {
        cause(
            "FieldValueRequired",
            "Required value: is required for apply patch".to_owned(),
        );
    }
    if manager.len() > MAX_MANAGER_LENGTH {
        cause(
            "FieldValueTooLong",
            format!("Too long: may not be more than {MAX_MANAGER_LENGTH} bytes"),
        );
    }
    for (at, c) in manager.char_indices() {
        if !smd_fieldpath::value::is_go_printable(c) {
            cause(
                "FieldValueInvalid",
                format!(
                    "Invalid value: {}: invalid character U+{:04X} (at position {at})",
                    quote(manager),
                    u32::from(c)
                ),
            );
        }
    }
    // ErrorList.ToAggregate drops repeated messages; the status keeps every cause.
    let mut seen = std::collections::HashSet::new();
    let errors: Vec<String> = causes
        .iter()
        .map(|c| format!("{}: {}", c.field, c.message))
        .filter(|e| seen.insert(e.clone()))
        .collect();
    let options = match request {
        Request::Create => "CreateOptions",
        Request::Update => "UpdateOptions",
        Request::Patch | Request::Apply => "PatchOptions",
    };
    match errors.as_slice() {
        [] => Ok(()),
        [one] => Err(Error::Invalid {
            message: format!("{options}.meta.k8s.io \"\" is invalid: {one}"),
            causes,
        }),
        many => Err(Error::Invalid {
            message: format!(
                "{options}.meta.k8s.io \"\" is invalid: [{}]",
                many.join(", ")
            ),
            causes,
        }),
    }
}

/// The manager of a create, update or non-apply patch that names none: the product of the
/// `User-Agent` (the part before the first `/`), with characters that are not printable
/// dropped and cut at 128 bytes (`managerOrUserAgent`, `AS/endpoints/handlers/create.go:259-285`).
/// An empty result stays empty; the field manager records it as `unknown`.
///
/// ```
/// use smd::managedfields::manager_or_user_agent;
/// assert_eq!(manager_or_user_agent("", "kubectl/v1.37.0 (linux/amd64)"), "kubectl");
/// assert_eq!(manager_or_user_agent("hpa", "kubectl/v1.37.0"), "hpa");
/// ```
pub fn manager_or_user_agent(manager: &str, user_agent: &str) -> String {
    if !manager.is_empty() {
        return manager.to_owned();
    }
    let product = user_agent.split('/').next().unwrap_or_default();
    let mut out = String::new();
    for c in product.chars() {
        if !smd_fieldpath::value::is_go_printable(c) {
            continue;
        }
        if out.len() + c.len_utf8() > MAX_MANAGER_LENGTH {
            break;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn messages() {
        // META/validation/validation.go:192-231 with the wrapping of AS/endpoints/handlers/patch.go:125-129.
        assert_eq!(
            validate_manager("", Request::Apply)
                .unwrap_err()
                .to_string(),
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
        );
        assert!(validate_manager("", Request::Patch).is_ok());
        assert!(validate_manager(&"é".repeat(64), Request::Apply).is_ok());
        assert!(validate_manager(&"é".repeat(65), Request::Apply).is_err());
        let err = validate_manager("a\u{0}b\u{7f}", Request::Create).unwrap_err();
        assert_eq!(
            err.to_string(),
            "CreateOptions.meta.k8s.io \"\" is invalid: [fieldManager: Invalid value: \
             \"a\\x00b\\x7f\": invalid character U+0000 (at position 1), fieldManager: Invalid \
             value: \"a\\x00b\\x7f\": invalid character U+007F (at position 3)]"
        );
        assert_eq!(err.code(), 422);
    }
}
