//! The scale subresource's managedFields (`MF/scalehandler.go`): the parent's owners of the
//! replicas are shown to the scale endpoint as owners of the Scale object's `.spec.replicas`,
//! and what the scale endpoint records is taken back to the parent.
//!
//! The API server's wiring (`K/apps/deployment/storage/storage.go:400-482`): build the Scale
//! object from the parent, set its managedFields to [`ScaleHandler::to_subresource`], run the
//! scale endpoint's field manager (kind `autoscaling/v1` `Scale`, subresource `scale`, nothing
//! reset), copy the replicas back, and set the parent's managedFields to
//! [`ScaleHandler::to_parent`] of the Scale's.

use smd_fieldpath::{ManagedFields, Path, PathElement, Set, VersionedSet};

use super::entry::Entry;
use super::error::Error;
use super::managed::Managed;
use super::reset::ReplicasPaths;

/// The apiVersion of Scale objects.
pub const SCALE_API_VERSION: &str = "autoscaling/v1";

/// Moves replicas ownership between a parent's managedFields and its scale subresource's.
#[derive(Debug, Clone)]
pub struct ScaleHandler {
    parent: Vec<Entry>,
    group_version: String,
    mappings: ReplicasPaths,
}

impl ScaleHandler {
    /// A handler for a parent with `parent` entries, scaled through `group_version` (the
    /// request's group/version when the mappings have it, else the kind's preferred one),
    /// with the replicas path of each parent version.
    pub fn new(
        parent: Vec<Entry>,
        group_version: impl Into<String>,
        mappings: ReplicasPaths,
    ) -> ScaleHandler {
        ScaleHandler {
            parent,
            group_version: group_version.into(),
            mappings,
        }
    }

    /// The Scale object's managedFields (`ToSubresource`, `MF/scalehandler.go:62-90`): each
    /// parent manager whose set has its version's replicas path, now owning `.spec.replicas`
    /// at `autoscaling/v1`, under the same identity and time; `None` when there is none.
    pub fn to_subresource(&self) -> Result<Option<Vec<Entry>>, Error> {
        let parent = Managed::decode(&self.parent).map_err(undecodable)?;
        let mut out = Managed::new();
        for (key, set) in parent.fields.iter() {
            let Some(Some(path)) = self.mappings.get(set.api_version()) else {
                continue;
            };
            if set.set().has(path) {
                out.fields.insert(
                    key,
                    VersionedSet::new(replicas_in_scale(), SCALE_API_VERSION, set.applied()),
                );
                if let Some(t) = parent.times.get(key) {
                    out.times.insert(key.to_owned(), *t);
                }
            }
        }
        encode(&out)
    }

    /// The parent's managedFields after the scale endpoint wrote `scale` (`ToParent`,
    /// `MF/scalehandler.go:94-162`): parent entries at versions the mappings lack are dropped;
    /// a replicas owner keeps the path only if its identity is among the scale's entries
    /// (Update identities carry their apiVersion, so a parent Update owner never does) and
    /// loses it otherwise (dropped if nothing remains); each other scale entry owning
    /// `.spec.replicas` becomes an owner of the replicas at the handler's group/version, with
    /// the parent's time for that identity (none for a new manager).
    pub fn to_parent(&self, scale: Option<&[Entry]>) -> Result<Option<Vec<Entry>>, Error> {
        let parent = Managed::decode(&self.parent).map_err(undecodable)?;
        let scale = Managed::decode(scale.unwrap_or_default()).map_err(undecodable)?;
        let mut scale_fields: ManagedFields = scale.fields;
        let mut out = Managed::new();
        for (key, set) in parent.fields.iter() {
            let Some(path) = self.mappings.get(set.api_version()) else {
                continue;
            };
            let keep = |out: &mut Managed, set: VersionedSet| {
                out.fields.insert(key, set);
                if let Some(t) = parent.times.get(key) {
                    out.times.insert(key.to_owned(), *t);
                }
            };
            let Some(path) = path.as_ref().filter(|p| set.set().has(p)) else {
                keep(&mut out, set.clone());
                continue;
            };
            if scale_fields.remove(key).is_some() {
                keep(&mut out, set.clone());
                continue;
            }
            let mut stolen = Set::new();
            stolen.insert(path);
            let left = set.set().difference(&stolen);
            if !left.is_empty() {
                keep(
                    &mut out,
                    VersionedSet::new(left, set.api_version(), set.applied()),
                );
            }
        }
        let path = self
            .mappings
            .get(&self.group_version)
            .cloned()
            .flatten()
            .unwrap_or_default();
        for (key, set) in scale_fields.iter() {
            if !set.set().has(&replicas_in_scale_path()) {
                continue;
            }
            let mut owned = Set::new();
            owned.insert(&path);
            out.fields.insert(
                key,
                VersionedSet::new(owned, self.group_version.as_str(), set.applied()),
            );
            match parent.times.get(key) {
                Some(t) => out.times.insert(key.to_owned(), *t),
                None => out.times.remove(key),
            };
        }
        encode(&out)
    }
}

