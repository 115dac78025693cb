//! Cases of kind `schema`: SMD's schema YAML read by smd-schema, resolution of type references,
//! field lookup; results in gogen's canonical JSON of schema parts.

use std::path::PathBuf;

use crate::Malformed;
use crate::canonical;
use crate::inputs::{self, Failure};
use serde_json::{Map as JsonMap, Value as Json, json};
use smd_schema::{Atom, ElementRelationship, ListView, MapView, ResolvedAtom, Schema};
use smd_schema::{StructField, TypeDef, TypeRef, Union};

/// The module whose `internal/testdata` the cases may name, as gogen links it.
const SMD_MODULE: &str = "sigs.k8s.io/structured-merge-diff/v6@v6.4.2";

fn malformed(message: String) -> Failure {
    Failure::Malformed(Malformed(message))
}

/// The Go module cache: `$GOMODCACHE`, `$GOPATH/pkg/mod`, `~/go/pkg/mod`, or `go env GOMODCACHE`.
fn module_cache() -> Option<PathBuf> {
    let non_empty = |v: std::ffi::OsString| (!v.is_empty()).then(|| PathBuf::from(v));
    if let Some(dir) = std::env::var_os("GOMODCACHE").and_then(non_empty) {
        return Some(dir);
    }
    if let Some(gopath) = std::env::var_os("GOPATH").and_then(non_empty) {
        // GOPATH may list several directories; the module cache is in the first.
        let first = std::env::split_paths(&gopath).next()?;
        return Some(first.join("pkg").join("mod"));
    }
    if let Some(home) = std::env::var_os("HOME").and_then(non_empty) {
        let dir = home.join("go").join("pkg").join("mod");
        if dir.is_dir() {
            return Some(dir);
        }
    }
    let out = std::process::Command::new("go")
        .args(["env", "GOMODCACHE"])
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    let dir = dir.trim();
    (!dir.is_empty()).then(|| PathBuf::from(dir))
}

pub(crate) fn testdata_path(name: &str) -> Option<PathBuf> {
    Some(
        module_cache()?
            .join(SMD_MODULE)
            .join("internal")
            .join("testdata")
            .join(name),
    )
}

/// Why the case cannot run here: it names an upstream test file that is not in the module
/// cache (CI downloads it; `go mod download` in `conformance/gogen` does too).
pub(crate) fn skip_reason(case: &Json) -> Option<String> {
    let name = case
        .get("testdataFile")
        .or_else(|| case.get("schemaFile"))?
        .as_str()?;
    match testdata_path(name) {
        Some(path) if path.is_file() => None,
        Some(path) => Some(format!(
            "{} is absent (run `go mod download` in conformance/gogen)",
            path.display()
        )),
        None => Some(format!(
            "no Go module cache found for {SMD_MODULE}/internal/testdata/{name} \
             (set GOMODCACHE, or run `go mod download` in conformance/gogen)"
        )),
    }
}

/// The schema text of a case: `input`, `inputBase64` or `testdataFile`.
fn source(case: &Json) -> Result<Result<String, String>, Failure> {
    let bytes = match case.get("testdataFile").and_then(Json::as_str) {
        Some(name) => {
            let path = testdata_path(name)
                .ok_or_else(|| malformed(format!("no Go module cache for {name}")))?;
            std::fs::read(&path).map_err(|e| malformed(format!("{}: {e}", path.display())))?
        }
        None => inputs::input_bytes(case)?,
    };
    // Go's YAML reader refuses text that is not UTF-8; so does smd, before reading it.
    Ok(String::from_utf8(bytes).map_err(|e| format!("yaml: {e}")))
}

fn error_result(message: String) -> Json {
    json!({ "error": { "stable": message } })
}

/// A schema the op needs to be valid (gogen refuses the case otherwise).
fn valid_schema(case: &Json) -> Result<Schema, Failure> {
    let text = source(case)?.map_err(malformed)?;
    Schema::from_yaml(&text).map_err(|e| malformed(format!("the schema must be valid: {e}")))
}

