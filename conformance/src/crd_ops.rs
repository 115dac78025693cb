//! kind `crd`: CustomResourceDefinitions converted by smd, in the shape of gogen's results.

use serde_json::{Value as Json, json};
use smd_schema::crd;

use crate::Malformed;
use crate::inputs::{Failure, Outcome, input_bytes};
use crate::openapi_ops::schema_json;

pub(crate) fn run(op: &str, case: &Json) -> Outcome {
    if op != "convert" {
        return Err(Failure::Malformed(Malformed(format!(
            "unknown op {op:?} for kind \"crd\""
        ))));
    }
    let bytes = input_bytes(case)?;
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Ok(json!({ "readError": { "stable": "the input is not UTF-8" } }));
    };
    let results = match crd::convert_stream(text) {
        Ok(r) => r,
        Err(e) => return Ok(json!({ "readError": { "stable": e.to_string() } })),
    };
    let mut crds = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(c) => {
                let index: Vec<Json> = c
                    .index
                    .iter()
                    .map(|(g, t)| {
                        json!({ "group": g.group, "version": g.version, "kind": g.kind, "type": t })
                    })
                    .collect();
                crds.push(json!({
                    "name": c.name,
                    "schema": schema_json(&c.schema),
                    "index": index,
                }));
            }
            Err(e) if !e.invalid().is_empty() => {
                let lines: Vec<&str> = e.invalid().iter().map(|f| f.go_text.as_str()).collect();
                crds.push(json!({ "name": e.crd_name(), "invalid": lines }));
            }
            Err(e) => return Ok(json!({ "readError": { "stable": e.to_string() } })),
        }
    }
    Ok(json!({ "crds": crds }))
}
