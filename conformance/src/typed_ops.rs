//! Cases of kind `typed`: smd's `typed` operations on values typed by a schema.

use std::sync::Arc;

use crate::Malformed;
use crate::canonical;
use crate::fieldset::set_field;
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

/// The schema of a case: text under `text_key`, a file of the module's testdata under
/// `file_key`, or none.
pub(crate) fn schema_of(
    case: &Json,
    text_key: &str,
    file_key: &str,
) -> Result<Option<Arc<Schema>>, Failure> {
    let text = match (
        case.get(text_key).and_then(Json::as_str),
        case.get(file_key).and_then(Json::as_str),
    ) {
        (Some(text), _) => text.to_owned(),
        (None, Some(name)) => {
            let path = crate::schema_ops::testdata_path(name)
                .ok_or_else(|| malformed(format!("no Go module cache for {name}")))?;
            std::fs::read_to_string(&path)
                .map_err(|e| malformed(format!("{}: {e}", path.display())))?
        }
        (None, None) => return Ok(None),
    };
    Schema::from_yaml(&text)
        .map(|s| Some(Arc::new(s)))
        .map_err(|e| malformed(format!("the schema must be valid: {e}")))
}

/// `out` with `key: fieldsV1` of `set`, or `keyError` when the set has no fieldsV1 form (a
/// NaN or infinite value in a path element).
fn set_result(mut out: Json, key: &str, set: &smd_fieldpath::Set) -> Json {
    match set.to_fields_v1() {
        Ok(bytes) => out[key] = Json::String(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) => out[format!("{key}Error")] = canonical::error(&e),
    }
    out
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
    let schema = schema_of(case, "schema", "schemaFile")?;
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
            Ok(set) => Ok(set_result(json!({}), "set", &set)),
            Err(e) => Ok(error_result(&e.to_string())),
        },
        "compare" => {
            let rhs = match rhs(case)? {
                Ok(tv) => tv,
                Err(e) => return Ok(error_result(&e)),
            };
            match object.compare(&rhs) {
                Ok(c) => {
                    let out = json!({ "isSame": c.is_same(), "string": c.to_string() });
                    let out = set_result(out, "added", &c.added);
                    let out = set_result(out, "modified", &c.modified);
                    Ok(set_result(out, "removed", &c.removed))
                }
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
            let target = match schema_of(case, "newSchema", "newSchemaFile")? {
                None => object,
                Some(new_schema) => {
                    let name = inputs::str_field(case, "type")?;
                    let allow = case.get("allowDuplicates").and_then(Json::as_bool) == Some(true);
                    let retyped = TypedValue::new(
                        object.into_value(),
                        new_schema.clone(),
                        new_schema.type_ref(name),
                        allow,
                    );
                    match retyped {
                        Ok(tv) => tv,
                        Err(e) => return Ok(error_result(&e.to_string())),
                    }
                }
            };
            match typed::reconcile_field_set_with_schema(&set, &target) {
                Ok(Some(set)) => Ok(set_result(json!({}), "set", &set)),
                Ok(None) => Ok(json!({ "unchanged": true })),
                Err(e) => Ok(error_result(&e.to_string())),
            }
        }
        _ => Err(malformed(format!("unknown typed op {op:?}"))),
    }
}
