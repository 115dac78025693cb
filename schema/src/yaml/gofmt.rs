//! Go's `fmt` text of a value as Go's schema validation prints it in its messages.
//!
//! Go's validator holds each value as a pointer to `value.valueUnstructured`, a struct around
//! the `interface{}` that yaml.v2 decoded (`int`, `float64`, `string`, `bool`, `nil`,
//! `[]interface{}` and `map[interface{}]interface{}`), and prints it with `%v` or `%#v`. `fmt`
//! sorts map keys, so both texts are deterministic.

use std::fmt::Write;

use smd_fieldpath::Value;

/// `%v` of the value: `&{true}`, `&{[1 2.5 x]}`, `&{map[a:1 b:[x]]}`.
pub(crate) fn plain(v: &Value) -> String {
    let mut out = String::from("&{");
    write_plain(&mut out, v);
    out.push('}');
    out
}

/// `%#v` of the value: `&value.valueUnstructured{Value:true}`,
/// `&value.valueUnstructured{Value:[]interface {}{1, "a"}}`.
pub(crate) fn go_syntax(v: &Value) -> String {
    let mut out = String::from("&value.valueUnstructured{Value:");
    write_go_syntax(&mut out, v);
    out.push('}');
    out
}

fn write_plain(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("<nil>"),
        Value::String(s) => out.push_str(s),
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write_plain(out, item);
            }
            out.push(']');
        }
        Value::Map(m) => {
            out.push_str("map[");
            for (i, (k, item)) in sorted(m).into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                write_plain(out, item);
            }
            out.push(']');
        }
        // Booleans, ints and floats print as `value.ToString` prints them (Go's `%v`).
        scalar => {
            let _ = write!(out, "{scalar}");
        }
    }
}

fn write_go_syntax(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("interface {}(nil)"),
        Value::List(items) => {
            out.push_str("[]interface {}{");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_go_syntax(out, item);
            }
            out.push('}');
        }
        Value::Map(m) => {
            out.push_str("map[interface {}]interface {}{");
            for (i, (k, item)) in sorted(m).into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{}", Value::from(k));
                out.push(':');
                write_go_syntax(out, item);
            }
            out.push('}');
        }
        // Strings are `%q` (strconv.Quote) and numbers `%v`, as `value.ToString` prints them.
        scalar => {
            let _ = write!(out, "{scalar}");
        }
    }
}

fn sorted(m: &smd_fieldpath::Map) -> Vec<(&str, &Value)> {
    let mut entries: Vec<(&str, &Value)> = m.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Value {
        smd_fieldpath::yaml::from_str(text).unwrap()
    }

    #[test]
    fn texts_are_gos() {
        // Texts observed from Go (structured-merge-diff v6.4.2, yaml.v2).
        assert_eq!(plain(&yaml("[1, 2.5, x]")), "&{[1 2.5 x]}");
        assert_eq!(plain(&yaml("\"a\\nb\"")), "&{a\nb}");
        assert_eq!(plain(&yaml("{b: 1, a: [x, ~]}")), "&{map[a:[x <nil>] b:1]}");
        assert_eq!(
            go_syntax(&yaml("[1, ~, a, 1.0, {b: 1, a: [x]}]")),
            "&value.valueUnstructured{Value:[]interface {}{1, interface {}(nil), \"a\", 1, \
             map[interface {}]interface {}{\"a\":[]interface {}{\"x\"}, \"b\":1}}}"
        );
        assert_eq!(
            go_syntax(&yaml("1e6")),
            "&value.valueUnstructured{Value:1e+06}"
        );
        assert_eq!(
            go_syntax(&yaml(".inf")),
            "&value.valueUnstructured{Value:+Inf}"
        );
    }
}
