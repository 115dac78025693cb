//! The map of a [`Value`]: string keys in insertion order, shared until written.
//!
//! Objects are mostly small maps with short keys, copied often (a merge keeps one side's
//! subtree, a caller keeps several versions of an object) and many of them empty (`{}` is every
//! leaf of a `fieldsV1` document). So an empty map is no allocation at all, a key of up to 24
//! bytes lives inside its entry, the entries sit behind one reference count that a clone shares
//! and the first write copies, and the index hashes with foldhash, seeded per process (keys
//! come from manifests, so an attacker must not be able to choose colliding ones).

use compact_str::CompactString;
use std::fmt;
use std::sync::Arc;

use super::Value;
use super::entries::Entries;

/// A map of a [`Value`]: string keys in insertion order.
///
/// The entries are shared, copied on the first write: cloning a map is a reference count,
/// which is what merging objects (a big atomic list kept from one side) and keeping several
/// versions of an object cost; Go shares them alike (its values are references).
#[derive(Clone, Default)]
pub struct Map {
    // Behind one pointer, so that a `Value` stays four words; `None` is the empty map.
    entries: Option<Arc<Entries>>,
}

/// A key of a [`Map`] as it is stored: any string, the short ones without an allocation. Made
/// from `&str`, `String`, `&String` or `Cow<str>`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MapKey(CompactString);

impl MapKey {
    /// The key's text.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl From<&str> for MapKey {
    fn from(s: &str) -> MapKey {
        MapKey(CompactString::from(s))
    }
}

impl From<String> for MapKey {
    fn from(s: String) -> MapKey {
        MapKey(CompactString::from(s))
    }
}

impl From<&String> for MapKey {
    fn from(s: &String) -> MapKey {
        MapKey(CompactString::from(s.as_str()))
    }
}

impl From<std::borrow::Cow<'_, str>> for MapKey {
    fn from(s: std::borrow::Cow<'_, str>) -> MapKey {
        MapKey(CompactString::from(s))
    }
}

impl Map {
    /// An empty map.
    pub fn new() -> Self {
        Map::default()
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        if n == 0 {
            return Map::new();
        }
        Map {
            entries: Some(Arc::new(Entries::with_capacity(n))),
        }
    }

    /// Whether `a` and `b` share their entries (one is a clone of the other, neither written
    /// since), so that they are the same map without looking. Two empty maps never share.
    pub fn ptr_eq(a: &Map, b: &Map) -> bool {
        match (&a.entries, &b.entries) {
            (Some(x), Some(y)) => Arc::ptr_eq(x, y),
            _ => false,
        }
    }

    fn items(&self) -> &[(CompactString, Value)] {
        self.entries.as_deref().map_or(&[], Entries::items)
    }

    /// The entries to write into, copied first if shared.
    fn entries_mut(&mut self) -> &mut Entries {
        Arc::make_mut(self.entries.get_or_insert_with(Default::default))
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.as_ref().map_or(0, |e| e.len())
    }

