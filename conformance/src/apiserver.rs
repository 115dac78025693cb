//! Real-server scenarios (`conformance/apiserver/`): each case is a list of HTTP requests that
//! `gogen apiserver` sent to a real kube-apiserver v1.37.2, whose answers are the goldens. Here
//! the same requests go through what smd has today, [`Endpoint`] (create, apply, update, scale),
//! and each step's verdict (the status code; a refusal's message, reason and causes) and the
//! managedFields entries of the object answered and stored are compared with the server's.
//!
//! smd does not yet have the whole request layer or the defaulting of built-in objects (issue
//! 12, items 3 and 4): every step where it differs or cannot send the request is listed in
//! [`KNOWN_DISAGREEMENTS`] with a [`Category`], and the test checks that each listed step still
//! differs, so that the list is the map of what is left, never a way to skip.
//!
//! Times: step `k` runs at [`step_time`]`(k)`; the goldens name the step that wrote a time
//! (`<step k>`), so an entry's time is compared too. After a step where smd differs or cannot
//! send the request, the case goes on from the object the server stored, so that every
//! disagreement stays where it arises.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value as Json, json};
use smd::managedfields::{
    Endpoint, Error, Timestamp, TypeResolver, entries, manager_or_user_agent,
};
use smd_fieldpath::Value;
use smd_schema::gvk::GroupVersionKind;

/// The format of a real-server scenario file.
pub const SCENARIO_FORMAT: &str = "smd-apiserver-scenarios/v1";
/// The format of a real-server golden.
pub const GOLDEN_FORMAT: &str = "smd-apiserver-goldens/v1";
/// The User-Agent gogen sends when a step names none (its product is the manager of a request
/// without `fieldManager`).
pub const DEFAULT_USER_AGENT: &str = "smd-conformance/v1 (gogen)";

/// Why smd answers a step otherwise than the server, today.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// The server decodes and defaults built-in objects (issue 12, item 4): an Update
    /// manager owns the defaults, unknown fields are dropped; smd does neither.
    Defaulting,
    /// Request handling smd lacks (issue 12, item 3): a patch type other than apply, the
    /// `fieldValidation` option, the URL's name, an update of a missing object, the
    /// `resourceVersion` a custom resource's update needs.
    RequestLayer,
    /// The registry's validation (422 `Invalid`), which belongs to the next issue.
    Validation,
    /// smd's field manager answers otherwise than the server's to the same request (issue 12,
    /// item 6, where the count must reach 0).
    FieldManager,
    /// A CRD's structural schema at work: `default`s applied and unknown fields pruned (the
    /// next issue).
    CrdDefaulting,
    /// One object served in several versions (a CRD's, autoscaling v1 and v2): the replay keeps
    /// objects by URL and smd converts neither objects nor managedFields (the next issue).
    Conversion,
    /// Admission plugins (NamespaceLifecycle, ServiceAccount) refusing before any write.
    Admission,
}

impl Category {
    /// The name printed in the counts.
    pub fn name(self) -> &'static str {
        match self {
            Category::Defaulting => "decoding and defaulting of built-in objects (item 4)",
            Category::RequestLayer => "request handling smd lacks (item 3)",
            Category::Validation => "registry validation (next issue)",
            Category::FieldManager => "the field manager's answer (item 6)",
            Category::CrdDefaulting => "CRD defaulting and pruning (next issue)",
            Category::Conversion => "version conversion (next issue)",
            Category::Admission => "admission plugins",
        }
    }
}

use Category::{
    Admission, Conversion, CrdDefaulting, Defaulting, FieldManager, RequestLayer, Validation,
};

