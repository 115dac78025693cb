//! Strategic merge patch as the API server applies it: `k8s.io/apimachinery` v0.37.2
//! `pkg/util/strategicpatch`'s `StrategicMergeMapPatch` (merging parallel lists, unmatched
//! `null`s ignored) with the patch metadata of the kind's Go type.
//!
//! Maps merge key by key; a list merges only when its field's `patchStrategy` says `merge`
//! (lists of objects by their `patchMergeKey`, lists of scalars as a set), otherwise the patch
//! replaces it. The directives: `$patch: replace|delete` in an object, `$patch:
//! replace|delete` items in a merged list, `$retainKeys`, `$deleteFromPrimitiveList/<field>`,
//! `$setElementOrder/<field>`. Go's orders are kept: its stable sort with its comparison (which
//! is not a strict order), its de-duplication of scalars (which moves items). Lookups that Go
//! makes by scanning lists are made through indexes here, so that merging big lists stays
//! n·log n; where Go compares two maps (a merge key whose value is an object) it panics, and so
//! the server answers 500: [`PatchError::ServerPanic`].

mod gofmt;
mod gosort;
mod meta;

pub use meta::{FieldMeta, GoTypeMeta, GoTypes, PatchMeta};

use super::PatchError;
use smd_fieldpath::{Map, Value};
use std::collections::{BTreeSet, HashMap, HashSet};

const DIRECTIVE: &str = "$patch";
const RETAIN_KEYS: &str = "$retainKeys";
const DELETE_PREFIX: &str = "$deleteFromPrimitiveList";
const ORDER_PREFIX: &str = "$setElementOrder";

const BAD_PRIMITIVE_LIST: &str = "invalid patch format of primitive list";
const BAD_RETAIN_KEYS: &str = "invalid patch format of retainKeys";
const BAD_SET_ORDER: &str = "invalid patch format of setElementOrder list";
const NO_LIST_OF_LISTS: &str = "lists of lists are not supported";

const NIL_TYPE: &str =
    "strategicpatch reads the type of a null list item (nil pointer dereference)";
const UNCOMPARABLE_MAP: &str = "strategicpatch compares two objects with == (comparing uncomparable type map[string]interface {})";
const UNCOMPARABLE_LIST: &str =
    "strategicpatch compares two lists with == (comparing uncomparable type []interface {})";
const UNHASHABLE_MAP: &str =
    "strategicpatch hashes an object (hash of unhashable type map[string]interface {})";
const UNHASHABLE_LIST: &str =
    "strategicpatch hashes a list (hash of unhashable type []interface {})";

/// Why a merge failed, before it becomes a [`PatchError`].
#[derive(Debug)]
enum Failure {
    /// An error the server passes on as it is (500).
    Other(String),
    /// One of mergepatch's sentinel errors, with the status the server gives it.
    Sentinel(&'static str, u16),
    /// Where Go panics.
    Panic(&'static str),
    /// Beyond smd's nesting limit.
    Deep,
}

impl From<Failure> for PatchError {
    fn from(f: Failure) -> PatchError {
        match f {
            Failure::Other(message) => PatchError::Strategic {
                message,
                status: 500,
            },
            Failure::Sentinel(message, status) => PatchError::Strategic {
                message: message.to_owned(),
                status,
            },
            Failure::Panic(reason) => PatchError::ServerPanic { reason },
            Failure::Deep => PatchError::TooDeep {
                max: MAX_MERGE_DEPTH,
            },
        }
    }
}

type Result<T> = std::result::Result<T, Failure>;

/// `patch` applied to `original` as the API server applies an
/// `application/strategic-merge-patch+json` body to the current object of a built-in kind,
/// `meta` being the patch metadata of the kind's Go type (for the built-in kinds,
/// [`GoTypes::builtin`] and [`GoTypes::kind`]).
///
/// # Errors
///
/// [`PatchError::Strategic`] with Go's words and the server's status (400 for a malformed
/// directive, 422 for a list of lists, 500 for the rest), [`PatchError::ServerPanic`] where Go
/// panics, [`PatchError::TooDeep`] beyond smd's nesting limit.
pub fn strategic<M: PatchMeta>(
    original: &Value,
    patch: &Value,
    meta: &M,
) -> std::result::Result<Value, PatchError> {
    let Value::Map(original) = original else {
        return Err(PatchError::Strategic {
            message: "invalid JSON document".into(),
            status: 400,
        });
    };
    let patch = match patch {
        Value::Map(patch) => patch.clone(),
        Value::Null => Map::new(),
        other => {
            return Err(PatchError::Strategic {
                message: format!(
                    "json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                    json_kind(other)
                ),
                status: 400,
            });
        }
    };
    Ok(Value::Map(merge_map(original.clone(), patch, meta, 1)?))
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::Float(_) => "number",
        Value::String(_) => "string",
        Value::List(_) => "array",
        Value::Map(_) => "object",
    }
}

/// How deep strategic merge patch recurses (objects and lists that both the original and the
/// patch nest): smd's limit, lower than the readers' [`MAX_DEPTH`] because one level of the
/// merge costs several frames (a 2 MiB thread in an unoptimised build holds this many). The
/// Go types of Kubernetes nest a few dozen levels; only the free-form parts (`RawExtension`)
/// go deeper.
pub const MAX_MERGE_DEPTH: usize = 200;

fn check(depth: usize) -> Result<()> {
    if depth > MAX_MERGE_DEPTH {
        return Err(Failure::Deep);
    }
    Ok(())
}

fn is_str(value: Option<&Value>, text: &str) -> bool {
    matches!(value, Some(Value::String(s)) if s == text)
}

/// A hashable scalar, compared as Go compares `interface{}` values (an int64 is never a
/// float64).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Null,
    Bool(bool),
    Int(i64),
    Float(u64),
    String(String),
}

