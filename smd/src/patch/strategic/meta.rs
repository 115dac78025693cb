//! The patch metadata strategic merge patch reads at each point of an object: what
//! strategicpatch's `LookupPatchMeta` answers from the Go type's `patchStrategy` and
//! `patchMergeKey` struct tags, with its errors in Go's words.

use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// A field's patch metadata: its `patchStrategy` tag split at commas (Go's `strings.Split`, so
/// no tag is one empty strategy) and its `patchMergeKey` tag.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldMeta {
    /// `merge`, `replace`, `retainKeys`, or two of them.
    pub strategies: Vec<String>,
    /// The key that names the items of a merged list of objects; empty for none.
    pub merge_key: String,
}

/// The patch metadata at one point of an object: strategicpatch's `LookupPatchMeta`, as
/// `PatchMetaFromStruct` answers it from Go types. A lookup's error is Go's text (the server
/// answers 500 with it).
pub trait PatchMeta: Sized {
    /// The field `key` of the object here (`LookupPatchMetadataForStruct`): the metadata at the
    /// field's value and the field's tags.
    fn lookup_struct(&self, key: &str) -> Result<(Self, FieldMeta), String>;
    /// The list field `key` (`LookupPatchMetadataForSlice`): the metadata at its items and the
    /// field's tags.
    fn lookup_slice(&self, key: &str) -> Result<(Self, FieldMeta), String>;
    /// Go's name of the type here (its `reflect.Kind`: `struct`, `map`, `ptr`, ...), for messages.
    fn name(&self) -> String;
}

/// The Go types of the built-in kinds, as `gogen gotypes` wrote them
/// (`smd/src/builtin/gotypes.json`): each type's fields with their JSON names, Go types and
/// patch tags.
#[derive(Debug)]
pub struct GoTypes {
    types: HashMap<String, TypeDef>,
    kinds: HashMap<(String, String, String), String>,
}

#[derive(Debug)]
enum TypeDef {
    /// A struct's JSON fields in Go's order (promoted fields of embedded structs in place),
    /// as `encoding/json` lists them: the shallowest of equal names wins.
    Struct(Vec<Field>),
    /// A type with its own JSON form (Quantity, Time, RawExtension): a struct with no JSON
    /// fields as far as lookups go.
    Custom,
}

#[derive(Debug, Clone)]
struct Field {
    json: String,
    ty: String,
    meta: FieldMeta,
}

static BUILTIN: OnceLock<Option<Arc<GoTypes>>> = OnceLock::new();

impl GoTypes {
    /// The table of Kubernetes 1.37's built-in types, read once.
    pub fn builtin() -> Option<Arc<GoTypes>> {
        BUILTIN
            .get_or_init(|| {
                let text = include_str!("../../builtin/gotypes.json");
                serde_json::from_str::<Json>(text)
                    .ok()
                    .and_then(|j| GoTypes::from_json(&j))
                    .map(Arc::new)
            })
            .clone()
    }

    /// A table in `gogen gotypes`' format; `None` when it is not.
    pub fn from_json(table: &Json) -> Option<GoTypes> {
        let raw = table.get("types")?.as_object()?;
        let mut kinds = HashMap::new();
        for k in table.get("kinds")?.as_array()? {
            let s = |n: &str| k.get(n).and_then(Json::as_str).map(str::to_owned);
            kinds.insert((s("group")?, s("version")?, s("kind")?), s("type")?);
        }
        let mut types = HashMap::new();
        for name in raw.keys() {
            let mut seen = Vec::new();
            types.insert(name.clone(), resolve(raw, name, &mut seen)?);
        }
        Some(GoTypes { types, kinds })
    }

    /// The metadata at the root of an object of `group`/`version`/`kind`, if the table has it.
    pub fn kind(self: &Arc<Self>, group: &str, version: &str, kind: &str) -> Option<GoTypeMeta> {
        let ty = self
            .kinds
            .get(&(group.to_owned(), version.to_owned(), kind.to_owned()))?;
        Some(GoTypeMeta {
            table: Arc::clone(self),
            // scheme.New gives a pointer; NewPatchMetaFromStruct takes its element.
            ty: ty.clone(),
        })
    }
}

/// A struct's JSON fields with embedded structs flattened, Go's dominance applied.
fn resolve(
    raw: &serde_json::Map<String, Json>,
    name: &str,
    seen: &mut Vec<String>,
) -> Option<TypeDef> {
    let def = raw.get(name)?;
    if def.get("custom").is_some() {
        return Some(TypeDef::Custom);
    }
    let mut flat: Vec<(Field, usize)> = Vec::new();
    collect(raw, name, 0, seen, &mut flat)?;
    // encoding/json: of fields with one name, the shallowest wins; two at that depth cancel.
    let mut out = Vec::new();
    for (i, (field, depth)) in flat.iter().enumerate() {
        let same: Vec<usize> = flat
            .iter()
            .filter(|(f, _)| f.json == field.json)
            .map(|(_, d)| *d)
            .collect();
        let min = same.iter().copied().min().unwrap_or(*depth);
        let at_min = same.iter().filter(|d| **d == min).count();
        let first_at_min = flat
            .iter()
            .position(|(f, d)| f.json == field.json && *d == min);
        if *depth == min && at_min == 1 && first_at_min == Some(i) {
            out.push(field.clone());
        }
    }
    Some(TypeDef::Struct(out))
}

