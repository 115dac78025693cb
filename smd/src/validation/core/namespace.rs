//! Namespaces (`ValidateNamespace`, its update, status and finalize checks) and
//! ServiceAccounts (`ValidateServiceAccount`, whose checks are its metadata's).

use smd_fieldpath::Value;

use super::{invalid_each, object_meta, object_meta_update, strings};
use crate::validation::{BadValue, FieldError, FieldPath, Rules, at, names, str_at};

/// The Namespace strategies' rules (main resource, `status`, `finalize`).
pub(super) const NAMESPACE: Rules = Rules {
    create: namespace,
    update: namespace_update,
};

/// The ServiceAccount strategy's rules.
pub(super) const SERVICE_ACCOUNT: Rules = Rules {
    create: service_account,
    update: service_account_update,
};

/// `validateFinalizerName`: a qualified name, and a name without a `/` must be one of the
/// standard finalizers.
fn finalizer(name: &str, path: &FieldPath) -> Vec<FieldError> {
    let mut errs = invalid_each(path, name, names::is_qualified_name(name));
    let standard = ["kubernetes", "orphan", "foregroundDeletion"];
    if !name.contains('/') && !standard.contains(&name) {
        errs.push(FieldError::invalid(
            path,
            BadValue::str(name),
            "name is neither a standard finalizer name nor is it fully qualified",
        ));
    }
    errs
}

fn namespace(object: &Value) -> Vec<FieldError> {
    let mut errs = object_meta(object, false, names::name_is_dns_label);
    // Go reports every finalizer at the list's path, without an index.
    let path = FieldPath::new("spec").child("finalizers");
    for name in strings(at(object, &["spec", "finalizers"])) {
        errs.extend(finalizer(name, &path));
    }
    errs
}

fn namespace_update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    match subresource {
        "status" => {
            let mut errs = object_meta_update(new, old);
            let phase = str_at(new, &["status", "phase"]);
            let deleting = !str_at(new, &["metadata", "deletionTimestamp"]).is_empty();
            // Go's path names the internal field, `Phase`.
            let path = FieldPath::new("status").child("Phase");
            if !deleting && phase != "Active" {
                errs.push(FieldError::invalid(
                    &path,
                    BadValue::str(phase),
                    "may only be 'Active' if `deletionTimestamp` is empty",
                ));
            } else if deleting && phase != "Terminating" {
                errs.push(FieldError::invalid(
                    &path,
                    BadValue::str(phase),
                    "may only be 'Terminating' if `deletionTimestamp` is not empty",
                ));
            }
            errs
        }
        "finalize" => {
            let mut errs = object_meta_update(new, old);
            let path = FieldPath::new("spec").child("finalizers");
            for (i, name) in strings(at(new, &["spec", "finalizers"]))
                .into_iter()
                .enumerate()
            {
                errs.extend(finalizer(name, &path.index(i)));
            }
            errs
        }
        _ => {
            let mut errs = namespace(new);
            errs.extend(object_meta_update(new, old));
            errs
        }
    }
}

fn service_account(object: &Value) -> Vec<FieldError> {
    object_meta(object, true, names::name_is_dns_subdomain)
}

fn service_account_update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    let mut errs = object_meta_update(new, old);
    errs.extend(service_account(new));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finalizer_names() {
        let p = FieldPath::new("spec").child("finalizers");
        assert!(finalizer("kubernetes", &p).is_empty());
        assert!(finalizer("example.com/x", &p).is_empty());
        let errs = finalizer("custom", &p);
        assert_eq!(
            errs.first().map(ToString::to_string).as_deref(),
            Some(
                "spec.finalizers: Invalid value: \"custom\": name is neither a standard finalizer name nor is it fully qualified"
            )
        );
    }
}