/// The key of a scalar; `Err` names the uncomparable kind (0: object, 1: list).
fn key(value: &Value) -> std::result::Result<Key, u8> {
    Ok(match value {
        Value::Null => Key::Null,
        Value::Bool(b) => Key::Bool(*b),
        Value::Int(i) => Key::Int(*i),
        Value::Float(f) => Key::Float(if *f == 0.0 { 0 } else { f.to_bits() }),
        Value::String(s) => Key::String(s.clone()),
        Value::Map(_) => return Err(0),
        Value::List(_) => return Err(1),
    })
}

/// A key for a Go map: objects and lists cannot be hashed.
fn hash_key(value: &Value) -> Result<Key> {
    key(value).map_err(|k| {
        Failure::Panic(if k == 0 {
            UNHASHABLE_MAP
        } else {
            UNHASHABLE_LIST
        })
    })
}

/// Go's `==` on two `interface{}` values.
fn go_eq(a: &Value, b: &Value) -> Result<bool> {
    match (key(a), key(b)) {
        (Ok(x), Ok(y)) => Ok(x == y),
        (Err(0), Err(0)) => Err(Failure::Panic(UNCOMPARABLE_MAP)),
        (Err(1), Err(1)) => Err(Failure::Panic(UNCOMPARABLE_LIST)),
        _ => Ok(false),
    }
}

/// Go's `reflect.TypeOf` of a decoded value, as a number (null, bool, int64, float64, string,
/// list, map).
fn go_type(value: &Value) -> u8 {
    match value {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Int(_) => 2,
        Value::Float(_) => 3,
        Value::String(_) => 4,
        Value::List(_) => 5,
        Value::Map(_) => 6,
    }
}

/// mergepatch's `ErrBadArgType`: `%s` of `reflect.TypeOf`, which is nil for `null`.
fn bad_arg_type(expected: &str, actual: &Value) -> Failure {
    let actual = match actual {
        Value::Null => "%!s(<nil>)",
        other => smd_fieldpath::value::gofmt::type_name(other),
    };
    Failure::Other(format!("expected a {expected}, but received a {actual}"))
}

const MAP_TYPE: &str = "map[string]interface {}";
const LIST_TYPE: &str = "[]interface {}";

fn no_merge_key(map: &Value, merge_key: &str) -> Failure {
    Failure::Other(format!(
        "map: {} does not contain declared merge key: {merge_key}",
        gofmt::v(map)
    ))
}

fn bad_patch_type(directive: &Value, map: &Value) -> Failure {
    Failure::Other(format!(
        "unknown patch type: {} in map: {}",
        gofmt::s(directive),
        gofmt::v(map)
    ))
}

/// `extractKey`: the field a `$deleteFromPrimitiveList/` or `$setElementOrder/` key names.
fn extract_key<'a>(key: &'a str, prefix: &str, error: &'static str) -> Result<&'a str> {
    match key.split_once('/') {
        Some((head, rest)) if head == prefix => Ok(rest),
        _ => Err(Failure::Sentinel(error, 400)),
    }
}

/// `extractRetainKeysPatchStrategy`: the strategy other than `retainKeys`.
fn strategy(strategies: &[String]) -> Result<&str> {
    let retain = "retainKeys";
    match strategies {
        [] => Ok(""),
        [one] if one == retain => Ok(""),
        [one] => Ok(one),
        [a, b] if a == retain => Ok(b),
        [a, b] if b == retain => Ok(a),
        _ => Err(Failure::Other(format!(
            "unexpected patch strategy: [{}]",
            strategies.join(" ")
        ))),
    }
}

