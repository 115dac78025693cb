//! The Go types of the 1.37 built-in kinds, as `gogen gotypes` read them by reflection from the
//! scheme (`gotypes.json` beside this file; its format is described in
//! `conformance/gogen/gotypes.go`). Read once, on first use.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value as Json;
use smd_schema::gvk::GroupVersionKind;

static TABLE: &str = include_str!("gotypes.json");
static INTERNAL_TABLE: &str = include_str!("internaltypes.json");

/// The Go types of every built-in kind and version.
#[derive(Debug)]
pub struct GoTypes {
    kinds: Vec<Kind>,
    by_kind: HashMap<(String, String, String), usize>,
    types: Vec<GoType>,
    by_name: HashMap<String, usize>,
    /// Internal tables only: the internal type each versioned struct type converts to.
    pairs: HashMap<String, String>,
}

/// A kind and version of the scheme and the model name of its Go type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kind {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The version (`v1`).
    pub version: String,
    /// The kind (`Deployment`).
    pub kind: String,
    /// The OpenAPI model name of its Go type (`io.k8s.api.apps.v1.Deployment`).
    pub type_name: String,
}

/// A named Go type: a struct or a type with its own JSON encoding.
#[derive(Debug)]
pub struct GoType {
    /// The OpenAPI model name (`io.k8s.api.apps.v1.DeploymentSpec`).
    pub name: String,
    /// What it is.
    pub def: TypeDef,
    /// For a struct: its fields as `encoding/json` sees them, embedded structs' fields
    /// promoted, in marshalling order. Empty for a custom type.
    pub(crate) flat: Vec<FlatField>,
    pub(crate) flat_by_json: FieldIndex,
}

/// The slot of each JSON name in a struct's flattened fields, sorted by name: looked up for
/// every key of every object decoded, by binary search (no hashing of the key).
#[derive(Debug, Default)]
pub(crate) struct FieldIndex(Vec<(String, usize)>);

impl FieldIndex {
    /// The slot of the field named `json`.
    pub(crate) fn get(&self, json: &str) -> Option<usize> {
        self.0
            .binary_search_by(|(name, _)| name.as_str().cmp(json))
            .ok()
            .and_then(|at| self.0.get(at))
            .map(|(_, slot)| *slot)
    }
}

impl From<HashMap<String, usize>> for FieldIndex {
    fn from(map: HashMap<String, usize>) -> FieldIndex {
        let mut entries: Vec<(String, usize)> = map.into_iter().collect();
        entries.sort_unstable();
        FieldIndex(entries)
    }
}

/// A struct's fields, or a custom encoding.
#[derive(Debug)]
pub enum TypeDef {
    /// A struct's fields in declaration order (embedded structs as one field each).
    Struct(Vec<Field>),
    /// A type that marshals itself.
    Custom(Custom),
}

/// The types with their own JSON encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Custom {
    /// `resource.Quantity`: a string (or number) in, its canonical string out.
    Quantity,
    /// `intstr.IntOrString`: an int32 or a string, kept as given.
    IntOrString,
    /// `metav1.Time`: RFC 3339 to the second, `null` when zero.
    Time,
    /// `metav1.MicroTime`: RFC 3339 with six fraction digits, `null` when zero.
    MicroTime,
    /// `metav1.Duration`: Go's duration text.
    Duration,
    /// `metav1.FieldsV1`: raw JSON.
    FieldsV1,
    /// `runtime.RawExtension`: raw JSON, `null` when empty.
    RawExtension,
    /// apiextensions' `JSON`: raw JSON, `null` when empty.
    Json,
    /// apiextensions' `JSONSchemaPropsOrArray`.
    SchemaOrArray,
    /// apiextensions' `JSONSchemaPropsOrBool`.
    SchemaOrBool,
    /// apiextensions' `JSONSchemaPropsOrStringArray`.
    SchemaOrStringArray,
}

