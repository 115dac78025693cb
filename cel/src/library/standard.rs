//! The standard library: operators, `size`, string tests, `in`, conversions, `type` and `dyn`.

use super::{Functions, Overload, p};
use crate::error::{Error, Result};
use crate::time::{Duration, Timestamp};
use crate::value::{Type, Value, compare, equals};
use std::cmp::Ordering;
use std::sync::Arc;

fn overflow() -> Error {
    Error::new("integer overflow")
}
fn uoverflow() -> Error {
    Error::new("unsigned integer overflow")
}
fn named(op: &str) -> Error {
    Error::new(format!("no such overload: {op}"))
}

fn binary(
    f: &mut Functions,
    name: &'static str,
    id: &str,
    imp: fn(&Value, &Value) -> Result<Value>,
) {
    f.add(
        name,
        Overload::new(id, vec![p::ANY, p::ANY], move |a| imp(&a[0], &a[1])),
    );
}
fn unary(f: &mut Functions, name: &'static str, id: &str, imp: fn(&Value) -> Result<Value>) {
    f.add(name, Overload::new(id, vec![p::ANY], move |a| imp(&a[0])));
}

pub(super) fn register(f: &mut Functions) {
    binary(f, "_+_", "add", add);
    binary(f, "_-_", "subtract", sub);
    binary(f, "_*_", "multiply", mul);
    binary(f, "_/_", "divide", div);
    binary(f, "_%_", "modulo", rem);
    unary(f, "-_", "negate", neg);
    unary(f, "!_", "logical_not", |v| match v {
        Value::Bool(b) => Ok(Value::Bool(!b)),
        _ => Err(Error::no_such_overload()),
    });
    binary(f, "_==_", "equals", |a, b| Ok(Value::Bool(equals(a, b))));
    binary(f, "_!=_", "not_equals", |a, b| {
        Ok(Value::Bool(!equals(a, b)))
    });
    binary(f, "_<_", "less", |a, b| {
        ordered(a, b, "_<_", Ordering::is_lt)
    });
    binary(f, "_<=_", "less_equals", |a, b| {
        ordered(a, b, "_<=_", Ordering::is_le)
    });
    binary(f, "_>_", "greater", |a, b| {
        ordered(a, b, "_>_", Ordering::is_gt)
    });
    binary(f, "_>=_", "greater_equals", |a, b| {
        ordered(a, b, "_>=_", Ordering::is_ge)
    });
    binary(f, "@in", "in", |a, b| match b {
        Value::List(l) => Ok(Value::Bool(l.iter().any(|e| equals(&e, a)))),
        Value::Map(m) => Ok(Value::Bool(m.get(a).is_some())),
        _ => Err(Error::no_such_overload()),
    });
    unary(f, "size", "size", |v| match v {
        Value::String(s) => Ok(Value::Int(s.chars().count() as i64)),
        Value::Bytes(b) => Ok(Value::Int(b.len() as i64)),
        Value::List(l) => Ok(Value::Int(l.len() as i64)),
        Value::Map(m) => Ok(Value::Int(m.len() as i64)),
        _ => Err(named("size")),
    });
    let text = |id: &str, t: fn(&str, &str) -> bool| {
        Overload::new(id, vec![p::STRING, p::STRING], move |a| {
            Ok(Value::Bool(t(super::string(&a[0]), super::string(&a[1]))))
        })
    };
    f.add("contains", text("contains_string", |a, b| a.contains(b)));
    f.add(
        "startsWith",
        text("starts_with_string", |a, b| a.starts_with(b)),
    );
    f.add("endsWith", text("ends_with_string", |a, b| a.ends_with(b)));
    f.add(
        "matches",
        Overload::new("matches_string", vec![p::STRING, p::STRING], |a| {
            let re = compile_regex(super::string(&a[1]))?;
            Ok(Value::Bool(re.is_match(super::string(&a[0]))))
        }),
    );
    unary(f, "int", "int", to_int);
    unary(f, "uint", "uint", to_uint);
    unary(f, "double", "double", to_double);
    unary(f, "string", "string", to_string);
    unary(f, "bytes", "bytes", |v| match v {
        Value::Bytes(_) => Ok(v.clone()),
        Value::String(s) => Ok(Value::Bytes(Arc::from(s.as_bytes()))),
        _ => Err(no_overload("bytes", v)),
    });
    unary(f, "bool", "bool", |v| match v {
        Value::Bool(_) => Ok(v.clone()),
        Value::String(s) => match s.as_ref() {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(Value::Bool(true)),
            "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(Value::Bool(false)),
            _ => Err(conversion(v, "bool")),
        },
        _ => Err(no_overload("bool", v)),
    });
    unary(f, "dyn", "to_dyn", |v| Ok(v.clone()));
    unary(f, "type", "type", |v| Ok(Value::Type(v.type_of())));
}

