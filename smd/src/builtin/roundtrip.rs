//! A body decoded into its Go type and encoded back, as the API server's JSON serializer does
//! it: `sigs.k8s.io/json`'s `UnmarshalStrict` (case-sensitive, unknown fields noted with their
//! path) into the kind's Go struct, then `encoding/json`'s `Marshal`.
//!
//! The walk builds the Go value first ([`GoVal`]: what the struct holds, with Go's zero values
//! for what the body left out) and then writes it, because what is written depends on the
//! whole decoded field (`omitempty` on an empty map, a `Time` that stayed zero).

use smd_fieldpath::Value;
use smd_fieldpath::value::Map;

use super::gotypes::{Custom, GoType, GoTypes, Scalar, Shape, TypeDef};
use super::quantity;
use crate::managedfields::Timestamp;

/// Decoding's findings: the first fatal error (Go keeps only that one) and the strict
/// decoding errors, in the order met.
pub(crate) struct Walk<'a> {
    types: &'a GoTypes,
    pub(crate) error: Option<Failure>,
    /// Whether unknown fields are noted (`UnmarshalStrict`) or silently dropped (the plain
    /// `json.Unmarshal` that apiextensions' custom types call on their parts).
    strict_enabled: bool,
    /// Paths of unknown fields.
    pub(crate) strict: Vec<String>,
    /// `sigs.k8s.io/json`'s strict field stack: `spec.containers[0].name`.
    path: String,
    /// `encoding/json`'s error context: the model name of the struct being decoded (its Go
    /// name, the last part, is taken only for an error) and the field names.
    context_struct: Option<&'a str>,
    context_fields: Vec<&'a str>,
}

/// The decoder's error, kept in parts until the end: a type error met inside a custom type's
/// own `json.Unmarshal` gets the enclosing decoder's context added, as Go's does.
#[derive(Debug, Clone)]
pub(crate) enum Failure {
    /// `UnmarshalTypeError`.
    Type {
        what: String,
        go_type: String,
        struct_name: Option<String>,
        field: String,
    },
    /// Any other error, in its words.
    Text(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Type {
                what,
                go_type,
                struct_name,
                field,
            } => {
                if struct_name.is_some() || !field.is_empty() {
                    let s = struct_name.as_deref().unwrap_or("");
                    write!(
                        f,
                        "json: cannot unmarshal {what} into Go struct field {s}.{field} of type {go_type}"
                    )
                } else {
                    write!(
                        f,
                        "json: cannot unmarshal {what} into Go value of type {go_type}"
                    )
                }
            }
            Failure::Text(t) => f.write_str(t),
        }
    }
}

/// A Go value as decoding leaves it.
#[derive(Debug, Clone)]
pub(crate) enum GoVal {
    /// A nil pointer, slice, map or interface.
    Nil,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    Slice(Vec<GoVal>),
    Map(Vec<(String, GoVal)>),
    /// A struct by type index, one slot per flattened field (`None`: still Go's zero value).
    Struct(usize, Vec<Option<GoVal>>),
    Ptr(Box<GoVal>),
    /// An `interface{}` holding what JSON gave.
    Any(Value),
    Custom(CustomVal),
}

/// What a custom-encoded type holds, as far as its JSON shows.
#[derive(Debug, Clone)]
pub(crate) enum CustomVal {
    /// A quantity's canonical text (`None`: zero).
    Quantity(Option<String>),
    /// An int32 or a string.
    IntOrString(Value),
    /// `metav1.Time` (`None`: zero).
    Time(Option<Timestamp>),
    /// `metav1.MicroTime`: seconds and microseconds (`None`: zero).
    MicroTime(Option<(Timestamp, u32)>),
    /// Raw JSON kept as given (`None`: empty, written `null`).
    Raw(Option<Value>),
    /// apiextensions' `JSONSchemaPropsOrBool`, `OrArray`, `OrStringArray`.
    SchemaOr(SchemaOr),
}

/// What a `JSONSchemaPropsOr*` holds.
#[derive(Debug, Clone, Default)]
pub(crate) struct SchemaOr {
    kind: Option<Custom>,
    schema: Option<Box<GoVal>>,
    /// The list of schemas (`OrArray`) or strings (`OrStringArray`).
    array: Option<Box<GoVal>>,
    allows: bool,
}

