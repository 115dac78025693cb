//! The scheme's defaulting of built-in objects, as `k8s.io/kubernetes` v1.37.2 applies it to a
//! body it decoded (the `SetObjectDefaults_*` functions `defaulter-gen` generates into each
//! `pkg/apis/<group>/<version>/zz_generated.defaults.go`), at the default feature gates.
//!
//! One mechanism covers every kind: the object is walked by the embedded schema's type names
//! (`io.k8s.api.core.v1.PodSpec` is the Go type `PodSpec` of `k8s.io/api/core/v1`), and at each
//! value of a type that has defaulting, pre-order as the generated code does, the type's
//! `SetDefaults_*` function runs first, then the `+default=` markers of its fields. The
//! functions are Rust functions in one module per API group, each citing its Go source; the
//! markers are a table generated from the Go sources (`markers`, written by `smd-scheme
//! markers`). Each group module also says, for every kind and version the server serves,
//! whether it has defaulting, so that a test can fail on a kind nobody looked at.
//!
//! The walk expects the object as the round trip through the Go type left it: a non-pointer
//! struct is present (as `{}` when empty), an empty `omitempty` field is absent.

mod admissionregistration;
mod apps;
mod autoscaling;
mod batch;
mod core;
mod extensions;
mod flowcontrol;
mod markers;
mod networking;
mod others;
mod quantity;
mod rbac;
mod resource;
mod storage;

use std::collections::HashMap;
use std::sync::OnceLock;

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;
use smd_schema::Schema;
use smd_schema::TypeRef;
use smd_schema::gvk::GroupVersionKind;

/// A `+default=` marker on a field of a Go struct: the generated defaulter sets the field to
/// `value` when it holds its zero value (for a pointer, when it is nil).
#[derive(Debug)]
pub(super) struct Marker {
    /// The OpenAPI name of the struct holding the field.
    pub(super) type_name: &'static str,
    /// The field's JSON name.
    pub(super) field: &'static str,
    /// The default, as JSON.
    pub(super) value: &'static str,
    /// Whether the Go field is a pointer (nil is its only zero; an explicit `0` or `""` stays).
    pub(super) pointer: bool,
    /// Where the marker is, in k8s.io/api.
    pub(super) source: &'static str,
}

/// A `SetDefaults_*` function of one Go type, applied to a value of that type.
pub(super) struct Function {
    /// The OpenAPI name of the type.
    pub(super) type_name: &'static str,
    /// The function, on the object's map.
    pub(super) apply: fn(&mut Map),
    /// Its Go source (`pkg/apis/core/v1/defaults.go:123`, in k8s.io/kubernetes v1.37.2).
    pub(super) source: &'static str,
}

/// What the scheme does to a kind and version the server serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defaulting {
    /// It has `SetDefaults_*` functions or `+default` markers somewhere in its tree, all of
    /// them implemented here.
    Defaults,
    /// Its tree has no defaulting at all (no `SetObjectDefaults_*` function for it).
    None,
    /// It has defaulting that is not implemented here; the text says what.
    Missing(&'static str),
    /// It has defaulting, all of it implemented here, part of it from the server's clock (the
    /// text says which): [`default_at`] does all of it, [`default`] all but that part.
    Clocked(&'static str),
}

/// One kind and version of a group, and what its defaulting is.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// The API group (`""` for the core group).
    pub group: &'static str,
    /// The version.
    pub version: &'static str,
    /// The kind.
    pub kind: &'static str,
    /// Its defaulting.
    pub defaulting: Defaulting,
}

/// Every kind and version the tables know, group by group.
pub fn kinds() -> impl Iterator<Item = &'static Kind> {
    [
        core::KINDS,
        apps::KINDS,
        batch::KINDS,
        autoscaling::KINDS,
        networking::KINDS,
        rbac::KINDS,
        storage::KINDS,
        admissionregistration::KINDS,
        flowcontrol::KINDS,
        resource::KINDS,
        others::KINDS,
        extensions::KINDS,
    ]
    .into_iter()
    .flatten()
}

/// What the tables say about `kind`, or `None` when no table names it.
pub fn coverage(kind: &GroupVersionKind) -> Option<Defaulting> {
    kinds()
        .find(|k| k.group == kind.group && k.version == kind.version && k.kind == kind.kind)
        .map(|k| k.defaulting)
}

fn functions() -> impl Iterator<Item = &'static Function> {
    [
        core::FUNCTIONS,
        apps::FUNCTIONS,
        batch::FUNCTIONS,
        autoscaling::FUNCTIONS,
        networking::FUNCTIONS,
        rbac::FUNCTIONS,
        storage::FUNCTIONS,
        admissionregistration::FUNCTIONS,
        flowcontrol::FUNCTIONS,
        resource::FUNCTIONS,
        others::FUNCTIONS,
        extensions::FUNCTIONS,
    ]
    .into_iter()
    .flatten()
}

