//! Go's `fmt` text of a value as Go's schema validation prints it in its messages.
//!
//! Go's validator holds each value as a pointer to `value.valueUnstructured`, a struct around
//! the `interface{}` that yaml.v2 decoded (`int`, `float64`, `string`, `bool`, `nil`,
//! `[]interface{}` and `map[interface{}]interface{}`), and prints it with `%v` or `%#v`. `fmt`
//! sorts map keys, so both texts are deterministic.

use smd_value::Value;
use smd_value::value::gofmt::{MapKeys, value_go_syntax};

pub(crate) use smd_value::value::gofmt::value_plain as plain;

/// `%#v` of the value, as yaml.v2 decoded it (maps keyed by `interface{}`):
/// `&value.valueUnstructured{Value:true}`.
pub(crate) fn go_syntax(v: &Value) -> String {
    value_go_syntax(v, MapKeys::Interface)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Value {
        smd_value::yaml::from_str(text).unwrap()
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
