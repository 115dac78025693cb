//! Reset fields: per apiVersion, the fields an endpoint's strategy resets after the field
//! manager ran (the main resource resets `.status`, a status subresource `.spec`, …). The
//! field manager leaves them out of ownership and conflicts (`fieldpath.NewExcludeFilterSetMap`,
//! wired by `AS/endpoints/installer.go:692-726`).

use std::collections::{BTreeMap, HashMap};

use smd_fieldpath::{ExcludeFilter, Filter, Path, PathElement, Set, Value};

use super::reset_table::{RESET, SCALE};
use crate::merge::Ignore;

/// The fields an endpoint resets, per apiVersion (versions not listed reset nothing).
///
/// ```
/// use smd::managedfields::ResetFields;
/// let status = ResetFields::kubernetes("apps", "Deployment", "status");
/// assert_eq!(status.get("apps/v1").unwrap().to_string(), ".spec\n.metadata.labels");
/// assert!(ResetFields::kubernetes("", "ConfigMap", "").is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResetFields {
    sets: BTreeMap<String, Set>,
}

impl ResetFields {
    /// Nothing reset.
    pub fn new() -> ResetFields {
        ResetFields::default()
    }

    /// Also resets `set` at `api_version`.
    pub fn insert(&mut self, api_version: impl Into<String>, set: Set) {
        let entry = self.sets.entry(api_version.into()).or_default();
        *entry = entry.union(&set);
    }

    /// What is reset at `api_version`.
    pub fn get(&self, api_version: &str) -> Option<&Set> {
        self.sets.get(api_version)
    }

    /// Whether nothing is reset.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }

    /// The reset fields of a built-in endpoint of Kubernetes 1.37: the kind of `group`
    /// (empty for the core group) through `subresource` (empty for the main resource). Kinds
    /// and subresources whose strategy resets nothing (ConfigMap, every `scale`) give none.
    pub fn kubernetes(group: &str, kind: &str, subresource: &str) -> ResetFields {
        let mut out = ResetFields::new();
        for (g, k, s, versions) in RESET {
            if (*g, *k, *s) != (group, kind, subresource) {
                continue;
            }
            for (version, paths) in *versions {
                out.insert(*version, set_of(paths.iter().map(|p| field_path(p))));
            }
        }
        out
    }

    /// The reset fields of a custom resource's endpoint, from its CRD (an
    /// `apiextensions.k8s.io/v1` `CustomResourceDefinition` value) and the served `version`:
    /// the main resource resets `.status` at that version when the version has a status
    /// subresource; the status subresource resets `.metadata` and `.spec` at every version
    /// with one; `scale` resets nothing (`AE/registry/customresource/strategy.go:132-142`,
    /// `status_strategy.go:48-65`, `AE/apiserver/customresource_handler.go:1078-1090`).
    pub fn custom_resource(crd: &Value, version: &str, subresource: &str) -> ResetFields {
        let mut out = ResetFields::new();
        let group = crd_group(crd);
        for v in crd_versions(crd) {
            let has_status = v
                .get("subresources")
                .and_then(Value::as_map)
                .and_then(|s| s.get("status"))
                .is_some_and(|s| !s.is_null());
            let name = v.get("name").and_then(Value::as_str).unwrap_or_default();
            if !has_status {
                continue;
            }
            let api_version = format!("{group}/{name}");
            match subresource {
                "" if name == version => out.insert(api_version, set_of([field_path(".status")])),
                "status" => out.insert(
                    api_version,
                    set_of([field_path(".metadata"), field_path(".spec")]),
                ),
                _ => {}
            }
        }
        out
    }

    /// Every reset path of any version, each once (versions in order), as field names: where
    /// the registry restores the stored object's values after the field manager ran.
    pub(crate) fn field_paths(&self) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = Vec::new();
        for set in self.sets.values() {
            for path in set.iter() {
                let names: Option<Vec<String>> = path
                    .iter()
                    .map(|e| e.as_field().and_then(|n| n.as_str()).map(str::to_owned))
                    .collect();
                if let Some(names) = names
                    && !out.contains(&names)
                {
                    out.push(names);
                }
            }
        }
        out
    }

    /// The filters of the merge.
    pub(crate) fn to_ignore(&self) -> Ignore {
        if self.sets.is_empty() {
            return Ignore::Nothing;
        }
        let filters: HashMap<String, Box<dyn Filter + Send + Sync>> = self
            .sets
            .iter()
            .map(|(v, s)| {
                let filter: Box<dyn Filter + Send + Sync> = Box::new(ExcludeFilter::new(s.clone()));
                (v.clone(), filter)
            })
            .collect();
        Ignore::Filters(filters)
    }
}

/// Per parent apiVersion, the path of the replicas a scale subresource reads and writes
/// (Go's `ResourcePathMappings`; `None` for a version without scale).
pub type ReplicasPaths = BTreeMap<String, Option<Path>>;

/// The replicas paths of a built-in kind's scale subresource in Kubernetes 1.37 (Deployment,
/// ReplicaSet, StatefulSet, ReplicationController); empty for kinds without one.
pub fn kubernetes_replicas_paths(group: &str, kind: &str) -> ReplicasPaths {
    SCALE
        .iter()
        .filter(|(g, k, _)| (*g, *k) == (group, kind))
        .flat_map(|(_, _, versions)| versions.iter())
        .map(|(version, path)| ((*version).to_owned(), Some(field_path(path))))
        .collect()
}