fn merge_map<M: PatchMeta>(
    mut original: Map,
    mut patch: Map,
    meta: &M,
    depth: usize,
) -> Result<Map> {
    check(depth)?;
    if let Some(directive) = patch.get(DIRECTIVE) {
        return match directive {
            Value::String(d) if d == "replace" => {
                patch.remove(DIRECTIVE);
                Ok(patch)
            }
            Value::String(d) if d == "delete" => Ok(Map::new()),
            other => Err(bad_patch_type(other, &Value::Map(patch.clone()))),
        };
    }
    apply_retain_keys(&mut original, &mut patch)?;
    merge_element_orders(&mut original, &mut patch, meta, depth)?;

    for (field, change) in patch {
        let (name, deletion) = if field.starts_with(DELETE_PREFIX) {
            let name = extract_key(&field, DELETE_PREFIX, BAD_PRIMITIVE_LIST)?;
            let name = if name.is_empty() {
                field.as_str()
            } else {
                name
            };
            (name.to_owned(), true)
        } else {
            (field, false)
        };
        if change.is_null() {
            original.remove(&name);
            continue;
        }
        let current = match original.get(&name) {
            Some(current) if go_type(current) == go_type(&change) => current.clone(),
            _ => {
                if !deletion {
                    let mut change = change;
                    discard_nulls(&mut change, depth + 1)?;
                    match remove_directives(change, depth + 1)? {
                        Some(v) => original.insert(name, v),
                        None => original.remove(&name),
                    };
                }
                continue;
            }
        };
        let merged = match (current, change) {
            (Value::Map(current), Value::Map(change)) => {
                let (sub, field_meta) = meta.lookup_struct(&name).map_err(Failure::Other)?;
                if strategy(&field_meta.strategies)? == "replace" {
                    Value::Map(change)
                } else {
                    Value::Map(merge_map(current, change, &sub, depth + 1)?)
                }
            }
            (Value::List(current), Value::List(change)) => {
                let (sub, field_meta) = meta.lookup_slice(&name).map_err(Failure::Other)?;
                let strategy = strategy(&field_meta.strategies)?;
                Value::List(merge_list_field(
                    current,
                    change,
                    &sub,
                    strategy,
                    &field_meta.merge_key,
                    deletion,
                    depth + 1,
                    None,
                )?)
            }
            (_, change) => match remove_directives(change, depth + 1)? {
                Some(v) => v,
                None => {
                    original.remove(&name);
                    continue;
                }
            },
        };
        original.insert(name, merged);
    }
    Ok(original)
}

/// `mergeSliceHandler`: merge when the strategy says so (or for a deletion list), else the
/// patch's list as it is.
#[allow(clippy::too_many_arguments)]
fn merge_list_field<M: PatchMeta>(
    original: Vec<Value>,
    patch: Vec<Value>,
    meta: &M,
    strategy: &str,
    merge_key: &str,
    deletion: bool,
    depth: usize,
    view: Option<&mut Vec<Value>>,
) -> Result<Vec<Value>> {
    if strategy == "merge" || deletion {
        merge_list(original, patch, meta, merge_key, deletion, depth, view)
    } else {
        Ok(patch)
    }
}

/// `applyRetainKeysDirective`: only the listed keys of the original stay; the patch may set no
/// other.
fn apply_retain_keys(original: &mut Map, patch: &mut Map) -> Result<()> {
    let Some(retain) = patch.remove(RETAIN_KEYS) else {
        return Ok(());
    };
    let Value::List(retain) = retain else {
        return Err(Failure::Sentinel(BAD_RETAIN_KEYS, 400));
    };
    let keep: HashSet<Key> = retain.iter().map(hash_key).collect::<Result<_>>()?;
    for (field, value) in patch.iter() {
        if value.is_null() || field.starts_with(DELETE_PREFIX) || field.starts_with(ORDER_PREFIX) {
            continue;
        }
        if !keep.contains(&Key::String(field.to_owned())) {
            return Err(Failure::Sentinel(BAD_RETAIN_KEYS, 400));
        }
    }
    *original = original
        .iter()
        .filter(|(k, _)| keep.contains(&Key::String((*k).to_owned())))
        .map(|(k, v)| (k.to_owned(), v.clone()))
        .collect();
    Ok(())
}

