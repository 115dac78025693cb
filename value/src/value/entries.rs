//! The entries of a map: key-value pairs in insertion order, found by a scan while there are
//! few of them and by a hash index once there are more.
//!
//! Most maps of a Kubernetes object hold a handful of entries: for them a scan of short keys
//! beats hashing, and a vector is one allocation where a hash table is two. Big maps (a
//! ConfigMap's data, a fieldsV1 node with a thousand keys) get an index of positions, hashed
//! with foldhash seeded per process (keys come from manifests, so colliding ones must not be
//! choosable ahead of time). The index is made on the first lookup that needs it: many big
//! maps are built and read in order only (a merge's result, a set written as `fieldsV1`).

use compact_str::CompactString;
use hashbrown::HashTable;
use std::hash::BuildHasher;
use std::sync::OnceLock;

use super::Value;

/// Up to this many entries, a lookup is a scan.
const SCANNED: usize = 8;

#[derive(Clone, Debug, Default)]
pub(super) struct Entries {
    items: Vec<(CompactString, Value)>,
    /// Made by the first lookup in more than [`SCANNED`] entries, kept up to date after.
    index: OnceLock<Index>,
}

/// Positions into `items` by the hash of their keys.
#[derive(Clone)]
struct Index {
    table: HashTable<usize>,
    hasher: foldhash::fast::RandomState,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Index")
    }
}

impl Index {
    fn new(items: &[(CompactString, Value)]) -> Index {
        let hasher = foldhash::fast::RandomState::default();
        let mut table = HashTable::with_capacity(items.len());
        for (at, (key, _)) in items.iter().enumerate() {
            let hash = hasher.hash_one(key.as_str());
            table.insert_unique(hash, at, |&i: &usize| {
                hasher.hash_one(items.get(i).map_or("", |(k, _)| k.as_str()))
            });
        }
        Index { table, hasher }
    }
}

impl Entries {
    pub(super) fn with_capacity(n: usize) -> Entries {
        Entries {
            items: Vec::with_capacity(n),
            index: OnceLock::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub(super) fn items(&self) -> &[(CompactString, Value)] {
        &self.items
    }

    pub(super) fn items_mut(&mut self) -> &mut [(CompactString, Value)] {
        &mut self.items
    }

    pub(super) fn into_items(self) -> Vec<(CompactString, Value)> {
        self.items
    }

    /// The position of `key`.
    pub(super) fn position(&self, key: &str) -> Option<usize> {
        let items = &self.items;
        if items.len() <= SCANNED {
            return items.iter().position(|(k, _)| k.as_str() == key);
        }
        let index = self.index.get_or_init(|| Index::new(items));
        let hash = index.hasher.hash_one(key);
        index
            .table
            .find(hash, |&i| {
                items.get(i).is_some_and(|(k, _)| k.as_str() == key)
            })
            .copied()
    }

    /// The position of `key`, looked for at `hint` first.
    pub(super) fn position_near(&self, key: &str, hint: usize) -> Option<usize> {
        match self.items.get(hint) {
            Some((k, _)) if k.as_str() == key => Some(hint),
            _ => self.position(key),
        }
    }

    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        let at = self.position(key)?;
        self.items.get(at).map(|(_, v)| v)
    }

    pub(super) fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let at = self.position(key)?;
        self.items.get_mut(at).map(|(_, v)| v)
    }

    /// Sets `key` to `value`: a new key goes last, an existing one keeps its place. Returns
    /// the old value.
    pub(super) fn insert(&mut self, key: CompactString, value: Value) -> Option<Value> {
        if let Some(at) = self.position(&key) {
            return self
                .items
                .get_mut(at)
                .map(|(_, v)| std::mem::replace(v, value));
        }
        self.push(key, value);
        None
    }

    /// The value of `key`, made `Null` (and last) where the key is absent.
    pub(super) fn slot(&mut self, key: &str) -> &mut Value {
        let at = match self.position(key) {
            Some(at) => at,
            None => {
                self.push(CompactString::from(key), Value::Null);
                self.items.len() - 1
            }
        };
        match self.items.get_mut(at) {
            Some((_, value)) => value,
            None => unreachable!("a position just found or just pushed"),
        }
    }

