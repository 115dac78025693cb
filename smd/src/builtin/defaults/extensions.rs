//! The two groups the server serves from schemes other than k8s.io/kubernetes' legacy scheme:
//! apiextensions.k8s.io/v1 (`k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go`)
//! and apiregistration.k8s.io/v1 (`k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/defaults.go`),
//! both v0.37.2.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::{
    Defaulting, Function, Kind, default_nil, is_empty, is_zero, list_maps, map_at, str_of, string,
};

/// Every kind of these groups the server serves.
pub(super) const KINDS: &[Kind] = &[
    Kind {
        group: "apiextensions.k8s.io",
        version: "v1",
        kind: "CustomResourceDefinition",
        defaulting: Defaulting::Defaults,
    },
    Kind {
        group: "apiregistration.k8s.io",
        version: "v1",
        kind: "APIService",
        defaulting: Defaulting::Defaults,
    },
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
        apply: custom_resource_definition,
        source: "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go:30",
    },
    // The generated defaulter calls it again after the CRD's own function (which called it
    // first): it changes nothing the second time.
    Function {
        type_name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec",
        apply: spec,
        source: "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go:42",
    },
    Function {
        type_name: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference",
        apply: |s| default_nil(s, "port", Value::Int(443)),
        source: "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go:57",
    },
    Function {
        type_name: "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.ServiceReference",
        apply: |s| default_nil(s, "port", Value::Int(443)),
        source: "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/defaults.go:29",
    },
];

fn custom_resource_definition(crd: &mut Map) {
    let storage = map_at(crd, "spec").and_then(|s| {
        spec(s);
        list_maps(s, "versions")
            .find(|v| v.get("storage").and_then(Value::as_bool) == Some(true))
            .map(|v| str_of(v, "name").to_owned())
    });
    let Some(status) = map_at(crd, "status") else {
        return;
    };
    if is_empty(status, "storedVersions") {
        if let Some(name) = storage {
            status.insert("storedVersions", Value::List(vec![string(&name)]));
        }
    }
}

fn spec(s: &mut Map) {
    if let Some(names) = map_at(s, "names") {
        if is_zero(names, "singular") {
            // Go's strings.ToLower: rune by rune, with no context.
            let singular: String = str_of(names, "kind")
                .chars()
                .flat_map(char::to_lowercase)
                .collect();
            if singular.is_empty() {
                names.remove("singular");
            } else {
                names.insert("singular", string(&singular));
            }
        }
        let kind = str_of(names, "kind").to_owned();
        if is_zero(names, "listKind") && !kind.is_empty() {
            names.insert("listKind", string(&format!("{kind}List")));
        }
    }
    if super::is_nil(s, "conversion") {
        let mut conversion = Map::new();
        conversion.insert("strategy", string("None"));
        s.insert("conversion", Value::Map(conversion));
    }
}