/// `mergePatchIntoOriginal`: each `$setElementOrder/<field>` merges its field's lists and
/// orders the result: the directive's order first, then the patch's, then the original's.
fn merge_element_orders<M: PatchMeta>(
    original: &mut Map,
    patch: &mut Map,
    meta: &M,
    depth: usize,
) -> Result<()> {
    let keys: Vec<String> = patch
        .keys()
        .filter(|k| k.starts_with(ORDER_PREFIX))
        .map(str::to_owned)
        .collect();
    for directive in keys {
        let Some(order) = patch.remove(&directive) else {
            continue;
        };
        let Value::List(order) = order else {
            return Err(bad_arg_type(LIST_TYPE, &order));
        };
        let name = extract_key(&directive, ORDER_PREFIX, BAD_SET_ORDER)?.to_owned();
        let original_list = match original.get(&name) {
            None => None,
            Some(Value::List(l)) => Some(l.clone()),
            Some(other) => return Err(bad_arg_type(LIST_TYPE, other)),
        };
        let patch_list = match patch.get(&name) {
            None => None,
            Some(Value::List(l)) => Some(l.clone()),
            Some(other) => return Err(bad_arg_type(LIST_TYPE, other)),
        };
        let (sub, field_meta) = meta.lookup_slice(&name).map_err(Failure::Other)?;
        let strategy = strategy(&field_meta.strategies)?.to_owned();
        let merge_key = field_meta.merge_key.as_str();
        let empty = Vec::new();
        validate_order(patch_list.as_ref().unwrap_or(&empty), &order, merge_key)?;
        // Go merges the lists in place: what its original list holds afterwards is the order
        // the server-only items are sorted by (see `merge_list`).
        let mut server_view = original_list.clone().unwrap_or_default();
        let merged = match (&original_list, &patch_list) {
            (Some(o), None) => o.clone(),
            (None, Some(p)) => match remove_directives(Value::List(p.clone()), depth + 1)? {
                Some(Value::List(l)) => l,
                _ => continue,
            },
            (Some(o), Some(p)) => merge_list_field(
                o.clone(),
                p.clone(),
                &sub,
                &strategy,
                merge_key,
                false,
                depth + 1,
                Some(&mut server_view),
            )?,
            (None, None) => continue,
        };
        let (in_order, server_only) = if merge_key.is_empty() {
            partition_scalars(merged, &order)?
        } else {
            partition_maps(merged, &order, merge_key)?
        };
        let original_items = original_list.unwrap_or_default();
        let objects = element_type(&[&original_items, patch_list.as_deref().unwrap_or(&[])])?;
        let both = normalize_order(
            in_order,
            server_only,
            &order,
            &server_view,
            merge_key,
            objects,
        )?;
        original.insert(name.clone(), Value::List(both));
        patch.remove(&name);
    }
    Ok(())
}

/// `validatePatchWithSetOrderList`: the patch's items appear in the directive's order.
fn validate_order(patch: &[Value], order: &[Value], merge_key: &str) -> Result<()> {
    if order.is_empty() || patch.is_empty() {
        return Ok(());
    }
    let kept: Vec<Value> = if merge_key.is_empty() {
        patch.to_vec()
    } else {
        split_deletions(patch.to_vec())?.0
    };
    let (mut p, mut o) = (0, 0);
    while let (Some(item), Some(ordered)) = (kept.get(p), order.get(o)) {
        if matches!(item, Value::Map(m) if m.contains_key(DIRECTIVE)) {
            p += 1;
            continue;
        }
        if merge_key_equal(item, ordered, merge_key)? {
            p += 1;
        }
        o += 1;
    }
    if p < kept.len() && o >= order.len() {
        return Err(Failure::Other(format!(
            "The order in patch list:\n{}\n doesn't match {ORDER_PREFIX} list:\n{}\n",
            gofmt::v(&Value::List(patch.to_vec())),
            gofmt::v(&Value::List(order.to_vec()))
        )));
    }
    Ok(())
}

fn merge_key_equal(left: &Value, right: &Value, merge_key: &str) -> Result<bool> {
    if merge_key.is_empty() {
        return go_eq(left, right);
    }
    let Value::Map(l) = left else {
        return Err(bad_arg_type(MAP_TYPE, left));
    };
    let Value::Map(r) = right else {
        return Err(bad_arg_type(MAP_TYPE, right));
    };
    let lv = l
        .get(merge_key)
        .ok_or_else(|| no_merge_key(left, merge_key))?;
    let rv = r
        .get(merge_key)
        .ok_or_else(|| no_merge_key(right, merge_key))?;
    go_eq(lv, rv)
}

/// `extractToDeleteItems`: items marked `$patch: delete` apart, the others in order.
fn split_deletions(items: Vec<Value>) -> Result<(Vec<Value>, Vec<Value>)> {
    let (mut keep, mut delete) = (Vec::new(), Vec::new());
    for item in items {
        let Value::Map(m) = &item else {
            return Err(bad_arg_type(MAP_TYPE, &item));
        };
        if is_str(m.get(DIRECTIVE), "delete") {
            delete.push(item);
        } else {
            keep.push(item);
        }
    }
    Ok((keep, delete))
}

/// `sliceElementType`: whether the items (all of one Go type, not lists) are objects.
fn element_type(lists: &[&[Value]]) -> Result<bool> {
    let mut first: Option<u8> = None;
    for item in lists.iter().flat_map(|l| l.iter()) {
        let t = go_type(item);
        match first {
            None => {
                if t == 0 {
                    return Err(Failure::Panic(NIL_TYPE));
                }
                if t == 5 {
                    return Err(Failure::Sentinel(NO_LIST_OF_LISTS, 422));
                }
                first = Some(t);
            }
            Some(f) if f != t => {
                return Err(Failure::Other(format!(
                    "list element types are not identical: {}",
                    gofmt::lists(lists)
                )));
            }
            Some(_) => {}
        }
    }
    match first {
        Some(t) => Ok(t == 6),
        None => Err(Failure::Other(
            "no elements in any of the given slices".into(),
        )),
    }
}