const MAX_DEPTH: usize = smd_fieldpath::MAX_DEPTH;

impl<'a> Walk<'a> {
    pub(crate) fn new(types: &'a GoTypes) -> Walk<'a> {
        Walk {
            types,
            error: None,
            strict_enabled: true,
            strict: Vec::new(),
            path: String::new(),
            context_struct: None,
            context_fields: Vec::new(),
        }
    }

    fn save_error(&mut self, message: String) {
        if self.error.is_none() {
            self.error = Some(Failure::Text(message));
        }
    }

    /// `UnmarshalTypeError` with the decoder's context.
    fn type_error(&mut self, what: &str, go_type: &str) {
        self.save_failure(Failure::Type {
            what: what.to_owned(),
            go_type: go_type.to_owned(),
            struct_name: None,
            field: String::new(),
        });
    }

    /// `saveError` with `addErrorContext`: a type error gets this decoder's struct and field
    /// names in front of its own.
    fn save_failure(&mut self, failure: Failure) {
        if self.error.is_some() {
            return;
        }
        let has_context = self.context_struct.is_some() || !self.context_fields.is_empty();
        self.error = Some(match failure {
            Failure::Type {
                what,
                go_type,
                field,
                ..
            } if has_context => {
                let mut fields = self.context_fields.clone();
                if !field.is_empty() {
                    fields.push(&field);
                }
                let field = fields.join(".");
                Failure::Type {
                    what,
                    go_type,
                    struct_name: self.context_struct.map(|t| go_struct_name(t).to_owned()),
                    field,
                }
            }
            other => other,
        });
    }

    /// An unknown field: its path, once, at most 100 (as `saveStrictError` keeps them).
    fn unknown_field(&mut self, field: &str) {
        if !self.strict_enabled || self.strict.len() >= 100 {
            return;
        }
        let path = if self.path.is_empty() {
            field.to_owned()
        } else {
            format!("{}.{field}", self.path)
        };
        if !self.strict.contains(&path) {
            self.strict.push(path);
        }
    }

    /// Decodes `v` into a value of `shape` (Go type text `go_type`).
    ///
    /// The recursion runs through `decode`, `named`, `object`, `slice` and `map`, which keep
    /// small frames (everything else is out of line): a body nested to the readers' limit
    /// decodes on a 2 MiB stack in an unoptimised build.
    pub(crate) fn decode(
        &mut self,
        v: &Value,
        shape: &Shape,
        go_type: &str,
        depth: usize,
    ) -> GoVal {
        if depth > MAX_DEPTH {
            self.too_deep();
            return GoVal::Nil;
        }
        match shape {
            Shape::Pointer(inner) => {
                if v.is_null() {
                    return GoVal::Nil;
                }
                let elem = go_type.strip_prefix('*').unwrap_or(go_type);
                GoVal::Ptr(Box::new(self.decode(v, inner, elem, depth + 1)))
            }
            Shape::Interface => any(v),
            Shape::Slice(inner) => self.slice(v, inner, go_type, depth),
            Shape::Bytes => self.bytes(v, go_type),
            Shape::Map(inner) => self.map(v, inner, go_type, depth),
            Shape::Scalar(s) => self.scalar(v, *s, go_type),
            Shape::Named(i) => self.named(v, *i, go_type, depth),
        }
    }

    #[inline(never)]
    fn too_deep(&mut self) {
        self.save_error("json: exceeded max depth".to_owned());
    }

    #[inline(never)]
    fn mismatch(&mut self, v: &Value, go_type: &str) -> GoVal {
        self.type_error(json_kind(v), go_type);
        GoVal::Nil
    }

    #[inline(never)]
    fn push_index(&mut self, i: usize) {
        use std::fmt::Write as _;
        let _ = write!(self.path, "[{i}]");
    }

    #[inline(never)]
    fn push_key(&mut self, key: &str) {
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(key);
    }

    fn slice(&mut self, v: &Value, inner: &Shape, go_type: &str, depth: usize) -> GoVal {
        let Value::List(items) = v else {
            return if v.is_null() {
                GoVal::Nil
            } else {
                self.mismatch(v, go_type)
            };
        };
        let elem = go_type.strip_prefix("[]").unwrap_or(go_type);
        let mut out = Vec::with_capacity(items.len());
        let base = self.path.len();
        for (i, item) in items.iter().enumerate() {
            self.push_index(i);
            out.push(self.decode(item, inner, elem, depth + 1));
            self.path.truncate(base);
        }
        GoVal::Slice(out)
    }

    #[inline(never)]
    fn bytes(&mut self, v: &Value, go_type: &str) -> GoVal {
        match v {
            Value::Null => GoVal::Nil,
            Value::String(s) => match base64_decode(s) {
                Ok(b) => GoVal::Bytes(b),
                Err(at) => {
                    self.save_error(format!("illegal base64 data at input byte {at}"));
                    GoVal::Nil
                }
            },
            Value::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                let base = self.path.len();
                for (i, item) in items.iter().enumerate() {
                    self.push_index(i);
                    match self.scalar(item, Scalar::Uint(8), "uint8") {
                        GoVal::Uint(b) => out.push(u8::try_from(b).unwrap_or(0)),
                        _ => out.push(0),
                    }
                    self.path.truncate(base);
                }
                GoVal::Bytes(out)
            }
            other => self.mismatch(other, go_type),
        }
    }

