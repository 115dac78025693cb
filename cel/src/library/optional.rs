//! The optional library: `optional.of`, `optional.none`, `optional.ofNonZeroValue`,
//! `hasValue`, `value`, and lists' `first`/`last` (`or`/`orValue` short-circuit in the
//! interpreter; `optMap`/`optFlatMap` are macros).

use super::{Functions, Overload, p};
use crate::error::{Error, Result};
use crate::value::Map;
use crate::value::Value;

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Uint(u) => *u == 0,
        Value::Double(d) => *d == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
        Value::Duration(d) => d.0 == 0,
        Value::Timestamp(t) => t.secs == 0 && t.nanos == 0,
        _ => false,
    }
}

pub(super) fn register(f: &mut Functions) {
    // The two-variable comprehensions' map building (`transformMap`, `transformMapEntry`).
    f.add(
        "cel.@mapInsert",
        Overload::new(
            "cel_@mapInsert_map_key_value",
            vec![p::MAP, p::ANY, p::ANY],
            |a| insert(&a[0], [(a[1].clone(), a[2].clone())]),
        ),
    );
    f.add(
        "cel.@mapInsert",
        Overload::new("cel_@mapInsert_map_map", vec![p::MAP, p::MAP], |a| {
            let Value::Map(m) = &a[1] else {
                return Err(Error::no_such_overload());
            };
            insert(&a[0], m.iter())
        }),
    );
    f.add(
        "optional.of",
        Overload::new("optional_of", vec![p::ANY], |a| {
            Ok(Value::optional(Some(a[0].clone())))
        }),
    );
    f.add(
        "optional.none",
        Overload::new("optional_none", vec![], |_| Ok(Value::Optional(None))),
    );
    f.add(
        "optional.ofNonZeroValue",
        Overload::new("optional_ofNonZeroValue", vec![p::ANY], |a| {
            Ok(Value::optional((!is_zero(&a[0])).then(|| a[0].clone())))
        }),
    );
    f.add(
        "hasValue",
        Overload::new("optional_hasValue", vec![p::OPTIONAL], |a| {
            Ok(Value::Bool(matches!(&a[0], Value::Optional(Some(_)))))
        }),
    );
    f.add(
        "value",
        Overload::new("optional_value", vec![p::OPTIONAL], |a| match &a[0] {
            Value::Optional(Some(v)) => Ok(v.as_ref().clone()),
            _ => Err(Error::new("optional.none() dereference")),
        }),
    );
    f.add(
        "first",
        Overload::new("list_first", vec![p::LIST], |a| {
            Ok(Value::optional(super::list(&a[0]).get(0)))
        }),
    );
    f.add(
        "last",
        Overload::new("list_last", vec![p::LIST], |a| {
            let l = super::list(&a[0]);
            Ok(Value::optional(
                l.len().checked_sub(1).and_then(|i| l.get(i)),
            ))
        }),
    );
}

fn insert(map: &Value, entries: impl IntoIterator<Item = (Value, Value)>) -> Result<Value> {
    let Value::Map(m) = map else {
        return Err(Error::no_such_overload());
    };
    let mut all: Vec<(Value, Value)> = m.iter().collect();
    for (k, v) in entries {
        if m.get(&k).is_some()
            || all[m.len()..]
                .iter()
                .any(|(x, _)| crate::value::equals(x, &k))
        {
            return Err(Error::new(format!(
                "insert failed: key {} already exists",
                super::display(&k)
            )));
        }
        all.push((k, v));
    }
    Ok(Value::Map(Map::from_entries(all)))
}
