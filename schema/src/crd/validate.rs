//! The part of the API server's validation of a CRD that concerns the shape of its schemas
//! (`apiextensions/validation.ValidateCustomResourceDefinitionOpenAPISchema`, the structural
//! schema rules of `apiserver/schema.ValidateStructural`, and `validateMapListKeysMapSet`), with
//! Go's field paths and texts.
//!
//! Covered: the `type` (required where a structural schema needs it, one of the six names),
//! `items` of arrays, `x-kubernetes-preserve-unknown-fields: false`, `properties` next to
//! `additionalProperties`, `x-kubernetes-embedded-resource`, `x-kubernetes-map-type`,
//! `x-kubernetes-list-type` and `x-kubernetes-list-map-keys` (keys must be scalar item
//! properties, required or defaulted, not nullable), items of sets, the JSON Schema keywords a
//! CRD may not use (`$ref`, `id`, `definitions`, ...), which also keep the structural rules
//! from running as in Go; and the versions: DNS-1035 names, unique names, exactly one storage
//! version, and `status.storedVersions` (defaulted as the v1 defaults do); `default` where
//! Go forbids one (the root's `apiVersion`, `kind` and `metadata`, map values inside a
//! resource's metadata). Not covered: names, group, scope, CEL rules, value validations,
//! defaults against their schema, `metadata` rules.

use smd_value::{Map, Value};

use super::internal::{self, Shared};

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
    let mut found = Found::default();
    walk(
        schema,
        path,
        pointer,
        Level::Root,
        Meta::OUTSIDE,
        0,
        &mut found,
    );
    // `validateCustomResourceDefinitionValidation`: the structural rules run only on a schema
    // that can be made structural; when it cannot, its reason is shown only if nothing else is
    // wrong (the OpenAPI rules forbid the same fields, with better words).
    let before = out.len();
    out.append(&mut found.schema);
    match found.unsupported {
        None => out.append(&mut found.structural),
        Some(reason) if out.len() == before => out.push(FieldError {
            go_text: format!("{path}: Invalid value: \"\": {reason}"),
            pointer: pointer.to_owned(),
        }),
        Some(_) => {}
    }
}

/// What one schema's walk found, by the stage of Go's validation that finds it.
#[derive(Default)]
struct Found {
    /// `ValidateCustomResourceDefinitionOpenAPISchema`.
    schema: Vec<FieldError>,
    /// `ValidateStructural`.
    structural: Vec<FieldError>,
    /// Why `NewStructural` cannot read the schema (`validateUnsupportedFields`), if it cannot.
    unsupported: Option<String>,
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

/// Where a schema is with respect to a resource's type and metadata (the root's, or an
/// embedded resource's `apiVersion`, `kind` and `metadata`), and why a `default` may not be
/// set there (`withForbiddenDefaults`): defaults of the root's type and metadata are refused,
/// and so are those of map values inside metadata (pruning them without a value is ambiguous).
#[derive(Clone, Copy)]
struct Meta<'a> {
    inside: bool,
    forbid: Option<&'a str>,
}

impl Meta<'_> {
    const OUTSIDE: Meta<'static> = Meta {
        inside: false,
        forbid: None,
    };
}

/// The fields of a resource's type and metadata.
const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

/// Checks a schema and the schemas in it. Schemas nest as deep as the document, so this
/// recursion keeps a small frame, unoptimised builds included: the checks of one schema run out
/// of line, in [`check`].
fn walk(
    v: &Value,
    path: &str,
    pointer: &str,
    lvl: Level,
    meta: Meta<'_>,
    depth: usize,
    found: &mut Found,
) {
    if depth > super::MAX_DEPTH {
        return;
    }
    let Value::Map(s) = v else { return };
    check(s, &At { path, pointer }, lvl, meta.forbid, found);
    if let Some(Value::Map(p)) = s.get("properties") {
        let resource = lvl == Level::Root || is_true(s, "x-kubernetes-embedded-resource");
        walk_properties(p, path, pointer, (meta, resource, lvl), depth, found);
    }
    // Go's structural validation calls map values "object fields".
    for (key, lvl) in [
        ("items", Level::Item),
        ("additionalProperties", Level::Field),
    ] {
        if let Some(child @ Value::Map(_)) = s.get(key) {
            let (path, pointer) = child_at(path, pointer, key);
            let meta = if key == "additionalProperties" && meta.inside {
                Meta {
                    inside: true,
                    forbid: Some("inside additionalProperties applying to object metadata"),
                }
            } else {
                meta
            };
            walk(child, &path, &pointer, lvl, meta, depth + 1, found);
        }
    }
}

