//! batch/v1: `pkg/apis/batch/v1/defaults.go` of k8s.io/kubernetes v1.37.2.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::{
    Defaulting, Function, Kind, default_nil, default_zero, is_empty, is_nil, map_at, map_mut,
    string,
};

const fn kind(kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group: "batch",
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of batch/v1 the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind("CronJob", Defaulting::Defaults),
    kind("Job", Defaulting::Defaults),
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.api.batch.v1.Job",
        apply: job,
        source: "pkg/apis/batch/v1/defaults.go:32",
    },
    Function {
        type_name: "io.k8s.api.batch.v1.CronJob",
        apply: cron_job,
        source: "pkg/apis/batch/v1/defaults.go:72",
    },
    Function {
        type_name: "io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern",
        apply: |p| default_zero(p, "status", string("True")),
        source: "pkg/apis/batch/v1/defaults.go:87",
    },
];

fn job(job: &mut Map) {
    let labels = map_mut(job, "spec")
        .and_then(|s| map_mut(s, "template"))
        .and_then(|t| map_mut(t, "metadata"))
        .and_then(|m| m.get("labels"))
        // An empty map copied stays empty, which the encoder omits.
        .filter(|l| l.as_map().is_some_and(|m| !m.is_empty()))
        .cloned();
    let Some(spec) = map_at(job, "spec") else {
        return;
    };
    if is_nil(spec, "completions") && is_nil(spec, "parallelism") {
        spec.insert("completions", Value::Int(1));
        spec.insert("parallelism", Value::Int(1));
    }
    default_nil(spec, "parallelism", Value::Int(1));
    if is_nil(spec, "backoffLimit") {
        let limit = if is_nil(spec, "backoffLimitPerIndex") {
            6
        } else {
            i64::from(i32::MAX)
        };
        spec.insert("backoffLimit", Value::Int(limit));
    }
    default_nil(spec, "completionMode", string("NonIndexed"));
    default_nil(spec, "suspend", Value::Bool(false));
    if is_nil(spec, "podReplacementPolicy") {
        let policy = if is_nil(spec, "podFailurePolicy") {
            "TerminatingOrFailed"
        } else {
            "Failed"
        };
        spec.insert("podReplacementPolicy", string(policy));
    }
    default_nil(spec, "manualSelector", Value::Bool(false));
    if let Some(labels) = labels {
        if let Some(meta) = map_at(job, "metadata") {
            if is_empty(meta, "labels") {
                meta.insert("labels", labels);
            }
        }
    }
}

fn cron_job(cj: &mut Map) {
    let Some(spec) = map_at(cj, "spec") else {
        return;
    };
    default_zero(spec, "concurrencyPolicy", string("Allow"));
    default_nil(spec, "suspend", Value::Bool(false));
    default_nil(spec, "successfulJobsHistoryLimit", Value::Int(3));
    default_nil(spec, "failedJobsHistoryLimit", Value::Int(1));
}
