//! storage.k8s.io/v1: `pkg/apis/storage/v1/defaults.go` of k8s.io/kubernetes v1.37.2, at the
//! default feature gates of 1.37 (`SELinuxMountReadWriteOncePod` GA and `VolumeLimitScaling`
//! beta, both on: a CSIDriver gets `seLinuxMount: false` and
//! `preventPodSchedulingIfMissing: false`).

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::{Defaulting, Function, Kind, default_nil, is_empty, map_at, string};

const fn kind(kind: &'static str, defaulting: Defaulting) -> Kind {
    Kind {
        group: "storage.k8s.io",
        version: "v1",
        kind,
        defaulting,
    }
}

/// Every kind of storage.k8s.io/v1 the server serves.
pub(super) const KINDS: &[Kind] = &[
    kind("CSIDriver", Defaulting::Defaults),
    kind("CSINode", Defaulting::None),
    kind("CSIStorageCapacity", Defaulting::None),
    kind("StorageClass", Defaulting::Defaults),
    // Its inline PersistentVolumeSpec has the core types' defaulting.
    kind("VolumeAttachment", Defaulting::Defaults),
    kind("VolumeAttributesClass", Defaulting::None),
];

/// The functions, by the type they default.
pub(super) const FUNCTIONS: &[Function] = &[
    Function {
        type_name: "io.k8s.api.storage.v1.StorageClass",
        apply: |sc| {
            default_nil(sc, "reclaimPolicy", string("Delete"));
            default_nil(sc, "volumeBindingMode", string("Immediate"));
        },
        source: "pkg/apis/storage/v1/defaults.go:31",
    },
    Function {
        type_name: "io.k8s.api.storage.v1.CSIDriver",
        apply: csi_driver,
        source: "pkg/apis/storage/v1/defaults.go:43",
    },
];

fn csi_driver(d: &mut Map) {
    let Some(spec) = map_at(d, "spec") else {
        return;
    };
    default_nil(spec, "attachRequired", Value::Bool(true));
    default_nil(spec, "podInfoOnMount", Value::Bool(false));
    default_nil(spec, "storageCapacity", Value::Bool(false));
    default_nil(spec, "fsGroupPolicy", string("ReadWriteOnceWithFSType"));
    if is_empty(spec, "volumeLifecycleModes") {
        spec.insert(
            "volumeLifecycleModes",
            Value::List(vec![string("Persistent")]),
        );
    }
    default_nil(spec, "requiresRepublish", Value::Bool(false));
    default_nil(spec, "seLinuxMount", Value::Bool(false));
    default_nil(spec, "preventPodSchedulingIfMissing", Value::Bool(false));
}
