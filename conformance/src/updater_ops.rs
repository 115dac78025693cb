//! Cases of kind `updater`: sequences of applies and updates through smd's `merge::Updater`,
//! with the test converters of Go's suite (identity, renaming, accepted versions).

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use crate::Malformed;
use crate::canonical;
use crate::fieldset::{managers, managers_json, matcher, set_field};
use crate::inputs::{self, Failure, Outcome};
use crate::typed_ops::{error_result, schema_of};
use serde_json::{Value as Json, json};
use smd::fieldpath::{ExcludeFilter, Filter, IncludeFilter, ManagedFields, Map, Value};
use smd::merge::{ConversionError, Converter, Error, Ignore, Updater};
use smd::typed::TypedValue;
use smd_schema::Schema;

fn malformed(message: String) -> Failure {
    Failure::Malformed(Malformed(message))
}

/// How versions map to types, under the schema in force.
struct Typing {
    schema: Option<Arc<Schema>>,
    same_type: Option<String>,
    types: Option<BTreeMap<String, String>>,
    accepted: Vec<String>,
}

impl Typing {
    /// `value` typed as the type of `version`.
    fn type_value(
        &self,
        value: Value,
        version: &str,
        allow_duplicates: bool,
    ) -> Result<TypedValue, String> {
        let Some(schema) = &self.schema else {
            return Ok(TypedValue::deduced(value));
        };
        let name = match (&self.same_type, &self.types) {
            (Some(t), _) => t.clone(),
            (None, Some(types)) => types.get(version).cloned().unwrap_or_default(),
            (None, None) => version.to_owned(),
        };
        TypedValue::new(
            value,
            schema.clone(),
            schema.type_ref(&name),
            allow_duplicates,
        )
        .map_err(|e| e.to_string())
    }
}

type Shared = Rc<RefCell<Typing>>;

enum TestConverter {
    Identity,
    Renaming(Shared),
    Accepted(Shared),
}

impl Converter for TestConverter {
    fn convert<'a>(
        &self,
        object: &'a TypedValue,
        version: &str,
    ) -> Result<Cow<'a, TypedValue>, ConversionError> {
        match self {
            TestConverter::Identity if version.is_empty() => Err(ConversionError {
                message: "cannot convert to invalid version: \"\"".to_owned(),
                missing_version: false,
            }),
            TestConverter::Identity => Ok(Cow::Borrowed(object)),
            TestConverter::Accepted(typing) => {
                if typing.borrow().accepted.iter().any(|v| v == version) {
                    Ok(Cow::Borrowed(object))
                } else {
                    Err(ConversionError {
                        message: format!("Unknown version: {version}"),
                        missing_version: true,
                    })
                }
            }
            TestConverter::Renaming(typing) => {
                let from = object.type_ref().named_type().unwrap_or_default();
                let renamed = rename(object.value(), from, version);
                typing
                    .borrow()
                    .type_value(renamed, version, false)
                    .map(Cow::Owned)
                    .map_err(|message| ConversionError {
                        message,
                        missing_version: false,
                    })
            }
        }
    }
}

/// Every map key ending in `from` with that suffix replaced by `to`, at every depth.
fn rename(v: &Value, from: &str, to: &str) -> Value {
    match v {
        Value::Map(m) => {
            let mut out = Map::with_capacity(m.len());
            for (k, inner) in m.iter() {
                let key = match k.strip_suffix(from) {
                    Some(stem) => format!("{stem}{to}"),
                    None => k.to_owned(),
                };
                out.insert(key, rename(inner, from, to));
            }
            Value::Map(out)
        }
        Value::List(items) => Value::List(items.iter().map(|i| rename(i, from, to)).collect()),
        other => other.clone(),
    }
}

/// A value spec, or `{testdataFile: NAME}`: a YAML file of the module's testdata.
fn object(spec: &Json) -> Result<Value, Failure> {
    if let Some(name) = spec.get("testdataFile").and_then(Json::as_str) {
        let path = crate::schema_ops::testdata_path(name)
            .ok_or_else(|| malformed(format!("no Go module cache for {name}")))?;
        let text = std::fs::read_to_string(&path)
            .map_err(|e| malformed(format!("{}: {e}", path.display())))?;
        return Ok(smd::fieldpath::yaml::from_str(&text)?);
    }
    inputs::value_spec(spec)
}