/// The steps where smd knowingly differs from the real server: (scenario file, case, step
/// counted from 1, category). The test checks that each still differs.
pub const KNOWN_DISAGREEMENTS: &[(&str, &str, usize, Category)] = &[
    // A PUT of a missing object: the request layer answers 404 before any endpoint.
    ("configmap.yaml", "cm-update-missing", 1, RequestLayer),
    ("configmap.yaml", "cm-merge-patch", 2, RequestLayer),
    ("configmap.yaml", "cm-strict-unknown-field", 1, RequestLayer),
    ("configmap.yaml", "cm-strict-unknown-field", 2, RequestLayer),
    // Decoding into the Go type drops the unknown field; smd's update fails to type it and
    // records no entry.
    ("configmap.yaml", "cm-warn-unknown-field", 1, Defaulting),
    // The body's name is checked against the URL's by the request layer.
    ("configmap.yaml", "cm-apply-wrong-name", 1, RequestLayer),
    // 404 from the router ("the server could not find the requested resource"); smd's
    // Endpoint says which subresource it lacks.
    (
        "configmap.yaml",
        "cm-apply-status-not-served",
        2,
        RequestLayer,
    ),
    // The created Deployment is defaulted (strategy, revisionHistoryLimit, the container's
    // terminationMessagePath, ...) and the live object it is compared with is the zero
    // Deployment (`spec: {}`), so there is no "." for spec.
    ("deployment.yaml", "deploy-create", 1, Defaulting),
    ("deployment.yaml", "deploy-merge-patch", 2, RequestLayer),
    ("deployment.yaml", "deploy-dry-run-create", 1, Defaulting),
    (
        "deployment.yaml",
        "deploy-strict-unknown-field",
        1,
        RequestLayer,
    ),
    // The stored Deployment, decoded into the Go type, has `status: {}`, so the status
    // Update's entry has no "." for status; smd's stored object has no status.
    ("deployment.yaml", "deploy-status-update", 2, Defaulting),
    // The created Service is defaulted (protocol, sessionAffinity, type,
    // internalTrafficPolicy) from the zero Service.
    ("service.yaml", "svc-create-cluster-ip", 1, Defaulting),
    ("service.yaml", "svc-generate-name", 1, Defaulting),
    // The created Pod is defaulted (the container's imagePullPolicy, terminationMessagePath,
    // ..., dnsPolicy, restartPolicy, ...); what admission adds after the field manager (the
    // token volume, serviceAccountName, tolerations) is in no entry.
    ("pod.yaml", "pod-create", 1, Defaulting),
    // Two ports without names.
    ("service.yaml", "svc-ports-need-names", 2, Validation),
    (
        "widget.yaml",
        "widget-strict-unknown-field",
        1,
        RequestLayer,
    ),
    // A custom resource takes no unconditional update (no resourceVersion: 422).
    (
        "widget.yaml",
        "widget-update-unconditional",
        2,
        RequestLayer,
    ),
    // The scenarios below cover every kind and request kind of issue 12 item 5; per file, why
    // smd differs (counts in brackets).
    // autoscaling-policy.yaml: defaults (and unknown fields dropped) in the Update entry (3); 422
    // from validation (2); an object applied in another version; gets; merge patches.
    (
        "autoscaling-policy.yaml",
        "hpa-behavior-defaults",
        1,
        Defaulting,
    ),
    (
        "autoscaling-policy.yaml",
        "hpa-create-minimal",
        1,
        Defaulting,
    ),
    (
        "autoscaling-policy.yaml",
        "hpa-min-above-max",
        1,
        Validation,
    ),
    (
        "autoscaling-policy.yaml",
        "hpa-v1-apply-over-v2",
        2,
        Conversion,
    ),
    (
        "autoscaling-policy.yaml",
        "hpa-v1-read-of-v2",
        2,
        RequestLayer,
    ),
    ("autoscaling-policy.yaml", "pdb-both-set", 1, Validation),
    (
        "autoscaling-policy.yaml",
        "pdb-create-min-available",
        1,
        Defaulting,
    ),
    (
        "autoscaling-policy.yaml",
        "pdb-eviction-policy",
        2,
        RequestLayer,
    ),
    // csa-upgrade.yaml: defaults (and unknown fields dropped) in the Update entry; strategic merge
    // patches.
    ("csa-upgrade.yaml", "csa-deployment", 1, Defaulting),
    ("csa-upgrade.yaml", "csa-patch-then-apply", 2, RequestLayer),
    // daemonset.yaml: defaults (and unknown fields dropped) in the Update entry (4); merge patches
    // (2); the message of a refusal; strategic merge patches.
    ("daemonset.yaml", "ds-apply-on-delete", 1, Defaulting),
    ("daemonset.yaml", "ds-create", 1, Defaulting),
    (
        "daemonset.yaml",
        "ds-merge-patch-containers",
        2,
        RequestLayer,
    ),
    ("daemonset.yaml", "ds-scale-not-served", 2, RequestLayer),
    ("daemonset.yaml", "ds-smp-containers", 2, RequestLayer),
    ("daemonset.yaml", "ds-status-apply", 2, Defaulting),
    (
        "daemonset.yaml",
        "ds-update-selector-immutable",
        1,
        Defaulting,
    ),
    (
        "daemonset.yaml",
        "ds-update-selector-immutable",
        2,
        RequestLayer,
    ),
    // deployment-lists.yaml: defaults (and unknown fields dropped) in the Update entry (2);
    // decoding (canonical quantities, base64, types).
    (
        "deployment-lists.yaml",
        "dl-create-max-surge-int",
        1,
        Defaulting,
    ),
    ("deployment-lists.yaml", "dl-create-recreate", 1, Defaulting),
    (
        "deployment-lists.yaml",
        "dl-resources-other-spelling-conflict",
        2,
        Defaulting,
    ),
    // gizmo.yaml: merge patches (4); fieldsV1 order of list-map keys (3); schema defaults and
    // pruning (2); an object applied in another version (2); deletes; 422 from validation; JSON
    // patches; an update of an object smd does not hold; strategic merge patches; the request layer
    // answers 409; gets.
    ("gizmo.yaml", "gizmo-create-defaults", 1, CrdDefaulting),
    ("gizmo.yaml", "gizmo-delete", 2, RequestLayer),
    ("gizmo.yaml", "gizmo-enum-invalid", 1, Validation),
    ("gizmo.yaml", "gizmo-generation", 2, RequestLayer),
    ("gizmo.yaml", "gizmo-generation", 3, RequestLayer),
    ("gizmo.yaml", "gizmo-generation", 4, RequestLayer),
    ("gizmo.yaml", "gizmo-json-patch", 2, RequestLayer),
    ("gizmo.yaml", "gizmo-merge-patch", 1, FieldManager),
    ("gizmo.yaml", "gizmo-merge-patch", 2, RequestLayer),
    ("gizmo.yaml", "gizmo-ports-remove-item", 1, FieldManager),
    ("gizmo.yaml", "gizmo-ports-remove-item", 2, FieldManager),
    ("gizmo.yaml", "gizmo-scale-v1beta1", 2, RequestLayer),
    ("gizmo.yaml", "gizmo-smp-unsupported", 2, RequestLayer),
    ("gizmo.yaml", "gizmo-two-versions-managers", 2, Conversion),
    ("gizmo.yaml", "gizmo-two-versions-managers", 3, Conversion),
    ("gizmo.yaml", "gizmo-update-stale-version", 1, CrdDefaulting),
    ("gizmo.yaml", "gizmo-update-stale-version", 2, RequestLayer),
    ("gizmo.yaml", "gizmo-v1beta1-apply", 2, RequestLayer),
    // job.yaml: defaults (and unknown fields dropped) in the Update entry (4); 422 from validation
    // (3); merge patches (2).
    ("job.yaml", "cronjob-bad-schedule", 1, Validation),
    ("job.yaml", "cronjob-create", 1, Defaulting),
    ("job.yaml", "cronjob-status-merge-patch", 2, RequestLayer),
    ("job.yaml", "job-apply-template-change", 2, Validation),
    ("job.yaml", "job-create", 1, Defaulting),
    ("job.yaml", "job-generate-name", 1, Defaulting),
    ("job.yaml", "job-manual-selector", 1, Defaulting),
    ("job.yaml", "job-restart-always", 1, Validation),
    ("job.yaml", "job-suspend-merge-patch", 2, RequestLayer),
    // managers.yaml: merge patches (16).
    ("managers.yaml", "mgr-ancient-changes", 2, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 3, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 4, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 5, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 6, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 7, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 8, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 9, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 10, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 11, RequestLayer),
    ("managers.yaml", "mgr-ancient-changes", 12, RequestLayer),
    (
        "managers.yaml",
        "mgr-apply-removal-of-update-owned",
        2,
        RequestLayer,
    ),
    ("managers.yaml", "mgr-before-first-apply", 2, RequestLayer),
    (
        "managers.yaml",
        "mgr-status-and-main-entries",
        3,
        RequestLayer,
    ),
    (
        "managers.yaml",
        "mgr-update-same-manager-twice",
        2,
        RequestLayer,
    ),
    ("managers.yaml", "mgr-update-takes-over", 2, RequestLayer),
    // namespace-sa-pvc.yaml: defaults (and unknown fields dropped) in the Update entry (5); deletes
    // (2); admission plugins (2); 422 from validation (2); merge patches; the request layer answers
    // 404.
    ("namespace-sa-pvc.yaml", "ns-create", 1, Defaulting),
    (
        "namespace-sa-pvc.yaml",
        "ns-delete-terminating",
        1,
        Defaulting,
    ),
    (
        "namespace-sa-pvc.yaml",
        "ns-delete-terminating",
        2,
        RequestLayer,
    ),
    (
        "namespace-sa-pvc.yaml",
        "ns-delete-terminating",
        3,
        Admission,
    ),
    (
        "namespace-sa-pvc.yaml",
        "ns-finalizers-merge-patch",
        1,
        Defaulting,
    ),
    (
        "namespace-sa-pvc.yaml",
        "ns-finalizers-merge-patch",
        2,
        RequestLayer,
    ),
    ("namespace-sa-pvc.yaml", "ns-missing", 1, Admission),
    ("namespace-sa-pvc.yaml", "pvc-create", 1, Defaulting),
    (
        "namespace-sa-pvc.yaml",
        "pvc-delete-finalizer",
        1,
        Defaulting,
    ),
    (
        "namespace-sa-pvc.yaml",
        "pvc-delete-finalizer",
        2,
        RequestLayer,
    ),
    (
        "namespace-sa-pvc.yaml",
        "pvc-no-access-modes",
        1,
        Validation,
    ),
    ("namespace-sa-pvc.yaml", "pvc-resize-unbound", 2, Validation),
    (
        "namespace-sa-pvc.yaml",
        "sa-token-subresource-missing",
        1,
        RequestLayer,
    ),
    // networking.yaml: defaults (and unknown fields dropped) in the Update entry (3); 422 from
    // validation (2); JSON patches.
    ("networking.yaml", "ing-create", 1, Defaulting),
    (
        "networking.yaml",
        "ing-default-backend-json-patch",
        2,
        RequestLayer,
    ),
    ("networking.yaml", "ing-missing-path-type", 1, Validation),
    ("networking.yaml", "netpol-bad-cidr", 1, Validation),
    (
        "networking.yaml",
        "netpol-create-ingress-only",
        1,
        Defaulting,
    ),
    ("networking.yaml", "netpol-deny-all", 1, Defaulting),
    // patch.yaml: merge patches (12); JSON patches (10); strategic merge patches (6); bodies given
    // as text (5); CBOR applies; the message of a refusal; a patch typed application/json; an
    // unknown patch type.
    ("patch.yaml", "patch-apply-cbor", 1, RequestLayer),
    ("patch.yaml", "patch-apply-empty-body", 1, RequestLayer),
    ("patch.yaml", "patch-apply-invalid-yaml", 1, RequestLayer),
    ("patch.yaml", "patch-apply-list-body", 1, RequestLayer),
    ("patch.yaml", "patch-apply-two-documents", 1, RequestLayer),
    ("patch.yaml", "patch-apply-yaml-text", 1, RequestLayer),
    ("patch.yaml", "patch-json-empty", 2, RequestLayer),
    ("patch.yaml", "patch-json-list-index", 2, RequestLayer),
    ("patch.yaml", "patch-json-missing-path", 2, RequestLayer),
    ("patch.yaml", "patch-json-not-a-list", 2, RequestLayer),
    ("patch.yaml", "patch-json-remove", 2, RequestLayer),
    ("patch.yaml", "patch-json-replace", 2, RequestLayer),
    ("patch.yaml", "patch-json-test-fails", 2, RequestLayer),
    (
        "patch.yaml",
        "patch-json-test-resource-version",
        2,
        RequestLayer,
    ),
    ("patch.yaml", "patch-json-unknown-op", 2, RequestLayer),
    ("patch.yaml", "patch-merge-change-kind", 2, RequestLayer),
    ("patch.yaml", "patch-merge-change-name", 2, RequestLayer),
    ("patch.yaml", "patch-merge-create-missing", 1, RequestLayer),
    ("patch.yaml", "patch-merge-invalid-json", 2, RequestLayer),
    ("patch.yaml", "patch-merge-null-deletes", 2, RequestLayer),
    (
        "patch.yaml",
        "patch-merge-resource-version-match",
        2,
        RequestLayer,
    ),
    (
        "patch.yaml",
        "patch-merge-resource-version-stale",
        2,
        RequestLayer,
    ),
    ("patch.yaml", "patch-merge-same-value", 2, RequestLayer),
    (
        "patch.yaml",
        "patch-merge-status-ignored-main",
        2,
        RequestLayer,
    ),
    ("patch.yaml", "patch-merge-uid-mismatch", 2, RequestLayer),
    (
        "patch.yaml",
        "patch-merge-user-agent-manager",
        2,
        RequestLayer,
    ),
    ("patch.yaml", "patch-merge-wrong-type", 2, RequestLayer),
    (
        "patch.yaml",
        "patch-plain-json-content-type",
        2,
        RequestLayer,
    ),
    ("patch.yaml", "patch-scale-json", 2, RequestLayer),
    ("patch.yaml", "patch-scale-merge", 2, RequestLayer),
    ("patch.yaml", "patch-smp-bad-directive", 2, RequestLayer),
    ("patch.yaml", "patch-smp-configmap", 2, RequestLayer),
    ("patch.yaml", "patch-smp-containers-merge", 2, RequestLayer),
    ("patch.yaml", "patch-smp-delete-directive", 2, RequestLayer),
    ("patch.yaml", "patch-smp-replace-directive", 2, RequestLayer),
    ("patch.yaml", "patch-smp-set-element-order", 2, RequestLayer),
    ("patch.yaml", "patch-unknown-content-type", 2, RequestLayer),
    // pod-defaults.yaml: defaults (and unknown fields dropped) in the Update entry (7); 422 from
    // validation (2); decoding (canonical quantities, base64, types) (2); deletes; merge patches;
    // admission plugins.
    ("pod-defaults.yaml", "pod-delete", 2, RequestLayer),
    ("pod-defaults.yaml", "pod-env-change-refused", 2, Validation),
    ("pod-defaults.yaml", "pod-init-containers", 1, Defaulting),
    (
        "pod-defaults.yaml",
        "pod-labels-merge-patch",
        2,
        RequestLayer,
    ),
    ("pod-defaults.yaml", "pod-latest-pull-policy", 1, Defaulting),
    ("pod-defaults.yaml", "pod-no-service-account", 1, Admission),
    ("pod-defaults.yaml", "pod-probe-defaults", 1, Defaulting),
    (
        "pod-defaults.yaml",
        "pod-quantities-canonical",
        1,
        Defaulting,
    ),
    ("pod-defaults.yaml", "pod-quantity-invalid", 1, Defaulting),
    (
        "pod-defaults.yaml",
        "pod-quantity-reapply-other-spelling",
        2,
        Defaulting,
    ),
    (
        "pod-defaults.yaml",
        "pod-requests-from-limits",
        1,
        Defaulting,
    ),
    ("pod-defaults.yaml", "pod-security-context", 1, Defaulting),
    ("pod-defaults.yaml", "pod-spec-immutable", 2, Validation),
    ("pod-defaults.yaml", "pod-volumes-defaults", 1, Defaulting),
    // rbac.yaml: 422 from validation (2); the request layer answers 404; strategic merge patches.
    ("rbac.yaml", "clusterrole-namespace-in-url", 1, RequestLayer),
    ("rbac.yaml", "role-no-verbs", 1, Validation),
    ("rbac.yaml", "role-smp-rules", 2, RequestLayer),
    ("rbac.yaml", "rolebinding-roleref-immutable", 2, Validation),
    // refusals.yaml: the request layer answers 400 (9); 422 from validation (4); the request layer
    // answers 422 (3); bodies given as text (3); the request layer answers 409 (2); the request
    // layer answers 413 (2); merge patches; defaults (and unknown fields dropped) in the Update
    // entry; the request layer answers 405; a POST to an object; an update of an object smd does
    // not hold; an unknown resource; the request layer answers 404.
    ("refusals.yaml", "refuse-apply-name-invalid", 1, Validation),
    (
        "refusals.yaml",
        "refuse-apply-name-missing",
        1,
        RequestLayer,
    ),
    (
        "refusals.yaml",
        "refuse-apply-namespace-mismatch",
        1,
        RequestLayer,
    ),
    (
        "refusals.yaml",
        "refuse-apply-resource-version-stale",
        2,
        RequestLayer,
    ),
    ("refusals.yaml", "refuse-apply-too-large", 1, RequestLayer),
    ("refusals.yaml", "refuse-apply-uid-mismatch", 2, Validation),
    ("refusals.yaml", "refuse-bad-dry-run", 1, RequestLayer),
    (
        "refusals.yaml",
        "refuse-bad-field-validation",
        1,
        RequestLayer,
    ),
    (
        "refusals.yaml",
        "refuse-force-on-merge-patch",
        2,
        RequestLayer,
    ),
    ("refusals.yaml", "refuse-label-value-invalid", 1, Validation),
    ("refusals.yaml", "refuse-post-duplicate", 2, RequestLayer),
    ("refusals.yaml", "refuse-post-empty-body", 1, RequestLayer),
    ("refusals.yaml", "refuse-post-invalid-json", 1, RequestLayer),
    ("refusals.yaml", "refuse-post-name-invalid", 1, Validation),
    ("refusals.yaml", "refuse-post-name-missing", 1, RequestLayer),
    (
        "refusals.yaml",
        "refuse-post-namespace-mismatch",
        1,
        RequestLayer,
    ),
    ("refusals.yaml", "refuse-post-no-kind", 1, RequestLayer),
    (
        "refusals.yaml",
        "refuse-post-to-object-path",
        1,
        RequestLayer,
    ),
    ("refusals.yaml", "refuse-post-too-large", 1, RequestLayer),
    (
        "refusals.yaml",
        "refuse-post-unsupported-media-type",
        1,
        RequestLayer,
    ),
    (
        "refusals.yaml",
        "refuse-post-wrong-api-version",
        1,
        RequestLayer,
    ),
    ("refusals.yaml", "refuse-post-wrong-kind", 1, RequestLayer),
    ("refusals.yaml", "refuse-post-yaml", 1, RequestLayer),
    ("refusals.yaml", "refuse-put-name-mismatch", 2, RequestLayer),
    ("refusals.yaml", "refuse-put-name-missing", 2, RequestLayer),
    (
        "refusals.yaml",
        "refuse-put-namespace-mismatch",
        2,
        RequestLayer,
    ),
    ("refusals.yaml", "refuse-put-to-collection", 1, RequestLayer),
    ("refusals.yaml", "refuse-put-wrong-kind", 2, RequestLayer),
    ("refusals.yaml", "refuse-unknown-resource", 1, RequestLayer),
    ("refusals.yaml", "refuse-unknown-version", 1, RequestLayer),
    // secret.yaml: 422 from validation (6); defaults (and unknown fields dropped) in the Update
    // entry (5); decoding (canonical quantities, base64, types) (3).
    ("secret.yaml", "cm-binary-data", 2, Validation),
    ("secret.yaml", "cm-data-number-value", 1, Defaulting),
    ("secret.yaml", "cm-immutable", 2, Validation),
    ("secret.yaml", "secret-apply-bad-base64", 1, Defaulting),
    ("secret.yaml", "secret-bad-base64", 1, Defaulting),
    ("secret.yaml", "secret-create", 1, Defaulting),
    ("secret.yaml", "secret-create-string-data", 1, Defaulting),
    (
        "secret.yaml",
        "secret-create-string-data-overrides",
        1,
        Defaulting,
    ),
    (
        "secret.yaml",
        "secret-dockerconfigjson-invalid",
        1,
        Validation,
    ),
    ("secret.yaml", "secret-immutable", 2, Validation),
    ("secret.yaml", "secret-tls-create", 1, Defaulting),
    ("secret.yaml", "secret-tls-missing-key", 1, Validation),
    ("secret.yaml", "secret-type-immutable", 2, Validation),
    ("secret.yaml", "secret-update-string-data", 2, Defaulting),
    // service-types.yaml: defaults (and unknown fields dropped) in the Update entry (7); 422 from
    // validation (3); merge patches.
    (
        "service-types.yaml",
        "svc-cluster-ip-immutable",
        2,
        RequestLayer,
    ),
    (
        "service-types.yaml",
        "svc-cluster-ip-out-of-range",
        1,
        Validation,
    ),
    (
        "service-types.yaml",
        "svc-dry-run-no-allocation",
        1,
        Defaulting,
    ),
    (
        "service-types.yaml",
        "svc-external-name-create",
        1,
        Defaulting,
    ),
    ("service-types.yaml", "svc-headless-create", 1, Defaulting),
    (
        "service-types.yaml",
        "svc-load-balancer-create",
        1,
        Defaulting,
    ),
    (
        "service-types.yaml",
        "svc-local-traffic-policy-create",
        1,
        Defaulting,
    ),
    ("service-types.yaml", "svc-node-port-create", 1, Defaulting),
    ("service-types.yaml", "svc-node-port-taken", 2, Validation),
    ("service-types.yaml", "svc-session-affinity", 1, Defaulting),
    (
        "service-types.yaml",
        "svc-target-port-numeric-string",
        1,
        Validation,
    ),
    // statefulset.yaml: defaults (and unknown fields dropped) in the Update entry (4); merge
    // patches (3); 422 from validation (2); gets.
    (
        "statefulset.yaml",
        "sts-apply-selector-mismatch",
        1,
        Validation,
    ),
    ("statefulset.yaml", "sts-create", 1, Defaulting),
    (
        "statefulset.yaml",
        "sts-generation-on-spec-change",
        1,
        Defaulting,
    ),
    (
        "statefulset.yaml",
        "sts-generation-on-spec-change",
        2,
        RequestLayer,
    ),
    (
        "statefulset.yaml",
        "sts-generation-on-spec-change",
        3,
        RequestLayer,
    ),
    ("statefulset.yaml", "sts-scale-get", 2, RequestLayer),
    ("statefulset.yaml", "sts-scale-update", 1, Defaulting),
    (
        "statefulset.yaml",
        "sts-status-merge-patch",
        2,
        RequestLayer,
    ),
    (
        "statefulset.yaml",
        "sts-update-immutable-claims",
        1,
        Defaulting,
    ),
    (
        "statefulset.yaml",
        "sts-update-immutable-claims",
        2,
        Validation,
    ),
    // update-delete.yaml: deletes (10); gets (2); managedFields [] or [{}] in an update (2); the
    // request layer answers 409 (2); a delete finishing when its finalizer goes; merge patches; the
    // request layer answers 500; an update of an object smd does not hold.
    (
        "update-delete.yaml",
        "delete-deployment-orphan",
        2,
        RequestLayer,
    ),
    ("update-delete.yaml", "delete-dry-run", 2, RequestLayer),
    ("update-delete.yaml", "delete-foreground", 2, RequestLayer),
    ("update-delete.yaml", "delete-missing", 1, RequestLayer),
    ("update-delete.yaml", "delete-plain", 2, RequestLayer),
    (
        "update-delete.yaml",
        "delete-precondition-uid",
        2,
        RequestLayer,
    ),
    (
        "update-delete.yaml",
        "delete-precondition-version-current",
        2,
        RequestLayer,
    ),
    (
        "update-delete.yaml",
        "delete-precondition-version-stale",
        2,
        RequestLayer,
    ),
    (
        "update-delete.yaml",
        "delete-then-apply-recreates",
        2,
        RequestLayer,
    ),
    (
        "update-delete.yaml",
        "delete-with-finalizer",
        2,
        RequestLayer,
    ),
    (
        "update-delete.yaml",
        "delete-with-finalizer",
        4,
        RequestLayer,
    ),
    ("update-delete.yaml", "get-after-apply", 2, RequestLayer),
    ("update-delete.yaml", "get-missing", 1, RequestLayer),
    (
        "update-delete.yaml",
        "merge-patch-clear-managed-fields",
        2,
        RequestLayer,
    ),
    ("update-delete.yaml", "put-bad-version", 2, RequestLayer),
    (
        "update-delete.yaml",
        "put-empty-managed-fields-entry",
        2,
        FieldManager,
    ),
    (
        "update-delete.yaml",
        "put-empty-managed-fields-list",
        2,
        FieldManager,
    ),
    (
        "update-delete.yaml",
        "put-missing-with-version",
        1,
        RequestLayer,
    ),
    ("update-delete.yaml", "put-uid-mismatch", 2, RequestLayer),
    (
        "update-delete.yaml",
        "put-with-stale-version",
        2,
        RequestLayer,
    ),
    // validation-dryrun.yaml: fieldValidation=Strict (7); merge patches (3); bodies given as text
    // (3); defaults (and unknown fields dropped) in the Update entry (3); 422 from validation;
    // schema defaults and pruning.
    ("validation-dryrun.yaml", "dry-run-invalid", 1, Validation),
    (
        "validation-dryrun.yaml",
        "dry-run-merge-patch",
        2,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-apply-strict-duplicate-yaml",
        1,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-apply-warn-duplicate-yaml",
        1,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-cr-ignore-merge-patch",
        2,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-cr-strict-create",
        1,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-cr-warn-unknown",
        1,
        CrdDefaulting,
    ),
    (
        "validation-dryrun.yaml",
        "fv-create-ignore-duplicate",
        1,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-create-ignore-unknown",
        1,
        Defaulting,
    ),
    (
        "validation-dryrun.yaml",
        "fv-create-strict-duplicate",
        1,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-create-warn-duplicate",
        1,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-create-warn-explicit",
        1,
        Defaulting,
    ),
    (
        "validation-dryrun.yaml",
        "fv-json-patch-strict-unknown",
        2,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-merge-patch-strict-unknown",
        2,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-merge-patch-warn-unknown",
        2,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-smp-strict-unknown",
        2,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-update-strict-unknown",
        2,
        RequestLayer,
    ),
    (
        "validation-dryrun.yaml",
        "fv-update-warn-unknown",
        2,
        Defaulting,
    ),
];