/// `mergeSlice`. When `view` is given, it is set to what the caller's list holds afterwards in
/// Go, where the merge works in place: deleting items (`$patch: delete`) shifts the kept ones
/// to the front of the caller's array, and the first appended items then land in the freed
/// places (the places past the kept and appended items keep copies of earlier items; the
/// original's items stand for them here).
fn merge_list<M: PatchMeta>(
    original: Vec<Value>,
    patch: Vec<Value>,
    meta: &M,
    merge_key: &str,
    deletion: bool,
    depth: usize,
    view: Option<&mut Vec<Value>>,
) -> Result<Vec<Value>> {
    check(depth)?;
    if original.is_empty() && patch.is_empty() {
        return Ok(original);
    }
    let objects = element_type(&[&original, &patch])?;
    let (original, patch, merged) = if !objects {
        if deletion {
            let gone: HashSet<Key> = patch.iter().map(hash_key).collect::<Result<_>>()?;
            let mut kept = Vec::with_capacity(original.len());
            for item in original {
                if !gone.contains(&hash_key(&item)?) {
                    kept.push(item);
                }
            }
            return Ok(kept);
        }
        let mut both = original.clone();
        both.extend(patch.iter().cloned());
        let merged = deduplicate(both)?;
        if patch.is_empty() {
            // Go's `append(original)` of nothing is the original itself, de-duplicated in
            // place: the order the items are then sorted by is the de-duplicated list (the
            // places past it keep copies of items before them, which no lookup reaches).
            if let Some(view) = view {
                *view = merged.clone();
            }
            let order = merged.clone();
            (order, patch, merged)
        } else {
            (original, patch, merged)
        }
    } else {
        if merge_key.is_empty() {
            return Err(Failure::Other(format!(
                "cannot merge lists without merge key for {}",
                meta.name()
            )));
        }
        let length = original.len();
        let (kept, patch, replaced) = special_items(original.clone(), patch, merge_key)?;
        let merged = merge_items(kept.clone(), &patch, merge_key, meta, depth)?;
        if let Some(view) = view {
            if !replaced {
                let mut aliased: Vec<Value> = merged.iter().take(length).cloned().collect();
                aliased.extend(original.iter().skip(aliased.len()).cloned());
                *view = aliased;
            }
        }
        (kept, patch, merged)
    };
    let (in_patch, server_only) = if merge_key.is_empty() {
        partition_scalars(merged, &patch)?
    } else {
        partition_maps(merged, &patch, merge_key)?
    };
    normalize_order(in_patch, server_only, &patch, &original, merge_key, objects)
}

/// Go's `deduplicateScalars`: each later copy of an item is replaced by the list's last item
/// (which is checked in turn) and the list shortened. Simulated with the positions of each
/// value, so that it is n·log n where Go's loop is quadratic.
fn deduplicate(mut items: Vec<Value>) -> Result<Vec<Value>> {
    let mut at: HashMap<Key, BTreeSet<usize>> = HashMap::new();
    let mut keys = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let k = hash_key(item)?;
        at.entry(k.clone()).or_default().insert(i);
        keys.push(k);
    }
    let mut i = 0;
    while i + 1 < items.len() {
        let Some(x) = keys.get(i).cloned() else {
            break;
        };
        let mut from = i + 1;
        loop {
            let last = items.len().saturating_sub(1);
            if from > last {
                break;
            }
            let next = at
                .get(&x)
                .and_then(|s| s.range(from..=last).next().copied());
            let Some(j) = next else {
                break;
            };
            // items[j] = items[last]; shorten by one; look at j again.
            if let Some(s) = at.get_mut(&x) {
                s.remove(&j);
            }
            if j != last {
                let moved_key = keys.get(last).cloned();
                if let Some(mk) = &moved_key {
                    if let Some(s) = at.get_mut(mk) {
                        s.remove(&last);
                        s.insert(j);
                    }
                }
                items.swap(j, last);
                keys.swap(j, last);
            }
            items.pop();
            keys.pop();
            from = j;
        }
        i += 1;
    }
    Ok(items)
}

