//! What ratcheting calls unchanged (apiserver v0.37.2 `cel/common` `CorrelatedObject`): a
//! value is compared with the one it replaces through the schema, map members by name where
//! the schema declares them, items of `x-kubernetes-list-type: map` lists by their keys, other
//! lists and scalars as Go's `reflect.DeepEqual` compares decoded JSON.

use std::collections::HashMap;

use smd_fieldpath::Value;

use super::schema::Node;

/// The comparisons made so far in one validation, by the addresses of the schema and the two
/// values (maps are shared, so one address may sit at two places of a tree): an ancestor asks
/// again of what a descendant already answered (Go caches them in its tree of correlated
/// nodes), so that the walk stays linear.
#[derive(Default)]
pub(crate) struct Correlation {
    memo: HashMap<(usize, usize, usize), bool>,
}

impl Correlation {
    /// `CachedDeepEqual`: whether `new` is `old`, as ratcheting sees it.
    pub(crate) fn equal(&mut self, s: &Node, new: &Value, old: &Value) -> bool {
        let at = (
            std::ptr::from_ref(s) as usize,
            std::ptr::from_ref(new) as usize,
            std::ptr::from_ref(old) as usize,
        );
        if let Some(&known) = self.memo.get(&at) {
            return known;
        }
        let answer = self.compare(s, new, old);
        self.memo.insert(at, answer);
        answer
    }

    fn compare(&mut self, s: &Node, new: &Value, old: &Value) -> bool {
        match (new, old) {
            (Value::Null, Value::Null) => true,
            (Value::List(n), Value::List(o)) => {
                if n.len() != o.len() {
                    return false;
                }
                if n.is_empty() {
                    return true;
                }
                let Some(olds) = self.list_items(s, n, old) else {
                    // Items that cannot be paired are compared as a whole.
                    return deep_equal(new, old);
                };
                let Some(items) = &s.items else {
                    return false;
                };
                n.iter()
                    .zip(olds)
                    .all(|(item, o)| o.is_some_and(|o| self.equal(items, item, o)))
            }
            (Value::Map(n), Value::Map(o)) => {
                n.len() == o.len()
                    && n.iter().all(|(k, v)| match (o.get(k), s.member(k)) {
                        (Some(ov), Some(ks)) => self.equal(ks, v, ov),
                        _ => false,
                    })
            }
            (Value::List(_) | Value::Map(_), _) | (_, Value::List(_) | Value::Map(_)) => false,
            _ => deep_equal(new, old),
        }
    }

    /// The old item each of a map list's items is paired with (the first old item with the
    /// same keys); `None` when the list's items are not paired (not a map list, or `old` not a
    /// list).
    pub(crate) fn list_items<'o>(
        &self,
        s: &Node,
        items: &[Value],
        old: &'o Value,
    ) -> Option<Vec<Option<&'o Value>>> {
        let old_items = old.as_list()?;
        if s.checks.list_type.as_deref() != Some("map") {
            return None;
        }
        let keyed = s.types.len() == 1 && s.has_type("array") && !s.checks.map_keys.is_empty();
        if !keyed || old_items.is_empty() {
            return Some(vec![None; items.len()]);
        }
        let mut by_key: HashMap<Vec<KeyPart>, &'o Value> = HashMap::new();
        for o in old_items {
            if let Some(k) = item_key(&s.checks.map_keys, o) {
                by_key.entry(k).or_insert(o);
            }
        }
        Some(
            items
                .iter()
                .map(|i| item_key(&s.checks.map_keys, i).and_then(|k| by_key.get(&k).copied()))
                .collect(),
        )
    }
}

/// One key's value as Go's map list tells keys apart: scalars only; a float by value when it
/// is the only key, by its `%f` text among several.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum KeyPart {
    Bool(bool),
    Int(i64),
    Float(u64),
    FloatText(String),
    Str(String),
}

fn item_key(keys: &[String], item: &Value) -> Option<Vec<KeyPart>> {
    let map = item.as_map()?;
    let single = keys.len() == 1;
    keys.iter()
        .map(|k| match map.get(k)? {
            Value::Bool(b) => Some(KeyPart::Bool(*b)),
            Value::Int(i) => Some(KeyPart::Int(*i)),
            Value::Float(f) if single => {
                Some(KeyPart::Float(if *f == 0.0 { 0 } else { f.to_bits() }))
            }
            Value::Float(f) => Some(KeyPart::FloatText(format!("{f:.6}"))),
            Value::String(s) => Some(KeyPart::Str(s.clone())),
            _ => None,
        })
        .collect()
}

/// `reflect.DeepEqual` of two decoded JSON values: an integer is never a float.
pub(crate) fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| deep_equal(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| deep_equal(v, w)))
        }
        _ => false,
    }
}