/// How one step went.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// smd answers as the server did.
    Agree,
    /// smd answers otherwise: what differs.
    Differs(String),
    /// smd has no call for this request.
    Unsupported(Category, String),
}

/// One step's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    /// The case's name.
    pub case: String,
    /// The step, counted from 1.
    pub step: usize,
    /// How it went.
    pub outcome: Outcome,
}

/// The time smd stamps at step `k` (0: before the first step).
pub fn step_time(k: usize) -> Timestamp {
    Timestamp::from_unix(1_700_000_000 + 60 * i64::try_from(k).unwrap_or(0))
}

/// Replays every case of one scenario file against its golden.
pub fn replay_file(scenario: &Path, golden: &Path) -> Result<Vec<StepReport>, String> {
    let text = std::fs::read_to_string(scenario).map_err(|e| format!("{e}"))?;
    let file: Json = serde_json::to_value(
        smd_fieldpath::yaml::from_str(&text).map_err(|e| format!("not valid YAML: {e}"))?,
    )
    .map_err(|e| e.to_string())?;
    if file["format"] != SCENARIO_FORMAT {
        return Err(format!("format is not {SCENARIO_FORMAT}"));
    }
    let golden_path = golden;
    let golden: Json = serde_json::from_str(
        &std::fs::read_to_string(golden_path)
            .map_err(|e| format!("{}: {e}", golden_path.display()))?,
    )
    .map_err(|e| format!("{}: {e}", golden_path.display()))?;
    if golden["format"] != GOLDEN_FORMAT {
        return Err(format!(
            "{}: format is not {GOLDEN_FORMAT}",
            golden_path.display()
        ));
    }
    let crds: Vec<Value> = file["crds"]
        .as_array()
        .map(|l| l.iter().map(to_value).collect::<Result<_, _>>())
        .transpose()?
        .unwrap_or_default();
    let mut reports = Vec::new();
    for case in file["cases"].as_array().ok_or("no cases")? {
        let name = case["name"].as_str().ok_or("a case without a name")?;
        let expected = golden["results"][name]["steps"]
            .as_array()
            .ok_or_else(|| format!("case {name}: no golden (run conformance/apiserver/regen)"))?;
        let steps = case["steps"].as_array().ok_or("no steps")?;
        if steps.len() != expected.len() {
            return Err(format!(
                "case {name}: {} steps, the golden has {} (run conformance/apiserver/regen)",
                steps.len(),
                expected.len()
            ));
        }
        let mut replay = CaseReplay {
            namespace: name,
            crds: &crds,
            endpoints: BTreeMap::new(),
            store: BTreeMap::new(),
        };
        for (i, (step, server)) in steps.iter().zip(expected).enumerate() {
            let outcome = replay
                .step(i + 1, step, server)
                .map_err(|e| format!("case {name}: step {}: {e}", i + 1))?;
            reports.push(StepReport {
                case: name.to_owned(),
                step: i + 1,
                outcome,
            });
        }
    }
    Ok(reports)
}