/// `mergeSliceWithSpecialElements`: `$patch: delete` items delete the original's items of
/// their key, `$patch: replace` makes the patch's plain items the whole list.
fn special_items(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>, bool)> {
    let mut plain = Vec::new();
    let mut replace = false;
    let mut gone: HashSet<Key> = HashSet::new();
    let index = ItemIndex::new(&original, merge_key);
    for item in patch {
        let Value::Map(m) = &item else {
            plain.push(item);
            continue;
        };
        match m.get(DIRECTIVE) {
            None => plain.push(item),
            Some(Value::String(d)) if d == "delete" => {
                let value = m
                    .get(merge_key)
                    .ok_or_else(|| no_merge_key(&item, merge_key))?;
                index.find(value)?;
                if let Ok(k) = key(value) {
                    gone.insert(k);
                }
            }
            Some(Value::String(d)) if d == "replace" => replace = true,
            Some(Value::String(d)) if d == "merge" => {
                return Err(Failure::Other(
                    "merging lists cannot yet be specified in the patch".into(),
                ));
            }
            Some(other) => return Err(bad_patch_type(other, &item)),
        }
    }
    if !gone.is_empty() {
        original.retain(|item| {
            !matches!(item, Value::Map(m)
                if m.get(merge_key).and_then(|v| key(v).ok()).is_some_and(|k| gone.contains(&k)))
        });
    }
    if replace {
        return Ok((plain, Vec::new(), true));
    }
    Ok((original, plain, false))
}

/// `mergeSliceWithoutSpecialElements`: each patch item merges into the original's first item
/// of its key, or is appended.
fn merge_items<M: PatchMeta>(
    mut original: Vec<Value>,
    patch: &[Value],
    merge_key: &str,
    meta: &M,
    depth: usize,
) -> Result<Vec<Value>> {
    let mut index = ItemIndex::new(&original, merge_key);
    for item in patch {
        let Value::Map(change) = item else {
            return Err(bad_arg_type(MAP_TYPE, item));
        };
        let value = change
            .get(merge_key)
            .ok_or_else(|| no_merge_key(item, merge_key))?;
        match index.find(value)? {
            Some(i) => {
                if let Some(Value::Map(current)) = original.get(i) {
                    let merged = merge_map(current.clone(), change.clone(), meta, depth + 1)?;
                    if let Some(slot) = original.get_mut(i) {
                        *slot = Value::Map(merged);
                    }
                }
            }
            None => {
                index.add(original.len(), item);
                original.push(item.clone());
            }
        }
    }
    Ok(original)
}

/// The answers of Go's `findMapInSliceBasedOnKeyValue` on one list without scanning it: the
/// first item of each key, the first item that is not an object (Go fails there), the first
/// items whose key is an object or a list (Go panics comparing them).
struct ItemIndex {
    merge_key: String,
    first: HashMap<Key, usize>,
    not_map: Option<usize>,
    map_key: Option<usize>,
    list_key: Option<usize>,
}

impl ItemIndex {
    fn new(items: &[Value], merge_key: &str) -> ItemIndex {
        let mut index = ItemIndex {
            merge_key: merge_key.to_owned(),
            first: HashMap::new(),
            not_map: None,
            map_key: None,
            list_key: None,
        };
        for (i, item) in items.iter().enumerate() {
            index.add(i, item);
        }
        index
    }

    fn add(&mut self, i: usize, item: &Value) {
        let Value::Map(m) = item else {
            self.not_map.get_or_insert(i);
            return;
        };
        match m.get(&self.merge_key).map(key) {
            None => {}
            Some(Ok(k)) => {
                self.first.entry(k).or_insert(i);
            }
            Some(Err(0)) => {
                self.map_key.get_or_insert(i);
            }
            Some(Err(_)) => {
                self.list_key.get_or_insert(i);
            }
        }
    }

    /// The position of the first item whose key equals `value`, as Go's scan finds it.
    fn find(&self, value: &Value) -> Result<Option<usize>> {
        let (hit, panic) = match key(value) {
            Ok(k) => (self.first.get(&k).copied(), None),
            Err(0) => (None, self.map_key.map(|i| (i, UNCOMPARABLE_MAP))),
            Err(_) => (None, self.list_key.map(|i| (i, UNCOMPARABLE_LIST))),
        };
        let stop = [
            hit.map(|i| (i, 0u8)),
            panic.map(|(i, _)| (i, 1)),
            self.not_map.map(|i| (i, 2)),
        ]
        .into_iter()
        .flatten()
        .min();
        match stop {
            None => Ok(None),
            Some((i, 0)) => Ok(Some(i)),
            Some((_, 1)) => Err(Failure::Panic(
                panic.map_or(UNCOMPARABLE_MAP, |(_, reason)| reason),
            )),
            Some((i, _)) => Err(Failure::Other(format!("value for key {i} is not a map"))),
        }
    }
}

/// `partitionPrimitivesByPresentInList`.
fn partition_scalars(items: Vec<Value>, by: &[Value]) -> Result<(Vec<Value>, Vec<Value>)> {
    let present: HashSet<Key> = by.iter().map(hash_key).collect::<Result<_>>()?;
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    for item in items {
        if present.contains(&hash_key(&item)?) {
            inside.push(item);
        } else {
            outside.push(item);
        }
    }
    Ok((inside, outside))
}

