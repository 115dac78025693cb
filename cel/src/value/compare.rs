//! Equality and ordering as cel-go's with heterogeneous numeric comparison: `1 == 1u == 1.0`,
//! `-1 < 0u`; values of unrelated types are unequal (never an error), and ordering them is
//! `no such overload`.

use super::{List, Map, Value};
use crate::error::{Error, Result};
use std::cmp::Ordering;

/// CEL's `==`.
pub fn equals(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Duration(x), Value::Duration(y)) => x == y,
        (Value::Timestamp(x), Value::Timestamp(y)) => x == y,
        (Value::Type(x), Value::Type(y)) => x == y,
        (Value::List(x), Value::List(y)) => lists_equal(x, y),
        (Value::Map(x), Value::Map(y)) => maps_equal(x, y),
        (Value::Optional(x), Value::Optional(y)) => match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => equals(x, y),
            _ => false,
        },
        (Value::Opaque(x), _) => x.equals(b),
        (_, Value::Opaque(y)) => y.equals(a),
        _ => numeric_order(a, b) == Some(Some(Ordering::Equal)),
    }
}

fn lists_equal(x: &List, y: &List) -> bool {
    for (host, other) in [(x, y), (y, x)] {
        if let List::Host(h) = host
            && let Some(answer) = h.equals(other)
        {
            return answer;
        }
    }
    x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| equals(&a, &b))
}

fn maps_equal(x: &Map, y: &Map) -> bool {
    x.len() == y.len()
        && x.iter()
            .all(|(k, v)| y.get(&k).is_some_and(|w| equals(&v, &w)))
}

/// The order of two numbers of any numeric types: `None` when either is not a number,
/// `Some(None)` when a NaN is involved.
fn numeric_order(a: &Value, b: &Value) -> Option<Option<Ordering>> {
    Some(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Uint(x), Value::Uint(y)) => Some(x.cmp(y)),
        (Value::Double(x), Value::Double(y)) => x.partial_cmp(y),
        (Value::Int(x), Value::Uint(y)) => Some(int_uint(*x, *y)),
        (Value::Uint(x), Value::Int(y)) => Some(int_uint(*y, *x).reverse()),
        (Value::Int(x), Value::Double(y)) => int_double(*x, *y),
        (Value::Double(x), Value::Int(y)) => int_double(*y, *x).map(Ordering::reverse),
        (Value::Uint(x), Value::Double(y)) => uint_double(*x, *y),
        (Value::Double(x), Value::Uint(y)) => uint_double(*y, *x).map(Ordering::reverse),
        _ => return None,
    })
}

fn int_uint(x: i64, y: u64) -> Ordering {
    match u64::try_from(x) {
        Ok(x) => x.cmp(&y),
        Err(_) => Ordering::Less,
    }
}

fn int_double(x: i64, y: f64) -> Option<Ordering> {
    if y.is_nan() {
        return None;
    }
    // Doubles outside the i64 range order by their side; inside, compare as cel-go does
    // (converting the double to an int after checking the bounds, then the fractions).
    if y < -9.223_372_036_854_776e18 {
        return Some(Ordering::Greater);
    }
    if y >= 9.223_372_036_854_776e18 {
        return Some(Ordering::Less);
    }
    let t = y.trunc() as i64;
    match x.cmp(&t) {
        Ordering::Equal => 0.0f64.partial_cmp(&(y - y.trunc())),
        o => Some(o),
    }
}

fn uint_double(x: u64, y: f64) -> Option<Ordering> {
    if y.is_nan() {
        return None;
    }
    if y < 0.0 {
        return Some(Ordering::Greater);
    }
    if y >= 1.844_674_407_370_955_2e19 {
        return Some(Ordering::Less);
    }
    let t = y.trunc() as u64;
    match x.cmp(&t) {
        Ordering::Equal => 0.0f64.partial_cmp(&(y - y.trunc())),
        o => Some(o),
    }
}

/// CEL's ordering for `<` and friends: `Ok(None)` when a NaN makes every comparison false,
/// `no such overload` for values of types that do not order with each other.
pub fn compare(a: &Value, b: &Value) -> Result<Option<Ordering>> {
    if let Some(o) = numeric_order(a, b) {
        return Ok(o);
    }
    Ok(Some(match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bytes(x), Value::Bytes(y)) => x.cmp(y),
        (Value::Duration(x), Value::Duration(y)) => x.cmp(y),
        (Value::Timestamp(x), Value::Timestamp(y)) => x.cmp(y),
        (Value::Opaque(x), _) => return x.compare(b).map(Some).ok_or_else(Error::no_such_overload),
        _ => return Err(Error::no_such_overload()),
    }))
}