/// A field of a Go struct.
#[derive(Debug, Clone)]
pub struct Field {
    /// The JSON name (`""` for an embedded struct whose fields are promoted).
    pub json: String,
    /// The Go field name.
    pub go: String,
    /// The Go type as `reflect` writes it (`[]v1.Container`).
    pub go_type: String,
    /// The shape of the value.
    pub shape: Shape,
    /// The `omitempty` tag option.
    pub omitempty: bool,
    /// The `omitzero` tag option.
    pub omitzero: bool,
    /// The `inline` tag option (which `encoding/json` ignores).
    pub inline: bool,
    /// An anonymous struct field with no JSON name: its fields are promoted.
    pub embedded: bool,
    /// The `patchStrategy` struct tag (`merge`, `retainKeys`, `merge,retainKeys`, `replace`).
    pub patch_strategy: Option<String>,
    /// The `patchMergeKey` struct tag.
    pub patch_merge_key: Option<String>,
}

/// The shape of a Go value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A pointer.
    Pointer(Box<Shape>),
    /// A slice (not of bytes).
    Slice(Box<Shape>),
    /// A map with string keys.
    Map(Box<Shape>),
    /// `[]byte`: base64 in JSON.
    Bytes,
    /// A string, bool or number kind.
    Scalar(Scalar),
    /// A struct or custom type, by index into [`GoTypes::types`].
    Named(usize),
    /// An interface (`interface{}`).
    Interface,
}

/// Go's scalar kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    /// `string`.
    String,
    /// `bool`.
    Bool,
    /// A signed integer of that many bits.
    Int(u32),
    /// An unsigned integer of that many bits.
    Uint(u32),
    /// A float of that many bits.
    Float(u32),
}

/// One field as `encoding/json` sees a struct: a field of the struct or promoted from an
/// embedded one.
#[derive(Debug, Clone)]
pub(crate) struct FlatField {
    pub(crate) field: Field,
    /// Go names of the embedded structs passed through, for json's error context.
    pub(crate) via: Vec<String>,
}

/// The table, read on first use.
pub fn gotypes() -> Result<&'static GoTypes, &'static str> {
    static CELL: OnceLock<Result<GoTypes, String>> = OnceLock::new();
    CELL.get_or_init(|| GoTypes::parse(TABLE))
        .as_ref()
        .map_err(String::as_str)
}

/// The internal Go types (`k8s.io/kubernetes/pkg/apis/<group>`, what the server converts a
/// body to and validates), as `smd-scheme internal-types` read them by reflection
/// (`internaltypes.json` beside this file; its format is described in
/// `conformance/apiserver/scheme/internal.go`). Read once, on first use.
pub fn internal_types() -> Result<&'static GoTypes, &'static str> {
    static CELL: OnceLock<Result<GoTypes, String>> = OnceLock::new();
    CELL.get_or_init(|| GoTypes::parse(INTERNAL_TABLE))
        .as_ref()
        .map_err(String::as_str)
}

impl GoTypes {
    /// Every kind and version, sorted by group, version and kind.
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// The Go type of `gvk`, if it is a built-in kind.
    pub fn kind(&self, gvk: &GroupVersionKind) -> Option<&GoType> {
        let key = (gvk.group.clone(), gvk.version.clone(), gvk.kind.clone());
        let i = *self.by_kind.get(&key)?;
        let kind = self.kinds.get(i)?;
        self.by_name(&kind.type_name)
    }

    /// A type by its model name.
    pub fn by_name(&self, name: &str) -> Option<&GoType> {
        self.types.get(*self.by_name.get(name)?)
    }

    /// The index of a type (what [`Shape::Named`] holds).
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// A type by its index (what [`Shape::Named`] holds).
    pub fn get(&self, index: usize) -> Option<&GoType> {
        self.types.get(index)
    }