    fn map(&mut self, v: &Value, inner: &Shape, go_type: &str, depth: usize) -> GoVal {
        let Value::Map(m) = v else {
            return if v.is_null() {
                GoVal::Nil
            } else {
                self.mismatch(v, go_type)
            };
        };
        let elem = map_elem(go_type);
        let mut out: Vec<(String, GoVal)> = Vec::with_capacity(m.len());
        let base = self.path.len();
        for (k, item) in m.iter() {
            self.push_key(k);
            let decoded = self.decode(item, inner, elem, depth + 1);
            self.path.truncate(base);
            out.push((k.to_owned(), decoded));
        }
        GoVal::Map(out)
    }

    fn named(&mut self, v: &Value, i: usize, go_type: &str, depth: usize) -> GoVal {
        let types = self.types;
        let Some(t) = types.get(i) else {
            return self.missing_type(i);
        };
        match (&t.def, v) {
            (TypeDef::Custom(c), _) => GoVal::Custom(self.custom(v, *c, &t.name, depth)),
            (TypeDef::Struct(_), Value::Map(m)) => self.object(i, t, m, depth),
            (TypeDef::Struct(_), Value::Null) => GoVal::Struct(i, vec![None; t.flat.len()]),
            (TypeDef::Struct(_), other) => {
                self.mismatch(other, go_type);
                GoVal::Struct(i, vec![None; t.flat.len()])
            }
        }
    }

    #[inline(never)]
    fn missing_type(&mut self, i: usize) -> GoVal {
        self.save_error(format!("smd: no Go type {i}"));
        GoVal::Nil
    }

    fn object(&mut self, index: usize, t: &'a GoType, m: &Map, depth: usize) -> GoVal {
        let mut slots: Vec<Option<GoVal>> = vec![None; t.flat.len()];
        let saved_struct = self.context_struct.take();
        let saved_fields = self.context_fields.len();
        let base = self.path.len();
        for (key, item) in m.iter() {
            let Some(slot) = t.flat_by_json.get(key) else {
                self.unknown_field(key);
                continue;
            };
            let Some(f) = t.flat.get(slot) else {
                continue;
            };
            self.enter_field(t, f);
            let field = &f.field;
            let decoded = self.decode(item, &field.shape, &field.go_type, depth + 1);
            self.path.truncate(base);
            self.context_fields.truncate(saved_fields);
            if let Some(s) = slots.get_mut(slot) {
                *s = Some(decoded);
            }
        }
        self.context_struct = saved_struct;
        GoVal::Struct(index, slots)
    }

    /// The decoder's context and the strict path for a field of `t`.
    #[inline(never)]
    fn enter_field(&mut self, t: &'a GoType, f: &'a super::gotypes::FlatField) {
        self.context_fields.extend(f.via.iter().map(String::as_str));
        self.context_fields.push(&f.field.json);
        self.context_struct = Some(&t.name);
        self.push_key(&f.field.json);
    }

