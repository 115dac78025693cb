//! The entries of `metadata.managedFields`, read from and written to an object as the API
//! server reads and writes an unstructured object's (`Unstructured.GetManagedFields` and
//! `SetManagedFields`, `META/unstructured/unstructured.go:452-492`).

use smd_fieldpath::value::MapKey;
use smd_fieldpath::{Map, PathElement, Set, Value};

use super::time::Timestamp;
use smd_fieldpath::value::gojson;

/// One entry of `metadata.managedFields` (Go's `metav1.ManagedFieldsEntry`), as stored: the
/// texts are kept as they are so that decoding can refuse what Go refuses.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry {
    /// Who wrote the fields (`kubectl`, `kube-controller-manager`).
    pub manager: String,
    /// `Apply` or `Update` (anything else fails decoding).
    pub operation: String,
    /// The version of the resource the field set is expressed in (`apps/v1`).
    pub api_version: String,
    /// When the entry last changed, to the second.
    pub time: Option<Timestamp>,
    /// The format of `fields_v1`: `FieldsV1`.
    pub fields_type: String,
    /// The field set, as `fieldsV1` JSON bytes; `None` reads as the empty set.
    pub fields_v1: Option<Vec<u8>>,
    /// The subresource written through (`status`, `scale`); empty for the main resource.
    pub subresource: String,
}

/// Why the API server reads an object's `metadata.managedFields` as absent: Go's
/// `GetManagedFields` returns nil for the whole list when any part is malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("metadata.managedFields{}: {reason}", index.map(|i| format!("[{i}]")).unwrap_or_default())]
pub struct EntryError {
    index: Option<usize>,
    reason: String,
}

impl EntryError {
    fn new(index: Option<usize>, reason: impl Into<String>) -> EntryError {
        EntryError {
            index,
            reason: reason.into(),
        }
    }

    /// The position of the malformed entry, when one is at fault.
    pub fn index(&self) -> Option<usize> {
        self.index
    }
}

/// The managedFields of `object`: `Ok(None)` when absent or null, the entries otherwise
/// (`Some(vec![])` for an empty list, which is not the same as none). A malformed list is an
/// error here; the API server reads it as absent ([`entries_or_none`]).
pub fn entries(object: &Value) -> Result<Option<Vec<Entry>>, EntryError> {
    let Some(items) = items(object)? else {
        return Ok(None);
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| entry_from_value(item).map_err(|e| EntryError::new(Some(i), e)))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The items of `metadata.managedFields`: none when there is no list, an error when it or
/// `metadata` has another kind.
fn items(object: &Value) -> Result<Option<&[Value]>, EntryError> {
    let Some(meta) = object.as_map().and_then(|m| m.get("metadata")) else {
        return Ok(None);
    };
    let meta = match meta {
        Value::Map(m) => m,
        Value::Null => return Ok(None),
        _ => return Err(EntryError::new(None, "metadata is not a map")),
    };
    match meta.get("managedFields") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::List(items)) => Ok(Some(items)),
        Some(_) => Err(EntryError::new(None, "not a list")),
    }
}

/// The managedFields of `object` as the API server reads them: a malformed list reads as
/// absent (Go's `GetManagedFields` returns nil).
pub fn entries_or_none(object: &Value) -> Option<Vec<Entry>> {
    entries(object).ok().flatten()
}

/// A stored entry, and its set when it was read from the object's `fieldsV1` value directly
/// (then the entry's `fields_v1` bytes are not made).
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub(crate) entry: Entry,
    pub(crate) set: Option<Set>,
}

/// [`entries_or_none`] for the field manager: each `fieldsV1` value read into its set without
/// going through JSON text when [`Set::from_fields_v1_value`] can (the text is made only for
/// the ones it cannot, so that decoding them fails with Go's words).
pub(crate) fn stored_or_none(object: &Value) -> Option<Vec<Stored>> {
    stored(object).ok().flatten()
}

