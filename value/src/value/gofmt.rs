//! Go's `fmt` texts (`%v` and `%#v`) of the `interface{}` values Go's decoders make, as Go's
//! messages print them: typed validation (`expected string, got …`), schema validation
//! (yaml.v2 values) and `schemaconv` (JSON values). `fmt` sorts map keys, so both texts are
//! deterministic. Callers add what wraps the value on their side (`&{…}`,
//! `&value.valueUnstructured{Value:…}`).

use super::{Map, Value};

/// The Go type of a decoded map, which `%#v` names.
#[derive(Clone, Copy, Debug)]
pub enum MapKeys {
    /// `map[string]interface {}`, from a JSON decoder.
    String,
    /// `map[interface {}]interface {}`, from yaml.v2.
    Interface,
}

/// Go's `%T` of the `interface{}` a JSON decoder makes of `v` (`int64`, `[]interface {}`, …).
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int64",
        Value::Float(_) => "float64",
        Value::String(_) => "string",
        Value::List(_) => "[]interface {}",
        Value::Map(_) => "map[string]interface {}",
    }
}

/// Go's `%v` of a `value.Value` holding `v` (Go's validators hold values as pointers to
/// `value.valueUnstructured`): `&{true}`, `&{[1 2.5 x]}`, `&{map[a:1 b:[x]]}`.
pub fn value_plain(v: &Value) -> String {
    let mut out = String::from("&{");
    write_plain(&mut out, v);
    out.push('}');
    out
}

/// Go's `%#v` of a `value.Value` holding `v`, maps typed as `keys` says:
/// `&value.valueUnstructured{Value:[]interface {}{1, "a"}}`.
pub fn value_go_syntax(v: &Value, keys: MapKeys) -> String {
    let mut out = String::from("&value.valueUnstructured{Value:");
    write_go_syntax(&mut out, v, keys);
    out.push('}');
    out
}

/// Go's `%v` of the value.
pub fn write_plain(out: &mut String, v: &Value) {
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
        // Booleans, ints and floats print as Go's `%v` (value.ToString prints them alike).
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// Go's `%#v` of the value, maps typed as `keys` says.
pub fn write_go_syntax(out: &mut String, v: &Value, keys: MapKeys) {
    match v {
        Value::Null => out.push_str("interface {}(nil)"),
        Value::List(items) => {
            out.push_str("[]interface {}{");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_go_syntax(out, item, keys);
            }
            out.push('}');
        }
        Value::Map(m) => {
            out.push_str(match keys {
                MapKeys::String => "map[string]interface {}{",
                MapKeys::Interface => "map[interface {}]interface {}{",
            });
            for (i, (k, item)) in sorted(m).into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&Value::from(k).to_string());
                out.push(':');
                write_go_syntax(out, item, keys);
            }
            out.push('}');
        }
        // Strings are `%q`, booleans and numbers `%v`: value.ToString prints them alike.
        scalar => out.push_str(&scalar.to_string()),
    }
}

fn sorted(m: &Map) -> Vec<(&str, &Value)> {
    let mut entries: Vec<(&str, &Value)> = m.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries
}