fn replicas_in_scale_path() -> Path {
    Path::from_iter([PathElement::field("spec"), PathElement::field("replicas")])
}

fn replicas_in_scale() -> Set {
    let mut set = Set::new();
    set.insert(&replicas_in_scale_path());
    set
}

fn encode(managed: &Managed) -> Result<Option<Vec<Entry>>, Error> {
    managed
        .encode()
        .map_err(|e| Error::internal(format!("failed to convert back managed fields to API: {e}")))
}

/// The handler returns the decoding error as it is (`MF/scalehandler.go:64-67`), with no
/// prefix of its own.
fn undecodable(e: super::managed::DecodeError) -> Error {
    Error::internal(e.to_string())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::managedfields::time::Timestamp;

    fn entry(manager: &str, operation: &str, version: &str, fields: &str, sub: &str) -> Entry {
        Entry {
            manager: manager.into(),
            operation: operation.into(),
            api_version: version.into(),
            time: None,
            fields_type: "FieldsV1".into(),
            fields_v1: Some(fields.as_bytes().to_vec()),
            subresource: sub.into(),
        }
    }

    /// `MF/scalehandler_test.go:781` (defaultMappings).
    fn handler(parent: Vec<Entry>) -> ScaleHandler {
        let mut mappings = ReplicasPaths::new();
        mappings.insert("apps/v1".into(), Some(replicas_in_scale_path()));
        ScaleHandler::new(parent, "apps/v1", mappings)
    }

    const REPLICAS: &str = r#"{"f:spec":{"f:replicas":{}}}"#;
    const BOTH: &str = r#"{"f:spec":{"f:replicas":{},"f:selector":{}}}"#;
    const SELECTOR: &str = r#"{"f:spec":{"f:selector":{}}}"#;

    #[test]
    fn to_subresource() {
        // MF/scalehandler_test.go:39 "filter one entry and transform it into a subresource entry".
        let mut owner = entry("manager-2", "Apply", "apps/v1", REPLICAS, "");
        owner.time = Some(Timestamp::from_unix(1_359_849_600));
        let h = handler(vec![
            entry(
                "manager-1",
                "Apply",
                "apps/v1",
                r#"{"f:spec":{"f:another-field":{}}}"#,
                "",
            ),
            owner.clone(),
        ]);
        let mut expected = owner;
        expected.api_version = "autoscaling/v1".into();
        assert_eq!(h.to_subresource().unwrap(), Some(vec![expected]));
        // :120 "drops fields if the api version is unknown": nothing left is nil.
        let h = handler(vec![entry("manager-1", "Apply", "apps/v10", REPLICAS, "")]);
        assert_eq!(h.to_subresource().unwrap(), None);
    }

    #[test]
    fn to_parent() {
        // MF/scalehandler_test.go:159 "different-managers: apply -> update".
        let h = handler(vec![entry("test", "Apply", "apps/v1", BOTH, "")]);
        let scale = [entry(
            "scale",
            "Update",
            "autoscaling/v1",
            REPLICAS,
            "scale",
        )];
        assert_eq!(
            h.to_parent(Some(&scale)).unwrap(),
            Some(vec![
                entry("test", "Apply", "apps/v1", SELECTOR, ""),
                entry("scale", "Update", "apps/v1", REPLICAS, "scale"),
            ])
        );
        // :354 "same manager: update -> update": the identities differ in apiVersion.
        let h = handler(vec![entry("test", "Update", "apps/v1", BOTH, "")]);
        let scale = [entry("test", "Update", "autoscaling/v1", REPLICAS, "scale")];
        assert_eq!(
            h.to_parent(Some(&scale)).unwrap(),
            Some(vec![
                entry("test", "Update", "apps/v1", SELECTOR, ""),
                entry("test", "Update", "apps/v1", REPLICAS, "scale"),
            ])
        );
        // :534 "apply without stealing": an Apply identity has no apiVersion.
        let h = handler(vec![entry("test", "Apply", "apps/v1", BOTH, "")]);
        let scale = [
            entry("test", "Apply", "autoscaling/v1", REPLICAS, ""),
            entry("test", "Apply", "autoscaling/v1", REPLICAS, "scale"),
        ];
        assert_eq!(
            h.to_parent(Some(&scale)).unwrap(),
            Some(vec![
                entry("test", "Apply", "apps/v1", BOTH, ""),
                entry("test", "Apply", "apps/v1", REPLICAS, "scale"),
            ])
        );
        // :580 "drops the entry if the api version is unknown".
        let h = handler(vec![
            entry("test", "Apply", "apps/v1", REPLICAS, ""),
            entry("another-manager", "Apply", "apps/v10", SELECTOR, ""),
        ]);
        let scale = [entry("scale", "Update", "autoscaling/v1", REPLICAS, "")];
        assert_eq!(
            h.to_parent(Some(&scale)).unwrap(),
            Some(vec![entry("scale", "Update", "apps/v1", REPLICAS, "")])
        );
    }
}
