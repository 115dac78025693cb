//! Decoded managed fields: each manager's set and time, filed under its identity key
//! (`IN/managedfields.go`: `DecodeManagedFields`, `encodeManagedFields` and the sort of
//! stored entries).

use std::cmp::Ordering;
use std::collections::BTreeMap;

use smd_fieldpath::{ManagedFields, Map, Set, Value, VersionedSet};

use super::entry::{Entry, Stored, entry_to_value, fields_v1_value, fields_v1_value_is};
use super::identity::{ManagerId, Operation};
use super::time::Timestamp;

/// What the field manager works on: the managers' sets (keyed by [`ManagerId::key`]) and
/// their times (Go's `internal.Managed`). A manager with no time has no entry in `times`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Managed {
    /// Each manager's set, at its apiVersion, and whether it applied it.
    pub fields: ManagedFields,
    /// When each manager last changed something.
    pub times: BTreeMap<String, Timestamp>,
}

/// How many levels a stored object's managedFields nest above the first element of a path they
/// name: the object, `metadata`, `managedFields`, the entry, and the `fieldsV1` map.
pub const MANAGED_FIELDS_NESTING: usize = 5;

/// The most levels a manager's set may nest (the elements of its longest path, an empty child
/// node counting as one): smd's limit, so that a stored object, managedFields included, nests
/// within the [`smd_fieldpath::MAX_DEPTH`] levels smd's readers take. The API server has no such
/// limit; without it smd could write an object it then refuses to read.
pub const MAX_MANAGED_PATH: usize = smd_fieldpath::MAX_DEPTH - MANAGED_FIELDS_NESTING;

impl Managed {
    /// A manager (the first by key) whose set nests deeper than [`MAX_MANAGED_PATH`], with its
    /// deepest path.
    pub(crate) fn too_deep(&self) -> Option<(&str, smd_fieldpath::Path)> {
        self.fields.iter().find_map(|(key, versioned)| {
            let set = versioned.set();
            (depth(set) > MAX_MANAGED_PATH).then(|| (key, deepest(set)))
        })
    }
}

/// How many levels `set` nests: what its `fieldsV1` nests below its own object.
fn depth(set: &Set) -> usize {
    let members = usize::from(!set.members().is_empty());
    set.children()
        .map(|(_, child)| 1 + depth(child))
        .fold(members, usize::max)
}

/// A path of `set` as deep as [`depth`] says.
fn deepest(set: &Set) -> smd_fieldpath::Path {
    let mut path = smd_fieldpath::Path::default();
    let mut node = set;
    while let Some((element, child)) = node.children().max_by_key(|(_, child)| depth(child)) {
        // An empty child node is a level too, but a member reaches as deep.
        if depth(child) == 0 && !node.members().is_empty() {
            break;
        }
        path.push(element.clone());
        node = child;
    }
    if let Some(member) = node.members().first() {
        path.push(member.clone());
    }
    path
}

/// An entry the API server refuses to decode (`DecodeManagedFields`,
/// `IN/managedfields.go:98-131`), with Go's text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct DecodeError {
    index: usize,
    message: String,
}

impl DecodeError {
    /// The position of the entry at fault.
    pub fn index(&self) -> usize {
        self.index
    }
}

impl Managed {
    /// No managers.
    pub fn new() -> Managed {
        Managed::default()
    }

    /// Whether no manager owns anything.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Decodes stored entries as the API server does, stopping at the first it refuses:
    /// operation not exactly `Apply` or `Update`, empty apiVersion, fieldsType missing or not
    /// `FieldsV1`, `fieldsV1` Go cannot read (a missing `fieldsV1` is the empty set). Two
    /// entries with one identity are no error: the later one wins, time included.
    pub fn decode(entries: &[Entry]) -> Result<Managed, DecodeError> {
        Managed::decode_with(entries.iter().map(|e| (e, None)))
    }

    /// [`Managed::decode`] of entries whose sets may already be read.
    pub(crate) fn decode_stored(stored: Vec<Stored>) -> Result<Managed, DecodeError> {
        let pairs: Vec<(Entry, Option<Set>)> =
            stored.into_iter().map(|s| (s.entry, s.set)).collect();
        Managed::decode_with(pairs.iter().map(|(e, s)| (e, s.clone())))
    }

