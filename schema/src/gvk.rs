//! Group/version/kind → type: the index the API server's type converter builds from the
//! `x-kubernetes-group-version-kind` extension of each definition
//! (apimachinery's `managedfields/internal.indexModels`).

use std::collections::HashMap;
use std::fmt;

use smd_value::Value;

/// A Kubernetes group, version and kind (the core group is the empty string).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct GroupVersionKind {
    /// The API group: `apps`, or empty for the core group.
    pub group: String,
    /// The version: `v1`.
    pub version: String,
    /// The kind: `Deployment`.
    pub kind: String,
}

impl GroupVersionKind {
    /// A GVK from its parts.
    pub fn new(
        group: impl Into<String>,
        version: impl Into<String>,
        kind: impl Into<String>,
    ) -> GroupVersionKind {
        GroupVersionKind {
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
        }
    }

    /// The GVK of an object with this `apiVersion` and `kind`, as Go's
    /// `Unstructured.GroupVersionKind()` parses it: `apps/v1` is group `apps`, version `v1`;
    /// `v1` is the core group; an empty `apiVersion` or `/` is empty; an `apiVersion` with
    /// more than one `/` gives the empty GVK (kind included), which names no type.
    pub fn from_api_version(api_version: &str, kind: &str) -> GroupVersionKind {
        if api_version.is_empty() || api_version == "/" {
            return GroupVersionKind::new("", "", kind);
        }
        match api_version.matches('/').count() {
            0 => GroupVersionKind::new("", api_version, kind),
            1 => {
                let (group, version) = api_version.split_once('/').unwrap_or_default();
                GroupVersionKind::new(group, version, kind)
            }
            _ => GroupVersionKind::default(),
        }
    }
}

impl fmt::Display for GroupVersionKind {
    /// Go's text: `apps/v1, Kind=Deployment` (`/v1, Kind=Pod` for the core group).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}, Kind={}", self.group, self.version, self.kind)
    }
}

/// GVK → the name of the definition (type) objects of that kind have.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GvkIndex {
    types: HashMap<GroupVersionKind, String>,
}

impl GvkIndex {
    /// Indexes `(definition name, x-kubernetes-group-version-kind value)` pairs as Go does:
    /// the value must be a list; each entry a map whose `group`, `version` and `kind` are
    /// strings (other entries are skipped); an empty kind is skipped. When two definitions
    /// claim one GVK, Go's choice depends on its map order; smd takes the later definition.
    pub(crate) fn from_extensions<'a>(
        defs: impl Iterator<Item = (&'a str, &'a Value)>,
    ) -> GvkIndex {
        let mut types = HashMap::new();
        for (name, ext) in defs {
            let Value::List(entries) = ext else { continue };
            for entry in entries {
                let Value::Map(m) = entry else { continue };
                let part = |k: &str| m.get(k).and_then(Value::as_str);
                let (Some(group), Some(version), Some(kind)) =
                    (part("group"), part("version"), part("kind"))
                else {
                    continue;
                };
                if !kind.is_empty() {
                    types.insert(GroupVersionKind::new(group, version, kind), name.to_owned());
                }
            }
        }
        GvkIndex { types }
    }

    /// An index of these entries.
    pub fn from_entries(entries: impl IntoIterator<Item = (GroupVersionKind, String)>) -> GvkIndex {
        GvkIndex {
            types: entries.into_iter().collect(),
        }
    }

    /// The type of objects of this GVK.
    pub fn get(&self, gvk: &GroupVersionKind) -> Option<&str> {
        self.types.get(gvk).map(String::as_str)
    }

    /// The type of objects with this `apiVersion` and `kind`
    /// ([`GroupVersionKind::from_api_version`]).
    pub fn lookup(&self, api_version: &str, kind: &str) -> Option<&str> {
        self.get(&GroupVersionKind::from_api_version(api_version, kind))
    }

    /// Every entry, sorted by group, version and kind.
    pub fn entries(&self) -> Vec<(&GroupVersionKind, &str)> {
        let mut out: Vec<_> = self.types.iter().map(|(g, t)| (g, t.as_str())).collect();
        out.sort();
        out
    }

    /// How many GVKs are indexed.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}
