//! cel-go's strings extension at version 2: `charAt`, `indexOf`, `lastIndexOf`, `lowerAscii`,
//! `upperAscii`, `replace`, `split`, `substring`, `trim`, `join`, `strings.quote`, `format`.
//! Indices count code points, as cel-go's.

use super::{Functions, Overload, p};
use crate::error::{Error, Result};
use crate::value::Value;

fn out_of_range(i: i64) -> Error {
    Error::new(format!("index out of range: {i}"))
}

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

fn index_of(s: &str, sub: &str, from: i64) -> Result<i64> {
    let c = chars(s);
    let n = chars(sub);
    if from < 0 {
        return Err(out_of_range(from));
    }
    if from as usize > c.len() {
        return Ok(-1);
    }
    if n.is_empty() {
        return Ok(from);
    }
    Ok((from as usize..c.len())
        .find(|&i| c[i..].starts_with(&n))
        .map_or(-1, |i| i as i64))
}

fn last_index_of(s: &str, sub: &str, from: Option<i64>) -> Result<i64> {
    let c = chars(s);
    let n = chars(sub);
    let from = from.unwrap_or(c.len() as i64);
    if from < 0 {
        return Err(out_of_range(from));
    }
    if from as usize > c.len() {
        return Ok(-1);
    }
    if n.is_empty() {
        return Ok(from);
    }
    let last_start = (from as usize).min(c.len().saturating_sub(n.len()));
    if n.len() > c.len() {
        return Ok(-1);
    }
    Ok((0..=last_start)
        .rev()
        .find(|&i| c[i..].starts_with(&n))
        .map_or(-1, |i| i as i64))
}

fn replace(s: &str, old: &str, new: &str, n: i64) -> String {
    if n < 0 {
        return s.replace(old, new);
    }
    s.replacen(old, new, n as usize)
}

fn split(s: &str, sep: &str, n: i64) -> Vec<Value> {
    if n == 0 {
        return Vec::new();
    }
    if sep.is_empty() {
        let c = chars(s);
        let limit = if n < 0 {
            c.len()
        } else {
            (n as usize).min(c.len())
        };
        let mut out: Vec<Value> = c
            .iter()
            .take(limit.saturating_sub(1))
            .map(|ch| Value::from(ch.to_string()))
            .collect();
        if limit > 0 {
            let rest: String = c[limit - 1..].iter().collect();
            out.push(Value::from(rest));
        }
        return out;
    }
    if n < 0 {
        s.split(sep).map(Value::from).collect()
    } else {
        s.splitn(n as usize, sep).map(Value::from).collect()
    }
}

/// Go's `strconv.Quote` for the `strings.quote` of valid text.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn substring(s: &str, start: i64, end: Option<i64>) -> Result<String> {
    let c = chars(s);
    let len = c.len() as i64;
    let end_v = end.unwrap_or(len);
    if start < 0 || start > len {
        return Err(out_of_range(start));
    }
    if end.is_some() {
        if end_v < 0 || end_v > len {
            return Err(out_of_range(end_v));
        }
        if start > end_v {
            return Err(Error::new(format!(
                "invalid substring range. start: {start}, end: {end_v}"
            )));
        }
    }
    Ok(c[start as usize..end_v as usize].iter().collect())
}

fn s(v: &Value) -> &str {
    super::string(v)
}