    fn decode_with<'a>(
        entries: impl Iterator<Item = (&'a Entry, Option<Set>)>,
    ) -> Result<Managed, DecodeError> {
        let mut managed = Managed::new();
        for (index, (e, known)) in entries.enumerate() {
            let fail = |message: String| DecodeError { index, message };
            let Some(operation) = Operation::from_wire(&e.operation) else {
                return Err(fail("operation must be `Apply` or `Update`".to_owned()));
            };
            if e.api_version.is_empty() {
                return Err(fail("apiVersion must not be empty".to_owned()));
            }
            match e.fields_type.as_str() {
                "FieldsV1" => {}
                "" => {
                    return Err(fail(format!(
                        "missing fieldsType in managed fields entry {index}"
                    )));
                }
                other => {
                    return Err(fail(format!(
                        "invalid fieldsType {} in managed fields entry {index}",
                        super::identity::quote(other)
                    )));
                }
            }
            let key = ManagerId::new(
                e.manager.as_str(),
                operation,
                e.api_version.as_str(),
                e.subresource.as_str(),
            )
            .key();
            let set = match (known, &e.fields_v1) {
                (Some(set), _) => set,
                (None, None) => Set::new(),
                (None, Some(bytes)) => Set::from_fields_v1(bytes).map_err(|err| {
                    // Go prints the whole entry struct here (`%v`); smd names it instead.
                    fail(format!(
                        "error decoding versioned set from managed fields entry {index} \
                         (manager {}): error decoding set: {err}",
                        super::identity::quote(&e.manager)
                    ))
                })?,
            };
            let applied = operation == Operation::Apply;
            managed.fields.insert(
                key.clone(),
                VersionedSet::new(set, e.api_version.as_str(), applied),
            );
            match e.time {
                Some(t) => managed.times.insert(key, t),
                None => managed.times.remove(&key),
            };
        }
        Ok(managed)
    }

