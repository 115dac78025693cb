//! The field labels a `fieldSelector` may name, per kind: the scheme's field label
//! conversion functions (k8s.io/kubernetes v1.37.2 `pkg/apis/<group>/<version>/conversion.go`;
//! every other kind takes `metadata.name` and `metadata.namespace` only), a CRD's
//! `selectableFields`, and each label's value on an object as the registry's
//! `ToSelectableFields` computes it.

use smd_fieldpath::Value;

use super::get;
use super::selector::FieldSelector;
use crate::apiserver::routes::Resource;

/// The labels a built-in kind's conversion function takes beyond the default pair, or
/// `None` for the default conversion (`metadata.name`, `metadata.namespace`).
fn builtin_labels(group: &str, kind: &str) -> Option<&'static [&'static str]> {
    Some(match (group, kind) {
        ("", "Pod") => &[
            "metadata.name",
            "metadata.namespace",
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName",
            "spec.host",
        ],
        ("", "Node") => &["metadata.name", "spec.unschedulable"],
        ("", "ReplicationController") => {
            &["metadata.name", "metadata.namespace", "status.replicas"]
        }
        ("", "Event") => &[
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type",
            "metadata.namespace",
            "metadata.name",
        ],
        ("", "Namespace") => &["status.phase", "metadata.name"],
        ("", "Secret") => &["type", "metadata.namespace", "metadata.name"],
        ("", "Service") => &[
            "metadata.namespace",
            "metadata.name",
            "spec.clusterIP",
            "spec.type",
        ],
        ("batch", "Job") => &["metadata.name", "metadata.namespace", "status.successful"],
        ("certificates.k8s.io", "CertificateSigningRequest") => {
            &["metadata.name", "spec.signerName"]
        }
        _ => return None,
    })
}

/// The `selectableFields` of a CRD's version, without their leading dot.
fn crd_labels(crd: &Value, version: &str) -> Vec<String> {
    get(crd, &["spec", "versions"])
        .and_then(Value::as_list)
        .into_iter()
        .flatten()
        .filter(|v| get(v, &["name"]).and_then(Value::as_str) == Some(version))
        .filter_map(|v| get(v, &["selectableFields"]).and_then(Value::as_list))
        .flatten()
        .filter_map(|f| get(f, &["jsonPath"]).and_then(Value::as_str))
        .map(|p| p.trim_start_matches('.').to_owned())
        .collect()
}

/// The selector with each label checked (and renamed, `spec.host` to `spec.nodeName`) as
/// the kind's conversion does it, or that conversion's error.
pub(super) fn convert(
    resource: &Resource,
    crd: Option<&Value>,
    mut selector: FieldSelector,
) -> Result<FieldSelector, String> {
    for (label, _, _) in &mut selector.terms {
        if let Some(crd) = crd {
            let extra = crd_labels(crd, &resource.version);
            if label == "metadata.name"
                || label == "metadata.namespace"
                || extra.iter().any(|e| e == label)
            {
                continue;
            }
            return Err(format!("field label not supported: {label}"));
        }
        match builtin_labels(&resource.group, &resource.kind) {
            Some(labels) if labels.contains(&label.as_str()) => {
                if resource.kind == "Pod" && label == "spec.host" {
                    *label = "spec.nodeName".to_owned();
                }
            }
            Some(_) if resource.group == "batch" => {
                return Err(format!("field label {label:?} not supported for Job"));
            }
            Some(_) => return Err(format!("field label not supported: {label}")),
            None if label == "metadata.name" || label == "metadata.namespace" => {}
            None => {
                return Err(format!(
                    "{label:?} is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
                ));
            }
        }
    }
    Ok(selector)
}

fn text_at(object: &Value, path: &[&str]) -> String {
    match get(object, path) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Int(i)) => i.to_string(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Float(f)) => f.to_string(),
        _ => String::new(),
    }
}

/// The value of the field `label` of `object` (held as read) as its registry computes it;
/// empty where the object has none.
pub(super) fn value(resource: &Resource, object: &Value, label: &str) -> String {
    let path: Vec<&str> = label.split('.').collect();
    match (resource.kind.as_str(), label) {
        // Go's zero values where the field is absent.
        ("Pod", "spec.hostNetwork") | ("Node", "spec.unschedulable") => {
            let set = get(object, &path).and_then(Value::as_bool).unwrap_or(false);
            set.to_string()
        }
        ("ReplicationController", "status.replicas") => get(object, &path)
            .and_then(Value::as_int)
            .unwrap_or(0)
            .to_string(),
        ("Job", "status.successful") => get(object, &["status", "succeeded"])
            .and_then(Value::as_int)
            .unwrap_or(0)
            .to_string(),
        ("Pod", "status.podIP") => get(object, &["status", "podIPs"])
            .and_then(Value::as_list)
            .and_then(|l| l.first())
            .map(|ip| text_at(ip, &["ip"]))
            .unwrap_or_default(),
        // Accepted by the conversion, computed by no registry: never set.
        ("Pod", "status.podIPs") => String::new(),
        ("Event", "source") => {
            let component = text_at(object, &["source", "component"]);
            if component.is_empty() {
                text_at(object, &["reportingComponent"])
            } else {
                component
            }
        }
        ("Event", "reportingComponent") => text_at(object, &["reportingComponent"]),
        _ => text_at(object, &path),
    }
}
