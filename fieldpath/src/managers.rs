//! Managed fields: for each manager, the set it owns, at the API version it used.
//!
//! ```
//! use smd_fieldpath::{ManagedFields, PathElement, Set, VersionedSet};
//! let mut owned = Set::new();
//! owned.insert(&[PathElement::field("spec"), PathElement::field("replicas")]);
//! let mut managers = ManagedFields::new();
//! managers.insert("kubectl", VersionedSet::new(owned, "apps/v1", true));
//! assert!(managers.difference(&ManagedFields::new()).get("kubectl").is_some());
//! ```

use crate::set::Set;
use std::collections::BTreeMap;

/// A set of fields owned by one manager, with the API version they are expressed in and whether
/// the manager applied them (server-side apply) or updated them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VersionedSet {
    set: Set,
    api_version: String,
    applied: bool,
}

impl VersionedSet {
    /// A new versioned set.
    pub fn new(set: Set, api_version: impl Into<String>, applied: bool) -> VersionedSet {
        VersionedSet {
            set,
            api_version: api_version.into(),
            applied,
        }
    }

    /// The owned fields.
    pub fn set(&self) -> &Set {
        &self.set
    }

    /// The API version the paths are expressed in (`apps/v1`).
    pub fn api_version(&self) -> &str {
        &self.api_version
    }

    /// Whether the fields were applied, rather than updated.
    pub fn applied(&self) -> bool {
        self.applied
    }
}

/// The fields each manager owns, by manager name (sorted, so every walk is deterministic).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ManagedFields {
    managers: BTreeMap<String, VersionedSet>,
}

impl ManagedFields {
    /// No managers.
    pub fn new() -> ManagedFields {
        ManagedFields::default()
    }

    /// Sets what `manager` owns, returning what it owned before.
    pub fn insert(
        &mut self,
        manager: impl Into<String>,
        set: VersionedSet,
    ) -> Option<VersionedSet> {
        self.managers.insert(manager.into(), set)
    }

    /// What `manager` owns.
    pub fn get(&self, manager: &str) -> Option<&VersionedSet> {
        self.managers.get(manager)
    }

    /// Forgets `manager`.
    pub fn remove(&mut self, manager: &str) -> Option<VersionedSet> {
        self.managers.remove(manager)
    }

    /// The managers and what they own, sorted by manager.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &VersionedSet)> {
        self.managers.iter().map(|(m, s)| (m.as_str(), s))
    }

    /// The number of managers.
    pub fn len(&self) -> usize {
        self.managers.len()
    }

    /// Whether there are no managers.
    pub fn is_empty(&self) -> bool {
        self.managers.is_empty()
    }

    /// What differs between two ownership records, as Go's `ManagedFields.Difference`: a manager
    /// on one side only is reported with its set (unless empty); at different versions the
    /// right-hand entry is reported whole; at the same version, the symmetric difference of the
    /// two sets, at that version and not applied (unless empty). The applied flag itself is
    /// never compared.
    pub fn difference(&self, other: &ManagedFields) -> ManagedFields {
        let mut diff = ManagedFields::new();
        for (manager, left) in &self.managers {
            let entry = match other.managers.get(manager) {
                None => (!left.set.is_empty()).then(|| left.clone()),
                Some(right) if right.api_version != left.api_version => Some(right.clone()),
                Some(right) => {
                    let changed = left
                        .set
                        .difference(&right.set)
                        .union(&right.set.difference(&left.set));
                    (!changed.is_empty())
                        .then(|| VersionedSet::new(changed, right.api_version.clone(), false))
                }
            };
            if let Some(entry) = entry {
                diff.insert(manager.clone(), entry);
            }
        }
        for (manager, right) in &other.managers {
            if !self.managers.contains_key(manager) && !right.set.is_empty() {
                diff.insert(manager.clone(), right.clone());
            }
        }
        diff
    }
}

impl FromIterator<(String, VersionedSet)> for ManagedFields {
    fn from_iter<I: IntoIterator<Item = (String, VersionedSet)>>(iter: I) -> ManagedFields {
        ManagedFields {
            managers: iter.into_iter().collect(),
        }
    }
}