pub(crate) fn run(op: &str, case: &Json) -> Result<Json, Failure> {
    match op {
        "parse" => {
            let text = match source(case)? {
                Ok(text) => text,
                Err(message) => return Ok(error_result(message)),
            };
            let schema = match Schema::from_yaml(&text) {
                Ok(schema) => schema,
                Err(e) => return Ok(error_result(e.to_string())),
            };
            if case.get("summary").and_then(Json::as_bool) == Some(true) {
                return Ok(summary(&schema, case.get("types")));
            }
            let types: Vec<Json> = schema.types().iter().map(type_def).collect();
            Ok(json!({ "schema": { "types": types } }))
        }
        "resolve" => {
            let schema = valid_schema(case)?;
            let mut results = Vec::new();
            for text in inputs::list(case, "typeRefs")? {
                let text = text
                    .as_str()
                    .ok_or_else(|| malformed("a typeRef is YAML text".into()))?;
                let tr = TypeRef::from_yaml(text)
                    .map_err(|e| malformed(format!("not a type reference: {e}")))?;
                results.push(match schema.resolve(&tr) {
                    Some(resolved) => json!({ "resolved": true, "atom": resolved_atom(&resolved) }),
                    None => json!({ "resolved": false }),
                });
            }
            Ok(json!({ "results": results }))
        }
        "findField" => {
            let schema = valid_schema(case)?;
            let name = inputs::str_field(case, "type")?;
            let Some(td) = schema.find_named_type(name) else {
                return Ok(json!({ "typeFound": false }));
            };
            let Some(map) = td.atom().as_map() else {
                return Ok(json!({ "typeFound": true, "isMap": false }));
            };
            let mut fields = Vec::new();
            for field in inputs::list(case, "fields")? {
                let field = field
                    .as_str()
                    .ok_or_else(|| malformed("a field name is a string".into()))?;
                fields.push(map.find_field(field).map_or(Json::Null, struct_field));
            }
            Ok(json!({ "typeFound": true, "isMap": true, "fields": fields }))
        }
        other => Err(malformed(format!("unknown schema op {other:?}"))),
    }
}

fn summary(schema: &Schema, show: Option<&Json>) -> Json {
    let mut stats = Stats::default();
    for t in schema.types() {
        stats.atom(t.atom());
    }
    let names: Vec<Json> = schema.types().iter().map(|t| json!(t.name())).collect();
    let mut out = json!({ "typeNames": names, "stats": stats.json() });
    if let Some(show) = show.and_then(Json::as_array) {
        let mut shown = JsonMap::new();
        for name in show.iter().filter_map(Json::as_str) {
            let t = schema.find_named_type(name).map_or(Json::Null, type_def);
            shown.insert(name.to_owned(), t);
        }
        out["types"] = Json::Object(shown);
    }
    out
}

/// Counts of the parts of a schema, inlined ones included (as gogen counts them).
#[derive(Default)]
struct Stats {
    scalars: i64,
    lists: i64,
    keyed_lists: i64,
    maps: i64,
    fields: i64,
    defaults: i64,
    unions: i64,
    union_fields: i64,
    named_refs: i64,
    overrides: i64,
    nullables: i64,
}

impl Stats {
    fn atom(&mut self, a: &Atom) {
        if a.as_scalar().is_some() {
            self.scalars += 1;
        }
        if let Some(l) = a.as_list() {
            self.lists += 1;
            if !l.keys().is_empty() {
                self.keyed_lists += 1;
            }
            self.type_ref(l.element_type());
        }
        if let Some(m) = a.as_map() {
            self.maps += 1;
            for f in m.fields() {
                self.fields += 1;
                if f.default_value().is_some() {
                    self.defaults += 1;
                }
                self.type_ref(f.type_ref());
            }
            for u in m.unions() {
                self.unions += 1;
                self.union_fields += u.fields().len() as i64;
            }
            self.type_ref(m.element_type_ref());
        }
    }

    fn type_ref(&mut self, tr: &TypeRef) {
        if tr.named_type().is_some() {
            self.named_refs += 1;
        }
        if tr.element_relationship().is_some() {
            self.overrides += 1;
        }
        if tr.nullable() {
            self.nullables += 1;
        }
        self.atom(tr.inlined_atom());
    }

    fn json(&self) -> Json {
        json!({
            "scalars": self.scalars, "lists": self.lists, "keyedLists": self.keyed_lists,
            "maps": self.maps, "fields": self.fields, "defaults": self.defaults,
            "unions": self.unions, "unionFields": self.union_fields,
            "namedRefs": self.named_refs, "overrides": self.overrides,
            "nullables": self.nullables,
        })
    }
}

