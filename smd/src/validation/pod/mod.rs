//! Pods and pod templates (k8s.io/kubernetes v1.37.2 `pkg/apis/core/validation`: `ValidatePod`,
//! `ValidatePodSpec`, `ValidatePodTemplateSpec`, `ValidatePodUpdate`, `ValidatePodStatusUpdate`),
//! shared by every workload kind's template.
//!
//! The options the strategies pass (`GetValidationOptionsFromPodSpecAndMeta`) are those of a
//! 1.37 server with its default feature gates: relaxed environment variable names, `fileKeyRef`
//! sources, valid pod deletion costs required.
//!
//! Go walks resource maps in an order that changes between requests; with several errors in
//! one map the server's order is not reproducible, so these checks keep the object's.

mod containers;
mod resources;
mod scheduling;
mod security;
mod spec;
mod status;
mod update;
mod volumes;

use smd_fieldpath::Value;

use super::meta::{self, string_entries};
use super::names;
use super::{BadValue, FieldError, FieldPath, Rules, member, str_at};

/// The rules of `kind` (`Pod`, `PodTemplate`), if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    match kind {
        "Pod" => Some(Rules {
            create: validate_pod_create,
            update: validate_pod_update,
        }),
        "PodTemplate" => Some(Rules {
            create: validate_pod_template,
            update: validate_pod_template_update,
        }),
        _ => None,
    }
}