    /// In the internal table: the model name of the internal type the versioned type
    /// `versioned` (`io.k8s.api.core.v1.PodSpec`) converts to; a type both versions share
    /// (`ObjectMeta`) is its own.
    pub fn internal_of<'s>(&'s self, versioned: &'s str) -> Option<&'s str> {
        match self.pairs.get(versioned) {
            Some(name) => Some(name),
            None => self.by_name.contains_key(versioned).then_some(versioned),
        }
    }

    /// Every named type.
    pub fn types(&self) -> &[GoType] {
        &self.types
    }

    fn parse(text: &str) -> Result<GoTypes, String> {
        let json: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let types_json = json
            .get("types")
            .and_then(Json::as_object)
            .ok_or("gotypes.json: no types")?;
        let mut by_name = HashMap::with_capacity(types_json.len());
        for (i, name) in types_json.keys().enumerate() {
            by_name.insert(name.clone(), i);
        }
        let mut types = Vec::with_capacity(types_json.len());
        for (name, def) in types_json {
            let def = if let Some(tag) = def.get("custom").and_then(Json::as_str) {
                TypeDef::Custom(custom(tag).ok_or_else(|| format!("{name}: custom {tag:?}"))?)
            } else {
                let fields = def
                    .get("fields")
                    .and_then(Json::as_array)
                    .ok_or_else(|| format!("{name}: no fields"))?;
                let mut out = Vec::with_capacity(fields.len());
                for f in fields {
                    out.push(field(f, &by_name).map_err(|e| format!("{name}: {e}"))?);
                }
                TypeDef::Struct(out)
            };
            types.push(GoType {
                name: name.clone(),
                def,
                flat: Vec::new(),
                flat_by_json: FieldIndex::default(),
            });
        }
        for i in 0..types.len() {
            let mut flat = Vec::new();
            flatten(&types, i, &mut Vec::new(), &mut flat, 0)?;
            // encoding/json: of fields with one name, the shallowest wins.
            let mut flat_by_json: HashMap<String, usize> = HashMap::new();
            let mut keep = Vec::with_capacity(flat.len());
            for (f, depth) in flat {
                match flat_by_json.get(&f.field.json) {
                    Some(&j)
                        if keep
                            .get(j)
                            .is_some_and(|(_, d): &(FlatField, usize)| *d <= depth) => {}
                    Some(&j) => {
                        if let Some(slot) = keep.get_mut(j) {
                            *slot = (f, depth);
                        }
                    }
                    None => {
                        flat_by_json.insert(f.field.json.clone(), keep.len());
                        keep.push((f, depth));
                    }
                }
            }
            if let Some(t) = types.get_mut(i) {
                t.flat = keep.into_iter().map(|(f, _)| f).collect();
                t.flat_by_json = FieldIndex::from(flat_by_json);
            }
        }
        let mut kinds = Vec::new();
        let mut by_kind = HashMap::new();
        for k in json
            .get("kinds")
            .and_then(Json::as_array)
            .ok_or("gotypes.json: no kinds")?
        {
            let s = |key: &str| {
                k.get(key)
                    .and_then(Json::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| format!("kinds: no {key}"))
            };
            let kind = Kind {
                group: s("group")?,
                version: s("version")?,
                kind: s("kind")?,
                type_name: s("type")?,
            };
            by_kind.insert(
                (kind.group.clone(), kind.version.clone(), kind.kind.clone()),
                kinds.len(),
            );
            kinds.push(kind);
        }
        let mut pairs = HashMap::new();
        if let Some(p) = json.get("pairs").and_then(Json::as_object) {
            for (versioned, internal) in p {
                let internal = internal
                    .as_str()
                    .ok_or_else(|| format!("pairs: {versioned}"))?;
                pairs.insert(versioned.clone(), internal.to_owned());
            }
        }
        Ok(GoTypes {
            kinds,
            by_kind,
            types,
            by_name,
            pairs,
        })
    }
}

