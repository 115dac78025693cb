//! The field set of a value without a schema (Go's `SetFromValue`).
//!
//! Every scalar or null at a non-empty path is a member. Maps are walked by field name; list
//! items by a guessed key: a map item is keyed by whichever of `key`, `id` and `name` it has with
//! a scalar value, any other item by its index.
//!
//! ```
//! use smd_fieldpath::{Set, Value};
//! let value = smd_fieldpath::yaml::from_str("containers:\n- name: app\n  image: nginx\n").unwrap();
//! let set = Set::from_value(&value);
//! assert_eq!(set.to_string(), ".containers[name=\"app\"].image\n.containers[name=\"app\"].name");
//! ```

use crate::element::{Key, KeyField, PathElement};
use crate::name::Name;
use crate::set::{NodeBuilder, Repeat, Set};
use crate::value::Value;

/// The fields whose scalar values make a map item's key. Go tries `key`, `id`, `name` and sorts
/// what it finds by name; keeping them sorted here gives the same key directly.
const KEY_CANDIDATES: [&str; 3] = ["id", "key", "name"];

impl Set {
    /// Every leaf of `value`, with list items keyed by a guess; see the module documentation.
    pub fn from_value(value: &Value) -> Set {
        match node(value) {
            Node::Inner(set) => set,
            // The empty path is never a member.
            Node::Leaf | Node::Empty => Set::new(),
        }
    }
}

/// What lies at one path of the value, for the set.
enum Node {
    /// A scalar or null: the path is a member.
    Leaf,
    /// A map or list with no leaf below it: Go inserts nothing, so no node either.
    Empty,
    Inner(Set),
}

/// The node for `value`, built bottom-up: each map or list becomes one node from its elements
/// at once (one sort), where inserting leaf by leaf from the root (Go's way) would shift a
/// node's elements once per arrival when they do not arrive in order.
fn node(value: &Value) -> Node {
    let mut builder = NodeBuilder::default();
    match value {
        Value::List(items) => {
            for (index, item) in items.iter().enumerate() {
                add(&mut builder, guess_list_element(index, item), item);
            }
        }
        Value::Map(map) => {
            for (name, field) in map.iter() {
                add(&mut builder, PathElement::Field(Name::from(name)), field);
            }
        }
        _ => return Node::Leaf,
    }
    if builder.is_empty() {
        return Node::Empty;
    }
    // Two items guessed to one element share a node, as Go's inserts descend into one child.
    Node::Inner(builder.finish(Repeat::Unite))
}

fn add(builder: &mut NodeBuilder, element: PathElement, value: &Value) {
    match node(value) {
        Node::Leaf => builder.member(element),
        Node::Empty => {}
        Node::Inner(set) => builder.child(element, set),
    }
}

fn guess_list_element(index: usize, item: &Value) -> PathElement {
    let Value::Map(map) = item else {
        return PathElement::Index(index as i64);
    };
    let fields: Vec<KeyField> = KEY_CANDIDATES
        .iter()
        .filter_map(|&name| match map.get(name)? {
            Value::Null | Value::List(_) | Value::Map(_) => None,
            scalar => Some(KeyField {
                name: Name::from(name),
                value: scalar.clone(),
            }),
        })
        .collect();
    if fields.is_empty() {
        PathElement::Index(index as i64)
    } else {
        PathElement::Key(Key::from_sorted(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value `{"items": [{"name": v}, ...]}` and the set Go's one-by-one insertion builds
    /// for it (`Set::insert` does just that).
    fn items(names: &[Value]) -> (Value, Set) {
        let list = names
            .iter()
            .map(|name| {
                let mut item = crate::Map::new();
                item.insert("name".to_string(), name.clone());
                Value::Map(item)
            })
            .collect();
        let mut map = crate::Map::new();
        map.insert("items".to_string(), Value::List(list));
        let value = Value::Map(map);
        let mut one_by_one = Set::new();
        for (index, item) in names.iter().enumerate() {
            let element = guess_list_element(index, &value_of(item));
            one_by_one.insert(&[
                PathElement::field("items"),
                element,
                PathElement::field("name"),
            ]);
        }
        (value, one_by_one)
    }

    fn value_of(name: &Value) -> Value {
        let mut item = crate::Map::new();
        item.insert("name".to_string(), name.clone());
        Value::Map(item)
    }

    #[test]
    fn reversed_keys_cost_n_log_n_and_build_what_insertion_builds() {
        let n = 20_000;
        let names: Vec<Value> = (0..n)
            .rev()
            .map(|i| Value::from(format!("i{i:06}")))
            .collect();
        let (value, one_by_one) = items(&names);
        crate::work::take();
        let set = Set::from_value(&value);
        let work = crate::work::take();
        let bound = 16 * n as u64 * (n as f64).log2() as u64;
        assert!(
            work <= bound,
            "{n} reversed items took {work} units (bound {bound})"
        );
        assert_eq!(set, one_by_one);
    }

    #[test]
    fn ints_beyond_2_53_next_to_floats_land_where_insertion_puts_them() {
        // Go's order is not total here (a float equals several ints that differ), so where an
        // element lands depends on what came before: the node is replayed one at a time.
        let big = |i: i64| Value::Int((1i64 << 53) + i);
        let mut names: Vec<Value> = (0..3000).rev().map(big).collect();
        names.insert(1000, Value::Float(9007199254740992.0 + 1024.0));
        names.insert(2000, Value::Float(9007199254740992.0 + 64.0));
        names.push(Value::Float(0.5));
        let (value, one_by_one) = items(&names);
        let set = Set::from_value(&value);
        assert_eq!(set, one_by_one);
        // A float equal to several ints swallowed the later ones, as in Go.
        assert!(set.iter().count() < names.len());
    }

    #[test]
    fn replaying_a_fragile_node_costs_less_than_quadratic() {
        // O(n·√n): a flat vector would shift n²/2 = 8·10⁸ elements, the bound is 3·10⁷.
        let n: u64 = 40_000;
        let mut names: Vec<Value> = (0..n as i64)
            .rev()
            .map(|i| Value::Int((1i64 << 53) + i))
            .collect();
        names.push(Value::Float(0.5));
        let (value, _) = items(&names[..1]);
        let Value::Map(mut map) = value else { return };
        let list = names.iter().map(value_of).collect();
        map.insert("items".to_string(), Value::List(list));
        crate::work::take();
        let set = Set::from_value(&Value::Map(map));
        let work = crate::work::take();
        let bound = 4 * n * (n.isqrt() + 20);
        assert!(
            work <= bound,
            "{n} reversed items took {work} units (bound {bound})"
        );
        assert_eq!(set.iter().count(), names.len());
    }
}
