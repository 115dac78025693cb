//! rbac.authorization.k8s.io/v1: `pkg/apis/rbac/v1/defaults.go` of k8s.io/kubernetes v1.37.2.

use smd_fieldpath::value::Map;

use super::{Defaulting, Function, Kind, default_zero, is_zero, map_at, str_of, string};

const fn kind(kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group: "rbac.authorization.k8s.io",
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of rbac.authorization.k8s.io/v1 the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind("ClusterRole", Defaulting::None),
    kind("ClusterRoleBinding", Defaulting::Defaults),
    kind("Role", Defaulting::None),
    kind("RoleBinding", Defaulting::Defaults),
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.api.rbac.v1.ClusterRoleBinding",
        apply: role_ref,
        source: "pkg/apis/rbac/v1/defaults.go:28",
    },
    Function {
        type_name: "io.k8s.api.rbac.v1.RoleBinding",
        apply: role_ref,
        source: "pkg/apis/rbac/v1/defaults.go:33",
    },
    Function {
        type_name: "io.k8s.api.rbac.v1.Subject",
        apply: subject,
        source: "pkg/apis/rbac/v1/defaults.go:38",
    },
];

fn role_ref(binding: &mut Map) {
    if let Some(r) = map_at(binding, "roleRef") {
        default_zero(r, "apiGroup", string("rbac.authorization.k8s.io"));
    }
}

fn subject(s: &mut Map) {
    if is_zero(s, "apiGroup") && matches!(str_of(s, "kind"), "User" | "Group") {
        s.insert("apiGroup", string("rbac.authorization.k8s.io"));
    }
}
