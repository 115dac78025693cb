//! Pruning: the fields a structural schema does not declare removed from an object
//! (apiextensions-apiserver v0.37.2 `pkg/apiserver/schema/pruning/algorithm.go`), the `null`s
//! that can never be valid removed (`defaulting/prunenulls.go`), and the defaults of a schema
//! pruned as the server prunes them before serving it (`defaulting/prune.go`).

use smd_fieldpath::Value;

use super::structural::{Member, Structural};

/// The fields of an object's type and metadata, which a resource (the root, or an embedded
/// one) keeps whatever its schema says.
const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// The paths of the fields pruned, as the server names them in its warnings
/// (`spec.items[0].bogus`: keys joined by `.`, indices in brackets), when asked for.
pub(crate) struct Unknown {
    track: bool,
    path: String,
    pub(crate) found: Vec<String>,
}

impl Unknown {
    pub(crate) fn new(track: bool) -> Unknown {
        Unknown {
            track,
            path: String::new(),
            found: Vec::new(),
        }
    }

    /// The path so far with `key` appended; returns the length to cut back to.
    fn push_key(&mut self, key: &str) -> usize {
        let len = self.path.len();
        if self.track {
            if !self.path.is_empty() {
                self.path.push('.');
            }
            self.path.push_str(key);
        }
        len
    }

    fn push_index(&mut self, i: usize) -> usize {
        let len = self.path.len();
        if self.track {
            self.path.push_str(&format!("[{i}]"));
        }
        len
    }

    fn record(&mut self, key: &str) {
        if self.track {
            let len = self.push_key(key);
            self.found.push(self.path.clone());
            self.path.truncate(len);
        }
    }
}

/// Removes from `x` every field `schema` does not declare, `x` being a whole resource (whose
/// type and metadata are kept); `None` is a version without a schema. The paths pruned are
/// recorded in `unknown`, sorted as the server sorts them (as strings: `[10]` before `[2]`).
pub(crate) fn prune_resource(x: &mut Value, schema: Option<&Structural>, unknown: &mut Unknown) {
    let empty = Structural::default();
    prune(x, Some(schema.unwrap_or(&empty)), true, unknown);
    unknown.found.sort();
}

/// `prune`: `embedded` says that `x` is a resource (its schema's marker, or the root).
fn prune(x: &mut Value, schema: Option<&Structural>, embedded: bool, unknown: &mut Unknown) {
    if let Some(s) = schema
        && s.preserve_unknown
    {
        skip_prune(x, s, embedded, unknown);
        return;
    }
    match x {
        Value::Map(map) => {
            let Some(s) = schema else {
                let keys: Vec<String> = map.keys().map(str::to_owned).collect();
                for k in &keys {
                    unknown.record(k);
                }
                *map = smd_fieldpath::Map::new();
                return;
            };
            let mut gone = Vec::new();
            for (k, v) in map.iter_mut() {
                if embedded && META_FIELDS.contains(&k) {
                    continue;
                }
                match s.member(k) {
                    Member::Declared(child) => {
                        let len = unknown.push_key(k);
                        prune(v, child, child.is_some_and(|c| c.embedded), unknown);
                        unknown.path.truncate(len);
                    }
                    Member::Unknown => {
                        // A root's type and metadata are the resource's own, never unknown.
                        if !META_FIELDS.contains(&k) || !unknown.path.is_empty() {
                            unknown.record(k);
                        }
                        gone.push(k.to_owned());
                    }
                }
            }
            for k in &gone {
                map.remove(k);
            }
        }
        Value::List(items) => {
            let child = schema.and_then(|s| s.items.as_deref());
            for (i, v) in items.iter_mut().enumerate() {
                let len = unknown.push_index(i);
                prune(v, child, child.is_some_and(|c| c.embedded), unknown);
                unknown.path.truncate(len);
            }
        }
        _ => {}
    }
}

/// Below `x-kubernetes-preserve-unknown-fields`: undeclared fields stay, declared ones are
/// pruned by their own schema.
fn skip_prune(x: &mut Value, s: &Structural, embedded: bool, unknown: &mut Unknown) {
    match x {
        Value::Map(map) => {
            for (k, v) in map.iter_mut() {
                if embedded && META_FIELDS.contains(&k) {
                    continue;
                }
                if let Member::Declared(child) = s.member(k) {
                    let len = unknown.push_key(k);
                    prune(v, child, child.is_some_and(|c| c.embedded), unknown);
                    unknown.path.truncate(len);
                }
            }
        }
        Value::List(items) => {
            let Some(child) = s.items.as_deref() else {
                return;
            };
            for (i, v) in items.iter_mut().enumerate() {
                let len = unknown.push_index(i);
                skip_prune(v, child, child.embedded, unknown);
                unknown.path.truncate(len);
            }
        }
        _ => {}
    }
}

/// `PruneNonNullableNullsWithoutDefaults`: a map member that is `null` where its schema is
/// neither nullable nor defaulted is removed (a defaulted one is left for the defaulting).
/// List items are never removed.
pub(crate) fn prune_nulls(x: &mut Value, schema: Option<&Structural>) {
    match x {
        Value::Map(map) => {
            let mut gone = Vec::new();
            for (k, v) in map.iter_mut() {
                let child = schema.and_then(|s| s.field(k));
                let never_valid =
                    v.is_null() && child.is_some_and(|c| !c.nullable && c.default.is_none());
                if never_valid {
                    gone.push(k.to_owned());
                } else {
                    prune_nulls(v, child);
                }
            }
            for k in &gone {
                map.remove(k);
            }
        }
        Value::List(items) => {
            let child = schema.and_then(|s| s.items.as_deref());
            for v in items.iter_mut() {
                prune_nulls(v, child);
            }
        }
        _ => {}
    }
}

/// `PruneDefaults`: each default pruned as a value at its place would be (the fields its
/// schema lacks removed, embedded resources' metadata coerced), except below a resource's
/// type and metadata, which pruning never enters.
pub(crate) fn prune_defaults(schema: &mut Structural) {
    prune_defaults_at(schema, false, 0);
}

fn prune_defaults_at(s: &mut Structural, in_meta: bool, depth: usize) {
    if depth >= smd_fieldpath::MAX_DEPTH {
        return;
    }
    if !in_meta && let Some(mut default) = s.default.take() {
        let view = s.clone();
        prune(
            &mut default,
            Some(&view),
            view.embedded,
            &mut Unknown::new(false),
        );
        // Embedded resources inside the default get their metadata coerced, dropping what
        // does not decode.
        let _ = super::objectmeta::coerce(&mut default, Some(&view), true, &mut Vec::new());
        s.default = Some(default);
    }
    if let Some(Some(a)) = s.additional.as_mut() {
        prune_defaults_at(a, in_meta, depth + 1);
    }
    if let Some(items) = s.items.as_mut() {
        prune_defaults_at(items, in_meta, depth + 1);
    }
    let embedded = s.embedded;
    for (k, p) in s.properties.iter_mut() {
        let meta = in_meta || (embedded && META_FIELDS.contains(&k.as_str()));
        prune_defaults_at(p, meta, depth + 1);
    }
}