    #[inline(never)]
    fn scalar(&mut self, v: &Value, s: Scalar, go_type: &str) -> GoVal {
        match (v, s) {
            (Value::Null, _) => zero_scalar(s),
            (Value::Bool(b), Scalar::Bool) => GoVal::Bool(*b),
            (Value::String(t), Scalar::String) => GoVal::Str(t.clone()),
            (Value::Int(i), Scalar::Int(bits)) => {
                if fits_int(*i, bits) {
                    GoVal::Int(*i)
                } else {
                    self.type_error(&format!("number {i}"), go_type);
                    zero_scalar(s)
                }
            }
            (Value::Int(i), Scalar::Uint(bits)) => match u64::try_from(*i) {
                Ok(u) if bits >= 64 || u < (1u64 << bits) => GoVal::Uint(u),
                _ => {
                    self.type_error(&format!("number {i}"), go_type);
                    zero_scalar(s)
                }
            },
            (Value::Float(f), Scalar::Int(_) | Scalar::Uint(_)) => {
                self.type_error(&format!("number {}", number_text(*f)), go_type);
                zero_scalar(s)
            }
            (Value::Int(i), Scalar::Float(bits)) => float_value(*i as f64, bits),
            (Value::Float(f), Scalar::Float(bits)) => {
                if bits == 32 && f.is_finite() && (*f as f32).is_infinite() {
                    self.type_error(&format!("number {}", number_text(*f)), go_type);
                    return zero_scalar(s);
                }
                float_value(*f, bits)
            }
            (Value::Int(_) | Value::Float(_), _) => {
                self.type_error("number", go_type);
                zero_scalar(s)
            }
            (other, _) => {
                self.type_error(json_kind(other), go_type);
                zero_scalar(s)
            }
        }
    }

    #[inline(never)]
    fn custom(&mut self, v: &Value, c: Custom, name: &str, depth: usize) -> CustomVal {
        match c {
            Custom::Quantity => match v {
                Value::Null => CustomVal::Quantity(None),
                Value::String(s) => self.quantity(go_trim_space(s)),
                Value::Int(i) => self.quantity(&i.to_string()),
                Value::Float(f) => self.quantity(&number_text(*f)),
                // UnmarshalJSON parses the raw text: `true`, `{...}`, `[...]` never match.
                _ => {
                    self.save_error(quantity::QuantityError::FormatWrong.to_string());
                    CustomVal::Quantity(None)
                }
            },
            Custom::IntOrString => match v {
                Value::String(s) => CustomVal::IntOrString(Value::String(s.clone())),
                Value::Null => CustomVal::IntOrString(Value::Int(0)),
                Value::Int(i) if i32::try_from(*i).is_ok() => {
                    CustomVal::IntOrString(Value::Int(*i))
                }
                other => {
                    // UnmarshalJSON's own json.Unmarshal into the int32; the decoder adds its
                    // context to that error.
                    let what = match other {
                        Value::Int(i) => format!("number {i}"),
                        Value::Float(f) => format!("number {}", number_text(*f)),
                        o => json_kind(o).to_owned(),
                    };
                    self.type_error(&what, "int32");
                    CustomVal::IntOrString(Value::Int(0))
                }
            },
            Custom::Time => match v {
                Value::Null => CustomVal::Time(None),
                Value::String(s) => match Timestamp::parse(s) {
                    Ok(t) => CustomVal::Time(Some(t)),
                    Err(e) => {
                        let text = super::gotime::rfc3339_error(s).unwrap_or_else(|| e.to_string());
                        self.save_error(text);
                        CustomVal::Time(None)
                    }
                },
                other => {
                    self.type_error(json_kind(other), "string");
                    CustomVal::Time(None)
                }
            },
            Custom::MicroTime => match v {
                Value::Null => CustomVal::MicroTime(None),
                Value::String(s) => match micro_time(s) {
                    Ok(t) => CustomVal::MicroTime(Some(t)),
                    Err(text) => {
                        self.save_error(text);
                        CustomVal::MicroTime(None)
                    }
                },
                other => {
                    self.type_error(json_kind(other), "string");
                    CustomVal::MicroTime(None)
                }
            },
            Custom::Duration => match v {
                Value::Null => CustomVal::Raw(None),
                other => CustomVal::Raw(Some(other.clone())),
            },
            Custom::FieldsV1 | Custom::RawExtension | Custom::Json => match v {
                Value::Null => CustomVal::Raw(None),
                other => CustomVal::Raw(Some(other.clone())),
            },
            Custom::SchemaOrArray | Custom::SchemaOrBool | Custom::SchemaOrStringArray => {
                self.schema_or(v, c, name, depth)
            }
        }
    }

