//! Go's `encoding/json` of versioned structs (fields in declaration order, `omitempty`
//! honoured), for the annotations autoscaling/v1 keeps the other versions' fields in; and the
//! reading side: a field found as `encoding/json` finds it (exact name, else ignoring case).

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;
use smd_fieldpath::value::gojson::{write_string, write_value};

use crate::builtin::quantity;

/// A JSON object being written, field by field in the Go struct's order.
pub(super) struct Obj {
    out: String,
    empty: bool,
}

impl Obj {
    pub(super) fn new() -> Obj {
        Obj {
            out: String::from("{"),
            empty: true,
        }
    }

    /// A field whose JSON text is `raw`.
    pub(super) fn field(mut self, name: &str, raw: String) -> Obj {
        if !self.empty {
            self.out.push(',');
        }
        self.empty = false;
        write_string(&mut self.out, name);
        self.out.push(':');
        self.out.push_str(&raw);
        self
    }

    /// An `omitempty` field: written when present.
    pub(super) fn opt(self, name: &str, raw: Option<String>) -> Obj {
        match raw {
            Some(raw) => self.field(name, raw),
            None => self,
        }
    }

    pub(super) fn end(mut self) -> String {
        self.out.push('}');
        self.out
    }
}

/// A string field's JSON (`""` when absent).
pub(super) fn string(v: Option<&Value>) -> String {
    let mut out = String::new();
    write_string(&mut out, v.and_then(Value::as_str).unwrap_or(""));
    out
}

/// An `omitempty` string field's JSON.
pub(super) fn string_opt(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(|s| string(Some(&Value::from(s))))
}

/// An integer pointer field's JSON.
pub(super) fn int(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_int).map(|n| n.to_string())
}

/// A quantity pointer field's JSON (its canonical text).
pub(super) fn qty(v: Option<&Value>) -> Option<String> {
    let text = quantity_text(v?)?;
    let canonical = quantity::canonical(&text).ok()?;
    let mut out = String::new();
    write_string(&mut out, &canonical);
    Some(out)
}

/// A quantity value field's JSON: the zero quantity when absent.
pub(super) fn qty_or_zero(v: Option<&Value>) -> String {
    qty(v).unwrap_or_else(|| "\"0\"".to_owned())
}

/// A quantity as text (a JSON number reads as one too).
pub(super) fn quantity_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_owned()),
        Value::Int(n) => Some(n.to_string()),
        Value::Float(f) => Some(f.to_string()),
        _ => None,
    }
}

/// A `metav1.LabelSelector` pointer's JSON: `matchLabels` (keys sorted) then
/// `matchExpressions`.
pub(super) fn selector(v: Option<&Value>) -> Option<String> {
    let s = v?.as_map()?;
    let labels = s
        .get("matchLabels")
        .and_then(Value::as_map)
        .filter(|m| !m.is_empty())
        .map(|m| {
            let mut out = String::new();
            // Go writes a map's keys sorted, as `write_value` does.
            let _ = write_value(&mut out, &Value::Map(m.clone()));
            out
        });
    let expressions = s
        .get("matchExpressions")
        .and_then(Value::as_list)
        .filter(|l| !l.is_empty())
        .map(|list| {
            let items: Vec<String> = list
                .iter()
                .filter_map(Value::as_map)
                .map(|e| {
                    let values = e
                        .get("values")
                        .and_then(Value::as_list)
                        .filter(|l| !l.is_empty())
                        .map(|l| {
                            let mut out = String::new();
                            let _ = write_value(&mut out, &Value::List(l.to_vec()));
                            out
                        });
                    Obj::new()
                        .field("key", string(e.get("key")))
                        .field("operator", string(e.get("operator")))
                        .opt("values", values)
                        .end()
                })
                .collect();
            format!("[{}]", items.join(","))
        });
    Some(
        Obj::new()
            .opt("matchLabels", labels)
            .opt("matchExpressions", expressions)
            .end(),
    )
}

/// A struct field as `encoding/json` finds it: the exact key, else one equal ignoring case.
pub(super) fn field<'a>(map: &'a Map, name: &str) -> Option<&'a Value> {
    map.get(name)
        .or_else(|| {
            map.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v)
        })
        .filter(|v| !v.is_null())
}