/// The properties of a schema (`parent`: where it is, whether it is a resource, its level).
#[inline(never)]
fn walk_properties(
    p: &Map,
    path: &str,
    pointer: &str,
    parent: (Meta<'_>, bool, Level),
    depth: usize,
    found: &mut Found,
) {
    let (meta, resource, lvl) = parent;
    for (k, child) in p.iter() {
        let in_meta = resource && META_FIELDS.contains(&k);
        let reason = (in_meta && lvl == Level::Root).then(|| format!("in top-level {k}"));
        let meta = Meta {
            inside: meta.inside || in_meta,
            forbid: reason.as_deref().or(meta.forbid),
        };
        walk(
            child,
            &format!("{path}.properties[{k}]"),
            &format!("{pointer}/properties/{}", escape(k)),
            Level::Field,
            meta,
            depth + 1,
            found,
        );
    }
}

/// The Go field path and the JSON pointer of the schema under `key`.
#[inline(never)]
fn child_at(path: &str, pointer: &str, key: &str) -> (String, String) {
    (format!("{path}.{key}"), format!("{pointer}/{key}"))
}

/// The rules on one schema, not on the schemas in it.
#[inline(never)]
fn check(s: &Map, at: &At<'_>, lvl: Level, forbid: Option<&str>, found: &mut Found) {
    if found.unsupported.is_none() {
        found.unsupported = unsupported(s);
    }
    let out = &mut found.schema;
    if let Some(reason) = forbid
        && s.get("default").is_some_and(|d| !d.is_null())
    {
        at.push(
            out,
            ".default",
            format!("Forbidden: must not be set {reason}"),
        );
    }
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

    // ValidateCustomResourceDefinitionOpenAPISchema, its OpenAPI v3 standard validator first.
    forbidden_keywords(s, at, out);
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
    let out = &mut found.structural;
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
}

fn required_or_invalid(ty: &str, detail: &str) -> String {
    if ty.is_empty() {
        format!("Required value: {detail}")
    } else {
        format!("Invalid value: {}: {detail}", quote(ty))
    }
}

/// The JSON Schema keywords a CRD may not use (`specStandardValidatorV3.validate`, and
/// `uniqueItems`).
fn forbidden_keywords(s: &Map, at: &At<'_>, out: &mut Vec<FieldError>) {
    let present = |k: &str| !matches!(s.get(k), None | Some(Value::Null));
    let non_empty_map = |k: &str| {
        s.get(k)
            .and_then(Value::as_map)
            .is_some_and(|m| !m.is_empty())
    };
    if s.get("id")
        .and_then(Value::as_str)
        .is_some_and(|id| !id.is_empty())
    {
        at.push(out, ".id", "Forbidden: id is not supported".into());
    }
    if present("additionalItems") {
        at.push(
            out,
            ".additionalItems",
            "Forbidden: additionalItems is not supported".into(),
        );
    }
    if non_empty_map("patternProperties") {
        at.push(
            out,
            ".patternProperties",
            "Forbidden: patternProperties is not supported".into(),
        );
    }
    if non_empty_map("definitions") {
        at.push(
            out,
            ".definitions",
            "Forbidden: definitions is not supported".into(),
        );
    }
    if present("dependencies") {
        at.push(
            out,
            ".dependencies",
            "Forbidden: dependencies is not supported".into(),
        );
    }
    if present("$ref") {
        at.push(out, ".$ref", "Forbidden: $ref is not supported".into());
    }
    if str_of(s, "type") == Some("null") {
        at.push(
            out,
            ".type",
            "Forbidden: type cannot be set to null, use nullable as an alternative".into(),
        );
    }
    if matches!(s.get("items"), Some(Value::List(l)) if !l.is_empty()) {
        at.push(
            out,
            ".items",
            "Forbidden: items must be a schema object and not an array".into(),
        );
    }
    if is_true(s, "uniqueItems") {
        at.push(
            out,
            ".uniqueItems",
            "Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes \
             quadratic"
                .into(),
        );
    }
}

/// The rules on `spec.versions` and `status.storedVersions`
/// (`validateCustomResourceDefinitionSpec`, `ValidateCustomResourceDefinitionStoredVersions`):
/// DNS-1035 names, unique names, exactly one storage version, and a stored version for it.
/// `stored` is the input's `status.storedVersions`; as the v1 defaults do, an empty one becomes
/// the first storage version.
pub(crate) fn versions(versions: &[Value], stored: Option<&Value>, out: &mut Vec<FieldError>) {
    let name_of = |v: &Value| -> String {
        v.as_map()
            .and_then(|m| m.get("name"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let storage_of = |v: &Value| {
        v.as_map()
            .and_then(|m| m.get("storage"))
            .and_then(Value::as_bool)
            .unwrap_or_default()
    };
    let names: Vec<String> = versions.iter().map(name_of).collect();
    let mut storage = 0;
    let mut unique = true;
    for (i, (name, v)) in names.iter().zip(versions).enumerate() {
        if storage_of(v) {
            storage += 1;
        }
        if names[..i].contains(name) {
            unique = false;
        }
        if let Some(text) = dns1035(name) {
            out.push(FieldError {
                go_text: format!(
                    "spec.versions[{i}].name: Invalid value: {}: {text}",
                    quote(name)
                ),
                pointer: format!("#/spec/versions/{i}/name"),
            });
        }
    }
    // The v1 → internal conversion copies the first version's name to `spec.version`, which
    // is checked too.
    if let Some(first) = names.first().filter(|n| !n.is_empty()) {
        if let Some(text) = dns1035(first) {
            out.push(FieldError {
                go_text: format!("spec.version: Invalid value: {}: {text}", quote(first)),
                pointer: "#/spec/versions/0/name".into(),
            });
        }
    }
    if !unique || storage != 1 {
        let shown = internal::versions(versions, shared_parts(versions));
        let mut push = |detail: &str| {
            out.push(FieldError {
                go_text: format!("spec.versions: Invalid value: {shown}: {detail}"),
                pointer: "#/spec/versions".into(),
            });
        };
        if !unique {
            push("must contain unique version names");
        }
        if storage != 1 {
            push("must have exactly one version marked as storage version");
        }
    }

    let given: Vec<String> = match stored {
        Some(Value::List(l)) => l
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_owned())
            .collect(),
        _ => Vec::new(),
    };
    let (stored, shown): (Vec<String>, String) = if given.is_empty() {
        match versions.iter().find(|v| storage_of(v)) {
            Some(v) => {
                let name = name_of(v);
                let shown = format!("[{}]", quote(&name));
                (vec![name], shown)
            }
            // Go's nil slice is `null`, an empty one given in the input `[]`.
            None if matches!(stored, Some(Value::List(_))) => (Vec::new(), "[]".into()),
            None => (Vec::new(), "null".into()),
        }
    } else {
        let shown = format!(
            "[{}]",
            given.iter().map(|s| quote(s)).collect::<Vec<_>>().join(",")
        );
        (given, shown)
    };
    if stored.is_empty() {
        out.push(FieldError {
            go_text: format!(
                "status.storedVersions: Invalid value: {shown}: must have at least one stored version"
            ),
            pointer: "#/status/storedVersions".into(),
        });
        return;
    }
    // Go keeps the last index of a name given twice.
    let mut remaining: Vec<(usize, &str)> = Vec::new();
    for (i, s) in stored.iter().enumerate() {
        match remaining.iter_mut().find(|(_, n)| *n == s.as_str()) {
            Some(entry) => entry.0 = i,
            None => remaining.push((i, s.as_str())),
        }
    }
    for (name, v) in names.iter().zip(versions) {
        let found = remaining.iter().position(|(_, n)| n == name);
        if storage_of(v) && found.is_none() {
            out.push(FieldError {
                go_text: format!(
                    "status.storedVersions: Invalid value: {shown}: must have the storage version {name}"
                ),
                pointer: "#/status/storedVersions".into(),
            });
        }
        if let Some(at) = found {
            remaining.remove(at);
        }
    }
    for (i, name) in remaining {
        out.push(FieldError {
            go_text: format!(
                "status.storedVersions[{i}]: Invalid value: {}: missing from spec.versions; \
                 {name} was previously a storage version, and must remain in spec.versions until \
                 a storage migration ensures no data remains persisted in {name} and removes \
                 {name} from status.storedVersions",
                quote(name)
            ),
            pointer: "#/status/storedVersions".into(),
        });
    }
}

/// Which per-version parts the v1 → internal conversion moved to the spec because every
/// version has the same one.
fn shared_parts(versions: &[Value]) -> Shared {
    fn part<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
        v.as_map().and_then(|m| m.get(key)).filter(|p| !p.is_null())
    }
    let same = |key: &str| {
        let first = versions.first().and_then(|v| part(v, key));
        versions.iter().all(|v| part(v, key) == first)
    };
    Shared {
        schema: same("schema"),
        subresources: same("subresources"),
        columns: same("additionalPrinterColumns"),
        selectable_fields: same("selectableFields"),
    }
}

/// `IsDNS1035Label`'s complaint, joined as Go joins it.
fn dns1035(name: &str) -> Option<String> {
    let mut errs = Vec::new();
    if name.len() > 63 {
        errs.push("must be no more than 63 characters".to_owned());
    }
    let bytes = name.as_bytes();
    let well_formed = bytes.first().is_some_and(u8::is_ascii_lowercase)
        && bytes
            .last()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-');
    if !well_formed {
        errs.push(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start \
             with an alphabetic character, and end with an alphanumeric character (e.g. \
             'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
                .to_owned(),
        );
    }
    (!errs.is_empty()).then(|| errs.join(","))
}

/// `validateUnsupportedFields` of the structural schema reader: the first keyword it refuses.
fn unsupported(s: &Map) -> Option<String> {
    let text = |k: &str| {
        s.get(k)
            .and_then(Value::as_str)
            .is_some_and(|v| !v.is_empty())
    };
    let non_empty = |k: &str| {
        s.get(k)
            .and_then(Value::as_map)
            .is_some_and(|m| !m.is_empty())
    };
    let reason = if text("id") {
        "OpenAPIV3Schema 'id' is not supported"
    } else if text("$schema") {
        "OpenAPIV3Schema 'schema' is not supported"
    } else if text("$ref") {
        "OpenAPIV3Schema '$ref' is not supported"
    } else if non_empty("patternProperties") {
        "OpenAPIV3Schema 'patternProperties' is not supported"
    } else if non_empty("dependencies") {
        "OpenAPIV3Schema 'dependencies' is not supported"
    } else if !matches!(s.get("additionalItems"), None | Some(Value::Null)) {
        "OpenAPIV3Schema 'additionalItems' is not supported"
    } else if non_empty("definitions") {
        "OpenAPIV3Schema 'definitions' is not supported"
    } else if matches!(s.get("items"), Some(Value::List(_))) {
        "OpenAPIV3Schema 'items' must be a schema, but is an array"
    } else if matches!(
        s.get("x-kubernetes-preserve-unknown-fields"),
        Some(Value::Bool(false))
    ) {
        "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
    } else {
        return None;
    };
    Some(reason.to_owned())
}