fn ignore(case: &Json) -> Result<Ignore, Failure> {
    if let Some(fields) = case.get("ignoredFields") {
        let entries = fields
            .as_object()
            .ok_or_else(|| malformed("ignoredFields is not a map".into()))?;
        let mut sets = HashMap::new();
        for (version, set) in entries {
            sets.insert(version.clone(), set_field(&json!({ "s": set }), "s")?);
        }
        return Ok(Ignore::Fields(sets));
    }
    if let Some(filters) = case.get("ignoreFilter") {
        let entries = filters
            .as_object()
            .ok_or_else(|| malformed("ignoreFilter is not a map".into()))?;
        let mut out: HashMap<String, Box<dyn Filter + Send + Sync>> = HashMap::new();
        for (version, spec) in entries {
            let filter: Box<dyn Filter + Send + Sync> = if spec.get("exclude").is_some() {
                Box::new(ExcludeFilter::new(set_field(spec, "exclude")?))
            } else {
                let matchers = inputs::list(spec, "include")?
                    .iter()
                    .map(matcher)
                    .collect::<Result<Vec<_>, _>>()?;
                Box::new(IncludeFilter::new(matchers))
            };
            out.insert(version.clone(), filter);
        }
        return Ok(Ignore::Filters(out));
    }
    Ok(Ignore::Nothing)
}

fn strings(spec: &Json) -> Result<Vec<String>, Failure> {
    spec.as_array()
        .ok_or_else(|| malformed(format!("not a list: {spec}")))?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| malformed(format!("not a string: {v}")))
        })
        .collect()
}

pub(crate) fn run(op: &str, case: &Json) -> Outcome {
    if op != "sequence" {
        return Err(malformed(format!("unknown updater op {op:?}")));
    }
    let types = match case.get("types") {
        None => None,
        Some(t) => {
            let map = t
                .as_object()
                .ok_or_else(|| malformed("types is not a map".into()))?;
            let mut out = BTreeMap::new();
            for (version, name) in map {
                let name = name
                    .as_str()
                    .ok_or_else(|| malformed("a type name is a string".into()))?;
                out.insert(version.clone(), name.to_owned());
            }
            Some(out)
        }
    };
    let converter_spec = case.get("converter");
    let accepted = match converter_spec.and_then(|c| c.get("accepted")) {
        Some(list) => strings(list)?,
        None => Vec::new(),
    };
    let typing: Shared = Rc::new(RefCell::new(Typing {
        schema: schema_of(case, "schema", "schemaFile")?,
        same_type: case.get("type").and_then(Json::as_str).map(str::to_owned),
        types,
        accepted,
    }));
    let converter = match converter_spec {
        None => TestConverter::Identity,
        Some(c) if c.as_str() == Some("identity") => TestConverter::Identity,
        Some(c) if c.as_str() == Some("renaming") => TestConverter::Renaming(typing.clone()),
        Some(c) if c.get("accepted").is_some() => TestConverter::Accepted(typing.clone()),
        Some(c) => return Err(malformed(format!("unknown converter {c}"))),
    };
    let return_input = case.get("returnInputOnNoop").and_then(Json::as_bool) == Some(true);
    let updater = Updater::new(converter)
        .with_ignore(ignore(case)?)
        .with_return_input_on_noop(return_input);

    let objects = case.get("objects").and_then(Json::as_bool) != Some(false);
    let mut state = State {
        objects,
        live: None,
        managers: match case.get("managers") {
            Some(spec) => managers(spec)?,
            None => ManagedFields::new(),
        },
    };
    if let Some(live) = case.get("live") {
        let version = inputs::str_field(live, "apiVersion")?;
        let value = object(inputs::field(live, "object")?)?;
        match typing.borrow().type_value(value, version, true) {
            Ok(tv) => state.live = Some(tv),
            Err(e) => return Ok(error_result(&e)),
        }
    }
    let mut results = Vec::new();
    for step in inputs::list(case, "steps")? {
        results.push(run_step(step, &typing, &updater, &mut state)?);
    }
    Ok(json!({ "steps": results }))
}

struct State {
    /// Whether step results hold the object.
    objects: bool,
    live: Option<TypedValue>,
    managers: ManagedFields,
}