/// cel-go's RE2 `regexp.Compile`, reporting its error text where the two engines agree on
/// refusing the pattern.
pub(crate) fn compile_regex(pattern: &str) -> Result<regex::Regex> {
    regex::Regex::new(pattern).map_err(|e| Error::new(format!("error parsing regexp: {e}")))
}

/// A conversion of a type it has no overload for: cel-go's dispatcher finds none (the
/// conversion functions' own `type conversion error` is for a value they fail to read).
fn no_overload(function: &str, v: &Value) -> Error {
    Error::new(format!(
        "no such overload: {function}({})",
        v.type_of().name()
    ))
}

fn conversion(v: &Value, to: &str) -> Error {
    Error::new(format!(
        "type conversion error from '{}' to '{to}'",
        v.type_of().name()
    ))
}

fn ordered(a: &Value, b: &Value, op: &str, test: fn(Ordering) -> bool) -> Result<Value> {
    let comparable = matches!(
        a,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::String(_)
            | Value::Bytes(_)
            | Value::Bool(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
            | Value::Opaque(_)
    );
    if !comparable {
        return Err(named(op));
    }
    match compare(a, b)? {
        Some(o) => Ok(Value::Bool(test(o))),
        None => Err(Error::new("NaN values cannot be ordered")),
    }
}

pub(super) fn add(a: &Value, b: &Value) -> Result<Value> {
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(x.checked_add(*y).ok_or_else(overflow)?),
        (Value::Uint(x), Value::Uint(y)) => Value::Uint(x.checked_add(*y).ok_or_else(uoverflow)?),
        (Value::Double(x), Value::Double(y)) => Value::Double(x + y),
        (Value::String(x), Value::String(y)) => Value::string(format!("{x}{y}")),
        (Value::Bytes(x), Value::Bytes(y)) => {
            Value::Bytes([x.as_ref(), y.as_ref()].concat().into())
        }
        (Value::List(x), Value::List(y)) => {
            let mut v = x.to_vec();
            v.extend(y.iter());
            Value::list(v)
        }
        (Value::Duration(x), Value::Duration(y)) => Value::Duration(x.checked_add(*y)?),
        (Value::Duration(d), Value::Timestamp(t)) | (Value::Timestamp(t), Value::Duration(d)) => {
            Value::Timestamp(t.checked_add(*d)?)
        }
        (
            Value::Int(_) | Value::Uint(_) | Value::Double(_) | Value::String(_) | Value::Bytes(_),
            _,
        )
        | (Value::List(_) | Value::Duration(_) | Value::Timestamp(_), _) => {
            return Err(Error::no_such_overload());
        }
        _ => return Err(named("_+_")),
    })
}

fn sub(a: &Value, b: &Value) -> Result<Value> {
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(x.checked_sub(*y).ok_or_else(overflow)?),
        (Value::Uint(x), Value::Uint(y)) => Value::Uint(x.checked_sub(*y).ok_or_else(uoverflow)?),
        (Value::Double(x), Value::Double(y)) => Value::Double(x - y),
        (Value::Duration(x), Value::Duration(y)) => Value::Duration(x.checked_sub(*y)?),
        (Value::Timestamp(t), Value::Duration(d)) => {
            Value::Timestamp(t.checked_add(Duration(d.0.checked_neg().ok_or_else(overflow)?))?)
        }
        (Value::Timestamp(x), Value::Timestamp(y)) => Value::Duration(x.since(*y)?),
        (
            Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::Duration(_)
            | Value::Timestamp(_),
            _,
        ) => {
            return Err(Error::no_such_overload());
        }
        _ => return Err(named("_-_")),
    })
}

fn mul(a: &Value, b: &Value) -> Result<Value> {
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(x.checked_mul(*y).ok_or_else(overflow)?),
        (Value::Uint(x), Value::Uint(y)) => Value::Uint(x.checked_mul(*y).ok_or_else(uoverflow)?),
        (Value::Double(x), Value::Double(y)) => Value::Double(x * y),
        (Value::Int(_) | Value::Uint(_) | Value::Double(_), _) => {
            return Err(Error::no_such_overload());
        }
        _ => return Err(named("_*_")),
    })
}

fn div(a: &Value, b: &Value) -> Result<Value> {
    Ok(match (a, b) {
        (Value::Int(_), Value::Int(0)) | (Value::Uint(_), Value::Uint(0)) => {
            return Err(Error::new("division by zero"));
        }
        (Value::Int(x), Value::Int(y)) => Value::Int(x.checked_div(*y).ok_or_else(overflow)?),
        (Value::Uint(x), Value::Uint(y)) => Value::Uint(x / y),
        (Value::Double(x), Value::Double(y)) => Value::Double(x / y),
        (Value::Int(_) | Value::Uint(_) | Value::Double(_), _) => {
            return Err(Error::no_such_overload());
        }
        _ => return Err(named("_/_")),
    })
}

