//! kind `openapi`: OpenAPI documents converted by smd, in the shape of gogen's results, and a
//! comparison of schemas type by type (a golden may hold the whole Kubernetes schema, so a
//! difference is reported as the first differing types and fields, never as the whole tree).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Map as JsonMap, Value as Json, json};
use smd_schema::gvk::GroupVersionKind;
use smd_schema::openapi::{Document, ErrorKind};
use smd_schema::{Atom, Schema, TypeRef};

use crate::inputs::{Failure, Outcome, input_bytes};
use crate::{Malformed, canonical};

/// The Kubernetes release whose published OpenAPI spec the scenarios read.
const KUBERNETES: &str = "k8s.io/kubernetes@v1.37.2";

/// The kube-openapi gogen links (its test data holds OpenAPI documents served for real CRDs).
const KUBE_OPENAPI: &str = "k8s.io/kube-openapi@v0.0.0-20260721132016-d427ff9ee9ad";

/// A module's directory in Go's module cache, downloaded by `go mod download` if need be.
fn module_dir(module: &str) -> Result<PathBuf, String> {
    let out = std::process::Command::new("go")
        .args(["mod", "download", "-json", module])
        .current_dir(std::env::temp_dir())
        .output()
        .map_err(|e| format!("cannot run `go mod download {module}` (is Go installed?): {e}"))?;
    let info: Json = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "`go mod download -json {module}` printed no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    match info.get("Dir").and_then(Json::as_str) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => Err(format!("`go mod download -json {module}`: {info}")),
    }
}

pub(crate) fn run(op: &str, case: &Json) -> Outcome {
    let doc = match document(case)? {
        Ok(doc) => doc,
        Err(message) => return Ok(json!({ "readError": { "stable": message } })),
    };
    match op {
        "convert" => Ok(match doc.to_schema() {
            Ok(schema) => json!({ "schema": schema_json(&schema) }),
            Err(e) if e.kind() == ErrorKind::Convert => {
                json!({ "error": { "stable": e.go_message() } })
            }
            Err(e) => json!({ "readError": { "stable": e.to_string() } }),
        }),
        "gvk" => {
            if let Err(e) = doc.to_schema() {
                return Ok(json!({ "error": { "stable":
                    format!("failed to convert models to schema: {}", e.go_message()) } }));
            }
            let index = doc.gvk_index();
            let entries: Vec<Json> = index
                .entries()
                .into_iter()
                .map(|(g, t)| {
                    json!({ "group": g.group, "version": g.version, "kind": g.kind, "type": t })
                })
                .collect();
            let mut result = json!({ "index": entries });
            if let Some(lookups) = case.get("lookups") {
                let lookups = lookups
                    .as_array()
                    .ok_or_else(|| Malformed("\"lookups\" is not a list".into()))?;
                let mut found = Vec::with_capacity(lookups.len());
                for q in lookups {
                    let api_version = crate::inputs::str_field(q, "apiVersion")?;
                    let kind = crate::inputs::str_field(q, "kind")?;
                    let gvk = GroupVersionKind::from_api_version(api_version, kind);
                    found.push(index.get(&gvk).map_or(Json::Null, |t| json!(t)));
                }
                result["lookups"] = Json::Array(found);
            }
            Ok(result)
        }
        other => Err(Failure::Malformed(Malformed(format!(
            "unknown op {other:?} for kind \"openapi\""
        )))),
    }
}

type Loaded = Result<Arc<Document>, String>;

