//! Writes the inputs of every conformance scenario as seed files for the fuzz targets:
//! `fuzz-seeds DIR` fills `DIR/<target>/` (fieldsv1, path_element, yaml, json, schema_yaml, patch,
//! openapi, crd, managedfields, cli from examples/ and cli/tests/data, apiserver (and
//! selectors, from its collection reads) from the
//! real-server scenarios' request sequences, crd_values from the Go corpora of CRD formats and
//! patterns, crd_validation from the scenarios' CRD schemas and bodies, cel_parse from the
//! expressions of the Go corpus of CEL parsing), one file per input,
//! named by a hash of its bytes so reruns are idempotent.

use serde_json::Value as Json;
use smd_conformance::load_scenarios;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(out) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: fuzz-seeds OUTPUT_DIR");
        return ExitCode::from(2);
    };
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files = Vec::new();
    collect(&scenarios, &mut files);
    let mut written = 0usize;
    for file in files {
        let scenario = match load_scenarios(&file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("fuzz-seeds: {e}");
                return ExitCode::FAILURE;
            }
        };
        for case in &scenario.cases {
            for (target, bytes) in seeds(case) {
                let dir = out.join(target);
                let mut hasher = DefaultHasher::new();
                bytes.hash(&mut hasher);
                let path = dir.join(format!("{:016x}", hasher.finish()));
                if let Err(e) =
                    std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, &bytes))
                {
                    eprintln!("fuzz-seeds: {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
                written += 1;
            }
        }
    }
    let others = cli_seeds()
        .into_iter()
        .chain(apiserver_seeds())
        .chain(selector_seeds())
        .chain(crd_value_seeds())
        .chain(crd_validation_seeds())
        .chain(cel_parse_seeds());
    for (target, bytes) in others {
        let dir = out.join(target);
        let mut hasher = DefaultHasher::new();
        bytes.hash(&mut hasher);
        let path = dir.join(format!("{:016x}", hasher.finish()));
        if let Err(e) = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, &bytes)) {
            eprintln!("fuzz-seeds: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        written += 1;
    }
    println!("fuzz-seeds: {written} seeds written to {}", out.display());
    ExitCode::SUCCESS
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

/// The fuzz target each input of a case feeds, with its bytes.
fn seeds(case: &Json) -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    let kind = case.get("kind").and_then(Json::as_str).unwrap_or_default();
    let op = case.get("op").and_then(Json::as_str).unwrap_or_default();
    let input = case
        .get("input")
        .and_then(Json::as_str)
        .map(|s| s.as_bytes().to_vec());
    match (kind, op, input) {
        ("fieldset", "parse", Some(bytes)) => out.push(("fieldsv1", bytes)),
        ("pathElement", "parse", Some(bytes)) => out.push(("path_element", bytes)),
        ("value", "parseYAML", Some(bytes)) => out.push(("yaml", bytes)),
        ("value", "parseJSON", Some(bytes)) => out.push(("json", bytes)),
        // Every schema case's input is SMD schema YAML, every openapi case's a document,
        // every crd case's a stream of CRDs.
        ("schema", _, Some(bytes)) => out.push(("schema_yaml", bytes)),
        ("openapi", _, Some(bytes)) => out.push(("openapi", bytes)),
        ("crd", _, Some(bytes)) => out.push(("crd", bytes)),
        // A request sequence: the stored object, then each request's object, as one stream.
        ("fieldmanager", _, _) => {
            let text = |spec: &Json| {
                spec.get("yaml")
                    .or_else(|| spec.get("json"))
                    .and_then(Json::as_str)
                    .map(str::to_owned)
            };
            let mut documents: Vec<String> = case.get("live").and_then(text).into_iter().collect();
            for step in case
                .get("steps")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
            {
                documents.extend(step.get("object").and_then(text));
            }
            if !documents.is_empty() {
                out.push(("managedfields", documents.join("\n---\n").into_bytes()));
            }
        }
        // The patch target: one type byte, the original, a line `%%`, the patch.
        ("patch", op, _) => {
            let texts = (
                case.get("original").and_then(Json::as_str),
                case.get("patch").and_then(Json::as_str),
            );
            if let (Some(original), Some(patch)) = texts {
                let kind = match op {
                    "merge" => b'm',
                    "json" => b'j',
                    _ => b's',
                };
                let mut bytes = vec![kind];
                bytes.extend_from_slice(original.as_bytes());
                bytes.extend_from_slice(b"\n%%\n");
                bytes.extend_from_slice(patch.as_bytes());
                out.push(("patch", bytes));
            }
        }
        _ => {}
    }
    for name in ["a", "b", "set", "exclude"] {
        if let Some(text) = case.get(name).and_then(Json::as_str) {
            out.push(("fieldsv1", text.as_bytes().to_vec()));
        }
    }
    walk_specs(case, &mut out);
    out
}