    /// apiextensions' `JSONSchemaPropsOr*`: their `UnmarshalJSON` looks at the first byte
    /// and decodes the part with a plain (not strict) `json.Unmarshal`.
    #[inline(never)]
    fn schema_or(&mut self, v: &Value, c: Custom, name: &str, depth: usize) -> CustomVal {
        let props = name
            .rsplit_once('.')
            .map(|(package, _)| format!("{package}.JSONSchemaProps"))
            .unwrap_or_default();
        let types = self.types;
        let Some(index) = types.index_of(&props) else {
            self.save_error(format!("smd: no Go type {props}"));
            return CustomVal::SchemaOr(SchemaOr::default());
        };
        // Go names the type by its package: `v1.JSONSchemaProps`, `v1beta1.JSONSchemaProps`.
        let package = props.rsplit('.').nth(1).unwrap_or("v1");
        let go_type = format!("{package}.JSONSchemaProps");
        let list_type = format!("[]{go_type}");
        let mut out = SchemaOr {
            kind: Some(c),
            ..SchemaOr::default()
        };
        match (c, v) {
            (_, Value::Map(_)) => {
                out.schema = Some(Box::new(self.nested(
                    v,
                    &Shape::Named(index),
                    &go_type,
                    depth,
                )));
                out.allows = true;
            }
            (Custom::SchemaOrBool, Value::Bool(b)) => out.allows = *b,
            (Custom::SchemaOrBool, _) => {
                self.save_error("boolean or JSON schema expected".to_owned());
            }
            (Custom::SchemaOrArray, Value::List(_)) => {
                let shape = Shape::Slice(Box::new(Shape::Named(index)));
                out.array = Some(Box::new(self.nested(v, &shape, &list_type, depth)));
            }
            (Custom::SchemaOrStringArray, Value::List(_)) => {
                let shape = Shape::Slice(Box::new(Shape::Scalar(Scalar::String)));
                out.array = Some(Box::new(self.nested(v, &shape, "[]string", depth)));
            }
            _ => {}
        }
        CustomVal::SchemaOr(out)
    }

    /// A fresh, non-strict decoder for a custom type's part; its error joins this one's.
    fn nested(&mut self, v: &Value, shape: &Shape, go_type: &str, depth: usize) -> GoVal {
        let mut inner = Walk::new(self.types);
        inner.strict_enabled = false;
        let decoded = inner.decode(v, shape, go_type, depth + 1);
        if let Some(failure) = inner.error {
            self.save_failure(failure);
        }
        decoded
    }

    fn quantity(&mut self, text: &str) -> CustomVal {
        match quantity::canonical(text) {
            Ok(s) => CustomVal::Quantity(Some(s)),
            Err(e) => {
                self.save_error(e.to_string());
                CustomVal::Quantity(None)
            }
        }
    }

    /// `encoding/json`'s `Marshal` of a decoded value (small frames, as in `decode`), taking
    /// it apart: its strings and keys move into the written value.
    pub(crate) fn encode(&self, g: GoVal) -> Value {
        match g {
            GoVal::Slice(items) => Value::List(items.into_iter().map(|i| self.encode(i)).collect()),
            GoVal::Map(entries) => self.encode_map(entries),
            GoVal::Struct(i, slots) => self.encode_struct(i, slots),
            GoVal::Ptr(inner) => self.encode(*inner),
            GoVal::Custom(CustomVal::SchemaOr(s)) => self.encode_schema_or(s),
            other => encode_leaf(other),
        }
    }

    /// The `MarshalJSON`s of apiextensions' `JSONSchemaPropsOr*`.
    #[inline(never)]
    fn encode_schema_or(&self, s: SchemaOr) -> Value {
        let array = s
            .array
            .filter(|a| matches!(a.as_ref(), GoVal::Slice(items) if !items.is_empty()));
        match s.kind {
            Some(Custom::SchemaOrBool) => match s.schema {
                Some(schema) => self.encode(*schema),
                None => Value::Bool(s.allows),
            },
            _ => match (array, s.schema) {
                (Some(a), _) => self.encode(*a),
                (None, Some(schema)) => self.encode(*schema),
                (None, None) => Value::Null,
            },
        }
    }

