//! cel-go's lists extension at version 3: `slice`, `flatten`, `distinct`, `lists.range`,
//! `reverse`, `sort` and `sortBy`'s `@sortByAssociatedKeys`.

use super::{Functions, Overload, p};
use crate::error::{Error, Result};
use crate::value::{List, Value, compare, equals};

fn flatten(list: &List, depth: i64, out: &mut Vec<Value>) {
    for v in list.iter() {
        match &v {
            Value::List(inner) if depth > 0 => flatten(inner, depth - 1, out),
            _ => out.push(v),
        }
    }
}

fn sort_by_keys(list: &List, keys: &List) -> Result<Value> {
    if list.len() != keys.len() {
        return Err(Error::new(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {} and {} elements respectively",
            list.len(),
            keys.len()
        )));
    }
    let keys = keys.to_vec();
    let Some(first) = keys.first() else {
        return Ok(Value::List(list.clone()));
    };
    let comparable = matches!(
        first,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::String(_)
            | Value::Bytes(_)
            | Value::Bool(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
    );
    if !comparable {
        return Err(Error::new("list elements must be comparable"));
    }
    let t = first.type_of();
    if keys.iter().any(|k| k.type_of() != t) {
        return Err(Error::new("list elements must have the same type"));
    }
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&i, &j| {
        compare(&keys[i], &keys[j])
            .ok()
            .flatten()
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    Ok(Value::list(
        order.into_iter().filter_map(|i| list.get(i)).collect(),
    ))
}

/// The lists extension's default bound on `lists.range(n)` (`ListsMaxRangeSize`).
const MAX_RANGE: i64 = 1_000_000;

pub(super) fn register(f: &mut Functions) {
    f.add(
        "slice",
        Overload::new("list_slice", vec![p::LIST, p::INT, p::INT], |a| {
            let l = super::list(&a[0]);
            let (s, e) = (super::int(&a[1]), super::int(&a[2]));
            if s < 0 || e < 0 {
                return Err(Error::new(format!(
                    "cannot slice({s}, {e}), negative indexes not supported"
                )));
            }
            if s > e {
                return Err(Error::new(format!(
                    "cannot slice({s}, {e}), start index must be less than or equal to end index"
                )));
            }
            if (l.len() as i64) < e {
                return Err(Error::new(format!(
                    "cannot slice({s}, {e}), list is length {}",
                    l.len()
                )));
            }
            Ok(Value::list(
                (s as usize..e as usize).filter_map(|i| l.get(i)).collect(),
            ))
        }),
    );
    f.add(
        "flatten",
        Overload::new("list_flatten", vec![p::LIST], |a| {
            let mut out = Vec::new();
            flatten(&super::list(&a[0]), 1, &mut out);
            Ok(Value::list(out))
        }),
    );
    f.add(
        "flatten",
        Overload::new("list_flatten_int", vec![p::LIST, p::INT], |a| {
            let depth = super::int(&a[1]);
            if depth < 0 {
                return Err(Error::new("level must be non-negative"));
            }
            let mut out = Vec::new();
            flatten(&super::list(&a[0]), depth, &mut out);
            Ok(Value::list(out))
        }),
    );
    f.add(
        "distinct",
        Overload::new("list_distinct", vec![p::LIST], |a| {
            let mut out: Vec<Value> = Vec::new();
            for v in super::list(&a[0]).iter() {
                if !out.iter().any(|o| equals(o, &v)) {
                    out.push(v);
                }
            }
            Ok(Value::list(out))
        }),
    );
    f.add(
        "lists.range",
        Overload::new("lists_range", vec![p::INT], |a| {
            let n = super::int(&a[0]);
            if n < 0 {
                return Err(Error::new(format!(
                    "lists.range: size must be non-negative, got {n}"
                )));
            }
            if n > MAX_RANGE {
                return Err(Error::new(format!(
                    "lists.range: size {n} exceeds maximum allowed ({MAX_RANGE})"
                )));
            }
            Ok(Value::list((0..n).map(Value::Int).collect()))
        }),
    );
    f.add(
        "reverse",
        Overload::new("list_reverse", vec![p::LIST], |a| {
            let mut v = super::list(&a[0]).to_vec();
            v.reverse();
            Ok(Value::list(v))
        }),
    );
    f.add(
        "sort",
        Overload::new("list_sort", vec![p::LIST], |a| {
            let l = super::list(&a[0]);
            sort_by_keys(&l, &l)
        }),
    );
    f.add(
        "@sortByAssociatedKeys",
        Overload::new("list_sortByAssociatedKeys", vec![p::LIST, p::LIST], |a| {
            sort_by_keys(&super::list(&a[0]), &super::list(&a[1]))
        }),
    );
}