/// The case's document, or the reason it does not read.
fn document(case: &Json) -> Result<Loaded, Failure> {
    if let Some(name) = case.get("kubernetesSpec") {
        let name = name
            .as_str()
            .ok_or_else(|| Malformed("\"kubernetesSpec\" is not a string".into()))?;
        return Ok(kubernetes_document(name).map_err(|e| format!("kubernetesSpec {name}: {e}")));
    }
    if let Some(file) = case.get("kubeOpenAPITestdata") {
        let file = file
            .as_str()
            .ok_or_else(|| Malformed("\"kubeOpenAPITestdata\" is not a string".into()))?;
        if !file.contains("/testdata/") || file.contains("..") || file.starts_with('/') {
            return Err(Malformed(format!(
                "kubeOpenAPITestdata {file:?} is not a test data path"
            ))
            .into());
        }
        let dir = module_dir(KUBE_OPENAPI).map_err(Malformed)?;
        let bytes = std::fs::read(dir.join(file))
            .map_err(|e| Malformed(format!("kubeOpenAPITestdata {file}: {e}")))?;
        return Ok(Document::from_slice(&bytes)
            .map(Arc::new)
            .map_err(|e| e.to_string()));
    }
    let input = input_bytes(case)?;
    Ok(Document::from_slice(&input)
        .map(Arc::new)
        .map_err(|e| e.to_string()))
}

/// A document of the Kubernetes module's `api/openapi-spec` (read once per process): `v2`
/// (swagger.json), `v3/NAME.json`, or `v3`, every v3 document merged.
pub fn kubernetes_document(name: &str) -> Result<Arc<Document>, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, Loaded>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(doc) = cache.lock().ok().and_then(|c| c.get(name).cloned()) {
        return doc;
    }
    let loaded = load_kubernetes(name);
    if let Ok(mut c) = cache.lock() {
        c.insert(name.to_owned(), loaded.clone());
    }
    loaded
}

fn load_kubernetes(name: &str) -> Loaded {
    let dir = kubernetes_spec_dir()?;
    let read = |path: PathBuf| -> Result<Document, String> {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Document::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    let doc = match name {
        "v2" => read(dir.join("swagger.json"))?,
        "v3" => {
            let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("v3"))
                .map_err(|e| e.to_string())?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
            files.sort();
            let docs = files.into_iter().map(read).collect::<Result<Vec<_>, _>>()?;
            Document::merge(docs).map_err(|e| e.to_string())?
        }
        other => match other.strip_prefix("v3/") {
            Some(file) if !file.contains('/') => read(dir.join("v3").join(file))?,
            _ => return Err(format!("unknown kubernetesSpec {other:?}")),
        },
    };
    Ok(Arc::new(doc))
}

/// `api/openapi-spec` of the Kubernetes module in Go's module cache, downloaded by
/// `go mod download` if need be (the module is never a dependency of anything).
pub fn kubernetes_spec_dir() -> Result<PathBuf, String> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = std::process::Command::new("go")
            .args(["mod", "download", "-json", KUBERNETES])
            .current_dir(std::env::temp_dir())
            .output()
            .map_err(|e| {
                format!("cannot run `go mod download {KUBERNETES}` (is Go installed?): {e}")
            })?;
        let info: Json = serde_json::from_slice(&out.stdout).map_err(|e| {
            format!(
                "`go mod download -json {KUBERNETES}` printed no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })?;
        match info.get("Dir").and_then(Json::as_str) {
            Some(dir) => Ok(PathBuf::from(dir).join("api").join("openapi-spec")),
            None => Err(format!("`go mod download -json {KUBERNETES}`: {info}")),
        }
    })
    .clone()
}

/// A schema in the golden's form: SMD's schema format as JSON, empty parts left out.
pub fn schema_json(schema: &Schema) -> Json {
    let types: Vec<Json> = schema
        .types()
        .iter()
        .map(|t| {
            let mut obj = JsonMap::new();
            obj.insert("name".into(), json!(t.name()));
            atom_json(&mut obj, t.atom());
            Json::Object(obj)
        })
        .collect();
    json!({ "types": types })
}