struct CaseReplay<'a> {
    namespace: &'a str,
    crds: &'a [Value],
    endpoints: BTreeMap<(String, String, String), Endpoint>,
    /// Objects by URL path (without subresource).
    store: BTreeMap<String, Value>,
}

/// A request's URL, taken apart.
struct Target {
    group: String,
    version: String,
    plural: String,
    /// The object's path (no subresource); for a create, the collection's.
    path: String,
    subresource: String,
}

fn parse_path(path: &str) -> Result<Target, String> {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let (group, version, rest) = match parts.as_slice() {
        ["api", version, rest @ ..] => ("", *version, rest),
        ["apis", group, version, rest @ ..] => (*group, *version, rest),
        _ => return Err(format!("path {path}: not /api/... or /apis/...")),
    };
    let (plural, subresource) = match rest {
        ["namespaces", _, plural] | ["namespaces", _, plural, _] => (*plural, ""),
        ["namespaces", _, plural, _, sub] => (*plural, *sub),
        // Cluster-scoped: Namespaces themselves, ClusterRoles, IngressClasses, ...
        [plural] | [plural, _] => (*plural, ""),
        [plural, _, sub] => (*plural, *sub),
        _ => return Err(format!("path {path}: not a resource's path")),
    };
    let object = match subresource {
        "" => path.to_owned(),
        sub => path
            .strip_suffix(&format!("/{sub}"))
            .unwrap_or(path)
            .to_owned(),
    };
    Ok(Target {
        group: group.to_owned(),
        version: version.to_owned(),
        plural: plural.to_owned(),
        path: object,
        subresource: subresource.to_owned(),
    })
}

