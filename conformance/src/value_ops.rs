//! Cases of kind `value`, `pathElement` and `path`.

use crate::Malformed;
use crate::canonical;
use crate::inputs::{self, Failure, Outcome};
use serde_json::{Value as Json, json};
use smd_fieldpath::{Path, PathElement, Value};
use std::cmp::Ordering;

fn sign(order: Ordering) -> i64 {
    match order {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

fn unknown(kind: &str, op: &str) -> Failure {
    Failure::Malformed(Malformed(format!("unknown {kind} op {op:?}")))
}

pub(crate) fn run(op: &str, case: &Json) -> Outcome {
    match op {
        "parseYAML" => {
            let bytes = inputs::input_bytes(case)?;
            let documents = smd_fieldpath::yaml::documents_from_slice(&bytes)?;
            Ok(json!({ "documents": documents.iter().map(canonical::value).collect::<Vec<_>>() }))
        }
        "parseJSON" => {
            let value = Value::from_json_floats(&inputs::input_bytes(case)?)?;
            Ok(json!({ "value": canonical::value(&value) }))
        }
        "compare" => {
            let a = inputs::value_spec(inputs::field(case, "a")?)?;
            let b = inputs::value_spec(inputs::field(case, "b")?)?;
            Ok(json!({
                "compare": sign(a.compare(&b)),
                "reverse": sign(b.compare(&a)),
                "equals": a == b,
            }))
        }
        "string" => {
            let a = inputs::value_spec(inputs::field(case, "a")?)?;
            let mut result = json!({ "string": a.to_string() });
            match a.to_json() {
                Ok(text) => result["json"] = Json::String(text),
                Err(e) => result["jsonError"] = canonical::error(&e.into()),
            }
            Ok(result)
        }
        _ => Err(unknown("value", op)),
    }
}

pub(crate) fn run_path_element(op: &str, case: &Json) -> Outcome {
    match op {
        "parse" => {
            let bytes = inputs::input_bytes(case)?;
            describe_element(&PathElement::from_fields_v1(&bytes)?)
        }
        "serialize" => describe_element(&inputs::element(inputs::field(case, "element")?)?),
        "order" => {
            let elements = inputs::list(case, "inputs")?
                .iter()
                .map(inputs::element)
                .collect::<Result<Vec<_>, _>>()?;
            let matrix: Vec<Vec<i64>> = elements
                .iter()
                .map(|a| elements.iter().map(|b| sign(a.compare(b))).collect())
                .collect();
            Ok(json!({ "compare": matrix }))
        }
        _ => Err(unknown("pathElement", op)),
    }
}

fn describe_element(element: &PathElement) -> Outcome {
    let mut result = json!({ "string": element.to_string() });
    match element.to_fields_v1() {
        Ok(bytes) => result["serialized"] = canonical::bytes(&bytes),
        Err(e) => result["serializeError"] = canonical::error(&e),
    }
    Ok(result)
}

pub(crate) fn run_path(op: &str, case: &Json) -> Outcome {
    match op {
        "string" => {
            let path = Path::from(inputs::path(inputs::field(case, "path")?)?);
            Ok(json!({ "string": path.to_string() }))
        }
        _ => Err(unknown("path", op)),
    }
}
