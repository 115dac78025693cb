//! admissionregistration.k8s.io/v1: `pkg/apis/admissionregistration/v1/defaults.go` of
//! k8s.io/kubernetes v1.37.2.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::{Defaulting, Function, Kind, default_nil, string};

const fn kind(kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group: "admissionregistration.k8s.io",
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of admissionregistration.k8s.io/v1 the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind("MutatingAdmissionPolicy", Defaulting::Defaults),
    kind("MutatingAdmissionPolicyBinding", Defaulting::Defaults),
    kind("MutatingWebhookConfiguration", Defaulting::Defaults),
    kind("ValidatingAdmissionPolicy", Defaulting::Defaults),
    kind("ValidatingAdmissionPolicyBinding", Defaulting::Defaults),
    kind("ValidatingWebhookConfiguration", Defaulting::Defaults),
];

const fn f(type_name: &'static str, apply: fn(&mut Map), source: &'static str) -> Function {
    Function {
        type_name,
        apply,
        source,
    }
}

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    f(
        "io.k8s.api.admissionregistration.v1.ValidatingWebhook",
        webhook,
        "pkg/apis/admissionregistration/v1/defaults.go:31",
    ),
    f(
        "io.k8s.api.admissionregistration.v1.MutatingWebhook",
        mutating_webhook,
        "pkg/apis/admissionregistration/v1/defaults.go:55",
    ),
    f(
        "io.k8s.api.admissionregistration.v1.RuleWithOperations",
        |r| default_nil(r, "scope", string("*")),
        "pkg/apis/admissionregistration/v1/defaults.go:83",
    ),
    f(
        "io.k8s.api.admissionregistration.v1.NamedRuleWithOperations",
        |r| default_nil(r, "scope", string("*")),
        "pkg/apis/admissionregistration/v1/defaults.go:83",
    ),
    f(
        "io.k8s.api.admissionregistration.v1.ServiceReference",
        |s| default_nil(s, "port", Value::Int(443)),
        "pkg/apis/admissionregistration/v1/defaults.go:91",
    ),
    f(
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec",
        |s| default_nil(s, "failurePolicy", string("Fail")),
        "pkg/apis/admissionregistration/v1/defaults.go:98",
    ),
    f(
        "io.k8s.api.admissionregistration.v1.MatchResources",
        match_resources,
        "pkg/apis/admissionregistration/v1/defaults.go:106",
    ),
    f(
        "io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicySpec",
        |s| default_nil(s, "failurePolicy", string("Fail")),
        "pkg/apis/admissionregistration/v1/defaults.go:122",
    ),
];

fn webhook(w: &mut Map) {
    default_nil(w, "failurePolicy", string("Fail"));
    default_nil(w, "matchPolicy", string("Equivalent"));
    default_nil(w, "namespaceSelector", Value::Map(Map::new()));
    default_nil(w, "objectSelector", Value::Map(Map::new()));
    default_nil(w, "timeoutSeconds", Value::Int(10));
}

fn mutating_webhook(w: &mut Map) {
    webhook(w);
    default_nil(w, "reinvocationPolicy", string("Never"));
}

fn match_resources(m: &mut Map) {
    default_nil(m, "matchPolicy", string("Equivalent"));
    default_nil(m, "namespaceSelector", Value::Map(Map::new()));
    default_nil(m, "objectSelector", Value::Map(Map::new()));
}