/// `ValidatePodTemplateSpec(spec, path, opts)` with the options a workload's strategy passes:
/// the template's metadata (labels, annotations) and its pod spec.
pub(crate) fn validate_pod_template_spec(template: &Value, path: &FieldPath) -> Vec<FieldError> {
    let null = Value::Null;
    let template_meta = member(template, "metadata").unwrap_or(&null);
    let pod_spec = member(template, "spec").unwrap_or(&null);
    let annotations = member(template_meta, "annotations");
    let mut errs = meta::validate_labels(member(template_meta, "labels"), &path.child("labels"));
    errs.extend(meta::validate_annotations(
        annotations,
        &path.child("annotations"),
    ));
    errs.extend(pod_specific_annotations(
        annotations,
        pod_spec,
        &path.child("annotations"),
    ));
    let spec_path = path.child("spec");
    errs.extend(spec::validate_pod_spec(pod_spec, None, &spec_path));
    if list(member(pod_spec, "ephemeralContainers"))
        .next()
        .is_some()
    {
        errs.push(FieldError::forbidden(
            &spec_path.child("ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errs
}

/// `ValidatePodCreate`: the pod's metadata and spec, then what only a new pod is refused.
fn validate_pod_create(pod: &Value) -> Vec<FieldError> {
    let mut errs = validate_pod_metadata_and_spec(pod);
    let spec_path = FieldPath::new("spec");
    let null = Value::Null;
    let pod_spec = member(pod, "spec").unwrap_or(&null);
    if list(member(pod_spec, "ephemeralContainers"))
        .next()
        .is_some()
    {
        errs.push(FieldError::forbidden(
            &spec_path.child("ephemeralContainers"),
            "cannot be set on create",
        ));
    }
    if !str_at(pod_spec, &["nodeName"]).is_empty()
        && list(member(pod_spec, "schedulingGates")).next().is_some()
    {
        errs.push(FieldError::forbidden(
            &spec_path.child("nodeName"),
            "cannot be set until all schedulingGates have been cleared",
        ));
    }
    errs
}

/// `validatePodMetadataAndSpec`: the metadata with pod names, the pod-specific annotations,
/// the spec, and the checks a pod gets beyond a template's.
fn validate_pod_metadata_and_spec(pod: &Value) -> Vec<FieldError> {
    let null = Value::Null;
    let meta_path = FieldPath::new("metadata");
    let spec_path = FieldPath::new("spec");
    let pod_meta = member(pod, "metadata").unwrap_or(&null);
    let pod_spec = member(pod, "spec").unwrap_or(&null);
    let mut errs = meta::validate_object_meta(pod, true, names::name_is_dns_subdomain, &meta_path);
    errs.extend(pod_specific_annotations(
        member(pod_meta, "annotations"),
        pod_spec,
        &meta_path.child("annotations"),
    ));
    errs.extend(spec::validate_pod_spec(
        pod_spec,
        Some(pod_meta),
        &spec_path,
    ));
    if str_at(pod_spec, &["serviceAccountName"]).is_empty() {
        for (vi, volume) in list(member(pod_spec, "volumes")).enumerate() {
            let sources = list(super::at(volume, &["projected", "sources"]));
            for (si, source) in sources.enumerate() {
                if member(source, "serviceAccountToken").is_some_and(|v| !v.is_null()) {
                    errs.push(FieldError::forbidden(
                        &spec_path
                            .child("volumes")
                            .index(vi)
                            .child("projected")
                            .child("sources")
                            .index(si)
                            .child("serviceAccountToken"),
                        "must not be specified when serviceAccountName is not set",
                    ));
                }
            }
        }
    }
    if let Some(grace) = int(pod_spec, "terminationGracePeriodSeconds")
        && grace < 0
    {
        errs.push(FieldError::invalid(
            &spec_path.child("terminationGracePeriodSeconds"),
            BadValue::Int(grace),
            meta::IS_NEGATIVE,
        ));
    }
    for key in ["containers", "initContainers"] {
        for (i, c) in list(member(pod_spec, key)).enumerate() {
            let image = str_at(c, &["image"]);
            if image.len() != image.trim().len() {
                errs.push(FieldError::invalid(
                    &spec_path.child(key).index(i).child("image"),
                    BadValue::str(image),
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }
    errs
}

/// The annotation naming a mirror pod.
const MIRROR_POD: &str = "kubernetes.io/config.mirror";
/// The annotation ranking pods for scale-down.
const DELETION_COST: &str = "controller.kubernetes.io/pod-deletion-cost";

/// `ValidatePodSpecificAnnotations`: a mirror pod names its node; a deletion cost is a
/// 32-bit integer written plainly.
fn pod_specific_annotations(
    annotations: Option<&Value>,
    pod_spec: &Value,
    path: &FieldPath,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let entries = string_entries(annotations);
    let get = |key: &str| entries.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    if let Some(value) = get(MIRROR_POD)
        && str_at(pod_spec, &["nodeName"]).is_empty()
    {
        errs.push(FieldError::invalid(
            &path.key(MIRROR_POD),
            BadValue::str(value),
            "must set spec.nodeName if mirror pod annotation is set",
        ));
    }
    if let Some(value) = get(DELETION_COST)
        && !valid_deletion_cost(value)
    {
        errs.push(FieldError::invalid(
            &path.key(DELETION_COST),
            BadValue::str(value),
            "must be a 32bit integer",
        ));
    }
    errs
}

/// `GetDeletionCostFromPodAnnotations` succeeds: no `+`, no leading zero, an int32.
fn valid_deletion_cost(value: &str) -> bool {
    let first_ok = match value.as_bytes().first() {
        Some(b'-') => true,
        Some(b'0') => value == "0",
        Some(c) => (b'1'..=b'9').contains(c),
        None => false,
    };
    first_ok && value.parse::<i32>().is_ok()
}

/// `ValidatePodUpdate` for the main resource, `ValidatePodStatusUpdate` for `status`.
fn validate_pod_update(new: &Value, old: &Value, subresource: &str) -> Vec<FieldError> {
    match subresource {
        "status" => status::validate_pod_status_update(new, old),
        _ => update::validate_pod_update(new, old),
    }
}

/// `ValidatePodTemplate`: the object's metadata with pod names, its `template`.
fn validate_pod_template(object: &Value) -> Vec<FieldError> {
    let mut errs = meta::validate_object_meta(
        object,
        true,
        names::name_is_dns_subdomain,
        &FieldPath::new("metadata"),
    );
    errs.extend(validate_pod_template_spec(
        member(object, "template").unwrap_or(&Value::Null),
        &FieldPath::new("template"),
    ));
    errs
}

/// `ValidatePodTemplateUpdate`: the metadata's update rules, the new template.
fn validate_pod_template_update(new: &Value, old: &Value, _subresource: &str) -> Vec<FieldError> {
    let mut errs = meta::validate_object_meta_update(new, old, &FieldPath::new("metadata"));
    errs.extend(validate_pod_template_spec(
        member(new, "template").unwrap_or(&Value::Null),
        &FieldPath::new("template"),
    ));
    errs
}

/// The items of a list value (none when absent or not a list).
fn list(value: Option<&Value>) -> impl Iterator<Item = &Value> {
    value.and_then(Value::as_list).unwrap_or(&[]).iter()
}

/// An integer member, if present.
fn int(value: &Value, key: &str) -> Option<i64> {
    member(value, key).and_then(Value::as_int)
}

/// Whether a member is present and not null (Go's non-nil pointer).
fn has(value: &Value, key: &str) -> bool {
    member(value, key).is_some_and(|v| !v.is_null())
}

/// `apiequality.Semantic.DeepEqual` of two versioned values: absent, null and empty lists or
/// maps are the same (Go's nil and empty slices and maps compare equal there).
fn semantic_eq(a: &Value, b: &Value) -> bool {
    let empty = |v: &Value| match v {
        Value::Null => true,
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
        _ => false,
    };
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            let keys_match = |p: &smd_fieldpath::value::Map, q: &smd_fieldpath::value::Map| {
                p.iter()
                    .all(|(k, v)| q.get(k).map_or(empty(v), |w| semantic_eq(v, w)))
            };
            keys_match(x, y) && keys_match(y, x)
        }
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| semantic_eq(v, w))
        }
        _ if empty(a) && empty(b) => true,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(spec: &str) -> Value {
        Value::from_json(&format!(
            r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"p","namespace":"ns"}},"spec":{spec}}}"#
        ))
        .unwrap_or_default()
    }

    fn texts(errs: &[FieldError]) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    const DEFAULTS: &str =
        r#""restartPolicy":"Always","dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30"#;

    #[test]
    fn a_valid_pod_passes() {
        let p = pod(&format!(
            r#"{{"containers":[{{"name":"a","image":"nginx","imagePullPolicy":"Always","terminationMessagePolicy":"File"}}],{DEFAULTS}}}"#
        ));
        assert_eq!(texts(&validate_pod_create(&p)), Vec::<String>::new());
    }

    #[test]
    fn containers_are_required_and_named() {
        let p = pod(&format!(r#"{{{DEFAULTS}}}"#));
        assert_eq!(
            texts(&validate_pod_create(&p)),
            vec!["spec.containers: Required value"]
        );
        let p = pod(&format!(
            r#"{{"containers":[{{"name":"A","image":"x","imagePullPolicy":"Always","terminationMessagePolicy":"File"}}],{DEFAULTS}}}"#
        ));
        assert_eq!(
            texts(&validate_pod_create(&p)),
            vec![format!(
                "spec.containers[0].name: Invalid value: \"A\": {}",
                names::is_dns1123_label("A").join("")
            )]
        );
    }

    #[test]
    fn semantic_equality_ignores_empty_collections() {
        let a = Value::from_json(r#"{"a":[],"b":{"c":1}}"#).unwrap_or_default();
        let b = Value::from_json(r#"{"b":{"c":1},"d":null}"#).unwrap_or_default();
        assert!(semantic_eq(&a, &b));
        assert!(valid_deletion_cost("-5") && !valid_deletion_cost("+5"));
        assert!(!valid_deletion_cost("007") && !valid_deletion_cost("3000000000"));
    }
}