/// [`entries`] with each `fieldsV1` value read into its set directly where it can be (the
/// set [`Managed::decode`](super::managed::Managed::decode) would read from the bytes, which
/// are then not made): the same entries, errors and sets, for less work.
pub(crate) fn stored(object: &Value) -> Result<Option<Vec<Stored>>, EntryError> {
    let Some(items) = items(object)? else {
        return Ok(None);
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let fast = item
                .as_map()
                .and_then(|m| m.get("fieldsV1"))
                .and_then(Set::from_fields_v1_value);
            let entry =
                entry_fields(item, fast.is_none()).map_err(|e| EntryError::new(Some(i), e))?;
            Ok(Stored { entry, set: fast })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

pub(crate) fn entry_from_value(item: &Value) -> Result<Entry, String> {
    entry_fields(item, true)
}

/// The entry of a list item; its `fieldsV1` bytes only when `with_bytes`.
fn entry_fields(item: &Value, with_bytes: bool) -> Result<Entry, String> {
    let Value::Map(map) = item else {
        return Err("not a map".to_owned());
    };
    let text = |key: &str| -> Result<String, String> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(format!("{key}: expected a string, got {other}")),
        }
    };
    let time = match map.get("time") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(Timestamp::parse(s).map_err(|e| format!("time: {e}"))?),
        Some(other) => return Err(format!("time: expected a string, got {other}")),
    };
    let fields_v1 = match map.get("fieldsV1") {
        None | Some(Value::Null) => None,
        Some(_) if !with_bytes => None,
        // Go's converter marshals the value with encoding/json and hands the bytes to
        // FieldsV1.UnmarshalJSON, which keeps them whatever they are.
        Some(v) => {
            let mut out = String::new();
            gojson::write_value(&mut out, v).map_err(|e| format!("fieldsV1: {e}"))?;
            Some(out.into_bytes())
        }
    };
    Ok(Entry {
        manager: text("manager")?,
        operation: text("operation")?,
        api_version: text("apiVersion")?,
        time,
        fields_type: text("fieldsType")?,
        fields_v1,
        subresource: text("subresource")?,
    })
}

