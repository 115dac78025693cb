//! networking.k8s.io/v1: `pkg/apis/networking/v1/defaults.go` of k8s.io/kubernetes v1.37.2.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::{Defaulting, Function, Kind, default_nil, is_empty, map_at, map_mut, string};

const fn kind(kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group: "networking.k8s.io",
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of networking.k8s.io/v1 the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind("IPAddress", Defaulting::None),
    kind("Ingress", Defaulting::None),
    kind("IngressClass", Defaulting::Defaults),
    kind("NetworkPolicy", Defaulting::Defaults),
    kind("ServiceCIDR", Defaulting::None),
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.api.networking.v1.NetworkPolicyPort",
        apply: |p| default_nil(p, "protocol", string("TCP")),
        source: "pkg/apis/networking/v1/defaults.go:30",
    },
    Function {
        type_name: "io.k8s.api.networking.v1.NetworkPolicy",
        apply: network_policy,
        source: "pkg/apis/networking/v1/defaults.go:38",
    },
    Function {
        type_name: "io.k8s.api.networking.v1.IngressClass",
        apply: |ic| {
            if let Some(params) = map_mut(ic, "spec").and_then(|s| map_mut(s, "parameters")) {
                default_nil(params, "scope", string("Cluster"));
            }
        },
        source: "pkg/apis/networking/v1/defaults.go:48",
    },
];

fn network_policy(np: &mut Map) {
    let Some(spec) = map_at(np, "spec") else {
        return;
    };
    if is_empty(spec, "policyTypes") {
        let mut types = vec![string("Ingress")];
        if !is_empty(spec, "egress") {
            types.push(string("Egress"));
        }
        spec.insert("policyTypes", Value::List(types));
    }
}