/// Value specs and path-element strings anywhere in the case.
fn walk_specs(j: &Json, out: &mut Vec<(&'static str, Vec<u8>)>) {
    match j {
        Json::Object(map) => {
            if let Some(text) = map.get("yaml").and_then(Json::as_str) {
                out.push(("yaml", text.as_bytes().to_vec()));
            }
            if let Some(text) = map.get("json").and_then(Json::as_str) {
                out.push(("json", text.as_bytes().to_vec()));
            }
            map.values().for_each(|v| walk_specs(v, out));
        }
        Json::Array(items) => {
            for item in items {
                match item.as_str() {
                    Some(text) if text.len() >= 2 && text.as_bytes()[1] == b':' => {
                        out.push(("path_element", text.as_bytes().to_vec()));
                    }
                    _ => walk_specs(item, out),
                }
            }
        }
        _ => {}
    }
}

/// Seeds for the `cli` target from the shipped examples and the CLI tests' data: three header
/// bytes (command, flags, manager and time; see fuzz/fuzz_targets/cli.rs), then the manifests,
/// the live objects and the CRDs, separated by lines `%%`.
fn cli_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let read = |p: PathBuf| std::fs::read(p).unwrap_or_default();
    let mut inputs: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> = Vec::new();
    let mut examples: Vec<PathBuf> = std::fs::read_dir(root.join("examples"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    examples.sort();
    for example in examples {
        let live = read(example.join("live.yaml"));
        let crd = read(example.join("crd.yaml"));
        let mut manifests: Vec<PathBuf> = std::fs::read_dir(&example)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("applied") && !n.contains(".result."))
            })
            .collect();
        manifests.sort();
        for manifest in manifests {
            inputs.push((read(manifest), live.clone(), crd.clone()));
        }
    }
    let data = root.join("cli/tests/data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&data)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for file in files {
        inputs.push((read(file), Vec::new(), Vec::new()));
    }
    // A Secret two managers own, and a manifest changing one value: for the masking checks.
    inputs.push((
        SECRET_APPLIED.as_bytes().to_vec(),
        SECRET_LIVE.as_bytes().to_vec(),
        Vec::new(),
    ));
    let mut out = Vec::new();
    // (command, flags): diff text/json/yaml, apply yaml/json with live and CRDs, forced, blame,
    // fields, validate, and a scale apply.
    let headers: [(u8, u8); 10] = [
        (0, 0x11),
        (1, 0x11),
        (2, 0x51),
        (3, 0x13),
        (4, 0x11),
        (0, 0x19),
        (5, 0x80),
        (6, 0x00),
        (8, 0x00),
        (9, 0x10),
    ];
    for (applied, live, crd) in &inputs {
        for file in [applied, live, crd] {
            if !file.is_empty() {
                out.push(("objects", file.clone()));
            }
        }
        for (i, (command, flags)) in headers.iter().enumerate() {
            let mut bytes = vec![*command, *flags, (i as u8) & 3];
            let first = if matches!(command, 5..=8) && !live.is_empty() {
                live
            } else {
                applied
            };
            bytes.extend_from_slice(first);
            bytes.extend_from_slice(b"\n%%\n");
            bytes.extend_from_slice(live);
            bytes.extend_from_slice(b"\n%%\n");
            bytes.extend_from_slice(crd);
            out.push(("cli", bytes));
        }
    }
    out
}

const SECRET_LIVE: &str = "apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
  uid: 8a0f3c3e-0000-4000-8000-000000000001
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{\"apiVersion\":\"v1\",\"data\":{\"password\":\"aHVudGVyMg==\"},\"kind\":\"Secret\"}'
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1: {f:data: {f:password: {}, f:user: {}}}
    manager: kubectl
    operation: Apply
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1: {f:data: {f:token: {}}}
    manager: rotator
    operation: Update
data:
  password: aHVudGVyMg==
  user: YWRtaW4=
  token: c2VjcmV0LXRva2Vu
type: Opaque
";

const SECRET_APPLIED: &str = "apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
data:
  password: bmV3LXBhc3N3b3Jk
  token: b3RoZXItdG9rZW4=
stringData:
  extra: plain-secret-text
";

/// The query of each collection read of the real-server scenarios as the `selectors` target
/// reads it: the values of its eight options, one a line.
fn selector_seeds() -> Vec<(&'static str, Vec<u8>)> {
    const QUERY: [&str; 8] = [
        "labelSelector",
        "fieldSelector",
        "continue",
        "resourceVersion",
        "limit",
        "resourceVersionMatch",
        "sendInitialEvents",
        "allowWatchBookmarks",
    ];
    let mut out = Vec::new();
    for doc in real_server_scenarios() {
        for case in doc["cases"].as_array().into_iter().flatten() {
            for step in case["steps"].as_array().into_iter().flatten() {
                let Some(query) = step["query"].as_object() else {
                    continue;
                };
                if !QUERY.iter().any(|k| query.contains_key(*k)) {
                    continue;
                }
                let lines: Vec<String> = QUERY
                    .iter()
                    .map(|k| match &query.get(*k) {
                        Some(Json::String(s)) => s.clone(),
                        Some(other) => other.to_string(),
                        None => String::new(),
                    })
                    .collect();
                out.push(("selectors", lines.join("\n").into_bytes()));
            }
        }
    }
    out
}

/// Each real-server scenario case as the `apiserver` target reads a request sequence: a line
/// `METHOD PATH?QUERY CONTENT-TYPE`, the body, and `%%` between requests.
fn apiserver_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    for doc in real_server_scenarios() {
        for case in doc["cases"].as_array().into_iter().flatten() {
            let requests: Vec<String> = case["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|step| {
                    let mut path = step["path"]
                        .as_str()
                        .unwrap_or("/")
                        .replace("{namespace}", "ns");
                    let query: Vec<String> = step["query"]
                        .as_object()
                        .into_iter()
                        .flatten()
                        .map(|(k, v)| {
                            format!("{k}={}", v.as_str().map_or(v.to_string(), str::to_owned))
                        })
                        .collect();
                    if !query.is_empty() {
                        path = format!("{path}?{}", query.join("&"));
                    }
                    let content_type = step["contentType"].as_str().unwrap_or("application/json");
                    let body = match (step["bodyText"].as_str(), &step["body"]) {
                        (Some(text), _) => text.to_owned(),
                        (None, Json::Null) => String::new(),
                        (None, body) => body.to_string().replace("{namespace}", "ns"),
                    };
                    format!(
                        "{} {path} {content_type}\n{body}",
                        step["method"].as_str().unwrap_or("GET")
                    )
                })
                .collect();
            if !requests.is_empty() {
                out.push(("apiserver", requests.join("\n%%\n").into_bytes()));
            }
        }
    }
    out
}