/// `partitionMapsByPresentInList`.
fn partition_maps(
    items: Vec<Value>,
    by: &[Value],
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>)> {
    let index = ItemIndex::new(by, merge_key);
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    for item in items {
        let Value::Map(m) = &item else {
            return Err(bad_arg_type(MAP_TYPE, &item));
        };
        let value = m
            .get(merge_key)
            .ok_or_else(|| no_merge_key(&item, merge_key))?;
        if index.find(value)?.is_some() {
            inside.push(item);
        } else {
            outside.push(item);
        }
    }
    Ok((inside, outside))
}

/// Go's `index`: the first position in a list of an item's merge key value (objects) or of the
/// item (scalars), by a map.
struct OrderIndex {
    objects: bool,
    merge_key: String,
    first: HashMap<Key, usize>,
    map_value: bool,
    list_value: bool,
}

impl OrderIndex {
    fn new(order: &[Value], merge_key: &str, objects: bool) -> OrderIndex {
        let mut index = OrderIndex {
            objects,
            merge_key: merge_key.to_owned(),
            first: HashMap::new(),
            map_value: false,
            list_value: false,
        };
        for (i, item) in order.iter().enumerate() {
            match key(index.value_of(item)) {
                Ok(k) => {
                    index.first.entry(k).or_insert(i);
                }
                Err(0) => index.map_value = true,
                Err(_) => index.list_value = true,
            }
        }
        index
    }

    fn value_of<'a>(&self, item: &'a Value) -> &'a Value {
        const NULL: &Value = &Value::Null;
        if !self.objects {
            return item;
        }
        match item {
            Value::Map(m) => m.get(&self.merge_key).unwrap_or(NULL),
            _ => NULL,
        }
    }

    fn position(&self, item: &Value) -> Result<Option<usize>> {
        match key(self.value_of(item)) {
            Ok(k) => Ok(self.first.get(&k).copied()),
            Err(0) if self.map_value => Err(Failure::Panic(UNCOMPARABLE_MAP)),
            Err(1) if self.list_value => Err(Failure::Panic(UNCOMPARABLE_LIST)),
            Err(_) => Ok(None),
        }
    }
}

/// `normalizeElementOrder`: the patch's items sorted by the patch's order, the server-only
/// items by the original's, then the two merged.
fn normalize_order(
    patch_items: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    merge_key: &str,
    objects: bool,
) -> Result<Vec<Value>> {
    let patch_items = sort_by_order(patch_items, patch_order, merge_key, objects)?;
    let server_only = sort_by_order(server_only, server_order, merge_key, objects)?;
    let order = OrderIndex::new(server_order, merge_key, objects);
    let mut out = Vec::with_capacity(patch_items.len() + server_only.len());
    let mut left = server_only.into_iter().peekable();
    let mut right = patch_items.into_iter().peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(l), Some(r)) => {
                let li = order.position(l)?;
                let ri = order.position(r)?;
                matches!((li, ri), (Some(a), Some(b)) if a < b)
            }
        };
        let next = if take_left { left.next() } else { right.next() };
        out.extend(next);
    }
    Ok(out)
}

/// `normalizeSliceOrder`: Go's stable sort by position in `order` (an item `order` lacks is
/// "less" than anything); deleted objects last.
fn sort_by_order(
    items: Vec<Value>,
    order: &[Value],
    merge_key: &str,
    objects: bool,
) -> Result<Vec<Value>> {
    let (mut items, deleted) = if objects {
        for item in items.iter().chain(order) {
            let Value::Map(m) = item else {
                return Err(bad_arg_type(MAP_TYPE, item));
            };
            if !m.contains_key(merge_key) {
                return Err(no_merge_key(item, merge_key));
            }
        }
        split_deletions(items)?
    } else {
        (items, Vec::new())
    };
    let index = OrderIndex::new(order, merge_key, objects);
    gosort::slice_stable(&mut items, &mut |a, b| {
        if let Some(i) = index.position(a)? {
            if let Some(j) = index.position(b)? {
                return Ok(i < j);
            }
        }
        Ok(true)
    })?;
    items.extend(deleted);
    Ok(items)
}

/// `removeDirectives`: objects holding `$patch` go (`None`), at every level.
fn remove_directives(value: Value, depth: usize) -> Result<Option<Value>> {
    check(depth)?;
    Ok(match value {
        Value::Map(m) => {
            if m.contains_key(DIRECTIVE) {
                return Ok(None);
            }
            let mut out = Map::with_capacity(m.len());
            for (k, v) in m {
                if let Some(v) = remove_directives(v, depth + 1)? {
                    out.insert(k, v);
                }
            }
            Some(Value::Map(out))
        }
        Value::List(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.extend(remove_directives(item, depth + 1)?);
            }
            Some(Value::List(out))
        }
        other => Some(other),
    })
}

