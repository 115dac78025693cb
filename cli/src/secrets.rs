//! Secret values hidden from output, as `kubectl diff` hides them (its `Masker`): every value
//! under a Secret's `data` becomes `***`, and a key whose value changes becomes `*** (before)`
//! on the old side and `*** (after)` on the new one, so a diff still shows that it changed.
//!
//! smd also masks `stringData` (the API server folds it into `data` before kubectl sees the
//! object; smd shows manifests and live objects as given) and the
//! `kubectl.kubernetes.io/last-applied-configuration` annotation of a Secret (a client-side
//! apply stores the whole manifest there, values included). `--show-secrets` turns masking off.

use smd::fieldpath::{Map, Value};

/// What every masked value becomes.
pub(crate) const MASK: &str = "***";
/// The old side of a value that changes.
pub(crate) const MASK_BEFORE: &str = "*** (before)";
/// The new side of a value that changes.
pub(crate) const MASK_AFTER: &str = "*** (after)";

/// The annotation in which `kubectl apply` (client side) keeps the whole manifest.
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// Whether kubectl masks `object`: a `v1` `Secret` (kubectl looks at the version and kind
/// only, not the group).
pub(crate) fn is_secret(object: &Value) -> bool {
    let text = |key: &str| {
        object
            .as_map()
            .and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    let version = text("apiVersion").rsplit('/').next().unwrap_or_default();
    version == "v1" && text("kind") == "Secret"
}

/// Masks the Secret values of `before` and `after`, two versions of one object, when either
/// is a Secret.
pub(crate) fn mask_pair(before: &mut Value, after: &mut Value) {
    if !is_secret(before) && !is_secret(after) {
        return;
    }
    for field in ["data", "stringData"] {
        mask_entries(field_mut(before, field), field_mut(after, field), None);
    }
    mask_entries(
        annotations_mut(before),
        annotations_mut(after),
        Some(LAST_APPLIED),
    );
}

/// Masks the Secret values of one object (no other version to compare with: every value is
/// `***`).
pub(crate) fn mask(object: &mut Value) {
    mask_pair(object, &mut Value::Null);
}

fn field_mut<'a>(object: &'a mut Value, field: &str) -> Option<&'a mut Value> {
    object.as_map_mut().and_then(|m| m.get_mut(field))
}

fn annotations_mut(object: &mut Value) -> Option<&mut Value> {
    field_mut(object, "metadata").and_then(|m| field_mut(m, "annotations"))
}

/// kubectl's rule over two maps (`only`: just that key): a key on both sides with equal
/// values is `***` on both, with different values `*** (before)` and `*** (after)`; a key on
/// one side is `***`. A value that is not a map (the API server refuses such a Secret, but a
/// file may hold one) is masked whole.
fn mask_entries(before: Option<&mut Value>, after: Option<&mut Value>, only: Option<&str>) {
    let wanted = |key: &str| only.is_none_or(|k| k == key);
    match (before, after) {
        (Some(Value::Map(b)), Some(Value::Map(a))) => {
            for (key, old) in b.iter_mut() {
                if !wanted(key) {
                    continue;
                }
                match a.get_mut(key) {
                    Some(new) if *new != *old => {
                        *old = Value::from(MASK_BEFORE);
                        *new = Value::from(MASK_AFTER);
                    }
                    Some(new) => {
                        *old = Value::from(MASK);
                        *new = Value::from(MASK);
                    }
                    None => *old = Value::from(MASK),
                }
            }
            mask_keys(a, |key| wanted(key) && !b.contains_key(key));
        }
        (before, after) => {
            for side in [before, after].into_iter().flatten() {
                match side {
                    Value::Map(m) => mask_keys(m, wanted),
                    Value::Null => {}
                    other if only.is_none() => *other = Value::from(MASK),
                    _ => {}
                }
            }
        }
    }
}

fn mask_keys(map: &mut Map, wanted: impl Fn(&str) -> bool) {
    for (key, value) in map.iter_mut() {
        if wanted(key) {
            *value = Value::from(MASK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(yaml: &str) -> Value {
        smd::fieldpath::yaml::from_str(yaml).unwrap_or_default()
    }

    fn text(value: &Value) -> String {
        smd::fieldpath::yaml::to_string(value)
    }

    #[test]
    fn masks_as_kubectl_does() {
        let mut before = object(
            "apiVersion: v1\nkind: Secret\ndata:\n  same: YQ==\n  changed: Yg==\n  gone: Yw==\n",
        );
        let mut after = object(
            "apiVersion: v1\nkind: Secret\ndata:\n  same: YQ==\n  changed: ZA==\n  new: ZQ==\n",
        );
        mask_pair(&mut before, &mut after);
        assert_eq!(
            text(&before),
            "apiVersion: v1\nkind: Secret\ndata:\n  same: '***'\n  changed: '*** (before)'\n  gone: '***'\n"
        );
        assert_eq!(
            text(&after),
            "apiVersion: v1\nkind: Secret\ndata:\n  same: '***'\n  changed: '*** (after)'\n  new: '***'\n"
        );
    }

    #[test]
    fn masks_string_data_and_last_applied_but_not_other_kinds() {
        let mut secret = object(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{\"data\":{\"k\":\"cw==\"}}'\n    other: shown\nstringData:\n  k: s\n",
        );
        mask(&mut secret);
        let shown = text(&secret);
        assert!(!shown.contains("cw=="), "{shown}");
        assert!(shown.contains("other: shown"), "{shown}");
        assert!(shown.contains("k: '***'"), "{shown}");
        let mut config = object("apiVersion: v1\nkind: ConfigMap\ndata:\n  k: v\n");
        mask(&mut config);
        assert!(text(&config).contains("k: v"));
        // kubectl looks at the version and kind only.
        let mut custom = object("apiVersion: example.com/v1\nkind: Secret\ndata:\n  k: v\n");
        mask(&mut custom);
        assert!(text(&custom).contains("k: '***'"));
    }

    #[test]
    fn masks_a_data_value_that_is_not_a_map_whole() {
        let mut secret = object("apiVersion: v1\nkind: Secret\ndata: hunter2\n");
        mask(&mut secret);
        assert!(!text(&secret).contains("hunter2"));
    }
}
