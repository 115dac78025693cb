//! apps/v1: `pkg/apis/apps/v1/defaults.go` of k8s.io/kubernetes v1.37.2, at the default
//! feature gates of 1.37 (`MaxUnavailableStatefulSet` is beta and on: a StatefulSet's rolling
//! update gets `maxUnavailable: 1`).

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::{Defaulting, Function, Kind, default_nil, default_zero, is_nil, map_at, string};

const fn kind(kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group: "apps",
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of apps/v1 the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind("ControllerRevision", Defaulting::None),
    kind("DaemonSet", Defaulting::Defaults),
    kind("Deployment", Defaulting::Defaults),
    kind("ReplicaSet", Defaulting::Defaults),
    kind("StatefulSet", Defaulting::Defaults),
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.api.apps.v1.Deployment",
        apply: deployment,
        source: "pkg/apis/apps/v1/defaults.go:38",
    },
    Function {
        type_name: "io.k8s.api.apps.v1.DaemonSet",
        apply: daemon_set,
        source: "pkg/apis/apps/v1/defaults.go:75",
    },
    Function {
        type_name: "io.k8s.api.apps.v1.StatefulSet",
        apply: stateful_set,
        source: "pkg/apis/apps/v1/defaults.go:100",
    },
    Function {
        type_name: "io.k8s.api.apps.v1.ReplicaSet",
        apply: replica_set,
        source: "pkg/apis/apps/v1/defaults.go:146",
    },
];

fn deployment(d: &mut Map) {
    let Some(spec) = map_at(d, "spec") else {
        return;
    };
    default_nil(spec, "replicas", Value::Int(1));
    if let Some(strategy) = map_at(spec, "strategy") {
        default_zero(strategy, "type", string("RollingUpdate"));
        if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
            if let Some(rolling) = map_at(strategy, "rollingUpdate") {
                default_nil(rolling, "maxUnavailable", string("25%"));
                default_nil(rolling, "maxSurge", string("25%"));
            }
        }
    }
    default_nil(spec, "revisionHistoryLimit", Value::Int(10));
    default_nil(spec, "progressDeadlineSeconds", Value::Int(600));
}

fn daemon_set(ds: &mut Map) {
    let Some(spec) = map_at(ds, "spec") else {
        return;
    };
    if let Some(strategy) = map_at(spec, "updateStrategy") {
        default_zero(strategy, "type", string("RollingUpdate"));
        if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate") {
            if let Some(rolling) = map_at(strategy, "rollingUpdate") {
                default_nil(rolling, "maxUnavailable", Value::Int(1));
                default_nil(rolling, "maxSurge", Value::Int(0));
            }
        }
    }
    default_nil(spec, "revisionHistoryLimit", Value::Int(10));
}

fn stateful_set(ss: &mut Map) {
    let Some(spec) = map_at(ss, "spec") else {
        return;
    };
    default_zero(spec, "podManagementPolicy", string("OrderedReady"));
    if let Some(strategy) = map_at(spec, "updateStrategy") {
        if super::is_zero(strategy, "type") {
            strategy.insert("type", string("RollingUpdate"));
            default_nil(strategy, "rollingUpdate", Value::Map(Map::new()));
        }
        let rolling = strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate");
        if rolling && !is_nil(strategy, "rollingUpdate") {
            if let Some(r) = map_at(strategy, "rollingUpdate") {
                default_nil(r, "partition", Value::Int(0));
                default_nil(r, "maxUnavailable", Value::Int(1));
            }
        }
    }
    if let Some(retention) = map_at(spec, "persistentVolumeClaimRetentionPolicy") {
        default_zero(retention, "whenDeleted", string("Retain"));
        default_zero(retention, "whenScaled", string("Retain"));
    }
    default_nil(spec, "replicas", Value::Int(1));
    default_nil(spec, "revisionHistoryLimit", Value::Int(10));
}

fn replica_set(rs: &mut Map) {
    if let Some(spec) = map_at(rs, "spec") {
        default_nil(spec, "replicas", Value::Int(1));
    }
}