    /// The entries to store, in the API server's order; `None` when no manager is left (the
    /// key is then removed from the object, `IN/managedfields.go:175-192`). Each entry takes
    /// its name, operation and subresource from its identity, its apiVersion from its set,
    /// `Apply` when the set was applied, and its time when it has one.
    pub fn encode(&self) -> Result<Option<Vec<Entry>>, smd_fieldpath::Error> {
        let Some(entries) = self.sorted_entries() else {
            return Ok(None);
        };
        entries
            .into_iter()
            .map(|(mut entry, set)| {
                entry.fields_v1 = Some(set.to_fields_v1()?);
                Ok(entry)
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// [`Managed::encode`] as the list items of an object, each `fieldsV1` made from its set
    /// directly, or kept from `previous` (the stored object's managedFields items) where the
    /// same manager's stored value is already what its set writes: most managers' sets do not
    /// change in a request, and a kept value shares its maps instead of allocating them anew.
    pub(crate) fn encode_values(&self, previous: &[Value]) -> Result<Option<Vec<Value>>, String> {
        let Some(entries) = self.sorted_entries() else {
            return Ok(None);
        };
        let mut scratch = Vec::new();
        entries
            .into_iter()
            .map(|(entry, set)| {
                let kept = previous_fields(previous, &entry)
                    .filter(|stored| fields_v1_value_is(set, stored, &mut scratch));
                let fields = match kept {
                    Some(stored) => stored.clone(),
                    None => fields_v1_value(set).map_err(|e| e.to_string())?,
                };
                entry_to_value(&entry, Some(fields))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// The entries without their `fieldsV1`, sorted, each with its set.
    fn sorted_entries(&self) -> Option<Vec<(Entry, &Set)>> {
        if self.fields.is_empty() {
            return None;
        }
        let mut entries: Vec<(Entry, &Set)> = self
            .fields
            .iter()
            .map(|(key, set)| {
                let id = ManagerId::from_key(key).unwrap_or_default();
                let operation = if set.applied() {
                    Operation::Apply.as_str().to_owned()
                } else {
                    id.operation
                };
                let entry = Entry {
                    manager: id.manager,
                    operation,
                    api_version: set.api_version().to_owned(),
                    time: self.times.get(key).copied(),
                    fields_type: "FieldsV1".to_owned(),
                    fields_v1: None,
                    subresource: id.subresource,
                };
                (entry, set.set())
            })
            .collect();
        entries.sort_by(|p, q| order(&p.0, &q.0));
        Some(entries)
    }
}

/// The `fieldsV1` value of the item of `previous` written by `entry`'s manager (through the same
/// subresource), if any.
fn previous_fields<'v>(previous: &'v [Value], entry: &Entry) -> Option<&'v Value> {
    let text = |item: &'v Map, key: &str| match item.get(key) {
        Some(Value::String(s)) => s.as_str(),
        _ => "",
    };
    previous.iter().find_map(|item| {
        let item = item.as_map()?;
        (text(item, "manager") == entry.manager && text(item, "subresource") == entry.subresource)
            .then(|| item.get("fieldsV1"))
            .flatten()
    })
}

/// Sorts stored entries as the API server does (`sortEncodedManagedFields`,
/// `IN/managedfields.go:194-224`): `Apply` before `Update` (as strings), then by time in
/// Unix seconds (no time counts as 0), then by manager, apiVersion and subresource, byte-wise.
/// Go's sort is not stable; entries equal in all five keys keep their order here.
pub fn sort_entries(entries: &mut [Entry]) {
    entries.sort_by(order);
}

fn order(p: &Entry, q: &Entry) -> Ordering {
    let secs = |e: &Entry| e.time.map_or(0, Timestamp::unix);
    p.operation
        .as_bytes()
        .cmp(q.operation.as_bytes())
        .then_with(|| secs(p).cmp(&secs(q)))
        .then_with(|| p.manager.as_bytes().cmp(q.manager.as_bytes()))
        .then_with(|| p.api_version.as_bytes().cmp(q.api_version.as_bytes()))
        .then_with(|| p.subresource.as_bytes().cmp(q.subresource.as_bytes()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn entry(manager: &str, operation: &str, version: &str, time: Option<i64>) -> Entry {
        Entry {
            manager: manager.into(),
            operation: operation.into(),
            api_version: version.into(),
            time: time.map(Timestamp::from_unix),
            fields_type: "FieldsV1".into(),
            fields_v1: Some(br#"{"f:a":{}}"#.to_vec()),
            subresource: String::new(),
        }
    }

    #[test]
    fn decode_errors_in_go_order() {
        // IN/managedfields.go:104-127, checked in this order.
        let mut e = entry("m", "apply", "", None);
        e.fields_type = String::new();
        let err = |e: &Entry| {
            Managed::decode(&[entry("ok", "Update", "v1", None), e.clone()]).unwrap_err()
        };
        assert_eq!(err(&e).to_string(), "operation must be `Apply` or `Update`");
        assert_eq!(err(&e).index(), 1);
        e.operation = "Update".into();
        assert_eq!(err(&e).to_string(), "apiVersion must not be empty");
        e.api_version = "v1".into();
        assert_eq!(
            err(&e).to_string(),
            "missing fieldsType in managed fields entry 1"
        );
        e.fields_type = "FieldsV2".into();
        assert_eq!(
            err(&e).to_string(),
            r#"invalid fieldsType "FieldsV2" in managed fields entry 1"#
        );
        e.fields_type = "FieldsV1".into();
        e.fields_v1 = Some(b"[]".to_vec());
        assert!(err(&e).to_string().starts_with(
            "error decoding versioned set from managed fields entry 1 (manager \"m\"): error decoding set: "
        ));
        // A missing fieldsV1 is the empty set (IN/managedfields.go:162-165).
        e.fields_v1 = None;
        let managed = Managed::decode(&[e]).unwrap();
        assert!(managed.fields.iter().all(|(_, s)| s.set().is_empty()));
    }

    #[test]
    fn duplicates_later_wins() {
        // IN/managedfields.go:124-128: a map assignment per entry.
        let mut later = entry("m", "Update", "v1", None);
        later.fields_v1 = Some(br#"{"f:b":{}}"#.to_vec());
        let managed = Managed::decode(&[entry("m", "Update", "v1", Some(5)), later]).unwrap();
        assert_eq!(managed.fields.len(), 1);
        assert!(managed.times.is_empty());
        let encoded = managed.encode().unwrap().unwrap();
        assert_eq!(encoded.len(), 1);
        assert_eq!(encoded[0].fields_v1.as_deref().unwrap(), br#"{"f:b":{}}"#);
    }

    #[test]
    fn encode_sorted_and_empty_is_none() {
        assert_eq!(Managed::new().encode().unwrap(), None);
        let entries = vec![
            entry("b", "Update", "v1", Some(10)),
            entry("a", "Update", "v1", Some(10)),
            entry("z", "Update", "v1", None),
            entry("c", "Apply", "v1", Some(20)),
            entry("old", "Update", "v1", Some(-5)),
        ];
        let encoded = Managed::decode(&entries)
            .unwrap()
            .encode()
            .unwrap()
            .unwrap();
        let order: Vec<&str> = encoded.iter().map(|e| e.manager.as_str()).collect();
        // IN/managedfields.go:194-224: Apply first; pre-1970 before no time; then name.
        assert_eq!(order, ["c", "old", "z", "a", "b"]);
    }

    #[test]
    fn apply_identity_ignores_api_version() {
        // One Apply manager keeps a single entry across apiVersions; its apiVersion is the
        // last one's (IN/managedfields.go:137-150, 226-248).
        let managed = Managed::decode(&[
            entry("m", "Apply", "apps/v1beta1", None),
            entry("m", "Apply", "apps/v1", None),
        ])
        .unwrap();
        let encoded = managed.encode().unwrap().unwrap();
        assert_eq!(encoded.len(), 1);
        assert_eq!(encoded[0].api_version, "apps/v1");
    }
}