fn run_step(
    step: &Json,
    typing: &Shared,
    updater: &Updater<TestConverter>,
    state: &mut State,
) -> Outcome {
    let op = inputs::str_field(step, "op")?;
    match op {
        "changeSchema" => {
            let Some(schema) = schema_of(step, "schema", "schemaFile")? else {
                return Err(malformed("changeSchema needs a schema".into()));
            };
            if let Some(live) = &state.live {
                let retyped = TypedValue::new(
                    live.value().clone(),
                    schema.clone(),
                    live.type_ref().clone(),
                    false,
                );
                match retyped {
                    Ok(tv) => state.live = Some(tv),
                    Err(e) => return Ok(error_result(&e.to_string())),
                }
            }
            typing.borrow_mut().schema = Some(schema);
            Ok(json!({}))
        }
        "setAccepted" => {
            typing.borrow_mut().accepted = strings(inputs::field(step, "accepted")?)?;
            Ok(json!({}))
        }
        "apply" | "update" => {
            let manager = inputs::str_field(step, "manager")?;
            let version = inputs::str_field(step, "apiVersion")?;
            let value = match object(inputs::field(step, "object")?) {
                Ok(value) => value,
                Err(Failure::Error(e)) => return Ok(json!({ "error": canonical::error(&e) })),
                Err(other) => return Err(other),
            };
            let is_update = op == "update";
            let obj = match typing.borrow().type_value(value, version, is_update) {
                Ok(tv) => tv,
                Err(e) => return Ok(error_result(&e)),
            };
            let live = match &state.live {
                Some(live) => live.clone(),
                None => match typing.borrow().type_value(Value::Null, version, true) {
                    Ok(tv) => tv,
                    Err(e) => {
                        let message = format!("failed to create new empty object: {e}");
                        return Ok(error_result(&message));
                    }
                },
            };
            let live = match updater.converter().convert(&live, version) {
                Ok(l) => l.into_owned(),
                Err(e) => return Ok(error_result(&e.to_string())),
            };
            let outcome = if is_update {
                updater
                    .update(&live, &obj, version, &state.managers, manager)
                    .map(|m| (Some(obj), m, false))
            } else {
                let force = step.get("force").and_then(Json::as_bool) == Some(true);
                updater
                    .apply(&live, &obj, version, &state.managers, manager, force)
                    .map(|(o, m)| {
                        let noop = o.is_none();
                        (o, m, noop)
                    })
            };
            match outcome {
                Ok((new, managers, noop)) => {
                    let new_live = new.unwrap_or(live);
                    let mut result = json!({
                        "noop": noop,
                        "managers": managers_json(&managers)?,
                    });
                    if state.objects {
                        result["object"] = canonical::value(new_live.value());
                    }
                    state.live = Some(new_live);
                    state.managers = managers;
                    Ok(result)
                }
                Err(Error::Conflicts(conflicts)) => {
                    let mut list: Vec<(&str, String)> = conflicts
                        .conflicts()
                        .iter()
                        .map(|c| (c.manager.as_str(), c.path.to_string()))
                        .collect();
                    list.sort_by(|a, b| a.0.cmp(b.0));
                    let list: Vec<Json> = list
                        .into_iter()
                        .map(|(m, p)| json!({ "manager": m, "path": p }))
                        .collect();
                    Ok(json!({ "conflicts": list, "message": conflicts.to_string() }))
                }
                Err(e) => Ok(error_result(&e.to_string())),
            }
        }
        other => Err(malformed(format!("unknown step op {other:?}"))),
    }
}

