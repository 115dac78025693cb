//! Equality and total order of values, as Go's `value.Equals` and `value.Compare`.
//!
//! Ints and floats are one kind of number here: `Int(1) == Float(1.0)` and they compare equal.
//! Equality of floats is IEEE (`NaN != NaN`), but the order is Go's `FloatCompare`, which calls NaN
//! equal to every number — so the order is not a total order in the presence of NaN, which is why
//! `Value` implements neither `Eq` nor `Ord`.

use super::{Map, Value};
use smallvec::SmallVec;
use std::cmp::Ordering;

impl Value {
    /// Go's `value.Compare`: the order of set members and key values, and so of `fieldsV1`.
    ///
    /// Kinds sort numbers < string < bool < list < map < null. Numbers compare by value, ints and
    /// floats together (an int is converted to float64 when the other side is a float; NaN is
    /// equal to every number); strings compare byte-wise; `false < true`; lists compare
    /// element by element, a prefix first; maps compare over the sorted union of their keys, as
    /// follows.
    ///
    /// ```
    /// use smd_value::Value;
    /// use std::cmp::Ordering::*;
    /// assert_eq!(Value::Int(2).compare(&Value::Float(1.5)), Greater);
    /// assert_eq!(Value::Float(1e300).compare(&Value::from("")), Less);
    /// assert_eq!(Value::from("a").compare(&Value::Bool(false)), Less);
    /// assert_eq!(Value::Null.compare(&Value::List(vec![])), Greater);
    /// ```
    ///
    /// Two maps are compared by walking the union of their keys in byte order, stopping at the
    /// first difference: when one map's keys are all used up and equal to the other's so far, that
    /// map is smaller; otherwise a key present on only one side makes that side *greater*
    /// (`{"b":1} > {"a":1,"b":1}`, `{"a":1} < {"a":1,"b":2}`); a key on both sides compares its
    /// values.
    pub fn compare(&self, other: &Value) -> Ordering {
        use Value::*;
        match (self, other) {
            (Float(a), Float(b)) => float_compare(*a, *b),
            (Float(a), Int(b)) => float_compare(*a, *b as f64),
            (Int(a), Float(b)) => float_compare(*a as f64, *b),
            (Int(a), Int(b)) => a.cmp(b),
            (String(a), String(b)) => a.as_bytes().cmp(b.as_bytes()),
            (Bool(a), Bool(b)) => a.cmp(b),
            (List(a), List(b)) => compare_lists(a, b),
            (Map(a), Map(b)) => compare_maps(a, b),
            (Null, Null) => Ordering::Equal,
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

/// The place of a value's kind in Go's order; ints and floats share one.
fn rank(v: &Value) -> u8 {
    match v {
        Value::Int(_) | Value::Float(_) => 0,
        Value::String(_) => 1,
        Value::Bool(_) => 2,
        Value::List(_) => 3,
        Value::Map(_) => 4,
        Value::Null => 5,
    }
}

/// Go's `FloatCompare`: greater, less, or else equal (which includes every comparison with NaN).
fn float_compare(a: f64, b: f64) -> Ordering {
    if a > b {
        Ordering::Greater
    } else if a < b {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

fn compare_lists(a: &[Value], b: &[Value]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let c = x.compare(y);
        if c != Ordering::Equal {
            return c;
        }
    }
    a.len().cmp(&b.len())
}

/// A map's entries in byte order of the keys, without allocating for small maps.
fn sorted_entries(m: &Map) -> SmallVec<[(&str, &Value); 8]> {
    let mut entries: SmallVec<[(&str, &Value); 8]> = m.iter().collect();
    entries.sort_unstable_by(|x, y| x.0.cmp(y.0));
    entries
}

/// Go's `MapCompareUsing`. Go walks the sorted union of both key sets and stops at the first key
/// that is missing on one side or whose values differ; a side whose keys run out first is smaller,
/// and at a key only one side has, the side that lacks it is greater. That is exactly the
/// lexicographic order of the two sorted `(key, value)` sequences, keys compared first.
fn compare_maps(a: &Map, b: &Map) -> Ordering {
    if a.keys().is_sorted() && b.keys().is_sorted() {
        compare_entries(a.iter(), b.iter())
    } else {
        compare_entries(sorted_entries(a).into_iter(), sorted_entries(b).into_iter())
    }
}

fn compare_entries<'a>(
    mut left: impl Iterator<Item = (&'a str, &'a Value)>,
    mut right: impl Iterator<Item = (&'a str, &'a Value)>,
) -> Ordering {
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some((lk, lv)), Some((rk, rv))) => {
                let c = lk
                    .as_bytes()
                    .cmp(rk.as_bytes())
                    .then_with(|| lv.compare(rv));
                if c != Ordering::Equal {
                    return c;
                }
            }
        }
    }
}