// The canonical JSON of schema parts, as gogen writes it (see conformance/README.md).

fn type_def(t: &TypeDef) -> Json {
    let mut o = atom(t.atom());
    o.insert("name".into(), json!(t.name()));
    Json::Object(o)
}

fn atom(a: &Atom) -> JsonMap<String, Json> {
    let mut o = JsonMap::new();
    if let Some(s) = a.as_scalar() {
        o.insert("scalar".into(), json!(s.as_str()));
    }
    if let Some(l) = a.as_list() {
        o.insert(
            "list".into(),
            list(l.element_type(), l.element_relationship(), l.keys()),
        );
    }
    if let Some(m) = a.as_map() {
        o.insert(
            "map".into(),
            map(
                m.fields(),
                m.unions(),
                m.element_type_ref(),
                m.element_relationship(),
            ),
        );
    }
    o
}

fn resolved_atom(r: &ResolvedAtom<'_>) -> Json {
    let mut o = JsonMap::new();
    if let Some(s) = r.scalar() {
        o.insert("scalar".into(), json!(s.as_str()));
    }
    if let Some(l) = r.list() {
        o.insert("list".into(), list_view(&l));
    }
    if let Some(m) = r.map() {
        o.insert("map".into(), map_view(&m));
    }
    Json::Object(o)
}

fn list_view(l: &ListView<'_>) -> Json {
    list(l.element_type(), l.element_relationship(), l.keys())
}

fn map_view(m: &MapView<'_>) -> Json {
    let element_type = m.definition().element_type_ref();
    map(
        m.fields(),
        m.unions(),
        element_type,
        m.element_relationship(),
    )
}

fn list(element_type: &TypeRef, er: &ElementRelationship, keys: &[String]) -> Json {
    let mut o = JsonMap::new();
    put_type_ref(&mut o, "elementType", element_type);
    if *er != ElementRelationship::Unspecified {
        o.insert("elementRelationship".into(), json!(er.as_str()));
    }
    if !keys.is_empty() {
        o.insert("keys".into(), json!(keys));
    }
    Json::Object(o)
}

fn map(
    fields: &[StructField],
    unions: &[Union],
    element_type: &TypeRef,
    er: &ElementRelationship,
) -> Json {
    let mut o = JsonMap::new();
    if !fields.is_empty() {
        o.insert("fields".into(), fields.iter().map(struct_field).collect());
    }
    if !unions.is_empty() {
        o.insert("unions".into(), unions.iter().map(union).collect());
    }
    put_type_ref(&mut o, "elementType", element_type);
    if *er != ElementRelationship::Unspecified {
        o.insert("elementRelationship".into(), json!(er.as_str()));
    }
    Json::Object(o)
}

fn put_type_ref(o: &mut JsonMap<String, Json>, key: &str, tr: &TypeRef) {
    if !tr.is_zero() {
        o.insert(key.into(), type_ref(tr));
    }
}

fn type_ref(tr: &TypeRef) -> Json {
    let mut o = atom(tr.inlined_atom());
    if let Some(name) = tr.named_type() {
        o.insert("namedType".into(), json!(name));
    }
    if let Some(er) = tr.element_relationship() {
        o.insert("elementRelationship".into(), json!(er.as_str()));
    }
    if tr.nullable() {
        o.insert("nullable".into(), json!(true));
    }
    Json::Object(o)
}

fn struct_field(f: &StructField) -> Json {
    let mut o = JsonMap::new();
    o.insert("name".into(), json!(f.name()));
    put_type_ref(&mut o, "type", f.type_ref());
    if let Some(d) = f.default_value() {
        o.insert("default".into(), canonical::value(d));
    }
    Json::Object(o)
}

fn union(u: &Union) -> Json {
    let mut o = JsonMap::new();
    if let Some(d) = u.discriminator() {
        o.insert("discriminator".into(), json!(d));
    }
    if u.deduce_invalid_discriminator() {
        o.insert("deduceInvalidDiscriminator".into(), json!(true));
    }
    if !u.fields().is_empty() {
        let fields: Vec<Json> = u
            .fields()
            .iter()
            .map(|f| {
                json!({
                    "fieldName": f.field_name(),
                    "discriminatorValue": f.discriminator_value(),
                })
            })
            .collect();
        o.insert("fields".into(), Json::Array(fields));
    }
    Json::Object(o)
}