/// The `crd_values` target's input, `pattern \u{1} subject`: each hand-written pattern of
/// `smd/tests/data/go_regexp.json` with a subject it has, and each format corpus value (as the
/// subject of an empty pattern).
fn crd_value_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../smd/tests/data");
    let read = |name: &str| -> Json {
        std::fs::read_to_string(data.join(name))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Json::Null)
    };
    let mut out = Vec::new();
    let regexps = read("go_regexp.json");
    for case in regexps["cases"].as_array().into_iter().flatten() {
        let Some(pattern) = case["pattern"].as_str() else {
            continue;
        };
        let subject = ["match", "miss"]
            .iter()
            .find_map(|k| {
                case[k]
                    .as_array()
                    .and_then(|l| l.first())
                    .and_then(Json::as_str)
            })
            .unwrap_or_default();
        out.push((
            "crd_values",
            format!("{pattern}\u{1}{subject}").into_bytes(),
        ));
    }
    let formats = read("crd_formats.json");
    for row in formats["validates"].as_array().into_iter().flatten() {
        for list in ["valid", "invalid"] {
            for value in row[list]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Json::as_str)
            {
                out.push(("crd_values", format!("\u{1}{value}").into_bytes()));
            }
        }
    }
    out
}

/// The `cel_parse` target's input: each expression of `cel/tests/data/cel_parse.json` (the long
/// built ones left out: libFuzzer's inputs are short).
fn cel_parse_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cel/tests/data/cel_parse.json");
    let corpus: Json = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Json::Null);
    let mut out = Vec::new();
    for group in ["hand", "celgo", "random", "mutated"] {
        for case in corpus[group].as_array().into_iter().flatten() {
            if let Some(expr) = case["expr"].as_str() {
                out.push(("cel_parse", expr.as_bytes().to_vec()));
            }
        }
    }
    out
}

/// Each custom resource a real-server scenario writes, with the schema of each version of each
/// CRD of its file, as the `crd_validation` target reads them: the schema, the object and the
/// object before it (the case's previous body), separated by lines `%%`.
fn crd_validation_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    for doc in real_server_scenarios() {
        let schemas: Vec<String> = doc["crds"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|crd| crd["spec"]["versions"].as_array().into_iter().flatten())
            .map(|v| v["schema"]["openAPIV3Schema"].to_string())
            .collect();
        if schemas.is_empty() {
            continue;
        }
        for case in doc["cases"].as_array().into_iter().flatten() {
            let bodies: Vec<String> = case["steps"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|s| s["body"].is_object())
                .map(|s| s["body"].to_string())
                .collect();
            for schema in &schemas {
                for (i, body) in bodies.iter().enumerate() {
                    let old = if i > 0 { &bodies[i - 1] } else { body };
                    out.push((
                        "crd_validation",
                        format!("{schema}\n%%\n{body}\n%%\n{old}").into_bytes(),
                    ));
                }
            }
        }
    }
    out
}

/// The real-server scenario files (`apiserver/scenarios/*.yaml`), read as JSON, in name order;
/// a file that does not read is left out (the goldens test reports it).
fn real_server_scenarios() -> Vec<Json> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("apiserver/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
        .iter()
        .filter_map(|file| {
            std::fs::read_to_string(file)
                .ok()
                .and_then(|t| smd_fieldpath::yaml::from_str(&t).ok())
                .and_then(|v| serde_json::to_value(v).ok())
        })
        .collect()
}
