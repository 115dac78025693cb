//! resource.k8s.io/v1: `pkg/apis/resource/v1/defaults.go` of k8s.io/kubernetes v1.37.2.

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::{Defaulting, Function, Kind, default_zero, is_zero, str_of, string};

/// `SetDefaults_DeviceTaint` (defaults.go:50) sets `timeAdded` to the server's clock when a
/// taint has none.
const CLOCK: &str = "DeviceTaint.timeAdded is set from the server's clock (defaults.go:50)";

/// The fields set from the server's clock when nil, by type (`default_at` sets them).
pub(super) const CLOCKED: &[(&str, &str)] = &[("io.k8s.api.resource.v1.DeviceTaint", "timeAdded")];

const fn kind(kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group: "resource.k8s.io",
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of resource.k8s.io/v1 the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind("DeviceClass", Defaulting::None),
    kind("DeviceTaintRule", Defaulting::Clocked(CLOCK)),
    kind("ResourceClaim", Defaulting::Defaults),
    kind("ResourceClaimTemplate", Defaulting::Defaults),
    kind("ResourceSlice", Defaulting::Clocked(CLOCK)),
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.api.resource.v1.ExactDeviceRequest",
        apply: allocation_mode,
        source: "pkg/apis/resource/v1/defaults.go:30",
    },
    Function {
        type_name: "io.k8s.api.resource.v1.DeviceSubRequest",
        apply: allocation_mode,
        source: "pkg/apis/resource/v1/defaults.go:40",
    },
];

fn allocation_mode(r: &mut Map) {
    default_zero(r, "allocationMode", string("ExactCount"));
    if str_of(r, "allocationMode") == "ExactCount" && is_zero(r, "count") {
        r.insert("count", Value::Int(1));
    }
}