/// The replicas paths of a CRD's scale subresource: each version's `specReplicasPath` split
/// on `.` into field names, `None` for versions without scale
/// (`AE/apiserver/customresource_handler.go:706-724`).
pub fn custom_resource_replicas_paths(crd: &Value) -> ReplicasPaths {
    let group = crd_group(crd);
    crd_versions(crd)
        .map(|v| {
            let name = v.get("name").and_then(Value::as_str).unwrap_or_default();
            let path = v
                .get("subresources")
                .and_then(Value::as_map)
                .and_then(|s| s.get("scale"))
                .filter(|s| !s.is_null())
                .map(|scale| {
                    let text = scale
                        .as_map()
                        .and_then(|s| s.get("specReplicasPath"))
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let text = text.strip_prefix('.').unwrap_or(text);
                    text.split('.').map(PathElement::field).collect::<Path>()
                });
            (format!("{group}/{name}"), path)
        })
        .collect()
}

fn crd_group(crd: &Value) -> &str {
    crd.as_map()
        .and_then(|m| m.get("spec"))
        .and_then(Value::as_map)
        .and_then(|s| s.get("group"))
        .and_then(Value::as_str)
        .unwrap_or_default()
}

fn crd_versions(crd: &Value) -> impl Iterator<Item = &smd_fieldpath::Map> {
    crd.as_map()
        .and_then(|m| m.get("spec"))
        .and_then(Value::as_map)
        .and_then(|s| s.get("versions"))
        .and_then(Value::as_list)
        .unwrap_or_default()
        .iter()
        .filter_map(Value::as_map)
}

/// `.a.b` as a path of field names.
fn field_path(text: &str) -> Path {
    text.split('.')
        .filter(|s| !s.is_empty())
        .map(PathElement::field)
        .collect()
}

fn set_of(paths: impl IntoIterator<Item = Path>) -> Set {
    let mut set = Set::new();
    for path in paths {
        set.insert(&path);
    }
    set
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use smd_fieldpath::yaml;

    /// The table agrees with `docs/reset-fields-1.37.yaml`, which cites the strategies.
    #[test]
    fn table_matches_the_document() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../docs/reset-fields-1.37.yaml"
        );
        let text = std::fs::read_to_string(path).expect("the reset-field table");
        let doc = yaml::from_str(&text).unwrap();
        let resources = doc
            .as_map()
            .unwrap()
            .get("resources")
            .unwrap()
            .as_list()
            .unwrap();
        let text_of = |v: &Value| v.as_str().unwrap_or_default().to_owned();
        let mut rows = Vec::new();
        let mut scales = Vec::new();
        for r in resources {
            let r = r.as_map().unwrap();
            let (group, kind) = (
                text_of(r.get("group").unwrap()),
                text_of(r.get("kind").unwrap()),
            );
            let mut endpoints = vec![(String::new(), r.get("main").unwrap())];
            if let Some(Value::Map(subs)) = r.get("subresources") {
                endpoints.extend(subs.iter().map(|(k, v)| (k.to_owned(), v)));
            }
            for (sub, endpoint) in endpoints {
                let endpoint = endpoint.as_map().unwrap();
                if let Some(Value::Map(versions)) = endpoint.get("resetFields") {
                    for (version, paths) in versions.iter() {
                        for p in paths.as_list().unwrap() {
                            rows.push(format!("{group} {kind} {sub} {version} {}", text_of(p)));
                        }
                    }
                }
                if let Some(Value::Map(versions)) = endpoint.get("replicasPathInParent") {
                    for (version, p) in versions.iter() {
                        scales.push(format!("{group} {kind} {version} {}", text_of(p)));
                    }
                }
            }
        }
        let table: Vec<String> = RESET
            .iter()
            .flat_map(|(g, k, s, versions)| {
                versions.iter().flat_map(move |(v, paths)| {
                    paths.iter().map(move |p| format!("{g} {k} {s} {v} {p}"))
                })
            })
            .collect();
        assert_eq!(table, rows);
        let table: Vec<String> = SCALE
            .iter()
            .flat_map(|(g, k, versions)| {
                versions
                    .iter()
                    .map(move |(v, p)| format!("{g} {k} {v} {p}"))
            })
            .collect();
        assert_eq!(table, scales);
    }

    #[test]
    fn custom_resources() {
        let crd = yaml::from_str(
            r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  group: example.com
  versions:
  - name: v1
    subresources: {status: {}, scale: {specReplicasPath: .spec.size}}
  - name: v2
  - name: v3
    subresources: {status: {}}
"#,
        )
        .unwrap();
        let main = ResetFields::custom_resource(&crd, "v1", "");
        assert_eq!(main.get("example.com/v1").unwrap().to_string(), ".status");
        assert!(ResetFields::custom_resource(&crd, "v2", "").is_empty());
        let status = ResetFields::custom_resource(&crd, "v2", "status");
        let versions: Vec<&String> = status.sets.keys().collect();
        assert_eq!(versions, ["example.com/v1", "example.com/v3"]);
        assert_eq!(
            status.get("example.com/v3").unwrap().to_string(),
            ".metadata\n.spec"
        );
        let paths = custom_resource_replicas_paths(&crd);
        assert_eq!(
            paths["example.com/v1"].as_ref().unwrap().to_string(),
            ".spec.size"
        );
        assert_eq!(paths["example.com/v2"], None);
    }
}