/// The built-in resources the scenarios use, by group and plural.
const BUILT_IN: &[(&str, &str, &str)] = &[
    ("", "configmaps", "ConfigMap"),
    ("", "namespaces", "Namespace"),
    ("", "persistentvolumeclaims", "PersistentVolumeClaim"),
    ("", "pods", "Pod"),
    ("", "secrets", "Secret"),
    ("", "serviceaccounts", "ServiceAccount"),
    ("", "services", "Service"),
    ("apps", "daemonsets", "DaemonSet"),
    ("apps", "deployments", "Deployment"),
    ("apps", "statefulsets", "StatefulSet"),
    (
        "autoscaling",
        "horizontalpodautoscalers",
        "HorizontalPodAutoscaler",
    ),
    ("batch", "cronjobs", "CronJob"),
    ("batch", "jobs", "Job"),
    ("networking.k8s.io", "ingressclasses", "IngressClass"),
    ("networking.k8s.io", "ingresses", "Ingress"),
    ("networking.k8s.io", "networkpolicies", "NetworkPolicy"),
    ("policy", "poddisruptionbudgets", "PodDisruptionBudget"),
    (
        "rbac.authorization.k8s.io",
        "clusterrolebindings",
        "ClusterRoleBinding",
    ),
    ("rbac.authorization.k8s.io", "clusterroles", "ClusterRole"),
    ("rbac.authorization.k8s.io", "rolebindings", "RoleBinding"),
    ("rbac.authorization.k8s.io", "roles", "Role"),
];