    fn encode_map(&self, mut entries: Vec<(String, GoVal)>) -> Value {
        entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut m = Map::with_capacity(entries.len());
        // The keys were a JSON object's (or a Go map's), so each is there once.
        for (k, v) in entries {
            let v = self.encode(v);
            m.push_unique(k, v);
        }
        Value::Map(m)
    }

    fn encode_struct(&self, i: usize, slots: Vec<Option<GoVal>>) -> Value {
        let Some(t) = self.types.get(i) else {
            return Value::Map(Map::new());
        };
        let mut m = Map::with_capacity(slots.iter().filter(|s| s.is_some()).count());
        for (f, slot) in t.flat.iter().zip(slots) {
            let field = &f.field;
            let written = match slot {
                Some(v) => self.encode_field(field, v),
                // A field left out is Go's zero value, which `omitzero` always omits and
                // `omitempty` omits unless it is a struct or a custom type's.
                None if zero_omitted(self.types, field) => None,
                None => self.encode_field(field, zero_value(self.types, &field.shape)),
            };
            // The flattened fields have one JSON name each (the shallowest kept).
            if let Some(v) = written {
                m.push_unique(field.json.as_str(), v);
            }
        }
        Value::Map(m)
    }

    fn encode_field(&self, field: &super::gotypes::Field, v: GoVal) -> Option<Value> {
        if field.omitempty && is_empty(&v) || field.omitzero && is_zero(&v) {
            return None;
        }
        Some(self.encode(v))
    }
}

/// Whether `field`, holding Go's zero value, is left out of the JSON: what
/// `Walk::encode_field` decides of [`zero_value`], without making it.
fn zero_omitted(types: &GoTypes, field: &super::gotypes::Field) -> bool {
    field.omitzero
        || field.omitempty
            && match &field.shape {
                Shape::Named(i) => types.get(*i).is_none(),
                _ => true,
            }
}

/// `value` read into the struct `index` of `types` and written back as `json.Marshal` writes
/// it: every field in declaration order, Go's zero values for the missing ones, `omitempty`
/// and `omitzero` applied, custom types in their canonical text. Unknown keys are dropped and
/// a value of the wrong kind stays Go's zero value (a message's rendering, never a refusal).
pub(crate) fn marshal_struct(types: &GoTypes, index: usize, value: &Value) -> Value {
    let mut walk = Walk::new(types);
    walk.strict_enabled = false;
    let go = walk.decode(value, &Shape::Named(index), "", 0);
    walk.encode(go)
}

/// A value with no Go value inside.
#[inline(never)]
fn encode_leaf(g: GoVal) -> Value {
    match g {
        GoVal::Bool(b) => Value::Bool(b),
        GoVal::Int(i) => Value::Int(i),
        GoVal::Uint(u) => i64::try_from(u).map_or(Value::Float(u as f64), Value::Int),
        GoVal::Float(f) => reread_float(f),
        GoVal::Str(s) => Value::String(s),
        GoVal::Bytes(b) => Value::String(base64_encode(&b)),
        GoVal::Any(v) => normalize_any(&v),
        GoVal::Custom(c) => match c {
            CustomVal::Quantity(q) => Value::String(q.unwrap_or_else(|| "0".to_owned())),
            CustomVal::IntOrString(v) => v,
            CustomVal::Time(t) => t.map_or(Value::Null, |t| Value::String(t.to_string())),
            CustomVal::MicroTime(t) => t.map_or(Value::Null, |(t, micros)| {
                let s = t.to_string();
                let base = s.strip_suffix('Z').unwrap_or(&s);
                Value::String(format!("{base}.{micros:06}Z"))
            }),
            CustomVal::Raw(v) => v.as_ref().map_or(Value::Null, normalize_any),
            // Written by `Walk::encode_schema_or`.
            CustomVal::SchemaOr(_) => Value::Null,
        },
        GoVal::Nil | GoVal::Slice(_) | GoVal::Map(_) | GoVal::Struct(..) | GoVal::Ptr(_) => {
            Value::Null
        }
    }
}

#[inline(never)]
fn any(v: &Value) -> GoVal {
    if v.is_null() {
        GoVal::Nil
    } else {
        GoVal::Any(v.clone())
    }
}

fn zero_scalar(s: Scalar) -> GoVal {
    match s {
        Scalar::String => GoVal::Str(String::new()),
        Scalar::Bool => GoVal::Bool(false),
        Scalar::Int(_) => GoVal::Int(0),
        Scalar::Uint(_) => GoVal::Uint(0),
        Scalar::Float(_) => GoVal::Float(0.0),
    }
}

