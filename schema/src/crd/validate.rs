//! The part of the API server's validation of a CRD that concerns the shape of its schemas
//! (`apiextensions/validation.ValidateCustomResourceDefinitionOpenAPISchema`, the structural
//! schema rules of `apiserver/schema.ValidateStructural`, and `validateMapListKeysMapSet`), with
//! Go's field paths and texts.
//!
//! Covered: the `type` (required where a structural schema needs it, one of the six names),
//! `items` of arrays, `x-kubernetes-preserve-unknown-fields: false`, `properties` next to
//! `additionalProperties`, `x-kubernetes-embedded-resource`, `x-kubernetes-map-type`,
//! `x-kubernetes-list-type` and `x-kubernetes-list-map-keys` (keys must be scalar item
//! properties, required or defaulted, not nullable), items of sets. Not covered: names, group,
//! versions, CEL rules, value validations, defaults against their schema, `metadata` rules.

use smd_fieldpath::{Map, Value};

/// One refused part: Go's field error text and the JSON pointer of the part in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Go's `field.Error.Error()`: `spec.validation.openAPIV3Schema.properties[a].type: …`.
    pub go_text: String,
    /// The JSON pointer (as a URI fragment) of the schema at fault.
    pub pointer: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Root,
    Item,
    Field,
}

const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// Validates one version's `openAPIV3Schema` (`schema`), reported under Go's field path `path`
/// and the JSON pointer `pointer`.
pub(crate) fn validate(schema: &Value, path: &str, pointer: &str, out: &mut Vec<FieldError>) {
    walk(schema, path, pointer, Level::Root, 0, out);
}

struct At<'a> {
    path: &'a str,
    pointer: &'a str,
}

impl At<'_> {
    fn push(&self, out: &mut Vec<FieldError>, child: &str, text: String) {
        out.push(FieldError {
            go_text: format!("{}{child}: {text}", self.path),
            pointer: self.pointer.to_owned(),
        });
    }
}

fn str_of<'a>(m: &'a Map, key: &str) -> Option<&'a str> {
    match m.get(key) {
        Some(Value::String(s)) => Some(s),
        _ => None,
    }
}

