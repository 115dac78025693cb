//! Cases of kind `typed`: smd's `typed` operations on values typed by a schema.

use std::sync::Arc;

use crate::Malformed;
use crate::canonical;
use crate::fieldset::{fields_v1, set_field};
use crate::inputs::{self, Failure, Outcome};
use serde_json::{Value as Json, json};
use smd::typed::{self, TypedValue};
use smd_schema::Schema;

fn malformed(message: String) -> Failure {
    Failure::Malformed(Malformed(message))
}

/// An error result, cut as gogen cuts typed errors: on each line, what follows `got` is Go's
/// rendering of a value, not compared.
pub(crate) fn error_result(message: &str) -> Json {
    json!({ "error": { "stable": stable(message) } })
}

pub(crate) fn stable(message: &str) -> String {
    message
        .split('\n')
        .map(|line| match line.find("got ") {
            Some(at) => &line[..at + 3],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The schema of a case: `schema` (text), `schemaFile` (the module's testdata), or none (the
/// deduced type).
pub(crate) fn schema_of(case: &Json, key: &str) -> Result<Option<Arc<Schema>>, Failure> {
    let text = match case.get(key).and_then(Json::as_str) {
        Some(text) => text.to_owned(),
        None => match case.get("schemaFile").and_then(Json::as_str) {
            Some(name) if key == "schema" => {
                let path = crate::schema_ops::testdata_path(name)
                    .ok_or_else(|| malformed(format!("no Go module cache for {name}")))?;
                std::fs::read_to_string(&path)
                    .map_err(|e| malformed(format!("{}: {e}", path.display())))?
            }
            _ => return Ok(None),
        },
    };
    Schema::from_yaml(&text)
        .map(|s| Some(Arc::new(s)))
        .map_err(|e| malformed(format!("the schema must be valid: {e}")))
}

/// Types a value spec as the case says.
fn typed_value(
    case: &Json,
    schema: &Option<Arc<Schema>>,
    spec: &Json,
) -> Result<Result<TypedValue, String>, Failure> {
    let value = inputs::value_spec(spec)?;
    let allow_duplicates = case.get("allowDuplicates").and_then(Json::as_bool) == Some(true);
    Ok(match schema {
        None => Ok(TypedValue::deduced(value)),
        Some(schema) => {
            let name = inputs::str_field(case, "type")?;
            TypedValue::new(
                value,
                schema.clone(),
                schema.type_ref(name),
                allow_duplicates,
            )
            .map_err(|e| e.to_string())
        }
    })
}

pub(crate) fn run(op: &str, case: &Json) -> Outcome {
    let schema = schema_of(case, "schema")?;
    let object = match typed_value(case, &schema, inputs::field(case, "object")?)? {
        Ok(tv) => tv,
        Err(e) => return Ok(error_result(&e)),
    };
    let rhs = |case: &Json| -> Result<Result<TypedValue, String>, Failure> {
        typed_value(case, &schema, inputs::field(case, "rhs")?)
    };
    match op {
        "validate" => Ok(json!({ "valid": true })),
        "toFieldSet" => match object.to_field_set() {
            Ok(set) => Ok(json!({ "set": fields_v1(&set)? })),
            Err(e) => Ok(error_result(&e.to_string())),
        },
        "compare" => {
            let rhs = match rhs(case)? {
                Ok(tv) => tv,
                Err(e) => return Ok(error_result(&e)),
            };
            match object.compare(&rhs) {
                Ok(c) => Ok(json!({
                    "added": fields_v1(&c.added)?,
                    "modified": fields_v1(&c.modified)?,
                    "removed": fields_v1(&c.removed)?,
                    "isSame": c.is_same(),
                    "string": c.to_string(),
                })),
                Err(e) => Ok(error_result(&e.to_string())),
            }
        }
        "merge" => {
            let rhs = match rhs(case)? {
                Ok(tv) => tv,
                Err(e) => return Ok(error_result(&e)),
            };
            match object.merge(&rhs) {
                Ok(merged) => Ok(json!({ "value": canonical::value(merged.value()) })),
                Err(e) => Ok(error_result(&e.to_string())),
            }
        }
        "removeItems" => {
            let set = set_field(case, "set")?;
            Ok(json!({ "value": canonical::value(object.remove_items(&set).value()) }))
        }
        "extractItems" => {
            let set = set_field(case, "set")?;
            let keys = case.get("appendKeyFields").and_then(Json::as_bool) == Some(true);
            Ok(json!({ "value": canonical::value(object.extract_items(&set, keys).value()) }))
        }
        "reconcile" => {
            let set = set_field(case, "set")?;
            let Some(new_schema) = schema_of(case, "newSchema")? else {
                return Err(malformed("reconcile needs newSchema".into()));
            };
            let name = inputs::str_field(case, "type")?;
            let retyped = TypedValue::new_unvalidated(
                object.into_value(),
                new_schema.clone(),
                new_schema.type_ref(name),
            );
            match typed::reconcile_field_set_with_schema(&set, &retyped) {
                Ok(Some(set)) => Ok(json!({ "set": fields_v1(&set)? })),
                Ok(None) => Ok(json!({ "unchanged": true })),
                Err(e) => Ok(error_result(&e.to_string())),
            }
        }
        _ => Err(malformed(format!("unknown typed op {op:?}"))),
    }
}