impl CaseReplay<'_> {
    fn endpoint(&mut self, t: &Target) -> Result<&Endpoint, String> {
        let key = (t.group.clone(), t.version.clone(), t.plural.clone());
        if !self.endpoints.contains_key(&key) {
            let endpoint = if let Some((_, _, kind)) = BUILT_IN
                .iter()
                .find(|(g, p, _)| *g == t.group && *p == t.plural)
            {
                Endpoint::kubernetes(GroupVersionKind::new(&t.group, &t.version, *kind))
            } else {
                let crd = self
                    .crds
                    .iter()
                    .find(|crd| {
                        let spec = &crd_json(crd)["spec"];
                        spec["group"] == t.group.as_str() && spec["names"]["plural"] == t.plural
                    })
                    .ok_or_else(|| {
                        format!(
                            "no endpoint for {}/{} {} (add it to BUILT_IN, or the CRD to the file)",
                            t.group, t.version, t.plural
                        )
                    })?;
                let converted = smd_schema::crd::convert(crd).map_err(|e| e.to_string())?;
                let types = TypeResolver::kubernetes()
                    .with_crds([converted])
                    .map_err(|e| e.to_string())?;
                Endpoint::custom_resource(crd, &t.version, types)
                    .ok_or_else(|| format!("the CRD does not serve {}", t.version))?
            };
            self.endpoints.insert(key.clone(), endpoint);
        }
        self.endpoints
            .get(&key)
            .ok_or_else(|| "endpoint lost".to_owned())
    }

    fn step(&mut self, k: usize, step: &Json, server: &Json) -> Result<Outcome, String> {
        let method = step["method"].as_str().ok_or("no method")?;
        let path = step["path"]
            .as_str()
            .ok_or("no path")?
            .replace("{namespace}", self.namespace);
        let target = parse_path(&path)?;
        let content_type = step["contentType"].as_str().unwrap_or("application/json");
        let query = |name: &str| match &step["query"][name] {
            Json::String(s) => s.clone(),
            Json::Bool(b) => b.to_string(),
            Json::Number(n) => n.to_string(),
            _ => String::new(),
        };
        let manager = manager_or_user_agent(
            &query("fieldManager"),
            step["userAgent"].as_str().unwrap_or(DEFAULT_USER_AGENT),
        );
        let force = query("force") == "true";
        let dry_run = query("dryRun") == "All";
        let now = step_time(k);
        let body = match &step["body"] {
            Json::Null => None,
            b => Some(to_value(&self.with_resource_version(b, &target))?),
        };

        let served = BUILT_IN
            .iter()
            .any(|(g, p, _)| *g == target.group && *p == target.plural)
            || self.crds.iter().any(|crd| {
                let spec = &crd_json(crd)["spec"];
                spec["group"] == target.group.as_str() && spec["names"]["plural"] == target.plural
            });
        if !served {
            // The server's router answers 404 before any handler.
            return Ok(Outcome::Unsupported(
                RequestLayer,
                format!("a resource the server does not serve ({})", target.plural),
            ));
        }
        let unsupported = |why: &str| Ok::<_, String>(Err((RequestLayer, why.to_owned())));
        let stored = self.store.get(&target.path).cloned();
        let answer = match (method, content_type) {
            _ if query("fieldValidation") == "Strict" => unsupported("fieldValidation=Strict")?,
            _ if step["bodyText"].is_string() => unsupported("a body given as text")?,
            ("POST", "application/json") => {
                let body = body.ok_or("a POST without a body")?;
                let endpoint = self.endpoint(&target)?;
                Ok(endpoint
                    .create(body, &manager, now)
                    .map(|w| (w.object, 201)))
            }
            ("PATCH", "application/apply-patch+yaml") => {
                let body = body.ok_or("an apply without a body")?;
                let created = stored.is_none() && target.subresource.is_empty();
                let sub = target.subresource.clone();
                let endpoint = self.endpoint(&target)?;
                // An apply takes no manager from the User-Agent: fieldManager is required.
                let manager = query("fieldManager");
                Ok(endpoint
                    .apply(stored.as_ref(), &body, &manager, force, &sub, now)
                    .map(|o| (o, if created { 201 } else { 200 })))
            }
            ("PUT", "application/json") => match &stored {
                None => unsupported("an update of an object that does not exist")?,
                Some(stored) => {
                    let body = body.ok_or("a PUT without a body")?;
                    let sub = target.subresource.clone();
                    let endpoint = self.endpoint(&target)?;
                    let written = if sub == "scale" {
                        let replicas = body
                            .as_map()
                            .and_then(|m| m.get("spec"))
                            .and_then(Value::as_map)
                            .and_then(|s| s.get("replicas"))
                            .and_then(Value::as_int)
                            .ok_or("a Scale without spec.replicas")?;
                        endpoint.scale(stored, replicas, &manager, now)
                    } else {
                        endpoint.update(stored, body, &manager, &sub, now)
                    };
                    Ok(written.map(|w| (w.object, 200)))
                }
            },
            ("PATCH", other) => unsupported(&format!("a patch of type {other}"))?,
            (other, _) => unsupported(&format!("{other} requests"))?,
        };

        let outcome = match answer {
            Err((category, why)) => Outcome::Unsupported(category, why),
            Ok(result) => {
                // A scale request answers a Scale, whose entries are not the parent's: the
                // parent's are compared on the stored object.
                let differs = compare_step(result.as_ref(), server, target.subresource == "scale");
                if let (Ok((object, _)), None, false) = (&result, &differs, dry_run) {
                    let key = match method {
                        "POST" => format!("{}/{}", target.path, object_name(object)),
                        _ => target.path.clone(),
                    };
                    self.store.insert(key, object.clone());
                }
                match differs {
                    None => Outcome::Agree,
                    Some(d) => Outcome::Differs(d),
                }
            }
        };
        if outcome != Outcome::Agree {
            self.adopt_server_state(method, &target, server, step, dry_run)?;
        } else if let Some(expected) = server.get("stored") {
            // The stored object (smd's store) must show the server's entries too.
            let key = match method {
                "POST" => format!("{}/{}", target.path, created_name(server, step)),
                _ => target.path.clone(),
            };
            let ours = self.store.get(&key);
            let theirs = expected.get("kind").map(|_| expected);
            let same = match (ours, theirs) {
                (None, None) => true,
                (Some(o), Some(t)) => entries_of(o)? == golden_entries(t),
                _ => false,
            };
            if !same {
                let d = format!(
                    "stored object: server {}, smd {}",
                    theirs.map_or("none".to_owned(), |t| golden_entries(t).join("; ")),
                    ours.map_or(Ok("none".to_owned()), |o| entries_of(o)
                        .map(|e| e.join("; ")))?
                );
                self.adopt_server_state(method, &target, server, step, dry_run)?;
                return Ok(Outcome::Differs(d));
            }
        }
        Ok(outcome)
    }

    /// A body naming `{resourceVersion}` gets the stored object's, as gogen sends the latest.
    fn with_resource_version(&self, body: &Json, target: &Target) -> Json {
        let mut body = body.clone();
        if body["metadata"]["resourceVersion"] == "{resourceVersion}" {
            let rv = self
                .store
                .get(&target.path)
                .and_then(|o| {
                    o.as_map()?
                        .get("metadata")?
                        .as_map()?
                        .get("resourceVersion")
                })
                .and_then(Value::as_str)
                .unwrap_or("1")
                .to_owned();
            body["metadata"]["resourceVersion"] = Json::String(rv);
        }
        body
    }

    /// The case goes on from what the server stored after this step.
    fn adopt_server_state(
        &mut self,
        method: &str,
        target: &Target,
        server: &Json,
        step: &Json,
        dry_run: bool,
    ) -> Result<(), String> {
        let key = match method {
            "POST" => format!("{}/{}", target.path, created_name(server, step)),
            _ => target.path.clone(),
        };
        match server.get("stored") {
            Some(stored) if stored.get("kind").is_some() => {
                self.store.insert(key, denormalise(stored)?);
            }
            Some(_) => {
                self.store.remove(&key);
            }
            None => {
                // No GET after this step: a success answered the object (unless a dry run,
                // which changed nothing); a refusal changed nothing.
                let ok = server["status"]
                    .as_u64()
                    .is_some_and(|s| (200..300).contains(&s));
                if ok && !dry_run && server["body"].get("kind").is_some() {
                    self.store.insert(key, denormalise(&server["body"])?);
                }
            }
        }
        Ok(())
    }
}

