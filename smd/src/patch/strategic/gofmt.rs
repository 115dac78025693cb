//! Go's `fmt` texts of decoded JSON values in strategicpatch's messages: `%v` (maps as
//! `map[k:v]`, keys sorted), `%s` (`%!s(int64=1)` for what is not a string), `%q`.

use smd_fieldpath::Value;
use smd_fieldpath::value::gofmt;

/// `%v`.
pub(super) fn v(value: &Value) -> String {
    let mut out = String::new();
    gofmt::write_plain(&mut out, value);
    out
}

/// `%s`: strings as they are, anything else wrapped as Go's `fmt` reports a wrong verb, element
/// by element inside lists and maps.
pub(super) fn s(value: &Value) -> String {
    let mut out = String::new();
    write_s(&mut out, value);
    out
}

fn write_s(out: &mut String, value: &Value) {
    match value {
        Value::String(text) => out.push_str(text),
        Value::Null => out.push_str("%!s(<nil>)"),
        Value::Bool(_) | Value::Int(_) | Value::Float(_) => {
            out.push_str("%!s(");
            out.push_str(gofmt::type_name(value));
            out.push('=');
            gofmt::write_plain(out, value);
            out.push(')');
        }
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write_s(out, item);
            }
            out.push(']');
        }
        Value::Map(map) => {
            let mut entries: Vec<(&str, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push_str("map[");
            for (i, (k, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                write_s(out, item);
            }
            out.push(']');
        }
    }
}

/// `%q` (`strconv.Quote`).
pub(super) fn quote(text: &str) -> String {
    Value::from(text).to_string()
}

/// `%v` of several lists, as `fmt.Sprint` of a `[][]interface{}` writes them.
pub(super) fn lists(lists: &[&[Value]]) -> String {
    let mut out = String::from("[");
    for (i, list) in lists.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        gofmt::write_plain(&mut out, &Value::List(list.to_vec()));
    }
    out.push(']');
    out
}
