//! flowcontrol.apiserver.k8s.io/v1: `pkg/apis/flowcontrol/v1/defaults.go` of
//! k8s.io/kubernetes v1.37.2.

use smd_fieldpath::Value;

use super::{Defaulting, Function, Kind, default_nil, default_zero};

const fn kind(kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of flowcontrol.apiserver.k8s.io/v1 the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind("FlowSchema", Defaulting::Defaults),
    kind("PriorityLevelConfiguration", Defaulting::Defaults),
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.api.flowcontrol.v1.FlowSchemaSpec",
        apply: |s| default_zero(s, "matchingPrecedence", Value::Int(1000)),
        source: "pkg/apis/flowcontrol/v1/defaults.go:38",
    },
    Function {
        type_name: "io.k8s.api.flowcontrol.v1.ExemptPriorityLevelConfiguration",
        apply: |e| {
            default_nil(e, "nominalConcurrencyShares", Value::Int(0));
            default_nil(e, "lendablePercent", Value::Int(0));
        },
        source: "pkg/apis/flowcontrol/v1/defaults.go:44",
    },
    Function {
        type_name: "io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration",
        apply: |l| {
            default_nil(l, "nominalConcurrencyShares", Value::Int(30));
            default_nil(l, "lendablePercent", Value::Int(0));
        },
        source: "pkg/apis/flowcontrol/v1/defaults.go:55",
    },
    Function {
        type_name: "io.k8s.api.flowcontrol.v1.QueuingConfiguration",
        apply: |q| {
            default_zero(q, "handSize", Value::Int(8));
            default_zero(q, "queues", Value::Int(64));
            default_zero(q, "queueLengthLimit", Value::Int(50));
        },
        source: "pkg/apis/flowcontrol/v1/defaults.go:66",
    },
];
