//! Conversion between the served versions of one kind, as the API server converts an object
//! read or written at a version other than the one it holds: through the internal version
//! (`k8s.io/kubernetes` v1.37.2 `pkg/apis/<group>/<version>/conversion.go`).
//!
//! Of the built-in kinds a default 1.37 server serves, only autoscaling's
//! HorizontalPodAutoscaler is served at two versions of one group (v1 and v2, stored as v2;
//! `conformance/apiserver/scheme/goldens/served.json`); its conversion is in `hpa/`. Every
//! other kind (and a custom resource whose CRD converts with the `None` strategy) only has
//! its `apiVersion` rewritten.

mod hpa;
mod json;

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

/// `object` (a map with `apiVersion` and `kind`) converted to `api_version` (`group/version`
/// or `v1` for the core group), as the server's codec converts it; an object already there
/// comes back unchanged. No defaulting: the caller defaults a read as a decode does.
pub fn convert(object: &Value, api_version: &str) -> Value {
    let Some(map) = object.as_map() else {
        return object.clone();
    };
    let from = map.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    if from == api_version {
        return object.clone();
    }
    let kind = map.get("kind").and_then(Value::as_str).unwrap_or("");
    let mut out = match (from, api_version, kind) {
        ("autoscaling/v2", "autoscaling/v1", "HorizontalPodAutoscaler") => hpa::v2_to_v1(map),
        ("autoscaling/v1", "autoscaling/v2", "HorizontalPodAutoscaler") => hpa::v1_to_v2(map),
        _ => map.clone(),
    };
    out.insert("apiVersion", Value::from(api_version));
    // `apiVersion` and `kind` lead, as the encoder writes them.
    let mut ordered = Map::with_capacity(out.len());
    for key in ["apiVersion", "kind"] {
        if let Some(v) = out.remove(key) {
            ordered.insert(key, v);
        }
    }
    for (k, v) in out.iter() {
        ordered.insert(k, v.clone());
    }
    Value::Map(ordered)
}

/// The version the server stores objects of a built-in kind at, when it serves the kind at
/// more than one version of its group; `None` for the kinds served at one version.
pub fn storage_version(group: &str, kind: &str) -> Option<&'static str> {
    match (group, kind) {
        ("autoscaling", "HorizontalPodAutoscaler") => Some("autoscaling/v2"),
        _ => None,
    }
}