fn collect(
    raw: &serde_json::Map<String, Json>,
    name: &str,
    depth: usize,
    seen: &mut Vec<String>,
    out: &mut Vec<(Field, usize)>,
) -> Option<()> {
    if seen.iter().any(|s| s == name) || depth > 16 {
        return Some(());
    }
    seen.push(name.to_owned());
    let fields = raw.get(name)?.get("fields").and_then(Json::as_array);
    for f in fields.into_iter().flatten() {
        let s = |n: &str| {
            f.get(n)
                .and_then(Json::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let ty = s("type");
        let json = s("json");
        let embedded = f.get("embedded").and_then(Json::as_bool).unwrap_or(false);
        if embedded && json.is_empty() {
            let inner = ty.trim_start_matches('*');
            if raw.get(inner).is_some_and(|d| d.get("fields").is_some()) {
                collect(raw, inner, depth + 1, seen, out)?;
                continue;
            }
        }
        let json = if json.is_empty() { s("go") } else { json };
        let meta = FieldMeta {
            strategies: s("patchStrategy").split(',').map(str::to_owned).collect(),
            merge_key: s("patchMergeKey"),
        };
        out.push((Field { json, ty, meta }, depth));
    }
    seen.pop();
    Some(())
}

/// [`PatchMeta`] over [`GoTypes`]: the Go type at one point, written as the table writes types
/// (`*T`, `[]T`, `map[string]T`, a scalar, a type's name).
#[derive(Debug, Clone)]
pub struct GoTypeMeta {
    table: Arc<GoTypes>,
    ty: String,
}

/// Go's `reflect.Kind` name of a type written as the table writes it.
fn kind_name(ty: &str) -> &'static str {
    if ty.starts_with('*') {
        "ptr"
    } else if ty.starts_with("[]") || ty == "bytes" {
        "slice"
    } else if ty.starts_with("map[") {
        "map"
    } else {
        match ty {
            "bool" => "bool",
            "int32" => "int32",
            "int64" => "int64",
            "float64" => "float64",
            "string" => "string",
            _ => "struct",
        }
    }
}

/// Go's `bytes.EqualFold` on a field name (`encoding/json`'s case-insensitive match).
fn equal_fold(name: &str, key: &str) -> bool {
    let fold = |c: char| match c {
        '\u{212A}' => 'k',
        '\u{17F}' => 's',
        c => c.to_ascii_lowercase(),
    };
    name.chars().map(fold).eq(key.chars().map(fold))
}

impl GoTypeMeta {
    fn with(&self, ty: &str) -> GoTypeMeta {
        GoTypeMeta {
            table: Arc::clone(&self.table),
            ty: ty.to_owned(),
        }
    }
}

impl PatchMeta for GoTypeMeta {
    fn lookup_struct(&self, key: &str) -> Result<(Self, FieldMeta), String> {
        let ty = self.ty.strip_prefix('*').unwrap_or(&self.ty);
        let kind = kind_name(ty);
        if kind != "struct" {
            return Err(format!(
                "merging an object in json but data type is not struct, instead is: {kind}"
            ));
        }
        let short = ty.rsplit('.').next().unwrap_or(ty);
        let fields: &[Field] = match self.table.types.get(ty) {
            Some(TypeDef::Struct(fields)) => fields,
            _ => &[],
        };
        let found = fields
            .iter()
            .find(|f| f.json == key)
            .or_else(|| fields.iter().find(|f| equal_fold(&f.json, key)));
        match found {
            Some(f) => Ok((self.with(&f.ty), f.meta.clone())),
            None => Err(format!(
                "unable to find api field in struct {short} for the json field {}",
                super::gofmt::quote(key)
            )),
        }
    }

    fn lookup_slice(&self, key: &str) -> Result<(Self, FieldMeta), String> {
        let (field, meta) = self.lookup_struct(key)?;
        let t = field.ty.as_str();
        let elem = if let Some(elem) = t.strip_prefix("[]") {
            if elem.starts_with("[]") || elem == "bytes" {
                return Err("unexpected slice of slice".into());
            }
            elem.to_owned()
        } else if t == "bytes" {
            "uint8".to_owned()
        } else if let Some(pointee) = t.strip_prefix('*') {
            pointee.strip_prefix("[]").unwrap_or(pointee).to_owned()
        } else {
            return Err(format!(
                "expected slice or array type, but got: {}",
                kind_name(&self.ty)
            ));
        };
        Ok((self.with(&elem), meta))
    }

    fn name(&self) -> String {
        match self.ty.as_str() {
            "uint8" => "uint8".into(),
            t => kind_name(t).into(),
        }
    }
}