/// Sets `metadata.managedFields` of `object` to `entries`, or removes the key for `None`
/// (Go's `SetManagedFields`; `metadata` is created when missing). Each entry is written with
/// its keys in the order of Go's struct (`manager, operation, apiVersion, time, fieldsType,
/// fieldsV1, subresource`), empty ones left out, and `fieldsV1` as a JSON object in the order
/// of its bytes. Fails when a `fieldsV1` is not JSON.
pub fn set_entries(object: &mut Value, entries: Option<&[Entry]>) -> Result<(), EntryError> {
    let items = entries
        .map(|entries| {
            entries
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    entry_to_value(e, None).map_err(|reason| EntryError::new(Some(i), reason))
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    set_entry_values(object, items)
}

/// [`set_entries`] with the entries already made values.
pub(crate) fn set_entry_values(
    object: &mut Value,
    items: Option<Vec<Value>>,
) -> Result<(), EntryError> {
    let Some(object) = object.as_map_mut() else {
        return Err(EntryError::new(None, "the object is not a map"));
    };
    let Some(items) = items else {
        if let Some(Value::Map(meta)) = object.get_mut("metadata") {
            meta.remove("managedFields");
        }
        return Ok(());
    };
    if matches!(object.get("metadata"), None | Some(Value::Null)) {
        object.insert("metadata", Value::Map(Map::new()));
    }
    // Go's SetNestedField fails on a metadata that is not a map, and the error is dropped:
    // nothing is written.
    if let Some(Value::Map(meta)) = object.get_mut("metadata") {
        meta.insert("managedFields", Value::List(items));
    }
    Ok(())
}

/// The entry as an object's list item; `fields` (the `fieldsV1` value, when the caller has it
/// already) replaces reading the entry's bytes.
pub(crate) fn entry_to_value(entry: &Entry, fields: Option<Value>) -> Result<Value, String> {
    let mut map = Map::with_capacity(7);
    let mut text = |key: &str, value: &str| {
        if !value.is_empty() {
            map.insert(key, Value::from(value));
        }
    };
    text("manager", &entry.manager);
    text("operation", &entry.operation);
    text("apiVersion", &entry.api_version);
    if let Some(time) = entry.time {
        // metav1.Time marshals the zero time as null.
        let value = if time.is_go_zero() {
            Value::Null
        } else {
            Value::from(time.to_string())
        };
        map.insert("time", value);
    }
    if !entry.fields_type.is_empty() {
        map.insert("fieldsType", Value::from(entry.fields_type.as_str()));
    }
    if let Some(fields) = fields {
        map.insert("fieldsV1", fields);
    } else if let Some(bytes) = &entry.fields_v1 {
        let value = if bytes.is_empty() {
            Value::Null
        } else {
            let text = std::str::from_utf8(bytes).map_err(|_| "fieldsV1 is not UTF-8")?;
            Value::from_json(text).map_err(|e| format!("fieldsV1: {e}"))?
        };
        map.insert("fieldsV1", value);
    }
    if !entry.subresource.is_empty() {
        map.insert("subresource", Value::from(entry.subresource.as_str()));
    }
    Ok(Value::Map(map))
}

/// A set as the `fieldsV1` value of an object (the JSON object [`Set::to_fields_v1`] writes).
pub fn fields_v1_value(set: &Set) -> Result<Value, smd_fieldpath::Error> {
    let mut scratch = Vec::new();
    Ok(Value::Map(write_node(set, false, &mut scratch)?))
}

/// The map of one node: its members and children merged in element order (a member that is
/// also a child is written once, as the child with `.`). `scratch` holds each key's text.
fn write_node(set: &Set, member: bool, scratch: &mut Vec<u8>) -> Result<Map, smd_fieldpath::Error> {
    let members = set.members();
    let mut children = set.children().peekable();
    let mut out = Map::with_capacity(members.len() + children.len() + usize::from(member));
    if member && !(members.is_empty() && children.len() == 0) {
        out.insert(".", Value::Map(Map::new()));
    }
    let mut members = members.iter().peekable();
    loop {
        let order = match (members.peek(), children.peek()) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(a), Some((b, _))) => a.compare(b),
        };
        if order == std::cmp::Ordering::Less {
            if let Some(element) = members.next() {
                out.insert(key(element, scratch)?, Value::Map(Map::new()));
            }
            continue;
        }
        let Some((element, child)) = children.next() else {
            break;
        };
        let is_member = order == std::cmp::Ordering::Equal;
        if is_member {
            members.next();
        }
        let node = write_node(child, is_member, scratch)?;
        out.insert(key(element, scratch)?, Value::Map(node));
    }
    Ok(out)
}

/// Whether `value` is exactly the `fieldsV1` value [`fields_v1_value`] writes for `set`: then
/// a stored entry's value can be kept instead of written again (a clone of it shares its maps,
/// where writing allocates every node). A walk in [`write_node`]'s order that stops at the first
/// difference; `scratch` holds each key's text.
pub(crate) fn fields_v1_value_is(set: &Set, value: &Value, scratch: &mut Vec<u8>) -> bool {
    node_is(set, false, value, scratch)
}

fn node_is(set: &Set, member: bool, value: &Value, scratch: &mut Vec<u8>) -> bool {
    let Value::Map(map) = value else {
        return false;
    };
    let members = set.members();
    let mut children = set.children().peekable();
    let dot = member && !(members.is_empty() && children.len() == 0);
    if map.len() < members.len() + usize::from(dot) {
        return false;
    }
    let mut entries = map.iter();
    let is_empty_map = |v: &Value| matches!(v, Value::Map(m) if m.is_empty());
    if dot
        && !entries
            .next()
            .is_some_and(|(k, v)| k == "." && is_empty_map(v))
    {
        return false;
    }
    let mut members = members.iter().peekable();
    let key_is = |element: &PathElement, key: &str, scratch: &mut Vec<u8>| {
        scratch.clear();
        element.write_fields_v1(scratch).is_ok() && scratch.as_slice() == key.as_bytes()
    };
    loop {
        let order = match (members.peek(), children.peek()) {
            (None, None) => return entries.next().is_none(),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(a), Some((b, _))) => a.compare(b),
        };
        let Some((key, below)) = entries.next() else {
            return false;
        };
        if order == std::cmp::Ordering::Less {
            match members.next() {
                Some(element) if key_is(element, key, scratch) && is_empty_map(below) => continue,
                _ => return false,
            }
        }
        let Some((element, child)) = children.next() else {
            return false;
        };
        let is_member = order == std::cmp::Ordering::Equal;
        if is_member {
            members.next();
        }
        if !key_is(element, key, scratch) || !node_is(child, is_member, below, scratch) {
            return false;
        }
    }
}