fn crd_json(crd: &Value) -> Json {
    serde_json::to_value(crd).unwrap_or(Json::Null)
}

fn object_name(object: &Value) -> String {
    object
        .as_map()
        .and_then(|m| m.get("metadata"))
        .and_then(Value::as_map)
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// The name of the object a POST step made: the server's answer's, else the request's (as
/// gogen reads the stored object of a refused create).
fn created_name(server: &Json, step: &Json) -> String {
    let answered = &server["body"];
    let name = if answered["kind"] == "Status" {
        &step["body"]["metadata"]["name"]
    } else {
        &answered["metadata"]["name"]
    };
    name.as_str().unwrap_or_default().to_owned()
}

fn to_value(json: &Json) -> Result<Value, String> {
    Value::from_json(&json.to_string()).map_err(|e| e.to_string())
}

/// What differs between smd's answer and the server's, if anything: the status code, a
/// refusal's message, the entries of the object answered.
fn compare_step(
    result: Result<&(Value, u16), &Error>,
    server: &Json,
    stored_only: bool,
) -> Option<String> {
    let status = server["status"].as_u64().unwrap_or(0);
    let body = &server["body"];
    match result {
        Err(e) => {
            let message = body["message"].as_str().unwrap_or_default();
            if u64::from(e.code()) != status {
                return Some(format!(
                    "status: server {status} {message:?}, smd {} {:?}",
                    e.code(),
                    e.to_string()
                ));
            }
            if e.to_string() != message {
                return Some(format!(
                    "message: server {message:?}, smd {:?}",
                    e.to_string()
                ));
            }
            if body["reason"].as_str() != e.reason() {
                return Some(format!(
                    "reason: server {}, smd {:?}",
                    body["reason"],
                    e.reason()
                ));
            }
            let causes: Vec<Json> = e
                .causes()
                .into_iter()
                .map(|c| json!({"field": c.field, "message": c.message, "reason": c.kind}))
                .collect();
            let expected = body["details"]["causes"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            (causes != expected).then(|| {
                format!(
                    "causes: server {}, smd {}",
                    Json::Array(expected),
                    Json::Array(causes)
                )
            })
        }
        Ok((object, code)) => {
            if u64::from(*code) != status {
                return Some(format!(
                    "status: server {status} {:?}, smd {code}",
                    body["message"].as_str().unwrap_or_default()
                ));
            }
            if stored_only {
                return None;
            }
            let ours = match entries_of(object) {
                Ok(e) => e,
                Err(e) => return Some(e),
            };
            let theirs = golden_entries(body);
            (ours != theirs).then(|| {
                format!(
                    "managedFields:\n      server {}\n      smd    {}",
                    theirs.join("\n             "),
                    ours.join("\n             ")
                )
            })
        }
    }
}

/// The label gogen gives a time smd stamped: the step whose [`step_time`] it is.
fn time_label(time: Timestamp) -> String {
    let k = (time.unix() - step_time(0).unix()) / 60;
    if k <= 0 {
        "<before step 1>".to_owned()
    } else {
        format!("<step {k}>")
    }
}

/// The entries of an object smd answered, one line each: manager, operation, apiVersion,
/// subresource, time, fieldsV1 as stored (in the order smd wrote its members; `entries` would
/// give the bytes Go re-marshals, sorted, when it reads an unstructured object).
fn entries_of(object: &Value) -> Result<Vec<String>, String> {
    // The entries must read back, as the server would read them.
    entries(object).map_err(|e| format!("smd's managedFields: {e}"))?;
    let json = serde_json::to_value(object).map_err(|e| e.to_string())?;
    let mut lines = Vec::new();
    for e in json["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let s = |k: &str| e[k].as_str().unwrap_or_default();
        let time = match e["time"].as_str() {
            Some(t) => Some(time_label(
                Timestamp::parse(t).map_err(|err| format!("smd's time {t}: {err}"))?,
            )),
            None => None,
        };
        lines.push(entry_line(
            s("manager"),
            s("operation"),
            s("apiVersion"),
            s("subresource"),
            time.as_deref(),
            &e["fieldsV1"].to_string(),
        ));
    }
    Ok(lines)
}

/// The server's entries, as [`entries_of`] writes smd's (fieldsV1 rewritten by serde_json, which
/// keeps the server's order and makes the escaping one).
fn golden_entries(object: &Json) -> Vec<String> {
    object["metadata"]["managedFields"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|e| {
                    let s = |k: &str| e[k].as_str().unwrap_or_default();
                    let fields = serde_json::from_str::<Json>(s("fieldsV1"))
                        .map_or_else(|_| s("fieldsV1").to_owned(), |f| f.to_string());
                    entry_line(
                        s("manager"),
                        s("operation"),
                        s("apiVersion"),
                        s("subresource"),
                        e["time"].as_str(),
                        &fields,
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn entry_line(
    manager: &str,
    operation: &str,
    api_version: &str,
    subresource: &str,
    time: Option<&str>,
    fields: &str,
) -> String {
    json!([manager, operation, api_version, subresource, time, fields]).to_string()
}

/// The server's object as smd reads it: fieldsV1 strings parsed, step labels made the times
/// smd stamps, node-port placeholders made numbers.
pub fn denormalise(object: &Json) -> Result<Value, String> {
    fn walk(v: &Json, key: &str) -> Result<Json, String> {
        Ok(match v {
            Json::Object(m) => Json::Object(
                m.iter()
                    .map(|(k, e)| walk(e, k).map(|w| (k.clone(), w)))
                    .collect::<Result<_, _>>()?,
            ),
            Json::Array(l) => {
                Json::Array(l.iter().map(|e| walk(e, key)).collect::<Result<_, _>>()?)
            }
            Json::String(s) if key == "fieldsV1" => {
                serde_json::from_str(s).map_err(|e| format!("fieldsV1 {s:?}: {e}"))?
            }
            Json::String(s) if s == "<before step 1>" => Json::String(step_time(0).to_string()),
            Json::String(s) => {
                if let Some(k) = s
                    .strip_prefix("<step ")
                    .and_then(|r| r.strip_suffix('>'))
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    Json::String(step_time(k).to_string())
                } else if let Some(n) = s
                    .strip_prefix("<nodePort ")
                    .and_then(|r| r.strip_suffix('>'))
                    .and_then(|n| n.parse::<u64>().ok())
                {
                    json!(30000 + n)
                } else {
                    v.clone()
                }
            }
            other => other.clone(),
        })
    }
    to_value(&walk(object, "")?)
}
