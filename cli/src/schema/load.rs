//! One schema from the inputs named on the command line: one document, or several OpenAPI v3
//! documents merged (one per group-version, as an API server serves `/openapi/v3`).

use super::source::{Part, Source, convert_crds, union};
use crate::Failure;
use crate::input::{self, Input};
use smd_schema::Schema;
use smd_schema::gvk::GvkIndex;
use smd_schema::openapi::{Document, Error, ErrorKind, Version};
use std::path::PathBuf;

/// A schema and, when its inputs carry one (OpenAPI, CRDs), its group/version/kind index.
#[derive(Debug)]
pub(crate) struct Loaded {
    pub(crate) schema: Schema,
    pub(crate) gvk: Option<GvkIndex>,
}

/// Reads, recognizes and combines `paths` (`-` is stdin).
pub(crate) fn load(paths: &[PathBuf]) -> Result<Loaded, Failure> {
    let mut inputs = Vec::with_capacity(paths.len());
    for path in paths {
        let input = input::read(Some(path))?;
        let source = Source::read(&input)?;
        inputs.push((input, source));
    }
    if let [(input, Source::Smd(..))] = inputs.as_slice() {
        let name = input.name.clone();
        let Some((_, source)) = inputs.pop() else {
            return Err(Failure::new("no input"));
        };
        let (schema, index) = source.into_schema(&name)?;
        let gvk = (!index.is_empty()).then_some(index);
        return Ok(Loaded { schema, gvk });
    }
    if inputs.is_empty() {
        return Err(Failure::new("no input"));
    }
    if inputs
        .iter()
        .any(|(_, s)| matches!(s, Source::Crds(_) | Source::Smd(..)))
    {
        return load_with_crds(inputs);
    }
    let mut documents: Vec<(Input, Document)> = Vec::with_capacity(inputs.len());
    for (input, source) in inputs {
        match source {
            Source::OpenApi(doc) => documents.push((input, doc)),
            Source::Smd(..) | Source::Crds(_) => {
                return Err(Failure::new(format!(
                    "{}: not an OpenAPI document",
                    input.name
                )));
            }
        }
    }
    if let Some((first, rest)) = documents.split_first() {
        if let Some(other) = rest.iter().find(|(_, d)| d.version() != first.1.version()) {
            return Err(Failure::new(format!(
                "{}: an OpenAPI {} document cannot be merged with {}, an OpenAPI {} document",
                other.0.name,
                version_name(other),
                first.0.name,
                version_name(first),
            )));
        }
    }
    // Which file defines each type, for errors found after merging.
    let owners: Vec<(String, Vec<String>)> = documents
        .iter()
        .map(|(input, doc)| (input.name.clone(), doc.names().map(str::to_owned).collect()))
        .collect();
    let doc = if documents.len() == 1 {
        documents.pop().map(|(_, d)| d)
    } else {
        None
    };
    let doc = match doc {
        Some(doc) => doc,
        None => {
            let base = match documents.first().map(|(_, d)| d.version()) {
                Some(Version::V2) => "#/definitions",
                _ => "#/components/schemas",
            };
            Document::merge(documents.into_iter().map(|(_, d)| d))
                .map_err(|e| describe_merge(&e, base, &owners))?
        }
    };
    let schema = doc.to_schema().map_err(|e| describe(&e, &owners))?;
    Ok(Loaded {
        schema,
        gvk: Some(doc.gvk_index()),
    })
}

/// The entries of `index`, owned.
fn owned_entries(index: &GvkIndex) -> Vec<(smd_schema::gvk::GroupVersionKind, String)> {
    index
        .entries()
        .into_iter()
        .map(|(g, t)| (g.clone(), t.to_owned()))
        .collect()
}

/// SMD schemas, CRDs, and OpenAPI documents given with them (the schema a cluster serves for the types the
/// CRDs use, say): each converted alone, then united.
fn load_with_crds(inputs: Vec<(Input, Source)>) -> Result<Loaded, Failure> {
    let mut parts = Vec::new();
    for (input, source) in inputs {
        match source {
            Source::Crds(crds) => parts.extend(convert_crds(&input.name, &crds)?),
            Source::OpenApi(doc) => {
                let schema = doc
                    .to_schema()
                    .map_err(|e| Failure::new(format!("{}: {e}", input.name)))?;
                parts.push(Part {
                    origin: input.name,
                    schema,
                    gvk: owned_entries(&doc.gvk_index()),
                });
            }
            Source::Smd(schema, index) => parts.push(Part {
                origin: input.name,
                schema,
                gvk: owned_entries(&index),
            }),
        }
    }
    let (schema, gvk) = union(parts)?;
    Ok(Loaded {
        schema,
        gvk: Some(gvk),
    })
}

fn version_name((_, source): &(Input, Document)) -> &'static str {
    match source.version() {
        Version::V2 => "v2",
        Version::V3 => "v3",
    }
}

/// A merge error: the type defined differently, with every file defining it. (The library
/// names the type as `#/NAME`; the pointer in the files is under `base`.)
fn describe_merge(error: &Error, base: &str, owners: &[(String, Vec<String>)]) -> Failure {
    let lines: Vec<String> = error
        .problems()
        .iter()
        .map(|p| {
            let escaped = p.pointer().strip_prefix("#/").unwrap_or_default();
            let name = unescape(escaped);
            let files: Vec<&str> = owners
                .iter()
                .filter(|(_, names)| names.contains(&name))
                .map(|(file, _)| file.as_str())
                .collect();
            format!("{}: {base}/{escaped}: {}", files.join(", "), p.message())
        })
        .collect();
    Failure::new(format!(
        "cannot merge the OpenAPI documents: {}",
        lines.join("\n  ")
    ))
}

/// The error with each problem prefixed by the file(s) defining the type it is in.
fn describe(error: &Error, owners: &[(String, Vec<String>)]) -> Failure {
    if let [(name, _)] = owners {
        return Failure::new(format!("{name}: {error}"));
    }
    let what = match error.kind() {
        ErrorKind::Read => "cannot read the OpenAPI document",
        ErrorKind::Merge => "cannot merge the OpenAPI documents",
        _ => "cannot convert the OpenAPI schemas",
    };
    let located: Vec<String> = error
        .problems()
        .iter()
        .map(|p| {
            let definition = definition_of(p.pointer());
            let files: Vec<&str> = owners
                .iter()
                .filter(|(_, names)| {
                    definition
                        .as_deref()
                        .is_some_and(|d| names.iter().any(|n| n == d))
                })
                .map(|(file, _)| file.as_str())
                .collect();
            let files = match files.as_slice() {
                [] => String::new(),
                [first, ..] => format!("{first}: "),
            };
            format!("{files}{p}")
        })
        .collect();
    match located.as_slice() {
        [one] => Failure::new(format!("{what}: {one}")),
        many => Failure::new(format!(
            "{what}: {} problems\n  {}",
            many.len(),
            many.join("\n  ")
        )),
    }
}

/// The definition name a JSON pointer is in: `#/components/schemas/NAME/...` or
/// `#/definitions/NAME/...`.
fn definition_of(pointer: &str) -> Option<String> {
    let rest = pointer
        .strip_prefix("#/components/schemas/")
        .or_else(|| pointer.strip_prefix("#/definitions/"))?;
    Some(unescape(rest.split('/').next()?))
}

fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}