/// Where the defaulting of the type `type_name` (an OpenAPI name such as
/// `io.k8s.api.core.v1.PodSpec`) comes from: the Go functions (`pkg/apis/...:LINE` of
/// k8s.io/kubernetes v1.37.2) and `+default=` markers (`k8s.io/api/...:LINE`), in the order
/// they apply.
pub fn sources(type_name: &str) -> Vec<&'static str> {
    functions()
        .filter(|f| f.type_name == type_name)
        .map(|f| f.source)
        .chain(
            markers::MARKERS
                .iter()
                .filter(|m| m.type_name == type_name)
                .map(|m| m.source),
        )
        .collect()
}

/// The scheme's defaulting of `kind` applied to `object` (a body after the round trip through
/// its Go type), with no clock: a field the server sets to the current time
/// (`DeviceTaint.timeAdded`) is left unset; [`default_at`] sets it. Kinds the embedded schema
/// does not know are left alone.
pub fn default(kind: &GroupVersionKind, object: &mut Value) {
    run(kind, object, None);
}

/// [`default`], with the server's clock: `now` is the current time as the server writes a
/// `metav1.Time` (RFC 3339, whole seconds, UTC: `2026-12-03T17:00:00Z`), given to the fields
/// `SetDefaults_*` functions set from `time.Now()`.
pub fn default_at(kind: &GroupVersionKind, object: &mut Value, now: &str) {
    run(kind, object, Some(now));
}

fn run(kind: &GroupVersionKind, object: &mut Value, now: Option<&str>) {
    let Some(type_name) = smd_schema::kubernetes::v1_37_gvk().get(kind) else {
        return;
    };
    let schema = smd_schema::kubernetes::v1_37();
    let tr = schema.type_ref(type_name);
    walk(schema, &tr, object, now, 0);
}

/// Deeper than any built-in type nests; a bound so a hostile body cannot exhaust the stack.
const MAX_DEPTH: usize = 64;

fn walk(schema: &Schema, tr: &TypeRef, value: &mut Value, now: Option<&str>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    if let (Some(name), Value::Map(map)) = (tr.named_type(), &mut *value) {
        apply_type(name, map, now);
    }
    let Some(atom) = schema.resolve(tr) else {
        return;
    };
    let atom = atom.atom();
    match value {
        Value::Map(map) => {
            let Some(map_type) = atom.as_map() else {
                return;
            };
            // Each child is defaulted as a copy (which shares its contents) and put back only
            // when that changed it: a map shared with another value (what the server stored,
            // the object it was read from) is copied only where defaulting writes, not
            // wherever the walk passes.
            let mut changed = Vec::new();
            for (key, child) in map.iter() {
                // Only a map is defaulted, so a scalar needs no walk.
                if !matches!(child, Value::Map(_) | Value::List(_)) {
                    continue;
                }
                let field_type = match map_type.find_field(key) {
                    Some(field) => field.type_ref(),
                    None if map_type.fields().is_empty() => match map_type.element_type() {
                        Some(element) => element,
                        None => continue,
                    },
                    None => continue,
                };
                let mut copy = child.clone();
                walk(schema, field_type, &mut copy, now, depth + 1);
                if !unchanged(child, &copy) {
                    changed.push((key.to_owned(), copy));
                }
            }
            for (key, value) in changed {
                if let Some(slot) = map.get_mut(&key) {
                    *slot = value;
                }
            }
        }
        Value::List(items) => {
            let Some(list) = atom.as_list() else {
                return;
            };
            for item in items.iter_mut() {
                walk(schema, list.element_type(), item, now, depth + 1);
            }
        }
        _ => {}
    }
}

/// Whether `after`, a copy of `before` that the walk may have changed, is still `before`. A
/// map changed through a copy has been copied (its entries moved to a new place), since its
/// contents were shared with `before`, so a map is compared by where its entries are.
fn unchanged(before: &Value, after: &Value) -> bool {
    match (before, after) {
        (Value::Map(a), Value::Map(b)) => {
            a.len() == b.len()
                && match (a.values().next(), b.values().next()) {
                    (Some(x), Some(y)) => std::ptr::eq(x, y),
                    (None, None) => true,
                    _ => false,
                }
        }
        (Value::List(a), Value::List(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| unchanged(x, y))
        }
        _ => before == after,
    }
}