fn zero_value(types: &GoTypes, shape: &Shape) -> GoVal {
    match shape {
        Shape::Pointer(_) | Shape::Slice(_) | Shape::Map(_) | Shape::Bytes | Shape::Interface => {
            GoVal::Nil
        }
        Shape::Scalar(s) => zero_scalar(*s),
        Shape::Named(i) => match types.get(*i).map(|t| (&t.def, t.flat.len())) {
            Some((TypeDef::Custom(c), _)) => GoVal::Custom(match c {
                Custom::Quantity => CustomVal::Quantity(None),
                // IntOrString's zero is the int 0.
                Custom::IntOrString => CustomVal::IntOrString(Value::Int(0)),
                Custom::Time => CustomVal::Time(None),
                Custom::MicroTime => CustomVal::MicroTime(None),
                _ => CustomVal::Raw(None),
            }),
            Some((TypeDef::Struct(_), n)) => GoVal::Struct(*i, vec![None; n]),
            None => GoVal::Nil,
        },
    }
}

/// `omitempty`: false, 0, "", nil, and empty maps, slices and strings. Structs never are.
fn is_empty(v: &GoVal) -> bool {
    match v {
        GoVal::Nil => true,
        GoVal::Bool(b) => !b,
        GoVal::Int(i) => *i == 0,
        GoVal::Uint(u) => *u == 0,
        GoVal::Float(f) => *f == 0.0,
        GoVal::Str(s) => s.is_empty(),
        GoVal::Bytes(b) => b.is_empty(),
        GoVal::Slice(s) => s.is_empty(),
        GoVal::Map(m) => m.is_empty(),
        GoVal::Struct(..) | GoVal::Ptr(_) | GoVal::Any(_) | GoVal::Custom(_) => false,
    }
}

/// `omitzero`: the type's `IsZero` where it has one (`Time`), else Go's zero value.
fn is_zero(v: &GoVal) -> bool {
    match v {
        GoVal::Struct(_, slots) => slots.iter().all(|s| s.as_ref().is_none_or(is_zero)),
        GoVal::Custom(CustomVal::Time(t)) => t.is_none_or(|t| t.unix() == GO_ZERO_UNIX),
        GoVal::Custom(CustomVal::MicroTime(t)) => t.is_none(),
        GoVal::Custom(CustomVal::Quantity(q)) => q.is_none(),
        GoVal::Custom(CustomVal::IntOrString(v)) => matches!(v, Value::Int(0)),
        GoVal::Custom(CustomVal::Raw(v)) => v.is_none(),
        GoVal::Custom(CustomVal::SchemaOr(s)) => {
            s.schema.is_none() && s.array.is_none() && !s.allows
        }
        GoVal::Slice(_) | GoVal::Map(_) | GoVal::Bytes(_) | GoVal::Ptr(_) | GoVal::Any(_) => false,
        other => is_empty(other),
    }
}

/// Seconds from 0001-01-01T00:00:00Z (Go's zero `time.Time`) to the Unix epoch.
const GO_ZERO_UNIX: i64 = -62_135_596_800;

fn fits_int(i: i64, bits: u32) -> bool {
    match bits {
        8 => i8::try_from(i).is_ok(),
        16 => i16::try_from(i).is_ok(),
        32 => i32::try_from(i).is_ok(),
        _ => true,
    }
}

fn float_value(f: f64, bits: u32) -> GoVal {
    if bits == 32 {
        // Go keeps a float32 and writes its shortest 32-bit text.
        let short = format!("{}", f as f32);
        return GoVal::Float(short.parse().unwrap_or(f));
    }
    GoVal::Float(f)
}

/// What reading Go's text of a float64 back gives: an integer when Go writes no point or
/// exponent (|f| < 1e21, integral) and it fits an int64.
fn reread_float(f: f64) -> Value {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 && f.abs() < 9.223_372_036_854_775e18 {
        return Value::Int(f as i64);
    }
    Value::Float(f)
}