fn atom_json(obj: &mut JsonMap<String, Json>, atom: &Atom) {
    if let Some(s) = atom.as_scalar() {
        obj.insert("scalar".into(), json!(s.as_str()));
    }
    if let Some(l) = atom.as_list() {
        let mut list = JsonMap::new();
        if !l.element_type().is_zero() {
            list.insert("elementType".into(), type_ref_json(l.element_type()));
        }
        let er = l.element_relationship().as_str();
        if !er.is_empty() {
            list.insert("elementRelationship".into(), json!(er));
        }
        if !l.keys().is_empty() {
            list.insert("keys".into(), json!(l.keys()));
        }
        obj.insert("list".into(), Json::Object(list));
    }
    if let Some(m) = atom.as_map() {
        let mut map = JsonMap::new();
        if !m.fields().is_empty() {
            let fields: Vec<Json> = m
                .fields()
                .iter()
                .map(|f| {
                    let mut fo = JsonMap::new();
                    fo.insert("name".into(), json!(f.name()));
                    if !f.type_ref().is_zero() {
                        fo.insert("type".into(), type_ref_json(f.type_ref()));
                    }
                    if let Some(d) = f.default_value() {
                        fo.insert("default".into(), canonical::value(d));
                    }
                    Json::Object(fo)
                })
                .collect();
            map.insert("fields".into(), Json::Array(fields));
        }
        if !m.element_type_ref().is_zero() {
            map.insert("elementType".into(), type_ref_json(m.element_type_ref()));
        }
        let er = m.element_relationship().as_str();
        if !er.is_empty() {
            map.insert("elementRelationship".into(), json!(er));
        }
        obj.insert("map".into(), Json::Object(map));
    }
}

fn type_ref_json(tr: &TypeRef) -> Json {
    let mut obj = JsonMap::new();
    if let Some(n) = tr.named_type() {
        obj.insert("namedType".into(), json!(n));
    }
    atom_json(&mut obj, tr.inlined_atom());
    if let Some(er) = tr.element_relationship() {
        obj.insert("elementRelationship".into(), json!(er.as_str()));
    }
    if tr.nullable() {
        obj.insert("nullable".into(), json!(true));
    }
    Json::Object(obj)
}

/// The differences between Go's result and smd's for an `openapi` case. A schema is compared
/// type by type, by name; at most a few differing types are described.
pub(crate) fn compare(case: &Json, expected: &Json, actual: &Json) -> Vec<String> {
    let failed = |a: &Json| a.get("readError").is_some() || a.get("error").is_some();
    if expected.get("panic").is_some() {
        return if failed(actual) {
            Vec::new()
        } else {
            vec![format!(
                "Go panicked ({}); smd must refuse the input",
                expected["panic"]
            )]
        };
    }
    if let Some(e) = expected.get("readError") {
        return if actual.get("readError").is_some() {
            Vec::new()
        } else {
            vec![format!(
                "Go could not read the document ({}); smd: {}",
                e["stable"],
                brief(actual)
            )]
        };
    }
    let (Some(go), Some(ours)) = (expected.get("schema"), actual.get("schema")) else {
        if expected.get("schema").is_some() {
            return vec![format!("Go converted the document; smd: {}", brief(actual))];
        }
        return crate::compare::compare_plain(case, expected, actual);
    };
    let (same, total, diffs) = compare_types(go, ours);
    if diffs.is_empty() {
        return Vec::new();
    }
    let mut out = vec![format!("{same} of {total} types agree with Go")];
    out.extend(diffs);
    out
}

