//! The text Go's field errors show for a CRD's `spec.versions`: `encoding/json` of the
//! internal (`apiextensions`, not `v1`) versions the API server validates. Those types have no
//! JSON tags, so every field appears under its Go name, zero values included, pointers as
//! `null`; per-version parts every version shares have been moved to the spec by the v1 →
//! internal conversion and show as `null`.

use smd_value::value::gojson;
use smd_value::{Map, Value};

/// How deep a schema is rendered; the validation walk stops at the same depth.
const MAX_DEPTH: usize = super::MAX_DEPTH;

/// What the conversion moved out of every version because all versions had the same one.
#[derive(Clone, Copy, Default)]
pub(crate) struct Shared {
    pub(crate) schema: bool,
    pub(crate) subresources: bool,
    pub(crate) columns: bool,
    pub(crate) selectable_fields: bool,
}

/// `[]apiextensions.CustomResourceDefinitionVersion` of the v1 `versions`, as JSON.
pub(crate) fn versions(versions: &[Value], shared: Shared) -> String {
    let mut out = String::from("[");
    for (i, v) in versions.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let empty = Map::new();
        let v = v.as_map().unwrap_or(&empty);
        let mut o = Obj::new(&mut out);
        o.string("Name", v, "name");
        o.boolean("Served", v, "served");
        o.boolean("Storage", v, "storage");
        o.boolean("Deprecated", v, "deprecated");
        o.opt_string("DeprecationWarning", v, "deprecationWarning");
        o.key("Schema");
        match v.get("schema").and_then(Value::as_map) {
            Some(s) if !shared.schema => {
                let mut c = Obj::new(o.out);
                c.key("OpenAPIV3Schema");
                opt_props(c.out, s.get("openAPIV3Schema"), 0);
                c.end();
            }
            _ => o.out.push_str("null"),
        }
        o.key("Subresources");
        match v.get("subresources").and_then(Value::as_map) {
            Some(s) if !shared.subresources => subresources(o.out, s),
            _ => o.out.push_str("null"),
        }
        o.key("AdditionalPrinterColumns");
        match v.get("additionalPrinterColumns").and_then(Value::as_list) {
            Some(cols) if !shared.columns => list(o.out, cols, |out, c| {
                let empty = Map::new();
                let c = c.as_map().unwrap_or(&empty);
                let mut o = Obj::new(out);
                o.string("Name", c, "name");
                o.string("Type", c, "type");
                o.string("Format", c, "format");
                o.string("Description", c, "description");
                o.integer("Priority", c, "priority");
                o.string("JSONPath", c, "jsonPath");
                o.end();
            }),
            _ => o.out.push_str("null"),
        }
        o.key("SelectableFields");
        match v.get("selectableFields").and_then(Value::as_list) {
            Some(fields) if !shared.selectable_fields => list(o.out, fields, |out, f| {
                let empty = Map::new();
                let f = f.as_map().unwrap_or(&empty);
                let mut o = Obj::new(out);
                o.string("JSONPath", f, "jsonPath");
                o.end();
            }),
            _ => o.out.push_str("null"),
        }
        o.end();
    }
    out.push(']');
    out
}

fn subresources(out: &mut String, s: &Map) {
    let mut o = Obj::new(out);
    o.key("Status");
    match s.get("status") {
        Some(Value::Map(_)) => o.out.push_str("{}"),
        _ => o.out.push_str("null"),
    }
    o.key("Scale");
    match s.get("scale").and_then(Value::as_map) {
        Some(scale) => {
            let mut c = Obj::new(o.out);
            c.string("SpecReplicasPath", scale, "specReplicasPath");
            c.string("StatusReplicasPath", scale, "statusReplicasPath");
            c.opt_string("LabelSelectorPath", scale, "labelSelectorPath");
            c.end();
        }
        None => o.out.push_str("null"),
    }
    o.end();
}

/// A `*JSONSchemaProps`.
fn opt_props(out: &mut String, v: Option<&Value>, depth: usize) {
    match v.and_then(Value::as_map) {
        Some(s) => props(out, s, depth),
        None => out.push_str("null"),
    }
}

