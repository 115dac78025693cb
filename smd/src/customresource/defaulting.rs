//! Structural defaulting (apiextensions-apiserver v0.37.2
//! `pkg/apiserver/schema/defaulting/algorithm.go`): top-down, a missing field with a default
//! gets a copy of it (a `null` too, where the schema is not nullable), then every field is
//! defaulted by its own schema, the values just set included (a default holding defaults).

use smd_fieldpath::Value;

use super::structural::Structural;

/// Whether `x` is a `null` its schema does not allow (the default replaces it).
fn forbidden_null(x: &Value, schema: Option<&Structural>) -> bool {
    x.is_null() && schema.is_some_and(|s| !s.nullable)
}

/// Applies the defaults of `schema` to `x`.
pub(crate) fn default(x: &mut Value, schema: Option<&Structural>) {
    default_at(x, schema, 0);
}

fn default_at(x: &mut Value, schema: Option<&Structural>, depth: usize) {
    let Some(s) = schema else {
        return;
    };
    if depth >= smd_fieldpath::MAX_DEPTH {
        return;
    }
    match x {
        Value::Map(map) => {
            for (k, prop) in &s.properties {
                let Some(default) = &prop.default else {
                    continue;
                };
                if map.get(k).is_none_or(|v| forbidden_null(v, Some(prop))) {
                    map.insert(k.as_str(), default.clone());
                }
            }
            let additional = s.additional.as_ref().map(|a| a.as_deref());
            for (k, v) in map.iter_mut() {
                if let Some(prop) = s.property(k) {
                    default_at(v, Some(prop), depth + 1);
                } else if let Some(values) = additional {
                    if forbidden_null(v, values) {
                        // A value schema without a default leaves the null as it is.
                        *v = values
                            .and_then(|a| a.default.clone())
                            .unwrap_or(Value::Null);
                    }
                    default_at(v, values, depth + 1);
                }
            }
        }
        Value::List(items) => {
            let child = s.items.as_deref();
            for v in items.iter_mut() {
                if forbidden_null(v, child) {
                    *v = child.and_then(|c| c.default.clone()).unwrap_or(Value::Null);
                }
                default_at(v, child, depth + 1);
            }
        }
        _ => {}
    }
}