/// The invariants the `updater` fuzz target checks on smd, checked on a result (Go's, in the
/// differential mode): each one, broken, is a line. For every step that succeeded: no manager
/// is left with an empty set; every fieldsV1 reads back and writes to the same bytes; after an
/// apply, the applier owns exactly the field set of its configuration (typed as the step
/// typed it), as an applier (`applied: true`). For every refused apply: at least one
/// conflict, none with the applier itself.
pub fn invariant_violations(case: &Json, result: &Json) -> Vec<String> {
    let mut broken = Vec::new();
    let (Some(steps), Some(results)) = (
        case.get("steps").and_then(Json::as_array),
        result.get("steps").and_then(Json::as_array),
    ) else {
        return broken;
    };
    let Ok(schema) = schema_of(case, "schema", "schemaFile") else {
        return broken;
    };
    let typing = Typing {
        schema,
        same_type: case.get("type").and_then(Json::as_str).map(str::to_owned),
        types: None,
        accepted: Vec::new(),
    };
    if case.get("types").is_some()
        || case.get("ignoredFields").is_some()
        || case.get("ignoreFilter").is_some()
    {
        // Types per version and ignored fields change what an applier owns: not checked.
        return broken;
    }
    for (i, (step, out)) in steps.iter().zip(results).enumerate() {
        let op = step.get("op").and_then(Json::as_str).unwrap_or_default();
        let manager = step
            .get("manager")
            .and_then(Json::as_str)
            .unwrap_or_default();
        if op == "changeSchema" {
            // The rest of the sequence is typed by another schema: stop checking.
            break;
        }
        if let Some(conflicts) = out.get("conflicts").and_then(Json::as_array) {
            if conflicts.is_empty() {
                broken.push(format!("step {i}: a refused apply names no conflict"));
            }
            if conflicts
                .iter()
                .any(|c| c.get("manager").and_then(Json::as_str) == Some(manager))
            {
                broken.push(format!("step {i}: {manager} conflicts with itself"));
            }
            continue;
        }
        let Some(managers) = out.get("managers").and_then(Json::as_object) else {
            continue;
        };
        for (name, entry) in managers {
            let text = entry
                .get("fieldsV1")
                .and_then(Json::as_str)
                .unwrap_or_default();
            match smd::fieldpath::Set::from_fields_v1(text.as_bytes()) {
                Ok(set) if set.is_empty() => {
                    broken.push(format!("step {i}: {name} is left with an empty set"))
                }
                Ok(set) => {
                    let again = set
                        .to_fields_v1()
                        .map(|b| String::from_utf8_lossy(&b).into_owned());
                    if again.as_deref() != Ok(text) {
                        broken.push(format!("step {i}: {name}'s fieldsV1 does not round-trip"));
                    }
                }
                Err(e) => broken.push(format!("step {i}: {name}'s fieldsV1 does not read: {e}")),
            }
        }
        if op != "apply" {
            continue;
        }
        let version = step
            .get("apiVersion")
            .and_then(Json::as_str)
            .unwrap_or_default();
        let Some(Ok(value)) = step.get("object").map(object) else {
            continue;
        };
        let Ok(config) = typing.type_value(value, version, false) else {
            continue;
        };
        let Ok(own) = config.to_field_set() else {
            continue;
        };
        match managers.get(manager) {
            None if own.is_empty() => {}
            None => broken.push(format!("step {i}: the applier {manager} owns nothing")),
            Some(entry) => {
                if entry.get("applied").and_then(Json::as_bool) != Some(true) {
                    broken.push(format!(
                        "step {i}: the applier {manager} is not marked applied"
                    ));
                }
                let text = entry
                    .get("fieldsV1")
                    .and_then(Json::as_str)
                    .unwrap_or_default();
                let expected = own
                    .to_fields_v1()
                    .map(|b| String::from_utf8_lossy(&b).into_owned());
                if expected.as_deref() != Ok(text) {
                    broken.push(format!(
                        "step {i}: the applier {manager} owns {text}, not its configuration's set {expected:?}"
                    ));
                }
            }
        }
    }
    broken
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invariants_catch_what_they_state() {
        let case = json!({
            "kind": "updater", "op": "sequence",
            "steps": [
                {"op": "apply", "manager": "a", "apiVersion": "v1", "object": {"yaml": "{x: 1}"}},
                {"op": "apply", "manager": "b", "apiVersion": "v1", "object": {"yaml": "{x: 2}"}},
            ],
        });
        let good = json!({"steps": [
            {"noop": false, "managers": {"a": {"apiVersion": "v1", "applied": true, "fieldsV1": "{\"f:x\":{}}"}}},
            {"conflicts": [{"manager": "a", "path": ".x"}], "message": "conflict with \"a\": .x"},
        ]});
        assert_eq!(invariant_violations(&case, &good), Vec::<String>::new());
        let bad = json!({"steps": [
            {"noop": false, "managers": {
                "a": {"apiVersion": "v1", "applied": false, "fieldsV1": "{\"f:y\":{}}"},
                "c": {"apiVersion": "v1", "applied": false, "fieldsV1": "{}"}}},
            {"conflicts": [{"manager": "b", "path": ".x"}], "message": ""},
        ]});
        let broken = invariant_violations(&case, &bad);
        assert_eq!(broken.len(), 4, "{broken:#?}");
    }
}
