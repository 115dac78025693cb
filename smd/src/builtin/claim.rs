//! The PersistentVolumeClaim strategy's handling of a claim's data sources
//! (`PrepareForCreate`/`PrepareForUpdate`: `DropDisabledFields`,
//! `EnforceDataSourceBackwardsCompatibility`, `NormalizeDataSources` of k8s.io/kubernetes
//! v1.37.2 `pkg/api/persistentvolumeclaim/util.go`), before validation sees the claim.

use smd_fieldpath::{Map, Value};

fn member<'a>(value: &'a Value, key: &str) -> Option<&'a Value> {
    value
        .as_map()
        .and_then(|m| m.get(key))
        .filter(|v| !v.is_null())
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    member(value, key).and_then(Value::as_str).unwrap_or("")
}

/// A claim's data sources as the strategy leaves them on a create (`old` none) or an update
/// of the main resource: a cross-namespace `dataSourceRef` dropped (its gate is off) unless the
/// old claim had one, a `dataSource` of a kind other than a claim or a snapshot dropped when
/// neither the old claim nor this one names a `dataSourceRef`, then each of the two filled from
/// the other.
pub(crate) fn prepare_claim(object: &mut Value, old: Option<&Value>) {
    let Some(spec) = object
        .as_map_mut()
        .and_then(|m| m.get_mut("spec"))
        .and_then(Value::as_map_mut)
    else {
        return;
    };
    let old_spec = old.and_then(|o| member(o, "spec"));
    let old_has = |name: &str| old_spec.is_some_and(|s| member(s, name).is_some());
    let present = |spec: &Map, name: &str| spec.get(name).filter(|v| !v.is_null()).cloned();
    let namespaced_ref =
        present(spec, "dataSourceRef").is_some_and(|r| !text(&r, "namespace").is_empty());
    if namespaced_ref && !old_has("dataSourceRef") {
        spec.remove("dataSourceRef");
    }
    if !old_has("dataSource")
        && !old_has("dataSourceRef")
        && present(spec, "dataSourceRef").is_none()
    {
        let keep = present(spec, "dataSource").is_some_and(|d| {
            matches!(
                (text(&d, "kind"), text(&d, "apiGroup")),
                ("PersistentVolumeClaim", "") | ("VolumeSnapshot", "snapshot.storage.k8s.io")
            )
        });
        if !keep {
            spec.remove("dataSource");
        }
    }
    normalize_data_sources(spec);
}

/// `NormalizeDataSources`: the missing one of `dataSource` and `dataSourceRef` copied from
/// the other (kind, name, apiGroup); a namespaced reference is not copied.
pub fn normalize_data_sources(spec: &mut Map) {
    let copy = |from: &Value| {
        let mut m = Map::new();
        for key in ["apiGroup", "kind", "name"] {
            if let Some(v) = member(from, key) {
                m.insert(key, v.clone());
            }
        }
        Value::Map(m)
    };
    let source = spec.get("dataSource").filter(|v| !v.is_null()).cloned();
    let reference = spec.get("dataSourceRef").filter(|v| !v.is_null()).cloned();
    match (source, reference) {
        (Some(s), None) => {
            spec.insert("dataSourceRef", copy(&s));
        }
        (None, Some(r)) if text(&r, "namespace").is_empty() => {
            spec.insert("dataSource", copy(&r));
        }
        _ => {}
    }
}
