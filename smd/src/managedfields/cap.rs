//! The cap on Update managers (`capManagersManager`, `IN/capmanagers.go`): after an update,
//! when more than the cap of entries are not applied, the oldest are merged, per apiVersion,
//! into an `ancient-changes` bucket.

use std::collections::HashMap;

use smd_fieldpath::VersionedSet;

use super::identity::{ManagerId, Operation};
use super::managed::Managed;
use super::time::Timestamp;

/// How many Update managers an object keeps before the oldest are merged
/// (`DefaultMaxUpdateManagers`).
pub const MAX_UPDATE_MANAGERS: usize = 10;

/// The name of the bucket old Update managers are merged into.
pub const ANCIENT_CHANGES: &str = "ancient-changes";

/// `capUpdateManagers` (`IN/capmanagers.go:63-133`), step for step.
///
/// Every entry that is not applied counts (subresource entries, `before-first-apply`,
/// existing buckets). They are visited oldest first (no time counts as 0; ties by identity
/// key, byte-wise) while more than `max` remain. The first entry of each apiVersion is only
/// remembered; each later one is merged into that version's bucket (the remembered entry
/// moves into the bucket first, if the bucket does not exist), and the bucket takes the
/// merged entry's time. An apiVersion seen once is never merged, so more than `max` can
/// remain.
pub(crate) fn cap_update_managers(managed: &mut Managed, max: usize) {
    let mut updaters: Vec<String> = managed
        .fields
        .iter()
        .filter(|(_, set)| !set.applied())
        .map(|(key, _)| key.to_owned())
        .collect();
    if updaters.len() <= max {
        return;
    }
    let seconds = |key: &str| managed.times.get(key).map_or(0, |t| Timestamp::unix(*t));
    updaters.sort_by(|a, b| {
        seconds(a)
            .cmp(&seconds(b))
            .then_with(|| a.as_bytes().cmp(b.as_bytes()))
    });
    let mut first_of_version: HashMap<String, String> = HashMap::new();
    let mut length = updaters.len();
    for manager in &updaters {
        if length <= max {
            break;
        }
        // Only the current entry and remembered (already visited) ones are ever deleted, so
        // the entry is there.
        let Some(set) = managed.fields.get(manager).cloned() else {
            continue;
        };
        let time = managed.times.get(manager).copied();
        let version = set.api_version().to_owned();
        let bucket = ManagerId::new(ANCIENT_CHANGES, Operation::Update, version.as_str(), "").key();
        let Some(first) = first_of_version.get(&version) else {
            first_of_version.insert(version, manager.clone());
            continue;
        };
        if managed.fields.get(&bucket).is_none() {
            if let Some(moved) = managed.fields.remove(first) {
                managed.fields.insert(bucket.clone(), moved);
            }
        }
        let in_bucket = managed
            .fields
            .get(&bucket)
            .map(|b| b.set().clone())
            .unwrap_or_default();
        managed.fields.insert(
            bucket.clone(),
            VersionedSet::new(
                set.set().union(&in_bucket),
                set.api_version(),
                set.applied(),
            ),
        );
        // When the current entry is the bucket itself (an older entry of its version came
        // first), this deletes the bucket, as Go does.
        managed.fields.remove(manager);
        length -= 1;
        match time {
            Some(t) => managed.times.insert(bucket, t),
            None => managed.times.remove(&bucket),
        };
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use smd_fieldpath::{PathElement, Set};

    fn add(managed: &mut Managed, name: &str, version: &str, field: &str, time: i64) -> String {
        let key = ManagerId::new(name, Operation::Update, version, "").key();
        let set: Set = [[PathElement::field(field)]].into_iter().collect();
        managed
            .fields
            .insert(key.clone(), VersionedSet::new(set, version, false));
        managed
            .times
            .insert(key.clone(), Timestamp::from_unix(time));
        key
    }

    fn names(managed: &Managed) -> Vec<String> {
        managed
            .fields
            .iter()
            .map(|(k, s)| format!("{}={}", ManagerId::from_key(k).unwrap().manager, s.set()))
            .collect()
    }

    #[test]
    fn merges_oldest_into_bucket_keeping_newest() {
        // IN/capmanagers_test.go:59-123 (cap 3, four updaters one after the other): the bucket
        // holds the fields of the two oldest, the two newest stay.
        let mut managed = Managed::new();
        for (i, field) in ["one", "two", "three", "four"].into_iter().enumerate() {
            add(
                &mut managed,
                &format!("update_{}", i + 1),
                "v1",
                field,
                i as i64 + 1,
            );
        }
        cap_update_managers(&mut managed, 3);
        assert_eq!(
            names(&managed),
            [
                "ancient-changes=.one\n.two",
                "update_3=.three",
                "update_4=.four"
            ]
        );
        let bucket = ManagerId::new(ANCIENT_CHANGES, Operation::Update, "v1", "").key();
        // The bucket takes the time of the entry merged into it (IN/capmanagers.go:126).
        assert_eq!(managed.times[&bucket], Timestamp::from_unix(2));
    }

    #[test]
    fn a_version_seen_once_is_never_merged() {
        // IN/capmanagers.go:127-129: the first of each version is only remembered.
        let mut managed = Managed::new();
        for i in 0..4 {
            add(&mut managed, &format!("m{i}"), &format!("v{i}"), "f", i);
        }
        cap_update_managers(&mut managed, 2);
        assert_eq!(managed.fields.len(), 4);
    }

    #[test]
    fn applied_entries_do_not_count() {
        // IN/capmanagers.go:66-72.
        let mut managed = Managed::new();
        add(&mut managed, "u1", "v1", "a", 1);
        add(&mut managed, "u2", "v1", "b", 2);
        let key = ManagerId::new("applier", Operation::Apply, "v1", "").key();
        let set: Set = [[PathElement::field("c")]].into_iter().collect();
        managed
            .fields
            .insert(key, VersionedSet::new(set, "v1", true));
        cap_update_managers(&mut managed, 2);
        assert_eq!(managed.fields.len(), 3);
    }
}