    /// Appends a key known to be absent.
    pub(super) fn push(&mut self, key: CompactString, value: Value) {
        let at = self.items.len();
        if let Some(index) = self.index.get_mut() {
            let hash = index.hasher.hash_one(key.as_str());
            let items = &self.items;
            let hasher = &index.hasher;
            index.table.insert_unique(hash, at, |&i: &usize| {
                hasher.hash_one(items.get(i).map_or("", |(k, _)| k.as_str()))
            });
        }
        self.items.push((key, value));
    }

    /// Removes `key`, keeping the order of the others.
    pub(super) fn shift_remove(&mut self, key: &str) -> Option<Value> {
        let at = self.position(key)?;
        let (_, value) = self.items.remove(at);
        self.reindex();
        Some(value)
    }

    /// Sorts the entries by key, byte-wise (stable; keys are unique anyway).
    pub(super) fn sort_keys(&mut self) {
        self.items
            .sort_by(|(a, _), (b, _)| a.as_bytes().cmp(b.as_bytes()));
        self.reindex();
    }

    /// The index again after positions moved.
    fn reindex(&mut self) {
        self.index = OnceLock::new();
    }
}

impl FromIterator<(CompactString, Value)> for Entries {
    /// A repeated key keeps its first place and takes its last value.
    fn from_iter<I: IntoIterator<Item = (CompactString, Value)>>(iter: I) -> Entries {
        let iter = iter.into_iter();
        let mut entries = Entries::with_capacity(iter.size_hint().0);
        for (k, v) in iter {
            entries.insert(k, v);
        }
        entries
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn key(i: usize) -> CompactString {
        CompactString::from(format!("key-{i:02}"))
    }

    #[test]
    fn scanned_and_indexed_agree() {
        let mut e = Entries::default();
        // Across the switch to an index and back.
        for i in (0..20).rev() {
            assert_eq!(e.insert(key(i), Value::Int(i as i64)), None);
            assert_eq!(e.len(), 20 - i);
            for j in i..20 {
                assert_eq!(
                    e.get(key(j).as_str()),
                    Some(&Value::Int(j as i64)),
                    "{i} {j}"
                );
            }
            assert_eq!(e.get("absent"), None);
        }
        // An existing key keeps its place and gives its old value back.
        assert_eq!(e.insert(key(7), Value::Null), Some(Value::Int(7)));
        assert_eq!(e.items()[12].0.as_str(), "key-07");
        // Removing keeps the order of the others, whatever the size.
        for i in 0..20 {
            assert!(e.shift_remove(key(i).as_str()).is_some(), "remove {i}");
            assert_eq!(e.get(key(i).as_str()), None);
            let keys: Vec<&str> = e.items().iter().map(|(k, _)| k.as_str()).collect();
            let mut sorted = keys.clone();
            sorted.sort_by(|a, b| b.cmp(a));
            assert_eq!(keys, sorted);
            for j in i + 1..20 {
                assert!(e.get(key(j).as_str()).is_some(), "{i} {j}");
            }
        }
        assert!(e.is_empty());
    }

    #[test]
    fn repeated_keys_keep_the_first_place_and_the_last_value() {
        let e: Entries = (0..30)
            .map(|i| (key(i % 10), Value::Int(i as i64)))
            .collect();
        assert_eq!(e.len(), 10);
        assert_eq!(e.items()[3], (key(3), Value::Int(23)));
        let mut s = e.clone();
        s.insert(CompactString::from("a"), Value::Null);
        s.sort_keys();
        assert_eq!(s.items()[0].0.as_str(), "a");
        assert_eq!(s.get("key-09"), Some(&Value::Int(29)));
        assert_eq!(*s.slot("new"), Value::Null);
        assert_eq!(s.items().last().map(|(k, _)| k.as_str()), Some("new"));
    }
}
