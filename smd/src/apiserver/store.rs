//! The objects the server holds, as etcd holds them for it: one revision counter for the whole
//! server (each write's `resourceVersion`), uids drawn in order.

use std::collections::{BTreeMap, BTreeSet};

use smd_fieldpath::Value;

/// Where an object is kept: group, plural, namespace (empty: cluster-scoped), name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectKey {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The resource's plural.
    pub plural: String,
    /// The namespace, empty for a cluster-scoped object.
    pub namespace: String,
    /// The object's name.
    pub name: String,
}

impl ObjectKey {
    /// The key of `name` in `namespace` of `group`'s `plural`.
    pub fn new(group: &str, plural: &str, namespace: &str, name: &str) -> ObjectKey {
        ObjectKey {
            group: group.to_owned(),
            plural: plural.to_owned(),
            namespace: namespace.to_owned(),
            name: name.to_owned(),
        }
    }
}

/// The stored objects and the counters the storage keeps.
#[derive(Debug, Clone)]
pub(super) struct Store {
    objects: BTreeMap<ObjectKey, Value>,
    /// Objects whose stored form lacks fields reading defaults (see
    /// [`stored_without_read_defaults`]) until their next write.
    reread: BTreeSet<ObjectKey>,
    revision: u64,
    uids: u64,
    names: u64,
}

/// The revision a new store starts after. A cluster's storage has seen many writes before a
/// client's first (a fresh kube-apiserver's are in the hundreds), so a small resourceVersion
/// a client makes up is stale, as it is on a real server.
pub(super) const FIRST_REVISION: u64 = 1000;

impl Default for Store {
    fn default() -> Self {
        Store {
            objects: BTreeMap::new(),
            reread: BTreeSet::new(),
            revision: FIRST_REVISION,
            uids: 0,
            names: 0,
        }
    }
}

/// The resources whose registry stores a created object without a field that decoding it
/// defaults: a PersistentVolumeClaim's create strategy empties its status after the request's
/// defaults gave it `phase: Pending`, so etcd holds no phase, every read defaults it again, and
/// the first update, which writes the phase, is never a no-op. (group, plural).
const CREATED_WITHOUT_READ_DEFAULTS: &[(&str, &str)] = &[("", "persistentvolumeclaims")];

/// Whether a created object of `group`'s `plural` is stored without fields reading defaults.
pub(super) fn stored_without_read_defaults(group: &str, plural: &str, custom: bool) -> bool {
    !custom && CREATED_WITHOUT_READ_DEFAULTS.contains(&(group, plural))
}

/// The characters of a `generateName` suffix (`apiserver/pkg/storage/names`: no vowels, no
/// look-alikes).
const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

impl Store {
    pub fn get(&self, key: &ObjectKey) -> Option<&Value> {
        self.objects.get(key)
    }

    pub fn contains(&self, key: &ObjectKey) -> bool {
        self.objects.contains_key(key)
    }

    pub fn insert(&mut self, key: ObjectKey, object: Value) {
        self.reread.remove(&key);
        self.objects.insert(key, object);
    }

    pub fn remove(&mut self, key: &ObjectKey) -> Option<Value> {
        self.reread.remove(key);
        self.objects.remove(key)
    }

    /// Records that the object just created at `key` is stored without fields that reading
    /// it defaults: its next update is a write even when it changes nothing a client sees.
    pub fn mark_stored_without_read_defaults(&mut self, key: &ObjectKey) {
        if self.objects.contains_key(key) {
            self.reread.insert(key.clone());
        }
    }

    /// Whether an update of `key` that changes nothing a client sees still writes (the stored
    /// form differs from the object as read).
    pub fn writes_even_unchanged(&self, key: &ObjectKey) -> bool {
        self.reread.contains(key)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&ObjectKey, &Value)> {
        self.objects.iter()
    }

    /// The next revision: the `resourceVersion` of the next write.
    pub fn next_revision(&mut self) -> String {
        self.revision += 1;
        self.revision.to_string()
    }

    /// Makes the next revisions come after `seen` (an object put in from outside).
    pub fn observe_revision(&mut self, seen: &str) {
        if let Ok(n) = seen.parse::<u64>() {
            self.revision = self.revision.max(n);
        }
    }

    /// The next uid, a counter written as a UUID (the real server draws random ones).
    pub fn next_uid(&mut self) -> String {
        self.uids += 1;
        let n = self.uids;
        format!("00000000-0000-4000-8000-{:012x}", n & 0xffff_ffff_ffff)
    }

    /// The next `generateName` suffix: five characters of the server's alphabet.
    pub fn next_name_suffix(&mut self) -> String {
        self.names += 1;
        let mut n = self.names;
        let base = NAME_ALPHABET.len() as u64;
        (0..5)
            .map(|_| {
                let c = NAME_ALPHABET
                    .get((n % base) as usize)
                    .copied()
                    .unwrap_or(b'b');
                n /= base;
                char::from(c)
            })
            .collect()
    }
}
