//! The reset fields of every built-in endpoint of Kubernetes 1.37 and the replicas paths of
//! their scale subresources, transcribed from `docs/reset-fields-1.37.yaml` (which cites the
//! registry strategies of `k8s.io/kubernetes` v1.37.2 line by line); a test checks the two agree.

/// Per apiVersion, the paths reset.
pub(super) type Versions = &'static [(&'static str, &'static [&'static str])];

/// `(group, kind, subresource, versions)`; the main resource's subresource is empty.
/// Endpoints that reset nothing are not listed.
#[rustfmt::skip]
pub(super) static RESET: &[(&str, &str, &str, Versions)] = &[
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy", "", &[("admissionregistration.k8s.io/v1alpha1", &[".status"]), ("admissionregistration.k8s.io/v1beta1", &[".status"]), ("admissionregistration.k8s.io/v1", &[".status"])]),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy", "status", &[("admissionregistration.k8s.io/v1alpha1", &[".spec", ".metadata"]), ("admissionregistration.k8s.io/v1beta1", &[".spec", ".metadata"]), ("admissionregistration.k8s.io/v1", &[".spec", ".metadata"])]),
    ("internal.apiserver.k8s.io", "StorageVersion", "", &[("internal.apiserver.k8s.io/v1alpha1", &[".status"])]),
    ("internal.apiserver.k8s.io", "StorageVersion", "status", &[("internal.apiserver.k8s.io/v1alpha1", &[".metadata", ".spec"])]),
    ("apps", "Deployment", "", &[("apps/v1", &[".status"])]),
    ("apps", "Deployment", "status", &[("apps/v1", &[".spec", ".metadata.labels"])]),
    ("apps", "StatefulSet", "", &[("apps/v1", &[".status"])]),
    ("apps", "StatefulSet", "status", &[("apps/v1", &[".spec"])]),
    ("apps", "DaemonSet", "", &[("apps/v1", &[".status"])]),
    ("apps", "DaemonSet", "status", &[("apps/v1", &[".spec"])]),
    ("apps", "ReplicaSet", "", &[("apps/v1", &[".status"])]),
    ("apps", "ReplicaSet", "status", &[("apps/v1", &[".spec"])]),
    ("autoscaling", "HorizontalPodAutoscaler", "", &[("autoscaling/v1", &[".status"]), ("autoscaling/v2", &[".status"])]),
    ("autoscaling", "HorizontalPodAutoscaler", "status", &[("autoscaling/v1", &[".spec"]), ("autoscaling/v2", &[".spec"])]),
    ("batch", "CronJob", "", &[("batch/v1", &[".status"]), ("batch/v1beta1", &[".status"])]),
    ("batch", "CronJob", "status", &[("batch/v1", &[".spec"]), ("batch/v1beta1", &[".spec"])]),
    ("batch", "Job", "", &[("batch/v1", &[".status"])]),
    ("batch", "Job", "status", &[("batch/v1", &[".spec"])]),
    ("certificates.k8s.io", "CertificateSigningRequest", "", &[("certificates.k8s.io/v1", &[".spec", ".status"]), ("certificates.k8s.io/v1beta1", &[".spec", ".status"])]),
    ("certificates.k8s.io", "CertificateSigningRequest", "status", &[("certificates.k8s.io/v1", &[".spec", ".status.conditions"]), ("certificates.k8s.io/v1beta1", &[".spec", ".status.conditions"])]),
    ("certificates.k8s.io", "CertificateSigningRequest", "approval", &[("certificates.k8s.io/v1", &[".spec", ".status.certificate"]), ("certificates.k8s.io/v1beta1", &[".spec", ".status.certificate"])]),
    ("certificates.k8s.io", "PodCertificateRequest", "", &[("certificates.k8s.io/v1", &[".status"]), ("certificates.k8s.io/v1beta1", &[".status"])]),
    ("certificates.k8s.io", "PodCertificateRequest", "status", &[("certificates.k8s.io/v1beta1", &[".metadata", ".spec"]), ("certificates.k8s.io/v1", &[".metadata", ".spec"])]),
    ("", "Namespace", "", &[("v1", &[".status"])]),
    ("", "Namespace", "status", &[("v1", &[".spec"])]),
    ("", "Namespace", "finalize", &[("v1", &[".status"])]),
    ("", "Node", "", &[("v1", &[".status"])]),
    ("", "Node", "status", &[("v1", &[".spec"])]),
    ("", "PersistentVolume", "", &[("v1", &[".status"])]),
    ("", "PersistentVolume", "status", &[("v1", &[".spec"])]),
    ("", "PersistentVolumeClaim", "", &[("v1", &[".status"])]),
    ("", "PersistentVolumeClaim", "status", &[("v1", &[".spec"])]),
    ("", "Pod", "", &[("v1", &[".status"])]),
    ("", "Pod", "status", &[("v1", &[".spec", ".metadata.deletionTimestamp", ".metadata.ownerReferences"])]),
    ("", "ReplicationController", "", &[("v1", &[".status"])]),
    ("", "ReplicationController", "status", &[("v1", &[".spec"])]),
    ("", "ResourceQuota", "", &[("v1", &[".status"])]),
    ("", "ResourceQuota", "status", &[("v1", &[".spec"])]),
    ("", "Service", "", &[("v1", &[".status"])]),
    ("", "Service", "status", &[("v1", &[".spec"])]),
    ("flowcontrol.apiserver.k8s.io", "FlowSchema", "", &[("flowcontrol.apiserver.k8s.io/v1beta1", &[".status"]), ("flowcontrol.apiserver.k8s.io/v1beta2", &[".status"]), ("flowcontrol.apiserver.k8s.io/v1beta3", &[".status"]), ("flowcontrol.apiserver.k8s.io/v1", &[".status"])]),
    ("flowcontrol.apiserver.k8s.io", "FlowSchema", "status", &[("flowcontrol.apiserver.k8s.io/v1beta1", &[".metadata", ".spec"]), ("flowcontrol.apiserver.k8s.io/v1beta2", &[".metadata", ".spec"]), ("flowcontrol.apiserver.k8s.io/v1beta3", &[".metadata", ".spec"]), ("flowcontrol.apiserver.k8s.io/v1", &[".metadata", ".spec"])]),
    ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", "", &[("flowcontrol.apiserver.k8s.io/v1beta1", &[".status"]), ("flowcontrol.apiserver.k8s.io/v1beta2", &[".status"]), ("flowcontrol.apiserver.k8s.io/v1beta3", &[".status"]), ("flowcontrol.apiserver.k8s.io/v1", &[".status"])]),
    ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", "status", &[("flowcontrol.apiserver.k8s.io/v1beta1", &[".spec", ".metadata"]), ("flowcontrol.apiserver.k8s.io/v1beta2", &[".spec", ".metadata"]), ("flowcontrol.apiserver.k8s.io/v1beta3", &[".spec", ".metadata"]), ("flowcontrol.apiserver.k8s.io/v1", &[".spec", ".metadata"])]),
    ("lifecycle.k8s.io", "Eviction", "", &[("lifecycle.k8s.io/v1alpha1", &[".status"])]),
    ("lifecycle.k8s.io", "Eviction", "status", &[("lifecycle.k8s.io/v1alpha1", &[".spec", ".metadata"])]),
    ("lifecycle.k8s.io", "EvictionRequest", "", &[("lifecycle.k8s.io/v1alpha1", &[".status"])]),
    ("lifecycle.k8s.io", "EvictionRequest", "status", &[("lifecycle.k8s.io/v1alpha1", &[".spec", ".metadata"])]),
    ("networking.k8s.io", "Ingress", "", &[("extensions/v1beta1", &[".status"]), ("networking.k8s.io/v1beta1", &[".status"]), ("networking.k8s.io/v1", &[".status"])]),
    ("networking.k8s.io", "Ingress", "status", &[("extensions/v1beta1", &[".spec"]), ("networking.k8s.io/v1beta1", &[".spec"]), ("networking.k8s.io/v1", &[".spec"])]),
    ("networking.k8s.io", "ServiceCIDR", "", &[("networking.k8s.io/v1", &[".status"]), ("networking.k8s.io/v1beta1", &[".status"])]),
    ("networking.k8s.io", "ServiceCIDR", "status", &[("networking.k8s.io/v1", &[".metadata", ".spec"]), ("networking.k8s.io/v1beta1", &[".metadata", ".spec"])]),
    ("policy", "PodDisruptionBudget", "", &[("policy/v1beta1", &[".status"]), ("policy/v1", &[".status"])]),
    ("policy", "PodDisruptionBudget", "status", &[("policy/v1beta1", &[".spec"]), ("policy/v1", &[".spec"])]),
    ("resource.k8s.io", "DeviceTaintRule", "", &[("resource.k8s.io/v1alpha3", &[".status"]), ("resource.k8s.io/v1beta2", &[".status"]), ("resource.k8s.io/v1", &[".status"])]),
    ("resource.k8s.io", "DeviceTaintRule", "status", &[("resource.k8s.io/v1alpha3", &[".metadata", ".spec"]), ("resource.k8s.io/v1beta2", &[".metadata", ".spec"]), ("resource.k8s.io/v1", &[".metadata", ".spec"])]),
    ("resource.k8s.io", "ResourceClaim", "", &[("resource.k8s.io/v1alpha3", &[".status"]), ("resource.k8s.io/v1beta1", &[".status"]), ("resource.k8s.io/v1beta2", &[".status"]), ("resource.k8s.io/v1", &[".status"])]),
    ("resource.k8s.io", "ResourceClaim", "status", &[("resource.k8s.io/v1alpha3", &[".metadata", ".spec"]), ("resource.k8s.io/v1beta1", &[".metadata", ".spec"]), ("resource.k8s.io/v1beta2", &[".metadata", ".spec"]), ("resource.k8s.io/v1", &[".metadata", ".spec"])]),
    ("resource.k8s.io", "ResourcePoolStatusRequest", "", &[("resource.k8s.io/v1alpha3", &[".status"])]),
    ("resource.k8s.io", "ResourcePoolStatusRequest", "status", &[("resource.k8s.io/v1alpha3", &[".metadata", ".spec"])]),
    ("scheduling.k8s.io", "CompositePodGroup", "", &[("scheduling.k8s.io/v1alpha3", &[".status"])]),
    ("scheduling.k8s.io", "CompositePodGroup", "status", &[("scheduling.k8s.io/v1alpha3", &[".metadata", ".spec"])]),
    ("scheduling.k8s.io", "PodGroup", "", &[("scheduling.k8s.io/v1beta1", &[".status"]), ("scheduling.k8s.io/v1alpha3", &[".status"])]),
    ("scheduling.k8s.io", "PodGroup", "status", &[("scheduling.k8s.io/v1beta1", &[".metadata", ".spec"]), ("scheduling.k8s.io/v1alpha3", &[".metadata", ".spec"])]),
    ("storage.k8s.io", "CSINode", "", &[("storage.k8s.io/v1", &[".status"])]),
    ("storage.k8s.io", "CSINode", "status", &[("storage.k8s.io/v1", &[".metadata", ".spec"])]),
    ("storage.k8s.io", "VolumeAttachment", "", &[("storage.k8s.io/v1", &[".status"])]),
    ("storage.k8s.io", "VolumeAttachment", "status", &[("storage.k8s.io/v1", &[".metadata", ".spec"])]),
    ("storagemigration.k8s.io", "StorageVersionMigration", "", &[("storagemigration.k8s.io/v1", &[".status"]), ("storagemigration.k8s.io/v1beta1", &[".status"])]),
    ("storagemigration.k8s.io", "StorageVersionMigration", "status", &[("storagemigration.k8s.io/v1", &[".metadata", ".spec"]), ("storagemigration.k8s.io/v1beta1", &[".metadata", ".spec"])]),
    ("apiextensions.k8s.io", "CustomResourceDefinition", "", &[("apiextensions.k8s.io/v1", &[".status"]), ("apiextensions.k8s.io/v1beta1", &[".status"])]),
    ("apiextensions.k8s.io", "CustomResourceDefinition", "status", &[("apiextensions.k8s.io/v1", &[".spec"]), ("apiextensions.k8s.io/v1beta1", &[".spec"])]),
    ("apiregistration.k8s.io", "APIService", "", &[("apiregistration.k8s.io/v1", &[".status"]), ("apiregistration.k8s.io/v1beta1", &[".status"])]),
    ("apiregistration.k8s.io", "APIService", "status", &[("apiregistration.k8s.io/v1", &[".spec", ".metadata"]), ("apiregistration.k8s.io/v1beta1", &[".spec", ".metadata"])]),
];

/// Per parent apiVersion, the replicas path.
pub(super) type Paths = &'static [(&'static str, &'static str)];

/// `(group, kind, paths)` of every built-in scale subresource.
#[rustfmt::skip]
pub(super) static SCALE: &[(&str, &str, Paths)] = &[
    ("apps", "Deployment", &[("apps/v1beta1", ".spec.replicas"), ("apps/v1beta2", ".spec.replicas"), ("apps/v1", ".spec.replicas")]),
    ("apps", "StatefulSet", &[("apps/v1beta1", ".spec.replicas"), ("apps/v1beta2", ".spec.replicas"), ("apps/v1", ".spec.replicas")]),
    ("apps", "ReplicaSet", &[("apps/v1beta2", ".spec.replicas"), ("apps/v1", ".spec.replicas")]),
    ("", "ReplicationController", &[("v1", ".spec.replicas")]),
];