fn rem(a: &Value, b: &Value) -> Result<Value> {
    Ok(match (a, b) {
        (Value::Int(_), Value::Int(0)) | (Value::Uint(_), Value::Uint(0)) => {
            return Err(Error::new("modulus by zero"));
        }
        (Value::Int(x), Value::Int(y)) => Value::Int(x.checked_rem(*y).ok_or_else(overflow)?),
        (Value::Uint(x), Value::Uint(y)) => Value::Uint(x % y),
        (Value::Int(_) | Value::Uint(_), _) => return Err(Error::no_such_overload()),
        _ => return Err(named("_%_")),
    })
}

fn neg(v: &Value) -> Result<Value> {
    Ok(match v {
        Value::Int(x) => Value::Int(x.checked_neg().ok_or_else(overflow)?),
        Value::Double(x) => Value::Double(-x),
        Value::Duration(d) => Value::Duration(Duration(d.0.checked_neg().ok_or_else(overflow)?)),
        _ => return Err(named("-_")),
    })
}

fn to_int(v: &Value) -> Result<Value> {
    Ok(Value::Int(match v {
        Value::Int(i) => *i,
        Value::Uint(u) => i64::try_from(*u).map_err(|_| overflow())?,
        Value::Double(d) => {
            if d.is_nan() || *d <= -9.223_372_036_854_776e18 || *d >= 9.223_372_036_854_776e18 {
                return Err(overflow());
            }
            *d as i64
        }
        Value::String(s) => s.parse::<i64>().map_err(|_| conversion(v, "int"))?,
        Value::Duration(d) => d.0,
        Value::Timestamp(t) => t.secs,
        _ => return Err(no_overload("int", v)),
    }))
}

fn to_uint(v: &Value) -> Result<Value> {
    Ok(Value::Uint(match v {
        Value::Uint(u) => *u,
        Value::Int(i) => u64::try_from(*i).map_err(|_| uoverflow())?,
        Value::Double(d) => {
            if d.is_nan() || *d < 0.0 || *d >= 1.844_674_407_370_955_2e19 {
                return Err(uoverflow());
            }
            *d as u64
        }
        Value::String(s) => s.parse::<u64>().map_err(|_| conversion(v, "uint"))?,
        _ => return Err(no_overload("uint", v)),
    }))
}

/// Go's `strconv.ParseFloat(s, 64)` for the texts CEL's `double()` reads.
pub(crate) fn parse_go_float(s: &str) -> Option<f64> {
    // Only the special values need folding case; a long text is a number or nothing (and is
    // not copied: a conversion costs 1 however long its text).
    let lower = if s.len() <= 9 {
        s.to_ascii_lowercase()
    } else {
        String::new()
    };
    let t = lower.strip_prefix(['+', '-']).unwrap_or(&lower);
    if matches!(t, "inf" | "infinity" | "nan") {
        let neg = lower.starts_with('-');
        return Some(match t {
            "nan" => f64::NAN,
            _ if neg => f64::NEG_INFINITY,
            _ => f64::INFINITY,
        });
    }
    if s.contains('_') || s.contains(['x', 'X', 'p', 'P']) {
        return None;
    }
    s.parse::<f64>().ok()
}

fn to_double(v: &Value) -> Result<Value> {
    Ok(Value::Double(match v {
        Value::Double(d) => *d,
        Value::Int(i) => *i as f64,
        Value::Uint(u) => *u as f64,
        Value::String(s) => parse_go_float(s).ok_or_else(|| conversion(v, "double"))?,
        _ => return Err(no_overload("double", v)),
    }))
}

fn to_string(v: &Value) -> Result<Value> {
    Ok(Value::string(match v {
        Value::String(_) => return Ok(v.clone()),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => super::format_go_double(*d),
        Value::Bool(b) => b.to_string(),
        Value::Bytes(b) => std::str::from_utf8(b)
            .map_err(|_| Error::new("invalid UTF-8 in bytes, cannot convert to string"))?
            .to_string(),
        Value::Duration(d) => d.to_string(),
        Value::Timestamp(t) => t.to_string(),
        Value::Type(t) => t.name().to_string(),
        _ => return Err(no_overload("string", v)),
    }))
}

/// `timestamp(x)` and `duration(x)`.
pub(super) fn register_time_conversions(f: &mut Functions) {
    unary(f, "duration", "duration", |v| match v {
        Value::Duration(_) => Ok(v.clone()),
        Value::String(s) => Duration::parse(s)
            .map(Value::Duration)
            .ok_or_else(|| conversion(v, Type::Duration.name())),
        _ => Err(no_overload("duration", v)),
    });
    unary(f, "timestamp", "timestamp", |v| match v {
        Value::Timestamp(_) => Ok(v.clone()),
        Value::String(s) => Timestamp::parse(s).map(Value::Timestamp),
        Value::Int(i) => Timestamp::from_unix(*i, 0).map(Value::Timestamp),
        _ => Err(no_overload("timestamp", v)),
    });
}