/// The defaulting of one type: its functions, then its fields' markers.
#[derive(Default)]
struct TypeDefaulting {
    functions: Vec<fn(&mut Map)>,
    markers: Vec<(&'static Marker, Value)>,
    /// Fields set from the clock when nil.
    clocked: Vec<&'static str>,
}

/// The tables by type name, built once: the walk looks every named type up (a few hundred
/// lookups per object, so hashed with foldhash, seeded per process, not SipHash).
type ByType = HashMap<&'static str, TypeDefaulting, foldhash::fast::RandomState>;

/// The tables by type name, built once.
fn by_type() -> &'static ByType {
    static BY_TYPE: OnceLock<ByType> = OnceLock::new();
    BY_TYPE.get_or_init(|| {
        let mut out = ByType::default();
        for f in functions() {
            out.entry(f.type_name).or_default().functions.push(f.apply);
        }
        // A marker whose value is not JSON cannot be generated (smd-scheme checks it) and a
        // unit test checks every one parses.
        for m in markers::MARKERS {
            if let Ok(value) = Value::from_json(m.value) {
                out.entry(m.type_name).or_default().markers.push((m, value));
            }
        }
        for (type_name, field) in resource::CLOCKED {
            out.entry(type_name).or_default().clocked.push(field);
        }
        out
    })
}

/// A type's own defaulting: its function(s), then its fields' markers, as the generated code
/// orders them.
fn apply_type(type_name: &str, map: &mut Map, now: Option<&str>) {
    let Some(defaulting) = by_type().get(type_name) else {
        return;
    };
    for function in &defaulting.functions {
        function(map);
    }
    if let Some(now) = now {
        for field in &defaulting.clocked {
            default_nil(map, field, string(now));
        }
    }
    for (marker, value) in &defaulting.markers {
        apply_marker(marker, value, map);
    }
}

fn apply_marker(marker: &Marker, default: &Value, map: &mut Map) {
    if marker.pointer {
        if is_nil(map, marker.field) {
            map.insert(marker.field, default.clone());
        }
    } else if !is_go_zero(default) && is_zero(map, marker.field) {
        // A zero default on a non-pointer field changes nothing the encoder writes.
        map.insert(marker.field, default.clone());
    }
}

fn is_go_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Float(f) => *f == 0.0,
        Value::String(s) => s.is_empty(),
        Value::List(_) | Value::Map(_) => false,
    }
}

// Helpers the group modules share. A field the round trip left out is Go's zero value: an
// `omitempty` string, number or bool, or a nil pointer, map or slice.

/// Whether `key` is nil in Go: absent or null.
pub(super) fn is_nil(map: &Map, key: &str) -> bool {
    map.get(key).is_none_or(Value::is_null)
}

/// Whether `key` holds Go's zero value: absent, null, `""`, `0` or `false`.
pub(super) fn is_zero(map: &Map, key: &str) -> bool {
    map.get(key).is_none_or(is_go_zero)
}

/// Whether `key` is an empty (or absent) map or list: Go's `len(x) == 0`.
pub(super) fn is_empty(map: &Map, key: &str) -> bool {
    match map.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::Map(m)) => m.is_empty(),
        Some(Value::List(l)) => l.is_empty(),
        Some(Value::String(s)) => s.is_empty(),
        Some(_) => false,
    }
}

/// Sets `key` to `value` when it is nil.
pub(super) fn default_nil(map: &mut Map, key: &str, value: Value) {
    if is_nil(map, key) {
        map.insert(key, value);
    }
}

/// Sets `key` to `value` when it holds its zero value.
pub(super) fn default_zero(map: &mut Map, key: &str, value: Value) {
    if is_zero(map, key) {
        map.insert(key, value);
    }
}

/// The string at `key`, or `""`.
pub(super) fn str_of<'a>(map: &'a Map, key: &str) -> &'a str {
    map.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The map at `key`, made present (`{}`) when absent or null: a Go struct reached through a
/// non-pointer field, or a pointer the function allocates.
pub(super) fn map_at<'a>(map: &'a mut Map, key: &str) -> Option<&'a mut Map> {
    if is_nil(map, key) {
        map.insert(key, Value::Map(Map::new()));
    }
    map.get_mut(key).and_then(Value::as_map_mut)
}

/// The map at `key` when it is present as a map (a non-nil pointer).
pub(super) fn map_mut<'a>(map: &'a mut Map, key: &str) -> Option<&'a mut Map> {
    map.get_mut(key).and_then(Value::as_map_mut)
}

/// The maps of the list at `key`.
pub(super) fn list_maps<'a>(map: &'a mut Map, key: &str) -> impl Iterator<Item = &'a mut Map> {
    map.get_mut(key)
        .and_then(Value::as_list_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_map_mut)
}

pub(super) fn string(s: &str) -> Value {
    Value::String(s.to_owned())
}

#[cfg(test)]
mod tests;