pub(super) fn register(f: &mut Functions) {
    f.add(
        "charAt",
        Overload::new("string_char_at_int", vec![p::STRING, p::INT], |a| {
            let c = chars(s(&a[0]));
            let i = super::int(&a[1]);
            if i < 0 || i as usize > c.len() {
                return Err(out_of_range(i));
            }
            Ok(Value::from(
                c.get(i as usize).map(|c| c.to_string()).unwrap_or_default(),
            ))
        }),
    );
    f.add(
        "indexOf",
        Overload::new("string_index_of_string", vec![p::STRING, p::STRING], |a| {
            index_of(s(&a[0]), s(&a[1]), 0).map(Value::Int)
        }),
    );
    f.add(
        "indexOf",
        Overload::new(
            "string_index_of_string_int",
            vec![p::STRING, p::STRING, p::INT],
            |a| index_of(s(&a[0]), s(&a[1]), super::int(&a[2])).map(Value::Int),
        ),
    );
    f.add(
        "lastIndexOf",
        Overload::new(
            "string_last_index_of_string",
            vec![p::STRING, p::STRING],
            |a| last_index_of(s(&a[0]), s(&a[1]), None).map(Value::Int),
        ),
    );
    f.add(
        "lastIndexOf",
        Overload::new(
            "string_last_index_of_string_int",
            vec![p::STRING, p::STRING, p::INT],
            |a| last_index_of(s(&a[0]), s(&a[1]), Some(super::int(&a[2]))).map(Value::Int),
        ),
    );
    f.add(
        "lowerAscii",
        Overload::new("string_lower_ascii", vec![p::STRING], |a| {
            Ok(Value::from(s(&a[0]).to_ascii_lowercase()))
        }),
    );
    f.add(
        "upperAscii",
        Overload::new("string_upper_ascii", vec![p::STRING], |a| {
            Ok(Value::from(s(&a[0]).to_ascii_uppercase()))
        }),
    );
    f.add(
        "replace",
        Overload::new(
            "string_replace_string_string",
            vec![p::STRING, p::STRING, p::STRING],
            |a| Ok(Value::from(replace(s(&a[0]), s(&a[1]), s(&a[2]), -1))),
        ),
    );
    f.add(
        "replace",
        Overload::new(
            "string_replace_string_string_int",
            vec![p::STRING, p::STRING, p::STRING, p::INT],
            |a| {
                Ok(Value::from(replace(
                    s(&a[0]),
                    s(&a[1]),
                    s(&a[2]),
                    super::int(&a[3]),
                )))
            },
        ),
    );
    f.add(
        "split",
        Overload::new("string_split_string", vec![p::STRING, p::STRING], |a| {
            Ok(Value::list(split(s(&a[0]), s(&a[1]), -1)))
        }),
    );
    f.add(
        "split",
        Overload::new(
            "string_split_string_int",
            vec![p::STRING, p::STRING, p::INT],
            |a| Ok(Value::list(split(s(&a[0]), s(&a[1]), super::int(&a[2])))),
        ),
    );
    f.add(
        "substring",
        Overload::new("string_substring_int", vec![p::STRING, p::INT], |a| {
            substring(s(&a[0]), super::int(&a[1]), None).map(Value::from)
        }),
    );
    f.add(
        "substring",
        Overload::new(
            "string_substring_int_int",
            vec![p::STRING, p::INT, p::INT],
            |a| substring(s(&a[0]), super::int(&a[1]), Some(super::int(&a[2]))).map(Value::from),
        ),
    );
    f.add(
        "trim",
        Overload::new("string_trim", vec![p::STRING], |a| {
            Ok(Value::from(s(&a[0]).trim_matches(char::is_whitespace)))
        }),
    );
    let join = |a: &[Value], sep: &str| -> Result<Value> {
        let mut parts = Vec::new();
        for v in super::list(&a[0]).iter() {
            match v {
                Value::String(x) => parts.push(x.to_string()),
                _ if a.len() == 1 => return Err(Error::new("no such overload: join(list)")),
                _ => return Err(Error::new("no such overload: join(list, string)")),
            }
        }
        Ok(Value::from(parts.join(sep)))
    };
    f.add(
        "join",
        Overload::new("list_join", vec![p::LIST], move |a| join(a, "")),
    );
    f.add(
        "join",
        Overload::new("list_join_string", vec![p::LIST, p::STRING], move |a| {
            join(a, s(&a[1]))
        }),
    );
    f.add(
        "strings.quote",
        Overload::new("strings_quote", vec![p::STRING], |a| {
            Ok(Value::from(quote(s(&a[0]))))
        }),
    );
    f.add(
        "format",
        Overload::new("string_format", vec![p::STRING, p::LIST], |a| {
            super::format::format(s(&a[0]), &super::list(&a[1])).map(Value::from)
        }),
    );
}