/// An `interface{}` value as `encoding/json` writes it and the server reads it back: map keys
/// sorted, integral floats as integers.
fn normalize_any(v: &Value) -> Value {
    match v {
        Value::Float(f) => reread_float(*f),
        Value::List(items) => Value::List(items.iter().map(normalize_any).collect()),
        Value::Map(m) => {
            let mut keys: Vec<(&str, &Value)> = m.iter().collect();
            keys.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            let mut out = Map::with_capacity(keys.len());
            for (k, v) in keys {
                out.insert(k, normalize_any(v));
            }
            Value::Map(out)
        }
        other => other.clone(),
    }
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::Float(_) => "number",
        Value::String(_) => "string",
        Value::List(_) => "array",
        Value::Map(_) => "object",
    }
}

/// The text of a number smd read as a float (Go names the literal; smd no longer has it).
fn number_text(f: f64) -> String {
    format!("{f}")
}

/// The element type of a Go map type's text: `map[v1.ResourceName]resource.Quantity`.
fn map_elem(go_type: &str) -> &str {
    let Some(rest) = go_type.strip_prefix("map[") else {
        return go_type;
    };
    let mut depth = 1usize;
    for (i, c) in rest.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return rest.get(i + 1..).unwrap_or(go_type);
                }
            }
            _ => {}
        }
    }
    go_type
}

/// A struct's Go name from its model name (`io.k8s.api.apps.v1.DeploymentSpec`).
fn go_struct_name(model: &str) -> &str {
    model.rsplit('.').next().unwrap_or(model)
}

/// `strings.TrimSpace`.
fn go_trim_space(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace())
}

/// `MicroTime`: `time.Parse` with the layout `2006-01-02T15:04:05.000000Z07:00`.
fn micro_time(s: &str) -> Result<(Timestamp, u32), String> {
    let (at, micros) = super::gotime::rfc3339_micro(s)?;
    let whole = format!(
        "{}{}",
        s.get(..at).unwrap_or(""),
        s.get(at + 7..).unwrap_or("")
    );
    let t = Timestamp::parse(&whole).map_err(|e| e.to_string())?;
    Ok((t, micros))
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub(super) fn base64_encode(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len().div_ceil(3) * 4);
    for chunk in b.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &c)| acc | (u32::from(c) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                let idx = (n >> (18 - 6 * i)) & 63;
                out.push(char::from(B64.get(idx as usize).copied().unwrap_or(b'A')));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `base64.StdEncoding.Decode` as `encoding/json` calls it: `\r` and `\n` skipped, padding
/// required, the offset of the first bad byte on error.
pub(crate) fn base64_decode(s: &str) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let mut quad = [0u8; 4];
    let mut n = 0;
    let mut pad = 0;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes.get(i).copied().unwrap_or(0);
        if c == b'\r' || c == b'\n' {
            i += 1;
            continue;
        }
        if c == b'=' {
            // Padding: only in the third or fourth place of a quantum, then only more
            // padding (and line breaks) to the end.
            if n < 2 {
                return Err(i);
            }
            pad = 4 - n;
            let mut need = pad;
            let mut j = i;
            while j < bytes.len() && need > 0 {
                match bytes.get(j) {
                    Some(b'=') => {
                        need -= 1;
                        j += 1;
                    }
                    Some(b'\r' | b'\n') => j += 1,
                    // Go names the byte before the one that should have been `=`.
                    _ => return Err(j.saturating_sub(1)),
                }
            }
            if need > 0 {
                return Err(bytes.len());
            }
            while j < bytes.len() && matches!(bytes.get(j), Some(b'\r' | b'\n')) {
                j += 1;
            }
            if j < bytes.len() {
                return Err(j);
            }
            break;
        }
        let Some(v) = B64.iter().position(|&b| b == c) else {
            return Err(i);
        };
        if let Some(q) = quad.get_mut(n) {
            *q = u8::try_from(v).unwrap_or(0);
        }
        n += 1;
        if n == 4 {
            let [a, b, c2, d] = quad;
            out.push((a << 2) | (b >> 4));
            out.push((b << 4) | (c2 >> 2));
            out.push((c2 << 6) | d);
            n = 0;
        }
        i += 1;
    }
    if pad > 0 {
        let [a, b, c2, _] = quad;
        out.push((a << 2) | (b >> 4));
        if pad == 1 {
            out.push((b << 4) | (c2 >> 2));
        }
        return Ok(out);
    }
    if n != 0 {
        // An unfinished quantum: Go names where it began (counting back its characters).
        return Err(bytes.len() - n);
    }
    Ok(out)
}
