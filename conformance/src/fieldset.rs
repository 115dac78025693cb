//! Cases of kind `fieldset`.

use crate::Malformed;
use crate::canonical;
use crate::inputs::{self, Failure, Outcome};
use serde_json::{Map as JsonMap, Value as Json, json};
use smd_fieldpath::{
    ElementPattern, ExcludeFilter, Filter, IncludeFilter, ManagedFields, Set, SetMatcher,
    VersionedSet,
};

pub(crate) fn run(op: &str, case: &Json) -> Outcome {
    match op {
        "parse" => parse(case),
        "build" => {
            let mut set = Set::new();
            for path in inputs::list(case, "paths")? {
                set.insert(&inputs::path(path)?);
            }
            describe(&set)
        }
        "algebra" => {
            let a = set_field(case, "a")?;
            let b = set_field(case, "b")?;
            Ok(json!({
                "union": fields_v1(&a.union(&b))?,
                "intersection": fields_v1(&a.intersection(&b))?,
                "difference": fields_v1(&a.difference(&b))?,
                "recursiveDifference": fields_v1(&a.recursive_difference(&b))?,
                "reverseDifference": fields_v1(&b.difference(&a))?,
                "reverseRecursiveDifference": fields_v1(&b.recursive_difference(&a))?,
                "equals": a == b,
            }))
        }
        "filter" => {
            let set = set_field(case, "set")?;
            let result = if case.get("exclude").is_some() {
                ExcludeFilter::new(set_field(case, "exclude")?).filter(&set)
            } else {
                let matchers = inputs::list(case, "include")?
                    .iter()
                    .map(matcher)
                    .collect::<Result<Vec<_>, _>>()?;
                IncludeFilter::new(matchers).filter(&set)
            };
            Ok(json!({ "result": fields_v1(&result)? }))
        }
        "fromValue" => describe(&Set::from_value(&inputs::value_spec(inputs::field(
            case, "value",
        )?)?)),
        "managers" => {
            let lhs = managers(inputs::field(case, "lhs")?)?;
            let rhs = managers(inputs::field(case, "rhs")?)?;
            Ok(json!({
                "difference": managers_json(&lhs.difference(&rhs))?,
                "equals": lhs == rhs,
            }))
        }
        _ => Err(Failure::Malformed(Malformed(format!(
            "unknown fieldset op {op:?}"
        )))),
    }
}

fn parse(case: &Json) -> Outcome {
    let bytes = inputs::input_bytes(case)?;
    let (set, error) = Set::from_fields_v1_partial(&bytes);
    if let Some(error) = error {
        let mut result = json!({ "error": canonical::error(&error) });
        match set.to_fields_v1() {
            Ok(b) => result["partial"] = canonical::bytes(&b),
            Err(e) => result["partialError"] = canonical::error(&e),
        }
        return Ok(result);
    }
    let mut result = describe(&set)?;
    if let Some(paths) = case.get("has") {
        let paths = paths
            .as_array()
            .ok_or_else(|| Malformed("\"has\" is not a list".into()))?;
        let has = paths
            .iter()
            .map(|p| Ok(set.has(&inputs::path(p)?)))
            .collect::<Result<Vec<bool>, Failure>>()?;
        result["has"] = json!(has);
    }
    if let Some(elements) = case.get("withPrefix") {
        let elements = elements
            .as_array()
            .ok_or_else(|| Malformed("\"withPrefix\" is not a list".into()))?;
        let subsets = elements
            .iter()
            .map(|e| fields_v1(&set.with_prefix(&inputs::element(e)?)))
            .collect::<Result<Vec<Json>, Failure>>()?;
        result["withPrefix"] = Json::Array(subsets);
    }
    Ok(result)
}

pub(crate) fn set_field(case: &Json, name: &str) -> Result<Set, Failure> {
    let text = inputs::str_field(case, name)?;
    Ok(Set::from_fields_v1(text.as_bytes())?)
}

pub(crate) fn fields_v1(set: &Set) -> Result<Json, Failure> {
    Ok(canonical::bytes(&set.to_fields_v1()?))
}

/// Go's set description: bytes, paths, their texts, size, emptiness, leaves.
fn describe(set: &Set) -> Outcome {
    let mut paths = Vec::new();
    let mut strings = Vec::new();
    for path in set {
        let elements = path
            .iter()
            .map(|e| Ok(canonical::bytes(&e.to_fields_v1()?)))
            .collect::<Result<Vec<Json>, Failure>>()?;
        paths.push(Json::Array(elements));
        strings.push(Json::String(path.to_string()));
    }
    Ok(json!({
        "fieldsV1": fields_v1(set)?,
        "paths": paths,
        "strings": strings,
        "size": set.size(),
        "empty": set.is_empty(),
        "leaves": fields_v1(&set.leaves())?,
    }))
}

/// A prefix pattern: PE strings, `"*"` for any element.
pub(crate) fn matcher(pattern: &Json) -> Result<SetMatcher, Failure> {
    let parts = pattern
        .as_array()
        .ok_or_else(|| Malformed(format!("not a pattern: {pattern}")))?;
    let elements = parts
        .iter()
        .map(|p| match p.as_str() {
            Some("*") => Ok(ElementPattern::Any),
            _ => Ok(ElementPattern::Element(inputs::element(p)?)),
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    Ok(SetMatcher::prefix(elements))
}

pub(crate) fn managers(spec: &Json) -> Result<ManagedFields, Failure> {
    let entries = spec
        .as_object()
        .ok_or_else(|| Malformed(format!("not managers: {spec}")))?;
    let mut out = ManagedFields::new();
    for (manager, entry) in entries {
        let set = set_field(entry, "fieldsV1")?;
        let version = inputs::str_field(entry, "apiVersion")?;
        let applied = entry
            .get("applied")
            .and_then(Json::as_bool)
            .unwrap_or(false);
        out.insert(manager.clone(), VersionedSet::new(set, version, applied));
    }
    Ok(out)
}

pub(crate) fn managers_json(managers: &ManagedFields) -> Result<Json, Failure> {
    let mut out = JsonMap::new();
    for (manager, entry) in managers.iter() {
        out.insert(
            manager.to_owned(),
            json!({
                "apiVersion": entry.api_version(),
                "applied": entry.applied(),
                "fieldsV1": fields_v1(entry.set())?,
            }),
        );
    }
    Ok(Json::Object(out))
}