fn is_true(m: &Map, key: &str) -> bool {
    matches!(m.get(key), Some(Value::Bool(true)))
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn supported(values: &[&str]) -> String {
    values
        .iter()
        .map(|v| quote(v))
        .collect::<Vec<_>>()
        .join(", ")
}

fn escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

fn walk(v: &Value, path: &str, pointer: &str, lvl: Level, depth: usize, out: &mut Vec<FieldError>) {
    if depth > super::MAX_DEPTH {
        return;
    }
    let Value::Map(s) = v else { return };
    let at = At { path, pointer };
    let ty = str_of(s, "type").unwrap_or("");
    let embedded = is_true(s, "x-kubernetes-embedded-resource");
    let preserve = is_true(s, "x-kubernetes-preserve-unknown-fields");
    let int_or_string = is_true(s, "x-kubernetes-int-or-string");
    let props = match s.get("properties") {
        Some(Value::Map(p)) => Some(p),
        _ => None,
    };
    let items = match s.get("items") {
        Some(Value::Map(i)) => Some(i),
        _ => None,
    };
    let list_type = str_of(s, "x-kubernetes-list-type");
    let map_type = str_of(s, "x-kubernetes-map-type");
    let keys: Vec<&str> = match s.get("x-kubernetes-list-map-keys") {
        Some(Value::List(l)) => l
            .iter()
            .filter_map(|k| match k {
                Value::String(k) => Some(k.as_str()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };

    // ValidateCustomResourceDefinitionOpenAPISchema.
    if !ty.is_empty() && !TYPES.contains(&ty) {
        at.push(
            out,
            ".type",
            format!(
                "Unsupported value: {}: supported values: {}",
                quote(ty),
                supported(&TYPES)
            ),
        );
    }
    if props.is_some_and(|p| !p.is_empty()) {
        match s.get("additionalProperties") {
            Some(Value::Bool(false)) | Some(Value::Map(_)) => at.push(
                out,
                ".additionalProperties",
                "Forbidden: additionalProperties and properties are mutual exclusive".into(),
            ),
            _ => {}
        }
    }
    if matches!(
        s.get("x-kubernetes-preserve-unknown-fields"),
        Some(Value::Bool(false))
    ) {
        at.push(
            out,
            ".x-kubernetes-preserve-unknown-fields",
            "Invalid value: false: must be true or undefined".into(),
        );
    }
    if let Some(mt) = map_type {
        if ty != "object" {
            at.push(
                out,
                ".type",
                required_or_invalid(ty, "must be object if x-kubernetes-map-type is specified"),
            );
        }
        if mt != "atomic" && mt != "granular" {
            at.push(
                out,
                ".x-kubernetes-map-type",
                format!(
                    "Unsupported value: {}: supported values: {}",
                    quote(mt),
                    supported(&["atomic", "granular"])
                ),
            );
        }
    }
    if let Some(lt) = list_type {
        if ty != "array" {
            at.push(
                out,
                ".type",
                required_or_invalid(ty, "must be array if x-kubernetes-list-type is specified"),
            );
        } else if lt == "set" {
            if let Some(is) = items {
                let item_list_type = str_of(is, "x-kubernetes-list-type");
                let shown = item_list_type.map_or_else(|| "null".to_owned(), quote);
                match str_of(is, "type") {
                    Some("array") if item_list_type.is_some_and(|t| t != "atomic") => at.push(
                        out,
                        ".items.x-kubernetes-list-type",
                        format!("Invalid value: {shown}: must be atomic as item of a list with x-kubernetes-list-type=set"),
                    ),
                    // Go shows the items' list type here, not their map type.
                    Some("object") if str_of(is, "x-kubernetes-map-type") != Some("atomic") => at.push(
                        out,
                        ".items.x-kubernetes-map-type",
                        format!("Invalid value: {shown}: must be atomic as item of a list with x-kubernetes-list-type=set"),
                    ),
                    _ => {}
                }
            }
        }
        if lt != "atomic" && lt != "set" && lt != "map" {
            at.push(
                out,
                ".x-kubernetes-list-type",
                format!(
                    "Unsupported value: {}: supported values: {}",
                    quote(lt),
                    supported(&["atomic", "set", "map"])
                ),
            );
        }
    }
    if !keys.is_empty() {
        match list_type {
            None => at.push(
                out,
                ".x-kubernetes-list-type",
                "Required value: must be map if x-kubernetes-list-map-keys is non-empty".into(),
            ),
            Some("map") => {}
            Some(lt) => at.push(
                out,
                ".x-kubernetes-list-type",
                format!(
                    "Invalid value: {}: must be map if x-kubernetes-list-map-keys is non-empty",
                    quote(lt)
                ),
            ),
        }
    }
    if list_type == Some("map") {
        if keys.is_empty() {
            at.push(
                out,
                ".x-kubernetes-list-map-keys",
                "Required value: must not be empty if x-kubernetes-list-type is map".into(),
            );
        }
        match items {
            None => at.push(
                out,
                ".items",
                "Required value: must have a schema if x-kubernetes-list-type is map".into(),
            ),
            Some(is) => {
                let item_type = str_of(is, "type").unwrap_or("");
                if item_type != "object" {
                    at.push(
                        out,
                        ".items.type",
                        format!("Invalid value: {}: must be object if parent array's x-kubernetes-list-type is map", quote(item_type)),
                    );
                } else {
                    let item_props = match is.get("properties") {
                        Some(Value::Map(p)) => Some(p),
                        _ => None,
                    };
                    let mut seen: Vec<&str> = Vec::new();
                    for k in &keys {
                        match item_props.and_then(|p| p.get(k)) {
                            Some(Value::Map(kp)) => {
                                if matches!(str_of(kp, "type"), Some("array" | "object")) {
                                    at.push(
                                        out,
                                        &format!(".items.properties[{k}].type"),
                                        "Invalid value: \"object\": must be a scalar type if parent array's x-kubernetes-list-type is map".into(),
                                    );
                                }
                            }
                            Some(_) => {}
                            None => {
                                let list = serde_json::to_string(&keys).unwrap_or_default();
                                at.push(
                                    out,
                                    ".x-kubernetes-list-map-keys",
                                    format!("Invalid value: {list}: entries must all be names of item properties"),
                                );
                            }
                        }
                        if seen.contains(k) {
                            let list = serde_json::to_string(&keys).unwrap_or_default();
                            at.push(
                                out,
                                ".x-kubernetes-list-map-keys",
                                format!(
                                    "Invalid value: {list}: must not contain duplicate entries"
                                ),
                            );
                        }
                        seen.push(k);
                    }
                }
            }
        }
    }
    // validateMapListKeysMapSet.
    if let (Some(is), Some(lt @ ("set" | "map"))) = (items, list_type) {
        if is_true(is, "nullable") {
            at.push(
                out,
                ".items.nullable",
                format!("Forbidden: cannot be nullable when x-kubernetes-list-type is {lt}"),
            );
        }
        if lt == "map" {
            let required: Vec<&str> = match is.get("required") {
                Some(Value::List(l)) => l
                    .iter()
                    .filter_map(|r| match r {
                        Value::String(r) => Some(r.as_str()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            for k in &keys {
                let Some(Value::Map(kp)) = (match is.get("properties") {
                    Some(Value::Map(p)) => p.get(k),
                    _ => None,
                }) else {
                    continue;
                };
                let has_default = !matches!(kp.get("default"), None | Some(Value::Null));
                if !required.contains(k) && !has_default {
                    at.push(
                        out,
                        &format!(".items.properties[{k}].default"),
                        "Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property".into(),
                    );
                }
                if is_true(kp, "nullable") {
                    at.push(
                        out,
                        &format!(".items.properties[{k}].nullable"),
                        "Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable".into(),
                    );
                }
            }
        }
    }

    // ValidateStructural.
    if ty == "array" && !s.contains_key("items") {
        at.push(out, ".items", "Required value: must be specified".into());
    }
    if embedded && ty != "object" {
        at.push(
            out,
            ".type",
            required_or_invalid(
                ty,
                "must be object if x-kubernetes-embedded-resource is true",
            ),
        );
    } else if ty.is_empty() && !int_or_string && !preserve {
        let detail = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        at.push(out, ".type", format!("Required value: {detail}"));
    }
    if embedded && !preserve && props.is_none_or(|p| p.is_empty()) {
        at.push(
            out,
            ".properties",
            "Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields".into(),
        );
    }

    if let Some(p) = props {
        for (k, child) in p.iter() {
            walk(
                child,
                &format!("{path}.properties[{k}]"),
                &format!("{pointer}/properties/{}", escape(k)),
                Level::Field,
                depth + 1,
                out,
            );
        }
    }
    if s.get("items").is_some_and(|i| matches!(i, Value::Map(_))) {
        if let Some(i) = s.get("items") {
            walk(
                i,
                &format!("{path}.items"),
                &format!("{pointer}/items"),
                Level::Item,
                depth + 1,
                out,
            );
        }
    }
    if let Some(ap @ Value::Map(_)) = s.get("additionalProperties") {
        walk(
            ap,
            &format!("{path}.additionalProperties"),
            &format!("{pointer}/additionalProperties"),
            // Go's structural validation calls map values "object fields".
            Level::Field,
            depth + 1,
            out,
        );
    }
}

fn required_or_invalid(ty: &str, detail: &str) -> String {
    if ty.is_empty() {
        format!("Required value: {detail}")
    } else {
        format!("Invalid value: {}: {detail}", quote(ty))
    }
}