/// `apiextensions.JSONSchemaProps`, every field in declaration order.
fn props(out: &mut String, s: &Map, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("null");
        return;
    }
    let deeper = depth + 1;
    let mut o = Obj::new(out);
    o.string("ID", s, "id");
    o.string("Schema", s, "$schema");
    o.opt_string("Ref", s, "$ref");
    o.string("Description", s, "description");
    o.string("Type", s, "type");
    o.boolean("Nullable", s, "nullable");
    o.string("Format", s, "format");
    o.string("Title", s, "title");
    o.json("Default", s, "default");
    o.opt_number("Maximum", s, "maximum");
    o.boolean("ExclusiveMaximum", s, "exclusiveMaximum");
    o.opt_number("Minimum", s, "minimum");
    o.boolean("ExclusiveMinimum", s, "exclusiveMinimum");
    o.opt_number("MaxLength", s, "maxLength");
    o.opt_number("MinLength", s, "minLength");
    o.string("Pattern", s, "pattern");
    o.opt_number("MaxItems", s, "maxItems");
    o.opt_number("MinItems", s, "minItems");
    o.boolean("UniqueItems", s, "uniqueItems");
    o.opt_number("MultipleOf", s, "multipleOf");
    o.key("Enum");
    match s.get("enum").and_then(Value::as_list) {
        Some(values) => list(o.out, values, json_value),
        None => o.out.push_str("null"),
    }
    o.opt_number("MaxProperties", s, "maxProperties");
    o.opt_number("MinProperties", s, "minProperties");
    o.strings("Required", s, "required");
    o.key("Items");
    match s.get("items") {
        Some(Value::Map(item)) => {
            let mut c = Obj::new(o.out);
            c.key("Schema");
            props(c.out, item, deeper);
            c.key("JSONSchemas");
            c.out.push_str("null");
            c.end();
        }
        Some(Value::List(items)) => {
            let mut c = Obj::new(o.out);
            c.key("Schema");
            c.out.push_str("null");
            c.key("JSONSchemas");
            list(c.out, items, |out, i| opt_props(out, Some(i), deeper));
            c.end();
        }
        _ => o.out.push_str("null"),
    }
    for (name, key) in [("AllOf", "allOf"), ("OneOf", "oneOf"), ("AnyOf", "anyOf")] {
        o.key(name);
        match s.get(key).and_then(Value::as_list) {
            Some(l) => list(o.out, l, |out, i| opt_props(out, Some(i), deeper)),
            None => o.out.push_str("null"),
        }
    }
    o.key("Not");
    opt_props(o.out, s.get("not"), deeper);
    o.key("Properties");
    schema_map(o.out, s.get("properties"), deeper);
    o.key("AdditionalProperties");
    props_or_bool(o.out, s.get("additionalProperties"), deeper);
    o.key("PatternProperties");
    schema_map(o.out, s.get("patternProperties"), deeper);
    o.key("Dependencies");
    match s.get("dependencies").and_then(Value::as_map) {
        Some(deps) => sorted_map(o.out, deps, |out, d| {
            let mut c = Obj::new(out);
            c.key("Schema");
            match d {
                Value::Map(m) => props(c.out, m, deeper),
                _ => c.out.push_str("null"),
            }
            c.key("Property");
            match d {
                Value::List(l) => list(c.out, l, json_value),
                _ => c.out.push_str("null"),
            }
            c.end();
        }),
        None => o.out.push_str("null"),
    }
    o.key("AdditionalItems");
    props_or_bool(o.out, s.get("additionalItems"), deeper);
    o.key("Definitions");
    schema_map(o.out, s.get("definitions"), deeper);
    o.key("ExternalDocs");
    match s.get("externalDocs").and_then(Value::as_map) {
        Some(d) => {
            let mut c = Obj::new(o.out);
            c.string("Description", d, "description");
            c.string("URL", d, "url");
            c.end();
        }
        None => o.out.push_str("null"),
    }
    o.json("Example", s, "example");
    o.opt_bool(
        "XPreserveUnknownFields",
        s,
        "x-kubernetes-preserve-unknown-fields",
    );
    o.boolean("XEmbeddedResource", s, "x-kubernetes-embedded-resource");
    o.boolean("XIntOrString", s, "x-kubernetes-int-or-string");
    o.strings("XListMapKeys", s, "x-kubernetes-list-map-keys");
    o.opt_string("XListType", s, "x-kubernetes-list-type");
    o.opt_string("XMapType", s, "x-kubernetes-map-type");
    o.key("XValidations");
    match s.get("x-kubernetes-validations").and_then(Value::as_list) {
        Some(rules) => list(o.out, rules, |out, r| {
            let empty = Map::new();
            validation_rule(out, r.as_map().unwrap_or(&empty));
        }),
        None => o.out.push_str("null"),
    }
    o.end();
}

/// A `ValidationRule` as Go's `encoding/json` writes the internal type.
pub(crate) fn validation_rule(out: &mut String, r: &Map) {
    let mut c = Obj::new(out);
    c.string("Rule", r, "rule");
    c.string("Message", r, "message");
    c.string("MessageExpression", r, "messageExpression");
    c.opt_string("Reason", r, "reason");
    c.string("FieldPath", r, "fieldPath");
    c.opt_bool("OptionalOldSelf", r, "optionalOldSelf");
    c.end();
}