fn brief(j: &Json) -> String {
    let text = j.to_string();
    match text.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

/// For a result holding a schema: (types identical to Go's, types in Go's schema).
pub fn type_counts(expected: &Json, actual: &Json) -> Option<(usize, usize)> {
    let go = expected.get("schema")?;
    let (same, total, _) = match actual.get("schema") {
        Some(ours) => compare_types(go, ours),
        None => (
            0,
            go.get("types").and_then(Json::as_array).map_or(0, Vec::len),
            Vec::new(),
        ),
    };
    Some((same, total))
}

/// (types identical, types in Go's schema, descriptions of the first differences).
pub fn compare_types(go: &Json, ours: &Json) -> (usize, usize, Vec<String>) {
    let by_name = |s: &Json| -> Vec<(String, Json)> {
        s.get("types")
            .and_then(Json::as_array)
            .map(|types| {
                types
                    .iter()
                    .map(|t| (t["name"].as_str().unwrap_or_default().to_owned(), t.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (go, ours) = (by_name(go), by_name(ours));
    let ours_index: HashMap<&str, Vec<&Json>> =
        ours.iter().fold(HashMap::new(), |mut m, (n, t)| {
            m.entry(n.as_str()).or_default().push(t);
            m
        });
    let mut diffs = Vec::new();
    let mut same = 0;
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (name, t) in &go {
        let nth = seen.entry(name).or_default();
        let mine = ours_index.get(name.as_str()).and_then(|v| v.get(*nth));
        *nth += 1;
        match mine {
            Some(m) if *m == t => same += 1,
            Some(m) => {
                if diffs.len() < 10 {
                    diffs.push(format!("type {name:?}: {}", first_difference(t, m)));
                }
            }
            None => {
                if diffs.len() < 10 {
                    diffs.push(format!("type {name:?}: missing in smd"));
                }
            }
        }
    }
    let go_names: std::collections::HashSet<&str> = go.iter().map(|(n, _)| n.as_str()).collect();
    for (name, _) in &ours {
        if !go_names.contains(name.as_str()) && diffs.len() < 10 {
            diffs.push(format!("type {name:?}: only in smd"));
        }
    }
    if go.len() != ours.len() {
        diffs.push(format!("Go has {} types, smd {}", go.len(), ours.len()));
    }
    (same, go.len(), diffs)
}

/// Where two JSON trees first differ: `.map.fields[name="spec"].type: Go …, smd …`. Lists of
/// named objects (fields) are matched by name.
fn first_difference(go: &Json, ours: &Json) -> String {
    fn walk(at: String, go: &Json, ours: &Json) -> Option<String> {
        match (go, ours) {
            (Json::Object(g), Json::Object(o)) => {
                for (k, gv) in g {
                    match o.get(k) {
                        None => return Some(format!("{at}.{k}: missing in smd; Go {}", brief(gv))),
                        Some(ov) => {
                            if let Some(d) = walk(format!("{at}.{k}"), gv, ov) {
                                return Some(d);
                            }
                        }
                    }
                }
                o.iter()
                    .find(|(k, _)| !g.contains_key(*k))
                    .map(|(k, ov)| format!("{at}.{k}: only in smd: {}", brief(ov)))
            }
            (Json::Array(g), Json::Array(o)) => {
                let named = |v: &Json| v.get("name").and_then(Json::as_str).map(str::to_owned);
                for (i, gv) in g.iter().enumerate() {
                    let (label, ov) = match named(gv) {
                        Some(n) => (
                            format!("{at}[name={n:?}]"),
                            o.iter().find(|ov| named(ov).as_deref() == Some(n.as_str())),
                        ),
                        None => (format!("{at}[{i}]"), o.get(i)),
                    };
                    match ov {
                        None => return Some(format!("{label}: missing in smd; Go {}", brief(gv))),
                        Some(ov) => {
                            if let Some(d) = walk(label, gv, ov) {
                                return Some(d);
                            }
                        }
                    }
                }
                (g.len() != o.len())
                    .then(|| format!("{at}: Go has {} items, smd {}", g.len(), o.len()))
            }
            _ => (go != ours).then(|| format!("{at}: Go {}, smd {}", brief(go), brief(ours))),
        }
    }
    walk(String::new(), go, ours).unwrap_or_else(|| "differs".into())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_the_type_and_the_field() {
        let go = json!({"types": [
            {"name": "a", "scalar": "string"},
            {"name": "t", "map": {"fields": [{"name": "x", "type": {"scalar": "string"}},
                                             {"name": "y", "type": {"scalar": "string"}}]}}]});
        let ours = json!({"types": [
            {"name": "a", "scalar": "string"},
            {"name": "t", "map": {"fields": [{"name": "y", "type": {"scalar": "numeric"}},
                                             {"name": "x", "type": {"scalar": "string"}}]}}]});
        let (same, total, diffs) = compare_types(&go, &ours);
        assert_eq!((same, total), (1, 2));
        assert_eq!(
            diffs,
            [r#"type "t": .map.fields[name="y"].type.scalar: Go "string", smd "numeric""#]
        );
    }
}
