//! Pods and pod templates (k8s.io/kubernetes v1.37.2 `pkg/apis/core/validation`: `ValidatePod`,
//! `ValidatePodSpec`, `ValidatePodTemplateSpec`, `ValidatePodUpdate`, `ValidatePodStatusUpdate`),
//! shared by every workload kind's template.

use smd_fieldpath::Value;

use super::{FieldError, FieldPath, Rules};

/// The rules of `kind` (`Pod`, `PodTemplate`), if smd holds them.
pub(super) fn rules(kind: &str) -> Option<Rules> {
    let _ = kind;
    None
}

/// `ValidatePodTemplateSpec(spec, path, opts)` with the options a workload's strategy passes:
/// the template's metadata (labels, annotations) and its pod spec.
#[allow(dead_code)] // until the workloads' rules call it
pub(crate) fn validate_pod_template_spec(template: &Value, path: &FieldPath) -> Vec<FieldError> {
    let _ = (template, path);
    Vec::new()
}
