//! autoscaling/v1 and v2: `pkg/apis/autoscaling/{v1,v2}/defaults.go` of k8s.io/kubernetes
//! v1.37.2.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::{Defaulting, Function, Kind, default_nil, is_empty, is_nil, map_at, map_mut, string};

/// Every kind of autoscaling the server serves.
pub(super) const KINDS: &[Kind] = &[
    Kind {
        group: "autoscaling",
        version: "v1",
        kind: "HorizontalPodAutoscaler",
        defaulting: Defaulting::Defaults,
    },
    Kind {
        group: "autoscaling",
        version: "v2",
        kind: "HorizontalPodAutoscaler",
        defaulting: Defaulting::Defaults,
    },
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler",
        apply: |hpa| {
            if let Some(spec) = map_at(hpa, "spec") {
                default_nil(spec, "minReplicas", Value::Int(1));
            }
        },
        source: "pkg/apis/autoscaling/v1/defaults.go:29",
    },
    Function {
        type_name: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
        apply: hpa_v2,
        source: "pkg/apis/autoscaling/v2/defaults.go:71",
    },
];

fn hpa_v2(hpa: &mut Map) {
    let Some(spec) = map_at(hpa, "spec") else {
        return;
    };
    default_nil(spec, "minReplicas", Value::Int(1));
    if is_empty(spec, "metrics") {
        // 80% average CPU utilization (pkg/apis/autoscaling: DefaultCPUUtilization).
        let target = map_of([
            ("type", string("Utilization")),
            ("averageUtilization", Value::Int(80)),
        ]);
        let resource = map_of([("name", string("cpu")), ("target", target)]);
        let metric = map_of([("type", string("Resource")), ("resource", resource)]);
        spec.insert("metrics", Value::List(vec![metric]));
    }
    // SetDefaults_HorizontalPodAutoscalerBehavior (defaults.go:96): a behavior given gets both
    // directions' rules, each field the body leaves nil taken from the default rules.
    if let Some(behavior) = map_mut(spec, "behavior") {
        let up = scaling_rules(
            behavior.get("scaleUp"),
            Some(0),
            &[("Pods", 4, 15), ("Percent", 100, 15)],
        );
        behavior.insert("scaleUp", up);
        let down = scaling_rules(behavior.get("scaleDown"), None, &[("Percent", 100, 15)]);
        behavior.insert("scaleDown", down);
    }
}

/// `copyHPAScalingRules` (defaults.go:122) onto the default rules: `selectPolicy: Max`, the
/// given stabilization window and policies.
fn scaling_rules(
    given: Option<&Value>,
    stabilization: Option<i64>,
    policies: &[(&str, i64, i64)],
) -> Value {
    let mut rules = Map::new();
    if let Some(s) = stabilization {
        rules.insert("stabilizationWindowSeconds", Value::Int(s));
    }
    rules.insert("selectPolicy", string("Max"));
    let default_policies = policies
        .iter()
        .map(|(t, v, p)| {
            map_of([
                ("type", string(t)),
                ("value", Value::Int(*v)),
                ("periodSeconds", Value::Int(*p)),
            ])
        })
        .collect();
    rules.insert("policies", Value::List(default_policies));
    if let Some(Value::Map(given)) = given {
        for key in [
            "selectPolicy",
            "stabilizationWindowSeconds",
            "policies",
            "tolerance",
        ] {
            if !is_nil(given, key) {
                if let Some(v) = given.get(key) {
                    rules.insert(key, v.clone());
                }
            }
        }
    }
    Value::Map(rules)
}

fn map_of<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut m = Map::new();
    for (k, v) in entries {
        m.insert(k, v);
    }
    Value::Map(m)
}