/// `*JSONSchemaPropsOrBool`: a boolean `b` is `{Allows: b}`, a schema allows.
fn props_or_bool(out: &mut String, v: Option<&Value>, depth: usize) {
    match v {
        Some(Value::Bool(b)) => {
            out.push_str(if *b {
                r#"{"Allows":true,"Schema":null}"#
            } else {
                r#"{"Allows":false,"Schema":null}"#
            });
        }
        Some(Value::Map(m)) => {
            out.push_str(r#"{"Allows":true,"Schema":"#);
            props(out, m, depth);
            out.push('}');
        }
        _ => out.push_str("null"),
    }
}

/// `map[string]JSONSchemaProps`.
fn schema_map(out: &mut String, v: Option<&Value>, depth: usize) {
    match v.and_then(Value::as_map) {
        Some(m) => sorted_map(out, m, |out, s| match s {
            Value::Map(s) => props(out, s, depth),
            _ => props(out, &Map::new(), depth),
        }),
        None => out.push_str("null"),
    }
}

fn sorted_map(out: &mut String, m: &Map, mut each: impl FnMut(&mut String, &Value)) {
    let mut entries: Vec<(&str, &Value)> = m.iter().collect();
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out.push('{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(out, k);
        out.push(':');
        each(out, v);
    }
    out.push('}');
}

fn list(out: &mut String, items: &[Value], mut each: impl FnMut(&mut String, &Value)) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, item);
    }
    out.push(']');
}

/// A JSON object being written: `key` adds the separator and the quoted name.
struct Obj<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Obj<'a> {
    fn new(out: &'a mut String) -> Obj<'a> {
        out.push('{');
        Obj { out, first: true }
    }

    fn key(&mut self, name: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        string(self.out, name);
        self.out.push(':');
    }

    fn end(self) {
        self.out.push('}');
    }

    fn string(&mut self, name: &str, m: &Map, key: &str) {
        self.key(name);
        string(
            self.out,
            m.get(key).and_then(Value::as_str).unwrap_or_default(),
        );
    }

    fn opt_string(&mut self, name: &str, m: &Map, key: &str) {
        self.key(name);
        match m.get(key).and_then(Value::as_str) {
            Some(s) => string(self.out, s),
            None => self.out.push_str("null"),
        }
    }

    fn boolean(&mut self, name: &str, m: &Map, key: &str) {
        self.key(name);
        let b = m.get(key).and_then(Value::as_bool).unwrap_or_default();
        self.out.push_str(if b { "true" } else { "false" });
    }

    fn opt_bool(&mut self, name: &str, m: &Map, key: &str) {
        self.key(name);
        match m.get(key).and_then(Value::as_bool) {
            Some(true) => self.out.push_str("true"),
            Some(false) => self.out.push_str("false"),
            None => self.out.push_str("null"),
        }
    }

    fn integer(&mut self, name: &str, m: &Map, key: &str) {
        self.key(name);
        match m.get(key) {
            Some(v @ (Value::Int(_) | Value::Float(_))) => json_value(self.out, v),
            _ => self.out.push('0'),
        }
    }

    fn opt_number(&mut self, name: &str, m: &Map, key: &str) {
        self.key(name);
        match m.get(key) {
            Some(v @ (Value::Int(_) | Value::Float(_))) => json_value(self.out, v),
            _ => self.out.push_str("null"),
        }
    }

    fn strings(&mut self, name: &str, m: &Map, key: &str) {
        self.key(name);
        match m.get(key).and_then(Value::as_list) {
            Some(l) => list(self.out, l, json_value),
            None => self.out.push_str("null"),
        }
    }

    /// A `*JSON` (an `interface{}` from `json.Unmarshal`: numbers are float64).
    fn json(&mut self, name: &str, m: &Map, key: &str) {
        self.key(name);
        match m.get(key) {
            Some(v) => json_value(self.out, v),
            None => self.out.push_str("null"),
        }
    }
}

/// `encoding/json` of a decoded JSON value: map keys sorted, numbers as float64.
fn json_value(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        #[allow(clippy::cast_precision_loss)] // Go decodes every JSON number as a float64
        Value::Int(i) => float(out, *i as f64),
        Value::Float(f) => float(out, *f),
        Value::String(s) => string(out, s),
        Value::List(l) => list(out, l, json_value),
        Value::Map(m) => sorted_map(out, m, json_value),
    }
}

/// Go's float encoder; a value Go could not encode (never in a decoded schema) as `null`.
fn float(out: &mut String, f: f64) {
    if gojson::write_float(out, f).is_err() {
        out.push_str("null");
    }
}

/// A Go JSON string, HTML-escaped as `encoding/json` writes it.
fn string(out: &mut String, s: &str) {
    gojson::write_string(out, s);
}
