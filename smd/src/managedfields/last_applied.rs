//! Client-side apply's annotation on the server (`IN/lastappliedmanager.go`,
//! `IN/lastappliedupdater.go`, `IN/lastapplied.go`): for the manager named `kubectl` only,
//! conflicts on fields the annotation lists with their live value are forgiven, and the
//! annotation is kept current after each apply.

use smd_fieldpath::{Set, Value};

use super::manager::FieldManager;
use super::object::{annotations, nested_str, set_annotations};
use smd_fieldpath::value::gojson;

/// The annotation `kubectl apply` (client-side) writes.
pub const LAST_APPLIED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The only manager name the API server treats as a client-side apply upgrading.
pub(crate) const KUBECTL: &str = "kubectl";

/// Most bytes all annotations of an object may hold (`TotalAnnotationSizeLimitB`).
const ANNOTATIONS_LIMIT: usize = 256 * 1024;

/// Whether `object` has a non-empty annotation (`hasLastApplied`).
pub(crate) fn has_last_applied(object: &Value) -> bool {
    annotations(object).is_some_and(|a| {
        a.iter()
            .any(|(k, v)| k == LAST_APPLIED_ANNOTATION && !v.is_empty())
    })
}

/// The annotation's value for an applied configuration (`buildLastApplied`): the
/// configuration without the annotation, as Go's `json.NewEncoder().Encode` writes it (keys
/// sorted, HTML escaped, a newline at the end).
pub(crate) fn build_last_applied(applied: &Value) -> Result<String, gojson::UnsupportedValue> {
    let mut copy = applied.clone();
    let kept = annotations(&copy).map(|mut a| {
        a.retain(|(k, _)| k != LAST_APPLIED_ANNOTATION);
        a
    });
    set_annotations(&mut copy, kept);
    let mut out = String::new();
    gojson::write_value(&mut out, &copy)?;
    out.push('\n');
    Ok(out)
}

/// Sets the annotation, or drops it when the annotations would exceed 256 KiB
/// (`SetLastApplied`).
pub(crate) fn set_last_applied(object: &mut Value, value: String) {
    let mut all = annotations(object).unwrap_or_default();
    match all.iter_mut().find(|(k, _)| k == LAST_APPLIED_ANNOTATION) {
        Some(slot) => slot.1 = value,
        None => all.push((LAST_APPLIED_ANNOTATION.to_owned(), value)),
    }
    let size: usize = all.iter().map(|(k, v)| k.len() + v.len()).sum();
    if size > ANNOTATIONS_LIMIT {
        all.retain(|(k, _)| k != LAST_APPLIED_ANNOTATION);
    }
    set_annotations(object, Some(all));
}

impl FieldManager {
    /// The fields a `kubectl` apply may take without conflict
    /// (`allowedConflictsFromLastApplied`, `IN/lastappliedmanager.go:91-152`): those the
    /// annotation sets whose value still equals the live object's. Any failure (no
    /// annotation, bad JSON, another apiVersion, an object that does not type) gives none.
    pub(crate) fn allowed_by_last_applied(&self, live: &Value) -> Option<Set> {
        let annotations = annotations(live)?;
        let text = annotations
            .iter()
            .find(|(k, v)| k == LAST_APPLIED_ANNOTATION && !v.is_empty())
            .map(|(_, v)| v)?;
        let live = self.types.to_typed(live, false).ok()?;
        let last = Value::from_json(text).ok()?;
        // Unstructured.UnmarshalJSON: an object with a kind.
        if last.as_map().is_none() || nested_str(&last, &["kind"]).is_empty() {
            return None;
        }
        if nested_str(&last, &["apiVersion"]) != self.group_version {
            return None;
        }
        let last = self.types.to_typed(&last, false).ok()?;
        let set = last.to_field_set().ok()?;
        let changed = last.compare(&live).ok()?;
        Some(
            set.difference(&changed.modified)
                .difference(&changed.added)
                .difference(&changed.removed),
        )
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use smd_fieldpath::yaml;

    #[test]
    fn build_drops_the_annotation_and_encodes_as_go() {
        // IN/lastappliedupdater.go:84-101 and META/unstructured/helpers.go:404-407.
        let applied = yaml::from_str(
            r#"
kind: ConfigMap
apiVersion: v1
metadata:
  name: a
  annotations: {kubectl.kubernetes.io/last-applied-configuration: old, x: "<y>"}
data: {b: "1.0", a: x}
"#,
        )
        .unwrap();
        assert_eq!(
            build_last_applied(&applied).unwrap(),
            "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"x\",\"b\":\"1.0\"},\"kind\":\"ConfigMap\",\
             \"metadata\":{\"annotations\":{\"x\":\"\\u003cy\\u003e\"},\"name\":\"a\"}}\n"
        );
        // The annotation alone leaves an empty map (Go deletes from a non-nil map).
        let alone = yaml::from_str(
            "{kind: K, metadata: {annotations: {kubectl.kubernetes.io/last-applied-configuration: x}}}",
        )
        .unwrap();
        assert_eq!(
            build_last_applied(&alone).unwrap(),
            "{\"kind\":\"K\",\"metadata\":{\"annotations\":{}}}\n"
        );
    }

    #[test]
    fn set_respects_the_size_limit() {
        // IN/lastapplied.go:35-50 with apimachinery's ValidateAnnotationsSize (256 KiB).
        let mut object = yaml::from_str("{metadata: {annotations: {a: b}}}").unwrap();
        set_last_applied(&mut object, "x".to_owned());
        assert!(has_last_applied(&object));
        let big = "x".repeat(ANNOTATIONS_LIMIT);
        set_last_applied(&mut object, big);
        assert!(!has_last_applied(&object));
        assert_eq!(
            object,
            yaml::from_str("{metadata: {annotations: {a: b}}}").unwrap()
        );
    }
}
