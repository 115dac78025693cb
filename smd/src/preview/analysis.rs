//! The consequences of an apply, worked out from the live object, the manifest and what the
//! server stored: each manager's ownership gained and lost, the fields the applier stops
//! managing (removed, or kept because others own them), conflicts with both values, and what
//! the status subresource ignores.

use smd_fieldpath::{Path, PathElement, Set, Value};
use smd_schema::gvk::GroupVersionKind;

use crate::managedfields::{Error, Managed, ManagerId, Operation};

/// One manager's ownership before and after.
#[derive(Debug, Clone)]
pub struct OwnerChange {
    /// The manager.
    pub id: ManagerId,
    /// The fields it owns after and did not before.
    pub gained: Set,
    /// The fields it owned before and does not after.
    pub lost: Set,
    /// The manager has no entry before.
    pub arrives: bool,
    /// The manager has no entry after.
    pub leaves: bool,
}

/// A field this apply stops managing that was in the live object.
#[derive(Debug, Clone)]
pub struct Dropped {
    /// The field.
    pub path: Path,
    /// Who still owns it (the field stays); empty: the field is removed.
    pub owners: Vec<ManagerId>,
    /// A removed field's other owners before the apply (of the field or of fields in it): SMD
    /// removes an item the applier no longer lists with everything in it, even what others set.
    pub co_owners: Vec<ManagerId>,
}

/// One conflict, with both values.
#[derive(Debug, Clone)]
pub struct Conflict {
    /// Who owns the field (`None` when the conflict names no manager).
    pub owner: Option<ManagerId>,
    /// The field.
    pub path: Path,
    /// Its value in the live object.
    pub live: Option<Value>,
    /// Its value in the manifest.
    pub applied: Option<Value>,
}

/// The managers' sets of an object (none when it has no readable managedFields).
pub fn managers(object: &Value) -> Result<Managed, String> {
    let stored = crate::managedfields::entry::stored(object)
        .map_err(|e| e.to_string())?
        .unwrap_or_default();
    Managed::decode_stored(stored).map_err(|e| format!("managedFields[{}]: {e}", e.index()))
}

/// Each manager whose set changed between `before` and `after`, in the order of their
/// identities.
pub fn owner_changes(before: &Managed, after: &Managed) -> Vec<OwnerChange> {
    let mut keys: Vec<&str> = before.fields.iter().map(|(k, _)| k).collect();
    keys.extend(after.fields.iter().map(|(k, _)| k));
    keys.sort_unstable();
    keys.dedup();
    let empty = Set::new();
    keys.into_iter()
        .filter_map(|key| {
            let old = before.fields.get(key).map(|s| s.set());
            let new = after.fields.get(key).map(|s| s.set());
            let gained = new.unwrap_or(&empty).difference(old.unwrap_or(&empty));
            let lost = old.unwrap_or(&empty).difference(new.unwrap_or(&empty));
            if gained.is_empty() && lost.is_empty() && old.is_some() == new.is_some() {
                return None;
            }
            Some(OwnerChange {
                id: ManagerId::from_key(key).unwrap_or_default(),
                gained,
                lost,
                arrives: old.is_none(),
                leaves: new.is_none(),
            })
        })
        .collect()
}

/// The fields `manager`'s apply (through `subresource`) managed before and does not manage
/// now, that the live object had: removed, or kept because another manager owns them.
pub fn dropped(
    manager: &str,
    subresource: &str,
    live: &Value,
    before: &Managed,
    after_object: &Value,
    after: &Managed,
) -> Vec<Dropped> {
    let key = ManagerId::new(manager, Operation::Apply, "", subresource).key();
    let Some(old) = before.fields.get(&key) else {
        return Vec::new();
    };
    let empty = Set::new();
    let new = after.fields.get(&key).map_or(&empty, |s| s.set());
    let stopped = old.set().difference(new);
    let leaves = stopped.leaves();
    // A field that goes is named once, at its top: an item the applier stops listing goes
    // with everything in it, what other managers set there included (they are named).
    let mut gone = Set::new();
    let mut out = Vec::new();
    // Parents before their fields, whatever order the set walks in.
    let mut paths: Vec<Path> = stopped.iter().collect();
    paths.sort_by_key(|p| p.elements().len());
    for path in paths {
        let elements = path.elements();
        if (1..elements.len()).any(|n| gone.has(&elements[..n]))
            || value_at(live, elements).is_none()
        {
            continue;
        }
        if value_at(after_object, elements).is_none() {
            gone.insert(elements);
            let co_owners = before
                .fields
                .iter()
                .filter(|(k, _)| **k != key)
                .filter(|(_, s)| owns_in(s.set(), elements))
                .filter_map(|(k, _)| ManagerId::from_key(k))
                .collect();
            out.push(Dropped {
                path,
                owners: Vec::new(),
                co_owners,
            });
        } else if leaves.has(elements) {
            let owners = after
                .fields
                .iter()
                .filter(|(_, s)| s.set().has(elements))
                .filter_map(|(k, _)| ManagerId::from_key(k))
                .collect();
            out.push(Dropped {
                path,
                owners,
                co_owners: Vec::new(),
            });
        }
    }
    out.sort_by(|a, b| a.path.compare(&b.path));
    out
}