impl PartialEq for Value {
    /// Go's `value.Equals`: when either side is a float both must be numbers and are compared as
    /// float64 (`Int(1) == Float(1.0)`, `NaN != NaN`); lists are equal element by element in
    /// order; maps when they have the same keys with equal values, in any order.
    fn eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Float(a), Float(b)) => a == b,
            (Float(a), Int(b)) | (Int(b), Float(a)) => *a == *b as f64,
            (Int(a), Int(b)) => a == b,
            (String(a), String(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (List(a), List(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y),
            (Map(a), Map(b)) => a == b,
            (Null, Null) => true,
            _ => false,
        }
    }
}

impl PartialOrd for Value {
    /// `Some(self.compare(other))`: Go's order, which is defined for every pair of values. Note
    /// that it can disagree with `==` on NaN (`Float(NaN)` compares equal but is not `==`), and
    /// `Int(1) == Float(1.0)` compare equal though they are different variants.
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.compare(other))
    }
}

impl PartialEq for Map {
    /// Same keys with equal values ([`Value`]'s equality), in any order.
    fn eq(&self, other: &Map) -> bool {
        if self.len() != other.len() {
            return false;
        }
        // Maps that are equal usually list their keys in the same order (one came from the
        // other): walk both in step, and look keys up only from the first difference in order.
        for (i, ((ka, va), (kb, vb))) in self.iter().zip(other.iter()).enumerate() {
            if ka != kb {
                // Keys are unique and the first `i` matched pairwise: the rest of `other` must
                // be found in `self`.
                return other
                    .iter()
                    .skip(i)
                    .all(|(k, y)| self.get(k).is_some_and(|x| x == y));
            }
            if va != vb {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use Ordering::*;

    fn map(entries: &[(&str, Value)]) -> Value {
        Value::Map(
            entries
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn maps_follow_go() {
        let one = Value::Int(1);
        let two = Value::Int(2);
        let a1 = map(&[("a", one.clone())]);
        let b1 = map(&[("b", one.clone())]);
        let a1b2 = map(&[("a", one.clone()), ("b", two.clone())]);
        let a1b1 = map(&[("b", one.clone()), ("a", one.clone())]);
        let empty = map(&[]);
        assert_eq!(a1.compare(&b1), Less);
        assert_eq!(a1.compare(&a1b2), Less);
        assert_eq!(b1.compare(&a1b1), Greater);
        assert_eq!(a1b1.compare(&b1), Less);
        assert_eq!(empty.compare(&a1), Less);
        assert_eq!(Value::List(vec![]).compare(&empty), Less);
        assert_eq!(Value::Null.compare(&empty), Greater);
        // {a:1,c:1} vs {b:1}: at "a" the right side lacks the key.
        let a1c1 = map(&[("a", one.clone()), ("c", one.clone())]);
        assert_eq!(a1c1.compare(&b1), Less);
        assert_eq!(b1.compare(&a1c1), Greater);
    }

    #[test]
    fn nan() {
        let nan = Value::Float(f64::NAN);
        assert_eq!(nan.compare(&Value::Int(3)), Equal);
        assert_eq!(Value::Int(3).compare(&nan), Equal);
        assert_ne!(nan, nan);
        assert_eq!(nan.compare(&Value::from("x")), Less);
    }

    #[test]
    fn equality() {
        assert_eq!(Value::Int(1), Value::Float(1.0));
        assert_ne!(Value::Int(1), Value::from("1"));
        assert_eq!(
            map(&[("a", Value::Int(1)), ("b", Value::Null)]),
            map(&[("b", Value::Null), ("a", Value::Float(1.0))])
        );
        assert_ne!(Value::List(vec![Value::Int(1)]), Value::List(vec![]));
        assert_eq!(Value::Float(-0.0), Value::Int(0));
    }
}