fn flatten(
    types: &[GoType],
    i: usize,
    via: &mut Vec<String>,
    out: &mut Vec<(FlatField, usize)>,
    depth: usize,
) -> Result<(), String> {
    if depth > 16 {
        return Err("embedded structs nest too deep".to_owned());
    }
    let Some(TypeDef::Struct(fields)) = types.get(i).map(|t| &t.def) else {
        return Ok(());
    };
    for f in fields {
        if f.embedded {
            if let Shape::Named(j) = f.shape {
                via.push(f.go.clone());
                flatten(types, j, via, out, depth + 1)?;
                via.pop();
                continue;
            }
            return Err(format!("embedded field {} is not a struct", f.go));
        }
        out.push((
            FlatField {
                field: f.clone(),
                via: via.clone(),
            },
            depth,
        ));
    }
    Ok(())
}

fn custom(tag: &str) -> Option<Custom> {
    Some(match tag {
        "quantity" => Custom::Quantity,
        "int-or-string" => Custom::IntOrString,
        "time" => Custom::Time,
        "micro-time" => Custom::MicroTime,
        "duration" => Custom::Duration,
        "fields-v1" => Custom::FieldsV1,
        "raw-extension" => Custom::RawExtension,
        "json" => Custom::Json,
        "schema-or-array" => Custom::SchemaOrArray,
        "schema-or-bool" => Custom::SchemaOrBool,
        "schema-or-string-array" => Custom::SchemaOrStringArray,
        _ => return None,
    })
}

fn field(f: &Json, by_name: &HashMap<String, usize>) -> Result<Field, String> {
    let s = |key: &str| f.get(key).and_then(Json::as_str).map(str::to_owned);
    let b = |key: &str| f.get(key).and_then(Json::as_bool).unwrap_or(false);
    let go = s("go").ok_or("a field with no go name")?;
    let shape_text = s("type").ok_or_else(|| format!("{go}: no type"))?;
    // The internal table leaves out what it can: a JSON name equal to the Go name, the Go
    // type text (which only decoding errors name).
    let json = match s("json") {
        Some(name) => name,
        None if b("embedded") => String::new(),
        None => go.clone(),
    };
    Ok(Field {
        json,
        go_type: s("goType").unwrap_or_default(),
        shape: shape(&shape_text, by_name).ok_or_else(|| format!("{go}: type {shape_text:?}"))?,
        go,
        omitempty: b("omitempty"),
        omitzero: b("omitzero"),
        inline: b("inline"),
        embedded: b("embedded"),
        patch_strategy: s("patchStrategy"),
        patch_merge_key: s("patchMergeKey"),
    })
}

fn shape(text: &str, by_name: &HashMap<String, usize>) -> Option<Shape> {
    if let Some(rest) = text.strip_prefix('*') {
        return Some(Shape::Pointer(Box::new(shape(rest, by_name)?)));
    }
    if let Some(rest) = text.strip_prefix("[]") {
        return Some(Shape::Slice(Box::new(shape(rest, by_name)?)));
    }
    if let Some(rest) = text.strip_prefix("map[string]") {
        return Some(Shape::Map(Box::new(shape(rest, by_name)?)));
    }
    Some(match text {
        "bytes" => Shape::Bytes,
        "interface" => Shape::Interface,
        "string" => Shape::Scalar(Scalar::String),
        "bool" => Shape::Scalar(Scalar::Bool),
        "int" | "int64" => Shape::Scalar(Scalar::Int(64)),
        "int8" => Shape::Scalar(Scalar::Int(8)),
        "int16" => Shape::Scalar(Scalar::Int(16)),
        "int32" => Shape::Scalar(Scalar::Int(32)),
        "uint" | "uint64" => Shape::Scalar(Scalar::Uint(64)),
        "uint8" => Shape::Scalar(Scalar::Uint(8)),
        "uint16" => Shape::Scalar(Scalar::Uint(16)),
        "uint32" => Shape::Scalar(Scalar::Uint(32)),
        "float32" => Shape::Scalar(Scalar::Float(32)),
        "float64" => Shape::Scalar(Scalar::Float(64)),
        name => Shape::Named(*by_name.get(name)?),
    })
}