/// Whether `set` holds `path` or a field below it.
fn owns_in(set: &Set, path: &[PathElement]) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return !set.is_empty();
    };
    let mut at = set;
    for element in parents {
        match at.child(element) {
            Some(child) => at = child,
            None => return false,
        }
    }
    at.has_member(last) || at.child(last).is_some_and(|c| !c.is_empty())
}

/// The fields of a manifest applied through the status subresource that the API server
/// ignores: those outside `.status` whose stored value is not the manifest's (the status
/// strategy keeps the live object's). Maps are walked; a list or scalar is compared whole.
pub fn ignored_by_status(applied: &Value, stored: &Value) -> Vec<Path> {
    let mut out = Vec::new();
    let Some(map) = applied.as_map() else {
        return out;
    };
    for (key, value) in map.iter() {
        if matches!(key, "apiVersion" | "kind" | "status") {
            continue;
        }
        let mut path = Path::new();
        path.push(PathElement::Field(key.into()));
        ignored_below(
            value,
            stored.as_map().and_then(|m| m.get(key)),
            &mut path,
            &mut out,
        );
    }
    out
}

fn ignored_below(applied: &Value, stored: Option<&Value>, path: &mut Path, out: &mut Vec<Path>) {
    if out.len() >= IGNORED_LIMIT {
        return;
    }
    match (applied, stored) {
        (Value::Map(map), Some(Value::Map(kept))) => {
            for (key, value) in map.iter() {
                path.push(PathElement::Field(key.into()));
                ignored_below(value, kept.get(key), path, out);
                path.pop();
            }
        }
        (value, Some(kept)) if value == kept => {}
        _ => out.push(path.clone()),
    }
}

/// The most ignored fields named (a manifest of thousands is summed up by its first ones).
const IGNORED_LIMIT: usize = 100;

/// The conflicts of a refusal, with the live and applied values of each field.
pub fn conflicts(error: &Error, live: &Value, applied: &Value) -> Vec<Conflict> {
    let Error::Conflict(c) = error else {
        return Vec::new();
    };
    c.conflicts()
        .map(|(owner, path)| Conflict {
            owner,
            path: path.clone(),
            live: value_at(live, path.elements()).cloned(),
            applied: value_at(applied, path.elements()).cloned(),
        })
        .collect()
}

/// `live` as a read at `applied`'s version gives it, when the manifest is another version of
/// the live object's group and kind (converted as the server converts it, a built-in kind
/// defaulted at its new version); otherwise `live` itself.
pub fn at_version(live: &Value, applied: &Value) -> Value {
    let text = |v: &Value, key: &str| {
        v.as_map()
            .and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let kind = text(applied, "kind");
    let held = GroupVersionKind::from_api_version(&text(live, "apiVersion"), &kind);
    let wanted = GroupVersionKind::from_api_version(&text(applied, "apiVersion"), &kind);
    if held.group != wanted.group || held.version == wanted.version || held.kind != wanted.kind {
        return live.clone();
    }
    let mut converted = crate::builtin::conversion::convert(live, &text(applied, "apiVersion"));
    if crate::builtin::is_builtin(&wanted) {
        crate::builtin::default(&wanted, &mut converted);
    }
    converted
}

/// The value at `path` in `value`, if it is there.
pub fn value_at<'a>(value: &'a Value, path: &[PathElement]) -> Option<&'a Value> {
    let mut at = value;
    for element in path {
        at = match element {
            PathElement::Field(name) => at.as_map()?.get(name.as_str()?)?,
            other => {
                let items = at.as_list()?;
                items
                    .iter()
                    .enumerate()
                    .find(|(i, item)| names_item(other, item, *i))
                    .map(|(_, item)| item)?
            }
        };
    }
    Some(at)
}

/// Whether `element` names `item`, the `index`th of its list.
pub fn names_item(element: &PathElement, item: &Value, index: usize) -> bool {
    match element {
        PathElement::Field(_) => false,
        PathElement::Index(i) => usize::try_from(*i).is_ok_and(|i| i == index),
        PathElement::Value(v) => **v == *item,
        PathElement::Key(key) => {
            let Some(map) = item.as_map() else {
                return false;
            };
            key.fields().iter().all(|f| {
                f.name
                    .as_str()
                    .and_then(|n| map.get(n))
                    .is_some_and(|v| *v == f.value)
            })
        }
    }
}
