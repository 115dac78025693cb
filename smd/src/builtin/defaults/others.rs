//! The groups with little or no defaulting: policy, scheduling.k8s.io, discovery.k8s.io,
//! certificates.k8s.io, coordination.k8s.io, node.k8s.io, events.k8s.io, the review kinds of
//! authentication and authorization, storagemigration.k8s.io (k8s.io/kubernetes v1.37.2,
//! `pkg/apis/<group>/v1/defaults.go` and `zz_generated.defaults.go`).

use super::{Defaulting, Function, Kind, default_nil, string};

const fn kind(group: &'static str, kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group,
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of these groups the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind(
        "authentication.k8s.io",
        "SelfSubjectReview",
        Defaulting::None,
    ),
    kind("authentication.k8s.io", "TokenReview", Defaulting::None),
    kind(
        "authorization.k8s.io",
        "LocalSubjectAccessReview",
        Defaulting::None,
    ),
    kind(
        "authorization.k8s.io",
        "SelfSubjectAccessReview",
        Defaulting::None,
    ),
    kind(
        "authorization.k8s.io",
        "SelfSubjectRulesReview",
        Defaulting::None,
    ),
    kind(
        "authorization.k8s.io",
        "SubjectAccessReview",
        Defaulting::None,
    ),
    kind(
        "certificates.k8s.io",
        "CertificateSigningRequest",
        Defaulting::None,
    ),
    kind(
        "certificates.k8s.io",
        "ClusterTrustBundle",
        Defaulting::None,
    ),
    // The `+default=86400` marker of maxExpirationSeconds (markers.rs).
    kind(
        "certificates.k8s.io",
        "PodCertificateRequest",
        Defaulting::Defaults,
    ),
    kind("coordination.k8s.io", "Lease", Defaulting::None),
    kind("discovery.k8s.io", "EndpointSlice", Defaulting::Defaults),
    kind("events.k8s.io", "Event", Defaulting::None),
    kind("node.k8s.io", "RuntimeClass", Defaulting::None),
    kind("policy", "PodDisruptionBudget", Defaulting::None),
    kind("scheduling.k8s.io", "PriorityClass", Defaulting::Defaults),
    kind(
        "storagemigration.k8s.io",
        "StorageVersionMigration",
        Defaulting::None,
    ),
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.api.scheduling.v1.PriorityClass",
        apply: |pc| default_nil(pc, "preemptionPolicy", string("PreemptLowerPriority")),
        source: "pkg/apis/scheduling/v1/defaults.go:31",
    },
    Function {
        type_name: "io.k8s.api.discovery.v1.EndpointPort",
        apply: |p| {
            default_nil(p, "name", string(""));
            default_nil(p, "protocol", string("TCP"));
        },
        source: "pkg/apis/discovery/v1/defaults.go:34",
    },
];