/// `discardNullValuesFromPatch`: `null` members of objects go, at every level.
fn discard_nulls(value: &mut Value, depth: usize) -> Result<()> {
    check(depth)?;
    match value {
        Value::Map(m) => {
            if m.values().any(Value::is_null) {
                *m = m
                    .iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k.to_owned(), v.clone()))
                    .collect();
            }
            for (_, v) in m.iter_mut() {
                discard_nulls(v, depth + 1)?;
            }
        }
        Value::List(items) => {
            for item in items {
                discard_nulls(item, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A type whose `items` merge by `name` and whose `tags` merge as a set; every object
    /// inside is the same type.
    struct Flat;

    impl PatchMeta for Flat {
        fn lookup_struct(&self, key: &str) -> std::result::Result<(Self, FieldMeta), String> {
            let meta = match key {
                "items" => FieldMeta {
                    strategies: vec!["merge".into()],
                    merge_key: "name".into(),
                },
                "tags" => FieldMeta {
                    strategies: vec!["merge".into()],
                    merge_key: String::new(),
                },
                _ => FieldMeta::default(),
            };
            Ok((Flat, meta))
        }
        fn lookup_slice(&self, key: &str) -> std::result::Result<(Self, FieldMeta), String> {
            self.lookup_struct(key)
        }
        fn name(&self) -> String {
            "struct".into()
        }
    }

    fn items(names: impl Iterator<Item = String>) -> Value {
        Value::List(
            names
                .map(|n| {
                    let mut m = Map::new();
                    m.insert("name", Value::String(n));
                    Value::Map(m)
                })
                .collect(),
        )
    }

    fn object(field: &str, value: Value) -> Value {
        let mut m = Map::new();
        m.insert(field, value);
        Value::Map(m)
    }

    #[test]
    fn big_lists_merge_in_n_log_n() {
        // 20,000 items each side, half of them new, in another order; Go's scans would make
        // this 10^8 comparisons and more.
        let n = 20_000;
        let original = object("items", items((0..n).map(|i| format!("i{i}"))));
        let mut patch = Map::new();
        patch.insert("items", items((0..n).rev().map(|i| format!("i{}", i * 2))));
        // The order names every item, the patch's in the patch's order.
        patch.insert(
            "$setElementOrder/items",
            items((0..2 * n).rev().map(|i| format!("i{i}"))),
        );
        let start = std::time::Instant::now();
        let merged = strategic(&original, &Value::Map(patch), &Flat).unwrap();
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
        let list = merged
            .as_map()
            .unwrap()
            .get("items")
            .unwrap()
            .as_list()
            .unwrap();
        assert_eq!(list.len(), n + n / 2);

        let tags = |r: std::ops::Range<usize>| {
            Value::List(r.map(|i| Value::String(format!("t{}", i % 5000))).collect())
        };
        let original = object("tags", tags(0..n));
        let patch = object("tags", tags(n..2 * n));
        let start = std::time::Instant::now();
        let merged = strategic(&original, &patch, &Flat).unwrap();
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
        let list = merged
            .as_map()
            .unwrap()
            .get("tags")
            .unwrap()
            .as_list()
            .unwrap();
        assert_eq!(list.len(), 5000);
    }

    #[test]
    fn deduplicate_moves_the_last_item_into_each_duplicate() {
        // Go's loop on [a b a c b]: the second a takes b's place (the last), then b repeats.
        let s = |t: &str| Value::String(t.into());
        let out = deduplicate(vec![s("a"), s("b"), s("a"), s("c"), s("b")]).unwrap();
        assert_eq!(out, vec![s("a"), s("b"), s("c")]);
        let out = deduplicate(vec![s("x"), s("y"), s("x"), s("z"), s("w")]).unwrap();
        assert_eq!(out, vec![s("x"), s("y"), s("w"), s("z")]);
    }

    fn nested(depth: usize, leaf: Value) -> Value {
        let mut v = leaf;
        for i in 0..depth {
            // Alternate objects and merged lists, the two ways the merge recurses.
            v = if i % 2 == 0 {
                object("a", v)
            } else {
                let mut item = Map::new();
                item.insert("name", Value::String("n".into()));
                item.insert("x", v);
                object("items", Value::List(vec![Value::Map(item)]))
            };
        }
        v
    }

    #[test]
    fn nesting_to_the_limit_and_beyond() {
        // Run where the tests run, on a 2 MiB thread, unoptimised.
        let run = |depth: usize| {
            std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || {
                    let original = nested(depth, Value::Int(1));
                    let patch = nested(depth, Value::Int(2));
                    strategic(&original, &patch, &Flat).map(|_| ())
                })
                .unwrap()
                .join()
                .unwrap()
        };
        // An object level counts one, a merged list three (the list, its item, its `x`).
        assert_eq!(run(MAX_MERGE_DEPTH / 2 - 2), Ok(()));
        assert_eq!(
            run(MAX_MERGE_DEPTH * 2),
            Err(PatchError::TooDeep {
                max: MAX_MERGE_DEPTH
            })
        );
    }
}