    /// Whether the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.as_ref()?.get(key)
    }

    /// The value of `key`, looked for at position `*hint` first and then anywhere; `*hint`
    /// moves past where it was found. Looking up the keys of a map in another map whose keys
    /// come in the same order (two versions of one object) then finds each without hashing.
    ///
    /// ```
    /// use smd_value::{Map, Value};
    /// let m: Map = [("a", Value::Int(1)), ("b", Value::Int(2))].into_iter().collect();
    /// let mut hint = 0;
    /// assert_eq!(m.get_near("a", &mut hint), Some(&Value::Int(1)));
    /// assert_eq!((m.get_near("b", &mut hint), hint), (Some(&Value::Int(2)), 2));
    /// assert_eq!(m.get_near("a", &mut hint), Some(&Value::Int(1)));
    /// assert_eq!(m.get_near("c", &mut hint), None);
    /// ```
    pub fn get_near(&self, key: &str, hint: &mut usize) -> Option<&Value> {
        let entries = self.entries.as_ref()?;
        let at = entries.position_near(key, *hint)?;
        *hint = at + 1;
        entries.items().get(at).map(|(_, v)| v)
    }

    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let entries = self.entries.as_mut()?;
        entries.position(key)?;
        Arc::make_mut(entries).get_mut(key)
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.entries
            .as_ref()
            .is_some_and(|e| e.position(key).is_some())
    }

    /// Sets `key` to `value`, returning the old value. A new key goes last; an existing key keeps
    /// its place.
    pub fn insert(&mut self, key: impl Into<MapKey>, value: Value) -> Option<Value> {
        self.entries_mut().insert(key.into().0, value)
    }

    /// Appends `key`, which the caller knows the map does not hold (a lookup saved: a walk
    /// that builds a map from the unique keys of others). A key already there would be held
    /// twice; debug builds check.
    pub fn push_unique(&mut self, key: impl Into<MapKey>, value: Value) {
        let key = key.into().0;
        debug_assert!(
            !self.contains_key(&key),
            "push_unique of a present key {key:?}"
        );
        self.entries_mut().push(key, value);
    }

    /// The map at `key`, made (empty, last) where the key is absent or holds another kind of
    /// value, as Go makes a nil map or struct pointer before writing into it.
    ///
    /// ```
    /// use smd_value::{Map, Value};
    /// let mut m = Map::new();
    /// m.map_entry("spec").insert("replicas", Value::Int(1));
    /// assert_eq!(m.get("spec").and_then(|s| s.as_map()).map(Map::len), Some(1));
    /// ```
    pub fn map_entry(&mut self, key: &str) -> &mut Map {
        let slot = self.entries_mut().slot(key);
        if !matches!(slot, Value::Map(_)) {
            *slot = Value::Map(Map::new());
        }
        match slot {
            Value::Map(m) => m,
            // The slot was made a map just above.
            _ => unreachable!("a map was just stored"),
        }
    }

    /// Removes `key`, keeping the order of the others.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let entries = self.entries.as_mut()?;
        entries.position(key)?;
        Arc::make_mut(entries).shift_remove(key)
    }

    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value)> + DoubleEndedIterator {
        self.items().iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The entries in order, values mutably.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (&str, &mut Value)> {
        let items = match self.entries.as_mut() {
            Some(entries) => Arc::make_mut(entries).items_mut(),
            None => &mut [],
        };
        items.iter_mut().map(|(k, v)| (k.as_str(), &mut *v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> {
        self.items().iter().map(|(k, _)| k.as_str())
    }

    /// The values in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> {
        self.items().iter().map(|(_, v)| v)
    }

    /// Sorts the entries by key, byte-wise.
    pub fn sort_keys(&mut self) {
        if let Some(entries) = self.entries.as_mut() {
            Arc::make_mut(entries).sort_keys();
        }
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Entries<'a>(&'a Map);
        impl fmt::Debug for Entries<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_map().entries(self.0.iter()).finish()
            }
        }
        f.debug_struct("Map")
            .field("entries", &Entries(self))
            .finish()
    }
}

impl<K: Into<MapKey>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        let entries: Entries = iter.into_iter().map(|(k, v)| (k.into().0, v)).collect();
        if entries.is_empty() {
            return Map::new();
        }
        Map {
            entries: Some(Arc::new(entries)),
        }
    }
}

/// The entries of a [`Map`], taken out in order.
#[derive(Debug)]
pub struct MapIntoIter(Option<std::vec::IntoIter<(CompactString, Value)>>);

impl Iterator for MapIntoIter {
    type Item = (String, Value);

    fn next(&mut self) -> Option<(String, Value)> {
        let (k, v) = self.0.as_mut()?.next()?;
        Some((k.into_string(), v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.as_ref().map_or((0, Some(0)), Iterator::size_hint)
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = MapIntoIter;
    fn into_iter(self) -> MapIntoIter {
        MapIntoIter(
            self.entries
                .map(|e| Arc::unwrap_or_clone(e).into_items().into_iter()),
        )
    }
}
