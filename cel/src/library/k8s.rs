//! Kubernetes' `library.Lists` (version 1: `isSorted`, `sum`, `min`, `max`, `indexOf`,
//! `lastIndexOf`, `includes`) and `library.Regex` (`find`, `findAll`), registered through the
//! public [`Functions::add`] as the libraries outside this crate register theirs.

use super::{Functions, Overload, p};
use crate::error::{Error, Result};
use crate::value::{Value, compare, equals};

fn extreme(name: &'static str, want: std::cmp::Ordering) -> impl Fn(&[Value]) -> Result<Value> {
    move |a| {
        let l = super::list(&a[0]);
        let mut best: Option<Value> = None;
        for v in l.iter() {
            best = Some(match best {
                None => v,
                Some(b) => {
                    if compare(&v, &b)? == Some(want) {
                        v
                    } else {
                        b
                    }
                }
            });
        }
        best.ok_or_else(|| Error::new(format!("{name} called on empty list")))
    }
}

pub(super) fn register(f: &mut Functions) {
    f.add(
        "isSorted",
        Overload::new("list_is_sorted_bool", vec![p::LIST], |a| {
            let v = super::list(&a[0]).to_vec();
            for w in v.windows(2) {
                if compare(&w[0], &w[1])? == Some(std::cmp::Ordering::Greater) {
                    return Ok(Value::Bool(false));
                }
            }
            Ok(Value::Bool(true))
        }),
    );
    f.add(
        "sum",
        Overload::new("list_sum", vec![p::LIST], |a| {
            let l = super::list(&a[0]);
            let mut acc: Option<Value> = None;
            for v in l.iter() {
                acc = Some(match acc {
                    None => v,
                    Some(x) => super::standard::add(&x, &v)?,
                });
            }
            Ok(acc.unwrap_or(Value::Int(0)))
        }),
    );
    f.add(
        "max",
        Overload::new(
            "list_max",
            vec![p::LIST],
            extreme("max", std::cmp::Ordering::Greater),
        ),
    );
    f.add(
        "min",
        Overload::new(
            "list_min",
            vec![p::LIST],
            extreme("min", std::cmp::Ordering::Less),
        ),
    );
    f.add(
        "indexOf",
        Overload::new("list_a_index_of_int", vec![p::LIST, p::ANY], |a| {
            let pos = super::list(&a[0]).iter().position(|e| equals(&e, &a[1]));
            Ok(Value::Int(pos.map_or(-1, |i| i as i64)))
        }),
    );
    f.add(
        "lastIndexOf",
        Overload::new("list_a_last_index_of_int", vec![p::LIST, p::ANY], |a| {
            let v = super::list(&a[0]).to_vec();
            let pos = v.iter().rposition(|e| equals(e, &a[1]));
            Ok(Value::Int(pos.map_or(-1, |i| i as i64)))
        }),
    );
    f.add(
        "includes",
        Overload::new("list_includes_dyn_dyn", vec![p::LIST, p::ANY], |a| {
            Ok(Value::Bool(
                super::list(&a[0]).iter().any(|e| equals(&e, &a[1])),
            ))
        }),
    );
    f.add(
        "find",
        Overload::new("string_find_string", vec![p::STRING, p::STRING], |a| {
            let re = super::standard::compile_regex(super::string(&a[1]))?;
            Ok(Value::from(
                re.find(super::string(&a[0])).map_or("", |m| m.as_str()),
            ))
        }),
    );
    let find_all = |a: &[Value], limit: i64| -> Result<Value> {
        let re = super::standard::compile_regex(super::string(&a[1]))?;
        let n = if limit < 0 {
            usize::MAX
        } else {
            limit as usize
        };
        Ok(Value::list(
            re.find_iter(super::string(&a[0]))
                .take(n)
                .map(|m| Value::from(m.as_str()))
                .collect(),
        ))
    };
    f.add(
        "findAll",
        Overload::new(
            "string_find_all_string",
            vec![p::STRING, p::STRING],
            move |a| find_all(a, -1),
        ),
    );
    f.add(
        "findAll",
        Overload::new(
            "string_find_all_string_int",
            vec![p::STRING, p::STRING, p::INT],
            move |a| find_all(a, super::int(&a[2])),
        ),
    );
}
