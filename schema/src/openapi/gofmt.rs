//! Go's `fmt` texts of the `interface{}` values Go's JSON reader makes (nil, bool, float64,
//! string, `[]interface{}`, `map[string]interface{}`), as `schemaconv` prints them in messages
//! with `%v` and `%#v`. `fmt` sorts map keys, so both texts are deterministic.

use smd_value::Value;
use smd_value::value::gofmt::{MapKeys, write_go_syntax, write_plain};

/// `%v`: `<nil>`, `1e+21`, `a b`, `[set]`, `map[a:x b:2]`.
pub(crate) fn plain(v: &Value) -> String {
    let mut out = String::new();
    write_plain(&mut out, v);
    out
}

/// `%#v`: `<nil>` for nil itself, `"name"`, `[]interface {}{"a", 1}`,
/// `map[string]interface {}{"k":interface {}(nil)}`.
pub(crate) fn go_syntax(v: &Value) -> String {
    if v.is_null() {
        return "<nil>".into();
    }
    let mut out = String::new();
    write_go_syntax(&mut out, v, MapKeys::String);
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn json(text: &str) -> Value {
        super::super::node::Node::from_json(text.as_bytes())
            .unwrap()
            .to_value()
    }

    #[test]
    fn texts_are_gos() {
        // Texts observed from Go (conformance/goldens/openapi/lists.json).
        assert_eq!(plain(&json("{\"b\": 2, \"a\": \"x y\"}")), "map[a:x y b:2]");
        assert_eq!(plain(&json("1e21")), "1e+21");
        assert_eq!(plain(&json("[\"set\"]")), "[set]");
        assert_eq!(plain(&json("null")), "<nil>");
        assert_eq!(
            go_syntax(&json("{\"k\": [1, \"x\", true, null]}")),
            "map[string]interface {}{\"k\":[]interface {}{1, \"x\", true, interface {}(nil)}}"
        );
        assert_eq!(go_syntax(&json("\"name\"")), "\"name\"");
        assert_eq!(go_syntax(&json("1.5")), "1.5");
        assert_eq!(go_syntax(&json("null")), "<nil>");
    }
}
