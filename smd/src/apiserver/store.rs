//! The objects the server holds, as etcd holds them for it: one revision counter for the whole
//! server (each write's `resourceVersion`), uids drawn in order.

use std::collections::{BTreeMap, VecDeque};

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
    /// What the storage wrote for an object, where it is not what a read of it gives (a
    /// built-in object is defaulted again when read back): the bytes a write is compared
    /// with to find that it changes nothing.
    written: BTreeMap<ObjectKey, Value>,
    revision: u64,
    uids: u64,
    names: u64,
    /// The values made up since the last [`Store::take_chosen`] (uids, generated names, the
    /// creation time, allocated addresses and ports): what a real server chooses otherwise.
    chosen: Vec<ServerChoice>,
    /// Where the search for the next free cluster IP and node port starts (`allocate.rs`):
    /// what is taken is read from the stored Services; these only make the server move on
    /// after each allocation, so that a released value is not handed out again at once (a
    /// real server draws at random and almost never does).
    pub ip_cursor: u32,
    pub port_cursor: u32,
    /// The latest writes, oldest first, at most `history` of them: what a watch from an
    /// earlier `resourceVersion` replays (the watch cache's window).
    events: VecDeque<Event>,
    history: usize,
    /// The revision the kept events follow: a watch or an exact list from an earlier one is
    /// answered `410 Gone`.
    floor: u64,
}

/// What a watch reports of a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    /// The object was created (or, for a selective watch, came to match).
    Added,
    /// The object was changed.
    Modified,
    /// The object was removed (or, for a selective watch, stopped matching).
    Deleted,
}

impl EventType {
    /// The `type` of a watch event.
    pub fn name(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
        }
    }
}

/// One write as the storage's watch sees it.
#[derive(Debug, Clone)]
pub(super) struct Event {
    pub revision: u64,
    pub kind: EventType,
    pub key: ObjectKey,
    /// The object as a read after the write gives it (for a deletion: the object last
    /// stored, at the deletion's revision).
    pub object: Value,
    /// The object before the write, for a change or a deletion.
    pub previous: Option<Value>,
}

/// How many writes a new store keeps for watches (the real server's watch cache keeps at
/// least 100 per resource, more as it is used; a test's history fits in this).
pub const DEFAULT_EVENT_HISTORY: usize = 10_000;

/// A value the server made up while writing an object: a real server chooses its own.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerChoice {
    /// The fields it is the value of (`nodePort`), or `None`: any field holding it (a
    /// made-up text such as a uid or an address cannot be a user's value by chance).
    pub field: Option<&'static str>,
    /// The value.
    pub value: Value,
}

impl ServerChoice {
    /// Whether `value`, at a field named `key`, is this choice.
    pub fn is(&self, key: &str, value: &Value) -> bool {
        self.field.is_none_or(|f| f == key) && self.value == *value
    }
}

/// The revision a new store starts after. A cluster's storage has seen many writes before a
/// client's first (a fresh kube-apiserver's are in the hundreds), so a small resourceVersion
/// a client makes up is stale, as it is on a real server.
pub(super) const FIRST_REVISION: u64 = 1000;

impl Default for Store {
    fn default() -> Self {
        Store {
            objects: BTreeMap::new(),
            written: BTreeMap::new(),
            revision: FIRST_REVISION,
            uids: 0,
            chosen: Vec::new(),
            names: 0,
            ip_cursor: 0,
            port_cursor: 0,
            events: VecDeque::new(),
            history: DEFAULT_EVENT_HISTORY,
            floor: FIRST_REVISION,
        }
    }
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

    /// Stores `object`, which reads back as it is.
    pub fn insert(&mut self, key: ObjectKey, object: Value) {
        self.written.remove(&key);
        self.objects.insert(key, object);
    }

    /// Stores `written`, which reads back as `read`.
    pub fn insert_written(&mut self, key: ObjectKey, read: Value, written: Value) {
        if written == read {
            self.written.remove(&key);
        } else {
            self.written.insert(key.clone(), written);
        }
        self.objects.insert(key, read);
    }

    /// What the storage wrote for the object under `key` (what a read gives, unless
    /// [`Store::insert_written`] said otherwise).
    pub fn written(&self, key: &ObjectKey) -> Option<&Value> {
        self.written.get(key).or_else(|| self.objects.get(key))
    }

    pub fn remove(&mut self, key: &ObjectKey) -> Option<Value> {
        self.written.remove(key);
        self.objects.remove(key)
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
            // Nothing was written yet: history starts after what was put in.
            if self.events.is_empty() {
                self.floor = self.floor.max(self.revision);
            }
        }
    }

    /// The revision of the latest write.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Notes a write at the current revision for watches.
    pub fn record(
        &mut self,
        kind: EventType,
        key: &ObjectKey,
        object: &Value,
        previous: Option<&Value>,
    ) {
        self.events.push_back(Event {
            revision: self.revision,
            kind,
            key: key.clone(),
            object: object.clone(),
            previous: previous.cloned(),
        });
        self.trim();
    }

    fn trim(&mut self) {
        while self.events.len() > self.history {
            if let Some(dropped) = self.events.pop_front() {
                self.floor = dropped.revision;
            }
        }
    }

    /// Keeps the latest `n` writes for watches.
    pub fn set_history(&mut self, n: usize) {
        self.history = n;
        self.trim();
    }

    /// The revision the kept events follow: an earlier one is too old.
    pub fn floor(&self) -> u64 {
        self.floor
    }

    /// The writes after `revision`, oldest first (the caller checked it against
    /// [`Store::floor`]).
    pub fn events_after(&self, revision: u64) -> impl Iterator<Item = &Event> {
        let start = self.events.partition_point(|e| e.revision <= revision);
        self.events.range(start..)
    }

    /// The next uid, a counter written as a UUID (the real server draws random ones).
    pub fn next_uid(&mut self) -> String {
        self.uids += 1;
        let n = self.uids;
        let uid = format!("00000000-0000-4000-8000-{:012x}", n & 0xffff_ffff_ffff);
        self.choose(&uid);
        uid
    }

    /// Notes a text the server made up for the object being written (wherever it appears).
    pub fn choose(&mut self, value: &str) {
        self.chosen.push(ServerChoice {
            field: None,
            value: Value::from(value),
        });
    }

    /// Notes a number the server chose for fields named `field` (a node port).
    pub fn choose_number(&mut self, field: &'static str, value: i64) {
        self.chosen.push(ServerChoice {
            field: Some(field),
            value: Value::Int(value),
        });
    }

    /// The values made up since the last call.
    pub fn take_chosen(&mut self) -> Vec<ServerChoice> {
        std::mem::take(&mut self.chosen)
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