fn key(element: &PathElement, scratch: &mut Vec<u8>) -> Result<MapKey, smd_fieldpath::Error> {
    scratch.clear();
    element.write_fields_v1(scratch)?;
    Ok(match std::str::from_utf8(scratch) {
        Ok(text) => MapKey::from(text),
        Err(_) => MapKey::from(String::from_utf8_lossy(scratch)),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use smd_fieldpath::yaml;

    fn object(text: &str) -> Value {
        yaml::from_str(text).unwrap()
    }

    /// A map's entries in their order (Go's equality, and the JSON writers, ignore it).
    fn ordered(v: &Value) -> String {
        match v {
            Value::Map(m) => {
                let entries: Vec<String> = m
                    .iter()
                    .map(|(k, v)| format!("{k:?}:{}", ordered(v)))
                    .collect();
                format!("{{{}}}", entries.join(","))
            }
            other => format!("{other}"),
        }
    }

    /// A stored value is kept exactly when it is, in order, what the set writes: over the
    /// texts of `fieldsv1_order.txt` (Go's canonical ones and others out of order, repeated or
    /// spelled apart), each read back into its own set and tried against the next line's set.
    #[test]
    fn kept_value_is_the_written_one() {
        let corpus = include_str!("../../../fieldpath/tests/data/fieldsv1_order.txt");
        let mut values = Vec::new();
        for line in corpus.lines() {
            let mut columns = line.split('\t');
            for text in [columns.next(), columns.nth(1)].into_iter().flatten() {
                let Ok(value) = Value::from_json(text) else {
                    continue;
                };
                if let Some(set) = Set::from_fields_v1_value(&value) {
                    values.push((set, value));
                }
            }
        }
        let (mut kept, mut written) = (0, 0);
        let mut scratch = Vec::new();
        for (i, (_, value)) in values.iter().enumerate() {
            for (set, _) in [&values[i], &values[(i + 1) % values.len()]] {
                let same = ordered(&fields_v1_value(set).unwrap()) == ordered(value);
                assert_eq!(
                    fields_v1_value_is(set, value, &mut scratch),
                    same,
                    "{}",
                    ordered(value)
                );
                if same {
                    kept += 1;
                } else {
                    written += 1;
                }
            }
        }
        assert!(
            kept > 300 && written > 300,
            "kept {kept}, written {written}"
        );
    }

    #[test]
    fn read_entries() {
        let obj = object(
            r#"
metadata:
  managedFields:
  - manager: kubectl
    operation: Apply
    apiVersion: apps/v1
    time: "2024-01-01T01:00:00.9+01:00"
    fieldsType: FieldsV1
    fieldsV1: {f:spec: {f:replicas: {}}, f:metadata: {}}
    unknown: 1
"#,
        );
        let entries = entries(&obj).unwrap().unwrap();
        assert_eq!(entries.len(), 1);
        let e = &entries[0];
        assert_eq!(
            (
                e.manager.as_str(),
                e.operation.as_str(),
                e.api_version.as_str()
            ),
            ("kubectl", "Apply", "apps/v1")
        );
        assert_eq!(e.time.unwrap().to_string(), "2024-01-01T00:00:00Z");
        // Re-serialised by encoding/json: keys sorted.
        assert_eq!(
            e.fields_v1.as_deref().unwrap(),
            br#"{"f:metadata":{},"f:spec":{"f:replicas":{}}}"#
        );
    }

    #[test]
    fn absent_empty_and_malformed() {
        assert_eq!(entries(&object("{}")).unwrap(), None);
        assert_eq!(
            entries(&object("metadata: {managedFields: null}")).unwrap(),
            None
        );
        assert_eq!(
            entries(&object("metadata: {managedFields: []}")).unwrap(),
            Some(vec![])
        );
        // META/unstructured/unstructured.go:452-477: any malformed item gives nil for the list.
        for bad in [
            "metadata: {managedFields: x}",
            "metadata: {managedFields: [1]}",
            "metadata: {managedFields: [{manager: 1}]}",
            "metadata: {managedFields: [{}, {time: yesterday}]}",
        ] {
            assert!(entries(&object(bad)).is_err(), "{bad}");
            assert_eq!(entries_or_none(&object(bad)), None, "{bad}");
        }
        let err = entries(&object("metadata: {managedFields: [{}, {time: 5}]}")).unwrap_err();
        assert_eq!(err.index(), Some(1));
    }

    #[test]
    fn nulls_and_odd_values_round_trip_as_go() {
        // Unstructured.GetManagedFields then SetManagedFields (META/unstructured/unstructured.go:
        // 452-492): a null field reads as empty; a non-object fieldsV1 is kept as written (it
        // fails later, in decoding); the zero time is written as null (META/time.go:162-166).
        let obj = object(
            r#"{metadata: {managedFields: [{manager: null, operation: Update, fieldsV1: null,
                time: "0001-01-01T00:00:00Z"}, {fieldsV1: x}]}}"#,
        );
        let read = entries(&obj).unwrap().unwrap();
        assert_eq!(read[0].manager, "");
        assert_eq!(read[0].fields_v1, None);
        assert_eq!(read[1].fields_v1.as_deref(), Some(&b"\"x\""[..]));
        let mut out = object("{}");
        set_entries(&mut out, Some(&read)).unwrap();
        assert_eq!(
            out,
            object(
                r#"{metadata: {managedFields: [{operation: Update, time: null}, {fieldsV1: x}]}}"#
            )
        );
    }

    #[test]
    fn write_in_struct_order() {
        let mut obj = object("{kind: ConfigMap}");
        let entry = Entry {
            manager: "m".into(),
            operation: "Update".into(),
            api_version: "v1".into(),
            time: Some(Timestamp::from_unix(0)),
            fields_type: "FieldsV1".into(),
            fields_v1: Some(br#"{"f:data":{"f:b":{},"f:a":{}}}"#.to_vec()),
            subresource: String::new(),
        };
        set_entries(&mut obj, Some(&[entry])).unwrap();
        let item = &obj
            .as_map()
            .unwrap()
            .get("metadata")
            .unwrap()
            .as_map()
            .unwrap()
            .get("managedFields")
            .unwrap()
            .as_list()
            .unwrap()[0];
        let keys: Vec<&str> = item.as_map().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "manager",
                "operation",
                "apiVersion",
                "time",
                "fieldsType",
                "fieldsV1"
            ]
        );
        let fields = item
            .as_map()
            .unwrap()
            .get("fieldsV1")
            .unwrap()
            .as_map()
            .unwrap();
        let inner: Vec<&str> = fields
            .get("f:data")
            .unwrap()
            .as_map()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(inner, ["f:b", "f:a"]);
        set_entries(&mut obj, None).unwrap();
        assert_eq!(obj, object("{kind: ConfigMap, metadata: {}}"));
    }

    #[test]
    fn set_as_value_matches_bytes() {
        let set = Set::from_fields_v1(
            br#"{"f:spec":{".":{},"f:a":{},"f:list":{"k:{\"name\":\"x\"}":{".":{},"f:v":{}}}},"f:z":{}}"#,
        )
        .unwrap();
        let value = fields_v1_value(&set).unwrap();
        let bytes = set.to_fields_v1().unwrap();
        assert_eq!(
            value,
            Value::from_json(std::str::from_utf8(&bytes).unwrap()).unwrap()
        );
    }
}
